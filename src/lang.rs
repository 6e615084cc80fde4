//! The languages eqmap speaks to its users: Korean (the curriculum's) and English.

use serde::Serialize;

/// A language for user-facing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Korean, the language of the curriculum.
    #[default]
    Ko,
    /// English.
    En,
}

impl Lang {
    /// Picks the text for this language.
    pub fn pick<'a>(self, ko: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ko => ko,
            Lang::En => en,
        }
    }

    /// Parses `ko` or `en`.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}
