//! What the symbol table notes of scripts across a formula or document: letters above names
//! (`\mathbf{d}^c`, `z^{k+1}`, `z^1`), capitals stepped below (`H_{\ell-1}`), and what the
//! superscript roles ask of those notes.

use super::SymbolTable;
use crate::syntax::ast::{Node, NodeKind};

impl SymbolTable {
    /// Notes that the small letter `letter` stands alone above the name `base`, a bold small
    /// letter when `bold`, a name indexed below when `indexed`.
    pub(crate) fn note_superscript(&mut self, letter: &str, base: &str, bold: bool, indexed: bool) {
        let (bases, any_bold, any_indexed) = self.superscripts.entry(letter.to_string()).or_default();
        if !bases.iter().any(|b| b == base) && bases.len() < 8 {
            bases.push(base.to_string());
        }
        *any_bold |= bold;
        *any_indexed |= indexed;
    }

    /// Notes that `letter` stands above a Latin name as a step from itself (`z^{k+1}`).
    pub(crate) fn note_stepped_superscript(&mut self, letter: &str) {
        if !self.stepped_superscripts.contains(letter) {
            self.stepped_superscripts.insert(letter.to_string());
        }
    }

    /// Notes that the capital `base` is written with a step from `letter` below (`H_{\ell-1}`).
    pub(crate) fn note_stepped_capital(&mut self, base: &str, letter: &str) {
        let key = format!("{base}_{letter}");
        if !self.stepped_capitals.contains(&key) {
            self.stepped_capitals.insert(key);
        }
    }

    /// `H_\ell = f(H_{\ell-1})`: whether the capital `base` is followed over the steps `letter`
    /// counts in this formula or document.
    pub fn is_stepped_capital(&self, base: &str, letter: &str) -> bool {
        !self.stepped_capitals.is_empty() && self.stepped_capitals.contains(&format!("{base}_{letter}"))
    }

    /// `z^{k+1} = z^k - \alpha \nabla f(z^k)`, `H^t = \ldots H^{t-1}`: whether a letter counts
    /// steps above Latin names in this formula or document.
    pub fn is_stepped_superscript(&self, letter: &str) -> bool {
        self.stepped_superscripts.contains(letter)
    }

    /// Notes a letter that counts a derivative's order elsewhere: in a factorial (`k!`, Taylor's
    /// and Euler-Maclaurin's terms) or above a differential's sign (`\frac{d^n f}{dx^n}`).
    pub(crate) fn note_order_letter(&mut self, letter: &str) {
        if !self.order_letters.contains(letter) {
            self.order_letters.insert(letter.to_string());
        }
    }

    /// Whether a superscript's body (`k-1` of `f^{(k-1)}`, `m_1 + \cdots + m_n`) starts with a
    /// letter this formula counts an order with ([`Self::note_order_letter`]).
    pub fn names_an_order(&self, body: &Node) -> bool {
        !self.order_letters.is_empty() && leading_letter(body).is_some_and(|l| self.order_letters.contains(l))
    }

    /// Notes a number written above the Latin name `base`.
    pub(crate) fn note_numbered_superscript(&mut self, base: &str, number: &str) {
        let set = match number {
            "1" => &mut self.first_numbered,
            "0" => &mut self.zeroth_numbered,
            _ => return,
        };
        if !set.contains(base) {
            set.insert(base.to_string());
        }
    }

    /// `z^1, z^2`, `f_i^1`: whether the numbers above a Latin name number its members (one of
    /// them is 1, a power nobody writes, and none is 0, as in a power series).
    pub fn numbers_members(&self, base: &str) -> bool {
        self.first_numbered.contains(base) && !self.zeroth_numbered.contains(base)
    }

    /// `\mathbf{d}^c`, `p_i^c`, `E^c`; `\mathbf{h}^t`, `\sigma^t`; `\alpha_k^c` beside `y^c`: a small
    /// letter written above several names, one of them a vector (never raised to a power) or an
    /// indexed name (where it is a label), says which one (a case, a step) above each of them,
    /// not a power.
    /// Above a Greek name (`\gamma^k`, `\beta_1^t`) only a bold neighbour says so: discounts and
    /// decays are raised to powers whatever the letter labels elsewhere.
    pub fn is_shared_superscript(&self, letter: &str, latin_base: bool) -> bool {
        self.superscripts
            .get(letter)
            .is_some_and(|(bases, bold, indexed)| bases.len() >= 2 && (*bold || (*indexed && latin_base)))
    }

    /// Notes that a sum or a product counts `letter` from a lower limit, 0 when `from_zero`
    /// (`\sum_{k=0}^{\infty}`).
    pub(crate) fn note_counted(&mut self, letter: &str, from_zero: bool) {
        let all_zero = self.zero_counted.entry(letter.to_string()).or_insert(true);
        *all_zero &= from_zero;
    }

    /// `\sum_{k=0}^{\infty} \frac{A^k}{k!}`, `\sum_{i=0}^{n} x^i`: whether a letter is counted from
    /// 0 by a sum or a product (and from nothing else: `\sum_{k=1}^{K}` beside it counts heads),
    /// the mark of powers (the zeroth is one), no member nor step.
    pub fn is_zero_counted(&self, letter: &str) -> bool {
        self.zero_counted.get(letter).copied().unwrap_or(false)
    }
}

/// The letter a script starts with: `k` of `k-1`, `m` of `m_1 + \cdots`.
pub(super) fn leading_letter(node: &Node) -> Option<&str> {
    match &node.kind {
        NodeKind::Symbol { name, .. } if name.len() == 1 => Some(name.as_str()),
        NodeKind::Scripts { base, .. } => leading_letter(base),
        NodeKind::Chain { first, .. } => leading_letter(first),
        _ => None,
    }
}
