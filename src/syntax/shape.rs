//! How nodes are put together, shared by the two readers of the grammar: the builder of pest's
//! pairs ([`super::build`]) and the direct reader ([`super::direct`]). Both decide *what* was
//! written; this module decides what tree it makes, so the two cannot drift apart.

use super::ast::{Delim, Font, InfixOp, Link, Node, NodeKind, PrefixOp, Span, Table, WordStyle};
use super::error::{ParseError, ParseErrorKind, Warning, WarningKind};
use super::names::{self, CommandClass, UnicodeMeaning};
use super::precedence::infix_level;

type Result<T> = std::result::Result<T, ParseError>;

/// Which script slot a postfix fills.
#[derive(Clone, Copy)]
pub(super) enum Slot {
    /// `_`
    Sub,
    /// `^`
    Sup,
}

/// A symbol named `name` in `font`.
pub(super) fn symbol(name: &str, font: Font) -> NodeKind {
    NodeKind::Symbol { name: name.into(), font }
}

/// How many primes a prime character stands for.
pub(super) fn prime_count(c: char) -> u8 {
    match c {
        '″' => 2,
        '‴' => 3,
        '\'' | '′' => 1,
        _ => 0,
    }
}

/// The prefix operator a sign's text stands for.
pub(super) fn prefix_op(text: &str) -> PrefixOp {
    match text.trim() {
        "+" => PrefixOp::Plus,
        "±" | "\\pm" => PrefixOp::PlusMinus,
        "∓" | "\\mp" => PrefixOp::MinusPlus,
        "¬" | "\\neg" | "\\lnot" => PrefixOp::Not,
        _ => PrefixOp::Minus,
    }
}

/// `operand` under the sign `op` written at `op_span`.
pub(super) fn prefix(op: PrefixOp, op_span: Span, operand: Node) -> Node {
    let span = op_span.join(operand.span);
    Node::new(NodeKind::Prefix { op, operand: operand.boxed() }, span)
}

/// Joins `rhs` to `lhs` with `op`, extending `lhs` when it is a chain of the same level.
pub(super) fn chain(lhs: Node, op: InfixOp, op_span: Span, rhs: Node) -> Node {
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
            // Room for a few links: most chains are short, and growing one by one reallocates.
            let mut rest = Vec::with_capacity(4);
            rest.push(link);
            Node::new(NodeKind::Chain { first: Node::new(kind, lhs.span).boxed(), rest }, span)
        }
    }
}

/// What joining each link in turn with [`chain`] gives, for links whose operators are all of
/// one precedence level: one chain, built in place instead of rebuilt at every link.
pub(super) fn chain_all(first: Node, links: impl ExactSizeIterator<Item = (InfixOp, Span, Node)>) -> Node {
    let mut span = first.span;
    let links: Vec<Link> = links
        .map(|(op, op_span, operand)| {
            span = span.join(operand.span);
            Link { op, op_span, operand }
        })
        .collect();
    let Some(level) = links.first().map(|link| infix_level(&link.op)) else { return first };
    match first.kind {
        // A group of the same level (`{a b} c`) is extended, as `chain` extends it.
        NodeKind::Chain { first: inner, mut rest }
            if rest.first().is_some_and(|l| infix_level(&l.op) == level) =>
        {
            rest.extend(links);
            Node::new(NodeKind::Chain { first: inner, rest }, span)
        }
        kind => Node::new(NodeKind::Chain { first: Node::new(kind, first.span).boxed(), rest: links }, span),
    }
}

/// Puts `script` in the free slot of `base`'s scripts, or starts new scripts on it; refuses
/// to stack more than `max_scripts`.
pub(super) fn attach_script(
    base: Node,
    slot: Slot,
    script: Node,
    op_span: Span,
    max_scripts: usize,
) -> Result<Node> {
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
            new_scripts(base, slot, script, span, max_scripts)
        }
        kind => new_scripts(Node::new(kind, base.span), slot, script, span, max_scripts),
    }
}

fn new_scripts(base: Node, slot: Slot, script: Node, span: Span, max_scripts: usize) -> Result<Node> {
    check_script_depth(&base, span, max_scripts)?;
    let (sub, sup) = match slot {
        Slot::Sub => (Some(script.boxed()), None),
        Slot::Sup => (None, Some(script.boxed())),
    };
    Ok(Node::new(NodeKind::Scripts { base: base.boxed(), sub, sup, primes: 0 }, span))
}

/// Adds `count` primes to `base`.
pub(super) fn attach_primes(base: Node, count: u8, op_span: Span, max_scripts: usize) -> Result<Node> {
    let span = base.span.join(op_span);
    match base.kind {
        NodeKind::Scripts { base: inner, sub, sup: None, primes } if base.span.start == inner.span.start => {
            let primes = primes.saturating_add(count);
            Ok(Node::new(NodeKind::Scripts { base: inner, sub, sup: None, primes }, span))
        }
        kind => {
            let base = Node::new(kind, base.span);
            check_script_depth(&base, span, max_scripts)?;
            Ok(Node::new(NodeKind::Scripts { base: base.boxed(), sub: None, sup: None, primes: count }, span))
        }
    }
}

/// `operand!`, the `!` at `op_span`.
pub(super) fn factorial(operand: Node, op_span: Span, max_scripts: usize) -> Result<Node> {
    check_script_depth(&operand, op_span, max_scripts)?;
    let span = operand.span.join(op_span);
    Ok(Node::new(NodeKind::Factorial { operand: operand.boxed() }, span))
}

/// Refuses to stack more than `max_scripts` scripts and factorials on one base.
fn check_script_depth(base: &Node, span: Span, max_scripts: usize) -> Result<()> {
    let mut depth = 0;
    let mut node = base;
    while let NodeKind::Scripts { base: inner, .. } | NodeKind::Factorial { operand: inner } = &node.kind {
        depth += 1;
        if depth >= max_scripts {
            return Err(ParseError::new(ParseErrorKind::TooManyScripts { limit: max_scripts }, span));
        }
        node = inner;
    }
    Ok(())
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

/// Rows of cells spanning `span`; a trailing `\\` makes no row (TeX draws none), nor do
/// several; cells aligned only for layout are joined ([`join_aligned_cells`]); top-level rows
/// of one cell are just that cell.
pub(super) fn rows(
    mut rows: Vec<Vec<Node>>,
    env: Option<String>,
    columns: Option<String>,
    span: Span,
) -> Node {
    let trailing_empty = |row: &Vec<Node>| matches!(row.as_slice(), [Node { kind: NodeKind::Empty, .. }]);
    while rows.len() > 1 && rows.last().is_some_and(trailing_empty) {
        rows.pop();
    }
    if env.as_deref().is_none_or(aligns_for_layout) {
        rows = rows.into_iter().map(join_aligned_cells).collect();
    }
    if env.is_none() && rows.len() == 1 && rows.first().is_some_and(|r| r.len() == 1) {
        if let Some(cell) = rows.pop().and_then(|mut row| row.pop()) {
            return cell;
        }
    }
    Node::new(NodeKind::Rows(Box::new(Table { env, columns, rows })), span)
}

/// Environments whose `&` only aligns rows on the page (`aligned`, `align*`, `split`).
fn aligns_for_layout(env: &str) -> bool {
    matches!(env.trim_end_matches('*'), "aligned" | "align" | "split" | "eqnarray" | "flalign")
}

/// `h_t &= f(x_t, h_{t-1})`: where `&` only aligns, a cell that opens with a relation continues
/// the cell before it, so the two are one formula (`h_t = f(…)`), as TeX prints them.
fn join_aligned_cells(row: Vec<Node>) -> Vec<Node> {
    if !continues_with_relation(&row) {
        return row;
    }
    let mut cells = row.into_iter();
    let (Some(left), Some(right)) = (cells.next(), cells.next()) else { return Vec::new() };
    let span = left.span.join(right.span);
    let NodeKind::Chain { rest, .. } = right.kind else { return vec![left] };
    // `x = y &= z`: relations in a row are one flat chain, as `x = y = z` is.
    let left_span = left.span;
    let kind = match left.kind {
        NodeKind::Chain { first, rest: mut before }
            if before.iter().all(|l| matches!(l.op, InfixOp::Relation(_))) =>
        {
            before.extend(rest);
            NodeKind::Chain { first, rest: before }
        }
        other => NodeKind::Chain { first: Node::new(other, left_span).boxed(), rest },
    };
    vec![Node::new(kind, span)]
}

/// Whether a row is two cells, the second opening with a relation after nothing (`&= …`).
fn continues_with_relation(row: &[Node]) -> bool {
    let [left, right] = row else { return false };
    let NodeKind::Chain { first, rest } = &right.kind else { return false };
    let opens_with_relation = matches!(rest.first().map(|l| &l.op), Some(InfixOp::Relation(_)));
    matches!(first.kind, NodeKind::Empty) && opens_with_relation && !matches!(left.kind, NodeKind::Empty)
}

/// `first \over second` (or `\choose`, `\atop`…, named by `word`) spanning `span`.
pub(super) fn fraction_of_group(first: Node, word: &str, second: Node, span: Span) -> Node {
    let kind = match word.trim() {
        "\\choose" => NodeKind::Binom { top: first.boxed(), bottom: second.boxed() },
        _ => NodeKind::Frac { num: first.boxed(), den: second.boxed() },
    };
    Node::new(kind, span)
}

/// `\operatorname{body}` (`\operatorname*` if `limits`) spanning `span`.
pub(super) fn operatorname(limits: bool, body: Node, span: Span) -> Node {
    let style = if limits { WordStyle::OperatorLimits } else { WordStyle::Operator };
    // One letter is a name too (`\operatorname{E}`): as a roman style it would print as
    // `\mathrm{E}`, which reads back as a roman symbol.
    let kind = match letters_of(&body).or_else(|| plain_letter(&body)) {
        Some(text) => NodeKind::Word { text, style },
        None => match body.kind {
            NodeKind::Word { text, .. } => NodeKind::Word { text, style },
            _ => NodeKind::Styled { font: Font::Roman, body: body.boxed() },
        },
    };
    Node::new(kind, span)
}

/// `\text{…}` from its body as written (spaces, then braces).
pub(super) fn text_word(body: &str) -> NodeKind {
    let body = body.trim_start();
    let text = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')).unwrap_or(body);
    NodeKind::Word { text: text.into(), style: WordStyle::Text }
}

/// A command standing alone (`\alpha`, `\log`, `\sum`, `\foo`), as written in `text` at
/// `span`: an unknown one is kept with a warning; one that needs arguments is an error.
pub(super) fn command(text: &str, span: Span, warnings: &mut Vec<Warning>) -> Result<NodeKind> {
    let name = text.trim_start_matches('\\');
    Ok(match names::classify_command(name) {
        CommandClass::Symbol => symbol(name, Font::Normal),
        CommandClass::Word(style) => NodeKind::Word { text: name.into(), style },
        CommandClass::LargeOp => NodeKind::LargeOp { name: name.into() },
        CommandClass::Dots => NodeKind::Dots { name: name.into() },
        CommandClass::NeedsArguments => {
            return Err(ParseError::new(ParseErrorKind::MissingArguments { command: text.to_string() }, span))
        }
        CommandClass::Unknown => {
            warnings.push(Warning { kind: WarningKind::UnknownCommand { name: text.to_string() }, span });
            NodeKind::Unknown { name: text.into() }
        }
    })
}

/// A one-character script (`x^2`, `x_i`, `x^*`, `f^'`).
pub(super) fn script_symbol(text: &str, span: Span, warnings: &mut Vec<Warning>) -> NodeKind {
    match text.chars().next() {
        Some(c) if c.is_ascii_digit() => NodeKind::Number { text: text.into(), font: Font::Normal },
        Some(c) if c.is_ascii_alphabetic() => symbol(text, Font::Normal),
        Some('−') => symbol("-", Font::Normal),
        Some('\'') => NodeKind::Symbol { name: "prime".into(), font: Font::Normal },
        Some(c) if c.is_ascii() => symbol(text, Font::Normal),
        _ => unicode_operand(text, span, warnings),
    }
}

/// A non-ASCII character standing as an operand (`α`, `ℝ`, `∞`).
pub(super) fn unicode_operand(text: &str, span: Span, warnings: &mut Vec<Warning>) -> NodeKind {
    let meaning = text.chars().next().and_then(names::unicode_meaning);
    match meaning {
        Some(UnicodeMeaning::Symbol(name, font)) => NodeKind::Symbol { name: name.into(), font },
        Some(UnicodeMeaning::Digit(digit, font)) => NodeKind::Number { text: digit.to_string().into(), font },
        Some(UnicodeMeaning::LargeOp(name)) => NodeKind::LargeOp { name: name.into() },
        Some(UnicodeMeaning::Dots(name)) => NodeKind::Dots { name: name.into() },
        None => {
            warnings
                .push(Warning { kind: WarningKind::UnknownCharacter { character: text.to_string() }, span });
            NodeKind::Unknown { name: text.into() }
        }
    }
}

/// The letter, if `node` is one plain ASCII letter (`x`, not `\alpha` or a bold `x`).
fn plain_letter(node: &Node) -> Option<super::ast::Text> {
    match &node.kind {
        NodeKind::Symbol { name, font: Font::Normal }
            if name.len() == 1 && name.as_bytes().iter().all(u8::is_ascii_alphabetic) =>
        {
            Some(name.clone())
        }
        _ => None,
    }
}

/// The letters of a run of two or more plain single letters (`l n` → `ln`), if that is all
/// `node` is; digits may follow two letters or more (`\mathrm{Top2}`, `\mathrm{Conv2d}`), and a
/// hyphen set as text or an escaped underscore may join two runs (`\mathit{keep\_prob}`).
fn letters_of(node: &Node) -> Option<super::ast::Text> {
    match &node.kind {
        NodeKind::Chain { first, rest } if rest.iter().all(|l| l.op == InfixOp::Juxt) => {
            let mut text = plain_letter(first)?;
            for link in rest {
                let digits = match &link.operand.kind {
                    NodeKind::Number { text: number, font: Font::Normal }
                        if text.len() >= 2 && number.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        Some(number.clone())
                    }
                    // `\mathrm{W\text{-}MSA}`, `\mathrm{Grad\text{-}CAM}`: a hyphen set as text
                    // joins two runs of letters into one name.
                    NodeKind::Word { text: hyphen, style: WordStyle::Text }
                        if hyphen.as_str() == "-" && !text.ends_with(['-', '_']) =>
                    {
                        Some(hyphen.clone())
                    }
                    // `\mathit{keep\_prob}`: an escaped underscore joins the words of a name.
                    NodeKind::Symbol { name, .. }
                        if name.as_str() == "\\_" && !text.ends_with(['-', '_']) =>
                    {
                        Some("_".into())
                    }
                    _ => None,
                };
                text.push_str(&digits.or_else(|| plain_letter(&link.operand))?);
            }
            (!text.ends_with(['-', '_'])).then_some(text)
        }
        _ => None,
    }
}

/// Sets `body` in `font`: one symbol takes the font, a run of letters becomes a word,
/// scripts and accents pass it to their base, anything else is wrapped.
pub(super) fn apply_font(font: Font, body: Node, span: Span) -> Node {
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
pub(super) fn delimiter(text: &str) -> Delim {
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
