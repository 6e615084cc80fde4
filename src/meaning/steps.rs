//! One letter at several steps: `s_i = f(s_{i-1}, …)`, `\ell_i^{\mathrm{new}} = … \ell_i`. The
//! occurrences of a letter picked by positions (its index subscripts) are the items of one
//! sequence, so they are of one kind: where one is a vector by use or declaration and another
//! picked by as many positions only a convention called a number, the second is a vector too;
//! where one is a random variable by use (`p(\tilde{\mathbf{x}}_{t-1})`) and another only a
//! convention called a number or a vector (`\tilde{\mathbf{x}}_t = \tilde{\mathbf{x}}_{t-1} + …`),
//! the second is a random variable too: the states of a Markov chain, a sampler's iterates.
//! Numbered members of one family (`b_1`, `b_2`) are of one kind the same way.

use super::tree::{Evidence, Occurrence, ScriptRole, Term};
use super::{SymbolKind, SymbolTable};
use crate::syntax::ast::Font;
use rustc_hash::FxHashMap as HashMap;

/// The names of indexed occurrences that a convention called numbers (or vectors) while another
/// step of the same letter is a vector (or a random variable), with that kind.
pub(super) fn settled_across_steps(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let mut arrays: HashMap<(&str, Font, usize), Vec<&Occurrence>> = HashMap::default();
    let mut numbers: Vec<&Occurrence> = Vec::new();
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        if let Some(o) = term.occurrence().filter(|o| picked_by_position(o) && small(o)) {
            let key = (o.base_name.as_str(), super::roles::font_of(o.base), positions(o));
            let settled = matches!(o.kind, SymbolKind::Vector | SymbolKind::RandomVariable);
            if settled && o.evidence <= Evidence::Use {
                arrays.entry(key).or_default().push(o);
            } else if matches!(o.kind, SymbolKind::Scalar | SymbolKind::Vector)
                && o.evidence == Evidence::Convention
            {
                numbers.push(o);
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    for o in numbers {
        let key = (o.base_name.as_str(), super::roles::font_of(o.base), positions(o));
        // `s_i` beside `s_{i-1}`: steps of one sequence share the letter that runs along it;
        // `x_i` beside `x_j` may be items of different things (a vector and a label).
        let Some(steps) = arrays.get(&key) else { continue };
        let sharing: Vec<_> = steps.iter().filter(|step| shares_position(step, o)).collect();
        let random = sharing.iter().any(|step| step.kind == SymbolKind::RandomVariable);
        let kind = if random { SymbolKind::RandomVariable } else { SymbolKind::Vector };
        if sharing.is_empty() || kind == o.kind {
            continue;
        }
        let name = o.name.as_str();
        if table.recorded(name).is_none() && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), kind));
        }
    }
    out
}

/// A lower-case letter (`s`, `\ell`): capitals picked by a position are members of a family.
fn small(o: &Occurrence) -> bool {
    super::scripts::base_letter(o.base).is_some_and(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// How many positions pick an occurrence: `s_{i-1}` one, `x_{ij}` two (an entry, not an item).
fn positions(o: &Occurrence) -> usize {
    o.scripts
        .iter()
        .filter(|s| !s.above && matches!(s.role, ScriptRole::Index | ScriptRole::Family))
        .map(|s| s.term.occurrences().iter().filter(|(_, i)| i.kind == SymbolKind::Index).count().max(1))
        .sum()
}

/// Whether an occurrence is a letter picked by a position below it (`s_{i-1}`, `\ell_i^{new}`).
fn picked_by_position(o: &Occurrence) -> bool {
    o.scripts.iter().any(|s| !s.above && matches!(s.role, ScriptRole::Index | ScriptRole::Family))
}

/// Whether two occurrences are picked by positions along one letter (`i` of `s_i`, `s_{i-1}`).
fn shares_position(a: &Occurrence, b: &Occurrence) -> bool {
    let letters = |o: &Occurrence| -> Vec<String> {
        o.scripts
            .iter()
            .filter(|s| !s.above && matches!(s.role, ScriptRole::Index | ScriptRole::Family))
            .flat_map(|s| s.term.occurrences())
            .filter(|(_, i)| i.kind == SymbolKind::Index)
            .map(|(_, i)| i.name.to_string())
            .collect()
    };
    let (mine, theirs) = (letters(b), letters(a));
    // `b_1` beside `b_2`: numbered members of one family (the biases of two layers).
    if mine.is_empty() && theirs.is_empty() {
        return numbered(a) && numbered(b);
    }
    theirs.iter().any(|l| mine.contains(l))
}

/// Whether every position below an occurrence is a number (`b_2`, `W_{12}`).
fn numbered(o: &Occurrence) -> bool {
    let below = || o.scripts.iter().filter(|s| !s.above);
    below().next().is_some() && below().all(|s| matches!(s.term.kind, super::tree::TermKind::Number))
}
