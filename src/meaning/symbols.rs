//! The symbols of a formula, one entry a name, and the kind of any resolved term.

use super::tree::{Factor, ScriptRole, SymbolEntry, Term, TermKind};
use super::SymbolKind;

/// The symbols of `term`, one entry a binding name, in order of first occurrence. An entry's
/// kind is that of its best-founded occurrence.
pub fn symbols(term: &Term, source: &str) -> Vec<SymbolEntry> {
    use std::collections::{HashMap, HashSet};
    let mut entries: Vec<SymbolEntry> = Vec::new();
    // Grouped by name and font: `\mathcal{X}` and `X` share a binding name, not a meaning.
    // Looked up and deduplicated by hashing, so a formula of many occurrences stays linear.
    let mut index: HashMap<(&str, crate::syntax::ast::Font), usize> = HashMap::new();
    let mut seen: HashSet<(usize, crate::syntax::ast::Span)> = HashSet::new();
    // The letter of a transpose (`v^T`) marks an operation; it names no size T.
    let constants = &super::notation::Notation::shipped().constants;
    for (term_span, occurrence) in term.occurrences_outside(Some(ScriptRole::Transpose)) {
        if is_constant(occurrence, constants) {
            continue;
        }
        let span = symbol_span(term_span, occurrence, source);
        let font = super::roles::font_of(occurrence.base);
        let key = (occurrence.name.as_str(), font);
        match index.get(&key).and_then(|&i| entries.get_mut(i).map(|e| (i, e))) {
            Some((i, entry)) => {
                if seen.insert((i, span)) {
                    entry.spans.push(span);
                }
                // `z_e` beside `\|z_e - e\|`: at equal evidence, what the letter is where it
                // stands as an array outweighs its use below another letter as a position.
                let array = matches!(occurrence.kind, SymbolKind::Vector | SymbolKind::Matrix);
                let over_index =
                    occurrence.evidence == entry.evidence && entry.kind == SymbolKind::Index && array;
                if occurrence.evidence < entry.evidence || over_index {
                    entry.kind = occurrence.kind;
                    entry.evidence = occurrence.evidence;
                }
            }
            None => {
                seen.insert((entries.len(), span));
                index.insert(key, entries.len());
                entries.push(SymbolEntry {
                    name: occurrence.name.to_string(),
                    latex: span.text(source).trim().to_string(),
                    kind: occurrence.kind,
                    spans: vec![span],
                    evidence: occurrence.evidence,
                })
            }
        }
    }
    entries
}

/// The span of an occurrence: its base with the scripts that are part of it, their closing
/// braces and its primes.
fn symbol_span(
    term_span: crate::syntax::ast::Span,
    occurrence: &super::Occurrence,
    source: &str,
) -> crate::syntax::ast::Span {
    // The term's span covers an increment (`\Delta W`) or a run of letters (`pos`) whole.
    let base = occurrence.base.span.join(term_span).min_within(term_span.join(occurrence.base.span));
    let span = occurrence.scripts.iter().fold(base, |span, script| span.join(script.term.node.span));
    let bytes = source.as_bytes();
    let mut end = span.end;
    let mut open =
        span.text(source).matches('{').count().saturating_sub(span.text(source).matches('}').count());
    while let Some(&byte) = bytes.get(end) {
        match byte {
            b'}' if open > 0 => open -= 1,
            b'\'' => {}
            b' ' if open > 0 => {}
            _ => break,
        }
        end += 1;
    }
    unbraced(crate::syntax::ast::Span::new(span.start, end), source)
}

/// `{w_i^l}^\top`: a symbol written in a group of its own spans what the braces hold.
fn unbraced(span: crate::syntax::ast::Span, source: &str) -> crate::syntax::ast::Span {
    let text = span.text(source);
    let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else { return span };
    // The first brace must close at the end: `{a}_{b}` is no group around the whole.
    let mut depth = 0usize;
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return span,
            '}' => depth -= 1,
            _ => {}
        }
    }
    if depth == 0 && !inner.trim().is_empty() {
        crate::syntax::ast::Span::new(span.start + 1, span.end - 1)
    } else {
        span
    }
}

/// The kind of a resolved term: a symbol's own, a product's by its factors, an application's
/// by what the function gives.
pub fn kind_of_term(term: &Term) -> SymbolKind {
    kind_at(term, 0)
}

fn kind_at(term: &Term, depth: usize) -> SymbolKind {
    if depth > crate::syntax::depth::WALK_GUARD {
        return SymbolKind::Unknown;
    }
    kind_with(term, &|child: &Term| kind_at(child, depth + 1))
}

/// What an entry-wise function `name` gives for an argument of `kind`: its kind, but a squashed
/// or exponentiated count is a number (`\exp(z_j - m)`, `\tanh(n)`), where the log of a size keeps
/// counting it (bits, digits).
fn value_of_a_count(name: &str, kind: SymbolKind) -> SymbolKind {
    match kind {
        SymbolKind::Dimension | SymbolKind::Index if !matches!(name, "log" | "ln") => SymbolKind::Scalar,
        kind => kind,
    }
}

/// The kind of `term` given the kinds of its parts (`child`): recursion for one term, a table
/// for [`TermIndex`], which asks for every term and so must not walk each one again.
fn kind_with(term: &Term, child: &impl Fn(&Term) -> SymbolKind) -> SymbolKind {
    match &term.kind {
        TermKind::Symbol(occurrence) => occurrence.kind,
        TermKind::Number => SymbolKind::Scalar,
        // `\nabla_t` standing alone: the gradient taken at step t, a vector.
        TermKind::Leaf if is_bare_gradient(term) => SymbolKind::Vector,
        TermKind::Leaf => SymbolKind::Unknown,
        TermKind::Scripted { base, .. } if is_bare_gradient(base) => SymbolKind::Vector,
        TermKind::Scripted { base, sub, sup, .. } => {
            let base_kind = child(base);
            let picked = sub.as_ref().is_some_and(|s| s.role == ScriptRole::Index);
            let power = sup.as_ref().is_some_and(|s| s.role == ScriptRole::Power);
            match (base_kind, picked) {
                (SymbolKind::Matrix, true) => SymbolKind::Scalar,
                (SymbolKind::Vector, true) => SymbolKind::Scalar,
                (kind, _) if power && kind == SymbolKind::Vector => SymbolKind::Vector,
                (kind, _) => kind,
            }
        }
        TermKind::Apply(app) => {
            let name = app.callee.occurrence().map(|o| o.base_name.as_str()).unwrap_or("");
            let elementwise = is_elementwise(name);
            // `\mathrm{softmax}(z)_j`, `\sigma(…)^j`: one component of the value, a number.
            let picked = [&app.sub, &app.sup].into_iter().flatten().any(|s| s.role == ScriptRole::Index);
            // `P(i)` right of `\in`: a function that gives a set.
            let gives_set = app.callee.occurrence().is_some_and(|o| o.kind == SymbolKind::Set);
            // `H(X)`, `I(X; Y)`, `D_{\mathrm{KL}}(P \| Q)`: what an information measure gives is a number.
            let notation = super::notation::Notation::shipped();
            let measure = app
                .callee
                .occurrence()
                .is_some_and(|o| super::notation::has(&notation.number_valued, &o.base_name));
            let transposed = app.sup.as_ref().is_some_and(|s| s.role == ScriptRole::Transpose);
            // `\lambda_i(A)`, `\sigma_{\max}(W)`: a value of a matrix's spectrum is a number.
            let spectral = app
                .callee
                .occurrence()
                .is_some_and(|o| notation.names_a_spectral_value(&o.base_name, !o.scripts.is_empty()));
            match app.args.first() {
                _ if gives_set => SymbolKind::Set,
                _ if measure => SymbolKind::Scalar,
                Some(arg) if spectral && child(arg) == SymbolKind::Matrix => SymbolKind::Scalar,
                // `\phi(x)^\top`: the value of a function named by a small letter, transposed,
                // is a row vector (`J(x)^\top`, a capital's, may be a matrix).
                _ if transposed && !elementwise && name.starts_with(|c: char| c.is_lowercase()) => {
                    SymbolKind::Vector
                }
                // The argument's kind is asked once: a tower `\sigma(\sigma(…)_i)_i` stays linear.
                Some(arg) if elementwise => match child(arg) {
                    SymbolKind::Vector if picked => SymbolKind::Scalar,
                    kind => value_of_a_count(name, kind),
                },
                _ => SymbolKind::Unknown,
            }
        }
        TermKind::Operator(op) => match op.name {
            // `\nabla_\theta L`: a gradient has the shape of what it is taken with respect to.
            "nabla" => match op.sub.as_ref().map(child) {
                Some(kind @ (SymbolKind::Vector | SymbolKind::Matrix)) => kind,
                // `\nabla^2 f(x)`: the Hessian of a function is a matrix, its gradient a vector.
                // `p^T \nabla^2 f_k p`: the Hessian of a value written bare too.
                None if op.is_second_order() => SymbolKind::Matrix,
                // The operand's kind is asked once: a tower `\nabla \nabla …` must stay linear.
                sub => match (sub, child(&op.operand)) {
                    (None, SymbolKind::Matrix) if matches!(op.operand.kind, TermKind::Apply(_)) => {
                        SymbolKind::Matrix
                    }
                    (None, _) if matches!(op.operand.kind, TermKind::Apply(_)) => SymbolKind::Vector,
                    // `\nabla f_k`, `\nabla L`: the gradient of a number is a vector.
                    (None, SymbolKind::Scalar) => SymbolKind::Vector,
                    (_, kind) => kind,
                },
            },
            // `\exp(z_j - m)`: an exponential is a number, whatever counts its exponent holds.
            "exp" | "log" => value_of_a_count(op.name, child(&op.operand)),
            // `\mathbb{E}[\nabla_\theta \log \pi]`: an expectation has its body's shape.
            "Delta" | "E" => child(&op.operand),
            // `\max\{0, \boldsymbol{W}^\top \boldsymbol{x} + \boldsymbol{c}\}`: the larger of listed
            // values, taken entry by entry, has the shape of what it compares.
            "max" | "min" if op.sub.is_none() => match &op.operand.kind {
                TermKind::Fenced { body, .. } => match child(body) {
                    kind @ (SymbolKind::Vector | SymbolKind::Matrix) => kind,
                    _ => SymbolKind::Scalar,
                },
                _ => SymbolKind::Scalar,
            },
            _ => SymbolKind::Scalar,
        },
        TermKind::BigOp(big) => match big.name.as_str() {
            "sum" => big.body.as_ref().map_or(SymbolKind::Unknown, child),
            _ => SymbolKind::Scalar,
        },
        TermKind::Product(factors) => {
            // Left to right, as shapes multiply: a matrix times a vector is a vector.
            let mut kinds = factors.iter().map(|f| child(&f.term));
            let first = kinds.next().unwrap_or(SymbolKind::Unknown);
            // A row vector so far (`w^\top`, `x^\top W`) times a vector, or two vectors joined
            // by `\cdot`, is an inner product: one number.
            let mut row = factors.first().is_some_and(|f| is_transposed(&f.term));
            // A column vector times a row vector (`x x^\top`) is an outer product: a matrix.
            let rest = factors.iter().skip(1);
            kinds.zip(rest).fold(first, |acc, (next, factor)| {
                let dot = matches!(&factor.op, Some(crate::syntax::ast::InfixOp::Multiplicative(o)) if o == "\\cdot");
                // `\phi(x)^\top \phi(y)`: what a row vector multiplies, a function's value, is the
                // other vector.
                let called = next == SymbolKind::Unknown && matches!(factor.term.kind, TermKind::Apply(_));
                let vectors = acc == SymbolKind::Vector && (next == SymbolKind::Vector || (row && called));
                let transposed = is_transposed(&factor.term);
                let product = match () {
                    _ if vectors && (row || dot) => SymbolKind::Scalar,
                    _ if vectors && transposed => SymbolKind::Matrix,
                    _ => product_kind(acc, next),
                };
                row = (row || transposed) && product == SymbolKind::Vector;
                product
            })
        }
        TermKind::Sign { operand, .. } | TermKind::Factorial(operand) => child(operand),
        TermKind::Chain { first, rest } => {
            let relation =
                rest.first().is_some_and(|j| matches!(j.op, crate::syntax::ast::InfixOp::Relation(_)));
            if relation {
                child(first)
            } else {
                // `n - k + 1`: a number added takes the kind of what it is added to.
                let operands = std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term));
                let numbers = |t: &&Term| matches!(t.kind, TermKind::Number);
                let kinds = operands.clone().filter(|t| !numbers(t)).map(child);
                kinds
                    .max_by_key(|k| rank(*k))
                    .or_else(|| operands.map(child).max_by_key(|k| rank(*k)))
                    .unwrap_or(SymbolKind::Unknown)
            }
        }
        // `\frac{|A \cap B|}{|A \cup B|}`: members counted over members counted, a share.
        TermKind::Frac { num, den } if is_cardinality(num, child) && is_cardinality(den, child) => {
            SymbolKind::Scalar
        }
        TermKind::Frac { num, .. } => child(num),
        // The numbers between two ends are a set of numbers.
        TermKind::Interval { .. } => SymbolKind::Set,
        TermKind::Sqrt { .. } | TermKind::Binom { .. } => SymbolKind::Scalar,
        TermKind::Fenced { open, body } => match open {
            crate::syntax::ast::Delim::Paren | crate::syntax::ast::Delim::Bracket => child(body),
            // `\{i : a_i > 0\}`: braces holding members and their condition build a set.
            crate::syntax::ast::Delim::Brace if builds_a_set(body) => SymbolKind::Set,
            // `|\mathcal{B}|`: how many members a set has is a size.
            crate::syntax::ast::Delim::Bar if child(body) == SymbolKind::Set => SymbolKind::Dimension,
            // `\lfloor \frac{n - k}{s} \rfloor`: a size rounded is a size.
            crate::syntax::ast::Delim::Floor | crate::syntax::ast::Delim::Ceil
                if child(body) == SymbolKind::Dimension =>
            {
                SymbolKind::Dimension
            }
            _ => SymbolKind::Scalar,
        },
        TermKind::Accent { body, .. } | TermKind::Wrapped(body) => child(body),
        TermKind::Annotated { body, .. } => child(body),
        TermKind::Rows(_) if term.node.environment().is_some_and(|env| env.ends_with("matrix")) => {
            SymbolKind::Matrix
        }
        TermKind::Rows(_) | TermKind::Prose(_) => SymbolKind::Unknown,
    }
}

/// Whether the inside of braces is a set builder: members, then a colon or bar and their
/// condition (`i : x_i \neq y_i`, `u \mid (u, v) \in E`).
fn builds_a_set(body: &Term) -> bool {
    matches!(&body.kind, TermKind::Chain { rest, .. } if rest.iter().any(|j| {
        matches!(&j.op, crate::syntax::ast::InfixOp::Relation(r) if matches!(r.as_str(), ":" | "\\mid"))
    }))
}

/// Whether a term counts the members of a set: `|\mathcal{B}|`, `|A \cup B|`.
fn is_cardinality(term: &Term, child: &impl Fn(&Term) -> SymbolKind) -> bool {
    matches!(&term.kind, TermKind::Fenced { open: crate::syntax::ast::Delim::Bar, body } if child(body) == SymbolKind::Set)
}

/// The kind of a product of `acc` (the factors so far, left to right, as shapes multiply) and
/// `next`: a matrix times a vector is a vector.
fn product_kind(acc: SymbolKind, next: SymbolKind) -> SymbolKind {
    match (acc, next) {
        (SymbolKind::Matrix, SymbolKind::Vector) | (SymbolKind::Vector, SymbolKind::Matrix) => {
            SymbolKind::Vector
        }
        (SymbolKind::Matrix, _) | (_, SymbolKind::Matrix) => SymbolKind::Matrix,
        (SymbolKind::Vector, _) | (_, SymbolKind::Vector) => SymbolKind::Vector,
        (SymbolKind::Scalar | SymbolKind::Dimension | SymbolKind::Index, other) => other,
        (acc, _) => acc,
    }
}

/// Whether a term is written transposed (`w^\top`, `\mathbf{x}^{\mathrm{T}}`).
pub(super) fn is_transposed(term: &Term) -> bool {
    match &term.kind {
        TermKind::Scripted { sup: Some(s), .. } => s.role == ScriptRole::Transpose,
        TermKind::Apply(app) => app.sup.as_ref().is_some_and(|s| s.role == ScriptRole::Transpose),
        _ => false,
    }
}

/// The kind of `term`, from the kinds of its parts, each worked out once and kept in `kinds`
/// (keyed by the term's address).
fn memo_kind(
    kinds: &std::cell::RefCell<rustc_hash::FxHashMap<usize, SymbolKind>>,
    term: &Term,
) -> SymbolKind {
    let key = term as *const Term as usize;
    if let Some(kind) = kinds.borrow().get(&key) {
        return *kind;
    }
    let kind = kind_with(term, &|part: &Term| memo_kind(kinds, part));
    kinds.borrow_mut().insert(key, kind);
    kind
}

/// `\Delta \mathbf{p}_{mqk}`: the letter an increment changes, which answers for its base (its Δ
/// names no array).
fn increment_letter<'n>(
    term: &Term<'n>,
    occurrence: &super::Occurrence<'n>,
) -> Option<&'n crate::syntax::ast::Node> {
    use crate::syntax::ast::NodeKind;
    let delta = matches!(&occurrence.base.kind, NodeKind::Symbol { name, .. } if name == "Delta");
    if !delta || std::ptr::eq(term.node, occurrence.base) {
        return None;
    }
    match &term.node.kind {
        NodeKind::Scripts { base, .. } => Some(base.as_ref()),
        _ => Some(term.node),
    }
}

/// The kind of what an indexed occurrence picks from: the matrix A of the entry `A_{ij}`. One
/// index says too little (`y_i` is an entry of a vector, or the i-th of many labels), so the
/// base keeps the occurrence's kind; so does a lower-case letter's (`\alpha_{ij}`, `w_{ij}`):
/// papers name the matrix of such entries with a capital, if at all, and the letter itself is
/// the entry, a number, as the formula's symbols say.
fn base_kind(occurrence: &super::Occurrence) -> SymbolKind {
    let bold = matches!(
        &occurrence.base.kind,
        crate::syntax::ast::NodeKind::Symbol { font: crate::syntax::ast::Font::Bold, .. }
    );
    let indices: usize = occurrence
        .scripts
        .iter()
        .filter(|s| s.role == ScriptRole::Index)
        .map(|s| match &s.term.node.kind {
            crate::syntax::ast::NodeKind::Chain { rest, .. } => 1 + rest.len(),
            _ => 1,
        })
        .sum();
    let lower = super::scripts::base_letter(occurrence.base).is_some_and(super::kinds::is_small_letter);
    match (occurrence.kind, indices) {
        (kind, _) if bold => kind,
        (SymbolKind::Scalar, 2..) if !lower => SymbolKind::Matrix,
        (kind, _) => kind,
    }
}

/// Which kind wins in a sum of different kinds: a matrix plus a vector broadcasts to a matrix.
fn rank(kind: SymbolKind) -> u8 {
    match kind {
        SymbolKind::Matrix => 3,
        SymbolKind::Vector => 2,
        SymbolKind::Unknown => 0,
        _ => 1,
    }
}

/// The resolved tree looked up by the syntax it came from: the kind of the term a node
/// stands for, and whether a node is applied as a callee. The annotation rules ask it instead
/// of deciding kinds and calls themselves.
pub struct TermIndex<'t, 'n> {
    by_span: rustc_hash::FxHashMap<(usize, usize), &'t Term<'n>>,
    /// The kinds of the bases of indexed symbols: the matrix A of the entry `A_{ij}`.
    bases: rustc_hash::FxHashMap<(usize, usize), SymbolKind>,
    /// The first letter of each name written as letters side by side (`P` of `PE_{(pos, 2i)}`),
    /// with the span of the whole symbol.
    words: rustc_hash::FxHashMap<(usize, usize), crate::syntax::ast::Span>,
    callees: rustc_hash::FxHashSet<(usize, usize)>,
    /// Operators as written (`\mathbb{E}_x`), by span, with the name they were resolved as, and
    /// the intervals, named `interval`.
    operators: rustc_hash::FxHashMap<(usize, usize), &'n str>,
    /// Where each operator written in the formula starts and where its operand ends.
    reaches: Vec<(usize, usize)>,
    /// Where each big operator starts and where what it takes ends.
    big_reaches: Vec<(usize, usize)>,
    balanced: Vec<crate::syntax::ast::Span>,
    /// The first call of each letter papers use for a number, not a function (`\mu(t)`), by
    /// span, with the callee's name.
    unexpected_calls: Vec<(crate::syntax::ast::Span, crate::syntax::ast::Text)>,
    /// Neighbours written side by side in a run that an explicit product sign's operand is
    /// (`Q h_i` of `Q h_i \cdot K h_j`), by where each starts.
    runs: rustc_hash::FxHashSet<(usize, usize)>,
    /// The kinds worked out so far, keyed by the term's address in the tree: asking for the
    /// kind of each run of a long row then walks the row once, not once a run.
    kinds: std::cell::RefCell<rustc_hash::FxHashMap<usize, SymbolKind>>,
}

impl<'t, 'n> TermIndex<'t, 'n> {
    /// Indexes every term of `root`.
    pub fn new(root: &'t Term<'n>) -> Self {
        // Sized once for a term every two bytes of the formula (a letter and a space, in the
        // densest text), not grown and rehashed term by term.
        let expected = root.span.end.saturating_sub(root.span.start) / 2 + 8;
        let hasher = rustc_hash::FxBuildHasher;
        let mut index = TermIndex {
            by_span: rustc_hash::FxHashMap::with_capacity_and_hasher(expected, hasher),
            bases: Default::default(),
            words: Default::default(),
            callees: Default::default(),
            operators: Default::default(),
            reaches: Vec::new(),
            big_reaches: Vec::new(),
            balanced: Vec::new(),
            unexpected_calls: Vec::new(),
            runs: Default::default(),
            kinds: std::cell::RefCell::new(rustc_hash::FxHashMap::with_capacity_and_hasher(expected, hasher)),
        };
        let mut stack = vec![root];
        let mut called_as_functions: Vec<crate::syntax::ast::Text> = Vec::new();
        while let Some(term) = stack.pop() {
            if matches!(term.kind, TermKind::Leaf) {
                continue;
            }
            index.by_span.entry((term.span.start, term.span.end)).or_insert(term);
            if matches!(term.kind, TermKind::Symbol(_) | TermKind::Scripted { .. }) {
                // An occurrence split from its power (`x_i` of `x_i^2`) answers for its node too.
                let node_span = term.node.span;
                index.by_span.entry((node_span.start, node_span.end)).or_insert(term);
            }
            // The base of `W_{rec}^T` is the matrix the name names, as the base of `A_{ij}` is.
            if let Some(occurrence) = term.occurrence().filter(|o| o.indexed || !o.scripts.is_empty()) {
                let span = increment_letter(term, occurrence).unwrap_or(occurrence.base).span;
                if occurrence.indexed {
                    index.bases.insert((span.start, span.end), base_kind(occurrence));
                } else {
                    index.bases.entry((span.start, span.end)).or_insert(occurrence.kind);
                }
            }
            if let Some(occurrence) = term.occurrence().filter(|o| o.base.span.end < term.span.end) {
                let letter = matches!(&occurrence.base.kind, crate::syntax::ast::NodeKind::Symbol { name, .. } if name.len() == 1);
                if letter && occurrence.base_name.len() > 1 {
                    index.words.insert((occurrence.base.span.start, occurrence.base.span.end), term.span);
                }
                // `\Delta t`: the increment is the whole symbol, named by its letter's node.
                if increment_letter(term, occurrence).is_some() {
                    index.words.insert((term.node.span.start, term.node.span.end), term.span);
                }
            }
            if let TermKind::Product(factors) = &term.kind {
                index.note_runs(factors);
                for pair in factors.windows(2) {
                    if let [previous, factor] = pair {
                        if factor.balanced {
                            index.balanced.push(previous.term.span.join(factor.term.span));
                        }
                    }
                }
            }
            if let TermKind::Interval { .. } = &term.kind {
                index.operators.insert((term.span.start, term.span.end), "interval");
            }
            if is_matrix_power(term) {
                index.operators.insert((term.span.start, term.span.end), "matrix-power");
            }
            if let TermKind::Operator(operator) = &term.kind {
                index.operators.insert((operator.op.span.start, operator.op.span.end), operator.name);
                index.reaches.push((operator.op.span.start, operator.operand.span.end));
            }
            if let TermKind::BigOp(big) = &term.kind {
                index.big_reaches.push((big.op.span.start, term.span.end));
            }
            if let TermKind::Apply(app) = &term.kind {
                index.callees.insert((term.node.span.start, term.node.span.end));
                index.callees.insert((app.callee.span.start, app.callee.span.end));
                match app.callee.occurrence() {
                    Some(callee) if app.unexpected_callee => {
                        index.unexpected_calls.push((term.span, callee.base_name.clone()));
                    }
                    Some(callee) => called_as_functions.push(callee.base_name.clone()),
                    None => {}
                }
            }
            term.for_each_child(|child| stack.push(child));
        }
        index.unexpected_calls.sort_by_key(|(span, _)| span.start);
        // A letter the formula also applies where nothing is in doubt (`\mathcal{N}(\mu(X),
        // \Sigma(X))`, a law's parameters) is a function wherever it is applied.
        let mut seen: Vec<crate::syntax::ast::Text> = called_as_functions;
        index.unexpected_calls.retain(|(_, name)| {
            let first = !seen.contains(name);
            seen.push(name.clone());
            first
        });
        index
    }

    /// The kind of the term that `node` stands for, if the tree has one with its span.
    pub fn kind(&self, node: &crate::syntax::ast::Node) -> Option<SymbolKind> {
        let key = (node.span.start, node.span.end);
        self.by_span
            .get(&key)
            .map(|term| memo_kind(&self.kinds, term))
            .or_else(|| self.bases.get(&key).copied())
    }

    /// The span of the whole symbol whose name `node` begins, where the name is letters side by
    /// side (`PE_{(pos, 2i)}` for its `P`) or an increment (`\Delta t` for its `t`).
    pub fn word_span(&self, node: &crate::syntax::ast::Node) -> Option<crate::syntax::ast::Span> {
        self.words.get(&(node.span.start, node.span.end)).copied()
    }

    /// Whether the term covering exactly `span` is a call the meaning layer reads with no
    /// condition: a bar in its parentheses sets apart something else (`\mathrm{KL}(\pi | \pi')`,
    /// a divergence's two distributions).
    pub fn is_call_without_condition(&self, span: crate::syntax::ast::Span) -> bool {
        self.by_span.get(&(span.start, span.end)).is_some_and(|term| {
            matches!(&term.kind, super::tree::TermKind::Apply(app) if app.given.is_empty() && app.condition_bar.is_none())
        })
    }

    /// Whether `span` begins with an operator whose operand reaches past its end, and no big
    /// operator written inside it reaches as far (`\log \frac{1}{N}` of `\log \frac{1}{N}
    /// \sum_j e^{s_j}`, the log of a mean; not `\nabla \frac{1}{m} \sum` of `\nabla_\theta
    /// \frac{1}{m} \sum_i \ldots`, whose sum takes the rest).
    pub fn splits_an_operand(&self, span: crate::syntax::ast::Span) -> bool {
        let Some(reach) =
            self.reaches.iter().filter(|&&(start, _)| start == span.start).map(|&(_, end)| end).max()
        else {
            return false;
        };
        let inner = |&&(start, end): &&(usize, usize)| start > span.start && start < span.end && end >= reach;
        reach > span.end && !self.reaches.iter().chain(&self.big_reaches).any(|r| inner(&r))
    }

    /// Whether the meaning reads `node` as a power (`e^{x}`), not a letter with a step, a
    /// transpose or a label above (`e^{(k)}`, `e_j^T`).
    pub fn is_power(&self, node: &crate::syntax::ast::Node) -> bool {
        self.by_span.get(&(node.span.start, node.span.end)).is_some_and(|term| {
            matches!(&term.kind, super::tree::TermKind::Scripted { sup: Some(sup), .. }
                if sup.role == super::tree::ScriptRole::Power)
        })
    }

    /// Whether the meaning reads `node` as a function with a derivative's order above
    /// (`f^{(k)}` beside `k!`), not a layer or a sample (`h^{(l)}`, `x^{(i)}`).
    pub fn is_derivative_order(&self, node: &crate::syntax::ast::Node) -> bool {
        self.by_span.get(&(node.span.start, node.span.end)).and_then(|term| term.occurrence()).is_some_and(
            |occurrence| occurrence.scripts.iter().any(|s| s.role == super::tree::ScriptRole::Order),
        )
    }

    /// Whether `node` stands for one symbol (a letter with its scripts), not an expression.
    pub fn is_symbol(&self, node: &crate::syntax::ast::Node) -> bool {
        self.by_span.get(&(node.span.start, node.span.end)).is_some_and(|term| term.occurrence().is_some())
    }

    /// The kind of the term that covers exactly `span`, if one does.
    pub fn kind_of_span(&self, span: crate::syntax::ast::Span) -> Option<SymbolKind> {
        self.by_span.get(&(span.start, span.end)).map(|term| memo_kind(&self.kinds, term))
    }

    /// Whether `node` stands for one symbol whose scripts are all part of its name (`W_Q`,
    /// `W_1`, `d_{\text{model}}`), not an entry picked by an index (`Q_{it}`).
    pub fn names_one_symbol(&self, node: &crate::syntax::ast::Node) -> bool {
        self.by_span.get(&(node.span.start, node.span.end)).and_then(|term| term.occurrence()).is_some_and(
            |occurrence| {
                !occurrence.indexed && occurrence.scripts.iter().all(|s| s.role == ScriptRole::Label)
            },
        )
    }

    /// Whether `script`, a sub- or superscript of `node`, is a label of the symbol `node` names
    /// (`\mathrm{new}` of `\ell_i^{\mathrm{new}}`): part of its name, not notation of its own.
    pub fn is_label_of(&self, node: &crate::syntax::ast::Node, script: &crate::syntax::ast::Node) -> bool {
        let Some(occurrence) =
            self.by_span.get(&(node.span.start, node.span.end)).and_then(|t| t.occurrence())
        else {
            return false;
        };
        occurrence.scripts.iter().any(|s| s.role == ScriptRole::Label && s.term.span == script.span)
    }

    /// Whether `left` and `right`, neighbours written side by side, are one operand of an
    /// explicit product sign beside them ([`super::runs`]): `Q` and `h_i` of `Q h_i \cdot K h_j`.
    pub fn in_one_run(&self, left: &crate::syntax::ast::Node, right: &crate::syntax::ast::Node) -> bool {
        self.runs.contains(&(left.span.start, right.span.start))
    }

    /// Notes the neighbours of each run of side-by-side factors among `factors` that an
    /// explicit product sign joins to the rest.
    fn note_runs(&mut self, factors: &[Factor]) {
        let explicit =
            factors.iter().any(|f| matches!(f.op, Some(crate::syntax::ast::InfixOp::Multiplicative(_))));
        if !explicit {
            return;
        }
        for factor in factors {
            let TermKind::Product(run) = &factor.term.kind else { continue };
            if run.iter().skip(1).all(|f| f.op == Some(&crate::syntax::ast::InfixOp::Juxt)) {
                for pair in run.windows(2) {
                    if let [a, b] = pair {
                        self.runs.insert((a.term.span.start, b.term.span.start));
                    }
                }
            }
        }
    }

    /// Where a symbol beside a parenthesis could as well be applied to it: `w(a+b)`.
    pub fn balanced(&self) -> &[crate::syntax::ast::Span] {
        &self.balanced
    }

    /// The first call of each letter papers use for a number, a vector or a matrix, not for a
    /// function (`\mu(t)` of `\mu(t) = \alpha \mu(t-1)`): applied, where a reader may see a product.
    pub fn unexpected_calls(&self) -> impl Iterator<Item = crate::syntax::ast::Span> + '_ {
        self.unexpected_calls.iter().map(|(span, _)| *span)
    }

    /// The name `node` was resolved as when it is an operator applied to an operand: `E` for
    /// `\mathbb{E}_x`, `\mathrm{E}` and the italic `E` of `E[X]`, `log` for `\log`; `interval`
    /// for a pair of ends read as the numbers between them (`[0, T]` of `t \in [0, T]`).
    pub fn operator_named(&self, node: &crate::syntax::ast::Node) -> Option<&'n str> {
        self.operators.get(&(node.span.start, node.span.end)).copied()
    }

    /// Whether `left` is a big operator whose body begins with `right` (`\sum_i` and `x_i`).
    pub fn takes_as_body(&self, left: &crate::syntax::ast::Node, right: &crate::syntax::ast::Node) -> bool {
        self.big_reaches.iter().any(|&(start, end)| start == left.span.start && end >= right.span.end)
    }

    /// Whether `node` is applied to what follows it.
    pub fn is_callee(&self, node: &crate::syntax::ast::Node) -> bool {
        self.callees.contains(&(node.span.start, node.span.end))
    }
}

/// `A^k`, `P^{n+m}`, `M^2`: a matrix raised to a whole power, the meaning layer reading the
/// script as a power (not `W^l` of a layer, `A^{(k)}` of a step, `W^0` of a start, `A^{-1}`,
/// `A^\top`, nor a root `\Sigma^{1/2}`).
fn is_matrix_power(term: &Term) -> bool {
    let TermKind::Scripted { base, sup: Some(sup), .. } = &term.kind else { return false };
    if sup.role != ScriptRole::Power || kind_of_term(base) != SymbolKind::Matrix || picks_an_entry(base) {
        return false;
    }
    let whole = |t: &Term| match &t.kind {
        // `W^0`, `W^1`: an initial or first value's label, hardly a power.
        TermKind::Number => matches!(&t.node.kind, crate::syntax::ast::NodeKind::Number { text, .. }
            if text.bytes().all(|b| b.is_ascii_digit()) && !matches!(text.as_str(), "0" | "1")),
        TermKind::Symbol(o) => matches!(o.kind, SymbolKind::Dimension | SymbolKind::Index),
        _ => false,
    };
    match &sup.term.kind {
        // `P^{n+m}`, `A^{k-1}`: a sum of counts.
        TermKind::Chain { first, rest } => {
            whole(first)
                && rest
                    .iter()
                    .all(|j| matches!(j.op, crate::syntax::ast::InfixOp::Additive(_)) && whole(&j.term))
        }
        _ => whole(&sup.term),
    }
}

/// `(\mathbf{R}_{ui} - \hat{\mathbf{R}}_{ui})^2`: what holds an entry read at a position is a
/// number, whatever its letter's kind.
fn picks_an_entry(term: &Term) -> bool {
    let mut stack = vec![term];
    while let Some(next) = stack.pop() {
        if next.occurrence().is_some_and(|o| o.indexed) {
            return true;
        }
        if stack.len() > 4_096 {
            break;
        }
        next.for_each_child(|child| stack.push(child));
    }
    false
}

/// Whether a function of that name keeps the shape of what it takes (`\tanh`, `\mathrm{softmax}`,
/// `\mathrm{LN}`): applied to a vector it gives a vector (`shape_keeping_functions`).
pub(super) fn is_elementwise(name: &str) -> bool {
    super::notation::has(&super::notation::Notation::shipped().shape_keeping_functions, name)
}

/// `e` of `e^{x}`, `\pi` of `\sqrt{2\pi}`: a constant's letter that nothing declared, applied or
/// indexed (only a convention called it a number) is no symbol of the formula.
fn is_constant(occurrence: &super::Occurrence, constants: &super::notation::Names) -> bool {
    occurrence.scripts.is_empty()
        && occurrence.evidence == super::Evidence::Convention
        && occurrence.kind == SymbolKind::Scalar
        && matches!(
            super::roles::font_of(occurrence.base),
            crate::syntax::ast::Font::Normal | crate::syntax::ast::Font::Roman
        )
        && super::notation::has(constants, &occurrence.base_name)
}

/// Whether `term` is `\nabla` written alone, taking nothing (`\nabla_t`, a gradient at a step).
pub fn is_bare_gradient(term: &Term) -> bool {
    matches!(term.kind, TermKind::Leaf)
        && matches!(&term.node.kind, crate::syntax::ast::NodeKind::Symbol { name, .. } if name == "nabla")
}
