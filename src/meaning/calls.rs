//! Calls against products: whether a name beside a parenthesis is applied to it
//! (`f(x)`, `p(x \mid y)`, `\mathcal{N}(0, I)`) or multiplies it (`W(x + b)`), and where the
//! arguments of a call stand (under an expectation, in a probability, in a divergence), and the
//! arguments read: the condition after a bar, a divergence's pair, a density's outcome, a
//! family's parameters.

use super::agree::mean_beside_a_covariance;
use super::notation::has;
use super::positions::count_index;
use super::resolve::Resolver;
use super::roles::Place;
use super::scripts::{font_of_name, is_indicator_one, is_parameter};
use super::tree::{ScriptRole, Term};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind};
use crate::syntax::names;

impl Resolver<'_> {
    /// Whether `callee` beside `argument` is applied to it rather than multiplied.
    ///
    /// Strongest first: a declaration as something else says product; a definition, a name
    /// (`\log`, `\mathrm{softmax}`, `\operatorname{Attention}`) or a declared function says call;
    /// an argument list or a condition (`Q(s, a)`, `p(x \mid y)`) says call, as no product has
    /// one; a letter papers use for functions says call (a capital one only when the argument
    /// holds no matrix, so `Q(K+V)` stays a product); so does a letter with a parameter label
    /// (`f_\theta`), a calligraphic letter (`\mathcal{N}(0, I)`) or a distribution letter.
    pub fn is_call(&self, callee: &Node, argument: &Node) -> bool {
        let group = match &argument.kind {
            NodeKind::Scripts { base, primes: 0, .. } => base.as_ref(),
            _ => argument,
        };
        // `(\mathbf{f} \circ \mathbf{g})(\mathbf{a})`: a composition in parentheses applied to
        // what follows, as the map it makes.
        if is_composition(callee) && matches!(group.kind, NodeKind::Fenced { open: Delim::Paren, .. }) {
            return true;
        }
        // `\mathbb{1}[x > 0]`, `\mathbb{1}(y = k)`: the indicator applied to its condition.
        if is_indicator_one(callee) && matches!(group.kind, NodeKind::Fenced { .. }) {
            return true;
        }
        // `\delta(y_i = j)`: Kronecker's delta applied to an equality of labels; `\mathbf{1}(f(x)
        // \neq y)`, `I\{y_i = k\}`: a bold one or a capital I applied to a comparison is the
        // indicator.
        let delta = matches!(&callee.kind, NodeKind::Symbol { name, .. } if name == "delta");
        if let NodeKind::Fenced { open: Delim::Paren | Delim::Bracket | Delim::Brace, body, .. } = &group.kind
        {
            let relation = single_relation(body);
            let compared = relation.is_some_and(|r| {
                matches!(r, "=" | "\\neq" | "\\ne" | "<" | ">" | "\\le" | "\\leq" | "\\ge" | "\\geq" | "\\in")
            });
            let indicator =
                super::scripts::is_bold_one(callee) || super::scripts::is_indicator_letter(callee);
            if (delta && relation == Some("=")) || (indicator && compared) {
                return true;
            }
        }
        let body = match &group.kind {
            NodeKind::Fenced { open: Delim::Paren, body, .. } => body,
            // `\mathcal{D}[Q \| P]`, `\mathrm{KL}[q \| p]`: two things set against each other
            // by a double bar are a divergence's arguments, in brackets too.
            NodeKind::Fenced { open: Delim::Bracket, body, .. } if double_bar_inside(body) => body,
            // `f\left[\frac{\mathbf{g}}{\sigma} \odot (\mathbf{a} - \mu) + \mathbf{b}\right]`: a
            // letter papers use for functions before a bracketed expression (no position, which
            // would pick an entry, `h[n]`) is applied to it.
            // `x[n]`, `x[i + r \cdot k]`, `w[k]`: a letter read at positions in brackets, as
            // signal processing writes an entry.
            NodeKind::Fenced { open: Delim::Bracket, body, .. } if self.reads_at_positions(callee, body) => {
                return true
            }
            NodeKind::Fenced { open: Delim::Bracket, body, .. }
                if self.is_function_letter(callee)
                    && matches!(body.kind, NodeKind::Chain { .. })
                    && !self.is_position(body, 0) =>
            {
                body
            }
            // `\mathrm{f}[x, \boldsymbol{\phi}]`, `\mathrm{a}[z]`: a letter set upright (no unit
            // nor constant: not d, e, i) before square brackets is a function applied to them, as
            // books that write every call in brackets (Prince) set their functions.
            NodeKind::Fenced { open: Delim::Bracket, .. } if is_upright_function_letter(callee) => {
                return true
            }
            _ => return false,
        };
        let base = match &callee.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => callee,
        };
        if !self.is_name(base) && !named_in_text(base, body, self.notation) {
            return false;
        }
        // `\vec{\mathbf{a}}^T [\mathbf{W} h_i \| \mathbf{W} h_j]`: a transposed array multiplies.
        if let NodeKind::Scripts { sup: Some(sup), .. } = &callee.kind {
            if self.operation_role(sup) == ScriptRole::Transpose {
                return false;
            }
        }
        let full = super::binding_name(callee);
        let base_name = super::binding_name(base).unwrap_or_default();
        if self.is_order_letter(callee) {
            return true;
        }
        // `\epsilon_\theta(x_t, t)` beside the noise `\epsilon`: a letter labelled by parameters
        // is a network of its own, not the letter's other use.
        let parameterised = super::scripts::labelled_by_parameters(callee);
        let recorded = full
            .as_deref()
            .and_then(|f| self.table.recorded(f))
            .or_else(|| (!parameterised).then(|| self.table.recorded(&base_name)).flatten());
        // `\mathcal{N}(z_i \mid \mu_i, \sigma^2)` under `\prod_{i=1}^{N}`: what the plain letter
        // counts says nothing of a curly name (no count is written in a curly font).
        let curly = matches!(&base.kind, NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. });
        let recorded = recorded
            .filter(|k| !(curly && matches!(k, super::SymbolKind::Dimension | super::SymbolKind::Index)));
        let positions = || super::list_items(body).iter().all(|item| self.is_position(item, 1));
        // `\hat{M}_c(x) = \frac{1}{n} \sum M_c(x + \delta_i)`: the letter whose decorated form the
        // formula defines as a function (a smoothed, an estimated one) is a function too.
        if recorded.is_none() && full.as_deref().is_some_and(|name| self.decorates_a_function(name)) {
            return true;
        }
        match recorded {
            Some(super::SymbolKind::Function | super::SymbolKind::Distribution) => return true,
            // `X(i, j)` of a bound matrix: read at positions.
            Some(super::SymbolKind::Matrix | super::SymbolKind::Vector) if positions() => return true,
            Some(_)
                if self.table.is_declared(full.as_deref().unwrap_or(&base_name))
                    || self.table.is_declared(&base_name) =>
            {
                return false
            }
            Some(super::SymbolKind::Vector | super::SymbolKind::Dimension | super::SymbolKind::Index) => {
                return false
            }
            _ => {}
        }
        if matches!(base.kind, NodeKind::Word { .. }) {
            return true;
        }
        // `p^k (1-p)^{n-k}`: a letter raised to a power multiplies what follows; a Greek letter
        // above names (`V^\pi(s)`, the value under the policy π).
        if let NodeKind::Scripts { base, sup: Some(sup), .. } = &callee.kind {
            let greek = matches!(&sup.kind, NodeKind::Symbol { name, .. } if names::is_greek(name));
            // `\sigma_\theta^2(\mathbf{x})`: a variance squared by name, of one input, is a
            // variance that depends on it.
            let variance = is_squared_variance(base, sup, self.notation) && is_one_symbol(body);
            // Nothing multiplies a conditioning bar: `\mathcal{P}_1^{w}(y \mid x)` is applied.
            if self.sup_role(base, sup) == ScriptRole::Power
                && !greek
                && !variance
                && !is_argument_list(body)
                && !condition_inside(body)
            {
                return false;
            }
        }
        if font_of_name(base) == Font::Bold && self.is_position(body, 0) {
            // `\mathbf{x}(t)`: a bold vector at a step.
            return true;
        }
        // `r_t(\theta)`, `J(\theta)`, `\ell(\phi)`: nobody multiplies by a parameter vector in
        // parentheses; a letter before one is a function of the parameters.
        // `v_\pi(s)`, `V(s_t)`: a value function of a state.
        if has(&self.notation.value_functions, &base_name) && self.holds_state(body) {
            return true;
        }
        // `\lambda_{\max}(\sum_k \mathbf{X}_k)`, `\sigma_{\min}(A + E)`: a spectral letter named
        // below applied to a matrix expression is a value of its spectrum, as on one matrix.
        let scripted = matches!(callee.kind, NodeKind::Scripts { sub: Some(_), .. });
        if self.notation.names_a_spectral_value(&base_name, scripted) && holds_a_capital(body) {
            return true;
        }
        let list = is_argument_list(body) || condition_inside(body) || is_parameter_argument(body);
        if list {
            return true;
        }
        let letter = base_name.as_str();
        let capital = letter.starts_with(|c: char| c.is_ascii_uppercase());
        if self.applied_to_one_symbol(base, body, capital) {
            return true;
        }
        let calligraphic =
            matches!(&base.kind, NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. });
        let parameter_label = match &callee.kind {
            NodeKind::Scripts { sub: Some(sub), .. } => is_parameter(sub),
            // `x_i W^Q (x_j W^K)^\top`: a weight capital labelled above is a matrix that multiplies
            // (`L^{\mathrm{CLIP}}(\theta)` is applied).
            NodeKind::Scripts { base, sup: Some(sup), .. } => {
                self.sup_role(base, sup) == ScriptRole::Label && !has(&self.notation.weight_capitals, letter)
            }
            _ => false,
        };
        let primed = matches!(&callee.kind, NodeKind::Scripts { primes, .. } if *primes > 0);
        let function_letter =
            has(&self.notation.function_letters, letter) || has(&self.notation.distribution_letters, letter);
        if calligraphic || parameter_label || primed {
            return true;
        }
        // `(\mathbf{x}-\mathbf{x}_0)^\top \boldsymbol{H} (\mathbf{x}-\mathbf{x}_0)`: a bold capital before a
        // sum or a difference is a matrix multiplying it (`\mathbf{F}_{sq}(\mathbf{u}_c)` of one
        // symbol stays a function).
        let summed = matches!(&body.kind, NodeKind::Chain { rest, .. } if rest.iter().all(|l| matches!(l.op, InfixOp::Additive(_))));
        if capital && font_of_name(base) == Font::Bold && summed {
            return false;
        }
        // `P_k^{-1}(x - x_k)`, `H^{-1}(x - y)`: a capital's inverse before a sum or a difference of
        // letters is a matrix inverse multiplying it; an inverse function is applied to a value
        // (`\Phi^{-1}(1 - \alpha)`, a number in it, or `F^{-1}(u)`).
        if capital && summed && self.is_inverse(callee) && !holds_a_number_term(body) {
            return false;
        }
        // `P(A \cap B)`: what set algebra makes is a set, which a letter is applied to, never
        // multiplies.
        let set_algebra = matches!(&body.kind, NodeKind::Chain { rest, .. }
            if !rest.is_empty() && rest.iter().all(|l| super::sets::is_set_operator(&l.op)));
        if function_letter && set_algebra {
            return true;
        }
        function_letter && (!capital || !self.holds_matrix(body)) && !adds_itself(callee, body)
    }

    /// Whether `callee` is a letter raised to its inverse (`P_k^{-1}`).
    fn is_inverse(&self, callee: &Node) -> bool {
        matches!(&callee.kind, NodeKind::Scripts { base, sup: Some(sup), .. }
            if self.sup_role(base, sup) == ScriptRole::Inverse)
    }

    /// Whether a decorated form of `name` (`hat_M_c` of `M_c`) is recorded as a function.
    fn decorates_a_function(&self, name: &str) -> bool {
        ["hat", "tilde", "bar", "widehat", "widetilde", "overline"].iter().any(|accent| {
            self.table.recorded(&compact_str::format_compact!("{accent}_{name}"))
                == Some(super::SymbolKind::Function)
        })
    }

    /// `\mu(s)`, `z_q(x)`, `B_{\mathrm{crit}}(L)`, `m(x^{(1)})`: nobody puts one symbol alone in
    /// parentheses to multiply by it, so a letter in the normal font before one is applied to it.
    /// A position in the parentheses is no exception: `\alpha(t)`, `c_{\mathrm{skip}}(t)` are
    /// functions of t, and `w_t(i)`, `s_j(t)` arrays read there (`applied` settles which). Not a
    /// bold array (`\mathbf{x}(t)` is read at a step elsewhere), nor a capital before a matrix
    /// (`W(\mathbf{X})` multiplies) or a weight capital before a vector (`W(\mathbf{x})`).
    fn applied_to_one_symbol(&self, base: &Node, body: &Node, capital: bool) -> bool {
        let symbol = match &body.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => body,
        };
        let plain_callee = matches!(&base.kind, NodeKind::Symbol { font: Font::Normal, .. })
            || matches!(&base.kind, NodeKind::Accent { body, .. } if matches!(body.kind, NodeKind::Symbol { font: Font::Normal, .. }));
        // `T(\mathbf{x})`, `G(\mathbf{z})`: a capital before one bold small letter is a function of
        // the vector; a weight capital there (`W(\mathbf{x})`) still multiplies it.
        let bold = font_of_name(symbol) == Font::Bold;
        let vector = bold
            && super::scripts::base_letter(symbol)
                .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_lowercase()));
        let weights =
            super::scripts::base_letter(base).is_some_and(|l| has(&self.notation.weight_capitals, l));
        let array = (bold && (!vector || weights))
            || matches!(self.table.recorded_for(symbol), Some(super::SymbolKind::Matrix));
        plain_callee && self.is_name(symbol) && !(capital && array)
    }

    /// Whether an argument group is a state: a state letter, primed or with scripts (`s`, `s_t`).
    fn holds_state(&self, body: &Node) -> bool {
        let base = match &body.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => body,
        };
        matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal } if has(&self.notation.state_letters, name))
    }

    /// Whether an argument group holds a symbol that papers' conventions make a matrix.
    fn holds_matrix(&self, body: &Node) -> bool {
        any_node(body, |node| match &node.kind {
            NodeKind::Symbol { name, font: Font::Normal | Font::Bold }
                if name.len() == 1
                    && name.starts_with(|c: char| c.is_ascii_uppercase())
                    && !has(&self.notation.random_capitals, name) =>
            {
                true
            }
            NodeKind::Symbol { name, .. } => self.table.recorded(name) == Some(super::SymbolKind::Matrix),
            _ => false,
        })
    }

    /// Whether `callee[body]` reads a lone Latin letter at positions: every item of the bracket a
    /// position written with letters and numbers (`n - 1`, `i + r \cdot k`), one holding a
    /// letter papers index with.
    fn reads_at_positions(&self, callee: &Node, body: &Node) -> bool {
        let letter = matches!(&callee.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Bold }
            if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_alphabetic()));
        let items = super::list_items(body);
        letter
            && items
                .iter()
                .all(|item| self.is_position_expression(item, 0) && self.holds_position_letter(item, 0))
    }

    /// Whether a node is written with plain letters and numbers joined by `+`, `-`, `\cdot`,
    /// `\times` or side by side.
    pub(super) fn is_position_expression(&self, node: &Node, depth: usize) -> bool {
        match &node.kind {
            _ if depth > 8 => false,
            NodeKind::Symbol { name, font: Font::Normal } => name.len() == 1,
            NodeKind::Number { .. } => true,
            NodeKind::Chain { first, rest } => {
                rest.iter().all(|l| {
                    matches!(&l.op, InfixOp::Additive(_) | InfixOp::Juxt)
                        || matches!(&l.op, InfixOp::Multiplicative(op) if op == "\\cdot" || op == "\\times")
                }) && std::iter::once(first.as_ref())
                    .chain(rest.iter().map(|l| &l.operand))
                    .all(|n| self.is_position_expression(n, depth + 1))
            }
            NodeKind::Fenced { open: Delim::Paren, body, .. } => self.is_position_expression(body, depth + 1),
            _ => false,
        }
    }

    /// Whether a position expression holds a letter papers index with (`i`, `n`, `k`).
    pub(super) fn holds_position_letter(&self, node: &Node, depth: usize) -> bool {
        match &node.kind {
            _ if depth > 8 => false,
            NodeKind::Symbol { .. } => self.is_position(node, 0),
            NodeKind::Chain { first, rest } => std::iter::once(first.as_ref())
                .chain(rest.iter().map(|l| &l.operand))
                .any(|n| self.holds_position_letter(n, depth + 1)),
            NodeKind::Fenced { body, .. } => self.holds_position_letter(body, depth + 1),
            _ => false,
        }
    }

    /// Whether a callee is a lone letter in the normal font that papers use for functions (`f`,
    /// `g`, `\sigma`, `\phi`), not a capital.
    fn is_function_letter(&self, callee: &Node) -> bool {
        matches!(&callee.kind, NodeKind::Symbol { name, font: Font::Normal }
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) && has(&self.notation.function_letters, name))
    }

    /// Whether a name is the order of growth's letter, `O` of `O(n^2 d)`, in the normal font and
    /// without scripts (`O^{ML}` is an objective).
    pub(super) fn is_order_letter(&self, base: &Node) -> bool {
        matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal } if has(&self.notation.order_letters, name))
    }

    /// Where the arguments of `callee` stand: under an expectation or entropy (random
    /// variables), in a probability (events), in a divergence (distributions), in an order of
    /// growth (sizes). `body`, what the parentheses hold, tells a divergence's letter applied to
    /// two distributions (`D(P \| Q)`) from the same letter applied to anything else.
    pub(super) fn argument_place(&self, callee: &Node, body: &Node) -> Place {
        let (base, sub) = match &callee.kind {
            NodeKind::Scripts { base, sub, .. } => (base.as_ref(), sub.as_deref()),
            _ => (callee, None),
        };
        // `O(o \mid s)`: a letter applied to a condition is a law (an observation model), no
        // order of growth.
        if self.is_order_letter(callee) && !holds_condition(body) {
            return Place::Order;
        }
        let name = super::binding_name(base).unwrap_or_default();
        let divergence_sub =
            sub.and_then(super::subscript_name).is_some_and(|s| has(&self.notation.divergences, &s));
        let divergence_letter = matches!(base.kind, NodeKind::Symbol { font: Font::Normal, .. })
            && has(&self.notation.divergence_letters, &name)
            && double_bar_inside(body);
        if divergence_sub
            || divergence_letter
            || (matches!(base.kind, NodeKind::Word { .. }) && has(&self.notation.divergences, &name))
        {
            return Place::Distribution;
        }
        let plain_letter =
            matches!(base.kind, NodeKind::Symbol { font: Font::Normal | Font::Roman | Font::Blackboard, .. });
        let word = matches!(base.kind, NodeKind::Word { .. });
        // `p \in P(i)`: a function that gives a set takes a plain argument, not an event.
        if !word && self.table.is_set_valued(&name) {
            return Place::Plain;
        }
        let spectral = self.notation.names_a_spectral_value(&name, sub.is_some());
        if spectral || (word && has(&self.notation.matrix_functions, &name)) {
            return Place::MatrixOperand;
        }
        match name.as_str() {
            "P" | "Pr" if plain_letter || word => Place::Event,
            // `E(\mathbf{w})`: an italic E with parentheses is an error or energy function (an
            // expectation is `\mathbb{E}`, `\mathrm{E}` or `E[…]`).
            "E" if matches!(base.kind, NodeKind::Symbol { font: Font::Normal, .. }) => Place::Plain,
            _ if (word || plain_letter)
                && has(&self.notation.random_variable_operators, &name)
                && sub.is_none_or(names_a_variant) =>
            {
                Place::Random
            }
            _ => Place::Plain,
        }
    }
}

/// Whether a single capital Latin letter, plain or bold, stands anywhere in `body` (what a
/// spectral letter takes is a matrix, the letters papers use for random variables too).
pub(super) fn holds_a_capital(body: &Node) -> bool {
    any_node(body, |node| {
        matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Bold }
            if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()))
    })
}

/// Whether a node of `body` is `found`, the walk given up (false) past 4,096 nodes waiting.
fn any_node(body: &Node, found: impl Fn(&Node) -> bool) -> bool {
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        if found(node) {
            return true;
        }
        node.for_each_child(|c| stack.push(c));
        if stack.len() > 4_096 {
            return false;
        }
    }
    false
}

/// `H_\alpha(X)`, `I_\Theta(X; Z)`, `H_\infty`: a Greek or capital letter below an information
/// measure names which variant (Rényi's order, a family of critics), where a small Latin letter
/// (`H_t`, `I_m`) picks one of several functions.
fn names_a_variant(sub: &Node) -> bool {
    match &sub.kind {
        NodeKind::Symbol { name, .. } => {
            name == "infty" || name.starts_with(|c: char| c.is_ascii_uppercase()) || names::is_greek(name)
        }
        _ => false,
    }
}

/// Whether an argument is the parameters alone: `\theta`, `\theta_{\mathrm{old}}`, `\phi'`.
/// `\phi_t (\phi_t - \gamma \phi_{t+1})^\top`: parentheses that add or subtract the letter
/// itself, with the same scripts, hold a value of it, so the letter before them is that value
/// multiplying, not a function applied to its own output.
fn adds_itself(callee: &Node, body: &Node) -> bool {
    let Some(name) = super::binding_name(callee) else { return false };
    let NodeKind::Chain { first, rest } = &body.kind else { return false };
    if !rest.iter().all(|link| matches!(link.op, InfixOp::Additive(_))) {
        return false;
    }
    std::iter::once(first.as_ref())
        .chain(rest.iter().map(|link| &link.operand))
        .any(|operand| super::binding_name(operand).as_deref() == Some(name.as_str()))
}

/// `(\theta)`, `(\phi^*)`: what parentheses hold is the parameters alone.
pub(super) fn is_parameter_argument(body: &Node) -> bool {
    match &body.kind {
        NodeKind::Symbol { .. } => is_parameter(body),
        NodeKind::Scripts { base, sup: None, .. } => is_parameter_argument(base),
        NodeKind::Scripts { base, sup: Some(sup), .. } => {
            matches!(&sup.kind, NodeKind::Symbol { name, .. } if name == "*") && is_parameter_argument(base)
        }
        _ => false,
    }
}

/// Whether a group's body holds a conditioning bar at its top level (`y \mid x`, `y \mid x, z`).
pub(super) fn holds_condition(body: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &body.kind else { return false };
    rest.iter().any(|l| is_conditioning_bar(&l.op))
        || matches!(&first.kind, NodeKind::Chain { rest, .. } if rest.iter().any(|l| is_conditioning_bar(&l.op)))
}

/// Whether a group's content holds a condition `a \mid b` at its top level.
fn condition_inside(body: &Node) -> bool {
    let NodeKind::Chain { rest, .. } = &body.kind else { return false };
    rest.iter().any(|l| is_conditioning_bar(&l.op) || is_double_bar(&l.op))
}

/// Whether a relation is the double bar that sets two laws against each other (`P \parallel Q`,
/// `P \| Q`).
pub(super) fn is_double_bar(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r) if r == "\\parallel" || r == "\\|")
}

/// Whether a relation is the conditioning bar, however it is written (`\mid`, `|`, `\vert`).
pub fn is_conditioning_bar(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r) if r == "\\mid" || r == "|" || r == "\\vert")
}

/// `\textrm{Binomial}(n, p)`, `\textrm{leaky ReLU}(x)`: a name written in text right before a
/// parenthesis is applied to it (a letter alone only to a list of arguments), though text words
/// are prose elsewhere (`\text{for all } x`, `\text{and}(a + b)`).
fn named_in_text(base: &Node, body: &Node, notation: &super::notation::Notation) -> bool {
    let NodeKind::Word { style: crate::syntax::ast::WordStyle::Text, text } = &base.kind else {
        return false;
    };
    let name = !text.is_empty()
        && text.trim() == text.as_str()
        && text.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-')
        && !super::prose::is_connectives(text, notation);
    name && (text.chars().count() >= 2 || is_argument_list(body))
}

/// `\mathrm{f}`, `\mathrm{a}`, `\mathbf{ReLU}`'s single-letter kin: one Latin letter set upright, other
/// than the differential's d, Euler's e, the imaginary i and an expectation's E.
fn is_upright_function_letter(callee: &Node) -> bool {
    let base = match &callee.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => callee,
    };
    matches!(&base.kind, NodeKind::Symbol { name, font: Font::Roman }
        if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_alphabetic()) && !matches!(name.as_str(), "d" | "e" | "i" | "E"))
}

/// `\sigma^2`: a letter of `variance_letters` squared.
fn is_squared_variance(base: &Node, sup: &Node, notation: &super::notation::Notation) -> bool {
    let squared = matches!(&sup.kind, NodeKind::Number { text, .. } if text == "2");
    squared && super::binding_name(base).is_some_and(|name| has(&notation.variance_letters, &name))
}

/// Whether a group holds one symbol, a letter with its scripts (`\mathbf{x}`, `x_i`).
fn is_one_symbol(body: &Node) -> bool {
    let letter = match &body.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => body,
    };
    matches!(letter.kind, NodeKind::Symbol { .. } | NodeKind::Styled { .. })
}

/// Whether a group's content is a list of several things (`s, a`, `n, p`): no product has one.
pub(super) fn is_argument_list(body: &Node) -> bool {
    matches!(&body.kind, NodeKind::Chain { rest, .. } if rest.iter().any(|l| matches!(l.op, InfixOp::Separator(_))))
}

/// Whether a node is maps composed in parentheses: `(g \circ f)`, every joint a `\circ`.
fn is_composition(node: &Node) -> bool {
    let NodeKind::Fenced { open: Delim::Paren, body, .. } = &node.kind else { return false };
    let NodeKind::Chain { rest, .. } = &body.kind else { return false };
    !rest.is_empty() && rest.iter().all(|l| matches!(&l.op, InfixOp::Multiplicative(op) if op == "\\circ"))
}

/// Whether a group's content sets two things apart with a double bar (`P \| Q`).
fn double_bar_inside(body: &Node) -> bool {
    let NodeKind::Chain { rest, .. } = &body.kind else { return false };
    rest.iter().any(|l| is_double_bar(&l.op))
}

impl Resolver<'_> {
    /// `Y|X` of `P_{Y|X}`, `z \mid x`: a script holding a condition between things other than
    /// positions (DeBERTa's `P_{i|j}` is the position of i relative to j, no condition).
    pub(super) fn names_a_condition(&self, node: &Node) -> bool {
        let NodeKind::Chain { first, rest } = &node.kind else { return false };
        let sides = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
        super::calls::holds_condition(node) && !sides.into_iter().all(|side| self.is_index_letter(side))
    }

    /// The arguments of a call, and the condition after `\mid` (or `|`); `outcomes` when the
    /// callee is a density or a variance, whose arguments are its outcomes.
    pub(super) fn arguments<'n>(
        &self,
        body: &'n Node,
        (place, outcomes): (Place, bool),
        given_place: Place,
        d: usize,
    ) -> (Vec<Term<'n>>, Vec<Term<'n>>, Option<&'n str>) {
        let mut args = Vec::new();
        let mut given = Vec::new();
        let mut bar = None;
        let mut after_dots = false;
        // `\pi(s_t; \theta')`, `I(Z, Y; \theta)`: what a semicolon sets apart are parameters.
        let semicolon = matches!(&body.kind, NodeKind::Chain { rest, .. }
            if rest.iter().any(|l| matches!(&l.op, InfixOp::Separator(s) if s == ";")));
        let outcome = |item: &Node| if semicolon || !outcomes { place } else { outcome_place(item, place) };
        let given_place = |item: &Node| if outcomes { data_place(item, given_place) } else { given_place };
        for item in super::list_items(body) {
            if bar.is_some() {
                given.push(self.term(item, given_place(item), d));
                continue;
            }
            if std::mem::replace(&mut after_dots, matches!(item.kind, NodeKind::Dots { .. })) {
                let mut term = self.term(item, place, d);
                count_index(&mut term);
                args.push(term);
                continue;
            }
            // `D(P_{Y|X} \| Q_{Y|X} | P_X)`: a conditional divergence, averaged over the law after
            // the bar.
            if let Some((p, q, relation, law)) =
                conditional_divergence(item).filter(|_| place == Place::Distribution)
            {
                args.push(self.term(p, place, d));
                args.push(self.term(q, place, d));
                given.push(self.term(law, place, d));
                bar = Some(relation);
                continue;
            }
            if let Some((p, q)) = divergence_pair(item, place == Place::Distribution) {
                // `D_{\mathrm{KL}}(P \parallel Q)`: two arguments, of and from.
                args.push(self.term(p, place, d));
                args.push(self.term(q, place, d));
                continue;
            }
            match condition(item) {
                Some((event, relation, cond)) => {
                    args.push(self.term(event, outcome(event), d));
                    given.push(self.term(cond, given_place(cond), d));
                    bar = Some(relation);
                }
                // `P(Y = 1 \mid X = x)`: events on both sides of the bar.
                None => match self.split_at_bar(item, (outcome(item), given_place(item)), d) {
                    Some((event, relation, cond)) => {
                        args.push(event);
                        given.push(cond);
                        bar = Some(relation);
                    }
                    None => args.push(self.term(item, outcome(item), d)),
                },
            }
        }
        (args, given, bar)
    }

    /// The arguments of a distribution family (`\mathcal{N}`, `\mathrm{Bern}`): its parameters,
    /// after the outcome when one is written first (`\mathcal{N}(x \mid \mu, \sigma^2)`,
    /// `\mathcal{N}(x; \mu, \Sigma)`), which alone is a random variable: in `h(\mathcal{N}(\mu,
    /// K))` K is a covariance matrix, not a random variable.
    pub(super) fn family_arguments<'n>(
        &self,
        body: &'n Node,
        d: usize,
    ) -> (Vec<Term<'n>>, Vec<Term<'n>>, Option<&'n str>) {
        let outcome_first = matches!(&body.kind, NodeKind::Chain { rest, .. }
            if matches!(rest.first().map(|l| &l.op), Some(InfixOp::Separator(s)) if s == ";"));
        let items = super::list_items(body);
        let conditioned = items.iter().any(|item| condition(item).is_some());
        // Before a bar every argument is the outcome; before `;` only the first is.
        let arg_place = if conditioned { Place::Random } else { Place::Plain };
        let (mut args, mut given, bar) = self.arguments(body, (arg_place, true), Place::Plain, d);
        if outcome_first && !conditioned {
            if let (Some(first), Some(node)) = (args.first_mut(), items.first()) {
                *first = self.term(node, Place::Random, d);
            }
        }
        let parameters = match (bar.is_some(), outcome_first) {
            (true, _) => &mut given[..],
            (false, true) => args.get_mut(1..).unwrap_or_default(),
            (false, false) => &mut args[..],
        };
        mean_beside_a_covariance(parameters);
        (args, given, bar)
    }
}

/// `p(\theta \mid \mathcal{D})`, `p(\mathcal{D} \mid \mathbf{w})`: a curly capital a density or
/// a variance takes, as its outcome or its condition, is the data (a set of samples), not a
/// distribution (no density is of a distribution): read it as it would be read elsewhere.
fn data_place(item: &Node, place: Place) -> Place {
    let curly = match &item.kind {
        NodeKind::Symbol { font, .. } => matches!(font, Font::Calligraphic | Font::Script),
        NodeKind::Scripts { base, .. } => {
            matches!(&base.kind, NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. })
        }
        _ => false,
    };
    if curly && place == Place::Random {
        Place::Plain
    } else {
        place
    }
}

/// Where an argument of a density or a variance stands (`place`, random there): a Greek letter
/// or a bold capital, a parameter's spelling elsewhere, is the outcome here (`p(\theta \mid
/// \mathcal{D})`, `q(\mathbf{Z} \mid \mathbf{X})`), a random variable.
fn outcome_place(item: &Node, place: Place) -> Place {
    if place != Place::Random {
        return place;
    }
    if data_place(item, place) != place {
        return Place::Plain;
    }
    let spelled_as_parameter = match &item.kind {
        NodeKind::Symbol { name, font: Font::Normal } => crate::syntax::names::is_greek(name),
        NodeKind::Symbol { name, font: Font::Bold } => name.starts_with(|c: char| c.is_ascii_uppercase()),
        NodeKind::Scripts { base, .. } => return outcome_place(base, place),
        _ => false,
    };
    if spelled_as_parameter {
        Place::Outcome
    } else {
        place
    }
}

/// `event \mid condition` (or `|`): the event, the bar as written, the condition.
fn condition(item: &Node) -> Option<(&Node, &str, &Node)> {
    let NodeKind::Chain { first, rest } = &item.kind else { return None };
    match rest.as_slice() {
        [link] => match &link.op {
            InfixOp::Relation(r) if is_conditioning_bar(&link.op) => {
                Some((first.as_ref(), r.as_str(), &link.operand))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `P_{Y|X} \| Q_{Y|X} | P_X`: the two conditional laws of a conditional divergence, and the law
/// of what they are conditioned on, after the bar.
fn conditional_divergence(item: &Node) -> Option<(&Node, &Node, &str, &Node)> {
    let NodeKind::Chain { first, rest } = &item.kind else { return None };
    match rest.as_slice() {
        [pair, given] if is_double_bar(&pair.op) => match &given.op {
            InfixOp::Relation(r) if is_conditioning_bar(&given.op) => {
                Some((first.as_ref(), &pair.operand, r.as_str(), &given.operand))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `P \parallel Q`: the two distributions of a divergence; in one (`in_divergence`), a single
/// bar sets them apart too (`\mathrm{KL}(\pi | \pi^{2n})`), no condition.
fn divergence_pair(item: &Node, in_divergence: bool) -> Option<(&Node, &Node)> {
    let NodeKind::Chain { first, rest } = &item.kind else { return None };
    match rest.as_slice() {
        [link]
            if matches!(&link.op, InfixOp::Relation(r) if r == "\\parallel")
                || (in_divergence && is_conditioning_bar(&link.op)) =>
        {
            Some((first.as_ref(), &link.operand))
        }
        _ => None,
    }
}

/// The relation of a chain of two sides (`y_i = j`, `f(x) \neq y`), if `node` is one.
fn single_relation(node: &Node) -> Option<&str> {
    match &node.kind {
        NodeKind::Chain { rest, .. } => match rest.as_slice() {
            [link] => match &link.op {
                InfixOp::Relation(r) => Some(r.as_str()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Whether a chain of sums holds a number among its terms (`1 - \alpha`).
fn holds_a_number_term(body: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &body.kind else {
        return false;
    };
    std::iter::once(first.as_ref())
        .chain(rest.iter().map(|link| &link.operand))
        .any(|term| matches!(term.kind, NodeKind::Number { .. }))
}
