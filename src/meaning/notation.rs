//! The conventions of papers as data: `data/notation.toml`, built in.

use serde::Deserialize;
use std::sync::OnceLock;

/// The built-in conventions file.
pub const NOTATION_TOML: &str = include_str!("../../data/notation.toml");

/// What letters and names usually stand for (see `data/notation.toml` for each list).
#[derive(Debug, Clone, Deserialize)]
pub struct Notation {
    /// Letters that are functions when a parenthesis follows.
    pub function_letters: Vec<String>,
    /// Letters that name distributions, densities, policies.
    pub distribution_letters: Vec<String>,
    /// Letters that name sizes.
    pub dimension_letters: Vec<String>,
    /// First letters of sizes with a one-letter or word subscript (`d_k`).
    pub dimension_prefixes: Vec<String>,
    /// Letters that range over positions.
    pub index_letters: Vec<String>,
    /// Capitals that are scalars (losses, objectives, rewards).
    pub scalar_capitals: Vec<String>,
    /// Lower-case letters whose indexed forms are vectors.
    pub vector_when_indexed: Vec<String>,
    /// Greek letters that name parameters.
    pub parameter_letters: Vec<String>,
    /// Runs of italic letters that are one name.
    pub italic_words: Vec<String>,
    /// Words in italic letters that are labels in a script.
    pub label_words: Vec<String>,
    /// Capitals that are random variables under an expectation or an entropy.
    pub random_capitals: Vec<String>,
    /// Function names.
    pub function_names: Vec<String>,
    /// Names of distribution families.
    pub distribution_names: Vec<String>,
    /// Operators whose argument is a random variable.
    pub random_variable_operators: Vec<String>,
    /// Divergences, whose arguments are distributions.
    pub divergences: Vec<String>,
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
            function_letters: Vec::new(),
            distribution_letters: Vec::new(),
            dimension_letters: Vec::new(),
            dimension_prefixes: Vec::new(),
            index_letters: Vec::new(),
            scalar_capitals: Vec::new(),
            vector_when_indexed: Vec::new(),
            parameter_letters: Vec::new(),
            italic_words: Vec::new(),
            label_words: Vec::new(),
            random_capitals: Vec::new(),
            function_names: Vec::new(),
            distribution_names: Vec::new(),
            random_variable_operators: Vec::new(),
            divergences: Vec::new(),
        }
    }
}

/// Whether `list` holds `name`.
pub fn has(list: &[String], name: &str) -> bool {
    list.iter().any(|item| item == name)
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
