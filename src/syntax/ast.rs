//! The typed syntax tree of a formula.
//!
//! Every node is a [`NodeKind`] wrapped with the byte [`Span`] of the source it came from, so
//! any later layer (the slot map, evaluation, error messages) can point back at the exact text
//! a reader sees. The tree records what LaTeX *writes*, not what it *means*:
//!
//! - Letters are separate symbols, as in LaTeX: `QK` is the symbols `Q` and `K` side by side.
//! - Side-by-side operands are kept as the [`InfixOp::Juxt`] operator, distinct from an
//!   explicit `\cdot`, so the meaning layer can decide between a product (`QK`) and a call
//!   (`p(x)`).
//! - Operators of one precedence level form one flat [`NodeKind::Chain`] (`a + b - c` is one
//!   chain with two links), so long sums never make deep trees.
//! - Braces only group: `{a+b}` leaves no node of its own. Font switches, fractions, roots,
//!   accents, environments and bracket groups do.
//!
//! Equality of nodes ([`PartialEq`]) compares kinds and ignores spans: `QKᵀ/√dₖ` and
//! `QK^\top/\sqrt{d_k}` are equal trees from different text.

use serde::Serialize;

/// A short string kept inline: the names of symbols, commands and operators, the digits of
/// numbers. Nearly all are under 24 bytes, so the tree allocates nothing for them.
pub type Text = compact_str::CompactString;

/// A byte range `start..end` in the source text. Serialised as `[start, end]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
}

impl Serialize for Span {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.start, self.end].serialize(serializer)
    }
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span that covers both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Whether this span lies inside `outer` (or is it).
    pub fn lies_within(self, outer: Span) -> bool {
        outer.start <= self.start && self.end <= outer.end
    }

    /// This span cut to end no later than `outer` does.
    pub fn min_within(self, outer: Span) -> Span {
        Span::new(self.start, self.end.min(outer.end))
    }

    /// The source text under this span, or `""` when it does not fall on char boundaries.
    pub fn text(self, source: &str) -> &str {
        source.get(self.start..self.end).unwrap_or("")
    }
}

/// A node of the tree: what it is, and where it came from.
#[derive(Debug, Clone, Serialize)]
pub struct Node {
    /// What the node is.
    #[serde(flatten)]
    pub kind: NodeKind,
    /// Where it is in the source.
    pub span: Span,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

impl Node {
    /// A node of `kind` covering `span`.
    pub fn new(kind: NodeKind, span: Span) -> Self {
        Node { kind, span }
    }

    /// Boxes the node, for use as a child.
    pub fn boxed(self) -> Box<Node> {
        Box::new(self)
    }

    /// Whether the node is a full stop, comma or semicolon, as ends a displayed formula
    /// (`y = 2x.`): the sentence's punctuation, not part of the mathematics.
    pub fn is_sentence_stop(&self) -> bool {
        matches!(&self.kind, NodeKind::Punct { text } if matches!(text.as_str(), "." | "," | ";"))
    }

    /// Calls `visit` on each direct child, in source order, without allocating.
    pub fn for_each_child<'a>(&'a self, mut visit: impl FnMut(&'a Node)) {
        use NodeKind::*;
        match &self.kind {
            Symbol { .. }
            | Number { .. }
            | Word { .. }
            | LargeOp { .. }
            | Dots { .. }
            | Punct { .. }
            | Unknown { .. }
            | Empty => {}
            Chain { first, rest } => {
                visit(first);
                for link in rest {
                    if let InfixOp::Stacked(stacked) = &link.op {
                        visit(&stacked.label);
                    }
                    visit(&link.operand);
                }
            }
            Prefix { operand, .. } | Factorial { operand } => visit(operand),
            Scripts { base, sub, sup, .. } => {
                visit(base);
                sub.as_deref().into_iter().chain(sup.as_deref()).for_each(visit);
            }
            Frac { num: a, den: b } | Binom { top: a, bottom: b } | Stacked { over: a, base: b, .. } => {
                visit(a);
                visit(b);
            }
            Sqrt { index, radicand } => {
                index.as_deref().into_iter().for_each(&mut visit);
                visit(radicand);
            }
            Accent { body, .. } | Styled { body, .. } | Boxed { body } | Fenced { body, .. } => visit(body),
            Annotated { body, label, .. } => {
                visit(body);
                label.as_deref().into_iter().for_each(visit);
            }
            Rows(table) => table.rows.iter().flatten().for_each(visit),
        }
    }

    /// The environment name of a rows node (`bmatrix`, `cases`), if it was written as one.
    pub fn environment(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Rows(table) => table.env.as_deref(),
            _ => None,
        }
    }

    /// The direct children, in source order.
    pub fn children(&self) -> Vec<&Node> {
        use NodeKind::*;
        match &self.kind {
            Symbol { .. }
            | Number { .. }
            | Word { .. }
            | LargeOp { .. }
            | Dots { .. }
            | Punct { .. }
            | Unknown { .. }
            | Empty => Vec::new(),
            Chain { first, rest } => {
                let mut out = vec![first.as_ref()];
                for link in rest {
                    if let InfixOp::Stacked(stacked) = &link.op {
                        out.push(&stacked.label);
                    }
                    out.push(&link.operand);
                }
                out
            }
            Prefix { operand, .. } | Factorial { operand } => vec![operand],
            Scripts { base, sub, sup, .. } => {
                let mut out = vec![base.as_ref()];
                out.extend(sub.as_deref());
                out.extend(sup.as_deref());
                out
            }
            Frac { num, den } => vec![num, den],
            Binom { top, bottom } => vec![top, bottom],
            Sqrt { index, radicand } => index.as_deref().into_iter().chain([radicand.as_ref()]).collect(),
            Accent { body, .. } | Styled { body, .. } | Boxed { body } => vec![body],
            Fenced { body, .. } => vec![body],
            Annotated { body, label, .. } => std::iter::once(body.as_ref()).chain(label.as_deref()).collect(),
            Stacked { over, base, .. } => vec![over, base],
            Rows(table) => table.rows.iter().flatten().collect(),
        }
    }
}

/// What a node is.
///
/// The tag is a whole word (`repr(u64)`), which costs no room (the fields start at the
/// eighth byte anyway): with a one-byte tag, code that had tested the tag copied the rest of a
/// node from its second byte on, in pieces that straddle the stores that wrote it, and the
/// processor waits for every such load (about a tenth of the parse time went there).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[repr(u64)]
pub enum NodeKind {
    /// One letter or a symbol command: `x`, `Q`, `\alpha` (name `alpha`), `\infty`, `\partial`.
    Symbol {
        /// The letter, or the command name without backslash.
        name: Text,
        /// The font it is set in.
        font: Font,
    },
    /// A number as written: `2`, `0.5`, `1e` is not one number.
    Number {
        /// The digits.
        text: Text,
        /// The font (`\mathbf{1}` is the all-ones vector).
        font: Font,
    },
    /// A multi-letter name: `\mathrm{softmax}`, `\log`, `\operatorname{Attention}`, `\text{head}`.
    Word {
        /// The name, with spacing removed (`\operatorname { l n }` is `ln`).
        text: Text,
        /// How it was written.
        style: WordStyle,
    },
    /// A large operator taking scripts as limits: `\sum`, `\prod`, `\int`, `\bigcup`.
    LargeOp {
        /// The command name without backslash.
        name: Text,
    },
    /// An ellipsis: `\dots`, `\cdots`, `\ldots`, `\vdots`, `\ddots`, `…`.
    Dots {
        /// The command name without backslash.
        name: Text,
    },
    /// A punctuation mark used as an operand: `.`, `?`, `'`.
    Punct {
        /// The character.
        text: Text,
    },
    /// A command eqmap does not know (`\foo`): kept, with a warning, so the rest still serves.
    Unknown {
        /// The command as written, with its backslash.
        name: Text,
    },
    /// A missing operand (`{}`, `&= b`, the empty side of `f(x,)`).
    Empty,
    /// Operands joined by operators of one precedence level: `a + b - c`, `QK^\top / s`.
    Chain {
        /// The first operand.
        first: Box<Node>,
        /// Each further operator with the operand after it.
        rest: Vec<Link>,
    },
    /// A sign or negation before an operand: `-x`, `\pm 1`, `\neg p`.
    Prefix {
        /// The operator.
        op: PrefixOp,
        /// What it applies to.
        operand: Box<Node>,
    },
    /// A factorial: `n!`.
    Factorial {
        /// What it applies to.
        operand: Box<Node>,
    },
    /// Sub- and superscripts and primes on a base: `x_i^2`, `K^\top`, `f'`.
    Scripts {
        /// The base.
        base: Box<Node>,
        /// The subscript.
        sub: Option<Box<Node>>,
        /// The superscript.
        sup: Option<Box<Node>>,
        /// The number of primes.
        primes: u8,
    },
    /// A fraction: `\frac{a}{b}`, `{a \over b}`.
    Frac {
        /// The numerator.
        num: Box<Node>,
        /// The denominator.
        den: Box<Node>,
    },
    /// A binomial coefficient: `\binom{n}{k}`, `{n \choose k}`.
    Binom {
        /// The upper entry.
        top: Box<Node>,
        /// The lower entry.
        bottom: Box<Node>,
    },
    /// A root: `\sqrt{x}`, `\sqrt[3]{x}`, `√x`.
    Sqrt {
        /// The index of a root other than the square root.
        index: Option<Box<Node>>,
        /// What is under the root.
        radicand: Box<Node>,
    },
    /// An accent over or under its body: `\hat{y}`, `\bar{x}`, `\vec{v}`, `\overline{AB}`.
    Accent {
        /// The accent's command name without backslash.
        accent: Text,
        /// What it decorates.
        body: Box<Node>,
    },
    /// Content set in a font when it is not one symbol: `\mathbf{x + y}`, `{\rm d x}`.
    Styled {
        /// The font.
        font: Font,
        /// The content.
        body: Box<Node>,
    },
    /// A framed formula: `\boxed{x}`.
    Boxed {
        /// The content.
        body: Box<Node>,
    },
    /// A bracketed group: `(x)`, `[0, 1)`, `\left( x \right)`, `\|x\|`, `\langle a, b \rangle`.
    Fenced {
        /// The opening delimiter.
        open: Delim,
        /// The closing delimiter; `None` when the group runs to the end of its enclosing one.
        close: Option<Delim>,
        /// Whether it was written with `\left`/`\right`.
        sized: bool,
        /// The content.
        body: Box<Node>,
    },
    /// A brace with a label: `\underbrace{Q}_{n \times d_k}`.
    Annotated {
        /// Whether the brace is under (`\underbrace`) or over (`\overbrace`) its body.
        place: Place,
        /// The body.
        body: Box<Node>,
        /// The label.
        label: Option<Box<Node>>,
    },
    /// One thing set over or under another: `\overset{a}{b}`, `\stackrel{a}{b}`, `\underset{a}{b}`.
    Stacked {
        /// Over or under.
        place: Place,
        /// The small label.
        over: Box<Node>,
        /// The main content.
        base: Box<Node>,
    },
    /// Rows of cells: an environment (`cases`, `bmatrix`, `aligned`, …) or a formula with
    /// top-level `&` and `\\`. Boxed: the rare node that would make every node three times as
    /// large.
    Rows(Box<Table>),
}

/// The rows of a [`NodeKind::Rows`] node and how they were written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// The environment name (`bmatrix`, `align*`), or `None` for top-level rows.
    pub env: Option<String>,
    /// The column specification of an `array`: `{cc|l}`.
    pub columns: Option<String>,
    /// The rows, each a list of cells.
    pub rows: Vec<Vec<Node>>,
}

/// One operator of a [`NodeKind::Chain`] with the operand after it. Equality ignores spans.
#[derive(Debug, Clone, Serialize)]
pub struct Link {
    /// The operator.
    pub op: InfixOp,
    /// The byte span of the operator itself (empty for juxtaposition).
    #[serde(skip)]
    pub op_span: Span,
    /// The operand that follows.
    pub operand: Node,
}

impl PartialEq for Link {
    fn eq(&self, other: &Self) -> bool {
        self.op == other.op && self.operand == other.operand
    }
}

/// An operator between two operands. Its tag is a whole word, as [`NodeKind`]'s is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", content = "name", rename_all = "snake_case")]
#[repr(u64)]
pub enum InfixOp {
    /// `,` or `;`: a list.
    Separator(Text),
    /// A relation, by its canonical LaTeX: `=`, `\le`, `\in`, `\sim`, `\mid`, `\to`, `\neq`.
    Relation(Text),
    /// A relation with a label stacked on it: `\stackrel{\text{def}}{=}`. Boxed, as it is
    /// rare: the other operators take four words.
    Stacked(Box<StackedRelation>),
    /// An additive operator, by its canonical LaTeX: `+`, `-`, `\pm`, `\cup`.
    Additive(Text),
    /// A multiplicative operator, by its canonical LaTeX: `\cdot`, `\times`, `/`, `\odot`.
    Multiplicative(Text),
    /// Two operands side by side: `QK`, `p(x)`, `2\pi`.
    Juxt,
}

/// A relation with a label stacked on it, the rare operator [`InfixOp::Stacked`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StackedRelation {
    /// Over or under.
    pub place: Place,
    /// The label.
    pub label: Node,
    /// The relation underneath, by its canonical LaTeX.
    pub relation: Text,
}

/// A prefix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PrefixOp {
    /// `-x`
    Minus,
    /// `+x`
    Plus,
    /// `\pm x`
    PlusMinus,
    /// `\mp x`
    MinusPlus,
    /// `\neg p`
    Not,
}

/// The font a symbol or group is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Font {
    /// The default: italic letters, upright digits.
    Normal,
    /// `\mathbf`, `\bf`, `\boldsymbol`, `\bm`: vectors and matrices in many papers.
    Bold,
    /// `\mathrm`, `\rm`, `\text` on one letter.
    Roman,
    /// `\mathit`, `\it`.
    Italic,
    /// `\mathbb`: sets such as ℝ.
    Blackboard,
    /// `\mathcal`, `\cal`: losses, distributions, sets.
    Calligraphic,
    /// `\mathscr`.
    Script,
    /// `\mathfrak`.
    Fraktur,
    /// `\mathsf`, `\sf`.
    SansSerif,
    /// `\mathtt`, `\tt`.
    Typewriter,
}

/// How a [`NodeKind::Word`] was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WordStyle {
    /// An operator name: `\log`, `\exp`, `\operatorname{softmax}`.
    Operator,
    /// An operator name with limits below: `\max`, `\lim`, `\operatorname*{argmax}`.
    OperatorLimits,
    /// Upright math letters: `\mathrm{softmax}`, `{\rm Tr}`.
    Roman,
    /// Text: `\text{head}`, `\textrm{def}`, `\mbox{if}`.
    Text,
    /// In another font: `\mathbf{ab}` (carries the font).
    Font(Font),
}

/// A delimiter of a [`NodeKind::Fenced`] group; side-less (`(` and `)` are both `Paren`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Delim {
    /// `( )`
    Paren,
    /// `[ ]`
    Bracket,
    /// `\{ \}`
    Brace,
    /// `\langle \rangle`, `⟨ ⟩`
    Angle,
    /// `| |`, `\vert`
    Bar,
    /// `\| \|`, `\Vert`, `‖`
    DoubleBar,
    /// `\lfloor \rfloor`
    Floor,
    /// `\lceil \rceil`
    Ceil,
    /// `\llbracket \rrbracket`
    DoubleBracket,
    /// `\lgroup \rgroup`
    Group,
    /// `.` after `\left` or `\right`: no delimiter.
    Nothing,
    /// `/`
    Slash,
    /// `\backslash`
    Backslash,
    /// `\uparrow`, `\downarrow` and friends
    Arrow,
}

/// Where a brace or stacked label sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// Above.
    Over,
    /// Below.
    Under,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader moves nodes by value at every step: a wider node, or a tag that takes room
    /// of its own, slows every parse. Box what is rare and large (as [`NodeKind::Rows`] is).
    #[test]
    fn a_node_stays_seven_words() {
        assert_eq!(std::mem::size_of::<NodeKind>(), 40);
        assert_eq!(std::mem::size_of::<Node>(), 56);
        assert_eq!(std::mem::size_of::<Option<Node>>(), 56, "the tag leaves room for a niche");
        assert_eq!(std::mem::size_of::<InfixOp>(), 32);
    }
}
