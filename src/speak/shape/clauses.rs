//! Long readings split into clauses a listener can hold: the argument of a function deep inside
//! a long formula is named by a free letter and said after the rest ("… tanh of u, where u is
//! …"; "… 하이퍼볼릭 탄젠트 유의 합의 곱, 여기서 유는 …이다"), as a teacher reading GELU's tanh
//! approximation aloud would. Once a formula, at most: a second "where" stops helping.
//!
//! Only the containers a long reading nests through are walked (relations, sums, products,
//! brackets, calls, divisions); not at full verbosity, where the formula is spelled as written.

use crate::speak::phrase::{Name, NameClass, Phrase};

/// A reading of fewer parts than this is left whole.
const LONG: usize = 16;

/// An argument of fewer parts than this stays in its place.
const HEAVY: usize = 8;

/// Letters that may name the part said apart, in order of preference.
const FREE_LETTERS: &[&str] = &["u", "v", "w", "s", "r"];

/// `phrase` with its heaviest deep argument said apart, when the reading is long and a letter
/// is free (`used` lists the letters the formula writes).
pub(super) fn split_long(phrase: Phrase, used: &[String]) -> Phrase {
    // A chain of relations ("a is b, which is c") would hear the part far from its place.
    let chain = matches!(&phrase, Phrase::Relation { rest, .. } if rest.len() > 1);
    if !weighs_at_least(&phrase, LONG) || chain || matches!(phrase, Phrase::Statements(_) | Phrase::Prose(_))
    {
        return phrase;
    }
    let Some(letter) = FREE_LETTERS.iter().find(|l| !used.iter().any(|u| u == *l)) else {
        return phrase;
    };
    let name = Phrase::Name(Name { key: letter.to_string(), class: NameClass::Letter });
    let mut body = phrase;
    match take_argument(&mut body, &name) {
        Some(value) => Phrase::Where { body: body.boxed(), name: name.boxed(), value: value.boxed() },
        None => body,
    }
}

/// Whether a phrase has at least `parts` parts, through the containers walked: counted
/// without recursion, and only as far as `parts`. A phrase can nest deeper than the formula
/// (`a / b / c …` is a division in a division per `/` of one flat row), so no walk here
/// recurses.
fn weighs_at_least(phrase: &Phrase, parts: usize) -> bool {
    let mut counted = 0;
    let mut stack = vec![phrase];
    while let Some(part) = stack.pop() {
        counted += 1;
        if counted >= parts {
            return true;
        }
        stack.extend(children(part));
    }
    false
}

/// The parts of the containers walked.
fn children(phrase: &Phrase) -> Vec<&Phrase> {
    match phrase {
        Phrase::Relation { first, rest } | Phrase::Ops { first, rest, .. } => {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|(_, p)| p)).collect()
        }
        Phrase::Product(items) | Phrase::Seq(items) | Phrase::List(items) => items.iter().collect(),
        Phrase::Fence { body, .. } | Phrase::Sqrt { body, .. } => vec![body],
        Phrase::Apply(apply) => apply.args.iter().collect(),
        Phrase::Div { num, den } | Phrase::Fraction { num, den } => vec![num, den],
        Phrase::Power { base, exponent } => vec![base, exponent],
        Phrase::Scale { k, x } => vec![k, x],
        Phrase::Neg(x) | Phrase::Transpose(x) => vec![x],
        Phrase::Definition { body, .. } => vec![body],
        _ => Vec::new(),
    }
}

/// Takes the first heavy argument of a call below the top (pre-order), leaving `name` in its
/// place: the call is found without recursion, then reached along its path.
fn take_argument(phrase: &mut Phrase, name: &Phrase) -> Option<Phrase> {
    let path = heavy_argument_path(phrase)?;
    let mut at = phrase;
    for index in path {
        at = children_mut(at).into_iter().nth(index)?;
    }
    match at {
        Phrase::Apply(apply) => match apply.args.as_mut_slice() {
            [arg] => Some(std::mem::replace(arg, name.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// The positions (among [`children`] at each level) from `root` down to the first call below
/// the top, in pre-order, whose one argument is heavy and no sentence (a condition,
/// `P(X \in S)`, stays: "where u is X is in S" is no noun).
fn heavy_argument_path(root: &Phrase) -> Option<Vec<usize>> {
    // Each entry: a phrase, its depth, and its position among its parent's children.
    let mut stack = vec![(root, 0usize, 0usize)];
    let mut path: Vec<usize> = Vec::new();
    while let Some((phrase, depth, index)) = stack.pop() {
        path.truncate(depth.saturating_sub(1));
        if depth > 0 {
            path.push(index);
        }
        if let Phrase::Apply(apply) = phrase {
            if let [arg] = apply.args.as_slice() {
                if depth > 0 && weighs_at_least(arg, HEAVY) && !arg.is_sentence() {
                    return Some(path);
                }
            }
        }
        let below = children(phrase);
        stack.extend(below.into_iter().enumerate().rev().map(|(i, child)| (child, depth + 1, i)));
    }
    None
}

/// The parts of the containers walked, to change one.
fn children_mut(phrase: &mut Phrase) -> Vec<&mut Phrase> {
    match phrase {
        Phrase::Relation { first, rest } | Phrase::Ops { first, rest, .. } => {
            std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|(_, p)| p)).collect()
        }
        Phrase::Product(items) | Phrase::Seq(items) | Phrase::List(items) => items.iter_mut().collect(),
        Phrase::Fence { body, .. } | Phrase::Sqrt { body, .. } => vec![body.as_mut()],
        Phrase::Apply(apply) => apply.args.iter_mut().collect(),
        Phrase::Div { num, den } | Phrase::Fraction { num, den } => vec![num.as_mut(), den.as_mut()],
        Phrase::Power { base, exponent } => vec![base.as_mut(), exponent.as_mut()],
        Phrase::Scale { k, x } => vec![k.as_mut(), x.as_mut()],
        Phrase::Neg(x) | Phrase::Transpose(x) => vec![x.as_mut()],
        Phrase::Definition { body, .. } => vec![body.as_mut()],
        _ => Vec::new(),
    }
}
