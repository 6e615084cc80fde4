//! The one precedence table, and the Pratt parser built from it.
//!
//! The direct reader (`super::direct`) does not use pest's Pratt parser but climbs by the same
//! levels ([`infix_level`]), and is checked to give the same trees.
//!
//! Loosest first: list separators < relations < additive < products and juxtaposition <
//! prefix signs < scripts, primes and factorials. Command application (`\sqrt{x}`, `\hat x`,
//! `\frac{a}{b}`, `\mathbf{x}`) binds tighter still: the grammar makes each one an operand, so
//! `\hat{x}^2` squares the hatted x. A test checks that every rule the grammar marks as an
//! "operator rule" is in [`TABLE`], since pest's `PrattParser` panics on a rule it lacks.

use super::ast::InfixOp;
use super::grammar::Rule;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

/// A precedence level, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// `,` `;`
    List,
    /// `=` `\le` `\in` `\sim` `\to` `\mid` …
    Relation,
    /// `+` `-` `\pm` `\cup`
    Additive,
    /// `\cdot` `\times` `/` `\odot` and juxtaposition
    Multiplicative,
    /// `-x` `\neg p`
    Prefix,
    /// `x_i` `x^2` `x'` `n!`
    Postfix,
}

/// Where an operator stands relative to its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixity {
    /// Between two operands, left-associative.
    Infix,
    /// Before its operand.
    Prefix,
    /// After its operand.
    Postfix,
}

/// One row of the table: a grammar rule, how it applies, and how tightly.
#[derive(Debug, Clone, Copy)]
pub struct OperatorRule {
    /// The grammar rule.
    pub rule: Rule,
    /// Prefix, infix or postfix.
    pub fixity: Fixity,
    /// Its level.
    pub level: Level,
}

const fn row(rule: Rule, fixity: Fixity, level: Level) -> OperatorRule {
    OperatorRule { rule, fixity, level }
}

/// The precedence table: every operator rule of the grammar, loosest level first.
pub const TABLE: &[OperatorRule] = &[
    row(Rule::separator, Fixity::Infix, Level::List),
    row(Rule::relation, Fixity::Infix, Level::Relation),
    row(Rule::stacked_relation, Fixity::Infix, Level::Relation),
    row(Rule::additive, Fixity::Infix, Level::Additive),
    row(Rule::multiplicative, Fixity::Infix, Level::Multiplicative),
    row(Rule::juxt, Fixity::Infix, Level::Multiplicative),
    row(Rule::prefix, Fixity::Prefix, Level::Prefix),
    row(Rule::subscript, Fixity::Postfix, Level::Postfix),
    row(Rule::superscript, Fixity::Postfix, Level::Postfix),
    row(Rule::primes, Fixity::Postfix, Level::Postfix),
    row(Rule::factorial, Fixity::Postfix, Level::Postfix),
    row(Rule::unicode_subscript, Fixity::Postfix, Level::Postfix),
    row(Rule::unicode_superscript, Fixity::Postfix, Level::Postfix),
];

/// The Pratt parser for [`TABLE`], built once.
pub fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        let levels = [
            Level::List,
            Level::Relation,
            Level::Additive,
            Level::Multiplicative,
            Level::Prefix,
            Level::Postfix,
        ];
        levels.iter().fold(PrattParser::new(), |parser, level| {
            let ops = TABLE.iter().filter(|row| row.level == *level).map(|row| match row.fixity {
                Fixity::Infix => Op::infix(row.rule, Assoc::Left),
                Fixity::Prefix => Op::prefix(row.rule),
                Fixity::Postfix => Op::postfix(row.rule),
            });
            match ops.reduce(|a, b| a | b) {
                Some(op) => parser.op(op),
                None => parser,
            }
        })
    })
}

/// Whether `rule` is an operator rule, a row of [`TABLE`].
pub fn is_operator(rule: Rule) -> bool {
    TABLE.iter().any(|row| row.rule == rule)
}

/// The level of an infix operator of the tree.
pub fn infix_level(op: &InfixOp) -> Level {
    match op {
        InfixOp::Separator(_) => Level::List,
        InfixOp::Relation(_) | InfixOp::Stacked { .. } => Level::Relation,
        InfixOp::Additive(_) => Level::Additive,
        InfixOp::Multiplicative(_) | InfixOp::Juxt => Level::Multiplicative,
    }
}
