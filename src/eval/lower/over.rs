//! A named function with what stands below its name: what it ranges over,
//! `\mathrm{softmax}_j(e_{ij})`, the softmax over j of its argument (the meaning layer's
//! [`Application::over`]); or its base, `\log_2 p`, the natural log divided by the base's
//! (the meaning layer's `base`).

use super::{unsupported, variable_name, Callee, Lowered, Lowerer};
use crate::eval::expr::{BinOp, Builtin, Expr, ExprKind, ReduceOp, Reduction};
use crate::meaning::tree::Application;
use crate::meaning::Term;
use crate::syntax::ast::Span;

impl Lowerer<'_> {
    /// `\log_2 p`: a logarithm computed in its base, the natural log over the log of the base.
    pub(super) fn in_base(&mut self, log: Expr, base: Option<&Term>, span: Span) -> Lowered {
        let Some(base) = base else { return Ok(log) };
        let base = self.term(base)?;
        let log_of_base = self.make(ExprKind::Call(Builtin::Log, vec![base]), span);
        Ok(self.make(ExprKind::Binary(BinOp::Div, Box::new(log), Box::new(log_of_base)), span))
    }

    /// `\mathrm{softmax}_j(x)` written out as `\exp(x - \max_j x) / \sum_j \exp(x - \max_j x)`
    /// (stable, as the built-in softmax is), the argument lowered anew for each place it takes
    /// so that every node keeps its own id. Any other function with a range, or a softmax with
    /// more than one argument or scripts on its group, is refused rather than computed as if
    /// the range were not written.
    pub(super) fn over(&mut self, app: &Application, over: &Term, span: Span) -> Lowered {
        let var = variable_name(over.node);
        let softmax = matches!(self.callee(&app.callee)?, Callee::Builtin(Builtin::Softmax));
        let plain = app.given.is_empty() && app.sub.is_none() && app.sup.is_none();
        let (Some(var), true, true, [arg]) = (var, softmax, plain, app.args.as_slice()) else {
            let print = crate::syntax::print::to_latex;
            return Err(unsupported(
                &format!("{}_{{{}}}", print(app.callee.node), print(over.node)),
                over.span,
            ));
        };
        let numerator = self.shifted_exp(arg, &var, span)?;
        self.locals.push(var.clone());
        let summand = self.shifted_exp(arg, &var, span);
        self.locals.pop();
        let sum = Reduction { op: ReduceOp::Sum, var, lower: None, upper: None, body: summand? };
        let denominator = self.make(ExprKind::Reduce(Box::new(sum)), span);
        Ok(self.make(ExprKind::Binary(BinOp::Div, Box::new(numerator), Box::new(denominator)), span))
    }

    /// `\exp(x - \max_{var} x)`.
    fn shifted_exp(&mut self, arg: &Term, var: &str, span: Span) -> Lowered {
        let value = self.term(arg)?;
        self.locals.push(var.to_string());
        let body = self.term(arg);
        self.locals.pop();
        let max =
            Reduction { op: ReduceOp::Max, var: var.to_string(), lower: None, upper: None, body: body? };
        let max = self.make(ExprKind::Reduce(Box::new(max)), span);
        let shifted = self.make(ExprKind::Binary(BinOp::Sub, Box::new(value), Box::new(max)), span);
        Ok(self.make(ExprKind::Call(Builtin::Exp, vec![shifted]), span))
    }
}
