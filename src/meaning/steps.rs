//! One letter at several steps: `s_i = f(s_{i-1}, …)`, `\ell_i^{\mathrm{new}} = … \ell_i`. The
//! occurrences of a letter picked by positions (its index subscripts) are the items of one
//! sequence, so they are of one kind: where one is a vector by use or declaration and another
//! picked by as many positions only a convention called a number, the second is a vector too;
//! where one is a random variable by use (`p(\tilde{\mathbf{x}}_{t-1})`) and another only a
//! convention called a number or a vector (`\tilde{\mathbf{x}}_t = \tilde{\mathbf{x}}_{t-1} + …`),
//! the second is a random variable too: the states of a Markov chain, a sampler's iterates.
//! Numbered members of one family (`b_1`, `b_2`) are of one kind the same way. Two more passes
//! over the whole formula look at one letter's several spellings: sizes named after a size
//! (`N_c` beside `N`), and a letter a differential names (`dt`), a continuous number. One more
//! looks at a letter's occurrences anywhere: what one's use settles that another only a
//! convention called, known for the next reading.

use super::tree::{Evidence, Occurrence, ScriptRole, Term, TermKind};
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
        settle(&mut out, table, o.name.as_str(), kind);
    }
    out
}

/// A lower-case letter (`s`, `\ell`) or a Greek one (`\Theta_t`, the parameters at a step):
/// Latin capitals picked by a position are members of a family.
pub(super) fn small(o: &Occurrence) -> bool {
    super::scripts::base_letter(o.base)
        .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_lowercase()) || crate::syntax::names::is_greek(l))
}

/// How many positions pick an occurrence: `s_{i-1}` one, `x_{ij}` two (an entry, not an item).
pub(super) fn positions(o: &Occurrence) -> usize {
    o.scripts
        .iter()
        .filter(|s| !s.above && matches!(s.role, ScriptRole::Index | ScriptRole::Family))
        .map(|s| s.term.occurrences().iter().filter(|(_, i)| i.kind == SymbolKind::Index).count().max(1))
        .sum()
}

/// Whether an occurrence is a letter picked by a position below it (`s_{i-1}`, `\ell_i^{new}`)
/// or by a step above it (`z^{k+1}`, `h^{(t)}`).
fn picked_by_position(o: &Occurrence) -> bool {
    o.scripts.iter().any(|s| marks_position(s))
}

/// A position below a name, or a step (a layer, an iteration) above it.
fn marks_position(s: &super::tree::Script) -> bool {
    if s.above {
        s.role == ScriptRole::Layer
    } else {
        matches!(s.role, ScriptRole::Index | ScriptRole::Family)
    }
}

/// Whether two occurrences are picked by positions along one letter (`i` of `s_i`, `s_{i-1}`).
fn shares_position(a: &Occurrence, b: &Occurrence) -> bool {
    let (mine, theirs) = (position_letters(b), position_letters(a));
    // `b_1` beside `b_2`: numbered members of one family (the biases of two layers).
    if mine.is_empty() && theirs.is_empty() {
        return numbered(a) && numbered(b);
    }
    theirs.iter().any(|l| mine.contains(l))
}

/// The index letters of the positions below an occurrence and the steps above it (`i` of
/// `s_{i-1}`, `k` of `z^{k+1}`).
fn position_letters(o: &Occurrence) -> Vec<String> {
    o.scripts
        .iter()
        .filter(|s| marks_position(s))
        .flat_map(|s| s.term.occurrences())
        .filter(|(_, i)| i.kind == SymbolKind::Index)
        .map(|(_, i)| i.name.to_string())
        .collect()
}

/// Whether every position below an occurrence is a number (`b_2`, `W_{12}`).
fn numbered(o: &Occurrence) -> bool {
    let below = || o.scripts.iter().filter(|s| !s.above);
    below().next().is_some() && below().all(|s| matches!(s.term.kind, super::tree::TermKind::Number))
}

/// `L_{\mathrm{cls}}(p, u) = -\log p_u`, `m(x) = \max_i x_i`: a plain lower-case Latin letter
/// that the formula also writes picked by a position that stands free elsewhere (a variable of
/// the formula, what a sum or a maximum runs over) is the array its entries are picked from: a
/// vector for one position, a matrix for two. `p_t` beside `p` with `t` only a subscript may be
/// a quantity named after p. Only a kind a convention gave changes.
pub(super) fn arrays_of_their_entries(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    // Letters standing free (outside any script), and whether a convention alone called one a
    // number there.
    let mut free: HashMap<&str, bool> = HashMap::default();
    let mut entries: Vec<&Occurrence> = Vec::new();
    let mut plain: Vec<&Occurrence> = Vec::new();
    let mut stack: Vec<(&Term, bool)> = vec![(term, false)];
    while let Some((term, in_script)) = stack.pop() {
        let occurrence = term.occurrence();
        if let Some(o) = occurrence {
            let number = o.kind == SymbolKind::Scalar;
            if o.scripts.is_empty() && !in_script {
                *free.entry(o.name.as_str()).or_default() |= number && o.evidence == Evidence::Convention;
            }
            let latin = o.base_name.len() == 1 && small(o) && super::roles::font_of(o.base) == Font::Normal;
            if latin && number && o.scripts.is_empty() && o.evidence == Evidence::Convention {
                plain.push(o);
            } else if latin
                && number
                && picked_by_position(o)
                && o.scripts.iter().all(|s| !s.above || s.role == ScriptRole::Layer)
            {
                entries.push(o);
            }
        }
        let inside = in_script || occurrence.is_some();
        term.for_each_child(|child| stack.push((child, inside)));
    }
    // Per letter, the most positions of an entry picked by a free letter, and the free letters
    // that a convention alone called numbers among those that pick.
    let mut arrays: HashMap<&str, (usize, Vec<String>)> = HashMap::default();
    for e in &entries {
        let letters: Vec<String> =
            position_letters(e).into_iter().filter(|l| free.contains_key(l.as_str())).collect();
        if letters.is_empty() {
            continue;
        }
        let (most, pickers) = arrays.entry(e.base_name.as_str()).or_default();
        // `x_j^{(i)}` beside `x`: the sample i above is one more position (a batch of rows).
        *most = (*most).max(positions(e) + samples_above(e));
        for letter in letters.into_iter().filter(|l| free.get(l.as_str()) == Some(&true)) {
            if !pickers.contains(&letter) {
                pickers.push(letter);
            }
        }
    }
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    for o in plain {
        let Some((most, pickers)) = arrays.get(o.base_name.as_str()) else { continue };
        let kind = match most {
            1 => SymbolKind::Vector,
            2 => SymbolKind::Matrix,
            _ => continue,
        };
        settle(&mut out, table, o.name.as_str(), kind);
        // `L(p, u) = -\log p_u`: the variable that picks the entry is a position.
        for letter in pickers {
            settle(&mut out, table, letter, SymbolKind::Index);
        }
    }
    out
}

/// How many samples or layers an occurrence is picked by above it (`x^{(i)}`): positions
/// written in parentheses, each holding an index.
fn samples_above(o: &Occurrence) -> usize {
    let sample = |s: &&super::tree::Script| {
        s.above
            && s.role == ScriptRole::Layer
            && s.term.occurrences().iter().any(|(_, i)| i.kind == SymbolKind::Index)
    };
    o.scripts.iter().filter(sample).count()
}

/// Adds `name` with `kind` unless the table records it or it is there already.
fn settle(out: &mut Vec<(String, SymbolKind)>, table: &SymbolTable, name: &str, kind: SymbolKind) {
    if table.recorded(name).is_none() && !out.iter().any(|(n, _)| n == name) {
        out.push((name.to_string(), kind));
    }
}

/// `L(N) = (N_c / N)^{\alpha_N}`, `T_i` beside `\frac{1}{T}`: a Latin letter that a use or a
/// declaration made a size names sizes when it carries one subscript (a critical size, the
/// length of one cycle), so those named after it that only a convention called a number, a
/// vector or a matrix are sizes too.
pub(super) fn sizes_named_after_sizes(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let mut sizes: Vec<(&str, Font)> = Vec::new();
    let mut named: Vec<&Occurrence> = Vec::new();
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        if let Some(o) = term.occurrence() {
            let latin = o.base_name.len() == 1 && o.base_name.starts_with(|c: char| c.is_ascii_alphabetic());
            let below = o.scripts.len() == 1 && o.scripts.iter().all(|s| !s.above);
            let loose = matches!(o.kind, SymbolKind::Scalar | SymbolKind::Vector | SymbolKind::Matrix);
            if latin && o.scripts.is_empty() && o.kind == SymbolKind::Dimension && o.evidence <= Evidence::Use
            {
                sizes.push((o.base_name.as_str(), super::roles::font_of(o.base)));
            } else if latin && below && loose && o.evidence == Evidence::Convention {
                named.push(o);
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    for o in named {
        if sizes.contains(&(o.base_name.as_str(), super::roles::font_of(o.base))) {
            settle(&mut out, table, o.name.as_str(), SymbolKind::Dimension);
        }
    }
    out
}

/// `\int_0^T f(t)\,dt`, `\mathrm{d}\mathbf{x} = f(\mathbf{x}, t)\,\mathrm{d}t`: a letter a
/// differential names varies continuously, so it is a number everywhere in the formula (the time
/// of an SDE, a variable of integration), not the position or the count its letter suggests.
pub(super) fn continuous_variables(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        let varied = match &term.kind {
            TermKind::BigOp(big) => big.differential.as_ref(),
            TermKind::Operator(op) if op.name == "d" => Some(&op.operand),
            // `\frac{d}{dx} …`: what a derivative is taken with respect to.
            TermKind::Operator(op) if op.name == "derivative" => op.sub.as_ref(),
            _ => None,
        };
        if let Some(o) = varied.and_then(|v| v.occurrence()) {
            let plain = o.scripts.is_empty() && super::roles::font_of(o.base) == Font::Normal;
            if plain
                && matches!(o.kind, SymbolKind::Index | SymbolKind::Dimension)
                && o.evidence >= Evidence::Use
            {
                settle(&mut out, table, o.name.as_str(), SymbolKind::Scalar);
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    out
}

/// Names that one occurrence's use makes a vector or a matrix while another occurrence is a
/// scalar only by convention (`x_l` of `x_{l+1} = x_l + \mathcal{F}(\mathrm{LN}(x_l))`): one
/// symbol is one thing in a formula, so the reading again knows it everywhere, and the rules
/// that compare neighbours (sides of an equation, factors beside a matrix) see it.
pub(super) fn settled_by_use(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    // One walk, in no particular order, without listing the occurrences: most formulas have
    // no array settled by use, and then nothing is kept.
    let mut used: Vec<(&str, SymbolKind)> = Vec::new();
    let mut conventional_scalars: rustc_hash::FxHashSet<&str> = Default::default();
    // Letters an expectation took as random variables (`\mathbb{E}[f]`), which only a function
    // applied elsewhere settles.
    let mut averaged: rustc_hash::FxHashSet<&str> = Default::default();
    // Letters only a convention called arrays or sizes (`G`, `D` of `\mathcal{L}(G, D)`), which
    // a function an extreme is taken over settles (`\min_G \max_D`).
    let mut conventional_arrays: rustc_hash::FxHashSet<&str> = Default::default();
    // Letters read as sets somewhere (`\mathbb{E}_{x \sim X}` beside `x \in X`), which no other
    // use settles as a random variable.
    let mut sets: rustc_hash::FxHashSet<&str> = Default::default();
    // Of those, letters a use made sets (`X \cap Y`), which are sets where only a convention
    // called them matrices (`|X|` of the Dice coefficient is a count, no determinant), unless a
    // use elsewhere makes them random variables.
    let mut used_sets: rustc_hash::FxHashSet<&str> = Default::default();
    // Letters only a convention called vectors (`X_k`, a capital with a position below, read as
    // a row), which a use as a matrix elsewhere settles (`X_k X_k^\top`).
    let mut conventional_vectors: rustc_hash::FxHashSet<&str> = Default::default();
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        if let Some(o) = term.occurrence() {
            // `\mathbb{E}[f] \simeq \frac{1}{L} \sum_l f(\mathbf{z}^{(l)})`: a letter applied
            // somewhere is a function where it stands alone too.
            // A distribution by use (an argument of a divergence) is one where a convention
            // alone called it an array (`M = \frac{1}{2}(P + Q)` beside `D_{KL}(P \| M)`).
            let settling = matches!(
                o.kind,
                SymbolKind::Vector | SymbolKind::Matrix | SymbolKind::Function | SymbolKind::Distribution
            ) && !matches!(o.base.kind, crate::syntax::ast::NodeKind::Word { .. });
            // `\sum_{\tau=1}^{t} g_\tau`: a Greek letter a sum counts with is a position in the
            // scripts it picks too (a Latin one is already, by its letter).
            let counter = o.kind == SymbolKind::Index && crate::syntax::names::is_greek(&o.name);
            if (settling || counter) && o.evidence == Evidence::Use {
                used.push((o.name.as_str(), o.kind));
                if counter && table.recorded(&o.name).is_none() {
                    conventional_scalars.insert(o.name.as_str());
                }
            } else if o.kind == SymbolKind::Scalar && o.evidence == Evidence::Convention {
                conventional_scalars.insert(o.name.as_str());
            } else if o.kind == SymbolKind::Vector && o.evidence == Evidence::Convention {
                conventional_vectors.insert(o.name.as_str());
            } else if matches!(o.kind, SymbolKind::Matrix | SymbolKind::Dimension)
                && o.evidence == Evidence::Convention
            {
                conventional_arrays.insert(o.name.as_str());
            } else if o.kind == SymbolKind::RandomVariable && o.evidence == Evidence::Use {
                averaged.insert(o.name.as_str());
            } else if o.kind == SymbolKind::Set {
                sets.insert(o.name.as_str());
                if o.evidence == Evidence::Use {
                    used_sets.insert(o.name.as_str());
                }
            } else if o.kind == SymbolKind::Scalar && o.evidence == Evidence::Use {
                // `e^{z_i / T}` beside `\frac{1}{T}`, `\partial T`: a capital a use made a number
                // (a temperature, what is differentiated) is that number everywhere, below a bar
                // too; so is an entry a use made one (`u_j` of `(1 - u_j)`) where it weighs again.
                used.push((o.name.as_str(), o.kind));
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    for (name, kind) in used {
        // A number by use settles its letter whatever its other occurrences are.
        let loose = match kind {
            SymbolKind::Scalar => true,
            SymbolKind::Function => {
                conventional_scalars.contains(name)
                    || averaged.contains(name)
                    || conventional_arrays.contains(name)
            }
            SymbolKind::Distribution => conventional_arrays.contains(name),
            SymbolKind::Matrix => conventional_scalars.contains(name) || conventional_vectors.contains(name),
            _ => conventional_scalars.contains(name),
        };
        if loose {
            settle(&mut out, table, name, kind);
        }
    }
    // `f(X, Y) = \frac{I(X, Y)}{\sqrt{H(X) H(Y)}}`: a plain capital an entropy or a density takes
    // as a random variable is one where only a convention called it a matrix (the parameters of
    // the function defined, read before the right side).
    for name in averaged.iter().copied() {
        let capital = name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase());
        if capital && conventional_arrays.contains(name) && !sets.contains(name) {
            settle(&mut out, table, name, SymbolKind::RandomVariable);
        }
    }
    for name in used_sets {
        // `\frac{1}{|\Omega|} \sum_{v \in \Omega}`: a capital only a convention called a number
        // (a Greek capital) is the set a sum runs over where it stands in bars too, a count.
        let capital = name.starts_with(|c: char| c.is_ascii_uppercase());
        let conventional =
            conventional_arrays.contains(name) || (capital && conventional_scalars.contains(name));
        if conventional && !averaged.contains(name) {
            settle(&mut out, table, name, SymbolKind::Set);
        }
    }
    out
}
