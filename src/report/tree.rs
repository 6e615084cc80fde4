//! The tree of a formula as indented text, one node a line with its byte span.

use crate::syntax::ast::{InfixOp, Node, NodeKind, WordStyle};
use std::fmt::Write;

/// Renders `node` as an indented tree.
pub fn render_tree(node: &Node) -> String {
    let mut out = String::new();
    write_tree(&mut out, node, 0);
    out
}

/// The deepest level indented further; deeper lines say their level instead (`[40]`), so that
/// the text stays linear in the size of the tree however deep it is.
const MAX_INDENT_LEVELS: usize = 32;

/// The indentation of a line at `depth`: two spaces a level up to [`MAX_INDENT_LEVELS`], then
/// the level in brackets, padded to the same width plus the brackets.
fn indentation(depth: usize) -> String {
    if depth <= MAX_INDENT_LEVELS {
        "  ".repeat(depth)
    } else {
        format!("{:>width$} ", format!("[{depth}]"), width = 2 * MAX_INDENT_LEVELS - 1)
    }
}

fn write_tree(out: &mut String, node: &Node, depth: usize) {
    let indent = indentation(depth);
    let _ = writeln!(out, "{indent}{} {}..{}", describe(node), node.span.start, node.span.end);
    match &node.kind {
        NodeKind::Chain { first, rest } => {
            write_tree(out, first, depth + 1);
            for link in rest {
                let _ = writeln!(out, "{indent}  · {}", op_name(&link.op));
                if let InfixOp::Stacked(stacked) = &link.op {
                    write_tree(out, &stacked.label, depth + 2);
                }
                write_tree(out, &link.operand, depth + 1);
            }
        }
        NodeKind::Scripts { base, sub, sup, .. } => {
            write_tree(out, base, depth + 1);
            if let Some(sub) = sub {
                let _ = writeln!(out, "{indent}  _");
                write_tree(out, sub, depth + 2);
            }
            if let Some(sup) = sup {
                let _ = writeln!(out, "{indent}  ^");
                write_tree(out, sup, depth + 2);
            }
        }
        NodeKind::Rows(table) => {
            for (index, row) in table.rows.iter().enumerate() {
                let _ = writeln!(out, "{indent}  row {}", index + 1);
                for cell in row {
                    write_tree(out, cell, depth + 2);
                }
            }
        }
        _ => {
            for child in node.children() {
                write_tree(out, child, depth + 1);
            }
        }
    }
}

fn op_name(op: &InfixOp) -> String {
    match op {
        InfixOp::Juxt => "juxt".to_string(),
        InfixOp::Separator(text) => format!("separator {text}"),
        InfixOp::Relation(text) => format!("relation {text}"),
        InfixOp::Additive(text) => format!("additive {text}"),
        InfixOp::Multiplicative(text) => format!("multiplicative {text}"),
        InfixOp::Stacked(stacked) => format!("stacked relation {}", stacked.relation),
    }
}

fn describe(node: &Node) -> String {
    use NodeKind::*;
    match &node.kind {
        Symbol { name, font } => format!("symbol {name}{}", font_suffix(*font)),
        Number { text, font } => format!("number {text}{}", font_suffix(*font)),
        Word { text, style } => format!("word {text:?} ({})", style_name(*style)),
        LargeOp { name } => format!("large-op {name}"),
        Dots { name } => format!("dots {name}"),
        Punct { text } => format!("punct {text:?}"),
        Unknown { name } => format!("unknown {name}"),
        Empty => "empty".to_string(),
        Chain { .. } => "chain".to_string(),
        Prefix { op, .. } => format!("prefix {op:?}").to_lowercase(),
        Factorial { .. } => "factorial".to_string(),
        Scripts { primes, .. } if *primes > 0 => format!("scripts (primes {primes})"),
        Scripts { .. } => "scripts".to_string(),
        Frac { .. } => "frac".to_string(),
        Binom { .. } => "binom".to_string(),
        Sqrt { index: Some(_), .. } => "root (index, radicand)".to_string(),
        Sqrt { .. } => "sqrt".to_string(),
        Accent { accent, .. } => format!("accent {accent}"),
        Styled { font, .. } => format!("styled{}", font_suffix(*font)),
        Boxed { .. } => "boxed".to_string(),
        Fenced { open, close, sized, .. } => {
            let close = close.map_or("none".to_string(), |c| format!("{c:?}"));
            let sized = if *sized { " sized" } else { "" };
            format!("fenced {open:?} {close}{sized}").to_lowercase()
        }
        Annotated { place, .. } => format!("brace {place:?}").to_lowercase(),
        Stacked { place, .. } => format!("stacked {place:?}").to_lowercase(),
        Rows(table) => match &table.env {
            Some(env) => format!("environment {env}"),
            None => "rows".to_string(),
        },
    }
}

fn font_suffix(font: crate::syntax::ast::Font) -> String {
    match font {
        crate::syntax::ast::Font::Normal => String::new(),
        other => format!(" ({})", format!("{other:?}").to_lowercase()),
    }
}

fn style_name(style: WordStyle) -> String {
    match style {
        WordStyle::Font(font) => format!("{font:?}").to_lowercase(),
        other => format!("{other:?}").to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_lines_say_their_level_instead_of_indenting_further() {
        assert_eq!(indentation(2), "    ");
        assert_eq!(indentation(MAX_INDENT_LEVELS).len(), 2 * MAX_INDENT_LEVELS);
        let deep = indentation(500);
        assert!(deep.ends_with("[500] "), "{deep:?}");
        assert_eq!(deep.len(), 2 * MAX_INDENT_LEVELS);
    }
}
