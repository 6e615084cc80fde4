//! Properties of the parser that must hold for any input.

use eqmap::syntax::ast::{Delim, Font, InfixOp, Link, Node, NodeKind, PrefixOp, Span, Table, WordStyle};
use eqmap::syntax::print::to_latex;
use proptest::prelude::*;

fn node(kind: NodeKind) -> Node {
    Node::new(kind, Span::default())
}

fn leaf() -> impl Strategy<Value = Node> {
    prop_oneof![
        "[a-zA-Z]".prop_map(|name: String| node(NodeKind::Symbol { name: name.into(), font: Font::Normal })),
        prop::sample::select(vec!["alpha", "theta", "Sigma", "infty", "partial", "nabla", "ell"])
            .prop_map(|name| node(NodeKind::Symbol { name: name.into(), font: Font::Normal })),
        (
            prop::sample::select(vec![Font::Bold, Font::Blackboard, Font::Calligraphic, Font::Roman]),
            "[A-Za-z]"
        )
            .prop_map(|(font, name): (Font, String)| node(NodeKind::Symbol { name: name.into(), font })),
        "[0-9]{1,3}(\\.[0-9]{1,2})?"
            .prop_map(|text: String| node(NodeKind::Number { text: text.into(), font: Font::Normal })),
        prop::sample::select(vec!["softmax", "Attention", "ReLU", "argmax"])
            .prop_map(|text| node(NodeKind::Word { text: text.into(), style: WordStyle::Roman })),
        prop::sample::select(vec!["log", "exp", "max", "det"]).prop_map(|text| {
            let style = eqmap::syntax::names::builtin_operator(text).unwrap_or(WordStyle::Operator);
            node(NodeKind::Word { text: text.into(), style })
        }),
        prop::sample::select(vec!["sum", "prod", "int"])
            .prop_map(|name| node(NodeKind::LargeOp { name: name.into() })),
        Just(node(NodeKind::Dots { name: "dots".into() })),
    ]
}

fn infix_op() -> impl Strategy<Value = InfixOp> {
    prop_oneof![
        Just(InfixOp::Juxt),
        prop::sample::select(vec!["=", "\\le", "\\in", "\\sim", "\\to", "\\mid", "\\approx"])
            .prop_map(|r| InfixOp::Relation(r.into())),
        prop::sample::select(vec!["+", "-", "\\pm", "\\cup"]).prop_map(|r| InfixOp::Additive(r.into())),
        prop::sample::select(vec!["\\cdot", "\\times", "/", "\\odot"])
            .prop_map(|r| InfixOp::Multiplicative(r.into())),
        Just(InfixOp::Separator(",".into())),
    ]
}

fn tree() -> impl Strategy<Value = Node> {
    leaf().prop_recursive(5, 48, 4, |inner| {
        prop_oneof![
            (inner.clone(), prop::collection::vec((infix_op(), inner.clone()), 1..4)).prop_map(
                |(first, links)| {
                    // One chain holds operators of one level: use the first op's level for all.
                    let level_op = links[0].0.clone();
                    let rest = links
                        .into_iter()
                        .map(|(op, operand)| Link {
                            op: if std::mem::discriminant(&op) == std::mem::discriminant(&level_op) {
                                op
                            } else {
                                level_op.clone()
                            },
                            op_span: Span::default(),
                            operand,
                        })
                        .collect();
                    node(NodeKind::Chain { first: first.boxed(), rest })
                }
            ),
            (inner.clone(), prop::option::of(inner.clone()), prop::option::of(inner.clone())).prop_map(
                |(base, sub, sup)| {
                    let (sub, sup) =
                        if sub.is_none() && sup.is_none() { (Some(base.clone()), None) } else { (sub, sup) };
                    node(NodeKind::Scripts {
                        base: base.boxed(),
                        sub: sub.map(Box::new),
                        sup: sup.map(Box::new),
                        primes: 0,
                    })
                }
            ),
            (inner.clone(), inner.clone())
                .prop_map(|(num, den)| node(NodeKind::Frac { num: num.boxed(), den: den.boxed() })),
            inner.clone().prop_map(|r| node(NodeKind::Sqrt { index: None, radicand: r.boxed() })),
            (prop::sample::select(vec!["hat", "tilde", "bar", "vec"]), inner.clone())
                .prop_map(|(a, body)| node(NodeKind::Accent { accent: a.into(), body: body.boxed() })),
            (
                prop::sample::select(vec![Delim::Paren, Delim::Bracket, Delim::DoubleBar, Delim::Angle]),
                any::<bool>(),
                inner.clone()
            )
                .prop_map(|(delim, sized, body)| node(NodeKind::Fenced {
                    open: delim,
                    close: Some(delim),
                    sized,
                    body: body.boxed()
                })),
            inner.clone().prop_map(|o| node(NodeKind::Prefix { op: PrefixOp::Minus, operand: o.boxed() })),
            prop::collection::vec(prop::collection::vec(inner.clone(), 1..3), 1..3).prop_map(|rows| {
                let width = rows[0].len();
                let rows = rows
                    .into_iter()
                    .map(|mut r| {
                        r.resize(width, r[0].clone());
                        r
                    })
                    .collect();
                node(NodeKind::Rows(Box::new(Table {
                    env: Some("bmatrix".to_string()),
                    columns: None,
                    rows,
                })))
            }),
        ]
    })
}

/// Normalises what the printer legitimately canonicalises: a chain whose first operand is a
/// chain of the same level is one flat chain.
fn flatten(node: Node) -> Node {
    let kind = match node.kind {
        NodeKind::Chain { first, rest } => {
            let first = flatten(*first);
            let rest: Vec<Link> =
                rest.into_iter().map(|l| Link { operand: flatten(l.operand), ..l }).collect();
            let level = |op: &InfixOp| eqmap::syntax::precedence::infix_level(op);
            match first.kind {
                NodeKind::Chain { first: inner_first, rest: mut inner_rest }
                    if level(&inner_rest[0].op) == level(&rest[0].op) =>
                {
                    inner_rest.extend(rest);
                    NodeKind::Chain { first: inner_first, rest: inner_rest }
                }
                kind => NodeKind::Chain { first: Node::new(kind, first.span).boxed(), rest },
            }
        }
        NodeKind::Scripts { base, sub, sup, primes } => NodeKind::Scripts {
            base: flatten(*base).boxed(),
            sub: sub.map(|s| flatten(*s).boxed()),
            sup: sup.map(|s| flatten(*s).boxed()),
            primes,
        },
        NodeKind::Frac { num, den } => {
            NodeKind::Frac { num: flatten(*num).boxed(), den: flatten(*den).boxed() }
        }
        NodeKind::Sqrt { index, radicand } => NodeKind::Sqrt { index, radicand: flatten(*radicand).boxed() },
        NodeKind::Accent { accent, body } => NodeKind::Accent { accent, body: flatten(*body).boxed() },
        NodeKind::Fenced { open, close, sized, body } => {
            NodeKind::Fenced { open, close, sized, body: flatten(*body).boxed() }
        }
        NodeKind::Prefix { op, operand } => NodeKind::Prefix { op, operand: flatten(*operand).boxed() },
        NodeKind::Rows(table) => {
            let Table { env, columns, rows } = *table;
            let rows = rows.into_iter().map(|r| r.into_iter().map(flatten).collect()).collect();
            NodeKind::Rows(Box::new(Table { env, columns, rows }))
        }
        kind => kind,
    };
    Node::new(kind, node.span)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Printing any tree and parsing the text gives the same tree back.
    #[test]
    fn print_then_parse_is_identity(tree in tree()) {
        let tree = flatten(tree);
        let latex = to_latex(&tree);
        let parsed = eqmap::parse(&latex).map_err(|e| TestCaseError::fail(format!("{latex}: {}", e.message(eqmap::Lang::En))))?;
        prop_assert_eq!(&parsed.root, &tree, "printed as {}", latex);
        // And the canonical form is a fixed point.
        prop_assert_eq!(to_latex(&parsed.root), latex);
    }

    /// Any string parses or fails with an error; never a panic. Errors point inside the input.
    #[test]
    fn arbitrary_strings_never_panic(source in "\\PC{0,80}") {
        match eqmap::parse(&source) {
            Ok(parsed) => prop_assert!(parsed.root.span.end <= source.len()),
            Err(error) => prop_assert!(error.span.end <= source.len()),
        }
    }

    /// Strings built from LaTeX tokens (the likely malformed pastes) never panic either.
    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "(", ")", "[", "]", "\\left(", "\\right)", "\\left.", "\\right|", "^", "_", "'", "\\frac",
        "\\sqrt", "[3]", "\\begin{cases}", "\\end{cases}", "&", "\\\\", "x", "2", "\\alpha", "+", "-", "=",
        "\\|", "|", "\\mathbf", "\\bf", "\\over", "\\hat", "\\text{ a }", "ᵀ", "√", "α", "\\foo", ",", "\\,",
        "\\underbrace", "\\overset", "\\not", "!", "\\sum", "\\limits", "\\operatorname*", "\\big", "%", "$",
    ]), 0..40)) {
        let source = tokens.concat();
        let _ = eqmap::parse(&source);
        let spaced = tokens.join(" ");
        let _ = eqmap::parse(&spaced);
    }
}
