//! The speech vocabulary: every word eqmap reads a formula with, loaded from
//! `data/speech.toml` (built in with `include_str!`) or from a file a curriculum author wrote.
//!
//! The code knows the *structure* of a reading (a sum has a variable, limits and a body); the
//! vocabulary says how each structure and symbol is said, in Korean and in English.

use super::Verbosity;
use crate::lang::Lang;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The built-in vocabulary's source.
pub const BUILTIN_TOML: &str = include_str!("../../data/speech.toml");

/// The phrase templates a complete vocabulary defines in both languages.
pub const PHRASE_KEYS: &[&str] = &[
    "definition",
    "role",
    "again",
    "list_and",
    "list_and_pause",
    "range",
    "list_through",
    "etc",
    "dots",
    "product",
    "product_then",
    "scale",
    "dot_product",
    "divide",
    "fraction",
    "sum_of",
    "difference",
    "group",
    "negate",
    "minus",
    "plus",
    "plus_minus",
    "minus_plus",
    "not",
    "apply",
    "apply_many",
    "apply_short",
    "apply_of",
    "apply_verb",
    "over",
    "given",
    "probability",
    "probability_plain",
    "transpose",
    "ordinal",
    "transpose_of",
    "inverse",
    "reciprocal",
    "square",
    "cube",
    "power",
    "power_of",
    "capital",
    "sqrt",
    "cube_root",
    "root",
    "index",
    "label",
    "joined",
    "entry",
    "at",
    "super_index",
    "layer",
    "divergence",
    "prime",
    "before",
    "after",
    "up_to",
    "slice",
    "log_base",
    "sum",
    "sum_over",
    "sum_all",
    "prod",
    "prod_over",
    "prod_all",
    "int",
    "int_over",
    "int_all",
    "big_op",
    "big_op_range",
    "big_op_all",
    "mean",
    "mean_over",
    "mean_all",
    "expectation",
    "expectation_all",
    "derivative",
    "partial",
    "derivative_op",
    "partial_op",
    "second_derivative",
    "second_partial",
    "second_derivative_op",
    "second_partial_op",
    "nth_derivative",
    "nth_partial",
    "nth_derivative_op",
    "nth_partial_op",
    "nth_derivative_of",
    "derivative_of_order",
    "evaluated_at",
    "evaluated_between",
    "gradient",
    "gradient_all",
    "norm",
    "p_norm",
    "set_builder",
    "maps",
    "abs",
    "det",
    "cardinality",
    "floor",
    "ceil",
    "set",
    "tuple",
    "pair",
    "inner",
    "interval",
    "reals",
    "real_vectors",
    "real_matrices",
    "by",
    "shaped",
    "labelled",
    "case",
    "otherwise",
    "matrix",
    "matrix_row",
    "factorial",
    "binom",
    "calligraphic",
    "elided",
    "index_closed",
    "super_closed",
    "power_closed",
    "power_of_closed",
    "inverse_of",
    "inverse_function",
    "paren",
    "bracket",
    "kronecker",
    "hadamard",
    "indicator",
    "where",
];

/// The Korean phrase templates that only Korean needs (steps that continue a clause).
pub const KO_ONLY_KEYS: &[&str] =
    &["divide_then", "negate_then", "add_to", "subtract_from", "add_then", "subtract_then"];

/// Everything eqmap says, by language.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    /// Korean names of the Latin letters.
    #[serde(default)]
    pub letters: HashMap<String, String>,
    /// Greek letters, by command name.
    #[serde(default)]
    pub greek: HashMap<String, Words>,
    /// Symbol commands used as operands (`\infty`).
    #[serde(default)]
    pub symbols: HashMap<String, Words>,
    /// Function and operator names (`softmax`, `log`, `Attention`).
    #[serde(default)]
    pub functions: HashMap<String, FunctionWords>,
    /// Named laws said with their parameters (`\mathcal{N}(\mu, \sigma^2)`: "the normal
    /// distribution with mean mu and variance sigma squared"), by the callee's letter or name.
    #[serde(default)]
    pub laws: HashMap<String, LawWords>,
    /// Which letters stand for probabilities.
    #[serde(default)]
    pub probability: Probability,
    /// Role words of equation subjects (`L` → 손실).
    #[serde(default)]
    pub roles: HashMap<String, Words>,
    /// Relation templates by canonical LaTeX (`=`, `\in`).
    #[serde(default)]
    pub relations: HashMap<String, RelationWords>,
    /// Operator words by canonical LaTeX (`+`, `\times`).
    #[serde(default)]
    pub operators: HashMap<String, Words>,
    /// Accent templates by command name (`hat`).
    #[serde(default)]
    pub accents: HashMap<String, Words>,
    /// Blackboard letters by letter (`R` → 실수 전체).
    #[serde(default)]
    pub blackboard: HashMap<String, Words>,
    /// Large operator words by command name (`sum`).
    #[serde(default)]
    pub big_operators: HashMap<String, Words>,
    /// Structure templates.
    #[serde(default)]
    pub phrases: Phrases,
    /// Words of prose between clauses (`and hence`, `for all`), by their lower-case text.
    #[serde(default)]
    pub prose: HashMap<String, Words>,
    /// Quantifiers, written as symbols or words (`\forall`, `for all`), by their lower-case
    /// text: templates of what they bind ("모든 {x}에 대해", "for all {x}").
    #[serde(default)]
    pub quantifiers: HashMap<String, Words>,
    /// How Latin names a Korean reading leaves as written are said (`clip` = "클립"), for the
    /// particle after them.
    #[serde(default)]
    pub pronunciations: HashMap<String, String>,
}

/// One thing said in both languages.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// In Korean.
    pub ko: String,
    /// In English.
    pub en: String,
}

impl Words {
    /// The words in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        lang.pick(&self.ko, &self.en)
    }
}

/// A relation as a sentence, and optionally as a noun phrase.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelationWords {
    /// The Korean sentence: "{a:은} {b}에 속한다".
    pub ko: String,
    /// The English sentence: "{a} is in {b}".
    pub en: String,
    /// The Korean noun phrase: "{b}에 속하는 {a}".
    #[serde(default)]
    pub ko_noun: Option<String>,
    /// The English noun phrase: "{a} in {b}".
    #[serde(default)]
    pub en_noun: Option<String>,
}

/// How a named law is said.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LawWords {
    /// The law's name in Korean ("정규분포").
    pub ko: String,
    /// In English ("the normal distribution").
    pub en: String,
    /// Its parameters in the order the law is written with them.
    pub params: Vec<ParamWords>,
}

/// The name of one parameter of a named law.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamWords {
    /// In Korean ("분산").
    pub ko: String,
    /// In English ("variance").
    pub en: String,
    /// Its name when the parameter is a matrix ("공분산", "covariance").
    #[serde(default)]
    pub matrix: Option<Words>,
}

impl ParamWords {
    /// The parameter's name in `lang`, for a matrix when `matrix`.
    pub fn get(&self, lang: Lang, matrix: bool) -> &str {
        match (&self.matrix, matrix) {
            (Some(words), true) => words.get(lang),
            _ => lang.pick(&self.ko, &self.en),
        }
    }
}

/// A function's name and how Korean applies it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionWords {
    /// In Korean.
    pub ko: String,
    /// In English.
    pub en: String,
    /// How Korean puts the function and its argument together.
    #[serde(default)]
    pub ko_style: KoStyle,
    /// A verb stem that replaces the function name in Korean ("이어 붙이").
    #[serde(default)]
    pub ko_verb: Option<String>,
}

/// How Korean applies a function F to its argument X.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KoStyle {
    /// "X에 F를 씌운 것", or "F X" when X is one symbol.
    #[default]
    Apply,
    /// "X의 F".
    Of,
    /// "F X".
    Prefix,
}

/// Which letters stand for probabilities.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probability {
    /// The letters, by binding name (`p`, `P`).
    #[serde(default)]
    pub letters: Vec<String>,
}

/// Structure templates by language.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phrases {
    /// Korean templates.
    #[serde(default)]
    pub ko: HashMap<String, Template>,
    /// English templates.
    #[serde(default)]
    pub en: HashMap<String, Template>,
    /// Korean templates that replace `ko`'s at [`Verbosity::Full`].
    #[serde(default)]
    pub ko_full: HashMap<String, Template>,
    /// English templates that replace `en`'s at [`Verbosity::Full`].
    #[serde(default)]
    pub en_full: HashMap<String, Template>,
    /// Korean templates that replace `ko`'s at [`Verbosity::Brief`].
    #[serde(default)]
    pub ko_brief: HashMap<String, Template>,
    /// English templates that replace `en`'s at [`Verbosity::Brief`].
    #[serde(default)]
    pub en_brief: HashMap<String, Template>,
}

/// A template: text with `{slots}`, or (in Korean) a clause that ends in a verb.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Template {
    /// A noun phrase or sentence: "{x}의 제곱근".
    Text(String),
    /// A clause: what comes before the verb, and the verb's stem.
    Clause {
        /// The words before the verb, with slots: "{num:을} {den:으로} ".
        lead: String,
        /// The verb stem: "나누".
        verb: String,
        /// How a clause before this step joins it: "고" (the default) or "다음".
        #[serde(default)]
        join: Option<String>,
    },
}

impl Vocabulary {
    /// The built-in vocabulary (`data/speech.toml`). Should that file ever fail to parse, the
    /// vocabulary is empty and readings fall back to names as written; a test guards it.
    pub fn builtin() -> &'static Vocabulary {
        static BUILTIN: OnceLock<Vocabulary> = OnceLock::new();
        BUILTIN.get_or_init(|| Vocabulary::from_toml(BUILTIN_TOML).unwrap_or_default())
    }

    /// Parses a vocabulary file.
    pub fn from_toml(text: &str) -> Result<Vocabulary, toml::de::Error> {
        toml::from_str(text)
    }

    /// The phrase keys missing in either language.
    pub fn missing_phrases(&self) -> Vec<String> {
        let mut missing = Vec::new();
        for key in PHRASE_KEYS {
            for (lang, table) in [("ko", &self.phrases.ko), ("en", &self.phrases.en)] {
                if !table.contains_key(*key) {
                    missing.push(format!("phrases.{lang}.{key}"));
                }
            }
        }
        for key in KO_ONLY_KEYS {
            if !self.phrases.ko.contains_key(*key) {
                missing.push(format!("phrases.ko.{key}"));
            }
        }
        missing
    }

    /// The template for `key` in `lang`.
    pub fn phrase(&self, lang: Lang, key: &str) -> Option<&Template> {
        match lang {
            Lang::Ko => self.phrases.ko.get(key),
            Lang::En => self.phrases.en.get(key),
        }
    }

    /// How words of prose written in a formula are said in `lang`: the vocabulary's words, else
    /// as written.
    pub fn prose_words<'w>(&'w self, written: &'w str, lang: Lang) -> &'w str {
        self.prose.get(&written.to_lowercase()).map_or(written, |w| w.get(lang))
    }

    /// How a Latin name is said in Korean, when the vocabulary knows it (exactly as written, or
    /// in lower case).
    pub fn pronunciation(&self, written: &str) -> Option<&str> {
        let found = self.pronunciations.get(written);
        found.or_else(|| self.pronunciations.get(&written.to_lowercase())).map(String::as_str)
    }

    /// The template for `key` at `verbosity`: the level's own when it has one, else the
    /// default's.
    pub fn phrase_at(&self, lang: Lang, key: &str, verbosity: Verbosity) -> Option<&Template> {
        let own = match (lang, verbosity) {
            (_, Verbosity::Default) => None,
            (Lang::Ko, Verbosity::Full) => self.phrases.ko_full.get(key),
            (Lang::En, Verbosity::Full) => self.phrases.en_full.get(key),
            (Lang::Ko, Verbosity::Brief) => self.phrases.ko_brief.get(key),
            (Lang::En, Verbosity::Brief) => self.phrases.en_brief.get(key),
        };
        own.or_else(|| self.phrase(lang, key))
    }

    /// Whether `name` (a binding name) stands for a probability when applied.
    pub fn is_probability(&self, name: &str) -> bool {
        self.probability.letters.iter().any(|l| l == name)
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_vocabulary_parses_and_is_complete() {
        let vocab = Vocabulary::from_toml(BUILTIN_TOML).unwrap_or_else(|e| panic!("data/speech.toml: {e}"));
        assert_eq!(vocab.missing_phrases(), Vec::<String>::new());
        assert_eq!(vocab.letters.len(), 26);
        assert_eq!(vocab.functions.get("softmax").map(|w| w.ko.as_str()), Some("소프트맥스"));
        assert!(vocab.is_probability("p"));
    }

    #[test]
    fn a_typo_in_a_vocabulary_file_is_an_error() {
        let error = Vocabulary::from_toml(
            "[functions]\nsoftmax = { ko = \"소프트맥스\", en = \"softmax\", kostyle = \"of\" }",
        );
        assert!(error.is_err());
    }
}
