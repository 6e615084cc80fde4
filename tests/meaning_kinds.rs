//! Symbol kinds and calls, from declarations, usage and conventions, as the meaning layer's
//! resolved tree gives them.

use eqmap::meaning::{binding_name, is_call, kind_of_term, resolve, SymbolKind, SymbolTable, Term};
use eqmap::syntax::ast::{InfixOp, Node, NodeKind};

fn root(source: &str) -> Node {
    eqmap::parse(source)
        .map(|p| p.root)
        .unwrap_or_else(|e| panic!("{source}: {}", e.message(eqmap::Lang::En)))
}

/// Finds the first term whose source text is `text`, outermost first.
fn find<'t, 'n>(term: &'t Term<'n>, source: &str, text: &str) -> Option<&'t Term<'n>> {
    if term.span.text(source) == text {
        return Some(term);
    }
    let mut children = Vec::new();
    term.for_each_child(|child| children.push(child));
    children.into_iter().find_map(|child| find(child, source, text))
}

fn kind(source: &str, text: &str) -> SymbolKind {
    let tree = root(source);
    let table = SymbolTable::from_formula(&tree);
    let term = resolve(&tree, &table);
    let found = find(&term, source, text).unwrap_or_else(|| panic!("no `{text}` in {source}"));
    kind_of_term(found)
}

#[test]
fn conventions_give_kinds() {
    let attention = r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";
    assert_eq!(kind(attention, "Q"), SymbolKind::Matrix);
    assert_eq!(kind(attention, "K^\\top"), SymbolKind::Matrix);
    assert_eq!(kind(attention, "QK^\\top"), SymbolKind::Matrix);
    assert_eq!(kind(attention, "d_k"), SymbolKind::Dimension);
    assert_eq!(kind(attention, "\\mathrm{softmax}"), SymbolKind::Function);
    assert_eq!(kind(r"\mathbf{x} + \mathbf{W}", r"\mathbf{x}"), SymbolKind::Vector);
    assert_eq!(kind(r"\mathbf{x} + \mathbf{W}", r"\mathbf{W}"), SymbolKind::Matrix);
    assert_eq!(kind("a + b", "a"), SymbolKind::Scalar);
}

#[test]
fn usage_and_declarations_override_conventions() {
    let loss = r"L = -\frac{1}{N}\sum_{i=1}^{N} \log p_\theta(x_i \mid x_{<i})";
    assert_eq!(kind(loss, "N"), SymbolKind::Dimension);
    assert_eq!(kind(loss, "L"), SymbolKind::Scalar);
    assert_eq!(kind(r"(QK^\top)_{ij} = \sum_{t=1}^{d_k} Q_{it} K_{jt}", "t"), SymbolKind::Index);
    let declared = r"X \in \mathbb{R}^{n}, W \in \mathbb{R}";
    assert_eq!(kind(declared, "X"), SymbolKind::Vector);
    assert_eq!(kind(declared, "W"), SymbolKind::Scalar);
    assert_eq!(kind(declared, "n"), SymbolKind::Dimension);
}

#[test]
fn calls_and_products_are_told_apart() {
    let source = r"p_\theta(x) + Q(K+V) + \mathrm{softmax}(z) + f(x)";
    let tree = root(source);
    let table = SymbolTable::from_formula(&tree);
    let NodeKind::Chain { first, rest } = &tree.kind else { panic!("{tree:?}") };
    let operands: Vec<&Node> =
        std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect();
    let calls: Vec<bool> = operands
        .iter()
        .map(|term| match &term.kind {
            NodeKind::Chain { first, rest } if rest[0].op == InfixOp::Juxt => {
                is_call(first, &rest[0].operand, &table)
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(calls, [true, false, true, true]);
}

#[test]
fn binding_names_follow_the_command_line_contract() {
    for (source, name) in [
        (r"\mu", "mu"),
        (r"\mathbf{x}", "x"),
        ("W_Q", "W_Q"),
        (r"d_{\text{model}}", "d_model"),
        (r"d_{model}", "d_model"),
        (r"\mathrm{softmax}", "softmax"),
    ] {
        assert_eq!(binding_name(&root(source)).as_deref(), Some(name), "{source}");
    }
}

#[test]
fn definitions_are_learned() {
    let tree = root(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}(QK^\top)V");
    let table = SymbolTable::from_formula(&tree);
    let definition = table.definition("Attention").unwrap_or_else(|| panic!("not learned"));
    assert_eq!(definition.parameters, ["Q", "K", "V"]);
}
