//! The structure of a sentence both languages share: a reader fills the same templates with
//! its own words, so real spaces, operators over a range and derivatives are put together
//! once here, and `en.rs` and `ko.rs` keep only what their grammar does differently.

use super::phrase::{Order, Phrase};
use super::quantify;
use super::vocab::Vocabulary;
use crate::lang::Lang;

/// A reader of one language: what it says of a part, and the templates it fills.
pub(super) trait Speaker {
    /// What a template gives: text in English, a noun or an open clause in Korean.
    type Said;

    /// The reader's language.
    const LANG: Lang;

    /// The words.
    fn vocab(&self) -> &Vocabulary;

    /// A template filled with `slots`.
    fn fill(&self, key: &str, slots: &[(&str, &str)]) -> Self::Said;

    /// A part as the text that fills a slot.
    fn text(&self, phrase: &Phrase, d: usize) -> String;

    /// A list of dimensions: "n by d", "엔 곱하기 디".
    fn dimensions(&self, dims: &[Phrase], d: usize) -> String;

    /// A template filled with `slots`, as the text that fills another's slot.
    fn fill_text(&self, key: &str, slots: &[(&str, &str)]) -> String;

    /// Items joined as the reader lists them: "A, B and C", "A, B와 C".
    fn join_and(&self, items: Vec<String>) -> String;

    /// A template with one part in slot `x`.
    fn fill_one(&self, key: &str, x: &Phrase, d: usize) -> Self::Said {
        self.fill(key, &[("x", &self.text(x, d))])
    }

    /// The real (or complex) numbers, vectors or matrices: `\mathbb{R}^{n \times d}`,
    /// `\mathbb{C}^{m \times n}`.
    fn number_space(&self, complex: bool, dims: &[Phrase], d: usize) -> Self::Said {
        let field = if complex { "complex" } else { "real" };
        match dims {
            [] if complex => self.fill("complexes", &[]),
            [] => self.fill("reals", &[]),
            [n] => self.fill(&format!("{field}_vectors"), &[("n", &self.text(n, d))]),
            more => self.fill(&format!("{field}_matrices"), &[("shape", &self.dimensions(more, d))]),
        }
    }

    /// A phrase under an operator: a relation reads as a noun phrase ("x drawn from p"); stacked
    /// rows (`\substack{i, j \\ i \neq j}`) are what it ranges over, then the conditions on it
    /// ("i and j, with i not equal to j").
    fn over_text(&self, over: &Phrase, d: usize) -> String {
        if let Phrase::Statements(rows) = over {
            if let [first, conditions @ ..] = rows.as_slice() {
                if !conditions.is_empty() && conditions.iter().all(|c| matches!(c, Phrase::Relation { .. })) {
                    let conditions =
                        self.join_and(conditions.iter().map(|c| self.condition_text(c, d)).collect());
                    let ranged = self.over_text(first, d);
                    return self.fill_text("over_with", &[("x", &ranged), ("c", &conditions)]);
                }
            }
        }
        quantify::relation_noun(self.vocab(), Self::LANG, over, "", |p| self.text(p, d))
            .unwrap_or_else(|| self.text(over, d))
    }

    /// A condition under an operator: in English a noun phrase where the relation has one ("i not
    /// equal to j"); in Korean the relation said as a sentence, which "(단, …)" takes.
    fn condition_text(&self, condition: &Phrase, d: usize) -> String {
        quantify::relation_noun(self.vocab(), Self::LANG, condition, "", |p| self.text(p, d))
            .filter(|_| Self::LANG == Lang::En)
            .unwrap_or_else(|| self.text(condition, d))
    }

    /// The point a bar evaluates at: a noun phrase where it is a relation ("theta equal to
    /// theta 0", `\big|_{\theta = \theta_0}`), else as said.
    fn point_text(&self, at: &Phrase, d: usize) -> String {
        quantify::relation_noun(self.vocab(), Self::LANG, at, "", |p| self.text(p, d))
            .unwrap_or_else(|| self.text(at, d))
    }

    /// A template with an optional `over` slot ("the mean over i of x", else `{key}_all`).
    fn with_over(&self, key: &str, over: Option<&Phrase>, body: &Phrase, d: usize) -> Self::Said {
        match over {
            Some(over) => self.fill(key, &[("over", &self.over_text(over, d)), ("x", &self.text(body, d))]),
            None => self.fill_one(&format!("{key}_all"), body, d),
        }
    }

    /// A derivative of `of` with respect to `wrt`, or the operator alone.
    fn derivative(
        &self,
        (partial, order): (bool, &Order),
        of: Option<&Phrase>,
        wrt: &Phrase,
        d: usize,
    ) -> Self::Said {
        let key = match (partial, order) {
            (true, Order::Second) => "second_partial",
            (true, Order::First) => "partial",
            (false, Order::Second) => "second_derivative",
            (false, Order::First) => "derivative",
            (true, Order::Nth(_)) => "nth_partial",
            (false, Order::Nth(_)) => "nth_derivative",
        };
        let n = match order {
            Order::Nth(n) => self.text(n, d),
            _ => String::new(),
        };
        let x = self.text(wrt, d);
        match of {
            Some(f) => self.fill(key, &[("f", &self.text(f, d)), ("x", &x), ("n", &n)]),
            None => self.fill(&format!("{key}_op"), &[("x", &x), ("n", &n)]),
        }
    }
}
