//! The canonical printer: a tree back to LaTeX.
//!
//! The output parses back to an equal tree (`parse(to_latex(t)) == t`, a property test), so
//! it can serve as a normal form: `QKᵀ/√dₖ` prints as `Q K^{\top} / \sqrt{d_{k}}`. Braces are
//! added only where the tree needs them to keep its shape.

use super::ast::{Delim, Font, InfixOp, Node, NodeKind, Place, PrefixOp, WordStyle};
use super::encode;
use super::names;
use super::precedence::{infix_level, Level};

/// Prints `node` as canonical LaTeX.
pub fn to_latex(node: &Node) -> String {
    let mut out = String::new();
    write_node(&mut out, node);
    out
}

fn write_node(out: &mut String, node: &Node) {
    use NodeKind::*;
    match &node.kind {
        Symbol { name, font } => write_font(out, *font, &symbol_latex(name)),
        Number { text, font } => write_font(out, *font, text),
        Word { text, style } => write_word(out, text, *style),
        LargeOp { name } | Dots { name } => {
            out.push('\\');
            out.push_str(name);
        }
        Punct { text } | Unknown { name: text } => out.push_str(text),
        Empty => {}
        Chain { first, rest } => write_chain(out, first, rest),
        Prefix { op, operand } => write_prefix(out, *op, operand),
        Factorial { operand } => {
            write_operand(out, operand, needs_braces_as_base(operand));
            out.push('!');
        }
        Scripts { base, sub, sup, primes } => {
            write_scripts(out, base, sub.as_deref(), sup.as_deref(), *primes)
        }
        Frac { num, den } => write_command(out, "\\frac", &[num, den]),
        Binom { top, bottom } => write_command(out, "\\binom", &[top, bottom]),
        Sqrt { index, radicand } => {
            out.push_str("\\sqrt");
            if let Some(index) = index {
                out.push('[');
                write_node(out, index);
                out.push(']');
            }
            write_braced(out, radicand);
        }
        Accent { accent, body } => write_command(out, &format!("\\{accent}"), &[body]),
        Styled { font, body } => {
            out.push_str(names::font_command(*font).unwrap_or("\\mathnormal"));
            write_braced(out, body);
        }
        Boxed { body } => write_command(out, "\\boxed", &[body]),
        Fenced { open, close, sized, body } => write_fenced(out, *open, *close, *sized, body),
        Annotated { place, body, label } => {
            out.push_str(if *place == Place::Over { "\\overbrace" } else { "\\underbrace" });
            write_braced(out, body);
            if let Some(label) = label {
                out.push_str(if *place == Place::Over { "^" } else { "_" });
                write_braced(out, label);
            }
        }
        Stacked { place, over, base } => {
            let name = if *place == Place::Over { "\\overset" } else { "\\underset" };
            write_command(out, name, &[over, base]);
        }
        Rows(table) => write_rows(out, table.env.as_deref(), table.columns.as_deref(), &table.rows),
    }
}

/// A symbol name as LaTeX: a letter as is, a command name with its backslash, anything else
/// (an escaped `\%`, an operator character) as is.
fn symbol_latex(name: &str) -> String {
    let is_command = name.len() > 1 && name.starts_with(|c: char| c.is_ascii_alphabetic());
    if is_command {
        format!("\\{name}")
    } else {
        name.to_string()
    }
}

fn write_font(out: &mut String, font: Font, inner: &str) {
    match names::font_command(font) {
        Some(command) => {
            out.push_str(command);
            out.push('{');
            out.push_str(inner);
            out.push('}');
        }
        None => out.push_str(inner),
    }
}

fn write_word(out: &mut String, text: &str, style: WordStyle) {
    match style {
        WordStyle::Operator | WordStyle::OperatorLimits if names::builtin_operator(text) == Some(style) => {
            out.push('\\');
            out.push_str(text);
        }
        WordStyle::Operator => write_font_word(out, "\\operatorname", text),
        WordStyle::OperatorLimits => write_font_word(out, "\\operatorname*", text),
        WordStyle::Roman => write_font_word(out, "\\mathrm", text),
        WordStyle::Text => write_font_word(out, "\\text", text),
        WordStyle::Font(font) => {
            write_font_word(out, names::font_command(font).unwrap_or("\\mathnormal"), text)
        }
    }
}

fn write_font_word(out: &mut String, command: &str, text: &str) {
    out.push_str(command);
    out.push('{');
    if command == "\\text" {
        out.push_str(text);
    } else {
        // `\mathrm{W\text{-}MSA}`: a hyphen inside a name is written as text, and an underscore
        // escaped (`\mathit{keep\_prob}`), as they were read.
        for (i, piece) in text.split('-').enumerate() {
            if i > 0 {
                out.push_str("\\text{-}");
            }
            out.push_str(&piece.replace('_', "\\_"));
        }
    }
    out.push('}');
}

fn write_command(out: &mut String, command: &str, arguments: &[&Node]) {
    out.push_str(command);
    for argument in arguments {
        write_braced(out, argument);
    }
}

fn write_braced(out: &mut String, node: &Node) {
    if let NodeKind::Unknown { name } = &node.kind {
        if encode::is_font_switch(name) {
            // A stray switch (`K^\sf`): in braces it would switch the font of an empty group.
            out.push(' ');
            out.push_str(name);
            out.push(' ');
            return;
        }
    }
    out.push('{');
    write_node(out, node);
    out.push('}');
}

fn write_operand(out: &mut String, node: &Node, braces: bool) {
    if braces {
        write_braced(out, node);
    } else {
        write_node(out, node);
    }
}

fn write_chain(out: &mut String, first: &Node, rest: &[super::ast::Link]) {
    let level = rest.first().map_or(Level::Multiplicative, |link| infix_level(&link.op));
    // A lone operator, as in `\mathbb{R}^{+}` or `x^{-}`: two empty operands around it. Its
    // second operand must stay bare: `- {}` would parse as a sign applied to an empty group.
    let lone = matches!(first.kind, NodeKind::Empty)
        && matches!(rest, [link] if matches!(link.operand.kind, NodeKind::Empty));
    // Otherwise an empty first operand before an operator that is also a sign (`{} - x`,
    // `{\pm_v}`) is written `{}`: left bare, the sign would read as a prefix on what follows.
    // So is one before juxtaposition (`{}x`, `{}_a b`): left bare, it would vanish.
    let sign_after_empty = matches!(first.kind, NodeKind::Empty)
        && !lone
        && matches!(rest.first(), Some(link) if is_sign(&link.op) || link.op == InfixOp::Juxt);
    write_operand(out, first, sign_after_empty || needs_braces_in_chain(first, level, true));
    for link in rest {
        write_infix(out, &link.op);
        let braces = !lone
            && (needs_braces_in_chain(&link.operand, level, false)
                || (link.op == InfixOp::Juxt && matches!(link.operand.kind, NodeKind::Prefix { .. })));
        write_operand(out, &link.operand, braces);
    }
}

/// Whether an infix operator is also a prefix sign (`-` `+` `\pm` `\mp`).
fn is_sign(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Additive(text) if matches!(text.as_str(), "-" | "+" | "\\pm" | "\\mp"))
}

fn write_infix(out: &mut String, op: &InfixOp) {
    match op {
        InfixOp::Juxt => out.push(' '),
        InfixOp::Separator(text) => {
            out.push_str(text);
            out.push(' ');
        }
        InfixOp::Relation(text) | InfixOp::Additive(text) | InfixOp::Multiplicative(text) => {
            out.push(' ');
            out.push_str(text);
            out.push(' ');
        }
        InfixOp::Stacked(stacked) => {
            out.push(' ');
            out.push_str(if stacked.place == Place::Over { "\\overset" } else { "\\underset" });
            write_braced(out, &stacked.label);
            out.push('{');
            out.push_str(&stacked.relation);
            out.push_str("} ");
        }
    }
}

/// Whether an operand of a chain at `level` needs braces to keep its place.
fn needs_braces_in_chain(node: &Node, level: Level, first: bool) -> bool {
    match &node.kind {
        NodeKind::Chain { rest, .. } => {
            let inner = rest.first().map_or(Level::Multiplicative, |link| infix_level(&link.op));
            if first {
                inner < level
            } else {
                inner <= level
            }
        }
        NodeKind::Prefix { .. } => !first && level >= Level::Multiplicative,
        NodeKind::Fenced { close: None, .. } => true,
        NodeKind::Empty => !first,
        _ => false,
    }
}

fn write_prefix(out: &mut String, op: PrefixOp, operand: &Node) {
    out.push_str(match op {
        PrefixOp::Minus => "-",
        PrefixOp::Plus => "+",
        PrefixOp::PlusMinus => "\\pm ",
        PrefixOp::MinusPlus => "\\mp ",
        PrefixOp::Not => "\\neg ",
    });
    let braces = matches!(
        operand.kind,
        NodeKind::Chain { .. } | NodeKind::Empty | NodeKind::Fenced { close: None, .. }
    );
    write_operand(out, operand, braces);
}

/// Whether a base of scripts or a factorial needs braces to stay one base.
fn needs_braces_as_base(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Rows(table) => table.env.is_none(),
        kind => matches!(
            kind,
            NodeKind::Chain { .. }
                | NodeKind::Prefix { .. }
                | NodeKind::Scripts { .. }
                | NodeKind::Factorial { .. }
                | NodeKind::Empty
                | NodeKind::Annotated { .. }
                | NodeKind::Fenced { close: None, .. }
        ),
    }
}

fn write_scripts(out: &mut String, base: &Node, sub: Option<&Node>, sup: Option<&Node>, primes: u8) {
    write_operand(out, base, needs_braces_as_base(base));
    for _ in 0..primes {
        out.push('\'');
    }
    if let Some(sub) = sub {
        out.push('_');
        write_braced(out, sub);
    }
    if let Some(sup) = sup {
        out.push('^');
        write_braced(out, sup);
    }
}

fn write_fenced(out: &mut String, open: Delim, close: Option<Delim>, sized: bool, body: &Node) {
    if sized {
        let open_text = delim_latex(open, true);
        out.push_str("\\left");
        out.push_str(open_text);
        out.push(' ');
        write_node(out, body);
        out.push_str(" \\right");
        out.push_str(delim_latex(close.unwrap_or(Delim::Nothing), false));
        return;
    }
    let mut inner = String::new();
    write_node(&mut inner, body);
    // A bar at both ends is a bar group (`|x|`, `\|x\|`). A bar at one end only came from a
    // bracket group (`\lvert x`, `(x \rvert`) and is written as the command: a bare bar there
    // would read as a relation.
    let is_bar = |delim: Delim| matches!(delim, Delim::Bar | Delim::DoubleBar);
    let bar_group = is_bar(open) && close.is_some_and(is_bar);
    let delim_text = |delim: Delim, open: bool| match (delim, open) {
        (Delim::Bar, true) if !bar_group => "\\lvert",
        (Delim::DoubleBar, true) if !bar_group => "\\lVert",
        (Delim::Bar, false) if !bar_group => "\\rvert",
        (Delim::DoubleBar, false) if !bar_group => "\\rVert",
        _ => delim_latex(delim, open),
    };
    let open_text = delim_text(open, true);
    let braces = bar_group && (inner.contains('|') || inner.contains("\\Vert"));
    out.push_str(open_text);
    if open_text.starts_with('\\') && open_text.len() > 2 {
        out.push(' ');
    }
    if braces {
        out.push('{');
        out.push_str(&inner);
        out.push('}');
    } else {
        out.push_str(&inner);
    }
    if let Some(close) = close {
        out.push_str(delim_text(close, false));
    }
}

fn delim_latex(delim: Delim, open: bool) -> &'static str {
    match (delim, open) {
        (Delim::Paren, true) => "(",
        (Delim::Paren, false) => ")",
        (Delim::Bracket, true) => "[",
        (Delim::Bracket, false) => "]",
        (Delim::Brace, true) => "\\{",
        (Delim::Brace, false) => "\\}",
        (Delim::Angle, true) => "\\langle",
        (Delim::Angle, false) => "\\rangle",
        (Delim::Bar, _) => "|",
        (Delim::DoubleBar, _) => "\\|",
        (Delim::Floor, true) => "\\lfloor",
        (Delim::Floor, false) => "\\rfloor",
        (Delim::Ceil, true) => "\\lceil",
        (Delim::Ceil, false) => "\\rceil",
        (Delim::DoubleBracket, true) => "\\llbracket",
        (Delim::DoubleBracket, false) => "\\rrbracket",
        (Delim::Group, true) => "\\lgroup",
        (Delim::Group, false) => "\\rgroup",
        (Delim::Nothing, _) => ".",
        (Delim::Slash, _) => "/",
        (Delim::Backslash, _) => "\\backslash",
        (Delim::Arrow, _) => "\\uparrow",
    }
}

fn write_rows(out: &mut String, env: Option<&str>, columns: Option<&str>, rows: &[Vec<Node>]) {
    if let Some(env) = env {
        out.push_str("\\begin{");
        out.push_str(env);
        out.push('}');
        if let Some(columns) = columns {
            out.push('{');
            out.push_str(columns);
            out.push('}');
        }
        out.push(' ');
    }
    for (index, row) in rows.iter().enumerate() {
        if index > 0 {
            out.push_str(" \\\\ ");
        }
        for (cell_index, cell) in row.iter().enumerate() {
            if cell_index > 0 {
                out.push_str(" & ");
            }
            write_node(out, cell);
        }
    }
    if let Some(env) = env {
        out.push_str(" \\end{");
        out.push_str(env);
        out.push('}');
    }
}
