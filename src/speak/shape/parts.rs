//! The parts of a formula that are not rows: scripts (index, label, transpose, power),
//! fractions, brackets, braces with labels, and environments (cases, matrices, aligned rows).

use super::product::division;
use super::Shaper;
use crate::meaning::{binding_name, kind_of, list_items, real_space_dims, SymbolKind};
use crate::speak::phrase::{Fence, Name, NameClass, Phrase, SubStyle};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, PrefixOp};

/// Superscripts that mark a transpose.
const TRANSPOSE: &[&str] = &["top", "intercal", "T", "transpose"];

/// Superscripts that mark a variant, not a power: `x^*`, `A^\dagger`.
const MARKS: &[&str] = &["ast", "star", "dagger", "prime", "circ", "*"];

/// Words that open a condition in `cases`: `\text{if } x > 0`.
const CONDITION_WORDS: &[&str] = &["if", "when", "for", "where", "if:"];

/// Words that stand for "in every other case".
const OTHERWISE_WORDS: &[&str] = &["otherwise", "else", "elsewhere"];

impl Shaper<'_> {
    /// A node with scripts, on its own (not called, not a large operator in a row).
    pub(super) fn scripts(&self, node: &Node, d: usize) -> Phrase {
        let NodeKind::Scripts { base, sub, sup, primes } = &node.kind else { return Phrase::Empty };
        if self.is_big_op(node) {
            return self.big_op(node, None, d);
        }
        if let Some(dims) = real_space_dims(node) {
            return Phrase::RealSpace(dims.iter().map(|n| self.shape(n, d)).collect());
        }
        let mut phrase = match (&base.kind, sub) {
            (NodeKind::Fenced { open: Delim::DoubleBar, body, .. }, Some(p)) => {
                Phrase::PNorm { p: self.shape(p, d).boxed(), body: self.shape(body, d).boxed() }
            }
            _ => self.shape(base, d),
        };
        let sub = sub.as_ref().filter(|_| !matches!(phrase, Phrase::PNorm { .. }));
        if *primes > 0 {
            phrase = Phrase::Prime { base: phrase.boxed(), count: *primes };
        }
        if let Some(sub) = sub {
            phrase = self.attach_sub(base, phrase, sub, node, d);
        }
        if let Some(sup) = sup {
            phrase = self.attach_sup(base, phrase, sup, d);
        }
        phrase
    }

    /// A subscript on `phrase`: an index, a label, a dimension's name, an entry, or a range.
    fn attach_sub(&self, base: &Node, phrase: Phrase, sub: &Node, whole: &Node, d: usize) -> Phrase {
        if let NodeKind::Chain { first, rest } = &sub.kind {
            if let ([link], NodeKind::Empty) = (rest.as_slice(), &first.kind) {
                let style = match &link.op {
                    InfixOp::Relation(r) if r == "<" => Some(SubStyle::Before),
                    InfixOp::Relation(r) if r == ">" || r == "\\ge" => Some(SubStyle::After),
                    InfixOp::Relation(r) if r == "\\le" => Some(SubStyle::UpTo),
                    _ => None,
                };
                if let Some(style) = style {
                    let sub = self.shape(&link.operand, d).boxed();
                    return Phrase::Sub { base: phrase.boxed(), sub, style };
                }
            }
        }
        if let Some(word) = letter_run(sub) {
            let dimension = self.sub_style(base, &word_node(sub, &word), whole);
            return Phrase::Sub { base: phrase.boxed(), sub: super::word(&word).boxed(), style: dimension };
        }
        let style = self.sub_style(base, sub, whole);
        Phrase::Sub { base: phrase.boxed(), sub: self.sub_phrase(sub, d).boxed(), style }
    }

    /// Whether a subscript is an index (`x_i`, `A_{ij}`, `x_1`), a label (`W_Q`, `p_\theta`,
    /// `d_{\text{model}}`), a dimension's name (`d_k`), or picks an entry of a compound.
    fn sub_style(&self, base: &Node, sub: &Node, whole: &Node) -> SubStyle {
        if !name_like(base) {
            return SubStyle::Entry;
        }
        let dimension = binding_name(whole).and_then(|n| self.table.recorded(&n))
            == Some(SymbolKind::Dimension)
            || matches!(binding_name(base).as_deref(), Some("d" | "n"));
        let simple = matches!(sub.kind, NodeKind::Symbol { .. } | NodeKind::Word { .. });
        if dimension && simple {
            return SubStyle::Joined;
        }
        match &sub.kind {
            NodeKind::Symbol { name, font: Font::Normal } if is_lower_letter(name) => SubStyle::Index,
            NodeKind::Number { .. } | NodeKind::Chain { .. } | NodeKind::Scripts { .. } => SubStyle::Index,
            _ => SubStyle::Label,
        }
    }

    /// The phrase of a subscript: `ij` and `i, j` are said one after the other.
    pub(super) fn sub_phrase(&self, sub: &Node, d: usize) -> Phrase {
        match &sub.kind {
            NodeKind::Chain { first, rest }
                if rest.iter().all(|l| matches!(l.op, InfixOp::Juxt | InfixOp::Separator(_))) =>
            {
                let parts = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
                Phrase::Seq(parts.map(|n| self.shape(n, d)).collect())
            }
            _ => self.shape(sub, d),
        }
    }

    /// A superscript on `phrase`: a transpose, an inverse, an index (`W^h`, `W^{(l)}`), a mark
    /// (`x^*`), or a power.
    pub(super) fn attach_sup(&self, base: &Node, phrase: Phrase, sup: &Node, d: usize) -> Phrase {
        let base_kind = kind_of(base, self.table);
        match &sup.kind {
            NodeKind::Symbol { name, .. } if TRANSPOSE.contains(&name.as_str()) => {
                Phrase::Transpose(phrase.boxed())
            }
            NodeKind::Prefix { op: PrefixOp::Minus, operand } if matches!(&operand.kind, NodeKind::Number { text, .. } if text == "1") => {
                Phrase::Inverse { base: phrase.boxed(), matrix: base_kind == SymbolKind::Matrix }
            }
            NodeKind::Symbol { name, .. } if MARKS.contains(&name.as_str()) => {
                Phrase::Sub { base: phrase.boxed(), sub: self.shape(sup, d).boxed(), style: SubStyle::Label }
            }
            NodeKind::Fenced { open: Delim::Paren, body, .. } if binding_name(body).is_some() => {
                Phrase::Super { base: phrase.boxed(), sup: self.shape(body, d).boxed() }
            }
            NodeKind::Symbol { name, .. }
                if base_kind == SymbolKind::Matrix
                    && (self.table.recorded(name) == Some(SymbolKind::Index) || is_upper_letter(name)) =>
            {
                Phrase::Super { base: phrase.boxed(), sup: self.shape(sup, d).boxed() }
            }
            NodeKind::Word { .. } if base_kind == SymbolKind::Matrix => {
                Phrase::Super { base: phrase.boxed(), sup: self.shape(sup, d).boxed() }
            }
            _ => Phrase::Power { base: phrase.boxed(), exponent: self.shape(sup, d).boxed() },
        }
    }

    /// `\frac{num}{den}`.
    pub(super) fn frac(&self, num: &Node, den: &Node, d: usize) -> Phrase {
        division(self.shape(num, d), self.shape(den, d))
    }

    /// A bracketed group, by its delimiters.
    pub(super) fn fenced(&self, open: Delim, close: Option<Delim>, body: &Node, d: usize) -> Phrase {
        let items = list_items(body);
        let inner = || self.shape(body, d).boxed();
        match open {
            Delim::Paren | Delim::Bracket if close.is_some_and(|c| c != open) && items.len() == 2 => {
                let mut pair = items.into_iter().map(|n| self.shape(n, d).boxed());
                let a = pair.next().unwrap_or_else(|| Phrase::Empty.boxed());
                let b = pair.next().unwrap_or_else(|| Phrase::Empty.boxed());
                Phrase::Interval(a, b)
            }
            Delim::Paren | Delim::Bracket => match self.shape(body, d) {
                Phrase::Ops { first, rest, .. } => {
                    let ops = Phrase::Ops { first, rest, nested: true };
                    Phrase::Fence { fence: Fence::Group, body: ops.boxed() }
                }
                other => other,
            },
            Delim::DoubleBar => Phrase::Fence { fence: Fence::Norm, body: inner() },
            Delim::Bar if kind_of(body, self.table) == SymbolKind::Matrix => {
                Phrase::Fence { fence: Fence::Det, body: inner() }
            }
            Delim::Bar => Phrase::Fence { fence: Fence::Abs, body: inner() },
            Delim::Floor => Phrase::Fence { fence: Fence::Floor, body: inner() },
            Delim::Ceil => Phrase::Fence { fence: Fence::Ceil, body: inner() },
            Delim::Brace => self.set(body, d),
            Delim::Angle if items.len() == 2 => {
                let mut pair = items.into_iter().map(|n| self.shape(n, d).boxed());
                let a = pair.next().unwrap_or_else(|| Phrase::Empty.boxed());
                let b = pair.next().unwrap_or_else(|| Phrase::Empty.boxed());
                Phrase::Inner(a, b)
            }
            _ => self.shape(body, d),
        }
    }

    /// `\{ … \}`: a set of elements, or a set builder `\{x \mid x > 0\}`.
    fn set(&self, body: &Node, d: usize) -> Phrase {
        if let NodeKind::Chain { first, rest } = &body.kind {
            if let Some((bar, more)) = rest.split_first() {
                if matches!(&bar.op, InfixOp::Relation(r) if r == "\\mid" || r == ":") {
                    let cond = match more {
                        [] => self.shape(&bar.operand, d),
                        links => Phrase::Relation {
                            first: self.shape(&bar.operand, d).boxed(),
                            rest: links
                                .iter()
                                .map(|l| (super::op_name(&l.op), self.shape(&l.operand, d)))
                                .collect(),
                        },
                    };
                    return Phrase::SetBuilder { x: self.shape(first, d).boxed(), cond: cond.boxed() };
                }
            }
        }
        Phrase::Fence { fence: Fence::Set, body: self.shape(body, d).boxed() }
    }

    /// `\underbrace{body}_{label}`: a shape label reads "of shape n by d".
    pub(super) fn annotated(&self, body: &Node, label: Option<&Node>, d: usize) -> Phrase {
        let body = self.shape(body, d);
        let Some(label) = label else { return body };
        let label = self.shape(label, d);
        let shape = matches!(label, Phrase::Shape(_));
        Phrase::Annotated { body: body.boxed(), label: label.boxed(), shape }
    }

    /// An environment or top-level rows.
    pub(super) fn rows(&self, env: Option<&str>, rows: &[Vec<Node>], d: usize) -> Phrase {
        let env = env.unwrap_or("").trim_end_matches('*');
        if env.ends_with("matrix") || env == "array" {
            let cells = |row: &Vec<Node>| row.iter().map(|c| self.shape(c, d)).collect();
            return Phrase::Matrix(rows.iter().map(cells).collect());
        }
        if env.ends_with("cases") {
            return Phrase::Cases(rows.iter().map(|row| self.case(row, d)).collect());
        }
        let mut statements: Vec<Phrase> = rows.iter().map(|row| self.row(row, d)).collect();
        match statements.len() {
            1 => statements.pop().unwrap_or(Phrase::Empty),
            _ => Phrase::Statements(statements),
        }
    }

    /// One row of `cases`: the value and its condition (`None`: otherwise).
    fn case(&self, row: &[Node], d: usize) -> (Phrase, Option<Phrase>) {
        let mut cells = row.iter();
        let value = cells.next().map_or(Phrase::Empty, |c| self.shape(c, d));
        let condition = cells.next().map(|c| self.shape(c, d)).and_then(strip_condition_word);
        (value, condition)
    }

    /// One row of aligned cells: `a &= b` is the relation `a = b`.
    fn row(&self, row: &[Node], d: usize) -> Phrase {
        let mut joined = Phrase::Empty;
        for cell in row {
            joined = match (joined, self.shape(cell, d)) {
                (Phrase::Empty, next) => next,
                (Phrase::Relation { first, mut rest }, Phrase::Relation { first: empty, rest: more })
                    if *empty == Phrase::Empty =>
                {
                    rest.extend(more);
                    Phrase::Relation { first, rest }
                }
                (left, Phrase::Relation { first: empty, rest }) if *empty == Phrase::Empty => {
                    Phrase::Relation { first: left.boxed(), rest }
                }
                (left, next) => Phrase::Seq(vec![left, next]),
            };
        }
        joined
    }
}

/// Three or more italic letters side by side in a subscript spell a word, not a product:
/// `p_{data}`, `d_{model}`, `PE_{pos}`.
fn letter_run(sub: &Node) -> Option<String> {
    let NodeKind::Chain { first, rest } = &sub.kind else { return None };
    if rest.len() < 2 || rest.iter().any(|l| l.op != InfixOp::Juxt) {
        return None;
    }
    let letters = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
    letters
        .map(|n| match &n.kind {
            NodeKind::Symbol { name, font: Font::Normal } if is_lower_letter(name) => Some(name.as_str()),
            _ => None,
        })
        .collect::<Option<Vec<&str>>>()
        .map(|letters| letters.concat())
}

/// A word node standing where `sub` was, to classify it as a subscript.
fn word_node(sub: &Node, word: &str) -> Node {
    let kind = NodeKind::Word { text: word.into(), style: crate::syntax::ast::WordStyle::Text };
    Node::new(kind, sub.span)
}

/// The condition of a case without its leading "if"; `None` for "otherwise".
fn strip_condition_word(condition: Phrase) -> Option<Phrase> {
    let word_is = |p: &Phrase, words: &[&str]| matches!(p, Phrase::Name(Name { key, class: NameClass::Word }) if words.contains(&key.trim()));
    match condition {
        p if word_is(&p, OTHERWISE_WORDS) => None,
        Phrase::Product(factors) if factors.first().is_some_and(|f| word_is(f, CONDITION_WORDS)) => {
            let mut rest: Vec<Phrase> = factors.into_iter().skip(1).collect();
            Some(if rest.len() == 1 { rest.pop().unwrap_or(Phrase::Empty) } else { Phrase::Product(rest) })
        }
        Phrase::Relation { first, rest } => {
            let first = strip_condition_word(*first).unwrap_or(Phrase::Empty);
            Some(Phrase::Relation { first: first.boxed(), rest })
        }
        other => Some(other),
    }
}

/// Whether a node can carry an index or a label (a symbol or a name), rather than pick an
/// entry of a compound (`(QK^\top)_{ij}`).
fn name_like(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { .. } | NodeKind::Word { .. } | NodeKind::Number { .. } => true,
        NodeKind::Accent { body, .. } | NodeKind::Styled { body, .. } => name_like(body),
        _ => false,
    }
}

fn is_upper_letter(name: &str) -> bool {
    name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase())
}

fn is_lower_letter(name: &str) -> bool {
    name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase())
}
