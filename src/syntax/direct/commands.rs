//! The direct reader's operands: symbols, numbers, groups, brackets, bars, commands and their
//! arguments, environments (see the module above for how it follows the grammar).

use super::{Context, GiveUp, Read, Reader};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, Place, Span, StackedRelation};
use crate::syntax::encode;
use crate::syntax::names;
use crate::syntax::prescan;
use crate::syntax::shape;

impl Reader<'_> {
    /// The next `length` bytes as a symbol named by their text (`x`, `\%`).
    fn symbol_token(&mut self, length: usize) -> Node {
        let span = self.take(length);
        Node::new(shape::symbol(self.text(span), Font::Normal), span)
    }

    /// The text at `span` as punctuation (`.`, `)`, `\rangle`).
    fn punct(&self, span: Span) -> Node {
        Node::new(NodeKind::Punct { text: self.text(span).into() }, span)
    }

    /// `primary = _{ pprimary | stray_closer }`
    pub(super) fn primary(&mut self) -> Read<Node> {
        if let Some(node) = self.pprimary()? {
            return Ok(Some(node));
        }
        let span = match (self.peek(), self.peek_second()) {
            (b')' | b']', _) => self.take(1),
            (b'\\', b'}') => self.take(2),
            (b'\\', b'C') => self.take_command(),
            _ => return Ok(None),
        };
        Ok(Some(self.punct(span)))
    }

    /// `pprimary = _{ bar_group | bprimary }`
    pub(super) fn pprimary(&mut self) -> Read<Node> {
        if self.starts_bar() {
            let before = self.mark();
            if let Some(group) = self.bar_group()? {
                return Ok(Some(group));
            }
            self.reset(before);
        }
        self.bprimary()
    }

    /// `bprimary`: a letter, a command, a number, a group, a bracket group, punctuation.
    pub(super) fn bprimary(&mut self) -> Read<Node> {
        self.step()?;
        let (first, second) = (self.peek(), self.peek_second());
        let node = match first {
            b'a'..=b'z' | b'A'..=b'Z' => self.symbol_token(1),
            b'0'..=b'9' => self.number(),
            b'.' if second.is_ascii_digit() => self.number(),
            b'{' => self.group()?.ok_or(GiveUp)?,
            b'(' | b'[' => self.bracket_group()?.ok_or(GiveUp)?,
            b'\\' => return self.backslash_operand(second),
            b'.' | b'?' | b'@' | b'"' | b'\'' | b'`' | b'!' => {
                let span = self.take(1);
                self.punct(span)
            }
            _ => return Ok(None),
        };
        Ok(Some(node))
    }

    /// `number = @{ ASCII_DIGIT+ ~ ("." ~ ASCII_DIGIT+)? | "." ~ ASCII_DIGIT+ }`
    fn number(&mut self) -> Node {
        let start = self.at;
        self.at = self.number_end(start);
        let span = Span::new(start, self.at);
        Node::new(NodeKind::Number { text: self.text(span).into(), font: Font::Normal }, span)
    }

    /// Where the number at `from` ends.
    fn number_end(&self, from: usize) -> usize {
        let digits_end = |mut at: usize| {
            while self.byte(at).is_ascii_digit() {
                at += 1;
            }
            at
        };
        let end = digits_end(from);
        if self.byte(end) == b'.' && self.byte(end + 1).is_ascii_digit() {
            digits_end(end + 1)
        } else {
            end
        }
    }

    /// An operand that starts with a backslash: a command, a bracket word, an escaped symbol.
    fn backslash_operand(&mut self, class: u8) -> Read<Node> {
        match class {
            b'o' => self.symbol_command().map(Some),
            b'l' | b'{' => Ok(Some(self.bracket_group()?.ok_or(GiveUp)?)),
            b'q' => self.required(Self::fraction),
            b'p' => self.required(Self::sqrt),
            b'b' => self.required(Self::binomial),
            b'L' => self.required(Self::left_right),
            b'B' => self.required(Self::environment),
            // `\substack{…}`: rows inside braces, left to pest.
            b'U' => Err(GiveUp),
            b'a' | b'\'' | b'"' | b'`' | b'^' | b'=' | b'.' | b'~' => self.required(Self::accent),
            b'f' | b'g' => self.required(Self::font_command),
            b'm' => self.required(Self::text_command),
            b'n' => self.required(Self::operatorname),
            b'e' => self.required(Self::brace_annotation),
            b's' => self.required(Self::stacked),
            b'k' => self.required(Self::boxed),
            // Without an argument, `\\not` is no operand but part of a relation (`\\not =`).
            b'N' => self.not_symbol(),
            // `lone_command`: the rest of the lower-case classes stand alone.
            b'd' | b'h' | b'i' | b'j' | b's'..=b'z' => self.symbol_command().map(Some),
            // A relation (`\\approx`) is no operand: the operand before it is empty.
            b'r' => Ok(None),
            b'%' | b'#' | b'&' | b'$' | b'_' => Ok(Some(self.symbol_token(2))),
            // `\textcolor`, and any other lower-case class.
            b'a'..=b'z' => Err(GiveUp),
            // Reserved words (`\right`, `\over`…), `\\`, `\|`, `\*`, `\}`: no operand.
            _ => Ok(None),
        }
    }

    /// A construct that must be read here: pest's alternatives after it would end in an error,
    /// or in parts this reader leaves to pest.
    fn required(&mut self, rule: fn(&mut Self) -> Read<Node>) -> Read<Node> {
        Ok(Some(rule(self)?.ok_or(GiveUp)?))
    }

    /// `symbol_command = @{ "\\" ~ 'a'..'z' ~ pad }`: a command standing alone.
    fn symbol_command(&mut self) -> Result<Node, GiveUp> {
        let span = self.take_command();
        let kind = shape::command(self.text(span), span, &mut self.warnings).map_err(|_| GiveUp)?;
        Ok(Node::new(kind, span))
    }

    // ------------------------------------------------------------ groups and arguments

    /// `group = { "{" ~ group_body ~ "}" }`: the node covers its braces.
    fn group(&mut self) -> Read<Node> {
        let start = self.at;
        let Some(mut node) = self.braced_body(start)? else { return Ok(None) };
        node.span = Span::new(start, self.at);
        Ok(Some(node))
    }

    /// `"{" ~ group_body ~ "}"` at a `{`, where `group_body = _{ (styled_rest | expr) ~
    /// fraction_tail }`: the body, or the fraction it makes with its `\over` part, which spans
    /// from `start` to the closing brace. One function, so that no body is moved through
    /// another `Result`.
    fn braced_body(&mut self, start: usize) -> Read<Node> {
        self.at += 1;
        self.skip();
        if let Some(lone) = self.lone_operand()? {
            return Ok(Some(lone));
        }
        self.step()?;
        let first = if self.at_command(b'h') || self.at_command(b'g') {
            self.styled_rest()?.ok_or(GiveUp)?
        } else {
            let Some(expr) = self.expr(Context::Braces)? else { return Ok(None) };
            expr
        };
        self.skip();
        let tail = self.fraction_tail()?;
        self.skip();
        if self.peek() != b'}' {
            return Ok(None);
        }
        self.at += 1;
        Ok(Some(self.body(first, tail, Span::new(start, self.at))))
    }

    /// A group's body that is one letter, number or symbol command and its closing brace
    /// (`{ 0 }`, `{ i }`, `{ \infty }`, half the groups of papers): read here, as
    /// [`Reader::braced_body`] would, without its expression machinery. `None`, having read
    /// nothing, for any other body.
    fn lone_operand(&mut self) -> Result<Option<Node>, GiveUp> {
        let start = self.at;
        let end = match (self.peek(), self.peek_second()) {
            (b'a'..=b'z' | b'A'..=b'Z', _) => start + 1,
            (b'0'..=b'9', _) => self.number_end(start),
            (b'\\', b'o') => self.command_end(start),
            _ => return Ok(None),
        };
        let close = self.blanks_end(end);
        if self.byte(close) != b'}' {
            return Ok(None);
        }
        let node = match self.peek() {
            b'\\' => self.symbol_command()?,
            b'0'..=b'9' => self.number(),
            _ => self.symbol_token(1),
        };
        self.at = close + 1;
        Ok(Some(node))
    }

    /// `styled_rest = { font_switch ~ expr }`: `{\bf x}`.
    fn styled_rest(&mut self) -> Read<Node> {
        let start = self.at;
        let switch = self.take_command();
        self.skip();
        let Some(body) = self.expr(Context::Braces)? else { return Ok(None) };
        let font = names::font_of(self.text(switch).trim_start_matches('\\'));
        Ok(Some(shape::apply_font(font, body, Span::new(start, self.at))))
    }

    /// `argument`: a brace body, a font command with braces, or one symbol.
    fn argument(&mut self) -> Read<Node> {
        self.step()?;
        let start = self.at;
        match (self.peek(), self.peek_second()) {
            (b'\\', b'o') => self.symbol_command().map(Some),
            (b'{', _) => self.argument_body(start).map(Some),
            (b'\\', b'f' | b'g') => self.required(Self::braced_font_command),
            (b'a'..=b'z' | b'A'..=b'Z', _) => Ok(Some(self.symbol_token(1))),
            (b'0'..=b'9', _) => {
                let span = self.take(1);
                Ok(Some(Node::new(
                    NodeKind::Number { text: self.text(span).into(), font: Font::Normal },
                    span,
                )))
            }
            (b'\\', b'%' | b'#' | b'&' | b'$' | b'_' | b'{') => Ok(Some(self.symbol_token(2))),
            (b'\\', b'r') => Ok(None),
            (b'\\', b'a'..=b'z') => self.symbol_command().map(Some),
            _ => Ok(None),
        }
    }

    /// An argument in braces: its body, spanning the braces if it is a fraction.
    fn argument_body(&mut self, start: usize) -> Result<Node, GiveUp> {
        self.braced_body(start)?.ok_or(GiveUp)
    }

    /// `script_argument`: a brace body, a command, or one character.
    pub(super) fn script_argument(&mut self) -> Read<Node> {
        self.step()?;
        let start = self.at;
        let (first, second) = (self.peek(), self.peek_second());
        match (first, second) {
            (b'{', _) => self.argument_body(start).map(Some),
            (b'\\', b'o') => self.symbol_command().map(Some),
            (b'\\', b'q') => self.required(Self::fraction),
            (b'\\', b'p') => self.required(Self::sqrt),
            (b'\\', b'b') => self.required(Self::binomial),
            (b'\\', b'f' | b'g') => self.required(Self::font_command),
            (b'\\', b'm') => self.required(Self::text_command),
            (b'\\', b'n') => self.required(Self::operatorname),
            (b'\\', b'a' | b'\'' | b'"' | b'`' | b'^' | b'=' | b'.' | b'~') => self.required(Self::accent),
            (b'\\', b'%' | b'#' | b'&' | b'$' | b'_' | b'{') => Ok(Some(self.symbol_token(2))),
            (b'\\', b'r') => Ok(None),
            (b'\\', b'd' | b'h' | b'i' | b'j' | b'l' | b's'..=b'z') => self.symbol_command().map(Some),
            (b'\\', _) => Err(GiveUp),
            (
                b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'*' | b'+' | b'-' | b'\'' | b'<' | b'>' | b'=',
                _,
            ) => {
                let span = self.take(1);
                let kind = shape::script_symbol(self.text(span), span, &mut self.warnings);
                Ok(Some(Node::new(kind, span)))
            }
            _ => Ok(None),
        }
    }

    /// The next `argument`, which the construct being read requires.
    fn required_argument(&mut self) -> Result<Node, GiveUp> {
        self.skip();
        self.argument()?.ok_or(GiveUp)
    }

    // ------------------------------------------------------------ brackets and bars

    /// `bracket_group = { opener ~ pexpr ~ closer? }`
    fn bracket_group(&mut self) -> Read<Node> {
        let start = self.at;
        let open = match (self.peek(), self.peek_second()) {
            (b'(' | b'[', _) => self.take(1),
            (b'\\', b'{') => self.take(2),
            (b'\\', b'l') => self.take_command(),
            _ => return Ok(None),
        };
        self.skip();
        let Some(body) = self.expr(Context::Brackets)? else { return Ok(None) };
        self.skip();
        let close = match (self.peek(), self.peek_second()) {
            (b')' | b']', _) => Some(self.take(1)),
            (b'\\', b'}') => Some(self.take(2)),
            (b'\\', b'C') => Some(self.take_command()),
            _ => None,
        };
        let kind = NodeKind::Fenced {
            open: shape::delimiter(self.text(open)),
            close: close.map(|span| shape::delimiter(self.text(span))),
            sized: false,
            body: body.boxed(),
        };
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    /// `bar_group = { bar ~ !("_" | "^") ~ bexpr ~ bar }`: a bar with a script right after it
    /// (`F(x) \Big|_{a}^{b}`, an evaluation) opens no group. A bar that opens no group is also a relation
    /// (`p(a | b)`), which is read after the group fails; that the group failed at a position
    /// is remembered (as a PEG rule's result depends on the position alone), so that bars in
    /// nested groups (`|{|{|{x}}}`) are not read again and again.
    pub(super) fn bar_group(&mut self) -> Read<Node> {
        let start = self.at;
        if self.failed_bar_groups.contains(&start) {
            return Ok(None);
        }
        let Some(open) = self.bar() else { return Ok(None) };
        self.skip();
        if matches!(self.peek(), b'_' | b'^') {
            self.failed_bar_groups.insert(start);
            return Ok(None);
        }
        let body = self.expr(Context::Bars)?.ok_or(GiveUp)?;
        self.skip();
        let Some(close) = self.bar() else {
            self.failed_bar_groups.insert(start);
            return Ok(None);
        };
        let kind = NodeKind::Fenced { open, close: Some(close), sized: false, body: body.boxed() };
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    /// `bar = @{ "|" | "\\" ~ ("|" | "V" ~ pad) }`
    fn bar(&mut self) -> Option<Delim> {
        let span = match (self.peek(), self.peek_second()) {
            (b'|', _) => self.take(1),
            (b'\\', b'|') => self.take(2),
            (b'\\', b'V') => self.take_command(),
            _ => return None,
        };
        Some(shape::delimiter(self.text(span)))
    }

    /// `delimiter`, the atomic token after `\left`, `\right`, `\middle`.
    pub(super) fn delimiter(&mut self) -> Option<Delim> {
        let span = match (self.peek(), self.peek_second()) {
            (b'(' | b')' | b'[' | b']' | b'|' | b'.' | b'/' | b'<' | b'>', _) => self.take(1),
            (b'\\', b'{' | b'}' | b'|') => self.take(2),
            (b'\\', b'l' | b'C' | b'V' | b'w' | b'd' | b'x') => self.take_command(),
            _ => return None,
        };
        Some(shape::delimiter(self.text(span)))
    }

    /// `left_right = { left_name ~ delimiter ~ expr ~ fraction_tail ~ right_name ~ delimiter }`
    fn left_right(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        self.skip();
        let open = self.delimiter().ok_or(GiveUp)?;
        self.skip();
        let first = self.expr(Context::Braces)?.ok_or(GiveUp)?;
        self.skip();
        let tail = self.fraction_tail()?;
        self.skip();
        if !self.at_command(b'R') {
            return Err(GiveUp);
        }
        self.take_command();
        self.skip();
        let close = self.delimiter().ok_or(GiveUp)?;
        let span = Span::new(start, self.at);
        let body = self.body(first, tail, span);
        Ok(Some(Node::new(
            NodeKind::Fenced { open, close: Some(close), sized: true, body: body.boxed() },
            span,
        )))
    }

    // ------------------------------------------------------------ commands with arguments

    /// `fraction = { fraction_name ~ argument ~ argument }`
    fn fraction(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        let num = self.required_argument()?;
        let den = self.required_argument()?;
        Ok(Some(Node::new(NodeKind::Frac { num: num.boxed(), den: den.boxed() }, Span::new(start, self.at))))
    }

    /// `binomial = { binomial_name ~ argument ~ argument }`
    fn binomial(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        let top = self.required_argument()?;
        let bottom = self.required_argument()?;
        let kind = NodeKind::Binom { top: top.boxed(), bottom: bottom.boxed() };
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    /// `sqrt = { sqrt_name ~ sqrt_index? ~ argument }`, `sqrt_index = { "[" ~ pexpr ~ "]" }`
    fn sqrt(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        self.skip();
        let mut index = None;
        if self.peek() == b'[' {
            self.at += 1;
            self.skip();
            index = Some(self.expr(Context::Brackets)?.ok_or(GiveUp)?.boxed());
            self.skip();
            if self.peek() != b']' {
                return Err(GiveUp);
            }
            self.at += 1;
        }
        let radicand = self.required_argument()?;
        Ok(Some(Node::new(NodeKind::Sqrt { index, radicand: radicand.boxed() }, Span::new(start, self.at))))
    }

    /// `accent = { accent_name ~ argument }`: `\hat{x}`, `\'e`.
    fn accent(&mut self) -> Read<Node> {
        let start = self.at;
        let name = if self.peek_second() == b'a' { self.take_command() } else { self.take(2) };
        let accent = self.text(name).trim_start_matches('\\').into();
        let body = self.required_argument()?;
        Ok(Some(Node::new(NodeKind::Accent { accent, body: body.boxed() }, Span::new(start, self.at))))
    }

    /// `font_command = { font_name ~ argument }`: `\mathbf{x}`, `\bm x`.
    fn font_command(&mut self) -> Read<Node> {
        let start = self.at;
        let name = self.take_command();
        let body = self.required_argument()?;
        let font = names::font_of(self.text(name).trim_start_matches('\\'));
        Ok(Some(shape::apply_font(font, body, Span::new(start, self.at))))
    }

    /// `braced_font_command = { font_name ~ "{" ~ group_body ~ "}" }`
    fn braced_font_command(&mut self) -> Read<Node> {
        let start = self.at;
        let name = self.take_command();
        self.skip();
        if self.peek() != b'{' {
            return Ok(None);
        }
        let Some(body) = self.braced_body(start)? else { return Ok(None) };
        let span = Span::new(start, self.at);
        Ok(Some(shape::apply_font(names::font_of(self.text(name).trim_start_matches('\\')), body, span)))
    }

    /// `text_command = { text_name ~ text_body }`, the body raw text in balanced braces.
    fn text_command(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        self.skip();
        let Some(body) = self.raw_group() else { return Ok(None) };
        let kind = shape::text_word(self.text(body));
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    /// `operatorname = { operatorname_name ~ argument }`, the name with an optional `*`.
    fn operatorname(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        let limits = self.peek() == b'*';
        if limits {
            self.at += 1;
        }
        let body = self.required_argument()?;
        Ok(Some(shape::operatorname(limits, body, Span::new(start, self.at))))
    }

    /// `brace_annotation = { brace_name ~ argument ~ (brace_label_below | brace_label_above)? }`
    fn brace_annotation(&mut self) -> Read<Node> {
        let start = self.at;
        let name = self.take_command();
        let place = if self.text(name).starts_with("\\over") { Place::Over } else { Place::Under };
        let body = self.required_argument()?;
        self.skip();
        let mut label = None;
        if matches!(self.peek(), b'_' | b'^') {
            self.at += 1;
            self.skip();
            label = Some(self.script_argument()?.ok_or(GiveUp)?.boxed());
        }
        let kind = NodeKind::Annotated { place, body: body.boxed(), label };
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    /// `stacked = { stacked_name ~ argument ~ argument }`: `\overset{a}{b}`.
    fn stacked(&mut self) -> Read<Node> {
        let start = self.at;
        let name = self.take_command();
        let place = if self.text(name).starts_with("\\underset") { Place::Under } else { Place::Over };
        let over = self.required_argument()?;
        let base = self.required_argument()?;
        let kind = NodeKind::Stacked { place, over: over.boxed(), base: base.boxed() };
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    /// `stacked_relation = { stacked_name ~ argument ~ "{" ~ relation ~ "}" }`: `\stackrel{def}{=}`.
    pub(super) fn stacked_relation(&mut self) -> Read<(InfixOp, Span)> {
        let before = self.mark();
        let start = self.at;
        let name = self.take_command();
        let place = if self.text(name) == "\\underset" { Place::Under } else { Place::Over };
        let label = self.required_argument()?;
        self.skip();
        if self.peek() != b'{' {
            self.reset(before);
            return Ok(None);
        }
        self.at += 1;
        self.skip();
        let relation_start = self.at;
        if !self.relation() {
            self.reset(before);
            return Ok(None);
        }
        let relation = names::canonical_relation(self.text(Span::new(relation_start, self.at)));
        self.skip();
        if self.peek() != b'}' {
            self.reset(before);
            return Ok(None);
        }
        self.at += 1;
        let op = InfixOp::Stacked(Box::new(StackedRelation { place, label, relation }));
        Ok(Some((op, Span::new(start, self.at))))
    }

    /// `boxed = { boxed_name ~ argument }`: `\boxed{x}`.
    fn boxed(&mut self) -> Read<Node> {
        let start = self.at;
        self.take_command();
        let body = self.required_argument()?;
        Ok(Some(Node::new(NodeKind::Boxed { body: body.boxed() }, Span::new(start, self.at))))
    }

    /// `not_symbol = { not_name ~ (argument | punctuation) }`: `\not\in` as an operand.
    fn not_symbol(&mut self) -> Read<Node> {
        let before = self.mark();
        let start = self.at;
        self.take_command();
        self.skip();
        let body = match self.argument()? {
            Some(body) => body,
            None => match self.peek() {
                b'.' | b'?' | b'@' | b'"' | b'\'' | b'`' | b'!' => {
                    let span = self.take(1);
                    self.punct(span)
                }
                _ => {
                    self.reset(before);
                    return Ok(None);
                }
            },
        };
        let kind = NodeKind::Accent { accent: "not".into(), body: body.boxed() };
        Ok(Some(Node::new(kind, Span::new(start, self.at))))
    }

    // ------------------------------------------------------------ environments

    /// `environment`: `\begin{name}` with its position and column specification, rows,
    /// `\end{name}`. Only the common forms; the rest is left to pest.
    fn environment(&mut self) -> Read<Node> {
        let begin = self.take_command();
        // The pre-scan's reading of the two names must agree with this one's (it may not see a
        // name where this reader skips filler first, and it compares names without blanks).
        let begin_name = prescan::environment_name(self.source, begin.end).map(|(name, _)| name);
        self.skip();
        self.expect(b'{')?;
        self.skip();
        let name = self.environment_name().ok_or(GiveUp)?;
        let name_text = self.text(name).to_string();
        let base = name_text.trim_end_matches('*');
        // `array_name` and `aligned_name` require the `}` right after the name.
        let tight = self.peek() == b'}';
        let array =
            tight && matches!(base, "alignedat" | "subarray" | "tabular" | "alignat" | "darray" | "array");
        let aligned = tight && !array && matches!(base, "gathered" | "aligned" | "split");
        self.skip();
        self.expect(b'}')?;
        let mut columns = None;
        if array || aligned {
            let after = self.at;
            self.skip();
            if self.peek() == b'[' {
                return Err(GiveUp);
            }
            self.at = after;
        }
        if array {
            self.skip();
            columns = Some(self.column_spec()?);
        }
        self.skip();
        let mut rows = self.rows(Some(name_text), columns)?.ok_or(GiveUp)?;
        self.skip();
        if !self.at_command(b'E') {
            return Err(GiveUp);
        }
        let end = self.take_command();
        if prescan::environment_name(self.source, end.end).map(|(name, _)| name) != begin_name {
            return Err(GiveUp);
        }
        self.skip();
        self.expect(b'{')?;
        self.skip();
        self.environment_name().ok_or(GiveUp)?;
        self.skip();
        self.expect(b'}')?;
        // The environment spans from `\begin` to the end of `\end{name}`.
        rows.span = Span::new(begin.start, self.at);
        Ok(Some(rows))
    }

    /// Takes `byte` or gives up.
    fn expect(&mut self, byte: u8) -> Result<(), GiveUp> {
        if self.peek() != byte {
            return Err(GiveUp);
        }
        self.at += 1;
        Ok(())
    }

    /// `environment_name = @{ ASCII_ALPHA+ ~ "*"? }`
    fn environment_name(&mut self) -> Option<Span> {
        let start = self.at;
        while self.peek().is_ascii_alphabetic() {
            self.at += 1;
        }
        if self.at == start {
            return None;
        }
        if self.peek() == b'*' {
            self.at += 1;
        }
        Some(Span::new(start, self.at))
    }

    /// `column_spec = @{ "{" ~ (column_spec | !("{" | "}") ~ ANY)* ~ "}" }`: the inside.
    fn column_spec(&mut self) -> Result<String, GiveUp> {
        let spec = self.raw_group().ok_or(GiveUp)?;
        Ok(self.text(Span::new(spec.start + 1, spec.end - 1)).to_string())
    }

    /// A brace group of raw text (braces nest, nothing else counts), taken; its span.
    fn raw_group(&mut self) -> Option<Span> {
        let end = encode::raw_group_end(self.code, self.at)?;
        self.passed_over_text = true;
        Some(self.take(end - self.at))
    }
}
