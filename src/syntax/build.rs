//! pest pairs → the typed tree.
//!
//! Each expression's flat pair sequence goes through the Pratt parser of
//! [`super::precedence`]; operands are built by [`Builder::primary`]. The recursion here
//! follows the nesting of the input, which [`super::prescan`] has already bounded; the only
//! nesting the pre-scan cannot see, scripts stacked on scripts, is bounded in
//! [`Builder::attach_script`].

use super::ast::{Delim, Font, InfixOp, Link, Node, NodeKind, Place, PrefixOp, Span, WordStyle};
use super::error::{ParseError, ParseErrorKind, Warning, WarningKind};
use super::grammar::{LatexParser, Rule};
use super::names::{self, CommandClass, UnicodeMeaning};
use super::precedence::{infix_level, is_operator, pratt};
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

/// Which script slot a postfix fills.
#[derive(Clone, Copy)]
enum Slot {
    Sub,
    Sup,
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

    fn warn(&self, kind: WarningKind, span: Span) {
        self.warnings.borrow_mut().push(Warning { kind, span });
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
        let trailing_empty = |row: &Vec<Node>| matches!(row.as_slice(), [Node { kind: NodeKind::Empty, .. }]);
        // A trailing `\\` makes no row (TeX draws none); nor do several.
        while rows.len() > 1 && rows.last().is_some_and(trailing_empty) {
            rows.pop();
        }
        if env.is_none() && rows.len() == 1 && rows.first().is_some_and(|r| r.len() == 1) {
            if let Some(cell) = rows.pop().and_then(|mut row| row.pop()) {
                return Ok(cell);
            }
        }
        Ok(Node::new(NodeKind::Rows { env, columns, rows }, span))
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
        let op_kind = match self.text(&op).trim() {
            "+" => PrefixOp::Plus,
            "±" | "\\pm" => PrefixOp::PlusMinus,
            "∓" | "\\mp" => PrefixOp::MinusPlus,
            "¬" | "\\neg" | "\\lnot" => PrefixOp::Not,
            _ => PrefixOp::Minus,
        };
        let span = self.span(&op).join(operand.span);
        Ok(Node::new(NodeKind::Prefix { op: op_kind, operand: operand.boxed() }, span))
    }

    fn infix(&self, lhs: Node, op: Pair<Rule>, rhs: Node) -> Result<Node> {
        let op_span = self.span(&op);
        let text = self.text(&op);
        let infix_op = match op.as_rule() {
            Rule::separator => InfixOp::Separator(text.trim().to_string()),
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
        Ok(InfixOp::Stacked { place, label: label.boxed(), relation })
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
                self.attach_script(operand, slot, script, op_span)
            }
            Rule::primes => {
                let count = self.text(&op).chars().map(prime_count).sum::<u8>();
                self.attach_primes(operand, count, op_span)
            }
            Rule::unicode_subscript | Rule::unicode_superscript => {
                let slot = if op.as_rule() == Rule::unicode_subscript { Slot::Sub } else { Slot::Sup };
                let script = self.unicode_script(self.text(&op), op_span)?;
                self.attach_script(operand, slot, script, op_span)
            }
            _ => {
                self.check_script_depth(&operand, op_span)?;
                let span = operand.span.join(op_span);
                Ok(Node::new(NodeKind::Factorial { operand: operand.boxed() }, span))
            }
        }
    }

    /// Puts `script` in the free slot of `base`'s scripts, or starts new scripts on it.
    fn attach_script(&self, base: Node, slot: Slot, script: Node, op_span: Span) -> Result<Node> {
        let script = lone_operator_as_symbol(script);
        let span = base.span.join(op_span);
        match base.kind {
            NodeKind::Scripts { base: inner, mut sub, mut sup, primes } => {
                let braced = base.span.start < inner.span.start;
                let free = !braced
                    && match slot {
                        Slot::Sub => sub.is_none(),
                        Slot::Sup => sup.is_none() && primes == 0,
                    };
                if free {
                    match slot {
                        Slot::Sub => sub = Some(script.boxed()),
                        Slot::Sup => sup = Some(script.boxed()),
                    }
                    return Ok(Node::new(NodeKind::Scripts { base: inner, sub, sup, primes }, span));
                }
                let base = Node::new(NodeKind::Scripts { base: inner, sub, sup, primes }, base.span);
                self.new_scripts(base, slot, script, span)
            }
            kind => self.new_scripts(Node::new(kind, base.span), slot, script, span),
        }
    }

    fn new_scripts(&self, base: Node, slot: Slot, script: Node, span: Span) -> Result<Node> {
        self.check_script_depth(&base, span)?;
        let (sub, sup) = match slot {
            Slot::Sub => (Some(script.boxed()), None),
            Slot::Sup => (None, Some(script.boxed())),
        };
        Ok(Node::new(NodeKind::Scripts { base: base.boxed(), sub, sup, primes: 0 }, span))
    }

    fn attach_primes(&self, base: Node, count: u8, op_span: Span) -> Result<Node> {
        let span = base.span.join(op_span);
        match base.kind {
            NodeKind::Scripts { base: inner, sub, sup: None, primes }
                if base.span.start == inner.span.start =>
            {
                let primes = primes.saturating_add(count);
                Ok(Node::new(NodeKind::Scripts { base: inner, sub, sup: None, primes }, span))
            }
            kind => {
                let base = Node::new(kind, base.span);
                self.check_script_depth(&base, span)?;
                Ok(Node::new(
                    NodeKind::Scripts { base: base.boxed(), sub: None, sup: None, primes: count },
                    span,
                ))
            }
        }
    }

    /// Refuses to stack more than the limit of scripts and factorials on one base.
    fn check_script_depth(&self, base: &Node, span: Span) -> Result<()> {
        let mut depth = 0;
        let mut node = base;
        while let NodeKind::Scripts { base: inner, .. } | NodeKind::Factorial { operand: inner } = &node.kind
        {
            depth += 1;
            if depth >= self.limits.max_scripts {
                return Err(ParseError::new(
                    ParseErrorKind::TooManyScripts { limit: self.limits.max_scripts },
                    span,
                ));
            }
            node = inner;
        }
        Ok(())
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
        let kind = match self.text(&word).trim() {
            "\\choose" => NodeKind::Binom { top: first.boxed(), bottom: second.boxed() },
            _ => NodeKind::Frac { num: first.boxed(), den: second.boxed() },
        };
        Ok(Node::new(kind, span))
    }

    /// An operand.
    fn primary(&self, pair: Pair<Rule>) -> Result<Node> {
        let span = self.span(&pair);
        let text = self.text(&pair);
        let kind = match pair.as_rule() {
            Rule::letter => symbol(text, Font::Normal),
            Rule::number | Rule::digit => NodeKind::Number { text: text.to_string(), font: Font::Normal },
            Rule::punctuation | Rule::stray_closer => NodeKind::Punct { text: text.to_string() },
            Rule::empty => NodeKind::Empty,
            Rule::expr | Rule::pexpr | Rule::bexpr => return self.expr(pair),
            Rule::script_symbol => self.script_symbol(text, span),
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
            Rule::environment => return self.environment(inner),
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
                NodeKind::Accent { accent: name, body: body.boxed() }
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
            Rule::text_command => {
                let body = inner.nth(1).map(|p| self.text(&p).trim_start()).unwrap_or("{}");
                let text = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')).unwrap_or(body);
                NodeKind::Word { text: text.to_string(), style: WordStyle::Text }
            }
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
                NodeKind::Accent { accent: "not".to_string(), body: body.boxed() }
            }
            _ => NodeKind::Unknown { name: text.to_string() },
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

    fn environment(&self, inner: Pairs<Rule>) -> Result<Node> {
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
                Rule::rows => return self.rows(part, name.or(Some(String::new())), columns),
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
                    self.attach_script(radicand, Slot::Sub, script, part_span)?
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
        let style = if limits { WordStyle::OperatorLimits } else { WordStyle::Operator };
        let kind = match letters_of(&body) {
            Some(text) => NodeKind::Word { text, style },
            None => match body.kind {
                NodeKind::Word { text, .. } => NodeKind::Word { text, style },
                _ => NodeKind::Styled { font: Font::Roman, body: body.boxed() },
            },
        };
        Ok(Node::new(kind, span))
    }

    fn script_symbol(&self, text: &str, span: Span) -> NodeKind {
        match text.chars().next() {
            Some(c) if c.is_ascii_digit() => NodeKind::Number { text: text.to_string(), font: Font::Normal },
            Some(c) if c.is_ascii_alphabetic() => symbol(text, Font::Normal),
            Some('−') => symbol("-", Font::Normal),
            Some('\'') => NodeKind::Symbol { name: "prime".into(), font: Font::Normal },
            Some(c) if c.is_ascii() => symbol(text, Font::Normal),
            _ => self.unicode_operand(text, span),
        }
    }

    fn unicode_operand(&self, text: &str, span: Span) -> NodeKind {
        let meaning = text.chars().next().and_then(names::unicode_meaning);
        match meaning {
            Some(UnicodeMeaning::Symbol(name, font)) => NodeKind::Symbol { name, font },
            Some(UnicodeMeaning::Digit(digit, font)) => NodeKind::Number { text: digit.to_string(), font },
            Some(UnicodeMeaning::LargeOp(name)) => NodeKind::LargeOp { name: name.to_string() },
            Some(UnicodeMeaning::Dots(name)) => NodeKind::Dots { name: name.to_string() },
            None => {
                self.warn(WarningKind::UnknownCharacter { character: text.to_string() }, span);
                NodeKind::Unknown { name: text.to_string() }
            }
        }
    }

    fn symbol_command(&self, text: &str, span: Span) -> Result<NodeKind> {
        let name = text.trim_start_matches('\\');
        Ok(match names::classify_command(name) {
            CommandClass::Symbol => symbol(name, Font::Normal),
            CommandClass::Word(style) => NodeKind::Word { text: name.to_string(), style },
            CommandClass::LargeOp => NodeKind::LargeOp { name: name.to_string() },
            CommandClass::Dots => NodeKind::Dots { name: name.to_string() },
            CommandClass::NeedsArguments => {
                return Err(ParseError::new(
                    ParseErrorKind::MissingArguments { command: text.to_string() },
                    span,
                ))
            }
            CommandClass::Unknown => {
                self.warn(WarningKind::UnknownCommand { name: text.to_string() }, span);
                NodeKind::Unknown { name: text.to_string() }
            }
        })
    }
}

fn symbol(name: &str, font: Font) -> NodeKind {
    NodeKind::Symbol { name: name.to_string(), font }
}

fn prime_count(c: char) -> u8 {
    match c {
        '″' => 2,
        '‴' => 3,
        '\'' | '′' => 1,
        _ => 0,
    }
}

/// Joins `rhs` to `lhs` with `op`, extending `lhs` when it is a chain of the same level.
fn chain(lhs: Node, op: InfixOp, op_span: Span, rhs: Node) -> Node {
    let span = lhs.span.join(rhs.span);
    let link = Link { op, op_span, operand: rhs };
    match lhs.kind {
        NodeKind::Chain { first, mut rest }
            if rest.first().is_some_and(|l| infix_level(&l.op) == infix_level(&link.op)) =>
        {
            rest.push(link);
            Node::new(NodeKind::Chain { first, rest }, span)
        }
        kind => {
            Node::new(NodeKind::Chain { first: Node::new(kind, lhs.span).boxed(), rest: vec![link] }, span)
        }
    }
}

/// The letters of a run of plain single letters (`l n` → `ln`), if that is all `node` is.
fn letters_of(node: &Node) -> Option<String> {
    let plain_letter = |n: &Node| match &n.kind {
        NodeKind::Symbol { name, font: Font::Normal }
            if name.len() == 1 && name.as_bytes().iter().all(u8::is_ascii_alphabetic) =>
        {
            Some(name.clone())
        }
        _ => None,
    };
    match &node.kind {
        NodeKind::Chain { first, rest } if rest.iter().all(|l| l.op == InfixOp::Juxt) => {
            let mut text = plain_letter(first)?;
            for link in rest {
                text.push_str(&plain_letter(&link.operand)?);
            }
            Some(text)
        }
        _ => None,
    }
}

/// Sets `body` in `font`: one symbol takes the font, a run of letters becomes a word,
/// scripts and accents pass it to their base, anything else is wrapped.
fn apply_font(font: Font, body: Node, span: Span) -> Node {
    if font == Font::Normal {
        return body;
    }
    if let Some(text) = letters_of(&body) {
        let style = if font == Font::Roman { WordStyle::Roman } else { WordStyle::Font(font) };
        return Node::new(NodeKind::Word { text, style }, span);
    }
    let kind = match body.kind {
        NodeKind::Symbol { name, .. } => NodeKind::Symbol { name, font },
        NodeKind::Number { text, .. } => NodeKind::Number { text, font },
        NodeKind::Scripts { base, sub, sup, primes } => {
            NodeKind::Scripts { base: apply_font(font, *base, span).boxed(), sub, sup, primes }
        }
        NodeKind::Accent { accent, body } => {
            NodeKind::Accent { accent, body: apply_font(font, *body, span).boxed() }
        }
        kind @ (NodeKind::Empty | NodeKind::Word { .. } | NodeKind::Unknown { .. }) => kind,
        kind => NodeKind::Styled { font, body: Node::new(kind, body.span).boxed() },
    };
    Node::new(kind, span)
}

/// The side-less delimiter a bracket token stands for.
fn delimiter(text: &str) -> Delim {
    match text.trim() {
        "(" | ")" => Delim::Paren,
        "[" | "]" | "\\lbrack" | "\\rbrack" => Delim::Bracket,
        "\\{" | "\\}" | "\\lbrace" | "\\rbrace" => Delim::Brace,
        "<" | ">" | "⟨" | "⟩" | "\\langle" | "\\rangle" => Delim::Angle,
        "|" | "\\vert" | "\\lvert" | "\\rvert" => Delim::Bar,
        "\\|" | "‖" | "\\Vert" | "\\lVert" | "\\rVert" => Delim::DoubleBar,
        "\\lfloor" | "\\rfloor" => Delim::Floor,
        "\\lceil" | "\\rceil" => Delim::Ceil,
        "\\llbracket" | "\\rrbracket" => Delim::DoubleBracket,
        "\\lgroup" | "\\rgroup" => Delim::Group,
        "." => Delim::Nothing,
        "/" => Delim::Slash,
        "\\backslash" => Delim::Backslash,
        _ => Delim::Arrow,
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

/// A script that is one operator alone, braced or not, is that operator as a symbol, as in TeX:
/// `x^{*}` is `x^*`, `\mathbb{R}^{+}` is `\mathbb{R}^+`, `x^{\pm}` is `x^\pm`.
fn lone_operator_as_symbol(script: Node) -> Node {
    let NodeKind::Chain { first, rest } = &script.kind else { return script };
    let ([link], NodeKind::Empty) = (rest.as_slice(), &first.kind) else { return script };
    if !matches!(link.operand.kind, NodeKind::Empty) {
        return script;
    }
    let name = match &link.op {
        InfixOp::Additive(op) | InfixOp::Multiplicative(op) | InfixOp::Relation(op) => {
            op.trim_start_matches('\\').to_string()
        }
        _ => return script,
    };
    Node::new(symbol(&name, Font::Normal), script.span)
}
