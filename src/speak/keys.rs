//! Which template each structure takes, decided once for both languages: the English and Korean
//! readers ([`super::en`], [`super::ko`]) differ in words and word order, not in which phrase of
//! `data/speech.toml` a structure is said with.

use super::phrase::{BigOp, Fence, Phrase, Sign, SubStyle};

/// Large operators with templates of their own (sum, product, integral).
const FAMILIES: &[&str] = &["sum", "prod", "int"];

/// Operators whose operands read as one product: "the Kronecker product of a and b".
const WHOLE_PRODUCTS: &[(&str, &str)] = &[("\\otimes", "kronecker"), ("\\odot", "hadamard")];

/// The template of a subscript: one of more than one symbol is closed ("m sub t minus 1 end
/// sub", "아래첨자가 티 빼기 1인 엠"), never "m sub t minus 1", which is also `m_t - 1`.
pub fn sub_key(style: SubStyle, sub: &Phrase) -> &'static str {
    let named = matches!(style, SubStyle::Index | SubStyle::Label | SubStyle::Joined);
    if named && sub.is_compound_script() {
        return "index_closed";
    }
    match style {
        SubStyle::Index => "index",
        SubStyle::Label => "label",
        SubStyle::Joined => "joined",
        SubStyle::Entry => "entry",
        SubStyle::At => "at",
        SubStyle::Before => "before",
        SubStyle::After => "after",
        SubStyle::UpTo => "up_to",
        SubStyle::Slice => "slice",
        SubStyle::Base => "log_base",
    }
}

/// The template of a superscript that names (`W^Q`), closed when it is more than one symbol.
pub fn super_key(sup: &Phrase) -> &'static str {
    if sup.is_compound_script() {
        "super_closed"
    } else {
        "super_index"
    }
}

/// The template of a sign other than minus.
pub fn sign_key(sign: Sign) -> &'static str {
    match sign {
        Sign::Plus => "plus",
        Sign::PlusMinus => "plus_minus",
        Sign::MinusPlus => "minus_plus",
        Sign::Not => "not",
    }
}

/// The template of a bracket with meaning, around `body`: two entries in parentheses are a
/// pair, more a tuple.
pub fn fence_key_of(fence: Fence, body: &Phrase) -> &'static str {
    match (fence, body) {
        (Fence::Tuple, Phrase::List(items)) if items.len() == 2 => "pair",
        _ => fence_key(fence),
    }
}

/// The template of a bracket with meaning, whatever it holds.
pub fn fence_key(fence: Fence) -> &'static str {
    match fence {
        Fence::Norm => "norm",
        Fence::Abs => "abs",
        Fence::Det => "det",
        Fence::Cardinality => "cardinality",
        Fence::Floor => "floor",
        Fence::Ceil => "ceil",
        Fence::Set => "set",
        Fence::Tuple => "tuple",
        Fence::Group => "paren",
        Fence::Bracket => "bracket",
    }
}

/// "K transpose" of one symbol, "the transpose of …" of more.
pub fn transpose_key(x: &Phrase) -> &'static str {
    if x.is_atomic() {
        "transpose"
    } else {
        "transpose_of"
    }
}

/// The inverse of a matrix, the inverse of a function or the reciprocal of a number; of a
/// product, "the inverse of …".
pub fn inverse_key(of: crate::speak::phrase::Inverted, base: &Phrase) -> &'static str {
    use crate::speak::phrase::Inverted;
    match (of, base.is_atomic()) {
        (Inverted::Matrix, true) => "inverse",
        (Inverted::Matrix, false) => "inverse_of",
        (Inverted::Function, _) => "inverse_function",
        (Inverted::Number, _) => "reciprocal",
    }
}

/// The template of a row joined by one product operator throughout (`a \otimes b`); a gated
/// `\otimes` reaches here as `\odot`, as the meaning layer reads it ([`crate::meaning::otimes_gates`]).
pub fn whole_product(rest: &[(String, Phrase)]) -> Option<&'static str> {
    let (op, _) = rest.first()?;
    let (_, key) = WHOLE_PRODUCTS.iter().find(|(o, _)| o == op)?;
    if !rest.iter().all(|(o, _)| o == op) {
        return None;
    }
    Some(*key)
}

/// The template of a large operator, from which of its parts are said (`var`, `from`, `to`,
/// `over` as read); `None` for a bare operator, said by its word alone.
pub fn big_op_key(big: &BigOp, var: &str, from: &str, to: &str, over: &str) -> Option<String> {
    let integral = big.op.contains("int");
    let ranged = !from.is_empty() && !to.is_empty() && (!var.is_empty() || integral);
    let suffix = if ranged {
        ""
    } else if over.is_empty() {
        "_all"
    } else {
        "_over"
    };
    if big.mean_of.is_some() {
        return Some(format!("mean{suffix}"));
    }
    if big.body.is_none() && suffix == "_all" {
        return None;
    }
    Some(match FAMILIES.iter().find(|f| big.op.contains(**f)) {
        Some(family) => format!("{family}{suffix}"),
        None if ranged => "big_op_range".to_string(),
        None if suffix == "_all" => "big_op_all".to_string(),
        None => "big_op".to_string(),
    })
}

/// The `over` a large operator is said with: its own subscript, else its variable (not for an
/// integral, whose variable is its differential).
pub fn big_op_over(big: &BigOp, over: String, var: &str) -> String {
    if over.is_empty() && !big.op.contains("int") {
        var.to_string()
    } else {
        over
    }
}
