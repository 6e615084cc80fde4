//! The direct reader: the fast path of [`super::parse_with`].
//!
//! pest spends some 800 instructions a byte on its own bookkeeping (every rule it tries, every
//! implicit blank, every lookahead), whichever way the grammar's guards send it. This module
//! reads the same encoded text ([`super::encode`]) by recursive descent, following the path
//! the guarded grammar (`grammar/latex.pest`) takes, token by token, and builds the tree as it
//! goes with the node assembly pest's builder uses ([`super::shape`]), spans and warnings
//! included.
//!
//! It never decides differently from pest. Each function answers in one of three ways:
//! `Ok(Some(..))`, what pest matches there; `Ok(None)`, pest fails there too (decided by the
//! next token, or by a required token missing after parts that were read exactly); or
//! `Err(GiveUp)`, anything else: input it does not read (non-ASCII text, control characters,
//! rare constructs), an error, or a place where pest would backtrack further than this reader
//! follows. (The expression loop's `link` and the postfix reader answer `Ok(true)` and push
//! their operand on the reader's stacks, or apply their postfix in place, instead of
//! `Ok(Some(..))`: a node moved out of a `Result` is copied around its tag, and those copies
//! were the hottest instructions of a parse.) On `GiveUp` [`read`] returns `None` and
//! `parse_with` runs pest as before, so pest remains the definition of the language and the
//! source of every error message. The tests in
//! `src/syntax/direct_tests.rs` compare the two readers' trees, spans and warnings on every corpus
//! line and on generated input.
//!
//! Each `~` of a non-atomic grammar rule is a [`Reader::skip`] here, each `x*` tries `x` first
//! without and then with a skip before it, and each `x?` tries `x` once without, as pest does:
//! that is what makes the spans come out the same.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod commands;

use super::ast::{InfixOp, Node, NodeKind, Span};
use super::encode::{self, FILLER, PAD};
use super::error::Warning;
use super::precedence::infix_level;
use super::shape::{self, Slot};
use super::{names, Limits, Parsed};

/// The direct reader leaves this formula to pest.
#[derive(Debug)]
struct GiveUp;

/// What a reading step found: a match, pest's failure here, or [`GiveUp`].
type Read<T> = Result<Option<T>, GiveUp>;

/// A tree read directly, and whether the reader passed over text whose structure it did not
/// read.
pub(super) struct Reading {
    /// The tree and its warnings.
    pub parsed: Parsed,
    /// Whether some text went unread: raw text (`\text{…}`, column specifications) or spacing
    /// and labels with their arguments (`\hspace{…}`, `\label{…}`). The pre-scan reads all
    /// of it, and may find fault there (an unclosed `\left` inside `\text{…}`).
    pub passed_over_text: bool,
}

/// The tree of `source`, read without pest, or `None` where this reader leaves it to pest.
/// `source` must have passed the pre-scan, or [`super::prescan::within_limits_by_count`]: its
/// nesting is then bounded, and this reader's recursion with it.
pub(super) fn read(source: &str, limits: &Limits) -> Option<Reading> {
    if !source.is_ascii() {
        return None;
    }
    thread_local! {
        /// The encoding and the operand stacks of the last formula this thread read, kept for
        /// the next one: allocating them anew for every formula cost more than reading a short
        /// one.
        static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
    }
    let mut scratch = SCRATCH.take();
    let reading = read_with(source, limits, &mut scratch);
    scratch.operands.clear();
    scratch.operators.clear();
    SCRATCH.set(scratch);
    reading
}

/// Buffers [`read`] reuses from one formula to the next.
#[derive(Default)]
struct Scratch {
    code: Vec<u8>,
    operands: Vec<Node>,
    operators: Vec<(InfixOp, Span)>,
}

fn read_with(source: &str, limits: &Limits, scratch: &mut Scratch) -> Option<Reading> {
    let encoded = encode::encode_into(source, &mut scratch.code);
    if encoded.junk {
        return None;
    }
    let mut reader = Reader {
        source,
        code: &scratch.code,
        at: 0,
        max_scripts: limits.max_scripts,
        warnings: Vec::new(),
        operands: std::mem::take(&mut scratch.operands),
        operators: std::mem::take(&mut scratch.operators),
        failed_bar_groups: rustc_hash::FxHashSet::default(),
        steps_left: step_budget(source.len()),
        depth_left: limits.max_depth.saturating_add(1),
        passed_over_text: encoded.passed_over_text,
    };
    let root = reader.formula();
    (scratch.operands, scratch.operators) = (reader.operands, reader.operators);
    Some(Reading {
        parsed: Parsed::new(root.ok()?, reader.warnings),
        passed_over_text: reader.passed_over_text,
    })
}

/// How many reading steps a text of `length` bytes may take: real formulas take a few a byte;
/// text that makes the reader go back over its groups (bars in nested groups, `|{|{|{x}}}`)
/// may take up to quadratic work, within a cap of some tenths of a second.
fn step_budget(length: usize) -> usize {
    let linear = length.saturating_mul(64).saturating_add(256);
    linear.saturating_add(length.saturating_mul(length).min(1_000_000))
}

/// The three expression contexts of the grammar, which differ in what ends them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    /// `expr`: in braces, cells and `\left…\right`; a `}` ends it.
    Braces,
    /// `pexpr`: in `(`/`[` groups; `)`, `]` or `}` ends it.
    Brackets,
    /// `bexpr`: in `|…|`; a bar or anything but an operand or operator ends it.
    Bars,
}

/// A place to go back to: the position and how many warnings there were.
#[derive(Clone, Copy)]
struct Mark {
    at: usize,
    warnings: usize,
}

struct Reader<'s> {
    source: &'s str,
    /// The encoded source: as long as `source`, ASCII, without JUNK.
    code: &'s [u8],
    at: usize,
    max_scripts: usize,
    warnings: Vec<Warning>,
    /// Operands and operators of the expressions being read, innermost last.
    operands: Vec<Node>,
    operators: Vec<(InfixOp, Span)>,
    /// Where a bar group was tried and failed.
    failed_bar_groups: rustc_hash::FxHashSet<usize>,
    /// Reading steps left before giving up, which keeps the work linear in the length.
    steps_left: usize,
    /// Expressions that may still open inside the one being read: the nesting limit (plus the
    /// formula's own expression). Every nested group, bracket, `\left`, environment and
    /// argument reads its contents through [`Reader::expr`], so this bounds the recursion by
    /// the limit the pre-scan counts (bar groups, which it does not count, at most double it),
    /// whatever reached the reader; past it the reader gives up and the pre-scan, then pest,
    /// answer.
    depth_left: usize,
    /// Whether text went unread (see [`Reading::passed_over_text`]).
    passed_over_text: bool,
}

impl<'s> Reader<'s> {
    // ------------------------------------------------------------ positions and tokens

    fn byte(&self, at: usize) -> u8 {
        self.code.get(at).copied().unwrap_or(0)
    }

    fn peek(&self) -> u8 {
        self.byte(self.at)
    }

    fn peek_second(&self) -> u8 {
        self.byte(self.at + 1)
    }

    /// The grammar's implicit `WHITESPACE*`: blanks and filler.
    fn skip(&mut self) {
        self.at = self.blanks_end(self.at);
    }

    /// Where the blanks and filler from `at` end.
    fn blanks_end(&self, mut at: usize) -> usize {
        while matches!(self.byte(at), b' ') || self.byte(at) == FILLER as u8 {
            at += 1;
        }
        at
    }

    fn mark(&self) -> Mark {
        Mark { at: self.at, warnings: self.warnings.len() }
    }

    fn reset(&mut self, mark: Mark) {
        self.at = mark.at;
        self.warnings.truncate(mark.warnings);
    }

    fn text(&self, span: Span) -> &'s str {
        span.text(self.source)
    }

    /// Counts one step; gives up when the budget is spent.
    fn step(&mut self) -> Result<(), GiveUp> {
        self.steps_left = self.steps_left.checked_sub(1).ok_or(GiveUp)?;
        Ok(())
    }

    /// Whether a command of class `class` is next.
    fn at_command(&self, class: u8) -> bool {
        self.peek() == b'\\' && self.peek_second() == class
    }

    /// Takes `length` bytes; their span.
    fn take(&mut self, length: usize) -> Span {
        let start = self.at;
        self.at += length;
        Span::new(start, self.at)
    }

    /// Takes the command at the position (backslash, class, padding); its span.
    fn take_command(&mut self) -> Span {
        let start = self.at;
        self.at = self.command_end(start);
        Span::new(start, self.at)
    }

    /// Where the command at `from` (backslash, class, padding) ends.
    fn command_end(&self, from: usize) -> usize {
        let mut end = from + 2;
        while self.byte(end) == PAD as u8 {
            end += 1;
        }
        end
    }

    /// A token that starts an operand and nothing else (the grammar's `starts_plain`).
    fn starts_plain(&self) -> bool {
        match self.peek() {
            b'a'..=b'{' | b'A'..=b'[' | b'0'..=b'9' | b'(' => true,
            b'\\' => matches!(self.peek_second(), b'a'..=b'q' | b'L' | b'B'),
            _ => false,
        }
    }

    /// A bar token (`starts_bar`).
    fn starts_bar(&self) -> bool {
        match self.peek() {
            b'|' => true,
            b'\\' => matches!(self.peek_second(), b'|' | b'V'),
            _ => false,
        }
    }

    // ------------------------------------------------------------ rows and expressions

    /// `formula = { SOI ~ mode ~ rows ~ EOI }`
    fn formula(&mut self) -> Result<Node, GiveUp> {
        self.skip();
        let root = self.rows(None, None)?.ok_or(GiveUp)?;
        self.skip();
        if self.at != self.code.len() {
            return Err(GiveUp);
        }
        Ok(root)
    }

    /// `rows = { row ~ (row_separator ~ row)* }`
    fn rows(&mut self, env: Option<String>, columns: Option<String>) -> Read<Node> {
        let start = self.at;
        let Some((first, more)) = self.separated(Self::row, Self::row_separator)? else { return Ok(None) };
        if env.is_none() && more.is_empty() && first.1.is_empty() {
            // One cell, as most formulas are: what `shape::rows` gives, without building rows.
            return Ok(Some(first.0));
        }
        let rows = std::iter::once(first)
            .chain(more)
            .map(|(cell, cells)| std::iter::once(cell).chain(cells).collect())
            .collect();
        Ok(Some(shape::rows(rows, env, columns, Span::new(start, self.at))))
    }

    /// `item ~ (separator ~ item)*`, as pest reads it: a blank skipped after the first item
    /// stays skipped; a separator and an item that do not both match are given back.
    fn separated<T>(
        &mut self,
        item: fn(&mut Self) -> Read<T>,
        separator: fn(&mut Self) -> Result<bool, GiveUp>,
    ) -> Read<(T, Vec<T>)> {
        let Some(first) = item(self)? else { return Ok(None) };
        let mut rest = Vec::new();
        self.skip();
        loop {
            let before = self.mark();
            if !rest.is_empty() {
                self.skip();
            }
            if !separator(self)? {
                self.reset(before);
                break;
            }
            self.skip();
            match item(self)? {
                Some(next) => rest.push(next),
                None => {
                    self.reset(before);
                    break;
                }
            }
        }
        Ok(Some((first, rest)))
    }

    /// `row_separator = _{ ("\\\\" | cr) ~ ("[" ~ dimen_body ~ "]")? }`; a `[` after it is
    /// left to pest.
    fn row_separator(&mut self) -> Result<bool, GiveUp> {
        match (self.peek(), self.peek_second()) {
            (b'\\', b'\\') => self.at += 2,
            (b'\\', b'K') => {
                self.take_command();
            }
            _ => return Ok(false),
        }
        let after = self.at;
        self.skip();
        if self.peek() == b'[' {
            return Err(GiveUp);
        }
        self.at = after;
        Ok(true)
    }

    /// `row = { cell ~ ("&" ~ cell)* }`: the first cell and the others.
    fn row(&mut self) -> Read<(Node, Vec<Node>)> {
        self.separated(Self::cell, Self::cell_separator)
    }

    /// `"&"`
    fn cell_separator(&mut self) -> Result<bool, GiveUp> {
        let found = self.peek() == b'&';
        self.at += usize::from(found);
        Ok(found)
    }

    /// `cell = { expr ~ fraction_tail }`
    fn cell(&mut self) -> Read<Node> {
        let start = self.at;
        let Some(first) = self.expr(Context::Braces)? else { return Ok(None) };
        self.skip();
        let tail = self.fraction_tail()?;
        Ok(Some(self.body(first, tail, Span::new(start, self.at))))
    }

    /// `fraction_tail = _{ (fraction_word ~ expr)? }`: the word's span and the expression.
    fn fraction_tail(&mut self) -> Result<Option<(Span, Node)>, GiveUp> {
        if !self.at_command(b'F') {
            return Ok(None);
        }
        let before = self.mark();
        let word = self.take_command();
        self.skip();
        match self.expr(Context::Braces)? {
            Some(second) => Ok(Some((word, second))),
            None => {
                self.reset(before);
                Ok(None)
            }
        }
    }

    /// A body and its optional `\over` part, spanning `span`.
    fn body(&self, first: Node, tail: Option<(Span, Node)>, span: Span) -> Node {
        match tail {
            None => first,
            Some((word, second)) => shape::fraction_of_group(first, self.text(word), second, span),
        }
    }

    /// `expr`, `pexpr` or `bexpr`: operands and operators, given structure by precedence.
    /// The operators and the operands after them are gathered on the reader's stacks, which
    /// nested expressions share.
    fn expr(&mut self, context: Context) -> Read<Node> {
        self.step()?;
        // A bar group is no level of the pre-scan's: it never holds another bar group but
        // through a group or bracket, which is one, so it at most doubles the depth.
        let level = usize::from(context != Context::Bars);
        self.depth_left = self.depth_left.checked_sub(level).ok_or(GiveUp)?;
        let expr = self.expr_within_depth(context);
        self.depth_left += level;
        expr
    }

    /// [`Reader::expr`] once its depth is counted.
    fn expr_within_depth(&mut self, context: Context) -> Read<Node> {
        let Some(first) = self.operand(context)? else { return Ok(None) };
        self.skip();
        let (operands_base, operators_base) = (self.operands.len(), self.operators.len());
        let mut before = self.mark();
        while self.link(context)? {
            before = self.mark();
            self.skip();
        }
        self.reset(before);
        if self.operators.len() == operators_base {
            return Ok(Some(first));
        }
        let mut operands = self.operands.drain(operands_base..);
        let level = self.operators.get(operators_base).map(|(op, _)| infix_level(op));
        if self.operators.iter().skip(operators_base).all(|(op, _)| Some(infix_level(op)) == level) {
            // One level, as most expressions are (`QK^\top V`, `a + b - c`): no climbing.
            let links = self.operators.drain(operators_base..).zip(operands);
            return Ok(Some(shape::chain_all(
                first,
                links.map(|((op, op_span), operand)| (op, op_span, operand)),
            )));
        }
        let mut operators = self.operators.drain(operators_base..);
        Ok(climb(first, &mut operands, &mut operators, None))
    }

    /// One repetition of an expression's loop: an operator (juxtaposition too) and its right
    /// operand, pushed on the reader's stacks. Whether there was one.
    fn link(&mut self, context: Context) -> Result<bool, GiveUp> {
        let after_blank = self.mark();
        if context == Context::Bars {
            if let Some((op, op_span)) = self.infix(true)? {
                self.skip();
                if let Some(operand) = self.operand(context)? {
                    return Ok(self.push_link(op, op_span, operand));
                }
                self.reset(after_blank);
            }
            let juxt = Span::new(self.at, self.at);
            let Some(term) = self.term(context)? else { return Ok(false) };
            return Ok(self.push_link(InfixOp::Juxt, juxt, term));
        }
        let stop = match (context, self.peek()) {
            // The end of the text, a cell or a row: nothing below would match.
            (_, 0 | b'&') => true,
            (_, b'\\') if matches!(self.peek_second(), b'\\' | b'K') => true,
            (Context::Braces, next) => next == b'}',
            (_, next) => matches!(next, b')' | b']' | b'}'),
        };
        if stop {
            return Ok(false);
        }
        let juxt = Span::new(self.at, self.at);
        if self.starts_plain() {
            // No other alternative starts with such a token.
            let Some(operand) = self.bprimary()? else { return Ok(false) };
            let operand = self.postfixes(operand)?;
            return Ok(self.push_link(InfixOp::Juxt, juxt, operand));
        }
        if self.starts_bar() {
            if let Some(group) = self.bar_group()? {
                let operand = self.postfixes(group)?;
                return Ok(self.push_link(InfixOp::Juxt, juxt, operand));
            }
            self.reset(after_blank);
        }
        if let Some((op, op_span)) = self.infix(false)? {
            self.skip();
            if let Some(operand) = self.operand(context)? {
                return Ok(self.push_link(op, op_span, operand));
            }
            self.reset(after_blank);
        }
        let Some(term) = self.term(context)? else { return Ok(false) };
        Ok(self.push_link(InfixOp::Juxt, juxt, term))
    }

    /// Pushes an operator and the operand after it on the stacks; `true`.
    fn push_link(&mut self, op: InfixOp, op_span: Span, operand: Node) -> bool {
        self.operators.push((op, op_span));
        self.operands.push(operand);
        true
    }

    /// `operand`, `poperand` or `boperand`: a plain operand and its scripts, a term, or an
    /// empty operand (`&= b`, `f(x,)`).
    fn operand(&mut self, context: Context) -> Read<Node> {
        self.step()?;
        if context != Context::Bars && self.starts_plain() {
            let Some(primary) = self.bprimary()? else { return Ok(None) };
            return Ok(Some(self.postfixes(primary)?));
        }
        let before = self.mark();
        if let Some(term) = self.term(context)? {
            return Ok(Some(term));
        }
        self.reset(before);
        if self.starts_plain() {
            return Ok(None);
        }
        let empty = Node::new(NodeKind::Empty, Span::new(self.at, self.at));
        Ok(Some(self.postfixes(empty)?))
    }

    /// `term`, `pterm` or `bterm`: signs, an operand, scripts.
    fn term(&mut self, context: Context) -> Read<Node> {
        let mut signs = Vec::new();
        loop {
            let before = self.at;
            if !signs.is_empty() {
                self.skip();
            }
            match self.sign() {
                Some(sign) => signs.push(sign),
                None => {
                    self.at = before;
                    break;
                }
            }
        }
        self.skip();
        let primary = match context {
            Context::Braces => self.primary()?,
            Context::Brackets => self.pprimary()?,
            Context::Bars => self.bprimary()?,
        };
        let Some(primary) = primary else { return Ok(None) };
        let mut node = self.postfixes(primary)?;
        for op_span in signs.into_iter().rev() {
            node = shape::prefix(shape::prefix_op(self.text(op_span)), op_span, node);
        }
        Ok(Some(node))
    }

    /// `prefix = @{ "-" | "+" | "\\" ~ ("v" | "y") ~ pad }`: its span.
    fn sign(&mut self) -> Option<Span> {
        match (self.peek(), self.peek_second()) {
            (b'-' | b'+', _) => Some(self.take(1)),
            (b'\\', b'v' | b'y') => Some(self.take_command()),
            _ => None,
        }
    }

    // ------------------------------------------------------------ postfix operators

    /// `~ postfix*` after an operand, applied to it.
    fn postfixes(&mut self, node: Node) -> Result<Node, GiveUp> {
        self.skip();
        // Most operands have none: answered here, without the loop's marks.
        let next = match self.peek() {
            b'\\' => matches!(self.peek_second(), b'S' | b'P'),
            byte => matches!(byte, b'_' | b'^' | b'\'' | b'!'),
        };
        if next {
            self.postfix_loop(node)
        } else {
            Ok(node)
        }
    }

    /// The loop of [`Reader::postfixes`], once a postfix is next.
    #[inline(never)]
    fn postfix_loop(&mut self, mut node: Node) -> Result<Node, GiveUp> {
        let mut first = true;
        loop {
            let before = self.mark();
            if !first {
                self.skip();
            }
            if !self.postfix(&mut node)? {
                self.reset(before);
                return Ok(node);
            }
            first = false;
        }
    }

    /// `postfix`: a sub- or superscript, primes, or a factorial, applied to `node` in place;
    /// whether there was one.
    fn postfix(&mut self, node: &mut Node) -> Result<bool, GiveUp> {
        let start = self.at;
        let slot = match (self.peek(), self.peek_second()) {
            (b'_', _) | (b'\\', b'S') => Slot::Sub,
            (b'^', _) | (b'\\', b'P') => Slot::Sup,
            (b'\'', _) => {
                let (count, span) = self.primes();
                return self.apply(node, |base, max| shape::attach_primes(base, count, span, max));
            }
            (b'!', _) => {
                let span = self.take(1);
                return self.apply(node, |base, max| shape::factorial(base, span, max));
            }
            _ => return Ok(false),
        };
        if self.peek() == b'\\' {
            self.take_command();
        } else {
            self.at += 1;
        }
        self.skip();
        let Some(script) = self.script_argument()? else { return Ok(false) };
        let span = Span::new(start, self.at);
        self.apply(node, |base, max| shape::attach_script(base, slot, script, span, max))
    }

    /// Replaces `node` by what `postfix` makes of it; `true`. A script, prime or factorial
    /// the limits refuse is left to pest, which words the error.
    fn apply<E>(
        &self,
        node: &mut Node,
        postfix: impl FnOnce(Node, usize) -> Result<Node, E>,
    ) -> Result<bool, GiveUp> {
        let base = std::mem::replace(node, Node::new(NodeKind::Empty, Span::default()));
        *node = postfix(base, self.max_scripts).map_err(|_| GiveUp)?;
        Ok(true)
    }

    /// `primes = { ("'")+ }`, with blanks allowed between: how many, and their span. pest
    /// reads `x+` as `x ~ x*`, so the blanks after a single prime belong to it.
    fn primes(&mut self) -> (u8, Span) {
        let start = self.at;
        self.at += 1;
        let mut count: u8 = 1;
        self.skip();
        if self.peek() == b'\'' {
            self.at += 1;
            count += 1;
            loop {
                let before = self.at;
                self.skip();
                if self.peek() != b'\'' {
                    self.at = before;
                    break;
                }
                self.at += 1;
                count = count.saturating_add(1);
            }
        }
        (count, Span::new(start, self.at))
    }

    // ------------------------------------------------------------ infix operators

    /// `infix` (or `bar_free_infix`, without the bars as relations): the operator and its span.
    fn infix(&mut self, bar_free: bool) -> Read<(InfixOp, Span)> {
        let start = self.at;
        match (self.peek(), self.peek_second()) {
            (b',' | b';', _) => {
                let span = self.take(1);
                return Ok(Some((InfixOp::Separator(self.text(span).into()), span)));
            }
            (b'\\', b's') => return self.stacked_relation(),
            _ => {}
        }
        if !(bar_free && self.starts_bar()) && self.relation() {
            let span = Span::new(start, self.at);
            return Ok(Some((InfixOp::Relation(names::canonical_relation(self.text(span))), span)));
        }
        let (additive, span) = match (self.peek(), self.peek_second()) {
            (b'+' | b'-', _) => (true, self.take(1)),
            (b'\\', b'u' | b'v') => (true, self.take_command()),
            (b'/' | b'*', _) => (false, self.take(1)),
            (b'\\', b'*') => (false, self.take(2)),
            (b'\\', b't' | b'x') => (false, self.take_command()),
            _ => return Ok(None),
        };
        let text = self.text(span);
        let op = if additive {
            InfixOp::Additive(names::canonical_additive(text))
        } else {
            InfixOp::Multiplicative(names::canonical_multiplicative(text))
        };
        Ok(Some((op, span)))
    }

    /// `relation`, an atomic token; whether it was taken.
    fn relation(&mut self) -> bool {
        let length = match (self.peek(), self.peek_second()) {
            (b':' | b'>' | b'<', b'=') | (b'=', b':') => 2,
            (b'=' | b'<' | b'>' | b':' | b'|', _) => 1,
            (b'\\', b'|') => 2,
            (b'\\', b'V' | b'r' | b'w') => {
                self.take_command();
                return true;
            }
            (b'\\', b'N' | b'M') => return self.not_or_middle_relation(),
            _ => return false,
        };
        self.at += length;
        true
    }

    /// `\not` before `=`, `<`, `>` or a relation word; `\middle` before a delimiter.
    fn not_or_middle_relation(&mut self) -> bool {
        let start = self.at;
        let middle = self.peek_second() == b'M';
        self.take_command();
        while self.peek() == b' ' {
            self.at += 1;
        }
        let taken = if middle {
            self.delimiter().is_some()
        } else {
            match (self.peek(), self.peek_second()) {
                (b'=' | b'<' | b'>', _) => {
                    self.at += 1;
                    true
                }
                (b'\\', b'r' | b'w') => {
                    self.take_command();
                    true
                }
                _ => false,
            }
        };
        if !taken {
            self.at = start;
        }
        taken
    }
}

/// Gives a flat run of operands and operators its structure, as pest's Pratt parser does with
/// the precedence table: all operators are left-associative, and a tighter one binds first.
fn climb(
    first: Node,
    operands: &mut std::vec::Drain<Node>,
    operators: &mut std::vec::Drain<(InfixOp, Span)>,
    bound: Option<super::precedence::Level>,
) -> Option<Node> {
    let mut lhs = first;
    while let Some(level) = operators.as_slice().first().map(|(op, _)| infix_level(op)) {
        if bound.is_some_and(|bound| bound >= level) {
            break;
        }
        let (op, op_span) = operators.next()?;
        let rhs = climb(operands.next()?, operands, operators, Some(level))?;
        lhs = shape::chain(lhs, op, op_span, rhs);
    }
    Some(lhs)
}
