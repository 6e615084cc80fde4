//! What the paste passes know, from `data/paste.toml` (built in): wrapper environments, names
//! that PDFs give as plain letters, conditioning callees, combining marks, stray characters.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The built-in file.
pub const PASTE_TOML: &str = include_str!("../../data/paste.toml");

/// The contents of `data/paste.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Environments taken off around a whole formula.
    pub wrappers: Vec<String>,
    /// Environments whose rows are read as `aligned`.
    pub rows: Vec<String>,
    /// Label and numbering commands dropped inside a wrapper.
    pub labels: Vec<String>,
    /// Commands whose braced argument is read as written.
    pub literal_arguments: Vec<String>,
    /// Commands that size the delimiter after them.
    pub sizing: Vec<String>,
    /// Whole words read as LaTeX names.
    pub names: BTreeMap<String, String>,
    /// Short words read as names only before `(`.
    pub names_before_parenthesis: BTreeMap<String, String>,
    /// Callees after which a single `|` in the parenthesis is the conditioning bar.
    pub probability_callees: Vec<String>,
    /// Combining marks and the accent command each stands for.
    pub combining: BTreeMap<String, String>,
    /// Characters replaced by plain text.
    pub characters: BTreeMap<String, String>,
    /// A text font's ligatures given as control codes, read as letters inside a word.
    pub ligature_codes: BTreeMap<String, String>,
    /// Operators whose limit a PDF sets on a line of its own.
    pub limit_operators: Vec<String>,
    /// Letters read as a subscript when set right after a letter in a PDF's text.
    pub glued_index_letters: Vec<String>,
    /// Words that are not a letter with a glued subscript.
    pub glued_words_kept: Vec<String>,
    /// Letters whose glued `2` is a square.
    pub squared_letters: Vec<String>,
    /// Names whose glued digits are a power (`cos2` is cos²).
    #[serde(default)]
    pub powered_names: Vec<String>,
    /// Greek letters whose glued capitals are a subscript.
    pub subscripted_by_capitals: Vec<String>,
    /// Bases after which a PDF's `−…` is an exponent.
    pub exponent_bases: Vec<String>,
    /// cmex10's sum and product signs as pdftotext gives them, and their LaTeX.
    pub big_operators: BTreeMap<String, String>,
    /// cmex10's big delimiters as pdftotext gives them, and the delimiter each is.
    pub big_delimiters: BTreeMap<String, String>,
    /// Words after which a big delimiter opens (`E`, `exp`, `min`).
    pub delimited_after: Vec<String>,
    /// Names whose base digits a PDF glues to them (`log2`).
    pub based_names: Vec<String>,
    /// Closing glyphs whose opening glyph pdftotext drops (cmex10's codes 0 and 32).
    pub dropped_openings: Vec<String>,
    /// Those of `big_operators` in their text-style size, as a fraction's parts set them.
    pub text_style_operators: Vec<String>,
    /// cmex10's integral signs as pdftotext gives them, and their LaTeX.
    pub integral_signs: BTreeMap<String, String>,
    /// Relations after a PDF's negation slash, and the negated relation.
    pub negated: BTreeMap<String, String>,
    /// Characters a PDF sets raised, read as a superscript.
    pub raised: BTreeMap<String, String>,
    /// Dots that pdftotext gives apart (`. . .`), and the one symbol they are.
    pub dots: BTreeMap<String, String>,
    /// The glyphs of a tall left brace as pdftotext gives them: the brace of `cases`.
    pub case_braces: Vec<String>,
    /// Words that start a condition of `cases` (`if`, `otherwise`).
    pub case_words: Vec<String>,
    /// Words of prose read as prose standing alone between a formula's parts (`and`, `if`).
    pub prose_alone: Vec<String>,
    /// The opening glyphs of a tall bracket or parenthesis, and the matrix environment each makes.
    pub matrix_openings: BTreeMap<String, String>,
    /// Their closing glyphs, and the environment each closes.
    pub matrix_closings: BTreeMap<String, String>,
    /// The pieces that extend a tall bracket or parenthesis, dropped.
    pub matrix_pieces: Vec<String>,
    /// Letters of a space of numbers whose dimensions a PDF glues after `∈` (`∈ Rd`).
    pub spaces_with_dimensions: Vec<String>,
    /// Labels a PDF gives on a line above the relation they are stacked over (`def`).
    pub relation_labels: Vec<String>,
    /// Letters whose italic correction sets a space before their parenthesis: applied after
    /// a letter glued before them (`λf (x)`), not its subscript.
    pub applied_after_factor: Vec<String>,
    /// What a matrix with dots knows (`paste/matrix/dots.rs`).
    pub matrix_dots: MatrixDots,
}

/// The `[matrix_dots]` table of `data/paste.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixDots {
    /// The pieces of a tall bracket or parenthesis on its closing side: what pdftotext sets
    /// after one on a line is outside the matrix.
    pub closing_pieces: Vec<String>,
}

/// The built-in table, read once. The file is part of the build and a test reads it, so a
/// broken file is caught before release; should it fail anyway, nothing is rewritten.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| toml::from_str(PASTE_TOML).unwrap_or_default())
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    #[test]
    fn the_built_in_file_reads() {
        let table: Result<super::Table, _> = toml::from_str(super::PASTE_TOML);
        let table = table.unwrap_or_else(|e| panic!("data/paste.toml: {e}"));
        assert!(table.names.contains_key("softmax"));
        assert!(table.combining.values().any(|accent| accent == "\\hat"));
        assert_eq!(table.big_operators.get("X").map(String::as_str), Some("\\sum"));
        assert_eq!(table.integral_signs.get("Z").map(String::as_str), Some("\\int"));
        for sign in table.big_operators.keys().chain(table.integral_signs.keys()) {
            assert_eq!(sign.chars().count(), 1, "{sign:?} is one letter");
        }
        for mark in table.combining.keys() {
            assert_eq!(mark.chars().count(), 1, "{mark:?} is one combining character");
        }
    }
}
