//! Meaning: what syntax alone cannot say about a formula's symbols.
//!
//! - **Kinds**: is `Q` a matrix, `\mathbf{x}` a vector, `d_k` a dimension, `i` an index? From
//!   declarations first (`Q \in \mathbb{R}^{n \times d_k}` makes Q a matrix and n, d_k
//!   dimensions), then from how a symbol is used (the bound of a sum is a count, the variable
//!   under a sum an index), then from the conventions of papers (upper case is a matrix, bold
//!   lower case a vector, lower case a scalar).
//! - **Calls**: whether `p_\theta(x)` applies p to x (a call) or multiplies (`Q(K+V)`).
//! - **Names**: the binding name of a symbol (`\mu` → `mu`, `\mathbf{x}` → `x`,
//!   `d_{\text{model}}` → `d_model`), as the command line's `--let` uses it.
//!
//! A [`SymbolTable`] can learn from several formulas of one document, so a declaration carries
//! to the equations after it.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod agree;
mod application;
mod applied;
mod bigops;
mod calls;
mod chains;
mod counts;
mod curves;
mod definitions;
mod evaluations;
pub use evaluations::EVALUATED;
mod differentials;
mod expectations;
mod intervals;
mod kinds;
mod leibniz;
mod moments;
mod naming;
pub mod notation;
mod outline;
mod positions;
mod prose;
mod resolve;
mod roles;
mod runs;
mod samples;
pub mod score;
mod script_notes;
mod scripts;
mod sets;
mod sizes;
pub use naming::{base_name, binding_name, has_base_name, has_binding_name};
pub(crate) use naming::{binding_name_or_latex, name_text, subscript_name};
pub use tilde::{tilde_reading, TildeReading};
mod steps;
mod superscripts;
mod symbols;
mod tilde;
pub mod tree;

pub use bigops::is_large_operator;
pub use calls::is_conditioning_bar;
pub use chains::statement_connective;
pub use kinds::SymbolKind;
pub use outline::{kind_word, outline};
pub use resolve::Resolver;
pub use runs::otimes_gates;
pub use scripts::{is_indicator_of_an_event, is_indicator_one, is_ordinal_ending, names_a_layer};
pub use symbols::{is_bare_gradient, kind_of_term, symbols, TermIndex};
pub use tree::{Evidence, Occurrence, ScriptRole, SymbolEntry, Term, TermKind};

/// The resolved tree of a formula, read with what `table` knows of its document.
///
/// A name written as a word and given a value by an equation (`\mathrm{head}_i = …`) is of the
/// value's kind wherever it occurs (`\mathrm{Concat}(\mathrm{head}_1, …)`): when the first
/// reading finds such a definition, the formula is read once more knowing it.
///
/// Parts nested past what the table's limit ([`SymbolTable::max_depth`]) allows stay leaves;
/// [`resolve_checked`] refuses such a formula instead.
pub fn resolve<'n>(root: &'n Node, table: &SymbolTable) -> Term<'n> {
    resolve_noting(root, table).0
}

/// [`resolve`], refusing a formula whose resolved tree nests deeper than the table's limit
/// ([`SymbolTable::max_depth`]), counted by the one rule of [`crate::syntax::depth`]: a level is
/// a term that holds others. The resolved tree nests as the syntax does except where an
/// operator reaches over the rest of a flat row (`\log \log … x`, a tower of sums), so this
/// refuses only such towers; the error is the parser's "too deep" at the term past the limit.
pub fn resolve_checked<'n>(root: &'n Node, table: &SymbolTable) -> Result<Term<'n>, ParseError> {
    let (term, elided) = resolve_noting(root, table);
    let limit = table.max_depth();
    match elided.or_else(|| term_deeper_than(&term, limit)) {
        Some(span) => Err(ParseError::new(ParseErrorKind::TooDeep { limit }, span)),
        None => Ok(term),
    }
}

/// The resolved tree and where resolution stopped for depth, if it did.
///
/// What one reading settles can settle more on the next (`p_k` a vector by a later inner
/// product makes `x_k + \alpha_k p_k` a vector sum, and then `f(x_k)` takes a vector): the
/// formula is read again while a reading settles something new, at most [`MAX_READINGS`] times.
fn resolve_noting<'n>(root: &'n Node, table: &SymbolTable) -> (Term<'n>, Option<Span>) {
    let resolver = Resolver::new(table);
    let term = resolver.formula(root);
    let defined = settled_in(&term, table);
    if defined.is_empty() {
        return (term, resolver.elided());
    }
    let mut knowing = table.clone();
    let mut defined = defined;
    let mut readings = 1;
    loop {
        for (name, kind) in defined {
            knowing.suggest(name, kind);
        }
        let again = Resolver::new(&knowing);
        let term = again.formula(root);
        readings += 1;
        defined = if readings < MAX_READINGS { settled_in(&term, &knowing) } else { Vec::new() };
        if defined.is_empty() {
            return (term, again.elided());
        }
    }
}

/// How many times a formula is read at most (see [`resolve_noting`]).
const MAX_READINGS: usize = 3;

/// What a reading of `term` settles that `table` does not know yet.
fn settled_in(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let mut defined = defined_words(term, table);
    defined.extend(steps::settled_by_use(term, table));
    defined.extend(steps::settled_across_steps(term, table));
    defined.extend(steps::arrays_of_their_entries(term, table));
    defined.extend(steps::sizes_named_after_sizes(term, table));
    defined.extend(steps::continuous_variables(term, table));
    defined.extend(moments::variables_of_moments(term, table));
    defined.extend(differentials::stochastic_processes(term, table));
    defined.extend(curves::numbers_of_a_curve(term, table));
    defined.extend(samples::data_points(term, table, &notation::Notation::shipped().sample_letters));
    defined
}

/// The span of the first term of `term` more than `limit` levels deep (a level is a term that
/// holds others), found without recursion.
pub fn term_deeper_than(term: &Term, limit: usize) -> Option<Span> {
    let mut stack: Vec<(&Term, usize)> = vec![(term, 0)];
    while let Some((t, above)) = stack.pop() {
        let first_child = stack.len();
        t.for_each_child(|child| stack.push((child, 0)));
        let level = above + usize::from(stack.len() > first_child);
        if level > limit {
            return Some(t.span);
        }
        for (_, child_above) in stack.get_mut(first_child..).unwrap_or(&mut []) {
            *child_above = level;
        }
    }
    None
}

/// Words that top-level equations give a value of a kind (`\mathrm{head}_i = \mathrm{Attention}(…)`).
fn defined_words(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let mut out = Vec::new();
    let statements: Vec<&Term> = match &term.kind {
        TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) => {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term)).collect()
        }
        _ => vec![term],
    };
    for statement in statements {
        let TermKind::Chain { first, rest } = &statement.kind else { continue };
        let defines = rest.first().is_some_and(|j| *j.op == InfixOp::Relation("=".into()));
        let Some(occurrence) = first.occurrence().filter(|_| defines) else { continue };
        let word = matches!(occurrence.base.kind, NodeKind::Word { .. });
        let name = occurrence.base_name.to_string();
        if word && occurrence.evidence == Evidence::Use && table.recorded(&name).is_none() {
            out.push((name, occurrence.kind));
        }
    }
    out
}

use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, Span};
use crate::syntax::error::{ParseError, ParseErrorKind};
use rustc_hash::FxHashMap as HashMap;

/// What is known about the symbols of a formula or a document.
#[derive(Debug, Clone, Default)]
pub struct SymbolTable {
    kinds: HashMap<String, SymbolKind>,
    /// Names whose kind a declaration fixed (the rest only usage suggested).
    declared: rustc_hash::FxHashSet<String>,
    /// Whether some recorded name is compound (`d_k`, `hat_y`, `W_Q`): only then can a
    /// compound node's name be recorded, and is worth building to look it up.
    compound_names: bool,
    /// Declared shapes, as the dimension nodes of `\mathbb{R}^{n \times d}` (empty: scalar).
    shapes: HashMap<String, Vec<Node>>,
    /// Functions defined in the document: name → (parameter names, body).
    definitions: HashMap<String, Definition>,
    /// Lower-case letters written with an index somewhere (`h` of `h_{t-1}`): a capital
    /// subscripted with one names a member for it (`W_h`), not an entry.
    indexed_bases: rustc_hash::FxHashSet<String>,
    /// Lower-case letters written in bold somewhere (`\mathbf{v}`): the same letter in plain
    /// type with an index (`v_i`) is one of its entries.
    bold_letters: rustc_hash::FxHashSet<String>,
    /// Letters applied right of `\in` somewhere (`p \in P(i)`): functions that give a set.
    set_valued: rustc_hash::FxHashSet<String>,
    /// Letters set against each other by a double bar (`D(P \parallel Q)`): distributions the
    /// formula names, one among others.
    named_distributions: rustc_hash::FxHashSet<String>,
    /// Letters applied to a condition somewhere (`H` of `H(y \mid x)`): measures of random
    /// things, wherever else they are applied.
    conditioned_callees: rustc_hash::FxHashSet<String>,
    /// Small letters written alone above names: the names each stands above, whether one of
    /// them is a bold small letter (a vector, which papers do not raise to a power), and whether
    /// one is a name indexed below (`\alpha_k^c`).
    superscripts: HashMap<String, (Vec<String>, bool, bool)>,
    /// Letters written above a Latin name as a step from themselves (`z^{k+1}`, `H^{t-1}`): above
    /// any Latin name they count steps, no powers.
    stepped_superscripts: rustc_hash::FxHashSet<String>,
    /// Letters that count a derivative's order (`k` of `k!`, `n` of `d^n f`): in parentheses
    /// above a function they give the order (`f^{(k-1)}`), no layer.
    order_letters: rustc_hash::FxHashSet<String>,
    /// Capitals written below with a step from a letter (`H_{\ell-1}`, `S_{n-1}`), as
    /// `capital_letter`: the capital is followed over those steps.
    stepped_capitals: rustc_hash::FxHashSet<String>,
    /// Latin names written with the superscript 1 (`z^1`, `g_i^1`) and none with 0: their
    /// numbered superscripts say which one, no powers.
    first_numbered: rustc_hash::FxHashSet<String>,
    /// Latin names written with the superscript 0 (`x^0`: a power series).
    zeroth_numbered: rustc_hash::FxHashSet<String>,
    /// Letters a sum or a product counts from a lower limit, and whether every such limit is 0
    /// (`\sum_{k=0}^{\infty}`: above a name, a power).
    zero_counted: HashMap<String, bool>,
    /// Single letters written alone as a subscript somewhere (`\ell` of `p_\ell`).
    subscript_letters: rustc_hash::FxHashSet<String>,
    /// Names labelled below with a word somewhere (`\ell` of `\ell_{ce}`): another run of letters
    /// below them is a label too (`\ell_{sl}`).
    worded_bases: rustc_hash::FxHashSet<String>,
    /// Whether something is transposed somewhere (`K_n^\top V_n`): the formula does linear
    /// algebra, and its indexed capitals are arrays, not random variables.
    transposes: bool,
    /// The nesting limit the formulas were parsed under, when not the default.
    max_depth: Option<usize>,
}

/// A function defined by `f(a, b) = body`.
#[derive(Debug, Clone)]
pub struct Definition {
    /// The binding names of the parameters.
    pub parameters: Vec<String>,
    /// The right-hand side.
    pub body: Node,
}

impl SymbolTable {
    /// An empty table.
    pub fn new() -> Self {
        SymbolTable::default()
    }

    /// A table that has learned from `root`.
    pub fn from_formula(root: &Node) -> Self {
        let mut table = SymbolTable::new();
        table.learn(root);
        table
    }

    /// The nesting limit (`--max-depth`) the document's formulas were parsed under, which
    /// resolution keeps to ([`resolve_checked`]); by default the parser's default.
    pub fn max_depth(&self) -> usize {
        self.max_depth.unwrap_or(crate::syntax::depth::DEFAULT_MAX_DEPTH)
    }

    /// Sets the nesting limit (capped at [`crate::Limits::MAX_DEPTH_CEILING`], as the parser
    /// caps it).
    pub fn set_max_depth(&mut self, max_depth: usize) {
        self.max_depth = Some(max_depth.min(crate::Limits::MAX_DEPTH_CEILING));
    }

    /// Learns kinds, shapes and definitions from one formula.
    pub fn learn(&mut self, root: &Node) {
        kinds::learn_usage(self, root, 0);
        self.learn_statements(root);
    }

    /// The kind recorded for a binding name, if any.
    pub fn recorded(&self, name: &str) -> Option<SymbolKind> {
        self.kinds.get(name).copied()
    }

    /// The kind recorded for `node`'s binding name, if it has one.
    pub fn recorded_for(&self, node: &Node) -> Option<SymbolKind> {
        match &node.kind {
            NodeKind::Symbol { name, .. } => self.recorded(name),
            NodeKind::Word { text, .. } if !text.contains(char::is_whitespace) => self.recorded(text),
            // Every other binding name is compound (joined with `_`).
            _ if !self.compound_names => None,
            _ => binding_name(node).and_then(|name| self.recorded(&name)),
        }
    }

    /// Records `kind` for `name` unless a declaration already fixed it.
    pub(crate) fn suggest(&mut self, name: String, kind: SymbolKind) {
        self.compound_names |= name.contains('_');
        self.kinds.entry(name).or_insert(kind);
    }

    /// Records `kind` for `name`, replacing what usage suggested.
    pub(crate) fn declare(&mut self, name: String, kind: SymbolKind) {
        self.compound_names |= name.contains('_');
        self.declared.insert(name.clone());
        self.kinds.insert(name, kind);
    }

    /// Records that a lower-case letter is written with an index (`h_{t-1}`).
    pub(crate) fn note_indexed_base(&mut self, letter: &str) {
        if !self.indexed_bases.contains(letter) {
            self.indexed_bases.insert(letter.to_string());
        }
    }

    /// Records that a lower-case letter is written in bold (`\mathbf{v}`, `\boldsymbol{\mu}`).
    pub(crate) fn note_bold_letter(&mut self, letter: &str) {
        if !self.bold_letters.contains(letter) {
            self.bold_letters.insert(letter.to_string());
        }
    }

    /// Whether a lower-case letter is written in bold somewhere in the document.
    pub fn is_bold_letter(&self, letter: &str) -> bool {
        self.bold_letters.contains(letter)
    }

    /// Records that `letter` is written alone as a subscript (`p_\ell`).
    pub(crate) fn note_subscript_letter(&mut self, letter: &str) {
        if !self.subscript_letters.contains(letter) {
            self.subscript_letters.insert(letter.to_string());
        }
    }

    /// Whether `letter` is written alone as a subscript somewhere.
    pub fn is_subscript_letter(&self, letter: &str) -> bool {
        self.subscript_letters.contains(letter)
    }

    /// Records that `name` is labelled below with a word (`\ell_{ce}`).
    pub(crate) fn note_worded_base(&mut self, name: String) {
        self.worded_bases.insert(name);
    }

    /// Whether `name` is labelled below with a word somewhere.
    pub fn is_worded_base(&self, name: &str) -> bool {
        self.worded_bases.contains(name)
    }

    /// Records that something is transposed (`x^\top`).
    pub(crate) fn note_transpose(&mut self) {
        self.transposes = true;
    }

    /// Whether something is transposed somewhere: the formula does linear algebra.
    pub fn transposes(&self) -> bool {
        self.transposes
    }

    /// Records that a letter is applied right of `\in` (`p \in P(i)`): it gives a set.
    pub(crate) fn note_set_valued(&mut self, letter: &str) {
        if !self.set_valued.contains(letter) {
            self.set_valued.insert(letter.to_string());
        }
    }

    /// Whether a letter is applied right of `\in` somewhere in the document: a function that
    /// gives a set (the positives `P(i)`, the neighbours `\mathcal{N}(v)`, the actions `A(s)`).
    pub fn is_set_valued(&self, letter: &str) -> bool {
        self.set_valued.contains(letter)
    }

    /// Records that a letter is applied to a condition (`H` of `H(y \mid x)`).
    pub(crate) fn note_conditioned_callee(&mut self, letter: &str) {
        if !self.conditioned_callees.contains(letter) {
            self.conditioned_callees.insert(letter.to_string());
        }
    }

    /// Whether a letter is applied to a condition somewhere in the document: `H(y)` beside
    /// `H(y \mid \mathcal{D})` is an entropy too, of the same variable unconditioned.
    pub fn is_conditioned_callee(&self, letter: &str) -> bool {
        self.conditioned_callees.contains(letter)
    }

    /// Records that a letter stands bare beside a double bar (`P` of `D(P \parallel Q)`).
    pub(crate) fn note_named_distribution(&mut self, letter: &str) {
        if !self.named_distributions.contains(letter) {
            self.named_distributions.insert(letter.to_string());
        }
    }

    /// Whether a letter names one of several distributions the document sets against each
    /// other (`P` of `D_{\mathrm{KL}}(P \parallel Q) = \sum_x P(x) \log \frac{P(x)}{Q(x)}`): applied, it
    /// is that distribution at a point ("P of x"), not the probability of an event.
    pub fn is_named_distribution(&self, letter: &str) -> bool {
        self.named_distributions.contains(letter)
    }

    /// Whether a lower-case letter is written with an index somewhere in the document.
    pub fn is_indexed_base(&self, letter: &str) -> bool {
        self.indexed_bases.contains(letter)
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Whether a declaration (not only usage) fixed the kind of `name`.
    pub fn is_declared(&self, name: &str) -> bool {
        self.declared.contains(name)
    }

    /// The declared shape of a binding name: its dimension expressions.
    pub fn shape(&self, name: &str) -> Option<&[Node]> {
        self.shapes.get(name).map(Vec::as_slice)
    }

    /// The function defined under `name`, if any.
    pub fn definition(&self, name: &str) -> Option<&Definition> {
        self.definitions.get(name)
    }

    /// All definitions.
    pub fn definitions(&self) -> impl Iterator<Item = (&String, &Definition)> {
        self.definitions.iter()
    }

    /// Declarations (`X \in \mathbb{R}^{…}`) and definitions (`f(x) = …`) anywhere in a list
    /// of statements.
    fn learn_statements(&mut self, root: &Node) {
        for statement in statements(root) {
            if let Some((lhs, rhs)) = relation_sides(statement, "\\in").or_else(|| defined_within(statement))
            {
                self.learn_declaration(lhs, rhs);
            }
            if let Some((lhs, rhs)) = relation_sides(statement, "=") {
                self.learn_definition(lhs, rhs);
            }
            for relation in DEFINING_RELATIONS {
                if let Some((lhs, _)) = relation_sides(statement, relation) {
                    self.learn_defined_head(lhs);
                }
            }
            if let Some((lhs, rhs)) =
                relation_sides(statement, "\\sim").filter(|(l, r)| tilde::draws_from_a_law(l, r))
            {
                self.learn_sampling(lhs, rhs);
            }
            self.learn_mapping(statement);
        }
        self.learn_set_builders(root);
    }

    /// `x \sim p`, `X \sim \mathcal{N}(0, 1)`: x is a random variable, p a distribution.
    pub(super) fn learn_sampling(&mut self, lhs: &Node, rhs: &Node) {
        for target in list_items(lhs) {
            if let Some(name) = binding_name(target) {
                self.declare(name, SymbolKind::RandomVariable);
            }
        }
        let callee = match &rhs.kind {
            NodeKind::Chain { first, rest } if rest.first().is_some_and(|l| l.op == InfixOp::Juxt) => {
                first.as_ref()
            }
            _ => rhs,
        };
        if let Some(name) = binding_name(callee) {
            self.declare(name, SymbolKind::Distribution);
        }
    }

    /// `f: \mathcal{X} \to \mathbb{R}`: f is a function between sets.
    fn learn_mapping(&mut self, statement: &Node) {
        let NodeKind::Chain { first, rest } = &statement.kind else { return };
        let [colon, arrow] = rest.as_slice() else { return };
        let is_colon = colon.op == InfixOp::Relation(":".into());
        let is_arrow = matches!(&arrow.op, InfixOp::Relation(r) if r == "\\to" || r == "\\rightarrow");
        if !(is_colon && is_arrow) {
            return;
        }
        if let Some(name) = binding_name(first) {
            self.declare(name, SymbolKind::Function);
        }
        let reals = |n: &Node| matches!(&n.kind, NodeKind::Symbol { font: Font::Blackboard, .. });
        for set in [&colon.operand, &arrow.operand].into_iter().filter(|n| !reals(n)) {
            if let Some(name) = binding_name(set) {
                self.declare(name, SymbolKind::Set);
            }
        }
    }

    fn learn_declaration(&mut self, lhs: &Node, set: &Node) {
        let Some(dims) = real_space_dims(set).or_else(|| power_space_dims(set)) else { return };
        let kind = match dims.len() {
            0 => SymbolKind::Scalar,
            1 => SymbolKind::Vector,
            _ => SymbolKind::Matrix,
        };
        for dim in &dims {
            if let Some(name) = binding_name(dim) {
                self.declare(name, SymbolKind::Dimension);
            }
        }
        for target in list_items(lhs) {
            if let Some(name) = binding_name(target).or_else(|| scripted_name(target)) {
                self.declare(name.clone(), kind);
                self.shapes.insert(name, dims.clone());
            }
        }
    }

    fn learn_definition(&mut self, lhs: &Node, rhs: &Node) {
        let Some((name, parameters, kind)) = defined_head(lhs) else { return };
        self.declare(name.clone(), kind);
        self.learn_family(lhs, kind);
        self.definitions.insert(name, Definition { parameters, body: rhs.clone() });
    }

    /// `T_k(x) = 2x T_{k-1}(x) - T_{k-2}(x)`: a head picked by an index defines a family, so
    /// the letter with any index is of the head's kind (suggested, not declared).
    fn learn_family(&mut self, lhs: &Node, kind: SymbolKind) {
        let Some(callee) = call_callee(lhs) else { return };
        let NodeKind::Scripts { base, sub: Some(sub), sup: None, .. } = &callee.kind else { return };
        let indexed = matches!(&sub.kind, NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1);
        if let Some(letter) = binding_name(base).filter(|_| indexed) {
            self.suggest(letter, kind);
        }
    }

    /// `B_{\mathrm{crit}}(L) \approx …`, `f(x) := …`: what a relation that defines or
    /// approximates gives its head is a function (no body to evaluate is kept).
    fn learn_defined_head(&mut self, lhs: &Node) {
        if let Some((name, _, kind)) = defined_head(lhs) {
            self.declare(name, kind);
        }
    }
}

/// Relations besides `=` whose left side, written as a call, is a function being given:
/// `\approx`, `\equiv`, `:=`, `\triangleq`, `\doteq`.
const DEFINING_RELATIONS: [&str; 5] = ["\\approx", "\\equiv", ":=", "\\triangleq", "\\doteq"];

/// The head of a definition written as a call (`f(x, y)`, `p(x)`): its name, its parameters and
/// its kind (a density is a distribution papers write as a function). Not `\mathbf{x}(t)`, a
/// vector at a step.
fn defined_head(lhs: &Node) -> Option<(String, Vec<String>, SymbolKind)> {
    let (name, arguments) = call_parts(lhs)?;
    let parameters: Vec<String> = list_items(arguments).into_iter().filter_map(binding_name).collect();
    if parameters.is_empty() {
        return None;
    }
    let notation = notation::Notation::shipped();
    let callee = call_callee(lhs).unwrap_or(lhs);
    let bold = matches!(callee.kind, NodeKind::Symbol { font: Font::Bold, .. });
    if bold && parameters.iter().all(|p| notation::has(&notation.bare_index_letters, p)) {
        return None;
    }
    let base = base_name(callee).unwrap_or_default();
    // A family's name only in its own font (`\mathcal{N}`, `\mathrm{Beta}`): `N_{\mathrm{opt}}(C)`
    // is a count's function.
    let family_font = matches!(
        call_base(callee).kind,
        NodeKind::Word { .. } | NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. }
    );
    let density = notation::has(&notation.distribution_letters, &base)
        || (family_font && notation::has(&notation.distribution_names, &base))
        || roles::is_density_of_a_variable(callee);
    let kind = if density { SymbolKind::Distribution } else { SymbolKind::Function };
    Some((name, parameters, kind))
}

/// The letter or word under a callee's scripts.
fn call_base(callee: &Node) -> &Node {
    match &callee.kind {
        NodeKind::Scripts { base, .. } => base,
        _ => callee,
    }
}

/// The statements of a formula: the items of a top-level list, the cells of rows.
pub fn statements(root: &Node) -> Vec<&Node> {
    match &root.kind {
        NodeKind::Chain { first, rest } if rest.iter().all(|l| matches!(l.op, InfixOp::Separator(_))) => {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect()
        }
        NodeKind::Rows(table) => table.rows.iter().flatten().flat_map(statements).collect(),
        _ => vec![root],
    }
}

/// The two sides of `lhs REL rhs` when the node is a chain with that one relation.
pub fn relation_sides<'a>(node: &'a Node, relation: &str) -> Option<(&'a Node, &'a Node)> {
    match &node.kind {
        NodeKind::Chain { first, rest } => match rest.as_slice() {
            [link] if link.op == InfixOp::Relation(relation.into()) => Some((first, &link.operand)),
            _ => None,
        },
        _ => None,
    }
}

/// `m = \max(a, b) \in \mathbb{R}^{B_r}`: a definition that ends by saying where its value
/// lives declares what it defines. Gives the defined node and the set.
fn defined_within(node: &Node) -> Option<(&Node, &Node)> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let (last, between) = rest.split_last()?;
    let equal = |op: &InfixOp| *op == InfixOp::Relation("=".into());
    (last.op == InfixOp::Relation("\\in".into())
        && !between.is_empty()
        && between.iter().all(|l| equal(&l.op)))
    .then_some((first.as_ref(), &last.operand))
}

/// The name the meaning layer gives a symbol with both scripts (`\ell_i^{\mathrm{new}}` →
/// `ell_i^new`), for declarations of names [`binding_name`] does not give.
fn scripted_name(node: &Node) -> Option<String> {
    let NodeKind::Scripts { base, sub, sup, primes: 0 } = &node.kind else { return None };
    let mut name = binding_name(base)?;
    for (mark, script) in [('_', sub), ('^', sup)] {
        if let Some(script) = script {
            name.push(mark);
            name.push_str(&binding_name(script)?);
        }
    }
    Some(name)
}

/// The items of a list (commas, and the semicolon before parameters: `Q(s, a; \theta)`), or
/// the node itself.
pub fn list_items(node: &Node) -> Vec<&Node> {
    match &node.kind {
        NodeKind::Chain { first, rest }
            if rest.iter().all(|l| matches!(&l.op, InfixOp::Separator(s) if s == "," || s == ";")) =>
        {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect()
        }
        NodeKind::Empty => Vec::new(),
        _ => vec![node],
    }
}

/// The dimensions of `\mathbb{R}`, `\mathbb{R}^{n}`, `\mathbb{R}^{n \times d}` (and `ℝ`); of a
/// complex space raised to sizes too (`\mathbb{C}^{m \times n}`; `\mathbb{C}` alone is the complex
/// numbers, said by name).
pub fn real_space_dims(set: &Node) -> Option<Vec<Node>> {
    match &set.kind {
        _ if is_blackboard(set, "R") => Some(Vec::new()),
        NodeKind::Scripts { base, sup: Some(sup), sub: None, .. }
            if is_blackboard(base, "R") || is_blackboard(base, "C") =>
        {
            Some(power_dims(sup))
        }
        _ => None,
    }
}

/// Whether `set` is a complex space of sizes, `\mathbb{C}^{m \times n}`.
pub fn is_complex_space(set: &Node) -> bool {
    matches!(&set.kind, NodeKind::Scripts { base, sup: Some(_), sub: None, .. } if is_blackboard(base, "C"))
}

/// Whether `node` is the blackboard letter `letter` (`\mathbb{R}`, `\mathbb{C}`, `ℝ`).
pub(crate) fn is_blackboard(node: &Node, letter: &str) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Blackboard } if name == letter)
}

/// The sizes of a space's power: `n \times d` → n, d.
fn power_dims(sup: &Node) -> Vec<Node> {
    match &sup.kind {
        NodeKind::Chain { first, rest }
            if rest.iter().all(|l| l.op == InfixOp::Multiplicative("\\times".into())) =>
        {
            std::iter::once(first.as_ref().clone()).chain(rest.iter().map(|l| l.operand.clone())).collect()
        }
        _ => vec![sup.clone()],
    }
}

/// The dimensions of another space of tuples of numbers written as a power:
/// `\{0, 1\}^K`, `[0, 1]^d`, `\{-1, +1\}^{n \times d}`, `\mathbb{Z}^d`. Without a power such a set
/// says nothing of shape (`i \in \{1, \dots, n\}` is a position, not a number).
pub fn power_space_dims(set: &Node) -> Option<Vec<Node>> {
    let NodeKind::Scripts { base, sup: Some(sup), sub: None, .. } = &set.kind else { return None };
    let tuple_base = match &base.kind {
        NodeKind::Symbol { name, font: Font::Blackboard } => matches!(name.as_str(), "Z" | "N" | "C" | "Q"),
        NodeKind::Fenced { open: Delim::Brace | Delim::Bracket, body, .. } => number_like(body),
        _ => false,
    };
    tuple_base.then(|| power_dims(sup))
}

/// A number, a sign before one or a separator between them (`0, 1`, `-1, +1`).
fn number_like(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Number { .. } => true,
        NodeKind::Prefix { operand, .. } => number_like(operand),
        NodeKind::Chain { first, rest } => {
            number_like(first)
                && rest.iter().all(|l| matches!(l.op, InfixOp::Separator(_)) && number_like(&l.operand))
        }
        _ => false,
    }
}

/// The name and argument node of a call-shaped node: `f(x)`, `\mathrm{Attention}(Q, K, V)`,
/// `p_\theta(x \mid y)`.
pub fn call_parts(node: &Node) -> Option<(String, &Node)> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let [link] = rest.as_slice() else { return None };
    if link.op != InfixOp::Juxt {
        return None;
    }
    let NodeKind::Fenced { open: Delim::Paren, body, .. } = &link.operand.kind else { return None };
    Some((binding_name(first)?, body))
}

/// The spans of the functions a formula defines (`\mathrm{Attention}` of
/// `\mathrm{Attention}(Q, K, V) = …`): a definition explains its own name.
pub fn defined_heads(root: &Node) -> Vec<crate::syntax::ast::Span> {
    statements(root)
        .into_iter()
        .filter_map(|statement| relation_sides(statement, "="))
        .filter(|(lhs, _)| call_parts(lhs).is_some())
        .filter_map(|(lhs, _)| call_callee(lhs).map(|callee| callee.span))
        .collect()
}

/// The sides of each statement `NAME = BODY` that names what it defines, a symbol or a call
/// (`\mathcal{L}_{\text{ELBO}} = …`, `\mathrm{FFN}(x) = …`): (name's span, body's span).
pub fn named_definitions(root: &Node) -> Vec<(crate::syntax::ast::Span, crate::syntax::ast::Span)> {
    statements(root)
        .into_iter()
        .filter_map(|statement| relation_sides(statement, "="))
        .filter(|(lhs, _)| (has_base_name(lhs) || call_parts(lhs).is_some()) && !decorated(lhs))
        .map(|(lhs, rhs)| (lhs.span, rhs.span))
        .collect()
}

/// Whether a node holds an accent (`\bar{x}`): a decorated name asks what its mark means,
/// which its body does not say.
fn decorated(node: &Node) -> bool {
    let mut found = matches!(node.kind, NodeKind::Accent { .. });
    node.for_each_child(|child| found = found || decorated(child));
    found
}

/// The bodies of the functions a formula defines by name: the right side of
/// `\mathrm{Attention}(Q, K, V) = \mathrm{softmax}(…)V`, which the name explains.
pub fn defined_bodies(root: &Node) -> Vec<crate::syntax::ast::Span> {
    statements(root)
        .into_iter()
        .filter_map(|statement| relation_sides(statement, "="))
        .filter(|(lhs, _)| call_parts(lhs).is_some() && call_callee(lhs).is_some())
        .map(|(_, rhs)| rhs.span)
        .collect()
}

/// The callee of a call-shaped node (`p_\theta` of `p_\theta(x)`).
fn call_callee(node: &Node) -> Option<&Node> {
    match &node.kind {
        NodeKind::Chain { first, rest } if rest.len() == 1 => Some(first),
        _ => None,
    }
}

/// Whether `callee` side by side with `argument` is a call rather than a product: the meaning
/// layer's one decision ([`Resolver::is_call`]), for consumers that still walk the syntax tree.
pub fn is_call(callee: &Node, argument: &Node, table: &SymbolTable) -> bool {
    Resolver::new(table).is_call(callee, argument)
}
