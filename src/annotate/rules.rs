//! Annotation rules as data: the schema of `data/rules.toml`, loading and compiling, with the
//! spellings papers vary compiled from each pattern as written ([`spellings`]).

use super::pattern::Pattern;
use crate::meaning::SymbolKind;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The rules shipped with eqmap, embedded in the binary.
pub const DEFAULT_RULES: &str = include_str!("../../data/rules.toml");

/// Text in both languages.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Bilingual {
    /// Korean.
    pub ko: String,
    /// English.
    pub en: String,
}

impl Bilingual {
    /// The text in `lang`.
    pub fn get(&self, lang: crate::Lang) -> &str {
        lang.pick(&self.ko, &self.en)
    }
}

/// One string or several: the kinds a metavariable may have, the patterns one may contain.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    /// The strings, one or several.
    fn as_slice(&self) -> &[String] {
        match self {
            OneOrMany::One(one) => std::slice::from_ref(one),
            OneOrMany::Many(many) => many,
        }
    }
}

/// A rule as written in the TOML file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    id: String,
    #[serde(default)]
    patterns: Vec<String>,
    symbol: Option<String>,
    #[serde(default)]
    environments: Vec<String>,
    #[serde(default)]
    operators: Vec<String>,
    ambiguity: Option<String>,
    #[serde(default, rename = "where")]
    conditions: BTreeMap<String, OneOrMany>,
    #[serde(default)]
    unless: BTreeMap<String, OneOrMany>,
    #[serde(default)]
    symbols: Vec<String>,
    #[serde(default)]
    numbers: Vec<String>,
    #[serde(default)]
    not_numbers: Vec<String>,
    #[serde(default)]
    earlier: BTreeMap<String, String>,
    #[serde(default)]
    distinct: Vec<[String; 2]>,
    #[serde(default)]
    alone: bool,
    #[serde(default)]
    growth: bool,
    #[serde(default)]
    within: BTreeMap<String, OneOrMany>,
    #[serde(default)]
    without: BTreeMap<String, OneOrMany>,
    focus: Option<String>,
    concepts: Vec<String>,
    question: Option<Bilingual>,
    #[serde(default = "yes")]
    visible: bool,
    display: Option<Bilingual>,
    #[serde(default)]
    merge: bool,
    #[serde(default = "yes")]
    on_definition: bool,
    #[serde(default)]
    fallback: bool,
    #[serde(default)]
    overrides: Vec<String>,
    #[serde(default)]
    overrides_where_written: bool,
    #[serde(default)]
    examples: Vec<String>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
struct RuleFile {
    rule: Vec<RuleSpec>,
}

/// What a rule matches.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// Any of these patterns.
    Patterns(Vec<Pattern>),
    /// Every symbol of this kind.
    Symbol(SymbolKind),
    /// Every environment with one of these names (`bmatrix`, `cases`).
    Environment(Vec<String>),
    /// Every operator the meaning layer resolved with one of these names, however it is
    /// spelled (`operators = ["E"]`: `\mathbb{E}_x[…]`, `\mathrm{E}[…]`, `E[X]`).
    Operator(Vec<String>),
    /// Every place where the meaning layer found the evidence balanced (`ambiguity =
    /// "call-or-product"`: `w(a+b)`, w applied to a+b or w times a+b).
    Ambiguity,
}

/// Which part of a match is the slot.
#[derive(Debug, Clone)]
pub enum Focus {
    /// The whole match.
    Whole,
    /// The part matching this pattern (with the match's bindings).
    Part(Pattern),
    /// The sign in front.
    Operator,
}

/// A compiled rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Unique name.
    pub id: String,
    /// What it matches.
    pub matcher: Matcher,
    /// Kinds required of metavariables.
    pub conditions: Vec<(String, Vec<SymbolKind>)>,
    /// Kinds that what a metavariable matched must not be (`\log $X` unless `$X` is a size or
    /// a position: `\log n` asks nothing of logarithms).
    pub unless: Vec<(String, Vec<SymbolKind>)>,
    /// Metavariables that must match one symbol (a letter with its scripts), not a product.
    pub symbols: Vec<String>,
    /// Metavariables that must match a number as written (`0.9`, `1`), not a letter: the
    /// constant weights of a running mean (`0.9\, v_{t-1} + 0.1\, g_t^2`).
    pub numbers: Vec<String>,
    /// Metavariables that must not match a number, bare or in parentheses (`-\log p`, not
    /// `-\log(4)`).
    pub not_numbers: Vec<String>,
    /// Pairs `(holder, later)`: what `holder` matched holds the letter `later` matched, one
    /// step before (`m_{t-1}` of `m_t`).
    pub earlier: Vec<(String, String)>,
    /// Pairs of metavariables that must match different trees: the queries of
    /// `\mathrm{Attention}($Q, $K, $K)` drawn from another source than the keys.
    pub distinct: Vec<(String, String)>,
    /// Whether a chain pattern's match must stand alone in its run: no matrix written side by
    /// side before or after it (`QK^\top`, not the `LP^\top` of `PLP^\top R`).
    pub alone: bool,
    /// Whether a pattern's `\sim` compares two sizes by their growth (`f(n) \sim n \log n`)
    /// rather than draws from a law, as the meaning layer reads it
    /// ([`crate::meaning::tilde_reading`]): without it, `\sim` matches only a draw.
    pub growth: bool,
    /// Metavariables with patterns: what each matched holds a match of one of them (itself
    /// or a part), under the match's bindings (`\nabla` somewhere in the step `$E`).
    pub within: Vec<(String, Vec<Pattern>)>,
    /// Metavariables with patterns: what each matched holds a match of none of them
    /// (`(X - \mathbb{E}[X])^2` is a variance, not an error).
    pub without: Vec<(String, Vec<Pattern>)>,
    /// Which part is the slot.
    pub focus: Focus,
    /// Concept ids.
    pub concepts: Vec<String>,
    /// Override of the first concept's question.
    pub question: Option<Bilingual>,
    /// Whether the slot is printed in the formula.
    pub visible: bool,
    /// For hidden slots: what to show.
    pub display: Option<Bilingual>,
    /// Whether all matches make one row.
    pub merge: bool,
    /// Whether it fires on the name a formula defines (`\mathrm{Attention}` of
    /// `\mathrm{Attention}(Q, K, V) = …`), or leaves that name to its definition.
    pub on_definition: bool,
    /// Whether it fires only where no other rule does, so that no map is empty.
    pub fallback: bool,
    /// Rules whose match on the same slot this one replaces.
    pub overrides: Vec<String>,
    /// Whether it replaces them also wherever its slot's text is written again (a hat the
    /// formula defines as normalised is that in every place).
    pub overrides_where_written: bool,
    /// Formulas this rule must fire on.
    pub examples: Vec<String>,
}

/// Why a rule file could not be used.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleError {
    /// The rule's id, when known.
    pub rule: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.rule {
            Some(rule) => write!(f, "rule `{rule}`: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

/// Parses and compiles a rule file.
pub fn load_rules(text: &str) -> Result<Vec<Rule>, RuleError> {
    let file: RuleFile =
        toml::from_str(text).map_err(|e| RuleError { rule: None, message: e.to_string() })?;
    let mut seen = std::collections::HashSet::new();
    if let Some(twice) = file.rule.iter().find(|spec| !seen.insert(spec.id.as_str())) {
        return Err(RuleError {
            rule: Some(twice.id.clone()),
            message: "another rule has the same id (overrides name rules by id)".into(),
        });
    }
    file.rule.into_iter().map(compile).collect()
}

fn compile(spec: RuleSpec) -> Result<Rule, RuleError> {
    let error = |message: String| RuleError { rule: Some(spec.id.clone()), message };
    let matcher = match (&spec.symbol, spec.patterns.is_empty(), spec.environments.is_empty()) {
        (None, true, true) if !spec.operators.is_empty() => Matcher::Operator(spec.operators.clone()),
        (None, true, true) if spec.ambiguity.as_deref() == Some("call-or-product") => Matcher::Ambiguity,
        (None, true, true) if spec.ambiguity.is_some() => {
            return Err(error("the only `ambiguity` is \"call-or-product\"".into()));
        }
        (Some(kind), true, true) => {
            Matcher::Symbol(parse_kind(kind).ok_or_else(|| error(format!("unknown kind `{kind}`")))?)
        }
        (None, false, true) => Matcher::Patterns(
            spellings_beside(&spec.patterns, spec.focus.as_deref())
                .iter()
                .map(|p| Pattern::compile(p).map_err(&error))
                .collect::<Result<_, _>>()?,
        ),
        (None, true, false) => Matcher::Environment(spec.environments.clone()),
        _ => {
            return Err(error(
                "give one of `patterns`, `symbol`, `environments`, `operators` or `ambiguity`".into(),
            ))
        }
    };
    let kinds_of =
        |table: &BTreeMap<String, OneOrMany>| -> Result<Vec<(String, Vec<SymbolKind>)>, RuleError> {
            let mut out = Vec::new();
            for (name, kinds) in table {
                let parsed = kinds
                    .as_slice()
                    .iter()
                    .map(|k| parse_kind(k).ok_or_else(|| error(format!("unknown kind `{k}`"))))
                    .collect::<Result<Vec<_>, _>>()?;
                out.push((name.clone(), parsed));
            }
            Ok(out)
        };
    let conditions = kinds_of(&spec.conditions)?;
    let unless = kinds_of(&spec.unless)?;
    let within = compile_holdings(&spec.within).map_err(&error)?;
    let without = compile_holdings(&spec.without).map_err(&error)?;
    let focus = match spec.focus.as_deref() {
        None => Focus::Whole,
        Some("operator") => Focus::Operator,
        Some(pattern) => Focus::Part(Pattern::compile(pattern).map_err(&error)?),
    };
    if spec.concepts.is_empty() {
        return Err(error("a rule needs at least one concept".into()));
    }
    Ok(Rule {
        id: spec.id,
        matcher,
        conditions,
        unless,
        symbols: spec.symbols,
        numbers: spec.numbers,
        not_numbers: spec.not_numbers,
        earlier: spec.earlier.into_iter().collect(),
        distinct: spec.distinct.into_iter().map(|[a, b]| (a, b)).collect(),
        alone: spec.alone,
        growth: spec.growth,
        within,
        without,
        focus,
        concepts: spec.concepts,
        question: spec.question,
        visible: spec.visible,
        display: spec.display,
        merge: spec.merge,
        on_definition: spec.on_definition,
        fallback: spec.fallback,
        overrides: spec.overrides,
        overrides_where_written: spec.overrides_where_written,
        examples: spec.examples,
    })
}

/// The signs that set or define a value: papers write one update or definition with any of
/// them (`\theta \leftarrow \theta - \eta g`, `\theta_{t+1} = …`, `v := …`, `\doteq`, `\triangleq`).
const ASSIGNMENTS: [&str; 6] = ["=", "\\leftarrow", "\\longleftarrow", ":=", "\\doteq", "\\triangleq"];

/// Commands papers write in either of two shapes for one meaning: `\epsilon` and `\varepsilon`
/// (noise or a step), `\phi` and `\varphi` (a feature map or parameters), `\log` and `\ln`,
/// `\arg\min` and `\operatorname{argmin}` (also `\mathrm{argmin}`, word styles being one), the
/// same for `\arg\max`. The first of a pair is varied into the second and back.
const COMMAND_VARIANTS: [(&str, &str); 5] = [
    ("\\epsilon", "\\varepsilon"),
    ("\\phi", "\\varphi"),
    ("\\log", "\\ln"),
    ("\\arg\\min", "\\operatorname{argmin}"),
    ("\\arg\\max", "\\operatorname{argmax}"),
];

/// The ways papers write a transpose, each for the others (`^\top`, `^T`, `^{\mathrm{T}}`,
/// `^\intercal`, `^{\mathsf{T}}`); a pattern writes each braced or not.
const TRANSPOSES: [&str; 5] = ["\\top", "T", "\\mathrm{T}", "\\intercal", "\\mathsf{T}"];

/// `pattern` with all its transposes written each other way of [`TRANSPOSES`] (a rule written with
/// `^\top` also finds `^{\mathrm{T}}` and `^T`); nothing if it writes none. Every `^{T}` the rules
/// write is a transpose: a power is a metavariable (`^{$T}`) or a number.
fn transposes(pattern: &str) -> Vec<String> {
    // The pattern cut at its transposes: the text between them, in order.
    let mut pieces: Vec<&str> = Vec::new();
    let mut rest = pattern;
    let mut from = 0;
    while let Some(at) = rest[from..].find('^').map(|at| at + from) {
        let after = &rest[at + 1..];
        let length = TRANSPOSES.iter().find_map(|t| {
            if after.strip_prefix('{').and_then(|a| a.strip_prefix(t)).is_some_and(|a| a.starts_with('}')) {
                Some(t.len() + 2)
            } else {
                after
                    .strip_prefix(t)
                    .filter(|a| !a.starts_with(|c: char| c.is_ascii_alphanumeric()) && !t.ends_with('}'))
                    .map(|_| t.len())
            }
        });
        match length {
            Some(length) => {
                pieces.push(&rest[..at]);
                rest = &rest[at + 1 + length..];
                from = 0;
            }
            None => from = at + 1,
        }
    }
    if pieces.is_empty() {
        return Vec::new();
    }
    TRANSPOSES
        .iter()
        .map(|t| {
            let mut out = String::with_capacity(pattern.len() + 16);
            for piece in &pieces {
                out.push_str(piece);
                out.push_str("^{");
                out.push_str(t);
                out.push('}');
            }
            out.push_str(rest);
            out
        })
        .collect()
}

/// `pattern` with every command `from` (not the start of a longer name) written `to`, if it has one.
fn replace_command(pattern: &str, from: &str, to: &str) -> Option<String> {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut rest = pattern;
    let mut found = false;
    while let Some(at) = rest.find(from) {
        let after = &rest[at + from.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.push_str(from);
        } else {
            out.push_str(to);
            found = true;
        }
        rest = after;
    }
    out.push_str(rest);
    found.then_some(out)
}

/// The byte offset just past the delimiter that closes the group opened right before `from`
/// (`open` and `close` counted), if it closes.
fn closing(text: &str, from: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 1usize;
    for (at, c) in text[from..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(from + at + c.len_utf8());
            }
        }
    }
    None
}

/// `pattern` with each `\exp(…)` written `e^{…}`, or each `e^{…}` written `\exp(…)` (Euler's e
/// standing alone: not the end of a name or a metavariable), if it has one. A group followed by
/// a script is left as written (`\exp(x)^2` is not `e^{x}^2`), and so is an exponential that is
/// the whole pattern: a rule that names one spelling alone (the exponential's `e^{$A}` beside a
/// bare `\exp`) chose its slot.
fn exponential_form(pattern: &str, to_power: bool) -> Option<String> {
    let (head, open, close) = if to_power { ("\\exp(", '(', ')') } else { ("e^{", '{', '}') };
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut at = 0;
    let mut found = false;
    while let Some(offset) = pattern[at..].find(head) {
        let start = at + offset;
        let standalone = to_power
            || !pattern[..start].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '\\' || c == '$');
        let body = start + head.len();
        let end = closing(pattern, body, open, close).filter(|end| {
            standalone
                && !pattern[*end..].starts_with(['^', '_', '\''])
                && (start, *end) != (0, pattern.len())
        });
        out.push_str(&pattern[at..start]);
        match end {
            Some(end) => {
                let inner = &pattern[body..end - 1];
                if to_power {
                    out.push_str(&format!("e^{{{inner}}}"));
                } else {
                    out.push_str(&format!("\\exp({inner})"));
                }
                found = true;
                at = end;
            }
            None => {
                out.push_str(head);
                at = body;
            }
        }
    }
    out.push_str(&pattern[at..]);
    found.then_some(out)
}

/// `pattern` with each differential's `d` written upright, `\mathrm{d}` (`d\mathbf{w}`, `dt`,
/// `\frac{dy}{dx}`), if it has one: a `d` that starts a term, before one letter or a command.
fn upright_differentials(pattern: &str) -> Option<String> {
    let bytes = pattern.as_bytes();
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut found = false;
    for (at, c) in pattern.char_indices() {
        let before = &pattern[..at];
        let starts = before.is_empty()
            || before.ends_with([' ', '('])
            || before.ends_with("\\frac{")
            || before.ends_with("}{");
        let next = bytes.get(at + 1).copied();
        let one_letter = next.is_some_and(|n| n.is_ascii_alphabetic())
            && !bytes.get(at + 2).is_some_and(|n| n.is_ascii_alphabetic());
        if c == 'd' && starts && (next == Some(b'\\') || one_letter) {
            out.push_str("\\mathrm{d}");
            found = true;
        } else {
            out.push(c);
        }
    }
    found.then_some(out)
}

/// The patterns as written, each followed by the spellings papers vary it in, without repeats:
/// an expectation's `\mathbb{E}` also as `\mathrm{E}` and, before a bracket or a subscript, as
/// `E`; the commands of [`COMMAND_VARIANTS`] each as its pair (`\arg\min` as
/// `\operatorname{argmin}`); `\exp(x)` as `e^{x}` and back;
/// a differential's `d` as `\mathrm{d}`; a transpose in each spelling of [`TRANSPOSES`];
/// a sign of [`ASSIGNMENTS`] outside any group as each of the others. Each spelling is a
/// pattern of its own, indexed like the rest.
pub fn spellings(patterns: &[String]) -> Vec<String> {
    spellings_beside(patterns, None)
}

/// [`spellings`], varying nothing that `focus` (the rule's focus pattern) names, so that the
/// focus is still found in every spelling's match.
fn spellings_beside(patterns: &[String], focus: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(patterns.len());
    let push = |pattern: String, out: &mut Vec<String>| {
        if !out.contains(&pattern) {
            out.push(pattern);
        }
    };
    let names = |text: &str| focus.is_some_and(|f| f.contains(text));
    for pattern in patterns {
        let mut forms = vec![pattern.clone()];
        for (one, other) in COMMAND_VARIANTS {
            if !names(one) && !names(other) {
                forms.extend(replace_command(pattern, one, other));
                forms.extend(replace_command(pattern, other, one));
            }
        }
        if !names("\\exp") && !names("e^{") {
            forms.extend(exponential_form(pattern, true));
            forms.extend(exponential_form(pattern, false));
        }
        if focus.is_none() {
            forms.extend(upright_differentials(pattern));
        }
        if !TRANSPOSES.iter().any(|t| names(t)) {
            forms.extend(transposes(pattern));
        }
        if pattern.contains("\\mathbb{E}") {
            forms.push(pattern.replace("\\mathbb{E}", "\\mathrm{E}"));
            // A bare E before a parenthesis is a function or an energy, not an expectation.
            if !pattern.contains("\\mathbb{E}(") && !pattern.contains("\\mathbb{E}\\left(") {
                forms.push(pattern.replace("\\mathbb{E}", "E"));
            }
        }
        for form in forms {
            let signs = top_level_signs(&form);
            push(form.clone(), &mut out);
            if let Some((at, sign)) = signs {
                for other in ASSIGNMENTS.iter().filter(|other| **other != sign) {
                    push(format!("{}{other}{}", &form[..at], &form[at + sign.len()..]), &mut out);
                }
            }
        }
    }
    out
}

/// Where a sign of [`ASSIGNMENTS`] stands between spaces outside any group (`$N = $A $P`, not
/// the `=` of `\sum_{$I = 1}`): the first such sign, with its byte offset.
fn top_level_signs(pattern: &str) -> Option<(usize, &'static str)> {
    let mut depth = 0usize;
    for (at, c) in pattern.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 => {
                let rest = &pattern[at + 1..];
                let sign = ASSIGNMENTS.iter().find(|sign| {
                    rest.strip_prefix(**sign).is_some_and(|after| after.starts_with(' '))
                        && !(**sign == "=" && pattern[..at].ends_with(':'))
                });
                if let Some(sign) = sign {
                    return Some((at + 1, sign));
                }
            }
            _ => {}
        }
    }
    None
}

/// The patterns of `within` or `without`, compiled, by metavariable.
fn compile_holdings(spec: &BTreeMap<String, OneOrMany>) -> Result<Vec<(String, Vec<Pattern>)>, String> {
    let mut out = Vec::new();
    for (name, patterns) in spec {
        out.push((
            name.clone(),
            patterns.as_slice().iter().map(|p| Pattern::compile(p)).collect::<Result<_, _>>()?,
        ));
    }
    Ok(out)
}

fn parse_kind(name: &str) -> Option<SymbolKind> {
    Some(match name {
        "scalar" => SymbolKind::Scalar,
        "vector" => SymbolKind::Vector,
        "matrix" => SymbolKind::Matrix,
        "dimension" => SymbolKind::Dimension,
        "index" => SymbolKind::Index,
        "function" => SymbolKind::Function,
        "set" => SymbolKind::Set,
        "random_variable" => SymbolKind::RandomVariable,
        "distribution" => SymbolKind::Distribution,
        // What the meaning layer could not tell: a condition listing the kinds a metavariable may
        // have, all but one or two, names it to keep the terms it cannot read.
        "unknown" => SymbolKind::Unknown,
        _ => return None,
    })
}
