//! Symbol kinds ([`SymbolKind`]) and what a first pass over a document records of them (sum
//! bounds are counts, sum variables indices); per occurrence, kinds are decided in `roles.rs`.

use super::{binding_name, SymbolTable};
use crate::syntax::ast::{Font, InfixOp, Node, NodeKind};
use serde::Serialize;

/// What a symbol stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// A number: `x`, `\lambda`, a loss `L`.
    Scalar,
    /// A vector: `\mathbf{x}`, `q_i`, or declared in `\mathbb{R}^n`.
    Vector,
    /// A matrix: `Q`, `\mathbf{W}`, or declared in `\mathbb{R}^{n \times d}`.
    Matrix,
    /// A size: `n`, `N`, `d_k`, `d_{\text{model}}`.
    Dimension,
    /// An index: `i`, `j`, `t` under a sum or in a subscript.
    Index,
    /// A function: `\log`, `\mathrm{softmax}`, `p` in `p(x)`, a defined `f`.
    Function,
    /// A set or space: `\mathbb{R}`, `\mathcal{D}`, an event `A` in `P(A \mid B)`.
    Set,
    /// A random variable: `X` in `\mathbb{E}[X]`, `H(X)`; `x` in `x \sim p`.
    RandomVariable,
    /// A distribution, density or policy: `p` in `p(x)`, `P` and `Q` in
    /// `D_{\mathrm{KL}}(P \parallel Q)`, `\mathcal{N}`, `\pi_\theta(a \mid s)`.
    Distribution,
    /// Nothing is known.
    Unknown,
}

/// Letters that papers use for sizes.
const DIMENSION_LETTERS: &[&str] = &["n", "N", "d", "m", "M", "T", "H"];

/// Letters that papers use for indices.
const INDEX_LETTERS: &[&str] = &["i", "j", "t", "k", "l", "h"];

/// Walks `node` and records what usage says: sum bounds are counts, sum variables and
/// subscript letters are indices, the root of a dimension-looking name is a dimension.
pub(super) fn learn_usage(table: &mut SymbolTable, node: &Node, depth: usize) {
    if depth > crate::syntax::depth::WALK_GUARD {
        return;
    }
    if let NodeKind::Scripts { base, sub, sup: Some(sup), .. } = &node.kind {
        note_superscript(table, base, sub.is_some(), sup);
    }
    note_conditioned_callees(table, node);
    if let NodeKind::Frac { num, .. } = &node.kind {
        note_leibniz_order(table, num);
    }
    if let NodeKind::Scripts { base, sub: Some(sub), .. } = &node.kind {
        note_stepped_capital(table, base, sub);
        note_worded_base(table, base, sub);
        // `I_{\{S(X) \geq \gamma\}}`: a capital I with an event under it is the indicator.
        if super::scripts::is_indicator_of_an_event(base, sub) {
            table.suggest(binding(base), SymbolKind::Function);
        }
    }
    match &node.kind {
        // `\int_0^x`: an integral's limits are numbers on a continuum, no positions nor counts.
        NodeKind::Scripts { base, sub, sup, .. } if matches!(&base.kind, NodeKind::LargeOp { name } if !super::bigops::INTEGRALS.contains(&name.as_str())) =>
        {
            learn_bounds(table, sub.as_deref(), sup.as_deref());
        }
        NodeKind::Chain { rest, .. } if rest.iter().any(|l| l.op == InfixOp::Relation("\\in".into())) => {
            for link in rest.iter().filter(|l| l.op == InfixOp::Relation("\\in".into())) {
                if let Some(letter) = applied_letter(&link.operand) {
                    table.note_set_valued(letter);
                }
            }
        }
        // `D_{\mathrm{KL}}(P \parallel Q)`: letters set against each other are named distributions.
        NodeKind::Chain { first, rest } if rest.iter().any(|l| super::calls::is_double_bar(&l.op)) => {
            let sides = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
            for side in sides {
                if let NodeKind::Symbol { name, font: Font::Normal } = &side.kind {
                    table.note_named_distribution(name);
                }
            }
        }
        NodeKind::Chain { first, rest } if matches!(rest.as_slice(), [l] if l.op == InfixOp::Relation("\\sim".into())) => {
            if let Some(link) = rest.first().filter(|l| super::tilde::draws_from_a_law(first, &l.operand)) {
                table.learn_sampling(first, &link.operand);
            }
        }
        NodeKind::Scripts { base, sub: Some(sub), .. } => {
            if let NodeKind::Symbol { name, font: Font::Normal } = &sub.kind {
                table.note_subscript_letter(name);
            }
            if let NodeKind::Symbol { name, font: Font::Normal | Font::Bold } = &base.kind {
                if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase()) {
                    table.note_indexed_base(name);
                }
            }
        }
        NodeKind::Symbol { name, font: Font::Bold } if is_small_letter(name) => table.note_bold_letter(name),
        NodeKind::Factorial { operand } => note_order_letter(table, operand),
        // `\{0, 1\}^K`, `[0, 1]^d`: the power of a set of numbers is a count.
        NodeKind::Scripts { sub: None, sup: Some(sup), base, .. } => {
            for dim in super::power_space_dims(node).unwrap_or_default() {
                if let Some(name) = binding_name(&dim) {
                    table.suggest(name, SymbolKind::Dimension);
                }
            }
            if raised_number(base) {
                if let Some(letter) = count_letter(sup) {
                    table.suggest(letter.to_string(), SymbolKind::Dimension);
                }
            }
        }
        // `\frac{n}{2} \log 2\pi`: a count letter over a number is a count; `\frac{1}{n}`: so is
        // one a number is divided by (an average over n).
        NodeKind::Frac { num, den } if matches!(den.kind, NodeKind::Number { .. }) => {
            if let Some(letter) = count_letter(num) {
                table.suggest(letter.to_string(), SymbolKind::Dimension);
            }
        }
        NodeKind::Frac { num, den } if matches!(num.kind, NodeKind::Number { .. }) => {
            if let Some(letter) = count_letter(den) {
                table.suggest(letter.to_string(), SymbolKind::Dimension);
            }
        }
        NodeKind::Sqrt { radicand, .. } => {
            if let Some(name) = binding_name(radicand).filter(|n| looks_like_dimension(n)) {
                table.suggest(name, SymbolKind::Dimension);
            }
        }
        _ => {}
    }
    node.for_each_child(|child| learn_usage(table, child, depth + 1));
}

/// `\frac{d^n f}{dx^n}`, `\frac{\partial^k u}{\partial t^k}`: the letter above the numerator's
/// sign counts the derivative's order.
fn note_leibniz_order(table: &mut SymbolTable, num: &Node) {
    let first = match &num.kind {
        NodeKind::Chain { first, .. } => first.as_ref(),
        _ => num,
    };
    let NodeKind::Scripts { base, sub: None, sup: Some(sup), .. } = &first.kind else { return };
    let sign = matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "d" || name == "partial");
    if let (true, NodeKind::Symbol { name, font: Font::Normal }) = (sign, &sup.kind) {
        table.note_order_letter(name);
    }
}

/// `k!`, `(k-1)!`, `m_1!`: the letter a factorial counts may give a derivative's order.
fn note_order_letter(table: &mut SymbolTable, operand: &Node) {
    let inner = match &operand.kind {
        NodeKind::Fenced { body, .. } => body.as_ref(),
        _ => operand,
    };
    if let Some(letter) = super::script_notes::leading_letter(inner) {
        table.note_order_letter(letter);
    }
}

/// `\gamma^n`, `2^n`, `(1 - p)^n`: a base that is a number, a Greek letter or a bracketed
/// group, raised to a power (a Latin letter there may carry a layer or a label above it).
fn raised_number(base: &Node) -> bool {
    match &base.kind {
        NodeKind::Number { .. } | NodeKind::Fenced { .. } => true,
        NodeKind::Symbol { name, font: Font::Normal } => crate::syntax::names::is_greek(name),
        _ => false,
    }
}

/// A lone letter papers count with (`power_count_letters`: the n of `\gamma^n`).
fn count_letter(node: &Node) -> Option<&str> {
    let notation = super::notation::Notation::shipped();
    match &node.kind {
        NodeKind::Symbol { name, font: Font::Normal }
            if super::notation::has(&notation.power_count_letters, name) =>
        {
            Some(name.as_str())
        }
        _ => None,
    }
}

/// Records the letters a chain applies to a parenthesis that holds a conditioning bar
/// (`H(y \mid x)`, `p(z \mid x)`).
fn note_conditioned_callees(table: &mut SymbolTable, node: &Node) {
    let NodeKind::Chain { first, rest } = &node.kind else { return };
    let mut before = first.as_ref();
    for link in rest {
        let conditioned = matches!(&link.operand.kind, NodeKind::Fenced { open: crate::syntax::ast::Delim::Paren, body, .. }
            if super::calls::holds_condition(body));
        if link.op == InfixOp::Juxt && conditioned {
            if let NodeKind::Symbol { name, font: Font::Normal } = &before.kind {
                table.note_conditioned_callee(name);
            }
        }
        before = &link.operand;
    }
}

/// The letter of `P(i)`, `\mathcal{N}(v)`: a plain or calligraphic letter side by side with a
/// parenthesised group, and nothing else.
fn applied_letter(node: &Node) -> Option<&str> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let [link] = rest.as_slice() else { return None };
    let group = matches!(&link.operand.kind, NodeKind::Fenced { open: crate::syntax::ast::Delim::Paren, .. });
    // `x_i \in N_k(x)`, `(a, b) \in \mathcal{N}_k(i, j)`: a neighbourhood named below.
    let letter = match &first.kind {
        NodeKind::Scripts { base, sub: Some(_), sup: None, .. } => base.as_ref(),
        _ => first.as_ref(),
    };
    match &letter.kind {
        NodeKind::Symbol { name, font: Font::Normal | Font::Calligraphic }
            if link.op == InfixOp::Juxt && group =>
        {
            Some(name.as_str())
        }
        _ => None,
    }
}

/// `\sum_{i=1}^{N}`: i is an index, N a count.
fn learn_bounds(table: &mut SymbolTable, sub: Option<&Node>, sup: Option<&Node>) {
    if let Some(sub) = sub {
        learn_range_bounds(table, sub);
        if let Some((letter, from_zero)) = counted_from(sub) {
            table.note_counted(letter, from_zero);
        }
        let variable = match &sub.kind {
            NodeKind::Chain { first, rest }
                if matches!(rest.first().map(|l| &l.op), Some(InfixOp::Relation(_))) =>
            {
                first.as_ref()
            }
            _ => sub,
        };
        for name in index_letters(variable) {
            table.suggest(name, SymbolKind::Index);
        }
    }
    if let Some(name) = sup.and_then(binding_name) {
        table.suggest(name, SymbolKind::Dimension);
    }
}

/// `k` of `\sum_{k=0}`, `\sum_{k=1}`: a letter a big operator counts from a lower limit, and
/// whether that limit is 0. The sides of `k=0` are read as the big operator's resolution reads
/// its variable and lower limit ([`super::relation_sides`]).
fn counted_from(sub: &Node) -> Option<(&str, bool)> {
    let (variable, from) = super::relation_sides(sub, "=")?;
    let zero = matches!(&from.kind, NodeKind::Number { text, .. } if text.as_str() == "0");
    match &variable.kind {
        NodeKind::Symbol { name, font: Font::Normal } => Some((name.as_str(), zero)),
        _ => None,
    }
}

/// `\sum_{1 \le j \le n}`, `\sum_{-c \le j \le c}`: in a range written as two comparisons
/// (or one comparison of a distance, `|j - i| \le k`), the outer letters are where the variable
/// stops, sizes (the count n, the window c), unless papers count with their letter (`1 \le j
/// \le i`: i is a position). The variable itself is an index.
fn learn_range_bounds(table: &mut SymbolTable, sub: &Node) {
    let NodeKind::Chain { first, rest } = &sub.kind else { return };
    if rest.iter().all(|l| matches!(l.op, InfixOp::Separator(_))) {
        learn_range_bounds(table, first);
        rest.iter().for_each(|l| learn_range_bounds(table, &l.operand));
        return;
    }
    // The conditions of one subscript, cut at commas and at `:` (`j : |j - i| \le k`).
    let cut = |op: &InfixOp| {
        matches!(op, InfixOp::Separator(_))
            || matches!(op, InfixOp::Relation(r) if matches!(r.as_str(), ":" | "\\colon" | "\\mid"))
    };
    let mut condition: (&Node, Vec<(&InfixOp, &Node)>) = (first.as_ref(), Vec::new());
    for link in rest {
        if cut(&link.op) {
            learn_condition_bounds(table, condition.0, &condition.1);
            condition = (&link.operand, Vec::new());
        } else {
            condition.1.push((&link.op, &link.operand));
        }
    }
    learn_condition_bounds(table, condition.0, &condition.1);
}

/// One condition of [`learn_range_bounds`]: `a \le j \le b`, or `|j - i| \le k`.
fn learn_condition_bounds(table: &mut SymbolTable, first: &Node, rest: &[(&InfixOp, &Node)]) {
    let ordering = |op: &InfixOp| matches!(op, InfixOp::Relation(r) if matches!(r.as_str(), "<" | "\\le" | "\\leq" | "\\lt" | "\\leqslant"));
    let distance = matches!(&first.kind, NodeKind::Fenced { open: crate::syntax::ast::Delim::Bar, .. });
    let bounds: Vec<&Node> = match rest {
        [(a, variable), (b, last)] if ordering(a) && ordering(b) => {
            for name in index_letters(variable) {
                table.suggest(name, SymbolKind::Index);
            }
            vec![first, *last]
        }
        [(a, last)] if distance && ordering(a) => vec![*last],
        // `\sum_{j<k}`, `\sum_{t < T}`: a range open below stops at a count, when its letter is
        // one papers count with (`\sum_{j<i}` runs to a position).
        [(a, last)] if ordering(a) && is_position_letter(first) && is_count_letter(last) => {
            table.suggest(binding(last), SymbolKind::Dimension);
            return;
        }
        _ => return,
    };
    for bound in bounds {
        let bound = match &bound.kind {
            NodeKind::Prefix { operand, .. } => operand.as_ref(),
            _ => bound,
        };
        if let NodeKind::Symbol { name, font: Font::Normal } = &bound.kind {
            let small = name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase());
            // `|j - i| \le k`: a distance's bound is a width, whatever its letter.
            if (small && (distance || !INDEX_LETTERS.contains(&name.as_str()))) || looks_like_dimension(name)
            {
                table.suggest(name.to_string(), SymbolKind::Dimension);
            }
        }
    }
}

/// `j`, `t`: a small Latin letter papers use for positions.
fn is_position_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal } if INDEX_LETTERS.contains(&name.as_str()))
}

/// `k`, `n`, `T`: a letter papers count with (a small one of the counts, or a capital).
fn is_count_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal }
        if matches!(name.as_str(), "n" | "m" | "k" | "d")
            || (name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase())))
}

/// The name a letter is recorded under.
fn binding(node: &Node) -> String {
    crate::meaning::binding_name(node).unwrap_or_default()
}

/// A small Latin letter alone above a letter's name (`\mathbf{d}^c`, `p_i^c`, whether the name is
/// `indexed` below too); a step above a Latin name (`z^{k+1}`); a number above one (`z^1`).
fn note_superscript(table: &mut SymbolTable, base: &Node, indexed: bool, sup: &Node) {
    if super::superscripts::is_transpose_mark(sup) {
        table.note_transpose();
    }
    let latin_base = super::superscripts::is_latin_base(base);
    if latin_base {
        if let Some(letter) = stepped_letter(sup) {
            table.note_stepped_superscript(letter);
        }
        if let (NodeKind::Number { text, .. }, Some(name)) = (&sup.kind, crate::meaning::binding_name(base)) {
            table.note_numbered_superscript(&name, text);
        }
    }
    let NodeKind::Symbol { name: letter, font: Font::Normal } = &sup.kind else { return };
    let NodeKind::Symbol { name, font } = &base.kind else { return };
    if letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_lowercase()) {
        let bold_small = *font == Font::Bold && is_small_letter(name);
        table.note_superscript(letter, name, bold_small, indexed);
    }
}

/// A capital in the normal font written with a step below (`H_{\ell-1}`, `S_{n+1}`).
fn note_stepped_capital(table: &mut SymbolTable, base: &Node, sub: &Node) {
    let NodeKind::Symbol { name, font: Font::Normal } = &base.kind else { return };
    let capital = name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase());
    if let Some(letter) = stepped_letter(sub).filter(|_| capital) {
        table.note_stepped_capital(name, letter);
    }
}

/// `\ell_{ce}`, `L_{mse}`: a name labelled below with a word.
fn note_worded_base(table: &mut SymbolTable, base: &Node, sub: &Node) {
    let worded = letter_run(sub).is_some_and(|run| super::notation::Notation::shipped().is_word(&run));
    if let Some(name) = crate::meaning::binding_name(base).filter(|_| worded) {
        table.note_worded_base(name);
    }
}

/// The letters of a run of single letters side by side (`sl` of `\ell_{sl}`), if `sub` is one.
pub(super) fn letter_run(sub: &Node) -> Option<String> {
    let NodeKind::Chain { first, rest } = &sub.kind else { return None };
    if !rest.iter().all(|l| l.op == InfixOp::Juxt) {
        return None;
    }
    let mut run = String::new();
    for node in std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)) {
        match &node.kind {
            NodeKind::Symbol { name, font: Font::Normal | Font::Italic } if name.len() == 1 => {
                run.push_str(name)
            }
            _ => return None,
        }
    }
    Some(run)
}

/// The letter of a step from itself written above a name: `k+1`, `t-1`, `\ell+1`, `n - 2`.
pub(super) fn stepped_letter(sup: &Node) -> Option<&str> {
    let NodeKind::Chain { first, rest } = &sup.kind else { return None };
    let NodeKind::Symbol { name, .. } = &first.kind else { return None };
    let step = super::superscripts::is_step_letter(first);
    let counted = !rest.is_empty()
        && rest.iter().all(|l| {
            matches!(l.op, InfixOp::Additive(_)) && matches!(l.operand.kind, NodeKind::Number { .. })
        });
    (step && counted).then_some(name.as_str())
}

/// Single letters written as indices in a subscript: `i` in `x_i`, `i, t` in `Q_{it}`.
fn index_letters(sub: &Node) -> Vec<String> {
    let is_index_letter = |n: &Node| match &n.kind {
        NodeKind::Symbol { name, font: Font::Normal } if INDEX_LETTERS.contains(&name.as_str()) => {
            Some(name.to_string())
        }
        _ => None,
    };
    match &sub.kind {
        NodeKind::Chain { first, rest }
            if rest.iter().all(|l| l.op == InfixOp::Juxt || matches!(l.op, InfixOp::Separator(_))) =>
        {
            std::iter::once(first.as_ref())
                .chain(rest.iter().map(|l| &l.operand))
                .filter_map(is_index_letter)
                .collect()
        }
        _ => is_index_letter(sub).into_iter().collect(),
    }
}

fn looks_like_dimension(name: &str) -> bool {
    DIMENSION_LETTERS.contains(&name) || name.starts_with("d_") || name.starts_with("n_")
}

/// A lower-case Latin or Greek letter (`v`, `mu`).
pub(super) fn is_small_letter(name: &str) -> bool {
    let latin = name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase());
    latin || (crate::syntax::names::is_greek(name) && name.starts_with(|c: char| c.is_ascii_lowercase()))
}
