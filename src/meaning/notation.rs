//! The conventions of papers as data: `data/notation.toml`, built in.

use serde::Deserialize;
use std::sync::OnceLock;

/// The built-in conventions file.
pub const NOTATION_TOML: &str = include_str!("../../data/notation.toml");

/// What letters and names usually stand for (see `data/notation.toml` for each list).
#[derive(Debug, Clone, Deserialize)]
pub struct Notation {
    /// Letters that are functions when a parenthesis follows.
    pub function_letters: Names,
    /// Functions that keep the shape of what they take (`\tanh`, `\mathrm{softmax}`).
    pub shape_keeping_functions: Names,
    /// Functions whose value is one number (`H`, `I`, `\mathrm{JSD}`).
    pub number_valued: Names,
    /// Letters that name a function even standing alone (`f`).
    pub lone_function_letters: Names,
    /// Letters that name distributions, densities, policies.
    pub distribution_letters: Names,
    /// Letters that name sizes.
    pub dimension_letters: Names,
    /// First letters of sizes with a one-letter or word subscript (`d_k`).
    pub dimension_prefixes: Names,
    /// Letters that are positions even outside a subscript.
    pub bare_index_letters: Names,
    /// Letters that are counts even outside a sum's bound.
    pub bare_count_letters: Names,
    /// Letters that count when a number is raised to them (`\gamma^n`) or over a number.
    pub power_count_letters: Names,
    /// Letters that are positions along the axis a capital below them names (`i_N`).
    pub axis_position_letters: Names,
    /// Letters that pick a family member above a matrix.
    pub family_letters: Names,
    /// Letters that, above any other name, pick an item rather than raise to a power.
    pub superscript_index_letters: Names,
    /// Letters that, below a function applied to arguments, pick one of a family of functions.
    pub callee_member_letters: Names,
    /// Letters for the order of growth (`O(n^2 d)`), whose arguments hold sizes.
    pub order_letters: Names,
    /// Capitals papers use for weight matrices, whose one-letter subscript names a member.
    pub weight_capitals: Names,
    /// Letters that pick an entry of a weight matrix when all its subscript's letters are these.
    pub entry_letters: Names,
    /// Letters that range over positions.
    pub index_letters: Names,
    /// Capitals that are scalars (losses, objectives, rewards).
    pub scalar_capitals: Names,
    /// Calligraphic letters that are scalars (a loss, an objective).
    pub scalar_calligraphic: Names,
    /// Lower-case letters whose indexed forms are vectors.
    pub vector_when_indexed: Names,
    /// Letters that, numbered (`c_1`, `c_2`), are constants, not the vectors their index picks.
    pub numbered_constants: Names,
    /// Greek letters that name parameters.
    pub parameter_letters: Names,
    /// Runs of italic letters that are one name.
    pub italic_words: Names,
    /// Words in italic letters that are labels in a script.
    pub label_words: Names,
    /// Vowels that make a run of three or more italic letters in a script a word, not indices.
    pub word_vowels: Names,
    /// Capitals that are random variables under an expectation or an entropy.
    pub random_capitals: Names,
    /// Function names.
    pub function_names: Names,
    /// Names of distribution families.
    pub distribution_names: Names,
    /// Capitals that are random variables with one index.
    pub indexed_random_capitals: Names,
    /// Value functions, whose arguments are random variables.
    pub value_functions: Names,
    /// Trigonometric functions, whose arguments are angles (numbers).
    pub angle_functions: Names,
    /// Letters that stand for a state when a function takes them with an action.
    pub state_letters: Names,
    /// Letters that stand for an action when a function takes them with a state.
    pub action_letters: Names,
    /// Operators whose argument is a random variable.
    pub random_variable_operators: Names,
    /// Divergences, whose arguments are distributions.
    pub divergences: Names,
    /// Letters that name a divergence when applied to two things set apart by a double bar
    /// (`D(P \| Q)`), whose sides are then distributions.
    pub divergence_letters: Names,
    /// Functions of vectors (normalisations, softmax, layers), whose arguments are arrays.
    pub vector_functions: Names,
    /// Parts of a compound name that make it a function of vectors (`MultiHeadAtt`,
    /// `InstanceNorm`, `CrossAttn`).
    #[serde(default)]
    pub vector_function_stems: Vec<String>,
    /// Words that make a quantity named in text a count (`\text{number of experts}`).
    pub count_words: Names,
    /// Named functions whose index subscript says what they range over (`\mathrm{softmax}_j`);
    /// below any other name such a subscript picks a member (`\mathrm{FFN}_i`, an expert).
    pub ranging_functions: Names,
    /// Named functions whose last argument, of two or more, is how many they keep
    /// (`\mathrm{TopK}(\mathbf{s}, K)`): a count.
    pub count_argument_functions: Names,
    /// Words of prose, lower case (`and`, `if`, `s.t.`): text made only of them is prose.
    pub prose_words: Names,
    /// Letters that are mathematical constants where nothing declares, applies or indexes them
    /// (`e`, `\pi`): no symbol of the formula.
    pub constants: Names,
    /// Letters that with a script below and one matrix in parentheses name a value of its
    /// spectrum (`\lambda_i(A)`, `\sigma_{\max}(W)`): applied, never a product.
    pub spectral_letters: Names,
    /// Spectral letters that name a matrix's spectrum with no script (`\lambda(A)`).
    pub spectrum_letters: Names,
    /// Operator names of functions of a matrix (`\det`, `\mathrm{tr}`): a capital they take
    /// is a matrix.
    pub matrix_functions: Names,
    /// Functions of a space or a set (`\dim V`), whose argument is a set.
    pub space_functions: Names,
    /// Letters papers give a data point (`x`): one a sum runs over as a member of a named
    /// collection (`\sum_{x \in \mathcal{B}}`) is a vector, when nothing else decides it.
    pub sample_letters: Names,
    /// Greek letters papers draw noise with: set in bold (`\boldsymbol{\epsilon}`), one is a random
    /// vector of noise, not the small constant the plain letter usually is.
    pub noise_letters: Names,
    /// Letters papers give a small quantity (a step, an error, a perturbation): inside an order of
    /// growth (`O(\epsilon^2)`) one is what shrinks, not a size.
    pub small_quantity_letters: Names,
    /// Small letters papers give coefficients: one side by side before a matrix scales it
    /// (`a X_k + b X_k X_k^\top X_k`), where another small letter is a row vector (`x W`).
    pub coefficient_letters: Names,
    /// Letters whose square names a variance: squared before one input in parentheses, a
    /// variance that depends on it (`\sigma_\theta^2(\mathbf{x})`), no product.
    pub variance_letters: Names,
    /// Letters papers give a random variable's moments: a capital of `random_capitals` below
    /// one (`\mu_X`, `\sigma_{XY}`) names that random variable, which is one where it stands
    /// alone too (`Z = \frac{X - \mu_X}{\sigma_X}`).
    pub moment_letters: Names,
    /// Capitals papers compare laws by: two of them taken together (`\mathrm{CE}(P, Q)`,
    /// `W(P, Q)`) are two distributions, no matrices.
    pub compared_law_capitals: Names,
    /// Capitals an integral's `d` takes for an element of area, surface or volume (`dA`, `dV`):
    /// numbers the integral adds up, no matrices.
    pub element_letters: Names,
    /// Function names whose script below is a base (`\log_2 p`), not a label or a range.
    pub based_functions: Names,
    /// Letters that name a layer above a symbol (`h^l`, `h^{(l+1)}`); others there name a
    /// sample or a step (`x^{(i)}`).
    pub layer_letters: Names,
    /// Endings an ordinal is written with above (`i^{\text{th}}`, `2^{nd}`): which one in order.
    pub ordinal_endings: Names,
    /// Functions that gate (any case): `\otimes` beside one applied is element-wise.
    pub gate_functions: Names,
}

impl Notation {
    /// The built-in conventions. The file is checked by the tests, so an unreadable one is a
    /// build defect; should it happen anyway, every list is empty and only declarations and
    /// use decide.
    pub fn shipped() -> &'static Notation {
        static SHIPPED: OnceLock<Notation> = OnceLock::new();
        SHIPPED.get_or_init(|| toml::from_str(NOTATION_TOML).unwrap_or_else(|_| Notation::empty()))
    }

    fn empty() -> Notation {
        Notation {
            function_letters: Names::default(),
            distribution_letters: Names::default(),
            dimension_letters: Names::default(),
            dimension_prefixes: Names::default(),
            index_letters: Names::default(),
            family_letters: Names::default(),
            superscript_index_letters: Names::default(),
            callee_member_letters: Names::default(),
            order_letters: Names::default(),
            weight_capitals: Names::default(),
            entry_letters: Names::default(),
            axis_position_letters: Names::default(),
            bare_index_letters: Names::default(),
            bare_count_letters: Names::default(),
            power_count_letters: Names::default(),
            lone_function_letters: Names::default(),
            number_valued: Names::default(),
            shape_keeping_functions: Names::default(),
            scalar_capitals: Names::default(),
            scalar_calligraphic: Names::default(),
            vector_when_indexed: Names::default(),
            numbered_constants: Names::default(),
            parameter_letters: Names::default(),
            italic_words: Names::default(),
            label_words: Names::default(),
            word_vowels: Names::default(),
            random_capitals: Names::default(),
            function_names: Names::default(),
            distribution_names: Names::default(),
            indexed_random_capitals: Names::default(),
            value_functions: Names::default(),
            angle_functions: Names::default(),
            state_letters: Names::default(),
            action_letters: Names::default(),
            random_variable_operators: Names::default(),
            divergences: Names::default(),
            divergence_letters: Names::default(),
            vector_functions: Names::default(),
            vector_function_stems: Vec::new(),
            ranging_functions: Names::default(),
            count_argument_functions: Names::default(),
            count_words: Names::default(),
            prose_words: Names::default(),
            constants: Names::default(),
            spectral_letters: Names::default(),
            spectrum_letters: Names::default(),
            matrix_functions: Names::default(),
            space_functions: Names::default(),
            sample_letters: Names::default(),
            noise_letters: Names::default(),
            small_quantity_letters: Names::default(),
            coefficient_letters: Names::default(),
            variance_letters: Names::default(),
            moment_letters: Names::default(),
            compared_law_capitals: Names::default(),
            element_letters: Names::default(),
            based_functions: Names::default(),
            layer_letters: Names::default(),
            ordinal_endings: Names::default(),
            gate_functions: Names::default(),
        }
    }
}

impl Notation {
    /// Whether a run of letters is a word: a listed label, a run of capitals (`LS`, `VF`), or
    /// three letters or more with a vowel (`cur`), where indices (`ijk`) have none.
    pub fn is_word(&self, letters: &str) -> bool {
        let capitals = letters.len() >= 2 && letters.chars().all(|c| c.is_ascii_uppercase());
        let spelled =
            letters.len() >= 3 && letters.chars().any(|c| has(&self.word_vowels, c.encode_utf8(&mut [0; 4])));
        has(&self.label_words, letters) || capitals || spelled
    }

    /// Whether a letter applied to one matrix names a value of its spectrum: a spectral letter
    /// with a script (`\lambda_i(A)`, `\sigma_{\max}(W)`), or one that names the spectrum bare
    /// (`\lambda(A)`). The one place this is decided.
    pub fn names_a_spectral_value(&self, letter: &str, scripted: bool) -> bool {
        has(&self.spectral_letters, letter) && (scripted || has(&self.spectrum_letters, letter))
    }

    /// Whether a function named `name` takes vectors: listed, or a compound of a listed stem.
    pub fn is_vector_function(&self, name: &str) -> bool {
        has(&self.vector_functions, name)
            || self.vector_function_stems.iter().any(|stem| name.contains(stem.as_str()))
    }
}

/// A list of names from the file, looked up by hashing.
pub type Names = rustc_hash::FxHashSet<String>;

/// Whether `list` holds `name`.
pub fn has(list: &Names, name: &str) -> bool {
    list.contains(name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shipped_file_reads() {
        let parsed: Result<super::Notation, _> = toml::from_str(super::NOTATION_TOML);
        assert!(parsed.is_ok(), "data/notation.toml: {parsed:?}");
        let Ok(notation) = parsed else { return };
        assert!(super::has(&notation.function_names, "softmax"));
        assert!(super::has(&notation.index_letters, "i"));
    }
}
