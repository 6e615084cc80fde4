//! Which spellings are an expectation or a probability, rather than a function applied or a
//! product: an italic `E[X]`, `E(X \mid Y)`, `E_p \log …`; a blackboard `\mathbb{P}[A]`; what
//! an expectation's subscript draws, and what such an expectation is given after its bar.

use super::resolve::{Item, Resolver};
use super::roles::Place;
use super::tree::{Evidence, Term, TermKind};
use super::SymbolKind;
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, Span};

/// Whether an operator's subscript draws each of its variables by `\sim` (`\mathbb{E}_{x \sim
/// p}`, `\mathbb{E}_{x \sim p, z \sim q}`; not `\mathbb{E}_{x, \epsilon \sim \mathcal{N}, t}`,
/// where what is drawn without `\sim` may stand inside under another name).
pub(super) fn draws_by_sampling(op: &Node) -> bool {
    let NodeKind::Scripts { sub: Some(sub), .. } = &op.kind else { return false };
    let is_sim = |n: &Node| {
        matches!(&n.kind, NodeKind::Chain { rest, .. }
            if rest.iter().any(|l| l.op == InfixOp::Relation("\\sim".into())))
    };
    match &sub.kind {
        NodeKind::Chain { first, rest } if rest.iter().all(|l| matches!(l.op, InfixOp::Separator(_))) => {
            is_sim(first) && rest.iter().all(|l| is_sim(&l.operand))
        }
        _ => is_sim(sub),
    }
}

/// `E[X]`, `E_{x \sim p}[f(x)]`, `E_{x \sim \textrm{Data}} \log D(x)`, `E(X^2)`: an italic E
/// before square brackets or braces, below which a variable is drawn, or before parentheses
/// around a capital (a random variable, as papers write them), is an expectation, as
/// `\mathbb{E}` is (`E(\mathbf{w})`, `E(x)` stay functions, an error or an energy).
pub(super) fn is_italic_expectation(item: &Node, next: &Node, notation: &super::notation::Notation) -> bool {
    let (base, sub) = match &item.kind {
        NodeKind::Scripts { base, sub, sup: None, .. } => (base.as_ref(), sub.as_deref()),
        // `E_s^{\pi}\{…\}`: a policy above, the start below.
        NodeKind::Scripts { base, sub, sup: Some(sup), .. } if names_a_law_above(base, sup) => {
            (base.as_ref(), sub.as_deref())
        }
        _ => (item, None),
    };
    let italic_e = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal } if name == "E");
    let bracket = match &next.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => next,
    };
    let bracketed = matches!(bracket.kind, NodeKind::Fenced { open: Delim::Bracket | Delim::Brace, .. });
    // `E_p \log \frac{1}{p(X)}`, `E_{q_\phi}[…]`: below it the distribution averaged over.
    let drawn =
        sub.is_some_and(|s| super::relation_sides(s, "\\sim").is_some() || names_a_density(s, notation));
    let of_capitals = matches!(&bracket.kind, NodeKind::Fenced { open: Delim::Paren, body, .. } if holds_random_capital(body));
    // `E(\log f(x \mid \phi') \mid y, \phi)`: what is averaged given a condition.
    let conditioned =
        matches!(&bracket.kind, NodeKind::Fenced { open: Delim::Paren, body, .. } if is_conditioned(body));
    // `E_\theta W(\mathbf{X})`, `E_\theta \log f(X \mid \theta)`: below it the parameter the law is
    // indexed by, and no parenthesis after it (`E_\theta(\mathbf{x})` is an energy).
    let under_a_parameter =
        sub.is_some_and(is_greek_letter) && !matches!(bracket.kind, NodeKind::Fenced { .. });
    // `\mathbf{E}[Y] = \mathbf{E}[N]\, \mathbf{E}[X]`: a bold E (some textbooks' expectation) around
    // capitals, where `\mathbf{E}[w_i]` picks a row of an embedding matrix.
    let bold_e = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Bold } if name == "E");
    let around_capitals = matches!(&bracket.kind, NodeKind::Fenced { open: Delim::Paren | Delim::Bracket, body, .. }
        if holds_random_capital(body) || is_conditioned(body));
    (italic_e && (bracketed || drawn || of_capitals || conditioned || under_a_parameter))
        || (bold_e && around_capitals)
}

/// `\mathbb{E}^{\pi}`, `E^{\pi_\theta}`: an expectation's letter with a letter above it (a policy,
/// a law), not a number (`\mathbb{E}^2` would be a power).
pub(super) fn names_a_law_above(base: &Node, sup: &Node) -> bool {
    let expectation = matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "E");
    let letter = match &sup.kind {
        NodeKind::Scripts { base, sup: None, .. } => base.as_ref(),
        _ => sup,
    };
    expectation
        && matches!(&letter.kind, NodeKind::Symbol { name, .. } if crate::syntax::names::is_greek(name) || name.len() == 1)
}

/// Whether a node is one Greek letter (`\theta`), as a subscript naming a parameter.
fn is_greek_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, .. } if crate::syntax::names::is_greek(name))
}

/// Whether a group's content is conditioned at its top level: `a \mid b` (not inside a call).
fn is_conditioned(body: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &body.kind else { return false };
    // `a \mid b, c`: the condition's list is cut at its commas first.
    if rest.iter().all(|l| matches!(l.op, InfixOp::Separator(_))) {
        return matches!(&first.kind, NodeKind::Chain { rest, .. } if rest.iter().any(|l| matches!(&l.op, InfixOp::Relation(r) if r == "\\mid")));
    }
    rest.iter().any(|l| matches!(&l.op, InfixOp::Relation(r) if r == "\\mid"))
}

/// Whether a subscript is a density's letter alone, possibly labelled (`p`, `q_\phi`, `\pi`).
fn names_a_density(sub: &Node, notation: &super::notation::Notation) -> bool {
    let base = match &sub.kind {
        NodeKind::Scripts { base, sup: None, .. } => base.as_ref(),
        _ => sub,
    };
    let small = |name: &str| !name.starts_with(|c: char| c.is_ascii_uppercase());
    matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal }
        if small(name) && super::notation::has(&notation.distribution_letters, name))
}

/// Whether a node is a parenthesised group (possibly sized, or with scripts on it).
pub(super) fn is_paren_group(node: &Node) -> bool {
    let group = match &node.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => node,
    };
    matches!(group.kind, NodeKind::Fenced { open: Delim::Paren, .. })
}

/// `\mathbb{P}[A]`, `\mathbb{P}_{x \sim \mathcal{D}}[h(x) \neq f(x)]`: a blackboard P before square
/// brackets is the probability of the event they hold, as `\Pr[…]` is (with parentheses it is
/// applied, `\mathbb{P}(A)`).
pub(super) fn is_probability_of_event(item: &Node, next: &Node) -> bool {
    let base = match &item.kind {
        NodeKind::Scripts { base, sup: None, .. } => base.as_ref(),
        _ => item,
    };
    let blackboard_p = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Blackboard } if name == "P");
    // `P\{X > s + t \mid X > t\}`, `\mathbb{P}\{f(X) \geq t\}`: a P before braces that state an
    // event (a comparison, an equation, a membership or a condition) is its probability, as
    // probability textbooks write it; braces around a list stay a set.
    let p = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Blackboard | Font::Normal | Font::Roman } if name == "P");
    let event_in_braces =
        matches!(&next.kind, NodeKind::Fenced { open: Delim::Brace, body, .. } if states_an_event(body));
    (blackboard_p && matches!(next.kind, NodeKind::Fenced { open: Delim::Bracket, .. }))
        || (p && event_in_braces)
}

/// Whether a group's body states an event: its chain compares, equates, places in a set or
/// conditions (`X > s`, `Y = 1 \mid A = 0`, `x \in A`).
fn states_an_event(body: &Node) -> bool {
    let NodeKind::Chain { rest, .. } = &body.kind else { return false };
    rest.iter().any(|link| {
        super::chains::is_comparing(&link.op)
            || super::calls::is_conditioning_bar(&link.op)
            || matches!(&link.op, InfixOp::Relation(r) if r == "=" || r == "\\in")
    })
}

/// `\mathbb{H}[y \mid x]`, `\mathbb{I}[y, \omega \mid x]`, `\mathbb{I}(X; Y)`: whether a blackboard H or
/// I (or a calligraphic H) before a bracket or a parenthesis is an entropy or a mutual information, applied to what it
/// holds as the italic `H(X)` and `I(X; Y)` are. A blackboard I around a condition
/// (`\mathbb{I}(y_i = k)`, `\mathbb{I}[x > 0]`) or around one thing (`\mathbb{I}[c_i]`) stays the
/// indicator.
pub(super) fn is_information_measure(item: &Node, next: &Node) -> bool {
    let base = match &item.kind {
        NodeKind::Scripts { base, sup: None, .. } => base.as_ref(),
        _ => item,
    };
    let NodeKind::Fenced { open: Delim::Bracket | Delim::Paren, body, .. } = &next.kind else { return false };
    let name = match &base.kind {
        NodeKind::Symbol { name, font: Font::Blackboard } => name,
        // `\mathcal{H}[Z \mid S]`, `\mathcal{H}(\pi(\cdot \mid s))`: a calligraphic H applied to a
        // letter or to a condition is an entropy (standing alone it is a hypothesis class or a
        // Hilbert space; applied to a sum, `\mathcal{H}(W x_t + b)`, a layer's function).
        NodeKind::Symbol { name, font: Font::Calligraphic }
            if name == "H" && entropy_argument(next, body) =>
        {
            name
        }
        _ => return false,
    };
    match name.as_str() {
        "H" => true,
        "I" => names_several(body) && !states_a_condition(body),
        _ => false,
    }
}

/// What a calligraphic H may be the entropy of: anything in square brackets, or in parentheses
/// a letter alone or what holds a conditioning bar (`\pi(\cdot \mid s)`), looked at within a few
/// dozen nodes.
fn entropy_argument(group: &Node, body: &Node) -> bool {
    if matches!(group.kind, NodeKind::Fenced { open: Delim::Bracket, .. }) {
        return true;
    }
    let letter = |node: &Node| matches!(node.kind, NodeKind::Symbol { .. });
    if letter(body) || matches!(&body.kind, NodeKind::Scripts { base, .. } if letter(base)) {
        return true;
    }
    let mut stack = vec![body];
    let mut seen = 0;
    while let Some(node) = stack.pop() {
        seen += 1;
        if seen > 48 {
            return false;
        }
        if let NodeKind::Chain { rest, .. } = &node.kind {
            if rest.iter().any(|link| super::calls::is_conditioning_bar(&link.op)) {
                return true;
            }
        }
        node.for_each_child(|child| stack.push(child));
    }
    false
}

/// Whether a group lists more than one thing at its top, by commas, semicolons or a
/// conditioning bar (`y, \omega \mid x`, `X; Y`): a mutual information is between variables;
/// an indicator of one thing (`\mathbb{I}[c_i]`) stays the indicator.
fn names_several(body: &Node) -> bool {
    let NodeKind::Chain { rest, .. } = &body.kind else { return false };
    rest.iter().any(|link| match &link.op {
        crate::syntax::ast::InfixOp::Separator(_) => true,
        op => super::calls::is_conditioning_bar(op),
    })
}

/// Whether a group's content is a condition: a relation other than the conditioning bar at
/// its top, or in one of its listed parts.
fn states_a_condition(body: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &body.kind else { return false };
    rest.iter().any(|link| match &link.op {
        op @ crate::syntax::ast::InfixOp::Relation(_) => !super::calls::is_conditioning_bar(op),
        crate::syntax::ast::InfixOp::Stacked(_) => true,
        _ => false,
    }) || std::iter::once(first.as_ref())
        .chain(rest.iter().map(|link| &link.operand))
        .any(|part| matches!(&part.kind, NodeKind::Chain { .. }) && states_a_condition(part))
}

/// Whether a group holds a plain capital Latin letter and nothing bold: `X`, `X^2`, `XY`,
/// `g(X)` (looked at within a few dozen nodes).
fn holds_random_capital(body: &Node) -> bool {
    let mut stack = vec![body];
    let (mut capital, mut seen) = (false, 0);
    while let Some(node) = stack.pop() {
        seen += 1;
        if seen > 48 {
            return false;
        }
        match &node.kind {
            NodeKind::Symbol { name, font: Font::Normal }
                if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()) =>
            {
                capital = true
            }
            NodeKind::Symbol { font: Font::Bold, .. } => return false,
            NodeKind::Styled { font: Font::Bold, .. } => return false,
            _ => node.for_each_child(|child| stack.push(child)),
        }
    }
    capital
}

/// `\mathbb{E}_{s' \sim \mathcal{E}}[r + \gamma Q(s', a') \mid s, a]`: what an expectation that
/// draws below it is given after its bar (the state and the action) is data, random variables as
/// in a density's condition, when only a convention named them.
pub(super) fn givens_are_random(operand: &mut Term) {
    let TermKind::Fenced { body, .. } = &mut operand.kind else { return };
    let TermKind::Chain { rest, .. } = &mut body.kind else { return };
    let is_bar = |op: &InfixOp| matches!(op, InfixOp::Relation(r) if r == "\\mid");
    let Some(bar) = rest.iter().position(|j| is_bar(j.op)) else { return };
    for joint in rest.iter_mut().skip(bar) {
        // `\mid s, a`: the list given ([`super::chains::condition_takes_the_list`]).
        match &mut joint.term.kind {
            TermKind::Chain { first, rest: items }
                if items.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) =>
            {
                given_is_random(first);
                items.iter_mut().for_each(|j| given_is_random(&mut j.term));
            }
            _ => given_is_random(&mut joint.term),
        }
    }
}

/// Makes a letter given after a bar a random variable, when only a convention named it a
/// number or a vector.
fn given_is_random(term: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    let loose = matches!(occurrence.kind, SymbolKind::Scalar | SymbolKind::Vector);
    if loose && occurrence.evidence == Evidence::Convention {
        occurrence.kind = SymbolKind::RandomVariable;
        occurrence.evidence = Evidence::Use;
    }
}

impl Resolver<'_> {
    /// `\mathbb{E}[X]^2`, `E(X)^2`: a script on an expectation's bracket is on the expectation, `(E[X])^2`
    /// (not `E[X^2]`, which the variance `E[X^2] - E[X]^2` tells apart). Not inlined: its
    /// locals would widen the frame of every operator in a tower such as `\log \log … x`.
    #[inline(never)]
    pub(super) fn scripted_expectation<'n>(
        &self,
        node: &'n Node,
        name: &'n str,
        items: &[Item<'n>],
        i: usize,
        place: Place,
        d: usize,
    ) -> Option<Term<'n>> {
        let (_, op_span, next) = items.get(i + 1).copied()?;
        let NodeKind::Scripts { base, sub: None, sup: Some(sup), primes: 0 } = &next.kind else {
            return None;
        };
        if name != "E" || !matches!(base.kind, NodeKind::Fenced { open: Delim::Bracket | Delim::Paren, .. }) {
            return None;
        }
        let bracket: Vec<Item<'n>> =
            vec![(None, Span::default(), items.get(i)?.2), (Some(&InfixOp::Juxt), op_span, base.as_ref())];
        let (expectation, _) = self.operator(node, name, &bracket, 0, place, d);
        let span = expectation.span.join(next.span);
        let script = self.group_script(sup, true, d);
        let kind = TermKind::Scripted { base: expectation.boxed(), sub: None, sup: Some(script), primes: 0 };
        Some(Term::new(kind, span, next))
    }
}

/// `\mathbb{E}_{(\mathbf{X}, \mathbf{A})}[…]`, `\mathbb{E}_{\boldsymbol{\sigma}}[…]`: what an
/// expectation's subscript names is what it averages over, so a bold letter there (a data
/// matrix, a graph, a vector of signs) is a random variable, not the array of parameters its
/// font would make it elsewhere.
pub(super) fn averaged_arrays(sub: &mut Term) {
    if let TermKind::Symbol(occurrence) = &mut sub.kind {
        let bold = super::roles::font_of(occurrence.base) == Font::Bold;
        let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
        let array = if capital { SymbolKind::Matrix } else { SymbolKind::Vector };
        if bold && occurrence.kind == array && occurrence.evidence == Evidence::Convention {
            occurrence.kind = SymbolKind::RandomVariable;
            occurrence.evidence = Evidence::Use;
        }
        return;
    }
    sub.for_each_child_mut(averaged_arrays);
}
