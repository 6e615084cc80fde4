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
        for mark in table.combining.keys() {
            assert_eq!(mark.chars().count(), 1, "{mark:?} is one combining character");
        }
    }
}
