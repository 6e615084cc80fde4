//! What a document knows as its formulas are read: values, dimension sizes, declarations,
//! functions and families defined so far.

use super::expr::Expr;
use super::lower::Context;
use super::value::Value;
use crate::meaning::SymbolTable;
use std::collections::HashMap;

/// A function defined by `f(a, b) = body`.
#[derive(Debug, Clone)]
pub struct Function {
    /// Parameter binding names.
    pub params: Vec<String>,
    /// The body.
    pub body: Expr,
}

/// A family defined by `\text{head}_h = body`.
#[derive(Debug, Clone)]
pub struct FamilyDef {
    /// The index it is defined over.
    pub index: String,
    /// The body.
    pub body: Expr,
}

/// The knowledge of a document.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// Kinds and declared shapes, learned from every formula read.
    pub table: SymbolTable,
    /// Values: from `--let`, definitions such as `\mu = …`, and samples.
    pub values: HashMap<String, Value>,
    /// Dimension sizes: from `--dim`, and from formulas evaluated so far.
    pub dims: HashMap<String, usize>,
    /// Functions defined so far.
    pub functions: HashMap<String, Function>,
    /// Families defined so far.
    pub families: HashMap<String, FamilyDef>,
}

impl Env {
    /// Whether `name` has, or can get, a value: bound, declared, or a dimension.
    pub fn is_value(&self, name: &str) -> bool {
        self.values.contains_key(name) || self.table.shape(name).is_some() || self.dims.contains_key(name)
    }

    /// Whether `name` is a family: a bound array of matrices or a defined family.
    pub fn is_family(&self, name: &str) -> bool {
        matches!(self.values.get(name), Some(Value::Family(_))) || self.families.contains_key(name)
    }

    /// Whether `name` is a function defined so far.
    pub fn is_function(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }

    /// Runs `f` with a lowering context that reads this environment, refusing trees more than
    /// `max_depth` levels deep.
    pub fn with_context<T>(&self, max_depth: usize, f: impl FnOnce(&Context<'_>) -> T) -> T {
        let is_value = |n: &str| self.is_value(n);
        let is_family = |n: &str| self.is_family(n);
        let is_function = |n: &str| self.is_function(n);
        let ctx = Context {
            table: &self.table,
            is_value: &is_value,
            is_family: &is_family,
            is_function: &is_function,
            max_depth,
        };
        f(&ctx)
    }
}
