//! The tree as `parse --format json` prints it, streamed.
//!
//! The output was first made by turning the whole tree into a `serde_json::Value` (a map of
//! owned keys per node) and printing that; a flat chain of 100,000 symbols took 330 MiB that
//! way. [`SortedTree`] writes the same bytes straight to the serializer: each object's keys in
//! the order a `Value` prints them (its maps are sorted by key), so the output is unchanged
//! while nothing but the text is built. [`ParseRecord`] is the whole record of one formula.
//!
//! A test (`tests/cli_parse.rs`) holds both forms equal, byte for byte, on every fixture.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::syntax::ast::{InfixOp, Link, Node, NodeKind, StackedRelation, Table};
use crate::syntax::error::Warning;
use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// What `parse --format json` prints for one formula: keys in sorted order, the tree streamed.
#[derive(Debug, Clone, Copy)]
pub struct ParseRecord<'a> {
    /// The formula as given.
    pub formula: &'a str,
    /// The LaTeX the parser read (after the paste passes).
    pub read: &'a str,
    /// The tree printed back as canonical LaTeX.
    pub latex: &'a str,
    /// The tree.
    pub tree: &'a Node,
    /// The warnings, in source order.
    pub warnings: &'a [Warning],
    /// The tree as MathML, which `eqmap serve` adds to the record.
    pub mathml: Option<&'a str>,
}

impl Serialize for ParseRecord<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(5 + usize::from(self.mathml.is_some())))?;
        map.serialize_entry("formula", self.formula)?;
        map.serialize_entry("latex", self.latex)?;
        if let Some(mathml) = self.mathml {
            map.serialize_entry("mathml", mathml)?;
        }
        map.serialize_entry("read", self.read)?;
        map.serialize_entry("tree", &SortedTree(self.tree))?;
        map.serialize_entry("warnings", &EachAsValue(self.warnings))?;
        map.end()
    }
}

/// A node serialized as its `serde_json::Value` would print: the derived fields of
/// [`Node`], each object's keys in sorted order.
#[derive(Debug, Clone, Copy)]
pub struct SortedTree<'a>(pub &'a Node);

/// Items serialized one at a time through `serde_json::Value` (small ones: warnings), so that
/// their keys are sorted as the rest are, without holding all of them as values at once.
struct EachAsValue<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for EachAsValue<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            let value = serde_json::to_value(item).map_err(S::Error::custom)?;
            seq.serialize_element(&value)?;
        }
        seq.end()
    }
}

/// A sequence of nodes, each sorted.
struct Nodes<'a>(&'a [Node]);

impl Serialize for Nodes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(SortedTree))
    }
}

/// The rows of a table: a sequence of sequences of nodes.
struct TableRows<'a>(&'a [Vec<Node>]);

impl Serialize for TableRows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|row| Nodes(row)))
    }
}

/// An optional child: `null` or the node.
fn child(node: Option<&Node>) -> Option<SortedTree<'_>> {
    node.map(SortedTree)
}

/// A chain's links: `{"op": …, "operand": …}` each.
struct Links<'a>(&'a [Link]);

impl Serialize for Links<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(SortedLink))
    }
}

struct SortedLink<'a>(&'a Link);

impl Serialize for SortedLink<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("op", &SortedOp(&self.0.op))?;
        map.serialize_entry("operand", &SortedTree(&self.0.operand))?;
        map.end()
    }
}

/// An operator, adjacently tagged as derived (`{"name": "+", "op": "additive"}`; juxtaposition
/// has no name).
struct SortedOp<'a>(&'a InfixOp);

impl Serialize for SortedOp<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (tag, name) = match self.0 {
            InfixOp::Separator(name) => ("separator", Some(name)),
            InfixOp::Relation(name) => ("relation", Some(name)),
            InfixOp::Additive(name) => ("additive", Some(name)),
            InfixOp::Multiplicative(name) => ("multiplicative", Some(name)),
            InfixOp::Juxt => ("juxt", None),
            InfixOp::Stacked(stacked) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("name", &SortedStacked(stacked))?;
                map.serialize_entry("op", "stacked")?;
                return map.end();
            }
        };
        let mut map = serializer.serialize_map(Some(1 + usize::from(name.is_some())))?;
        if let Some(name) = name {
            map.serialize_entry("name", name.as_str())?;
        }
        map.serialize_entry("op", tag)?;
        map.end()
    }
}

struct SortedStacked<'a>(&'a StackedRelation);

impl Serialize for SortedStacked<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let StackedRelation { place, label, relation } = self.0;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("label", &SortedTree(label))?;
        map.serialize_entry("place", place)?;
        map.serialize_entry("relation", relation.as_str())?;
        map.end()
    }
}

impl Serialize for SortedTree<'_> {
    /// Each variant's keys are listed in sorted order, `kind` and `span` among them; the
    /// patterns name every field, so a field added to the tree does not compile here until it
    /// is placed.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use NodeKind::*;
        let span = &self.0.span;
        let mut map = serializer.serialize_map(None)?;
        match &self.0.kind {
            Symbol { name, font } => {
                map.serialize_entry("font", font)?;
                map.serialize_entry("kind", "symbol")?;
                map.serialize_entry("name", name.as_str())?;
                map.serialize_entry("span", span)?;
            }
            Number { text, font } => {
                map.serialize_entry("font", font)?;
                map.serialize_entry("kind", "number")?;
                map.serialize_entry("span", span)?;
                map.serialize_entry("text", text.as_str())?;
            }
            Word { text, style } => {
                map.serialize_entry("kind", "word")?;
                map.serialize_entry("span", span)?;
                map.serialize_entry("style", style)?;
                map.serialize_entry("text", text.as_str())?;
            }
            LargeOp { name } => named(&mut map, "large_op", name, span)?,
            Dots { name } => named(&mut map, "dots", name, span)?,
            Unknown { name } => named(&mut map, "unknown", name, span)?,
            Punct { text } => {
                map.serialize_entry("kind", "punct")?;
                map.serialize_entry("span", span)?;
                map.serialize_entry("text", text.as_str())?;
            }
            Empty => {
                map.serialize_entry("kind", "empty")?;
                map.serialize_entry("span", span)?;
            }
            Chain { first, rest } => {
                map.serialize_entry("first", &SortedTree(first))?;
                map.serialize_entry("kind", "chain")?;
                map.serialize_entry("rest", &Links(rest))?;
                map.serialize_entry("span", span)?;
            }
            Prefix { op, operand } => {
                map.serialize_entry("kind", "prefix")?;
                map.serialize_entry("op", op)?;
                map.serialize_entry("operand", &SortedTree(operand))?;
                map.serialize_entry("span", span)?;
            }
            Factorial { operand } => {
                map.serialize_entry("kind", "factorial")?;
                map.serialize_entry("operand", &SortedTree(operand))?;
                map.serialize_entry("span", span)?;
            }
            Scripts { base, sub, sup, primes } => {
                map.serialize_entry("base", &SortedTree(base))?;
                map.serialize_entry("kind", "scripts")?;
                map.serialize_entry("primes", primes)?;
                map.serialize_entry("span", span)?;
                map.serialize_entry("sub", &child(sub.as_deref()))?;
                map.serialize_entry("sup", &child(sup.as_deref()))?;
            }
            Frac { num, den } => {
                map.serialize_entry("den", &SortedTree(den))?;
                map.serialize_entry("kind", "frac")?;
                map.serialize_entry("num", &SortedTree(num))?;
                map.serialize_entry("span", span)?;
            }
            Binom { top, bottom } => {
                map.serialize_entry("bottom", &SortedTree(bottom))?;
                map.serialize_entry("kind", "binom")?;
                map.serialize_entry("span", span)?;
                map.serialize_entry("top", &SortedTree(top))?;
            }
            Sqrt { index, radicand } => {
                map.serialize_entry("index", &child(index.as_deref()))?;
                map.serialize_entry("kind", "sqrt")?;
                map.serialize_entry("radicand", &SortedTree(radicand))?;
                map.serialize_entry("span", span)?;
            }
            Accent { accent, body } => {
                map.serialize_entry("accent", accent.as_str())?;
                map.serialize_entry("body", &SortedTree(body))?;
                map.serialize_entry("kind", "accent")?;
                map.serialize_entry("span", span)?;
            }
            Styled { font, body } => {
                map.serialize_entry("body", &SortedTree(body))?;
                map.serialize_entry("font", font)?;
                map.serialize_entry("kind", "styled")?;
                map.serialize_entry("span", span)?;
            }
            Boxed { body } => {
                map.serialize_entry("body", &SortedTree(body))?;
                map.serialize_entry("kind", "boxed")?;
                map.serialize_entry("span", span)?;
            }
            Fenced { open, close, sized, body } => {
                map.serialize_entry("body", &SortedTree(body))?;
                map.serialize_entry("close", close)?;
                map.serialize_entry("kind", "fenced")?;
                map.serialize_entry("open", open)?;
                map.serialize_entry("sized", sized)?;
                map.serialize_entry("span", span)?;
            }
            Annotated { place, body, label } => {
                map.serialize_entry("body", &SortedTree(body))?;
                map.serialize_entry("kind", "annotated")?;
                map.serialize_entry("label", &child(label.as_deref()))?;
                map.serialize_entry("place", place)?;
                map.serialize_entry("span", span)?;
            }
            Stacked { place, over, base } => {
                map.serialize_entry("base", &SortedTree(base))?;
                map.serialize_entry("kind", "stacked")?;
                map.serialize_entry("over", &SortedTree(over))?;
                map.serialize_entry("place", place)?;
                map.serialize_entry("span", span)?;
            }
            Rows(table) => {
                let Table { env, columns, rows } = table.as_ref();
                map.serialize_entry("columns", columns)?;
                map.serialize_entry("env", env)?;
                map.serialize_entry("kind", "rows")?;
                map.serialize_entry("rows", &TableRows(rows))?;
                map.serialize_entry("span", span)?;
            }
        }
        map.end()
    }
}

/// The entries of a leaf that is a name: `kind`, `name`, `span`.
fn named<M: SerializeMap>(
    map: &mut M,
    kind: &str,
    name: &str,
    span: &crate::syntax::ast::Span,
) -> Result<(), M::Error> {
    map.serialize_entry("kind", kind)?;
    map.serialize_entry("name", name)?;
    map.serialize_entry("span", span)
}
