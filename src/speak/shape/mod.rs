//! The shaper: the meaning layer's resolved tree → [`Phrase`], the structure a teacher reads.
//!
//! What a formula means — what applies to what, how far a `\sum` or a sign reaches, a call or
//! a product, what each script is (index, label, layer, power, transpose), what kind each
//! symbol is — is [`crate::meaning::resolve`]'s decision, made once for the map, the reading
//! and the evaluator. The shaper walks that [`Term`] tree and only chooses the phrase, for both
//! languages: a definition (`F(a) = body`), a mean (`\frac{1}{N}\sum`), a derivative
//! (`\partial L / \partial Q`), "n by d", a dot product.
//!
//! - `mod.rs`: the entry point, relations, lists and leaves;
//! - `product.rs`: rows of factors (`a b / c`), calls, operators and large operators;
//! - `parts.rs`: symbols and their scripts, fractions, roots, brackets, environments;
//! - `clauses.rs`: a long reading split, one part said apart ("where u is …").
//!
//! Recursion is bounded by [`MAX_DEPTH`]: deeper parts read as elided.

mod clauses;
mod parts;
mod product;

use super::phrase::{Name, NameClass, Phrase, Sign};
use super::vocab::Vocabulary;
use super::Verbosity;
use crate::meaning::tree::{infix_name, Joint};
use crate::meaning::{Term, TermKind, TildeReading};
use crate::syntax::ast::{Font, InfixOp, Node, NodeKind, PrefixOp};
use crate::syntax::names;

/// The deepest the shaper goes into a tree (below it, parts read as elided). The parser and
/// [`crate::meaning::resolve_checked`] refuse any tree deeper than `--max-depth` (at most
/// [`crate::syntax::depth::MAX_DEPTH_CEILING`] levels, counted by the one rule of
/// [`crate::syntax::depth`]), and the shaper takes at most two steps a level, so no reading of
/// a formula they accepted is elided: only a tree built by hand reaches this guard.
pub const MAX_DEPTH: usize = 2 * crate::syntax::depth::MAX_DEPTH_CEILING + 64;

/// Relations that define their left side when it is a call: `F(x) := …`.
const DEFINING: &[&str] = &["=", ":=", "\\coloneqq", "\\triangleq", "\\equiv"];

/// The key under which `data/speech.toml` reads a `\sim` between two sizes (`f(n) \sim n \log n`,
/// asymptotically equal), not a draw from a law.
const GROWS_LIKE: &str = "\\sim (growth)";

/// The key under which `data/speech.toml` reads a `\sim` whose right side is a named law said
/// with its parameters (Korean says the law's own name, not "…분포 분포").
const DRAWN_FROM_A_NAMED_LAW: &str = "\\sim (named law)";

/// The vocabulary key a relation is read by: its operator, or, for a `\sim`, the reading the
/// meaning layer gave it (`f(n) \sim n \log n` grows alike, `0.5 \sim 2` is about alike) and a
/// draw from a named law said by its name (`x \sim \mathcal{N}(\mu, \sigma^2)`).
fn relation_key(joint: &Joint, side: &Phrase) -> String {
    let key = op_name(joint.op);
    // `a > 0 \implies b > 0`: statements the meaning layer joined, each said whole.
    if matches!(joint.term.kind, TermKind::Chain { .. }) {
        if let Some(connective) = crate::meaning::statement_connective(&key) {
            return format!("{connective} (statements)");
        }
    }
    if key != "\\sim" {
        return key;
    }
    match joint.tilde_reading() {
        TildeReading::Draw if matches!(side, Phrase::Law { .. }) => DRAWN_FROM_A_NAMED_LAW.to_string(),
        TildeReading::Draw => key,
        TildeReading::Growth => GROWS_LIKE.to_string(),
        TildeReading::About => "\\approx".to_string(),
    }
}

/// Turns a resolved tree into a [`Phrase`].
pub struct Shaper<'a> {
    vocab: &'a Vocabulary,
    source: &'a str,
    /// Capital letters whose small letter the formula also writes (`T` of `\frac{t}{T}`).
    both_cases: Vec<String>,
    /// How much the reading spells out.
    verbosity: Verbosity,
}

impl<'a> Shaper<'a> {
    /// A shaper with the vocabulary, for the formula `term` parsed from `source`.
    pub fn new(vocab: &'a Vocabulary, source: &'a str, term: &Term) -> Self {
        Shaper { vocab, source, both_cases: capitals_with_small_letters(term), verbosity: Verbosity::Default }
    }

    /// The same shaper at `verbosity`: at full every capital is named and every bracket kept, at
    /// brief no capital is named.
    pub fn at(mut self, verbosity: Verbosity) -> Self {
        self.verbosity = verbosity;
        self
    }

    /// The phrase of a whole formula: like [`Shaper::shape`], and the subject of a top-level
    /// equation gets its role word (`L` → "the loss L").
    pub fn top(&self, root: &Term) -> Phrase {
        let phrase = self.top_phrase(root);
        if self.verbosity == Verbosity::Full {
            return phrase;
        }
        let used: Vec<String> = root.occurrences().iter().map(|(_, o)| o.base_name.to_string()).collect();
        clauses::split_long(phrase, &used)
    }

    /// The phrase of a whole formula before long readings are split.
    fn top_phrase(&self, root: &Term) -> Phrase {
        match self.shape(root, 0) {
            relation @ Phrase::Relation { .. } => self.with_role(relation),
            Phrase::Statements(items) => {
                Phrase::Statements(items.into_iter().map(|item| self.with_role(item)).collect())
            }
            // `\mathcal{L} = … \text{ where } …`: the first clause's subject takes its role word.
            Phrase::Prose(mut clauses) => {
                if let Some((None, first)) = clauses.first_mut() {
                    *first = self.with_role(std::mem::replace(first, Phrase::Empty));
                }
                Phrase::Prose(clauses)
            }
            other => other,
        }
    }

    /// A relation whose subject takes its role word.
    fn with_role(&self, phrase: Phrase) -> Phrase {
        match phrase {
            Phrase::Relation { first, rest } => Phrase::Relation { first: self.role(*first), rest },
            other => other,
        }
    }

    /// A subject with its role word, when the vocabulary gives it one.
    fn role(&self, subject: Phrase) -> Box<Phrase> {
        match &subject {
            Phrase::Name(Name {
                key,
                class: NameClass::Letter | NameClass::Capital | NameClass::Calligraphic,
            }) if self.vocab.roles.contains_key(key) => {
                Phrase::Role { role: key.clone(), x: subject.boxed() }.boxed()
            }
            _ => subject.boxed(),
        }
    }

    /// The phrase of `term`, `depth` levels down.
    pub fn shape(&self, term: &Term, depth: usize) -> Phrase {
        if depth > MAX_DEPTH {
            return Phrase::Elided;
        }
        let d = depth + 1;
        match &term.kind {
            TermKind::Number | TermKind::Leaf => self.leaf(term, d),
            TermKind::Symbol(occurrence) => self.occurrence(term, occurrence, d),
            TermKind::Scripted { base, sub, sup, primes } => {
                self.scripted(term, base, sub.as_ref(), sup.as_ref(), *primes, d)
            }
            TermKind::Apply(app) => self.apply_term(app, d),
            TermKind::Operator(op) => self.operator_term(op, d),
            TermKind::BigOp(big) => self.big_op_term(big, d),
            TermKind::Product(factors) => self.row_of_factors(factors, d),
            TermKind::Sign { op, operand } => signed(*op, self.shape(operand, d)),
            TermKind::Chain { first, rest } => self.chain(first, rest, d),
            TermKind::Frac { num, den } => product::division(self.shape(num, d), self.shape(den, d)),
            TermKind::Binom { top, bottom } => {
                Phrase::Binom(self.shape(top, d).boxed(), self.shape(bottom, d).boxed())
            }
            TermKind::Sqrt { index, radicand } => Phrase::Sqrt {
                index: index.as_ref().map(|i| self.shape(i, d).boxed()),
                body: nested(self.shape(radicand, d)).boxed(),
            },
            TermKind::Factorial(operand) => Phrase::Factorial(self.shape(operand, d).boxed()),
            TermKind::Interval { low, high } => {
                Phrase::Interval(self.shape(low, d).boxed(), self.shape(high, d).boxed())
            }
            TermKind::Fenced { open, body } => self.fenced(term, *open, body, d),
            TermKind::Accent { accent, body } => {
                Phrase::Accent { accent: accent.to_string(), body: self.shape(body, d).boxed() }
            }
            TermKind::Wrapped(body) => self.shape(body, d),
            TermKind::Annotated { body, label } => self.annotated(body, label.as_deref(), d),
            TermKind::Rows(rows) => self.rows(term.node.environment(), rows, d),
            TermKind::Prose(clauses) => Phrase::Prose(
                clauses
                    .iter()
                    .map(|c| {
                        let words = c.words.as_ref().map(|w| prose_words(w.node));
                        (words, c.term.as_ref().map_or(Phrase::Empty, |t| self.shape(t, d)))
                    })
                    .collect(),
            ),
        }
    }

    /// A part without parts to resolve: a number, a symbol that names nothing (`\infty`), a
    /// word, dots, punctuation, a label written as text (`\mathrm{KL}`, `CLIP`).
    fn leaf(&self, term: &Term, d: usize) -> Phrase {
        if term.span.start == term.span.end && term.node.span.start != term.node.span.end {
            // An operand that is not there (an operator at the end of its row).
            return Phrase::Empty;
        }
        self.leaf_node(term.node, d)
    }

    /// The phrase of a node that carries no decision of meaning.
    pub(super) fn leaf_node(&self, node: &Node, d: usize) -> Phrase {
        if d > MAX_DEPTH {
            return Phrase::Elided;
        }
        match &node.kind {
            NodeKind::Symbol { name, font } => self.symbol(name, *font),
            NodeKind::Number { text, .. } => Phrase::Number(text.to_string()),
            NodeKind::Word { text, .. } => word(text),
            NodeKind::Dots { .. } => Phrase::Dots,
            NodeKind::Punct { text } => {
                // As written (`'`, `?`), without the braces of a group around it (`{ \rangle }`).
                let written = node
                    .span
                    .text(self.source)
                    .trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
                let text = if written.is_empty() { text.as_str() } else { written };
                Phrase::Text(text.trim_start_matches('\\').to_string())
            }
            NodeKind::Unknown { name } => Phrase::Text(name.trim_start_matches('\\').to_string()),
            NodeKind::Empty => Phrase::Empty,
            NodeKind::Styled { body, .. } | NodeKind::Boxed { body } => self.leaf_node(body, d + 1),
            // `\mathbf{w}^{(\mathrm{new})}`: a label word in parentheses is said as the word.
            NodeKind::Fenced { body, .. } if matches!(body.kind, NodeKind::Word { .. }) => {
                self.leaf_node(body, d + 1)
            }
            NodeKind::Accent { accent, body } => {
                Phrase::Accent { accent: accent.to_string(), body: self.leaf_node(body, d + 1).boxed() }
            }
            NodeKind::LargeOp { name } => Phrase::BigOp(super::phrase::BigOp {
                op: name.to_string(),
                var: None,
                from: None,
                to: None,
                over: None,
                body: None,
                mean_of: None,
            }),
            NodeKind::Chain { first, rest } if rest.iter().all(|l| l.op == InfixOp::Juxt) => {
                if let Some(word) = parts::letter_run(node) {
                    return self::word(&word);
                }
                let parts = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
                Phrase::Seq(parts.map(|n| self.leaf_node(n, d + 1)).collect())
            }
            // `L^{CLIP+VF+S}`: a label of words joined by plus signs.
            NodeKind::Chain { first, rest }
                if rest.iter().all(|l| matches!(&l.op, InfixOp::Additive(o) if o == "+")) =>
            {
                let rest = rest.iter().map(|l| ("+".to_string(), self.leaf_node(&l.operand, d + 1)));
                Phrase::Ops {
                    first: self.leaf_node(first, d + 1).boxed(),
                    rest: rest.collect(),
                    nested: false,
                }
            }
            _ => Phrase::Elided,
        }
    }

    /// A symbol: a letter, a Greek letter, a symbol command, or a set letter.
    pub(super) fn symbol(&self, name: &str, font: Font) -> Phrase {
        let class = match font {
            Font::Blackboard if name == "R" => {
                return Phrase::NumberSpace { complex: false, dims: Vec::new() }
            }
            Font::Blackboard => NameClass::Blackboard,
            Font::Calligraphic | Font::Script => NameClass::Calligraphic,
            _ if self.names_capital(name) => NameClass::Capital,
            _ if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_alphabetic()) => NameClass::Letter,
            _ if names::is_greek(name) => NameClass::Greek,
            _ => NameClass::Symbol,
        };
        Phrase::Name(Name { key: name.to_string(), class })
    }

    /// Whether a capital letter is said "capital X": at full always, at brief never, by default
    /// when the formula also writes its small letter.
    fn names_capital(&self, name: &str) -> bool {
        match self.verbosity {
            Verbosity::Brief => false,
            Verbosity::Full => name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()),
            Verbosity::Default => self.both_cases.iter().any(|c| c == name),
        }
    }

    /// Operands joined by operators of one level: a sum, a relation, a list.
    fn chain(&self, first: &Term, rest: &[Joint], d: usize) -> Phrase {
        match rest.first().map(|j| j.op) {
            None => self.shape(first, d),
            Some(InfixOp::Separator(_)) => self.list(first, rest, d),
            Some(InfixOp::Relation(_) | InfixOp::Stacked { .. }) => self.relation(first, rest, d),
            Some(InfixOp::Additive(_) | InfixOp::Multiplicative(_) | InfixOp::Juxt) => {
                self.additive_terms(first, rest, d)
            }
        }
    }

    /// `a = b`, `a \le b < c`, `f: A \to B`, and definitions `F(x) = body`.
    fn relation(&self, first: &Term, rest: &[Joint], d: usize) -> Phrase {
        // `\in` alone, as the seed's table lists it: the sign said by its name.
        if let [joint] = rest {
            let empty = |t: &Term| matches!(t.node.kind, NodeKind::Empty);
            if let (true, true, InfixOp::Relation(name)) = (empty(first), empty(&joint.term), joint.op) {
                if let Some(command) = name.strip_prefix('\\') {
                    return self.symbol(command, Font::Normal);
                }
            }
        }
        if let [colon, arrow] = rest {
            let to = matches!(op_name(arrow.op).as_str(), "\\to" | "\\rightarrow");
            if op_name(colon.op) == ":" && to {
                return Phrase::Mapping {
                    f: self.shape(first, d).boxed(),
                    from: self.shape(&colon.term, d).boxed(),
                    to: self.shape(&arrow.term, d).boxed(),
                };
            }
        }
        if let [joint] = rest {
            if DEFINING.contains(&op_name(joint.op).as_str()) {
                if let Some(definition) = self.definition(first, &joint.term, d) {
                    return definition;
                }
            }
        }
        let rest = rest.iter().map(|j| {
            let side = self.shape(&j.term, d);
            (relation_key(j, &side), side)
        });
        Phrase::Relation { first: self.shape(first, d).boxed(), rest: rest.collect() }
    }

    /// `F(a, b) = body` when the left side is a function applied to its parameters; `f(x) = 0`,
    /// a value set to a number, is an equation to solve ("f of x is 0").
    fn definition(&self, lhs: &Term, body: &Term, d: usize) -> Option<Phrase> {
        let TermKind::Apply(app) = &lhs.kind else { return None };
        if matches!(body.kind, TermKind::Number) {
            return None;
        }
        if app.sub.is_some() || app.sup.is_some() || !app.given.is_empty() {
            return None;
        }
        // `D_{\mathrm{KL}}(P \parallel Q) = …`: a divergence of one law from another is said so
        // ("the K L divergence of P from Q is …"), not as a function given two parameters.
        if product::divergence_label(&app.callee).is_some() && app.args.len() == 2 {
            return None;
        }
        // `y[i] = …`, `\mathbf{x}(t) = …`: an array read at positions is given a value; that is no
        // function's definition.
        let array = app.callee.occurrence().is_some_and(|o| {
            matches!(o.kind, crate::meaning::SymbolKind::Matrix | crate::meaning::SymbolKind::Vector)
        });
        if array {
            return None;
        }
        let params = app.args.iter().map(|p| self.shape(p, d)).collect();
        Some(Phrase::Definition {
            name: self.callee_name(app, d).boxed(),
            params,
            body: self.shape(body, d).boxed(),
        })
    }

    /// `a, b, c`: a list, a range written with dots, or statements side by side.
    fn list(&self, first: &Term, rest: &[Joint], d: usize) -> Phrase {
        let items: Vec<Phrase> = std::iter::once(first)
            .chain(rest.iter().map(|j| &j.term))
            .map(|t| self.shape(t, d))
            .filter(|p| *p != Phrase::Empty)
            .collect();
        if items.iter().any(|p| matches!(p, Phrase::Relation { .. } | Phrase::Definition { .. })) {
            return Phrase::Statements(items);
        }
        range_or_list(items)
    }
}

/// The capital Latin letters of `term` whose small letter it also writes in the same font.
fn capitals_with_small_letters(term: &Term) -> Vec<String> {
    // Sets of the letters written, so that many occurrences cost one pass.
    let mut letters: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for (_, occurrence) in term.occurrences() {
        if let NodeKind::Symbol { name, font: Font::Normal } = &occurrence.base.kind {
            if name.len() == 1 {
                letters.insert(name.as_str());
            }
        }
    }
    letters
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        .filter(|l| letters.contains(l.to_ascii_lowercase().as_str()))
        .map(|l| l.to_string())
        .collect()
}

/// A sign before something: `-x`, `+x`, `\pm x`, `\neg p`.
pub(super) fn signed(op: PrefixOp, x: Phrase) -> Phrase {
    let x = x.boxed();
    match op {
        PrefixOp::Minus => Phrase::Neg(x),
        PrefixOp::Plus => Phrase::Sign { sign: Sign::Plus, x },
        PrefixOp::PlusMinus => Phrase::Sign { sign: Sign::PlusMinus, x },
        PrefixOp::MinusPlus => Phrase::Sign { sign: Sign::MinusPlus, x },
        PrefixOp::Not => Phrase::Sign { sign: Sign::Not, x },
    }
}

/// Items of a list: a range when dots stand between them (`x_1, \dots, x_n` is "x_1 through
/// x_n"; `a, b, \dots` is "a, b, and so on"), else a list.
pub(super) fn range_or_list(items: Vec<Phrase>) -> Phrase {
    match items.iter().position(|p| *p == Phrase::Dots) {
        Some(at) if at + 1 == items.len() => {
            let mut before: Vec<Phrase> = items.into_iter().take(at).collect();
            let first =
                if before.len() == 1 { before.pop().unwrap_or(Phrase::Empty) } else { Phrase::List(before) };
            Phrase::Range { first: first.boxed(), last: None }
        }
        Some(at) if at > 1 && items.get(..at).is_some_and(|before| !one_sequence(before)) => {
            // `[\mathbf{x}_{\mathrm{class}}; \mathbf{x}_p^1 \mathbf{E}; \ldots]`: items that are no
            // sequence of one name are all said before the dots.
            let mut items = items.into_iter();
            let before: Vec<Phrase> = items.by_ref().take(at).collect();
            let last = items.skip(1).last();
            Phrase::Range { first: Phrase::List(before).boxed(), last: last.map(Phrase::boxed) }
        }
        Some(at) if at > 0 => {
            let mut items = items.into_iter();
            let first = items.next().unwrap_or(Phrase::Empty);
            let last = items.skip(at).last();
            Phrase::Range { first: first.boxed(), last: last.map(Phrase::boxed) }
        }
        _ => Phrase::List(items),
    }
}

/// Whether phrases are members of one sequence (`x_1, x_2`; `1, 2`): numbers, or one name with
/// different scripts.
fn one_sequence(items: &[Phrase]) -> bool {
    let base = |p: &Phrase| match p {
        Phrase::Sub { base, .. } | Phrase::Super { base, .. } | Phrase::Layer { base, .. } => {
            Some(base.clone())
        }
        _ => None,
    };
    if items.iter().all(|p| matches!(p, Phrase::Number(_))) {
        return true;
    }
    let Some(first) = items.first().and_then(base) else { return false };
    items.iter().all(|p| base(p).is_some_and(|b| b == first))
}

/// Operator words inside something larger read as a whole: "the sum of a and b".
pub(super) fn nested(phrase: Phrase) -> Phrase {
    match phrase {
        Phrase::Ops { first, rest, .. } => Phrase::Ops { first, rest, nested: true },
        other => other,
    }
}

/// A multi-letter name as a [`Phrase`]; the words an underscore joins are said apart
/// (`\mathit{keep\_prob}`, "keep prob").
fn word(text: &str) -> Phrase {
    let words = text.split(|c: char| c.is_whitespace() || c == '_').filter(|w| !w.is_empty());
    Phrase::Name(Name { key: words.collect::<Vec<_>>().join(" "), class: NameClass::Word })
}

/// The canonical spelling of an operator, for the vocabulary's tables.
fn op_name(op: &InfixOp) -> String {
    match op {
        InfixOp::Stacked(stacked) => match &stacked.label.kind {
            NodeKind::Word { text, .. } if text == "def" => ":=".to_string(),
            _ => stacked.relation.to_string(),
        },
        // `P_{Y|X}`: the bar however written is the conditioning bar the meaning layer reads.
        op if crate::meaning::is_conditioning_bar(op) => "\\mid".to_string(),
        other => infix_name(other).to_string(),
    }
}

/// The words of prose as written, without the space around them (`\text{ for all }` → "for all");
/// a quantifier symbol as its command (`\forall`).
fn prose_words(node: &crate::syntax::ast::Node) -> String {
    match &node.kind {
        NodeKind::Word { text, .. } => text.split_whitespace().collect::<Vec<_>>().join(" "),
        // `\forall`, `\exists`: quantifiers, looked up as written.
        NodeKind::Symbol { name, .. } => format!("\\{name}"),
        _ => String::new(),
    }
}
