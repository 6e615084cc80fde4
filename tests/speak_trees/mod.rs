//! Small random formula trees for the ambiguity tests (`tests/speak_ambiguity.rs`) and the
//! collision count (`examples/reading_collisions.rs`): atoms, sums, differences, side-by-side
//! products, fractions, powers, subscripts and parentheses, rendered to LaTeX. Trees that
//! differ only in grouping come out often: `a - b c` and `(a - b) c`, `\frac{a}{b} c` and
//! `\frac{a}{b c}`, `m_{t-1}` and `m_t - 1`, `x^{2} y` and `x^{2 y}`, `b` and `B`.

use eqmap::speak::{read_at, Verbosity};
use eqmap::Lang;
use proptest::prelude::*;

/// A formula tree.
#[derive(Debug, Clone)]
pub enum Tree {
    /// A letter or a number.
    Atom(&'static str),
    /// `l + r`, `l - r`.
    Additive(&'static str, Box<Tree>, Box<Tree>),
    /// `l r`.
    Juxt(Box<Tree>, Box<Tree>),
    /// `\frac{l}{r}`.
    Frac(Box<Tree>, Box<Tree>),
    /// `a^{e}`.
    Power(&'static str, Box<Tree>),
    /// `a_{e}`.
    Index(&'static str, Box<Tree>),
    /// `(e)`, around a sum.
    Paren(Box<Tree>),
}

/// The atoms: letters in both cases, numbers.
const ATOMS: &[&str] = &["a", "b", "B", "c", "m", "t", "x", "y", "1", "2"];

/// Letters that take scripts.
const BASES: &[&str] = &["m", "x", "b", "B"];

impl Tree {
    /// The tree as LaTeX.
    pub fn latex(&self) -> String {
        match self {
            Tree::Atom(a) => a.to_string(),
            Tree::Additive(op, l, r) => format!("{} {op} {}", l.latex(), r.latex()),
            Tree::Juxt(l, r) => format!("{} {}", l.latex(), r.latex()),
            Tree::Frac(l, r) => format!("\\frac{{{}}}{{{}}}", l.latex(), r.latex()),
            Tree::Power(a, e) => format!("{a}^{{{}}}", e.latex()),
            Tree::Index(a, e) => format!("{a}_{{{}}}", e.latex()),
            Tree::Paren(e) => format!("({})", e.latex()),
        }
    }
}

/// Random trees of a few levels.
pub fn tree() -> impl Strategy<Value = Tree> {
    let atom = prop::sample::select(ATOMS).prop_map(Tree::Atom);
    atom.prop_recursive(3, 12, 2, |inner| {
        let base = || prop::sample::select(BASES);
        prop_oneof![
            (prop::sample::select(&["+", "-"][..]), inner.clone(), inner.clone())
                .prop_map(|(op, l, r)| Tree::Additive(op, Box::new(l), Box::new(r))),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| Tree::Juxt(Box::new(l), Box::new(r))),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| Tree::Frac(Box::new(l), Box::new(r))),
            (base(), inner.clone()).prop_map(|(a, e)| Tree::Power(a, Box::new(e))),
            (base(), inner.clone()).prop_map(|(a, e)| Tree::Index(a, Box::new(e))),
            // Parentheses where they group: around a sum (around one symbol they change no tree
            // a listener needs, and would count as collisions of brackets alone).
            (prop::sample::select(&["+", "-"][..]), inner.clone(), inner)
                .prop_map(|(op, l, r)| Tree::Paren(Box::new(Tree::Additive(op, Box::new(l), Box::new(r))))),
        ]
    })
}

/// A formula parsed and printed canonically (two sources with one tree print the same), with
/// its reading; `None` when it does not parse.
pub fn read_tree(latex: &str, lang: Lang, verbosity: Verbosity) -> Option<(String, String)> {
    let parsed = eqmap::parse(latex).ok()?;
    let canonical = eqmap::syntax::print::to_latex(&parsed.root);
    let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
    Some((canonical, read_at(&parsed.root, latex, &table, lang, verbosity)))
}

/// How many different trees (by canonical print) among `sources` share their reading with
/// another, and the pairs found (first tree, second tree, the reading they share).
pub fn collisions(
    sources: &[String],
    lang: Lang,
    verbosity: Verbosity,
) -> (usize, Vec<(String, String, String)>) {
    let mut by_reading: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut colliding = std::collections::HashSet::new();
    let mut examples = Vec::new();
    for source in sources {
        let Some((canonical, reading)) = read_tree(source, lang, verbosity) else { continue };
        // A listener does not hear the case of a written letter ("B" and "b" sound alike).
        let reading = reading.to_lowercase();
        match by_reading.get(&reading) {
            Some(other) if *other != canonical => {
                colliding.insert(canonical.clone());
                colliding.insert(other.clone());
                examples.push((other.clone(), canonical, reading));
            }
            Some(_) => {}
            None => {
                by_reading.insert(reading, canonical);
            }
        }
    }
    (colliding.len(), examples)
}

/// How many different trees there are among `sources`.
#[allow(dead_code)] // used by the example, not the test
pub fn distinct_trees(sources: &[String]) -> usize {
    let printed =
        sources.iter().filter_map(|s| eqmap::parse(s).ok()).map(|p| eqmap::syntax::print::to_latex(&p.root));
    printed.collect::<std::collections::HashSet<_>>().len()
}
