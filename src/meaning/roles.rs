//! What each symbol occurrence is, and the evidence that decided it, strongest first:
//! a declaration, then how the formula uses it here, then a known name, then the conventions
//! of papers (`data/notation.toml`).

use super::notation::has;
use super::resolve::Resolver;
use super::tree::{Evidence, Occurrence, ScriptRole};
use super::SymbolKind;
use crate::syntax::ast::{Font, InfixOp, Node, NodeKind, WordStyle};
use crate::syntax::names;

/// Where an occurrence stands, as far as its kind is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Nothing in particular.
    Plain,
    /// Applied to arguments.
    Callee,
    /// Under an expectation, a variance, an entropy, a mutual information; left of `\sim`.
    Random,
    /// A Greek letter or a bold capital that a density takes before its conditioning bar
    /// (`p(\theta \mid \mathcal{D})`, `\mathrm{Beta}(\theta \mid a, b)`, `q(\mathbf{Z})`): the
    /// outcome, a random variable, not a parameter.
    Outcome,
    /// Inside a probability `P(…)`, `\Pr(…)`: an event.
    Event,
    /// Compared by a divergence, or right of `\sim`: a distribution.
    Distribution,
    /// The variable a sum or a maximum runs over.
    Bound,
    /// The variable a sum or a product counts from a lower limit (`\sum_{\tau=1}^{t}`): a
    /// position, whatever its letter.
    Counter,
    /// A count: a sum's upper limit, the N of `\frac{1}{N}`.
    Count,
    /// Under a square root.
    Radicand,
    /// A letter alone below a fraction bar or after `/`: no matrix divides.
    Divisor,
    /// Inside an index subscript.
    Index,
    /// Right of `\in`, `\notin`, `\subset`: what holds members (`(a, b) \in S`, `v \in V`).
    Container,
    /// Inside an order of growth, `O(n^2 d)`: the letters are sizes.
    Order,
    /// What a trace, a determinant or a spectral letter takes (`\det(B)`, `\lambda_i(B)`): a
    /// capital there is a matrix, whatever size papers give its letter elsewhere.
    MatrixOperand,
    /// What an integral's `d` takes (`dx`, `dA`, `dP`): the variable integrated over, an
    /// element of area or volume, or the distribution integrated against.
    Differential,
}

impl Resolver<'_> {
    /// The kind of an occurrence at `place`, and why.
    pub(super) fn decide(&self, occurrence: &Occurrence, place: Place) -> (SymbolKind, Evidence) {
        // `\mathcal{N}(\mathbf{z}_i \mid …)` beside `\prod_{i=1}^{N}`: a family of distributions
        // applied in its own font is that family, whatever the plain letter of its name counts.
        if place == Place::Callee && self.is_distribution_family(occurrence) {
            return (SymbolKind::Distribution, Evidence::Use);
        }
        if let Some(found) = self.recorded_kind(occurrence, true) {
            return found;
        }
        if let Some(kind) = self.kind_at_place(occurrence, place) {
            return (kind, Evidence::Use);
        }
        if let Some(found) = self.recorded_kind(occurrence, false) {
            return found;
        }
        if let Some(kind) = self.known_name(occurrence.base) {
            return (kind, Evidence::Known);
        }
        (self.convention(occurrence), Evidence::Convention)
    }

    /// What the document recorded for the name (declared, or only used, as asked).
    pub(super) fn recorded_kind(
        &self,
        occurrence: &Occurrence,
        declared: bool,
    ) -> Option<(SymbolKind, Evidence)> {
        if self.table.is_empty() {
            return None;
        }
        let names = [occurrence.name.as_str(), occurrence.base_name.as_str()];
        for (i, name) in names.into_iter().enumerate() {
            if self.table.is_declared(name) != declared {
                continue;
            }
            let Some(kind) = self.table.recorded(name) else { continue };
            // `\mathbf{q}_i^\top \mathbf{k}_j` beside `\sum_{k=j}^{i}`: a bold letter shares its
            // binding name with the plain one, never its being a position or a count.
            if matches!(kind, SymbolKind::Index | SymbolKind::Dimension)
                && font_of(occurrence.base) == Font::Bold
            {
                continue;
            }
            let evidence = if declared { Evidence::Declared } else { Evidence::Use };
            // The base's kind, stepped down by the indices that pick from it; a word names a
            // family whose members are of its kind (`\mathrm{head}_1`).
            let word = matches!(occurrence.base.kind, NodeKind::Word { .. });
            let kind = if i == 1 && occurrence.name != occurrence.base_name && !word {
                self.picked(kind, occurrence)
            } else {
                kind
            };
            // `T_0 = 1` beside `T_k(x) = …`: a family of functions has members at numbers too.
            let member = kind == SymbolKind::Function && occurrence.scripts.iter().all(|s| !s.above);
            if i == 1
                && !declared
                && occurrence.name != occurrence.base_name
                && !occurrence.indexed
                && !member
            {
                continue;
            }
            return Some((kind, evidence));
        }
        None
    }

    /// The kind of an entry picked from a base of `kind` by the occurrence's indices.
    fn picked(&self, kind: SymbolKind, occurrence: &Occurrence) -> SymbolKind {
        // `x_j^{(i)}` of the matrix x: the sample above picks a row, as an index below would.
        let samples = occurrence.scripts.iter().filter(|s| s.above && s.role == ScriptRole::Layer).count();
        let indices = index_count(occurrence) + samples;
        match (kind, indices) {
            (_, 0) => kind,
            (SymbolKind::Matrix, 1) => SymbolKind::Vector,
            (SymbolKind::Matrix | SymbolKind::Vector, _) => SymbolKind::Scalar,
            (SymbolKind::Dimension | SymbolKind::Index, _) => SymbolKind::Scalar,
            (kind, _) => kind,
        }
    }

    /// What the place says.
    /// Whether an occurrence under an expectation or an entropy is a distribution by its
    /// letter (`p`, `q`, `\pi`), standing alone, named by a label (`p_{\text{data}}`) or
    /// numbered (`p_1`).
    fn names_a_distribution(&self, occurrence: &Occurrence) -> bool {
        let named = occurrence.scripts.iter().all(|s| {
            !s.above && (s.role == ScriptRole::Label || matches!(s.term.kind, super::tree::TermKind::Number))
        });
        let letter = occurrence.base_name.as_str();
        // `\pi_1 p_1 + \pi_2 p_2`: a numbered Greek letter is more often a weight.
        let latin = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_alphabetic());
        named && (occurrence.scripts.is_empty() || latin) && has(&self.notation.distribution_letters, letter)
    }

    /// `P_{Y|X}`, `p_{z \mid x}`: a letter papers use for laws with a condition below it.
    fn is_conditional_law(&self, occurrence: &Occurrence) -> bool {
        let conditioned = occurrence.scripts.iter().any(|s| !s.above && self.names_a_condition(s.term.node));
        conditioned && has(&self.notation.distribution_letters, occurrence.base_name.as_str())
    }

    fn kind_at_place(&self, occurrence: &Occurrence, place: Place) -> Option<SymbolKind> {
        let letter = occurrence.base_name.as_str();
        let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
        let plain = occurrence.scripts.is_empty();
        // `S_K`, `A_i`: scripts below only, none above.
        let named_below = occurrence.scripts.iter().all(|s| !s.above);
        // `T_i` below a fraction bar: one of several counts; `T_{ijk}` an entry of a tensor.
        let below_only = named_below && index_count(occurrence) <= 1;
        match place {
            Place::Callee => Some(self.callee_kind(occurrence)),
            // `W = P_{Y|X}`: a letter papers use for laws, named by a condition below it, is a
            // conditional law wherever it stands.
            _ if self.is_conditional_law(occurrence) => Some(SymbolKind::Distribution),
            // `\hat{s}_n = \frac{1}{n} \sum_{i=1}^{n} …`: a letter a sum counts up to is the
            // count in a subscript too (the estimate from n samples), not a position.
            Place::Index if plain && self.counted_to(occurrence) => Some(SymbolKind::Dimension),
            Place::Index if plain && self.is_index_letter(occurrence.base) => Some(SymbolKind::Index),
            Place::Index if plain && self.is_dimension_name(occurrence) => Some(SymbolKind::Dimension),
            // `\alpha_{\tau_i}`, `x_{t_k}`, `\mathbf{h}_{u_i}`: a small letter picked by an index
            // inside an index is a position too, one of a subsequence.
            Place::Index if self.is_indexed_position(occurrence) => Some(SymbolKind::Index),
            // `z_y`, `\Delta_y`: any small Latin letter that picks an entry is a position (the
            // class y), whatever letter papers usually give it, except one that names a function
            // (`L_{\mathcal{D}, f}`, the risk of f).
            Place::Index
                if plain
                    && letter.len() == 1
                    && is_plain_small_letter(occurrence.base)
                    && !has(&self.notation.lone_function_letters, letter) =>
            {
                Some(SymbolKind::Index)
            }
            Place::Index => None,
            // `\sum_{1 \le j \le n}`: where the range stops is a size.
            Place::Bound if plain && self.table.recorded(&occurrence.name) == Some(SymbolKind::Dimension) => {
                Some(SymbolKind::Dimension)
            }
            Place::Bound if plain && self.is_index_letter(occurrence.base) => Some(SymbolKind::Index),
            Place::Counter if plain && is_plain_small_letter(occurrence.base) => Some(SymbolKind::Index),
            // `\mathbb{E}[f]` where the formula applies f elsewhere: the function averaged.
            Place::Random if plain && self.table.recorded(&occurrence.name) == Some(SymbolKind::Function) => {
                None
            }
            Place::Random if self.is_set_font(occurrence.base) => Some(SymbolKind::Distribution),
            // `\mathbb{E}_\pi`, `\mathbb{E}_{p}`: what the expectation is over is a distribution.
            // `\mathbb{E}_{p_{\text{data}}}`, `H(p_1)`: so is such a letter named by a label or
            // numbered as one of several distributions.
            Place::Random if self.names_a_distribution(occurrence) => Some(SymbolKind::Distribution),
            // Latin letters under an expectation or in a density are its variables; Greek letters
            // and bold capitals there are parameters (`\mathcal{N}(x \mid \mu, \sigma^2)`,
            // `\mathbf{A}x + \mathbf{b}`) and keep their own kind.
            Place::Random if self.is_parameter_like(occurrence) => None,
            // `\hat{\mathbb{E}}_t[L_t - c_1 L^{VF}_t]`: a numbered constant weighs what is averaged.
            Place::Random if self.is_numbered_constant(occurrence) => None,
            // `\mathbb{E}_{x, \epsilon, t}`: a letter papers step with, alone among what is
            // averaged over, is the step drawn (an index), not a random vector.
            Place::Random
                if plain
                    && font_of(occurrence.base) == Font::Normal
                    && has(&self.notation.bare_index_letters, letter) =>
            {
                Some(SymbolKind::Index)
            }
            Place::Random | Place::Outcome => Some(SymbolKind::RandomVariable),
            Place::MatrixOperand if capital && font_of(occurrence.base) != Font::Calligraphic => {
                Some(SymbolKind::Matrix)
            }
            // `\mathbb{I}(\mathbf{x} \in S_K)`, `P(A_i)`: a capital picked or named below is an
            // event too, a set.
            Place::Event if capital && named_below => Some(SymbolKind::Set),
            // `\mathbf{x} \in S_K`: a capital named or picked below is a set too.
            Place::Container if capital && named_below && font_of(occurrence.base) == Font::Normal => {
                Some(SymbolKind::Set)
            }
            Place::Event => Some(SymbolKind::RandomVariable),
            Place::Distribution if plain || !occurrence.indexed => Some(SymbolKind::Distribution),
            // `\mathrm{JSD}(p_{\text{data}} \| p_g)`, `x \sim q_k`: a letter papers use for
            // distributions, compared or sampled from, is one whatever its subscript names.
            Place::Distribution
                if occurrence.scripts.iter().all(|s| !s.above)
                    && has(&self.notation.distribution_letters, letter) =>
            {
                Some(SymbolKind::Distribution)
            }
            // `\iiint_{\Omega} \rho \, dV`, `\int f \, dP`: an element of volume is a number, a
            // law's letter the distribution integrated against.
            Place::Differential if capital && plain && has(&self.notation.element_letters, letter) => {
                Some(SymbolKind::Scalar)
            }
            Place::Differential if capital && plain && has(&self.notation.distribution_letters, letter) => {
                Some(SymbolKind::Distribution)
            }
            // `\frac{1}{T}` beside `e^{z_i / T}`: a capital the formula uses as a number elsewhere
            // (a temperature) is that number below a bar too.
            Place::Count | Place::Divisor if capital && self.used_as_number(occurrence) => None,
            Place::Count if self.is_dimension_name(occurrence) || capital => Some(SymbolKind::Dimension),
            // `\Omega(\mathrm{MSA})`: a module named in words is what is costed, not a size.
            Place::Order
                if occurrence.scripts.iter().all(|s| s.role == ScriptRole::Label)
                    && !matches!(occurrence.base.kind, NodeKind::Word { .. })
                    && !has(&self.notation.small_quantity_letters, letter) =>
            {
                Some(SymbolKind::Dimension)
            }
            Place::Radicand if self.is_dimension_name(occurrence) => Some(SymbolKind::Dimension),
            // `\sqrt{D_h}`: under a root, a letter papers use for sizes is one, whatever picks it.
            Place::Radicand if self.is_size_letter_below(occurrence) => Some(SymbolKind::Dimension),
            // `\alpha / K`, `\frac{t}{T}`, `\frac{T_{cur}}{T_i}`: a capital that divides is a count
            // (no matrix divides), or a number when papers use its letter for a loss or a value.
            Place::Divisor if capital && below_only && font_of(occurrence.base) == Font::Normal => {
                // `\frac{\ell}{L}`: the capital of a letter that counts positions is how many.
                let counts_index = self.counts_an_index(letter);
                Some(if has(&self.notation.scalar_capitals, letter) && !counts_index {
                    SymbolKind::Scalar
                } else {
                    SymbolKind::Dimension
                })
            }
            _ => None,
        }
    }

    /// A callee is a function, or a distribution when papers use its letter for one.
    fn callee_kind(&self, occurrence: &Occurrence) -> SymbolKind {
        let word = matches!(occurrence.base.kind, NodeKind::Word { .. });
        // `\Pr(A \mid B)`: a probability, as `P(A \mid B)` is.
        let probability = word && occurrence.base_name == "Pr";
        let letter =
            probability || (!word && has(&self.notation.distribution_letters, &occurrence.base_name));
        let below_only = occurrence.scripts.iter().all(|s| !s.above);
        if !word && below_only && self.table.is_set_valued(&occurrence.base_name) {
            SymbolKind::Set
        } else if self.is_distribution_family(occurrence) || letter || density_of_a_variable(occurrence) {
            SymbolKind::Distribution
        } else {
            SymbolKind::Function
        }
    }

    /// Whether a callee names a family of distributions in its own font (`\mathcal{N}`,
    /// `\mathrm{Beta}`), whose arguments are parameters, not outcomes.
    pub(super) fn is_distribution_family(&self, occurrence: &Occurrence) -> bool {
        let node = occurrence.base;
        let known = has(&self.notation.distribution_names, &occurrence.base_name);
        known && (self.is_set_font(node) || matches!(node.kind, NodeKind::Word { .. }))
    }

    /// A name the vocabulary of papers knows: operator names, `\mathrm{softmax}`.
    fn known_name(&self, node: &Node) -> Option<SymbolKind> {
        match &node.kind {
            NodeKind::Word { style: WordStyle::Operator | WordStyle::OperatorLimits, .. } => {
                Some(SymbolKind::Function)
            }
            NodeKind::Word { text, .. } if has(&self.notation.function_names, text) => {
                Some(SymbolKind::Function)
            }
            _ => None,
        }
    }

    /// What the conventions of papers make of an occurrence nothing else decided.
    fn convention(&self, occurrence: &Occurrence) -> SymbolKind {
        let base = occurrence.base;
        let name = super::scripts::base_letter(base).unwrap_or(occurrence.base_name.as_str());
        if let NodeKind::Word { style: WordStyle::Text, text } = &base.kind {
            if self.is_text_quantity(base, text) {
                // `\text{number of experts}`, `\text{capacity factor}`: a quantity named in
                // words, a count when its head word says so.
                let counted = has(&self.notation.count_words, &head_word(text).to_lowercase());
                return if counted { SymbolKind::Dimension } else { SymbolKind::Scalar };
            }
        }
        if let NodeKind::Word { text, .. } = &base.kind {
            // `\mathrm{err}_m`, `\mathit{threshold}`: a word in lower case that nothing applies
            // names a quantity; a name in capitals (`\mathrm{MSA}`) a module, a function.
            let quantity = text.chars().count() > 1 && text.starts_with(|c: char| c.is_lowercase());
            return if quantity { SymbolKind::Scalar } else { SymbolKind::Function };
        }
        if self.is_dimension_name(occurrence) {
            return SymbolKind::Dimension;
        }
        if self.is_position_along_axis(occurrence) {
            return SymbolKind::Index;
        }
        let font = font_of(base);
        let bare_letter = occurrence.scripts.is_empty() && font == Font::Normal;
        if bare_letter && has(&self.notation.bare_index_letters, name) {
            return SymbolKind::Index;
        }
        if bare_letter && has(&self.notation.bare_count_letters, name) {
            return SymbolKind::Dimension;
        }
        if bare_letter && has(&self.notation.lone_function_letters, name) {
            return SymbolKind::Function;
        }
        let upper = name.starts_with(|c: char| c.is_ascii_uppercase());
        let greek = names::is_greek(name);
        let indices = index_count(occurrence);
        if font == Font::Normal && indices >= 1 && !upper && self.table.is_bold_letter(name) {
            // `\mathbf{v}` beside `v_i`: a formula that writes its vectors in bold writes their
            // entries in plain type.
            return SymbolKind::Scalar;
        }
        let ranged =
            occurrence.scripts.iter().any(|s| matches!(s.role, ScriptRole::Range | ScriptRole::Layer));
        if self.is_numbered_constant(occurrence) {
            // `c_1`, `c_2`: constants of a loss or a line search, numbered.
            return SymbolKind::Scalar;
        }
        if (indices == 1 || (ranged && indices == 0))
            && has(&self.notation.vector_when_indexed, name)
            && font == Font::Normal
        {
            return SymbolKind::Vector;
        }
        if greek && font != Font::Bold && has(&self.notation.parameter_letters, name) {
            // `\theta_{t, i}`: a step and a coordinate pick one parameter, a number.
            return if indices >= 2 { SymbolKind::Scalar } else { SymbolKind::Vector };
        }
        let sliced = occurrence.scripts.iter().any(is_slice);
        if sliced && indices == 0 && font == Font::Normal && !upper {
            // `x_{1:d}`, `a_{t:t+k}`: a run of entries, positions one to another.
            return SymbolKind::Vector;
        }
        if font == Font::Bold && indices >= 3 {
            // `\mathbf{K}_{i,j,m,n}`: three indices or more pick one entry of a tensor (two may
            // still pick a vector at a position, `\mathbf{x}_{i,j}`, or a block, `\Sigma_{ab}`).
            return SymbolKind::Scalar;
        }
        let arrow = matches!(&base.kind, NodeKind::Accent { accent, .. } if accent == "vec" || accent == "overrightarrow");
        if arrow && indices < 3 {
            // `\vec{x}`, `\vec{X}_1`: an arrow marks a vector, whatever the letter's case.
            return SymbolKind::Vector;
        }
        if font == Font::Bold && has(&self.notation.noise_letters, name) && indices == 0 {
            // `\boldsymbol{\epsilon}`: drawn noise, a random vector.
            return SymbolKind::RandomVariable;
        }
        if font == Font::Bold {
            // Bold letters name vectors and matrices; an index picks one of a sequence of them.
            return if upper { SymbolKind::Matrix } else { SymbolKind::Vector };
        }
        if upper
            && (indices == 1 || sliced)
            && font == Font::Normal
            && has(&self.notation.indexed_random_capitals, name)
            && !self.table.transposes()
        {
            return SymbolKind::RandomVariable;
        }
        if matches!(font, Font::Calligraphic | Font::Script) && indices >= 2 {
            // `\mathcal{C}_{ij}`: a row and a column pick one entry of an array named in a
            // curly font (a cross-correlation), not a member of a family of sets.
            return SymbolKind::Scalar;
        }
        // `H_{\ell-1}`: a capital followed over steps below is one too.
        let stepped = occurrence.scripts.iter().any(|s| {
            (s.above && s.role == ScriptRole::Layer) || (!s.above && upper && self.steps_below(name, s))
        });
        let bare = match font {
            Font::Calligraphic | Font::Script if has(&self.notation.scalar_calligraphic, name) => {
                return SymbolKind::Scalar
            }
            Font::Blackboard | Font::Calligraphic | Font::Script => return SymbolKind::Set,
            Font::Bold if upper => SymbolKind::Matrix,
            Font::Bold => SymbolKind::Vector,
            _ if greek && upper && matches!(name, "Sigma" | "Lambda") => SymbolKind::Matrix,
            _ if greek => SymbolKind::Scalar,
            _ if upper && has(&self.notation.scalar_capitals, name) => SymbolKind::Scalar,
            // `V_{\mathrm{MIN}}`, `V_{\max}`: a capital labelled as a bound is a number (a size
            // letter stays a size, `T_{\max}`).
            _ if upper && bound_label(occurrence) && !has(&self.notation.dimension_letters, name) => {
                SymbolKind::Scalar
            }
            // `H^{t-1}`: a capital followed over steps is an array, no size.
            _ if upper && has(&self.notation.dimension_letters, name) && indices == 0 && !stepped => {
                SymbolKind::Dimension
            }
            _ if upper => SymbolKind::Matrix,
            _ if indices == 0 && has(&self.notation.dimension_letters, name) => SymbolKind::Scalar,
            _ => SymbolKind::Scalar,
        };
        match (bare, indices) {
            (SymbolKind::Matrix, 1) => SymbolKind::Vector,
            (SymbolKind::Matrix | SymbolKind::Vector, 2..) => SymbolKind::Scalar,
            (SymbolKind::Vector, 1) => SymbolKind::Scalar,
            (SymbolKind::Dimension, _) => SymbolKind::Dimension,
            (kind, _) => kind,
        }
    }

    /// `H_\ell`, `H_{\ell-1}` where the formula follows H over the steps of `\ell`: a member of a
    /// sequence below the capital `name`.
    fn steps_below(&self, name: &str, script: &super::tree::Script) -> bool {
        let node = script.term.node;
        let letter = match &node.kind {
            NodeKind::Symbol { name, font: Font::Normal } => Some(name.as_str()),
            _ => super::kinds::stepped_letter(node),
        };
        script.role == ScriptRole::Family && letter.is_some_and(|l| self.table.is_stepped_capital(name, l))
    }

    /// `n`, `N`, `d_k`, `d_{\text{model}}`, `n_{\text{heads}}`: a size by its spelling.
    fn is_dimension_name(&self, occurrence: &Occurrence) -> bool {
        let name = occurrence.base_name.as_str();
        let label_only = occurrence.scripts.iter().all(|s| s.role == ScriptRole::Label);
        let prefixed =
            has(&self.notation.dimension_prefixes, name) && label_only && !occurrence.scripts.is_empty();
        let plain_font = matches!(font_of(occurrence.base), Font::Normal);
        plain_font && (prefixed || (occurrence.scripts.is_empty() && matches!(name, "n" | "d" | "N")))
    }

    /// `c_1`, `c_2`: a letter of `numbered_constants`, in the normal font, numbered below.
    fn is_numbered_constant(&self, occurrence: &Occurrence) -> bool {
        let [script] = occurrence.scripts.as_slice() else { return false };
        !script.above
            && matches!(script.term.node.kind, NodeKind::Number { .. })
            && font_of(occurrence.base) == Font::Normal
            && has(&self.notation.numbered_constants, &occurrence.base_name)
    }

    /// `i_N`, `k_C`: a letter for positions below a capital, the axis (of N, of C) it runs along.
    fn is_position_along_axis(&self, occurrence: &Occurrence) -> bool {
        let [script] = occurrence.scripts.as_slice() else { return false };
        let axis = matches!(&script.term.node.kind, NodeKind::Symbol { name, font: Font::Normal }
            if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()));
        let letter = matches!(&occurrence.base.kind, NodeKind::Symbol { name, font: Font::Normal }
            if has(&self.notation.axis_position_letters, name));
        axis && letter && !script.above
    }

    /// A letter papers use for sizes, in the normal font, with only subscripts (`D_h`, `N_k`).
    fn is_size_letter_below(&self, occurrence: &Occurrence) -> bool {
        font_of(occurrence.base) == Font::Normal
            && has(&self.notation.dimension_letters, &occurrence.base_name)
            && occurrence.scripts.iter().all(|s| !s.above)
    }

    /// Whether an occurrence reads as a parameter rather than a variable: a Greek letter, a bold
    /// capital, an arrow-accented letter.
    fn is_parameter_like(&self, occurrence: &Occurrence) -> bool {
        let letter = super::scripts::base_letter(occurrence.base).unwrap_or("");
        let greek = names::is_greek(letter);
        let bold_capital =
            font_of(occurrence.base) == Font::Bold && letter.starts_with(|c: char| c.is_ascii_uppercase());
        let arrow = matches!(&occurrence.base.kind, NodeKind::Accent { accent, .. } if accent == "vec");
        greek || bold_capital || arrow
    }

    /// Whether a lower-case letter is what a sum counts up to in this formula or document, and
    /// one papers use for counts (a sum up to the step `t` or the position `i` is a running sum,
    /// and the letter stays a position).
    fn counted_to(&self, occurrence: &Occurrence) -> bool {
        is_plain_small_letter(occurrence.base)
            && !has(&self.notation.bare_index_letters, &occurrence.base_name)
            && !self.table.is_declared(&occurrence.name)
            && self.table.recorded(&occurrence.name) == Some(SymbolKind::Dimension)
    }

    /// Whether the formula's use recorded a number for the occurrence's name (not a declaration).
    fn used_as_number(&self, occurrence: &Occurrence) -> bool {
        let name = occurrence.name.as_str();
        !self.table.is_declared(name) && self.table.recorded(name) == Some(SymbolKind::Scalar)
    }

    /// Whether the capital `letter` is the count of an index the formula writes in its small
    /// letter, below a name or as a sum's variable (`L` of `\ell`, `T` of `t`, `K` of `k`).
    fn counts_an_index(&self, letter: &str) -> bool {
        let small = letter.to_ascii_lowercase();
        let mut names = vec![small.as_str()];
        if letter == "L" {
            names.push("ell");
        }
        names
            .into_iter()
            .any(|n| self.table.recorded(n) == Some(SymbolKind::Index) || self.table.is_subscript_letter(n))
    }

    pub(super) fn is_index_letter(&self, node: &Node) -> bool {
        matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal } if has(&self.notation.index_letters, name))
    }

    /// A small letter in the normal font with one index of its own: `\tau_i`, `t_k`.
    fn is_indexed_position(&self, occurrence: &Occurrence) -> bool {
        let small = matches!(&occurrence.base.kind, NodeKind::Symbol { name, font: Font::Normal }
            if name.starts_with(|c: char| c.is_ascii_lowercase()) || (names::is_greek(name) && !name.starts_with(|c: char| c.is_ascii_uppercase())));
        let [script] = occurrence.scripts.as_slice() else { return false };
        small && script.role == ScriptRole::Index && !script.above && index_count(occurrence) == 1
    }

    fn is_set_font(&self, node: &Node) -> bool {
        matches!(font_of(node), Font::Calligraphic | Font::Script | Font::Blackboard)
    }
}

/// Whether an occurrence is labelled as a bound: `_{\max}`, `_{\mathrm{MIN}}`, `_{\text{min}}`.
fn bound_label(occurrence: &Occurrence) -> bool {
    occurrence.scripts.iter().any(|s| s.role == ScriptRole::Label && is_bound_word(s.term.node))
}

/// `\max`, `\mathrm{MIN}`: the word of a bound, in any font.
fn is_bound_word(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Word { text, .. } => matches!(text.to_ascii_lowercase().as_str(), "max" | "min"),
        NodeKind::Styled { body, .. } => is_bound_word(body),
        _ => false,
    }
}

/// `f_X(x)`, `F_Y(y)`, `f_{X,Y}(x, y)`: a small f (or a capital F) below which stand the
/// capitals of random variables is their density (or distribution function), as probability
/// books write it.
fn density_of_a_variable(occurrence: &Occurrence) -> bool {
    let [script] = occurrence.scripts.as_slice() else { return false };
    !script.above
        && names_variables(script.term.node)
        && font_of(occurrence.base) == Font::Normal
        && matches!(occurrence.base_name.as_str(), "f" | "F")
}

/// [`density_of_a_variable`] for a callee node (`f_X` of `f_X(x) = …`).
pub(super) fn is_density_of_a_variable(callee: &Node) -> bool {
    match &callee.kind {
        NodeKind::Scripts { base, sub: Some(sub), sup: None, .. } => {
            matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal } if name == "f" || name == "F")
                && names_variables(sub)
        }
        _ => false,
    }
}

/// `X`, `X,Y`: capitals of random variables (`random_capitals`), one or a list; the H of a
/// hidden layer's `f_H` is none.
fn names_variables(node: &Node) -> bool {
    let notation = super::notation::Notation::shipped();
    let capital = |n: &Node| {
        matches!(&n.kind, NodeKind::Symbol { name, font: Font::Normal }
        if name.len() == 1 && has(&notation.random_capitals, name))
    };
    match &node.kind {
        NodeKind::Chain { first, rest } => {
            capital(first)
                && rest.iter().all(|l| matches!(&l.op, InfixOp::Separator(_)) && capital(&l.operand))
        }
        _ => capital(node),
    }
}

/// How many indices an occurrence's index subscript holds: `i` 1, `ij` or `i,j` 2. Below a label
/// (`x_i^a`, `m_i^{\mathrm{new}}`) a lower-case letter's subscript still picks an item; a
/// capital's (`W_i^Q`) picks a member of a family of matrices.
fn index_count(occurrence: &Occurrence) -> usize {
    let lower = super::scripts::base_letter(occurrence.base).is_some_and(|l| {
        l.starts_with(|c: char| c.is_ascii_lowercase())
            || names::is_greek(l) && !l.starts_with(|c: char| c.is_ascii_uppercase())
    });
    occurrence
        .scripts
        .iter()
        .filter(|s| s.role == ScriptRole::Index || (s.role == ScriptRole::Family && !s.above && lower))
        .map(|s| match &s.term.node.kind {
            NodeKind::Chain { rest, .. }
                if rest.iter().all(|l| {
                    matches!(
                        l.op,
                        crate::syntax::ast::InfixOp::Juxt | crate::syntax::ast::InfixOp::Separator(_)
                    )
                }) =>
            {
                1 + rest.len()
            }
            // `A_{12}`: two digits below a capital are a row and a column.
            NodeKind::Number { text, .. }
                if !lower && text.len() == 2 && text.chars().all(|c| ('1'..='9').contains(&c)) =>
            {
                2
            }
            _ => 1,
        })
        .sum()
}

/// Whether a script is a slice, positions one to another: `{1:d}` of `x_{1:d}`.
fn is_slice(script: &super::tree::Script) -> bool {
    script.role == ScriptRole::Range
        && matches!(&script.term.node.kind, NodeKind::Chain { first, .. } if !matches!(first.kind, NodeKind::Empty))
}

/// The font a name is set in.
pub(super) fn font_of(node: &Node) -> Font {
    match &node.kind {
        NodeKind::Symbol { font, .. } => *font,
        NodeKind::Accent { body, .. } => font_of(body),
        NodeKind::Styled { font, body } => match font_of(body) {
            Font::Normal => *font,
            inner => inner,
        },
        _ => Font::Normal,
    }
}

/// A lower-case Latin or Greek letter in the normal font: `i`, `t`, `\tau`.
fn is_plain_small_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal } if super::kinds::is_small_letter(name))
}

/// A letter alone, perhaps with subscripts (`K`, `T_i`): what a fraction bar or `/` divides by
/// when it is a count.
pub(super) fn is_lone_letter(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { .. } => true,
        NodeKind::Scripts { base, sup: None, .. } => matches!(base.kind, NodeKind::Symbol { .. }),
        _ => false,
    }
}

/// `ad - bc` of `\frac{1}{ad - bc}`: letters multiplied side by side on both sides of a minus,
/// a determinant's form, not a count as the N of `\frac{1}{N}` or the `n(n - 1)` of a mean over
/// pairs.
pub(super) fn is_difference_of_products(node: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &node.kind else { return false };
    let product_of_letters = |operand: &Node| match &operand.kind {
        NodeKind::Chain { first, rest } => {
            is_lone_letter(first) && rest.iter().all(|l| l.op == InfixOp::Juxt && is_lone_letter(&l.operand))
        }
        _ => false,
    };
    let minus = rest.iter().any(|link| matches!(&link.op, InfixOp::Additive(op) if op == "-"));
    let additive = rest.iter().all(|link| matches!(link.op, InfixOp::Additive(_)));
    minus
        && additive
        && product_of_letters(first)
        && rest.iter().all(|link| product_of_letters(&link.operand))
}

/// The word a noun phrase is about: the last word before `of` or `per` (`number` of `number of
/// experts`, `tokens` of `tokens per batch`), else the last word (`factor` of `capacity factor`).
fn head_word(text: &str) -> &str {
    let words: Vec<&str> = text.split_whitespace().collect();
    let end = words.iter().position(|w| matches!(*w, "of" | "per")).unwrap_or(words.len());
    words.get(..end).and_then(|w| w.last()).copied().unwrap_or(text)
}
