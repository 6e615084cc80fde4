//! Curricula and concepts as data: concept id → question and math; concept id → articles.
//!
//! Two curricula ship embedded (`data/curricula/`): the first seed's sixty-article map (the
//! default, `ai-math`) and the second seed's seven-part series (`transformer-series`). A user
//! gives their own with `--curriculum FILE` in the same schema (README.md, "Curricula").
//! Concepts (`data/concepts.toml`) are shared by all curricula.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::annotate::rules::Bilingual;
use crate::Lang;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The shipped concepts.
pub const DEFAULT_CONCEPTS: &str = include_str!("../../data/concepts.toml");

/// The shipped curricula, by name.
pub const SHIPPED: &[(&str, &str)] = &[
    ("ai-math", include_str!("../../data/curricula/ai-math.toml")),
    ("transformer-series", include_str!("../../data/curricula/transformer-series.toml")),
];

/// What a concept asks and what answers it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Concept {
    /// The question that blocks a reader.
    pub question: Bilingual,
    /// The math that answers it.
    pub math: Bilingual,
}

#[derive(Debug, Deserialize)]
struct ConceptFile {
    concept: BTreeMap<String, Concept>,
}

/// All concepts, by id.
#[derive(Debug, Clone)]
pub struct Concepts {
    by_id: BTreeMap<String, Concept>,
}

impl Concepts {
    /// Parses a concepts file.
    pub fn load(text: &str) -> Result<Concepts, String> {
        let file: ConceptFile = toml::from_str(text).map_err(|e| format!("concepts: {e}"))?;
        Ok(Concepts { by_id: file.concept })
    }

    /// The concept with this id.
    pub fn get(&self, id: &str) -> Option<&Concept> {
        self.by_id.get(id)
    }

    /// All concept ids.
    pub fn ids(&self) -> impl Iterator<Item = &String> {
        self.by_id.keys()
    }
}

/// An article of a curriculum.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Article {
    /// Its number.
    pub number: u32,
    /// Its title.
    pub title: Bilingual,
    /// The unit it belongs to, if the curriculum says.
    pub unit: Option<u32>,
}

/// Where a curriculum places a concept.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// Articles in prerequisite order (`[21, 40]` is 21 → 40).
    #[serde(default)]
    pub path: Vec<u32>,
    /// The unit, when the concept has no article number of its own.
    pub unit: Option<u32>,
    /// `false`: the curriculum places the concept without an article number.
    #[serde(default = "yes")]
    pub numbered: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Unit {
    name: Bilingual,
}

/// A curriculum: its articles and where it places each concept.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Curriculum {
    /// Its short name.
    pub id: String,
    /// Its full name.
    pub name: Bilingual,
    /// How an article number is written: `{n}번`, `part {n}`.
    pub label: Bilingual,
    #[serde(default, rename = "unit")]
    units: BTreeMap<String, Unit>,
    /// Its articles.
    #[serde(default, rename = "article")]
    pub articles: Vec<Article>,
    #[serde(default, rename = "concept")]
    concepts: BTreeMap<String, Placement>,
}

impl Curriculum {
    /// Parses a curriculum file.
    pub fn load(text: &str) -> Result<Curriculum, String> {
        toml::from_str(text).map_err(|e| format!("curriculum: {e}"))
    }

    /// A shipped curriculum by name.
    pub fn shipped(name: &str) -> Option<Result<Curriculum, String>> {
        SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, text)| Curriculum::load(text))
    }

    /// The default curriculum (the first seed's).
    pub fn default_curriculum() -> Result<Curriculum, String> {
        Curriculum::load(SHIPPED.first().map_or("", |(_, text)| *text))
    }

    /// Where this curriculum places a concept.
    pub fn placement(&self, concept: &str) -> Option<&Placement> {
        self.concepts.get(concept)
    }

    /// The article with this number.
    pub fn article(&self, number: u32) -> Option<&Article> {
        self.articles.iter().find(|a| a.number == number)
    }

    /// An article number as the curriculum writes it: `21번`, `part 3`.
    pub fn article_label(&self, number: u32, lang: Lang) -> String {
        let mut label = String::new();
        self.push_article_label(number, lang, &mut label);
        label
    }

    /// [`Curriculum::article_label`], written at the end of `out` (no allocation of its own).
    pub fn push_article_label(&self, number: u32, lang: Lang, out: &mut String) {
        use std::fmt::Write;
        let mut pieces = self.label.get(lang).split("{n}");
        out.push_str(pieces.next().unwrap_or(""));
        for piece in pieces {
            // Writing to a String cannot fail.
            let _ = write!(out, "{number}");
            out.push_str(piece);
        }
    }

    /// A unit's name, or a generic one.
    pub fn unit_name(&self, unit: u32, lang: Lang) -> String {
        match self.units.get(&unit.to_string()) {
            Some(u) => u.name.get(lang).to_string(),
            None => match lang {
                Lang::Ko => format!("{unit}단원"),
                Lang::En => format!("unit {unit}"),
            },
        }
    }

    /// Concept ids this curriculum places.
    pub fn placed_concepts(&self) -> impl Iterator<Item = &String> {
        self.concepts.keys()
    }

    /// Checks that every path names an article the curriculum lists.
    pub fn validate(&self) -> Result<(), String> {
        for (concept, placement) in &self.concepts {
            for number in &placement.path {
                if self.article(*number).is_none() {
                    return Err(format!(
                        "{}: concept `{concept}` names article {number}, which is not listed",
                        self.id
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_article_label_puts_the_number_in_every_place_the_template_asks() {
        let text = "id = \"t\"\nname = { ko = \"t\", en = \"t\" }\nlabel = { ko = \"{n}번 {x} ({n})\", en = \"part {n}\" }\n";
        let loaded = Curriculum::load(text);
        assert!(loaded.is_ok(), "{loaded:?}");
        let Ok(curriculum) = loaded else { return };
        assert_eq!(curriculum.article_label(40, Lang::Ko), "40번 {x} (40)");
        assert_eq!(curriculum.article_label(0, Lang::En), "part 0");
        assert_eq!(curriculum.article_label(u32::MAX, Lang::En), "part 4294967295");
        let mut path = String::from("→ ");
        curriculum.push_article_label(7, Lang::En, &mut path);
        assert_eq!(path, "→ part 7");
    }
}
