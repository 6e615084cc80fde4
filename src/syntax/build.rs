//! pest pairs → the typed tree.
//!
//! Each expression's flat pair sequence goes through the Pratt parser of
//! [`super::precedence`]; operands are built by [`Builder::primary`]. The recursion here
//! follows the nesting of the input, which [`super::prescan`] has already bounded; the only
//! nesting the pre-scan cannot see, scripts stacked on scripts, is bounded in
//! [`shape::attach_script`].

use super::ast::{Delim, Font, InfixOp, Link, Node, NodeKind, Place, Span, StackedRelation};
use super::error::{ParseError, ParseErrorKind, Warning};
use super::grammar::{LatexParser, Rule};
use super::names;
use super::precedence::{is_operator, pratt};
use super::shape::{self, apply_font, attach_primes, attach_script, chain, delimiter, symbol, Slot};
use super::Limits;
use pest::iterators::{Pair, Pairs};
use pest::Parser;
use std::cell::RefCell;

type Result<T> = std::result::Result<T, ParseError>;

/// Builds nodes from the pairs of one source text.
pub(super) struct Builder<'s> {
    source: &'s str,
    /// How far pest's positions are ahead of the source's (the guard mark).
    offset: usize,
    limits: &'s Limits,
    warnings: RefCell<Vec<Warning>>,
}

impl<'s> Builder<'s> {
    pub(super) fn new(source: &'s str, limits: &'s Limits, offset: usize) -> Self {
        Builder { source, offset, limits, warnings: RefCell::new(Vec::new()) }
    }

    pub(super) fn into_warnings(self) -> Vec<Warning> {
        self.warnings.into_inner()
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let span = pair.as_span();
        Span::new(span.start().saturating_sub(self.offset), span.end().saturating_sub(self.offset))
    }

    /// The source text of `pair`: pest reads the encoded text, in which names are codes.
    fn text(&self, pair: &Pair<Rule>) -> &'s str {
        self.span(pair).text(self.source)
    }

    /// The whole formula: its rows.
    pub(super) fn formula(&self, pair: Pair<Rule>) -> Result<Node> {
        let span = self.span(&pair);
        match pair.into_inner().find(|p| p.as_rule() == Rule::rows) {
            Some(rows) => self.rows(rows, None, None),
            None => Ok(Node::new(NodeKind::Empty, span)),
        }
    }

    /// Rows of cells; top-level rows of one cell are just that cell.
    fn rows(&self, pair: Pair<Rule>, env: Option<String>, columns: Option<String>) -> Result<Node> {
        let span = self.span(&pair);
        let mut rows = Vec::new();
        for row in pair.into_inner().filter(|p| p.as_rule() == Rule::row) {
            let cells = row
                .into_inner()
                .map(|cell| {
                    let cell_span = self.span(&cell);
                    self.body(cell.into_inner(), cell_span)
                })
                .collect::<Result<Vec<_>>>()?;
            rows.push(cells);
        }
        Ok(shape::rows(rows, env, columns, span))
    }

    /// An expression (`expr`, `pexpr` or `bexpr`): its pairs through the Pratt parser.
    fn expr(&self, pair: Pair<Rule>) -> Result<Node> {
        let pairs = pair.into_inner();
        // A lone operand leaves the precedence table nothing to decide.
        if pairs.len() == 1 {
            if let Some(operand) = pairs.peek().filter(|p| !is_operator(p.as_rule())) {
                return self.primary(operand);
            }
        }
        pratt()
            .map_primary(|primary| self.primary(primary))
            .map_prefix(|op, operand| self.prefix(op, operand?))
            .map_infix(|lhs, op, rhs| self.infix(lhs?, op, rhs?))
            .map_postfix(|operand, op| self.postfix(operand?, op))
            .parse(pairs)
    }

    fn prefix(&self, op: Pair<Rule>, operand: Node) -> Result<Node> {
        Ok(shape::prefix(shape::prefix_op(self.text(&op)), self.span(&op), operand))
    }

    fn infix(&self, lhs: Node, op: Pair<Rule>, rhs: Node) -> Result<Node> {
        let op_span = self.span(&op);
        let text = self.text(&op);
        let infix_op = match op.as_rule() {
            Rule::separator => InfixOp::Separator(text.trim().into()),
            Rule::relation => InfixOp::Relation(names::canonical_relation(text)),
            Rule::additive => InfixOp::Additive(names::canonical_additive(text)),
            Rule::multiplicative => InfixOp::Multiplicative(names::canonical_multiplicative(text)),
            Rule::stacked_relation => self.stacked_relation(op)?,
            _ => InfixOp::Juxt,
        };
        Ok(chain(lhs, infix_op, op_span, rhs))
    }

    fn stacked_relation(&self, op: Pair<Rule>) -> Result<InfixOp> {
        let mut inner = op.into_inner();
        let place = match inner.next().map(|p| self.text(&p)) {
            Some("\\underset") => Place::Under,
            _ => Place::Over,
        };
        let label = self.next_argument(&mut inner, Span::default())?;
        let relation = inner.next().map(|p| names::canonical_relation(self.text(&p))).unwrap_or_default();
        Ok(InfixOp::Stacked(Box::new(StackedRelation { place, label, relation })))
    }

    fn postfix(&self, operand: Node, op: Pair<Rule>) -> Result<Node> {
        let op_span = self.span(&op);
        match op.as_rule() {
            Rule::subscript | Rule::superscript => {
                let slot = if op.as_rule() == Rule::subscript { Slot::Sub } else { Slot::Sup };
                let mut inner = op.into_inner().filter(|p| p.as_rule() == Rule::script_argument);
                let script = match inner.next() {
                    Some(argument) => self.argument(argument)?,
                    None => Node::new(NodeKind::Empty, op_span),
                };
                attach_script(operand, slot, script, op_span, self.limits.max_scripts)
            }
            Rule::primes => {
                let count = self.text(&op).chars().map(shape::prime_count).sum::<u8>();
                attach_primes(operand, count, op_span, self.limits.max_scripts)
            }
            Rule::unicode_subscript | Rule::unicode_superscript => {
                let slot = if op.as_rule() == Rule::unicode_subscript { Slot::Sub } else { Slot::Sup };
                let script = self.unicode_script(self.text(&op), op_span)?;
                attach_script(operand, slot, script, op_span, self.limits.max_scripts)
            }
            _ => shape::factorial(operand, op_span, self.limits.max_scripts),
        }
    }

    /// A run of Unicode sub- or superscript characters, parsed as the LaTeX it stands for.
    fn unicode_script(&self, run: &str, span: Span) -> Result<Node> {
        let latex = names::unicode_script_latex(run).unwrap_or_default();
        let fragment = parse_fragment(&latex, self.limits).map_err(|mut error| {
            error.span = span;
            error
        })?;
        Ok(with_span(fragment, span))
    }

    /// The next pair of `pairs` as an argument, or a missing-argument error at `span`.
    fn next_argument(&self, pairs: &mut Pairs<Rule>, span: Span) -> Result<Node> {
        match pairs.next() {
            Some(pair) => self.argument(pair),
            None => Err(ParseError::new(
                ParseErrorKind::MissingArguments { command: span.text(self.source).to_string() },
                span,
            )),
        }
    }

    /// An `argument` or `script_argument`: a brace body or one operand.
    fn argument(&self, pair: Pair<Rule>) -> Result<Node> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner().peekable();
        let first = inner.peek().map(|p| p.as_rule());
        match first {
            Some(Rule::expr | Rule::styled_rest) => self.body(inner, span),
            Some(_) => match inner.next() {
                Some(operand) => self.primary(operand),
                None => Ok(Node::new(NodeKind::Empty, span)),
            },
            None => Ok(Node::new(NodeKind::Empty, span)),
        }
    }

    /// The inside of a brace group: an expression or a font switch and the rest, and an
    /// optional `\over`, `\choose` or `\atop` with the expression after it.
    fn body<'i>(&self, pairs: impl IntoIterator<Item = Pair<'i, Rule>>, span: Span) -> Result<Node> {
        let mut pairs = pairs.into_iter();
        let first = match pairs.next() {
            Some(pair) => self.primary(pair)?,
            None => return Ok(Node::new(NodeKind::Empty, span)),
        };
        let Some(word) = pairs.next() else {
            return Ok(first);
        };
        let second = match pairs.next() {
            Some(pair) => self.expr(pair)?,
            None => Node::new(NodeKind::Empty, span),
        };
        Ok(shape::fraction_of_group(first, self.text(&word), second, span))
    }

    /// An operand.
    fn primary(&self, pair: Pair<Rule>) -> Result<Node> {
        let span = self.span(&pair);
        let text = self.text(&pair);
        let kind = match pair.as_rule() {
            Rule::letter => symbol(text, Font::Normal),
            Rule::number | Rule::digit => NodeKind::Number { text: text.into(), font: Font::Normal },
            Rule::punctuation | Rule::stray_closer => NodeKind::Punct { text: text.into() },
            Rule::empty => NodeKind::Empty,
            Rule::expr | Rule::pexpr | Rule::bexpr => return self.expr(pair),
            Rule::script_symbol => shape::script_symbol(text, span, &mut self.warnings.borrow_mut()),
            Rule::unicode_operand => self.unicode_operand(text, span),
            Rule::escaped_symbol => symbol(text, Font::Normal),
            Rule::symbol_command => self.symbol_command(text, span)?,
            Rule::group => {
                // The node covers its braces, which tells `attach_script` that `{x_i}_j` is a
                // script on a group, not a second script on x.
                let mut body = self.body(pair.into_inner(), span)?;
                body.span = span;
                return Ok(body);
            }
            Rule::styled_rest => return self.styled_rest(pair, span),
            _ => return self.compound(pair, span),
        };
        Ok(Node::new(kind, span))
    }

    /// Operands built from several parts.
    fn compound(&self, pair: Pair<Rule>, span: Span) -> Result<Node> {
        let rule = pair.as_rule();
        let text = self.text(&pair);
        let mut inner = pair.into_inner();
        let kind = match rule {
            Rule::bracket_group => return self.bracket_group(inner, span),
            Rule::bar_group => return self.bar_group(inner, span),
            Rule::left_right => return self.left_right(inner, span),
            Rule::environment => return self.environment(inner, span),
            Rule::substack => return self.substack(inner, span),
            Rule::unicode_sqrt => return self.unicode_sqrt(inner, span),
            Rule::fraction => {
                let name_span = inner.next().map(|p| self.span(&p)).unwrap_or(span);
                let num = self.next_argument(&mut inner, name_span)?;
                let den = self.next_argument(&mut inner, name_span)?;
                NodeKind::Frac { num: num.boxed(), den: den.boxed() }
            }
            Rule::binomial => {
                inner.next();
                let top = self.next_argument(&mut inner, span)?;
                let bottom = self.next_argument(&mut inner, span)?;
                NodeKind::Binom { top: top.boxed(), bottom: bottom.boxed() }
            }
            Rule::sqrt => {
                let mut index = None;
                let mut radicand = Node::new(NodeKind::Empty, span);
                for part in inner {
                    match part.as_rule() {
                        Rule::sqrt_index => {
                            index = part.into_inner().next().map(|e| self.expr(e)).transpose()?.map(Box::new)
                        }
                        Rule::argument => radicand = self.argument(part)?,
                        _ => {}
                    }
                }
                NodeKind::Sqrt { index, radicand: radicand.boxed() }
            }
            Rule::accent => {
                let name = inner
                    .next()
                    .map(|p| self.text(&p).trim_start_matches('\\').to_string())
                    .unwrap_or_default();
                let body = self.next_argument(&mut inner, span)?;
                NodeKind::Accent { accent: name.into(), body: body.boxed() }
            }
            Rule::font_command | Rule::braced_font_command => {
                let name = inner.next().map(|p| self.text(&p).trim_start_matches('\\')).unwrap_or("");
                let rest: Vec<_> = inner.collect();
                let body = match rest.first() {
                    Some(argument) if argument.as_rule() == Rule::argument => {
                        self.argument(argument.clone())?
                    }
                    _ => self.body(rest, span)?,
                };
                return Ok(apply_font(names::font_of(name), body, span));
            }
            Rule::text_command => shape::text_word(inner.nth(1).map_or("{}", |p| self.text(&p))),
            Rule::operatorname => return self.operatorname(inner, span),
            Rule::brace_annotation => {
                let place = match inner.next().map(|p| self.text(&p)) {
                    Some(name) if name.starts_with("\\over") => Place::Over,
                    _ => Place::Under,
                };
                let body = self.next_argument(&mut inner, span)?;
                let label = match inner.next().and_then(|l| l.into_inner().next()) {
                    Some(label) => Some(self.argument(label)?.boxed()),
                    None => None,
                };
                NodeKind::Annotated { place, body: body.boxed(), label }
            }
            Rule::stacked => {
                let place = if text.starts_with("\\underset") { Place::Under } else { Place::Over };
                inner.next();
                let over = self.next_argument(&mut inner, span)?;
                let base = self.next_argument(&mut inner, span)?;
                NodeKind::Stacked { place, over: over.boxed(), base: base.boxed() }
            }
            Rule::boxed => {
                inner.next();
                let body = self.next_argument(&mut inner, span)?;
                if text.starts_with("\\textcolor") {
                    return Ok(body);
                }
                NodeKind::Boxed { body: body.boxed() }
            }
            Rule::not_symbol => {
                inner.next();
                let body = match inner.next() {
                    Some(part) if part.as_rule() == Rule::argument => self.argument(part)?,
                    Some(part) => self.primary(part)?,
                    None => Node::new(NodeKind::Empty, span),
                };
                NodeKind::Accent { accent: "not".into(), body: body.boxed() }
            }
            _ => NodeKind::Unknown { name: text.into() },
        };
        Ok(Node::new(kind, span))
    }

    fn styled_rest(&self, pair: Pair<Rule>, span: Span) -> Result<Node> {
        let mut inner = pair.into_inner();
        let switch = inner.next().map(|p| self.text(&p).trim_start_matches('\\')).unwrap_or("");
        let body = match inner.next() {
            Some(expr) => self.expr(expr)?,
            None => Node::new(NodeKind::Empty, span),
        };
        Ok(apply_font(names::font_of(switch), body, span))
    }

    fn bracket_group(&self, mut inner: Pairs<Rule>, span: Span) -> Result<Node> {
        let open = inner.next().map_or(Delim::Paren, |p| delimiter(self.text(&p)));
        let body = match inner.next() {
            Some(expr) => self.expr(expr)?,
            None => Node::new(NodeKind::Empty, span),
        };
        let close = inner.next().map(|p| delimiter(self.text(&p)));
        Ok(Node::new(NodeKind::Fenced { open, close, sized: false, body: body.boxed() }, span))
    }

    fn bar_group(&self, inner: Pairs<Rule>, span: Span) -> Result<Node> {
        let mut open = Delim::Bar;
        let mut close = Delim::Bar;
        let mut body = Node::new(NodeKind::Empty, span);
        for (index, part) in inner.enumerate() {
            match (index, part.as_rule()) {
                (0, _) => open = delimiter(self.text(&part)),
                (_, Rule::bexpr) => body = self.expr(part)?,
                _ => close = delimiter(self.text(&part)),
            }
        }
        Ok(Node::new(NodeKind::Fenced { open, close: Some(close), sized: false, body: body.boxed() }, span))
    }

    fn left_right(&self, inner: Pairs<Rule>, span: Span) -> Result<Node> {
        let mut delimiters = Vec::new();
        let mut body_pairs = Vec::new();
        for part in inner {
            match part.as_rule() {
                Rule::delimiter => delimiters.push(delimiter(self.text(&part))),
                Rule::expr | Rule::fraction_word => body_pairs.push(part),
                _ => {}
            }
        }
        let body = self.body(body_pairs, span)?;
        let open = delimiters.first().copied().unwrap_or(Delim::Nothing);
        let close = delimiters.get(1).copied().unwrap_or(Delim::Nothing);
        Ok(Node::new(NodeKind::Fenced { open, close: Some(close), sized: true, body: body.boxed() }, span))
    }

    /// `\substack{…}`: its rows of conditions, read as an environment named `substack`.
    fn substack(&self, inner: Pairs<Rule>, span: Span) -> Result<Node> {
        for part in inner {
            if part.as_rule() == Rule::rows {
                let mut rows = self.rows(part, Some("substack".to_string()), None)?;
                rows.span = span;
                return Ok(rows);
            }
        }
        Ok(Node::new(NodeKind::Empty, span))
    }

    /// `\begin{name} … \end{name}`: its rows, spanning the whole environment.
    fn environment(&self, inner: Pairs<Rule>, span: Span) -> Result<Node> {
        let mut name = None;
        let mut columns = None;
        for part in inner {
            match part.as_rule() {
                Rule::array_name | Rule::aligned_name | Rule::environment_name if name.is_none() => {
                    name = Some(self.text(&part).to_string())
                }
                Rule::column_spec => {
                    let spec = self.text(&part);
                    columns = Some(spec.get(1..spec.len().saturating_sub(1)).unwrap_or("").to_string());
                }
                Rule::rows => {
                    let mut rows = self.rows(part, name.or(Some(String::new())), columns)?;
                    rows.span = span;
                    return Ok(rows);
                }
                _ => {}
            }
        }
        Ok(Node::new(NodeKind::Empty, Span::default()))
    }

    fn unicode_sqrt(&self, inner: Pairs<Rule>, span: Span) -> Result<Node> {
        let mut radicand = Node::new(NodeKind::Empty, span);
        for part in inner {
            radicand = match part.as_rule() {
                Rule::unicode_subscript => {
                    let part_span = self.span(&part);
                    let script = self.unicode_script(self.text(&part), part_span)?;
                    attach_script(radicand, Slot::Sub, script, part_span, self.limits.max_scripts)?
                }
                _ => self.primary(part)?,
            };
        }
        Ok(Node::new(NodeKind::Sqrt { index: None, radicand: radicand.boxed() }, span))
    }

    fn operatorname(&self, inner: Pairs<Rule>, span: Span) -> Result<Node> {
        let mut limits = false;
        let mut body = Node::new(NodeKind::Empty, span);
        for part in inner {
            match part.as_rule() {
                Rule::operatorname_name => limits = self.text(&part).ends_with('*'),
                _ => body = self.argument(part)?,
            }
        }
        Ok(shape::operatorname(limits, body, span))
    }

    fn unicode_operand(&self, text: &str, span: Span) -> NodeKind {
        shape::unicode_operand(text, span, &mut self.warnings.borrow_mut())
    }

    fn symbol_command(&self, text: &str, span: Span) -> Result<NodeKind> {
        shape::command(text, span, &mut self.warnings.borrow_mut())
    }
}

/// Parses a small piece of LaTeX made by eqmap itself (from Unicode scripts).
fn parse_fragment(latex: &str, limits: &Limits) -> Result<Node> {
    let encoded = super::encode::encode_guarded(latex);
    let mut pairs = LatexParser::parse(Rule::formula, &encoded).map_err(|_| {
        ParseError::new(
            ParseErrorKind::Unexpected { found: latex.to_string(), expected: Vec::new() },
            Span::default(),
        )
    })?;
    let builder = Builder::new(latex, limits, super::encode::GUARD_MARK.len_utf8());
    match pairs.next() {
        Some(formula) => builder.formula(formula),
        None => Ok(Node::new(NodeKind::Empty, Span::default())),
    }
}

/// Gives every node of a small tree the same span.
fn with_span(mut node: Node, span: Span) -> Node {
    node.span = span;
    node.kind = match node.kind {
        NodeKind::Prefix { op, operand } => {
            NodeKind::Prefix { op, operand: with_span(*operand, span).boxed() }
        }
        NodeKind::Chain { first, rest } => NodeKind::Chain {
            first: with_span(*first, span).boxed(),
            rest: rest
                .into_iter()
                .map(|l| Link { op: l.op, op_span: span, operand: with_span(l.operand, span) })
                .collect(),
        },
        NodeKind::Fenced { open, close, sized, body } => {
            NodeKind::Fenced { open, close, sized, body: with_span(*body, span).boxed() }
        }
        kind => kind,
    };
    node
}
