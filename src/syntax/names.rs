//! What a command name or a pasted Unicode character stands for.
//!
//! The grammar matches any `\` + letters as one token; this module classifies the name (a
//! Greek letter, a symbol, an operator name, a large operator, an ellipsis, or unknown), and
//! gives every operator its canonical LaTeX spelling (`\leq`, `≤` and `<=` are all `\le`).
//! It also maps characters pasted from PDFs (`α`, `ℝ`, `𝑄`, `∑`) to their LaTeX equivalents.

use super::ast::{Font, WordStyle};
use std::sync::OnceLock;

/// What a command name denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandClass {
    /// A symbol: a Greek letter, `\infty`, `\partial`, or an operator used as an operand.
    Symbol,
    /// An operator name such as `\log` (with its style: limits or not).
    Word(WordStyle),
    /// A large operator such as `\sum`.
    LargeOp,
    /// An ellipsis such as `\dots`.
    Dots,
    /// A command that needs arguments it was not given here (`\frac` alone).
    NeedsArguments,
    /// A name eqmap does not know.
    Unknown,
}

const GREEK: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "varkappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "varpi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "digamma",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
    "varGamma",
    "varDelta",
    "varTheta",
    "varLambda",
    "varXi",
    "varPi",
    "varSigma",
    "varUpsilon",
    "varPhi",
    "varPsi",
    "varOmega",
];

const SYMBOLS: &[&str] = &[
    "infty",
    "partial",
    "nabla",
    "ell",
    "hbar",
    "hslash",
    "emptyset",
    "varnothing",
    "top",
    "intercal",
    "bot",
    "dagger",
    "dag",
    "ddagger",
    "prime",
    "backprime",
    "forall",
    "exists",
    "nexists",
    "angle",
    "measuredangle",
    "triangle",
    "square",
    "Box",
    "blacksquare",
    "aleph",
    "beth",
    "gimel",
    "imath",
    "jmath",
    "wp",
    "Re",
    "Im",
    "surd",
    "checkmark",
    "clubsuit",
    "diamondsuit",
    "heartsuit",
    "spadesuit",
    "flat",
    "natural",
    "sharp",
    "S",
    "P",
    "copyright",
    "degree",
    "complement",
    "mho",
    "eth",
    "Finv",
    "Game",
    "Bbbk",
    "circledS",
    "lozenge",
    "star",
    "bigstar",
    "ast",
    "cdot",
    "cdotp",
    "times",
    "div",
    "circ",
    "bullet",
    "odot",
    "otimes",
    "oplus",
    "ominus",
    "pm",
    "mp",
    "cup",
    "cap",
    "wedge",
    "vee",
    "setminus",
    "smallsetminus",
    "bmod",
    "mod",
    "pmod",
    "in",
    "notin",
    "ni",
    "subset",
    "subseteq",
    "supset",
    "supseteq",
    "le",
    "leq",
    "ge",
    "geq",
    "neq",
    "ne",
    "sim",
    "simeq",
    "approx",
    "cong",
    "equiv",
    "propto",
    "to",
    "mapsto",
    "rightarrow",
    "leftarrow",
    "Rightarrow",
    "Leftarrow",
    "leftrightarrow",
    "Leftrightarrow",
    "uparrow",
    "downarrow",
    "mid",
    "parallel",
    "perp",
    "models",
    "vdash",
    "lnot",
    "neg",
    "colon",
    "ldotp",
    "vert",
    "Vert",
    "lvert",
    "rvert",
    "lVert",
    "rVert",
    "langle",
    "rangle",
    "lfloor",
    "rfloor",
    "lceil",
    "rceil",
    "backslash",
    "diamond",
    "triangleleft",
    "triangleright",
    "natural",
    "infin",
    "varpropto",
    "textbackslash",
    "amalg",
    "ltimes",
    "rtimes",
    "lhd",
    "rhd",
    "unlhd",
    "unrhd",
    "circledcirc",
    "boxplus",
    "boxminus",
    "boxtimes",
    "boxdot",
    "because",
    "therefore",
    "iff",
    "implies",
    "gets",
    "hookrightarrow",
    "longrightarrow",
    "longmapsto",
    "uplus",
    "sqcup",
    "sqcap",
    "oslash",
    "lll",
    "ggg",
    "ll",
    "gg",
    "prec",
    "succ",
    "preceq",
    "succeq",
    "asymp",
    "doteq",
    "bowtie",
    "smile",
    "frown",
    "nmid",
    "nparallel",
    "land",
    "lor",
    "textstyle",
    "varepsilon",
];

const OPERATOR_NAMES: &[&str] = &[
    "log", "ln", "lg", "exp", "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "sinh",
    "cosh", "tanh", "coth", "sech", "csch", "arg", "deg", "det", "dim", "ker", "hom", "Pr", "gcd", "tr",
    "Tr", "sgn", "erf", "diag", "rank", "span", "Var", "Cov", "softmax",
];

const LIMIT_OPERATOR_NAMES: &[&str] = &[
    "max",
    "min",
    "sup",
    "inf",
    "lim",
    "liminf",
    "limsup",
    "argmax",
    "argmin",
    "injlim",
    "projlim",
    "varliminf",
    "varlimsup",
    "varinjlim",
    "varprojlim",
    "Pr",
    "det",
    "gcd",
];

const LARGE_OPERATORS: &[&str] = &[
    "sum",
    "prod",
    "coprod",
    "int",
    "iint",
    "iiint",
    "iiiint",
    "oint",
    "oiint",
    "bigcup",
    "bigcap",
    "bigoplus",
    "bigotimes",
    "bigodot",
    "bigvee",
    "bigwedge",
    "bigsqcup",
    "biguplus",
    "intop",
    "smallint",
];

const DOTS: &[&str] = &[
    "dots",
    "cdots",
    "ldots",
    "vdots",
    "ddots",
    "dotsc",
    "dotsb",
    "dotsm",
    "dotsi",
    "dotso",
    "mathellipsis",
    "iddots",
    "adots",
];

/// Commands that take arguments: reaching them as a bare name means the arguments are missing.
const ARGUMENT_COMMANDS: &[&str] = &[
    "frac",
    "dfrac",
    "tfrac",
    "cfrac",
    "binom",
    "dbinom",
    "tbinom",
    "sqrt",
    "hat",
    "widehat",
    "tilde",
    "widetilde",
    "bar",
    "vec",
    "dot",
    "ddot",
    "dddot",
    "overline",
    "underline",
    "overrightarrow",
    "overleftarrow",
    "check",
    "breve",
    "acute",
    "grave",
    "mathring",
    "mathbf",
    "mathbb",
    "mathcal",
    "mathscr",
    "mathfrak",
    "mathit",
    "mathsf",
    "mathtt",
    "mathrm",
    "mathnormal",
    "boldsymbol",
    "bm",
    "pmb",
    "textbf",
    "textit",
    "text",
    "textrm",
    "mbox",
    "operatorname",
    "underbrace",
    "overbrace",
    "stackrel",
    "overset",
    "underset",
    "boxed",
    "fbox",
    "left",
    "begin",
    "not",
    "sqrt",
    "textcolor",
];

/// Classifies a command name (without backslash).
pub fn classify_command(name: &str) -> CommandClass {
    command_classes().get(name).copied().unwrap_or(CommandClass::Unknown)
}

/// Every known name and its class, built once from the lists; a name in several lists takes
/// the class of the first: symbols, operator names with limits, operator names, large
/// operators, ellipses, commands that need arguments.
fn command_classes() -> &'static rustc_hash::FxHashMap<&'static str, CommandClass> {
    static CLASSES: OnceLock<rustc_hash::FxHashMap<&'static str, CommandClass>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let lists: [(&[&'static str], CommandClass); 7] = [
            (GREEK, CommandClass::Symbol),
            (SYMBOLS, CommandClass::Symbol),
            (LIMIT_OPERATOR_NAMES, CommandClass::Word(WordStyle::OperatorLimits)),
            (OPERATOR_NAMES, CommandClass::Word(WordStyle::Operator)),
            (LARGE_OPERATORS, CommandClass::LargeOp),
            (DOTS, CommandClass::Dots),
            (ARGUMENT_COMMANDS, CommandClass::NeedsArguments),
        ];
        let mut classes = rustc_hash::FxHashMap::default();
        for (names, class) in lists {
            for name in names {
                classes.entry(*name).or_insert(class);
            }
        }
        classes
    })
}

/// Whether `name` is a Greek letter command (`alpha`, `Sigma`).
pub fn is_greek(name: &str) -> bool {
    // Every Greek command name has two letters or more; most names asked about are one letter.
    name.len() >= 2 && GREEK.contains(&name)
}

/// Whether `\name` is a built-in operator name of LaTeX (printed as `\log`, not
/// `\operatorname{log}`), with the style it has.
pub fn builtin_operator(name: &str) -> Option<WordStyle> {
    const BUILTIN: &[&str] = &[
        "log", "ln", "lg", "exp", "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan",
        "sinh", "cosh", "tanh", "coth", "arg", "deg", "dim", "ker", "hom",
    ];
    const BUILTIN_LIMITS: &[&str] =
        &["max", "min", "sup", "inf", "lim", "liminf", "limsup", "Pr", "det", "gcd"];
    if BUILTIN_LIMITS.contains(&name) {
        Some(WordStyle::OperatorLimits)
    } else if BUILTIN.contains(&name) {
        Some(WordStyle::Operator)
    } else {
        None
    }
}

/// The font a font command or switch selects (`mathbf`, `bf`, `mathbb`, …).
pub fn font_of(command: &str) -> Font {
    match command {
        "mathbf" | "bf" | "boldsymbol" | "bm" | "pmb" | "bold" | "textbf" | "mathbfit" => Font::Bold,
        "mathbb" | "Bbb" => Font::Blackboard,
        "mathcal" | "cal" => Font::Calligraphic,
        "mathscr" => Font::Script,
        "mathfrak" | "frak" => Font::Fraktur,
        "mathit" | "it" | "textit" | "em" | "emph" | "sl" | "mit" => Font::Italic,
        "mathsf" | "sf" | "textsf" => Font::SansSerif,
        "mathtt" | "tt" | "texttt" => Font::Typewriter,
        "mathrm" | "rm" | "sc" | "textnormal" | "textrm" | "textup" => Font::Roman,
        _ => Font::Normal,
    }
}

/// The command that prints `font` (`\mathbf`), or `None` for the normal font.
pub fn font_command(font: Font) -> Option<&'static str> {
    match font {
        Font::Normal => None,
        Font::Bold => Some("\\mathbf"),
        Font::Roman => Some("\\mathrm"),
        Font::Italic => Some("\\mathit"),
        Font::Blackboard => Some("\\mathbb"),
        Font::Calligraphic => Some("\\mathcal"),
        Font::Script => Some("\\mathscr"),
        Font::Fraktur => Some("\\mathfrak"),
        Font::SansSerif => Some("\\mathsf"),
        Font::Typewriter => Some("\\mathtt"),
    }
}

/// The canonical LaTeX of a relation as matched by the grammar (`≤`, `\leq`, `<=` → `\le`).
pub fn canonical_relation(text: &str) -> super::ast::Text {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("\\not") {
        let inner = canonical_relation(rest);
        return match inner.as_str() {
            "=" => "\\neq".into(),
            "\\in" => "\\notin".into(),
            _ => format!("\\not{inner}").into(),
        };
    }
    if let Some(rest) = text.strip_prefix("\\middle") {
        return format!("\\middle{}", rest.trim()).into();
    }
    let canonical = match text {
        "≤" | "<=" | "\\leq" | "\\leqslant" | "\\leqq" => "\\le",
        "≥" | ">=" | "\\geq" | "\\geqslant" | "\\geqq" => "\\ge",
        "≠" | "\\ne" => "\\neq",
        "≈" => "\\approx",
        "∼" => "\\sim",
        "≃" => "\\simeq",
        "≅" => "\\cong",
        "≡" => "\\equiv",
        "∝" => "\\propto",
        "∈" => "\\in",
        "∉" => "\\notin",
        "∋" => "\\ni",
        "⊂" => "\\subset",
        "⊆" => "\\subseteq",
        "⊃" => "\\supset",
        "⊇" => "\\supseteq",
        "→" | "\\rightarrow" => "\\to",
        "←" | "\\gets" => "\\leftarrow",
        "↔" => "\\leftrightarrow",
        "⇒" => "\\Rightarrow",
        "⇐" => "\\Leftarrow",
        "⇔" => "\\Leftrightarrow",
        "↦" => "\\mapsto",
        "∣" => "\\mid",
        "≪" => "\\ll",
        "≫" => "\\gg",
        "⟶" => "\\longrightarrow",
        "⟹" => "\\Longrightarrow",
        "∥" => "\\parallel",
        "⊥" => "\\perp",
        "\\coloneqq" | "\\coloneq" => ":=",
        "\\eqqcolon" => "=:",
        "\\colon" => ":",
        other => other,
    };
    canonical.into()
}

/// The canonical LaTeX of an additive operator (`−` → `-`, `±` → `\pm`).
pub fn canonical_additive(text: &str) -> super::ast::Text {
    match text.trim() {
        "−" => "-",
        "±" => "\\pm",
        "∓" => "\\mp",
        "∪" => "\\cup",
        "⊕" => "\\oplus",
        "∨" | "\\lor" => "\\vee",
        other => other,
    }
    .into()
}

/// The canonical LaTeX of a multiplicative operator (`·` → `\cdot`, `×` → `\times`).
pub fn canonical_multiplicative(text: &str) -> super::ast::Text {
    match text.trim() {
        "·" | "⋅" | "\\cdotp" => "\\cdot",
        "×" => "\\times",
        "∗" | "\\ast" => "*",
        "⊙" => "\\odot",
        "⊗" => "\\otimes",
        "∘" => "\\circ",
        "∩" => "\\cap",
        "∧" | "\\land" => "\\wedge",
        "÷" => "\\div",
        "•" => "\\bullet",
        other => other,
    }
    .into()
}

/// What a pasted non-ASCII character stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnicodeMeaning {
    /// A symbol with this LaTeX name (a letter, or a command name without backslash) in a font.
    Symbol(String, Font),
    /// A digit in a font (`𝟏`).
    Digit(char, Font),
    /// A large operator with this command name (`∑` → `sum`).
    LargeOp(&'static str),
    /// An ellipsis with this command name.
    Dots(&'static str),
}

const GREEK_LOWER: [&str; 25] = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "o",
    "pi",
    "rho",
    "varsigma",
    "sigma",
    "tau",
    "upsilon",
    "varphi",
    "chi",
    "psi",
    "omega",
];
const GREEK_UPPER: [&str; 25] = [
    "A", "B", "Gamma", "Delta", "E", "Z", "H", "Theta", "I", "K", "Lambda", "M", "N", "Xi", "O", "Pi", "P",
    "Theta", "Sigma", "T", "Upsilon", "Phi", "X", "Psi", "Omega",
];
const MATH_ALPHABETS: [Font; 13] = [
    Font::Bold,
    Font::Normal,
    Font::Bold,
    // Unicode has one script alphabet; papers write it as \mathcal.
    Font::Calligraphic,
    Font::Calligraphic,
    Font::Fraktur,
    Font::Blackboard,
    Font::Fraktur,
    Font::SansSerif,
    Font::SansSerif,
    Font::SansSerif,
    Font::SansSerif,
    Font::Typewriter,
];

/// Maps a non-ASCII character to its LaTeX meaning, or `None` when eqmap does not know it.
pub fn unicode_meaning(c: char) -> Option<UnicodeMeaning> {
    use UnicodeMeaning::*;
    let sym = |name: &str| Some(Symbol(name.to_string(), Font::Normal));
    let code = c as u32;
    match c {
        'α'..='ω' => return GREEK_LOWER.get((code - 0x3B1) as usize).and_then(|n| sym(n)),
        'Α'..='Ω' if code != 0x3A2 => return GREEK_UPPER.get((code - 0x391) as usize).and_then(|n| sym(n)),
        'ϵ' => return sym("epsilon"),
        'ϕ' => return sym("phi"),
        'ϑ' => return sym("vartheta"),
        'ϖ' => return sym("varpi"),
        'ϱ' => return sym("varrho"),
        'ϰ' => return sym("varkappa"),
        'ℝ' => return Some(Symbol("R".into(), Font::Blackboard)),
        'ℕ' => return Some(Symbol("N".into(), Font::Blackboard)),
        'ℤ' => return Some(Symbol("Z".into(), Font::Blackboard)),
        'ℚ' => return Some(Symbol("Q".into(), Font::Blackboard)),
        'ℂ' => return Some(Symbol("C".into(), Font::Blackboard)),
        'ℙ' => return Some(Symbol("P".into(), Font::Blackboard)),
        'ℍ' => return Some(Symbol("H".into(), Font::Blackboard)),
        'ℎ' => return sym("h"),
        'ℒ' => return Some(Symbol("L".into(), Font::Calligraphic)),
        '∞' => return sym("infty"),
        '∂' => return sym("partial"),
        '∇' => return sym("nabla"),
        'ℓ' => return sym("ell"),
        'ℏ' => return sym("hbar"),
        '∅' => return sym("emptyset"),
        '∀' => return sym("forall"),
        '∃' => return sym("exists"),
        '⊤' => return sym("top"),
        '⊥' => return sym("bot"),
        '†' => return sym("dagger"),
        '∠' => return sym("angle"),
        '·' | '⋅' => return sym("cdot"),
        '×' => return sym("times"),
        '∗' => return sym("ast"),
        '∘' => return sym("circ"),
        '⊙' => return sym("odot"),
        '⊗' => return sym("otimes"),
        '⊕' => return sym("oplus"),
        '∑' => return Some(LargeOp("sum")),
        '∏' => return Some(LargeOp("prod")),
        '∫' => return Some(LargeOp("int")),
        '∬' => return Some(LargeOp("iint")),
        '∮' => return Some(LargeOp("oint")),
        '⋃' => return Some(LargeOp("bigcup")),
        '⋂' => return Some(LargeOp("bigcap")),
        '…' => return Some(Dots("ldots")),
        '⋯' => return Some(Dots("cdots")),
        '⋮' => return Some(Dots("vdots")),
        '⋱' => return Some(Dots("ddots")),
        _ => {}
    }
    math_alphanumeric(code)
}

/// The Mathematical Alphanumeric Symbols block (U+1D400–U+1D7FF): `𝑄` is an italic Q.
fn math_alphanumeric(code: u32) -> Option<UnicodeMeaning> {
    const LATIN_START: u32 = 0x1D400;
    const GREEK_START: u32 = 0x1D6A8;
    const DIGIT_START: u32 = 0x1D7CE;
    if (LATIN_START..LATIN_START + 13 * 52).contains(&code) {
        let offset = code - LATIN_START;
        let font = *MATH_ALPHABETS.get((offset / 52) as usize)?;
        let index = (offset % 52) as u8;
        let letter = if index < 26 { b'A' + index } else { b'a' + index - 26 };
        return Some(UnicodeMeaning::Symbol((letter as char).to_string(), font));
    }
    if (GREEK_START..GREEK_START + 5 * 58).contains(&code) {
        let offset = code - GREEK_START;
        let font = if offset / 58 == 1 { Font::Normal } else { Font::Bold };
        let index = (offset % 58) as usize;
        let name = match index {
            0..=24 => GREEK_UPPER.get(index)?,
            25 => "nabla",
            26..=50 => GREEK_LOWER.get(index - 26)?,
            51 => "partial",
            52 => "epsilon",
            53 => "vartheta",
            54 => "varkappa",
            55 => "phi",
            56 => "varrho",
            _ => "varpi",
        };
        return Some(UnicodeMeaning::Symbol(name.to_string(), font));
    }
    if (DIGIT_START..=0x1D7FF).contains(&code) {
        let offset = code - DIGIT_START;
        let fonts = [Font::Bold, Font::Blackboard, Font::SansSerif, Font::SansSerif, Font::Typewriter];
        let font = *fonts.get((offset / 10) as usize)?;
        let digit = char::from(b'0' + (offset % 10) as u8);
        return Some(UnicodeMeaning::Digit(digit, font));
    }
    None
}

/// Whether `c` is a Unicode subscript character, the set the grammar's `unicode_subscript` rule
/// reads (`ₖ`, `ᵢ`, `ⱼ`, `₀`…`₉`, `₊`, `₍`).
pub fn is_unicode_subscript(c: char) -> bool {
    matches!(c, 'ₐ'..='ₜ' | '₀'..='₎' | 'ᵢ' | 'ⱼ' | 'ᵣ' | 'ᵤ' | 'ᵥ' | 'ᵦ' | 'ᵧ' | 'ᵨ' | 'ᵩ' | 'ᵪ')
}

/// The LaTeX that a run of Unicode subscript or superscript characters stands for
/// (`ₖ` → `k`, `⁻¹` → `-1`, `ᵀ` → `\top`), or `None` for a character that is not one.
pub fn unicode_script_latex(run: &str) -> Option<String> {
    let mut out = String::new();
    for c in run.chars() {
        let piece = match c {
            '₀'..='₉' => char::from(b'0' + (c as u32 - 0x2080) as u8).to_string(),
            '₊' => "+".into(),
            '₋' => "-".into(),
            '₌' => "=".into(),
            '₍' => "(".into(),
            '₎' => ")".into(),
            'ₐ' => "a".into(),
            'ₑ' => "e".into(),
            'ₒ' => "o".into(),
            'ₓ' => "x".into(),
            'ₕ' => "h".into(),
            'ₖ' => "k".into(),
            'ₗ' => "l".into(),
            'ₘ' => "m".into(),
            'ₙ' => "n".into(),
            'ₚ' => "p".into(),
            'ₛ' => "s".into(),
            'ₜ' => "t".into(),
            'ᵢ' => "i".into(),
            'ⱼ' => "j".into(),
            'ᵣ' => "r".into(),
            'ᵤ' => "u".into(),
            'ᵥ' => "v".into(),
            'ᵦ' | 'ᵝ' => "\\beta ".into(),
            'ᵧ' | 'ᵞ' => "\\gamma ".into(),
            'ᵨ' => "\\rho ".into(),
            'ᵩ' | 'ᵠ' => "\\varphi ".into(),
            'ᵪ' | 'ᵡ' => "\\chi ".into(),
            'ᵟ' => "\\delta ".into(),
            'ᶿ' => "\\theta ".into(),
            'ᵀ' | '⊤' => "\\top ".into(),
            '⁰' => "0".into(),
            '¹' => "1".into(),
            '²' => "2".into(),
            '³' => "3".into(),
            '⁴'..='⁹' => char::from(b'4' + (c as u32 - 0x2074) as u8).to_string(),
            '⁺' => "+".into(),
            '⁻' => "-".into(),
            '⁼' => "=".into(),
            '⁽' => "(".into(),
            '⁾' => ")".into(),
            'ⁱ' => "i".into(),
            'ⁿ' => "n".into(),
            'ᵗ' => "t".into(),
            'ᵃ' => "a".into(),
            'ᵇ' => "b".into(),
            'ᶜ' => "c".into(),
            'ᵈ' => "d".into(),
            'ᵉ' => "e".into(),
            'ᵏ' => "k".into(),
            'ᵐ' => "m".into(),
            'ᵒ' => "o".into(),
            'ᵖ' => "p".into(),
            'ʳ' => "r".into(),
            'ˢ' => "s".into(),
            'ᵘ' => "u".into(),
            'ᵛ' => "v".into(),
            'ʷ' => "w".into(),
            'ˣ' => "x".into(),
            'ʸ' => "y".into(),
            'ᶻ' => "z".into(),
            'ᴴ' => "H".into(),
            _ => return None,
        };
        out.push_str(&piece);
    }
    Some(out)
}
