//! Quantifiers and the relations under them, said the same way in both languages: what
//! `\forall` or "for all" binds is said as a noun phrase with the quantifier set before the
//! bound letter ("for all x in capital X", "대문자 엑스에 속하는 모든 엑스에 대해"), as is the
//! relation under a large operator ("the sum over i not equal to j").

use super::phrase::Phrase;
use super::template::fill;
use super::vocab::Vocabulary;
use crate::lang::Lang;

/// The template of the quantifier written as `written` (`\forall`, `for all`), if it is one.
pub(super) fn template<'v>(vocab: &'v Vocabulary, written: &str, lang: Lang) -> Option<&'v str> {
    vocab.quantifiers.get(&written.to_lowercase()).map(|w| w.get(lang))
}

/// A relation of one operator as a noun phrase, the word `lead` set before its left side:
/// `x \in X` with lead "모든 " is "대문자 엑스에 속하는 모든 엑스". `None` when the phrase is no
/// such relation or the vocabulary has no noun phrase for it.
pub(super) fn relation_noun(
    vocab: &Vocabulary,
    lang: Lang,
    phrase: &Phrase,
    lead: &str,
    say: impl Fn(&Phrase) -> String,
) -> Option<String> {
    let Phrase::Relation { first, rest } = phrase else { return None };
    let [(relation, rhs)] = rest.as_slice() else { return None };
    let words = vocab.relations.get(relation)?;
    let template = match lang {
        Lang::Ko => words.ko_noun.as_ref(),
        Lang::En => words.en_noun.as_ref(),
    }?;
    let a = format!("{lead}{}", say(first));
    Some(fill(template, &[("a", &a), ("b", &say(rhs))]))
}

/// What a quantifier binds, said with it: `template` is the quantifier's ("모든 {x}에 대해",
/// "for all {x}").
pub(super) fn bound(
    vocab: &Vocabulary,
    lang: Lang,
    template: &str,
    binder: &Phrase,
    say: impl Fn(&Phrase) -> String,
) -> String {
    let (before, after) = template.split_once("{x}").unwrap_or((template, ""));
    match relation_noun(vocab, lang, binder, before, &say) {
        Some(noun) => format!("{noun}{after}"),
        None => format!("{before}{}{after}", say(binder)),
    }
}

/// The clauses in the order Korean says them: a clause a quantifier opens goes before the
/// statement written right before it (`x_i \ge 0 \;\forall i`: "모든 아이에 대해, 엑스 아이는 …").
pub(super) fn quantified_first<'c>(
    vocab: &Vocabulary,
    clauses: &'c [(Option<String>, Phrase)],
) -> Vec<&'c (Option<String>, Phrase)> {
    let mut order: Vec<&(Option<String>, Phrase)> = Vec::with_capacity(clauses.len());
    for clause in clauses {
        let quantifies = clause.0.as_deref().is_some_and(|w| template(vocab, w, Lang::Ko).is_some());
        match order.pop() {
            Some(statement) if quantifies && statement.0.is_none() => {
                order.push(clause);
                order.push(statement);
            }
            previous => {
                order.extend(previous);
                order.push(clause);
            }
        }
    }
    order
}
