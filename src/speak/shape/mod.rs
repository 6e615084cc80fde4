//! The shaper: syntax tree → [`Phrase`], the structure a teacher reads.
//!
//! It decides once, for both languages, what each part of a formula is: a definition
//! (`F(a) = body`), a call or a product (with [`crate::meaning::is_call`]), how far a `\sum`
//! or a `\log` reaches in a row of side-by-side factors, a mean (`\frac{1}{N}\sum`), a
//! derivative (`\partial L / \partial Q`), an index or a label in a subscript.
//!
//! - `mod.rs`: the entry point, names, relations and lists;
//! - `product.rs`: rows of factors (`a b / c`), calls and large operators;
//! - `parts.rs`: scripts, fractions, roots, brackets, environments.
//!
//! Recursion is bounded by [`MAX_DEPTH`]: deeper parts read as elided.

mod parts;
mod product;

use super::phrase::{Name, NameClass, Phrase, Sign};
use super::vocab::Vocabulary;
use crate::meaning::{call_parts, list_items, SymbolTable};
use crate::syntax::ast::{InfixOp, Node, NodeKind, PrefixOp};
use crate::syntax::names;

/// The deepest the shaper goes into a tree (below it, parts read as elided). Real formulas
/// nest a few dozen levels at most; 128 keeps a reading within a 2 MiB thread stack even in
/// a debug build.
pub const MAX_DEPTH: usize = 128;

/// Relations that define their left side when it is a call: `F(x) := …`.
const DEFINING: &[&str] = &["=", ":=", "\\coloneqq", "\\triangleq", "\\equiv"];

/// Turns a syntax tree into a [`Phrase`].
pub struct Shaper<'a> {
    table: &'a SymbolTable,
    vocab: &'a Vocabulary,
    source: &'a str,
}

impl<'a> Shaper<'a> {
    /// A shaper that knows the formula's symbols and the vocabulary.
    pub fn new(table: &'a SymbolTable, vocab: &'a Vocabulary, source: &'a str) -> Self {
        Shaper { table, vocab, source }
    }

    /// The phrase of a whole formula: like [`Shaper::shape`], and the subject of a top-level
    /// equation gets its role word (`L` → "the loss L").
    pub fn top(&self, root: &Node) -> Phrase {
        match self.shape(root, 0) {
            Phrase::Relation { first, rest } => Phrase::Relation { first: self.role(*first), rest },
            Phrase::Statements(items) => Phrase::Statements(
                items
                    .into_iter()
                    .map(|item| match item {
                        Phrase::Relation { first, rest } => {
                            Phrase::Relation { first: self.role(*first), rest }
                        }
                        other => other,
                    })
                    .collect(),
            ),
            other => other,
        }
    }

    /// A subject with its role word, when the vocabulary gives it one.
    fn role(&self, subject: Phrase) -> Box<Phrase> {
        match &subject {
            Phrase::Name(Name { key, class: NameClass::Letter | NameClass::Calligraphic })
                if self.vocab.roles.contains_key(key) =>
            {
                Phrase::Role { role: key.clone(), x: subject.boxed() }.boxed()
            }
            _ => subject.boxed(),
        }
    }

    /// The phrase of `node`, `depth` levels down.
    pub fn shape(&self, node: &Node, depth: usize) -> Phrase {
        if depth > MAX_DEPTH {
            return Phrase::Elided;
        }
        let d = depth + 1;
        match &node.kind {
            NodeKind::Symbol { name, font } => self.symbol(name, *font),
            NodeKind::Number { text, .. } => Phrase::Number(text.to_string()),
            NodeKind::Word { text, .. } => word(text),
            NodeKind::LargeOp { .. } => self.big_op(node, None, d),
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
            NodeKind::Chain { first, rest } => self.chain(node, first, rest, d),
            NodeKind::Prefix { op, operand } => self.prefix(*op, operand, d),
            NodeKind::Factorial { operand } => Phrase::Factorial(self.shape(operand, d).boxed()),
            NodeKind::Scripts { .. } => self.scripts(node, d),
            NodeKind::Frac { num, den } => self.frac(num, den, d),
            NodeKind::Binom { top, bottom } => {
                Phrase::Binom(self.shape(top, d).boxed(), self.shape(bottom, d).boxed())
            }
            NodeKind::Sqrt { index, radicand } => Phrase::Sqrt {
                index: index.as_ref().map(|i| self.shape(i, d).boxed()),
                body: nested(self.shape(radicand, d)).boxed(),
            },
            NodeKind::Accent { accent, body } => {
                Phrase::Accent { accent: accent.to_string(), body: self.shape(body, d).boxed() }
            }
            NodeKind::Styled { body, .. } | NodeKind::Boxed { body } => self.shape(body, d),
            NodeKind::Stacked { base, .. } => self.shape(base, d),
            NodeKind::Fenced { open, close, body, .. } => self.fenced(*open, *close, body, d),
            NodeKind::Annotated { body, label, .. } => self.annotated(body, label.as_deref(), d),
            NodeKind::Rows(table) => self.rows(table.env.as_deref(), &table.rows, d),
        }
    }

    /// A symbol: a letter, a Greek letter, a symbol command, or a set letter.
    fn symbol(&self, name: &str, font: crate::syntax::ast::Font) -> Phrase {
        use crate::syntax::ast::Font;
        let class = match font {
            Font::Blackboard if name == "R" => return Phrase::RealSpace(Vec::new()),
            Font::Blackboard => NameClass::Blackboard,
            Font::Calligraphic | Font::Script => NameClass::Calligraphic,
            _ if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_alphabetic()) => NameClass::Letter,
            _ if names::is_greek(name) => NameClass::Greek,
            _ => NameClass::Symbol,
        };
        Phrase::Name(Name { key: name.to_string(), class })
    }

    /// A chain: by the level of its first operator.
    fn chain(&self, node: &Node, first: &Node, rest: &[crate::syntax::ast::Link], d: usize) -> Phrase {
        match rest.first().map(|l| &l.op) {
            None => self.shape(first, d),
            Some(InfixOp::Separator(_)) => self.list(first, rest, d),
            Some(InfixOp::Relation(_) | InfixOp::Stacked { .. }) => self.relation(first, rest, d),
            Some(InfixOp::Additive(_) | InfixOp::Multiplicative(_) | InfixOp::Juxt) => {
                self.resolved_chain(node, d)
            }
        }
    }

    /// `a = b`, `a \le b < c`, and definitions `F(x) = body`.
    fn relation(&self, first: &Node, rest: &[crate::syntax::ast::Link], d: usize) -> Phrase {
        if let [colon, arrow] = rest {
            let to = matches!(op_name(&arrow.op).as_str(), "\\to" | "\\rightarrow");
            if op_name(&colon.op) == ":" && to {
                return Phrase::Mapping {
                    f: self.shape(first, d).boxed(),
                    from: self.shape(&colon.operand, d).boxed(),
                    to: self.shape(&arrow.operand, d).boxed(),
                };
            }
        }
        if let [link] = rest {
            let relation = op_name(&link.op);
            if DEFINING.contains(&relation.as_str()) {
                if let Some(definition) = self.definition(first, &link.operand, d) {
                    return definition;
                }
            }
        }
        Phrase::Relation {
            first: self.shape(first, d).boxed(),
            rest: rest.iter().map(|l| (op_name(&l.op), self.shape(&l.operand, d))).collect(),
        }
    }

    /// `F(a, b) = body` when the left side is a call of a function name.
    fn definition(&self, lhs: &Node, body: &Node, d: usize) -> Option<Phrase> {
        let (_, arguments) = call_parts(lhs)?;
        let NodeKind::Chain { first: callee, rest } = &lhs.kind else { return None };
        let argument = &rest.first()?.operand;
        if !crate::meaning::is_call(callee, argument, self.table) {
            return None;
        }
        let params: Vec<Phrase> = list_items(arguments).into_iter().map(|p| self.shape(p, d)).collect();
        Some(Phrase::Definition {
            name: self.shape(callee, d).boxed(),
            params,
            body: self.shape(body, d).boxed(),
        })
    }

    /// `a, b, c`: a list, a range written with dots, or statements side by side.
    fn list(&self, first: &Node, rest: &[crate::syntax::ast::Link], d: usize) -> Phrase {
        let items: Vec<Phrase> = std::iter::once(first)
            .chain(rest.iter().map(|l| &l.operand))
            .map(|n| self.shape(n, d))
            .filter(|p| *p != Phrase::Empty)
            .collect();
        if items.iter().any(|p| matches!(p, Phrase::Relation { .. } | Phrase::Definition { .. })) {
            return Phrase::Statements(items);
        }
        range_or_list(items)
    }

    /// `-x`, `+x`, `\pm x`, `\neg p`.
    fn prefix(&self, op: PrefixOp, operand: &Node, d: usize) -> Phrase {
        signed(op, self.shape(operand, d))
    }
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
        Some(at) if at > 0 => {
            let mut items = items.into_iter();
            let first = items.next().unwrap_or(Phrase::Empty);
            let last = items.skip(at).last();
            Phrase::Range { first: first.boxed(), last: last.map(Phrase::boxed) }
        }
        _ => Phrase::List(items),
    }
}

/// Operator words inside something larger read as a whole: "the sum of a and b".
pub(super) fn nested(phrase: Phrase) -> Phrase {
    match phrase {
        Phrase::Ops { first, rest, .. } => Phrase::Ops { first, rest, nested: true },
        other => other,
    }
}

/// A multi-letter name as a [`Phrase`].
fn word(text: &str) -> Phrase {
    Phrase::Name(Name { key: text.split_whitespace().collect::<Vec<_>>().join(" "), class: NameClass::Word })
}

/// The canonical spelling of an operator, for the vocabulary's tables.
fn op_name(op: &InfixOp) -> String {
    match op {
        InfixOp::Separator(s) | InfixOp::Relation(s) | InfixOp::Additive(s) | InfixOp::Multiplicative(s) => {
            s.to_string()
        }
        InfixOp::Stacked(stacked) => match &stacked.label.kind {
            NodeKind::Word { text, .. } if text == "def" => ":=".to_string(),
            _ => stacked.relation.to_string(),
        },
        InfixOp::Juxt => String::new(),
    }
}
