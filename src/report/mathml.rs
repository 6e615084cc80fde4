//! The tree as MathML Core, for a browser to typeset (`eqmap parse --format mathml`, the page of
//! `eqmap serve`).
//!
//! Every element made for a node carries that node's byte span as `data-s` and `data-e`
//! (mapped through a function the caller gives, so that the spans of a pasted formula point
//! into the text as pasted), so a slot of the map, which has a span, finds its elements
//! exactly. Text is escaped; nothing of the formula can become markup. Letters in a font
//! become the Unicode mathematical alphanumerics (MathML Core has no `mathvariant` but
//! `normal`), delimiters written with `\left`/`\right` stretch and others do not, as in TeX.

use crate::syntax::ast::{Delim, Font, InfixOp, Link, Node, NodeKind, Place, PrefixOp, Span, WordStyle};

/// `node` as a `<math display="block">` element, spans as they are.
pub fn to_mathml(node: &Node) -> String {
    to_mathml_mapped(node, &|span| span)
}

/// `node` as a `<math display="block">` element, each node's span passed through `map` first
/// (for a pasted formula: [`crate::paste::Pasted::original`]).
pub fn to_mathml_mapped(node: &Node, map: &dyn Fn(Span) -> Span) -> String {
    let mut printer = Printer { out: String::new(), map };
    printer.out.push_str("<math display=\"block\">");
    printer.node(node, Font::Normal);
    printer.out.push_str("</math>");
    printer.out
}

/// Text made safe inside an element or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

struct Printer<'a> {
    out: String,
    map: &'a dyn Fn(Span) -> Span,
}

impl Printer<'_> {
    /// Opens `<tag data-s data-e extra>` for `span`.
    fn open(&mut self, tag: &str, span: Span, extra: &str) {
        let span = (self.map)(span);
        self.out.push_str(&format!("<{tag} data-s=\"{}\" data-e=\"{}\"{extra}>", span.start, span.end));
    }

    fn close(&mut self, tag: &str) {
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
    }

    /// A token element `<tag …>text</tag>`.
    fn token(&mut self, tag: &str, span: Span, extra: &str, text: &str) {
        self.open(tag, span, extra);
        self.out.push_str(&escape(text));
        self.close(tag);
    }

    /// A token element without a span of its own (a delimiter, an accent mark).
    fn bare(&mut self, tag: &str, extra: &str, text: &str) {
        self.out.push_str(&format!("<{tag}{extra}>"));
        self.out.push_str(&escape(text));
        self.close(tag);
    }

    fn node(&mut self, node: &Node, font: Font) {
        use NodeKind::*;
        let span = node.span;
        match &node.kind {
            Symbol { name, font: own } => {
                let font = if *own == Font::Normal { font } else { *own };
                let (text, upright) = symbol_text(name, font);
                // Unicode has bold Latin letters but no bold for most other symbols: a class.
                let unmapped_bold = font == Font::Bold && !text.chars().any(|c| c as u32 >= 0x1D400);
                let extra = match (upright && text.chars().count() == 1, unmapped_bold) {
                    (_, true) => " class=\"bold\"",
                    (true, false) => " mathvariant=\"normal\"",
                    (false, false) => "",
                };
                let tag = if is_operator_symbol(name) { "mo" } else { "mi" };
                self.token(tag, span, extra, &text);
            }
            Number { text, font: own } => {
                let font = if *own == Font::Normal { font } else { *own };
                self.token("mn", span, "", &styled(text, font));
            }
            Word { text, style } => {
                let (tag, extra) = match style {
                    WordStyle::Text => ("mtext", ""),
                    _ => ("mi", ""),
                };
                let shown = match style {
                    WordStyle::Font(font) => styled(text, *font),
                    _ => text.to_string(),
                };
                let extra =
                    if shown.chars().count() == 1 && tag == "mi" { " mathvariant=\"normal\"" } else { extra };
                self.token(tag, span, extra, &shown);
            }
            LargeOp { name } => self.token("mo", span, " largeop=\"true\"", large_op(name)),
            Dots { name } => self.token("mo", span, "", dots(name)),
            Punct { text } => self.token("mo", span, "", text),
            Unknown { name } => self.token("mtext", span, " class=\"unknown\"", name),
            Empty => {
                self.open("mrow", span, "");
                self.close("mrow");
            }
            Chain { first, rest } => self.chain(span, first, rest, font),
            Prefix { op, operand } => {
                self.open("mrow", span, "");
                self.bare("mo", " form=\"prefix\"", prefix(*op));
                self.node(operand, font);
                self.close("mrow");
            }
            Factorial { operand } => {
                self.open("mrow", span, "");
                self.node(operand, font);
                self.bare("mo", "", "!");
                self.close("mrow");
            }
            Scripts { base, sub, sup, primes } => {
                self.scripts(span, base, sub.as_deref(), sup.as_deref(), *primes, font)
            }
            Frac { num, den } => {
                self.open("mfrac", span, "");
                self.node(num, font);
                self.node(den, font);
                self.close("mfrac");
            }
            Binom { top, bottom } => {
                self.open("mrow", span, "");
                self.bare("mo", "", "(");
                self.out.push_str("<mfrac linethickness=\"0\">");
                self.node(top, font);
                self.node(bottom, font);
                self.out.push_str("</mfrac>");
                self.bare("mo", "", ")");
                self.close("mrow");
            }
            Sqrt { index: None, radicand } => {
                self.open("msqrt", span, "");
                self.node(radicand, font);
                self.close("msqrt");
            }
            Sqrt { index: Some(index), radicand } => {
                self.open("mroot", span, "");
                self.node(radicand, font);
                self.node(index, font);
                self.close("mroot");
            }
            Accent { accent, body } => {
                let (mark, under) = accent_mark(accent);
                let tag = if under { "munder" } else { "mover" };
                let attribute = if under { " accentunder=\"true\"" } else { " accent=\"true\"" };
                self.open(tag, span, attribute);
                self.node(body, font);
                self.bare("mo", " stretchy=\"true\"", mark);
                self.close(tag);
            }
            Styled { font: inner, body } => {
                self.open("mrow", span, "");
                self.node(body, *inner);
                self.close("mrow");
            }
            Boxed { body } => {
                self.open("mrow", span, " class=\"boxed\"");
                self.node(body, font);
                self.close("mrow");
            }
            Fenced { open, close, sized, body } => {
                self.open("mrow", span, "");
                let stretch = if *sized { " stretchy=\"true\"" } else { " stretchy=\"false\"" };
                let opening = delimiter(*open, true);
                if !opening.is_empty() {
                    self.bare("mo", &format!(" fence=\"true\" form=\"prefix\"{stretch}"), opening);
                }
                self.node(body, font);
                let closing = close.map_or("", |delim| delimiter(delim, false));
                if !closing.is_empty() {
                    self.bare("mo", &format!(" fence=\"true\" form=\"postfix\"{stretch}"), closing);
                }
                self.close("mrow");
            }
            Annotated { place, body, label } => {
                let (tag, brace) = if *place == Place::Over { ("mover", "⏞") } else { ("munder", "⏟") };
                self.open(tag, span, "");
                self.out.push_str(&format!("<{tag}>"));
                self.node(body, font);
                self.bare("mo", " stretchy=\"true\"", brace);
                self.close(tag);
                match label {
                    Some(label) => self.node(label, font),
                    None => self.out.push_str("<mrow></mrow>"),
                }
                self.close(tag);
            }
            Stacked { place, over, base } => {
                let tag = if *place == Place::Over { "mover" } else { "munder" };
                self.open(tag, span, "");
                self.node(base, font);
                self.node(over, font);
                self.close(tag);
            }
            Rows(table) => self.rows(span, table.env.as_deref(), &table.rows, font),
        }
    }

    fn chain(&mut self, span: Span, first: &Node, rest: &[Link], font: Font) {
        self.open("mrow", span, "");
        self.node(first, font);
        let mut previous = first;
        for link in rest {
            match &link.op {
                // An operator name before its argument: TeX's thin space (`\log p`), none
                // before a bracket (`\log(p)`).
                InfixOp::Juxt
                    if is_operator_name(previous)
                        && !matches!(link.operand.kind, NodeKind::Fenced { .. }) =>
                {
                    self.out.push_str("<mspace width=\"0.1667em\"></mspace>")
                }
                // Side by side: an invisible times (a screen reader says nothing for it).
                InfixOp::Juxt => self.out.push_str("<mo>\u{2062}</mo>"),
                InfixOp::Separator(text) => self.token("mo", link.op_span, " separator=\"true\"", text),
                InfixOp::Relation(text) | InfixOp::Additive(text) | InfixOp::Multiplicative(text) => {
                    self.token("mo", link.op_span, "", operator(text))
                }
                InfixOp::Stacked(stacked) => {
                    let tag = if stacked.place == Place::Over { "mover" } else { "munder" };
                    self.open(tag, link.op_span, "");
                    self.bare("mo", "", operator(&stacked.relation));
                    self.node(&stacked.label, font);
                    self.close(tag);
                }
            }
            self.node(&link.operand, font);
            previous = &link.operand;
        }
        self.close("mrow");
    }

    fn scripts(
        &mut self,
        span: Span,
        base: &Node,
        sub: Option<&Node>,
        sup: Option<&Node>,
        primes: u8,
        font: Font,
    ) {
        // Limits under and over: sums, products, `\max`, `\lim`, `\operatorname*`.
        let limits = match &base.kind {
            NodeKind::LargeOp { name } => !name.contains("int"),
            NodeKind::Word { style, .. } => *style == WordStyle::OperatorLimits,
            _ => false,
        };
        let has_sup = sup.is_some() || primes > 0;
        let tag = match (limits, sub.is_some(), has_sup) {
            (true, true, true) => "munderover",
            (true, true, false) => "munder",
            (true, false, _) => "mover",
            (false, true, true) => "msubsup",
            (false, true, false) => "msub",
            (false, false, _) => "msup",
        };
        self.open(tag, span, "");
        self.node(base, font);
        if let Some(sub) = sub {
            self.node(sub, font);
        }
        if has_sup {
            if primes > 0 {
                self.out.push_str("<mrow>");
                for _ in 0..primes {
                    self.bare("mo", "", "′");
                }
            }
            if let Some(sup) = sup {
                self.node(sup, font);
            }
            if primes > 0 {
                self.out.push_str("</mrow>");
            }
        }
        self.close(tag);
    }

    fn rows(&mut self, span: Span, env: Option<&str>, rows: &[Vec<Node>], font: Font) {
        let name = env.unwrap_or("").trim_end_matches('*');
        let (open, close) = match name {
            "pmatrix" => ("(", ")"),
            "bmatrix" => ("[", "]"),
            "Bmatrix" => ("{", "}"),
            "vmatrix" => ("|", "|"),
            "Vmatrix" => ("‖", "‖"),
            "cases" | "dcases" => ("{", ""),
            _ => ("", ""),
        };
        let class = match name {
            "cases" | "dcases" | "aligned" | "align" | "split" | "gathered" | "alignat" => "left",
            _ => "center",
        };
        self.open("mrow", span, "");
        if !open.is_empty() {
            self.bare("mo", " fence=\"true\" form=\"prefix\" stretchy=\"true\"", open);
        }
        self.out.push_str(&format!("<mtable class=\"{class}\">"));
        for row in rows {
            self.out.push_str("<mtr>");
            for cell in row {
                self.out.push_str("<mtd>");
                self.node(cell, font);
                self.out.push_str("</mtd>");
            }
            self.out.push_str("</mtr>");
        }
        self.out.push_str("</mtable>");
        if !close.is_empty() {
            self.bare("mo", " fence=\"true\" form=\"postfix\" stretchy=\"true\"", close);
        }
        self.close("mrow");
    }
}

/// Whether `node` is an operator name (`\log`, `\max_i`, `\operatorname{tr}`), scripts or not.
fn is_operator_name(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Word { style, .. } => matches!(style, WordStyle::Operator | WordStyle::OperatorLimits),
        NodeKind::Scripts { base, .. } => is_operator_name(base),
        NodeKind::Prefix { operand, .. } => is_operator_name(operand),
        _ => false,
    }
}

/// Whether a symbol name is an operator sign used as an operand (`\cdot`, `\times`, `\top`
/// is a letter-like symbol and stays `mi`).
fn is_operator_symbol(name: &str) -> bool {
    matches!(
        name,
        "cdot" | "times" | "ast" | "circ" | "odot" | "otimes" | "oplus" | "pm" | "mp" | "|" | "mid"
    )
}

/// A symbol's text in `font`, and whether it is upright.
fn symbol_text(name: &str, font: Font) -> (String, bool) {
    if let Some(c) = symbol_char(name) {
        let upright = font == Font::Roman;
        return (styled(&c.to_string(), font), upright);
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => (styled(&c.to_string(), font), font == Font::Roman),
        _ => (format!("\\{name}"), true),
    }
}

/// Text with its ASCII letters and digits in the Unicode alphabet of `font`.
fn styled(text: &str, font: Font) -> String {
    text.chars().map(|c| styled_char(c, font)).collect()
}

/// One letter or digit in `font`'s Unicode alphabet (the letters Unicode placed earlier, such
/// as ℝ, taken from where they are).
fn styled_char(c: char, font: Font) -> char {
    let exception = match (font, c) {
        (Font::Blackboard, 'C') => Some('ℂ'),
        (Font::Blackboard, 'H') => Some('ℍ'),
        (Font::Blackboard, 'N') => Some('ℕ'),
        (Font::Blackboard, 'P') => Some('ℙ'),
        (Font::Blackboard, 'Q') => Some('ℚ'),
        (Font::Blackboard, 'R') => Some('ℝ'),
        (Font::Blackboard, 'Z') => Some('ℤ'),
        (Font::Calligraphic | Font::Script, 'B') => Some('ℬ'),
        (Font::Calligraphic | Font::Script, 'E') => Some('ℰ'),
        (Font::Calligraphic | Font::Script, 'F') => Some('ℱ'),
        (Font::Calligraphic | Font::Script, 'H') => Some('ℋ'),
        (Font::Calligraphic | Font::Script, 'I') => Some('ℐ'),
        (Font::Calligraphic | Font::Script, 'L') => Some('ℒ'),
        (Font::Calligraphic | Font::Script, 'M') => Some('ℳ'),
        (Font::Calligraphic | Font::Script, 'R') => Some('ℛ'),
        (Font::Calligraphic | Font::Script, 'e') => Some('ℯ'),
        (Font::Calligraphic | Font::Script, 'g') => Some('ℊ'),
        (Font::Calligraphic | Font::Script, 'o') => Some('ℴ'),
        (Font::Fraktur, 'C') => Some('ℭ'),
        (Font::Fraktur, 'H') => Some('ℌ'),
        (Font::Fraktur, 'I') => Some('ℑ'),
        (Font::Fraktur, 'R') => Some('ℜ'),
        (Font::Fraktur, 'Z') => Some('ℨ'),
        _ => None,
    };
    if let Some(exception) = exception {
        return exception;
    }
    let letters = match font {
        Font::Bold => Some(0x1D400),
        Font::Blackboard => Some(0x1D538),
        Font::Calligraphic | Font::Script => Some(0x1D49C),
        Font::Fraktur => Some(0x1D504),
        Font::SansSerif => Some(0x1D5A0),
        Font::Typewriter => Some(0x1D670),
        Font::Normal | Font::Roman | Font::Italic => None,
    };
    let digits = match font {
        Font::Bold => Some(0x1D7CE),
        Font::Blackboard => Some(0x1D7D8),
        Font::SansSerif => Some(0x1D7E2),
        Font::Typewriter => Some(0x1D7F6),
        _ => None,
    };
    let code = match c {
        'A'..='Z' => letters.map(|start: u32| start + (c as u32 - 'A' as u32)),
        'a'..='z' => letters.map(|start: u32| start + 26 + (c as u32 - 'a' as u32)),
        '0'..='9' => digits.map(|start: u32| start + (c as u32 - '0' as u32)),
        _ => None,
    };
    code.and_then(char::from_u32).unwrap_or(c)
}

/// The character a symbol command stands for.
fn symbol_char(name: &str) -> Option<char> {
    let c = match name {
        "alpha" => 'α',
        "beta" => 'β',
        "gamma" => 'γ',
        "delta" => 'δ',
        "epsilon" => 'ϵ',
        "varepsilon" => 'ε',
        "zeta" => 'ζ',
        "eta" => 'η',
        "theta" => 'θ',
        "vartheta" => 'ϑ',
        "iota" => 'ι',
        "kappa" => 'κ',
        "varkappa" => 'ϰ',
        "lambda" => 'λ',
        "mu" => 'μ',
        "nu" => 'ν',
        "xi" => 'ξ',
        "pi" => 'π',
        "varpi" => 'ϖ',
        "rho" => 'ρ',
        "varrho" => 'ϱ',
        "sigma" => 'σ',
        "varsigma" => 'ς',
        "tau" => 'τ',
        "upsilon" => 'υ',
        "phi" => 'ϕ',
        "varphi" => 'φ',
        "chi" => 'χ',
        "psi" => 'ψ',
        "omega" => 'ω',
        "Gamma" => 'Γ',
        "Delta" => 'Δ',
        "Theta" => 'Θ',
        "Lambda" => 'Λ',
        "Xi" => 'Ξ',
        "Pi" => 'Π',
        "Sigma" => 'Σ',
        "Upsilon" => 'Υ',
        "Phi" => 'Φ',
        "Psi" => 'Ψ',
        "Omega" => 'Ω',
        "infty" => '∞',
        "partial" => '∂',
        "nabla" => '∇',
        "ell" => 'ℓ',
        "hbar" => 'ℏ',
        "emptyset" | "varnothing" => '∅',
        "forall" => '∀',
        "exists" => '∃',
        "top" => '⊤',
        "bot" | "perp" => '⊥',
        "dagger" => '†',
        "angle" => '∠',
        "cdot" => '⋅',
        "times" => '×',
        "ast" => '∗',
        "circ" => '∘',
        "odot" => '⊙',
        "otimes" => '⊗',
        "oplus" => '⊕',
        "pm" => '±',
        "mp" => '∓',
        "prime" => '′',
        "star" => '⋆',
        "imath" => 'ı',
        "jmath" => 'ȷ',
        "aleph" => 'ℵ',
        "Re" => 'ℜ',
        "Im" => 'ℑ',
        "%" => '%',
        "#" => '#',
        "&" => '&',
        "_" => '_',
        "$" => '$',
        _ => return None,
    };
    Some(c)
}

/// The sign of an infix operator given by its canonical LaTeX.
fn operator(text: &str) -> &str {
    match text {
        "-" => "−",
        "\\pm" => "±",
        "\\mp" => "∓",
        "\\cup" => "∪",
        "\\oplus" => "⊕",
        "\\vee" => "∨",
        "\\setminus" => "∖",
        "\\cdot" => "⋅",
        "\\times" => "×",
        "*" => "∗",
        "\\odot" => "⊙",
        "\\otimes" => "⊗",
        "\\circ" => "∘",
        "\\cap" => "∩",
        "\\wedge" => "∧",
        "\\div" => "÷",
        "\\bullet" => "∙",
        "\\le" => "≤",
        "\\ge" => "≥",
        "\\neq" => "≠",
        "\\approx" => "≈",
        "\\sim" => "∼",
        "\\simeq" => "≃",
        "\\cong" => "≅",
        "\\equiv" => "≡",
        "\\propto" => "∝",
        "\\in" => "∈",
        "\\notin" => "∉",
        "\\ni" => "∋",
        "\\subset" => "⊂",
        "\\subseteq" => "⊆",
        "\\supset" => "⊃",
        "\\supseteq" => "⊇",
        "\\to" => "→",
        "\\leftarrow" => "←",
        "\\leftrightarrow" => "↔",
        "\\Rightarrow" => "⇒",
        "\\Leftarrow" => "⇐",
        "\\Leftrightarrow" => "⇔",
        "\\iff" => "⟺",
        "\\implies" => "⟹",
        "\\mapsto" => "↦",
        "\\mid" => "∣",
        "\\ll" => "≪",
        "\\gg" => "≫",
        "\\longrightarrow" => "⟶",
        "\\Longrightarrow" => "⟹",
        "\\parallel" => "∥",
        "\\perp" => "⊥",
        "\\triangleq" => "≜",
        ":=" => "≔",
        other => other.strip_prefix('\\').unwrap_or(other),
    }
}

fn prefix(op: PrefixOp) -> &'static str {
    match op {
        PrefixOp::Minus => "−",
        PrefixOp::Plus => "+",
        PrefixOp::PlusMinus => "±",
        PrefixOp::MinusPlus => "∓",
        PrefixOp::Not => "¬",
    }
}

fn large_op(name: &str) -> &str {
    match name {
        "sum" => "∑",
        "prod" => "∏",
        "coprod" => "∐",
        "int" => "∫",
        "iint" => "∬",
        "iiint" => "∭",
        "oint" => "∮",
        "bigcup" => "⋃",
        "bigcap" => "⋂",
        "bigoplus" => "⨁",
        "bigotimes" => "⨂",
        "bigvee" => "⋁",
        "bigwedge" => "⋀",
        "bigsqcup" => "⨆",
        other => other,
    }
}

fn dots(name: &str) -> &'static str {
    match name {
        "vdots" => "⋮",
        "ddots" => "⋱",
        "cdots" | "dotsb" | "dotsm" | "dotsi" => "⋯",
        _ => "…",
    }
}

/// The mark of an accent command and whether it goes under.
fn accent_mark(accent: &str) -> (&'static str, bool) {
    match accent {
        "hat" | "widehat" => ("^", false),
        "tilde" | "widetilde" => ("~", false),
        "bar" | "overline" => ("‾", false),
        "vec" | "overrightarrow" => ("→", false),
        "overleftarrow" => ("←", false),
        "dot" => ("˙", false),
        "ddot" => ("¨", false),
        "check" => ("ˇ", false),
        "breve" => ("˘", false),
        "acute" => ("´", false),
        "grave" => ("`", false),
        "underline" => ("_", true),
        _ => ("^", false),
    }
}

fn delimiter(delim: Delim, open: bool) -> &'static str {
    match (delim, open) {
        (Delim::Paren, true) => "(",
        (Delim::Paren, false) => ")",
        (Delim::Bracket, true) => "[",
        (Delim::Bracket, false) => "]",
        (Delim::Brace, true) => "{",
        (Delim::Brace, false) => "}",
        (Delim::Angle, true) => "⟨",
        (Delim::Angle, false) => "⟩",
        (Delim::Bar, _) => "|",
        (Delim::DoubleBar, _) => "‖",
        (Delim::Floor, true) => "⌊",
        (Delim::Floor, false) => "⌋",
        (Delim::Ceil, true) => "⌈",
        (Delim::Ceil, false) => "⌉",
        (Delim::DoubleBracket, true) => "⟦",
        (Delim::DoubleBracket, false) => "⟧",
        (Delim::Group, true) => "⟮",
        (Delim::Group, false) => "⟯",
        (Delim::Nothing, _) => "",
        (Delim::Slash, _) => "/",
        (Delim::Backslash, _) => "∖",
        (Delim::Arrow, _) => "↑",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mathml(source: &str) -> String {
        match crate::syntax::parse(source) {
            Ok(parsed) => to_mathml(&parsed.root),
            Err(error) => format!("error: {error:?}"),
        }
    }

    #[test]
    fn the_attention_line_has_a_radical_with_its_span() {
        let out = mathml(r"\mathrm{softmax}(QK^\top/\sqrt{d_k})V");
        assert!(out.starts_with("<math display=\"block\">"), "{out}");
        assert!(out.contains("<msqrt data-s=\"25\" data-e=\"35\">"), "{out}");
        assert!(out.contains("<mi data-s=\"0\" data-e=\"16\">softmax</mi>"), "{out}");
        assert!(
            out.contains("<msup data-s=\"18\" data-e=\"24\"><mi data-s=\"18\" data-e=\"19\">K</mi>"),
            "{out}"
        );
        assert!(out.contains("stretchy=\"false\">(</mo>"), "{out}");
    }

    #[test]
    fn fractions_sums_fonts_and_sized_fences() {
        let out = mathml(r"\sum_{i=1}^{N} \mathbb{R}^{n} \left(\frac{a}{b}\right) \mathbf{x}");
        assert!(out.contains("<munderover"), "{out}");
        assert!(out.contains(">∑</mo>"), "{out}");
        assert!(out.contains(">ℝ</mi>"), "{out}");
        assert!(out.contains("<mfrac"), "{out}");
        assert!(out.contains("stretchy=\"true\">(</mo>"), "{out}");
        assert!(out.contains(">𝐱</mi>"), "{out}");
    }

    #[test]
    fn an_operator_name_is_spaced_from_its_argument_but_not_from_a_bracket() {
        let spaced = mathml(r"-\log p + \max_i x_i");
        assert_eq!(spaced.matches("<mspace width=\"0.1667em\">").count(), 2, "{spaced}");
        let bracketed = mathml(r"\log(p)");
        assert!(!bracketed.contains("<mspace"), "{bracketed}");
    }

    #[test]
    fn no_text_of_the_formula_becomes_markup() {
        let out = mathml(r"\text{<script>alert('x')</script>} \& x");
        assert!(!out.contains("<script"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
    }
}
