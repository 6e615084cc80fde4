//! Unit tests of the parser's rules: precedence, Unicode, limits, and the table itself.

use eqmap::syntax::ast::NodeKind;
use eqmap::syntax::error::{ParseError, ParseErrorKind};
use eqmap::syntax::precedence::TABLE;
use eqmap::{parse, parse_with, Limits};

fn canonical(source: &str) -> String {
    match parse(source) {
        Ok(parsed) => eqmap::syntax::print::to_latex(&parsed.root),
        Err(error) => panic!("{source}: {}", error.message(eqmap::Lang::En)),
    }
}

fn error_kind(source: &str) -> ParseErrorKind {
    match parse(source) {
        Ok(parsed) => panic!("{source} was accepted: {:?}", parsed.root),
        Err(error) => error.kind,
    }
}

#[test]
fn every_operator_rule_of_the_grammar_is_in_the_precedence_table() {
    let grammar = include_str!("../grammar/latex.pest");
    let lines: Vec<&str> = grammar.lines().collect();
    let mut operator_rules = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("// operator rule") {
            continue;
        }
        // The rule definitions right after the comment (continuation lines are skipped).
        for next in &lines[index + 1..] {
            let Some((name, _)) = next.split_once(" = ") else {
                if next.starts_with(' ') || next.starts_with('}') {
                    continue;
                }
                break;
            };
            if name.starts_with("//") || name.contains(' ') {
                break;
            }
            operator_rules.push(name.trim().to_string());
        }
    }
    assert!(operator_rules.len() >= 10, "found only {operator_rules:?}");
    let table: Vec<String> = TABLE.iter().map(|row| format!("{:?}", row.rule)).collect();
    for rule in &operator_rules {
        assert!(table.contains(rule), "operator rule `{rule}` is missing from the precedence table");
    }
    for rule in &table {
        assert!(
            operator_rules.contains(rule),
            "table row `{rule}` is not marked as an operator rule in the grammar"
        );
    }
}

#[test]
fn precedence_follows_the_table() {
    assert_eq!(canonical("a = b + c d"), "a = b + c d");
    // Products bind tighter than sums, sums than relations, relations than commas.
    let parsed = parse("x, a = b + c \\cdot d").map(|p| p.root).ok();
    let Some(root) = parsed else { panic!("did not parse") };
    let NodeKind::Chain { rest, .. } = &root.kind else { panic!("not a chain: {root:?}") };
    assert_eq!(rest.len(), 1, "the comma chain has one link");
    // Unary minus binds tighter than juxtaposition, scripts tighter than unary minus.
    assert_eq!(canonical("-x^2 y"), "-x^{2} y");
    assert_eq!(canonical("{-x}^2"), "{-x}^{2}");
}

#[test]
fn letters_are_separate_symbols_and_juxtaposition_is_kept() {
    let root = parse("QK").map(|p| p.root).ok();
    match root.map(|r| r.kind) {
        Some(NodeKind::Chain { first, rest }) => {
            assert!(matches!(first.kind, NodeKind::Symbol { ref name, .. } if name == "Q"));
            assert_eq!(rest.len(), 1);
            assert_eq!(rest[0].op, eqmap::syntax::ast::InfixOp::Juxt);
        }
        other => panic!("QK parsed as {other:?}"),
    }
}

#[test]
fn unicode_pastes_parse_as_their_latex() {
    let pairs = include_str!("fixtures/unicode/pairs.txt");
    for line in pairs.lines().filter(|l| !l.is_empty()) {
        let Some((unicode, latex)) = line.split_once('\t') else { panic!("bad line {line}") };
        let a = parse(unicode)
            .map(|p| p.root)
            .unwrap_or_else(|e| panic!("{unicode}: {}", e.message(eqmap::Lang::En)));
        let b = parse(latex)
            .map(|p| p.root)
            .unwrap_or_else(|e| panic!("{latex}: {}", e.message(eqmap::Lang::En)));
        assert_eq!(a, b, "{unicode} and {latex} differ: {} vs {}", canonical(unicode), canonical(latex));
    }
}

#[test]
fn old_style_and_corpus_constructs_parse() {
    for source in [
        "{\\bf x} + {\\cal L}",
        "\\operatorname { l n } x",
        "x \\stackrel{\\textrm{def}}{=} y",
        "\\sum\\limits_{i} x_i",
        "\\left. f \\right|_{x=0}",
        "\\Bigg( x \\Bigg)",
        "\\begin{aligned} a &= b \\\\ &= c \\end{aligned}",
        "\\begin{array}{cc} a & b \\\\ c & d \\end{array}",
        "F(x) = \\begin{cases} 0 & x < 0, \\\\ 1 & x >= 0. \\end{cases}",
        "x = 1 \\label{eq:1} \\tag{3}",
        "\\hspace { 0 . 5 c m } x",
        "[0, 1)",
        "\\mathbb{E}_{x \\sim p}[f(x)]",
        "\\overset{!}{=}",
        "\\bm{\\theta} \\vec{v} \\dot{x}",
        "\\displaystyle \\frac12",
        "{n \\choose k}",
    ] {
        if let Err(error) = parse(source) {
            panic!("{source}: {}", error.message(eqmap::Lang::En));
        }
    }
}

#[test]
fn unknown_commands_warn_and_the_rest_still_serves() {
    let parsed = parse("\\foo + \\softplus(x)").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    assert_eq!(parsed.warnings.len(), 2);
    assert_eq!(canonical("\\foo + x"), "\\foo + x");
}

#[test]
fn malformed_input_is_refused_with_a_position() {
    assert!(matches!(error_kind("\\sum_{i=1}^{N x_i"), ParseErrorKind::Unclosed { .. }));
    assert!(matches!(error_kind("\\frac{a}"), ParseErrorKind::MissingArgument { takes: 2, given: 1, .. }));
    assert!(matches!(error_kind("x^{"), ParseErrorKind::Unclosed { .. }));
    assert!(matches!(error_kind("\\left( x"), ParseErrorKind::Unclosed { .. }));
    assert!(matches!(error_kind("\\sqrt["), ParseErrorKind::Unclosed { .. }));
    let error = parse("ab \\left( x").err().map(|e| (e.span, e.opened));
    assert_eq!(
        error,
        Some((eqmap::syntax::ast::Span::new(11, 11), Some(eqmap::syntax::ast::Span::new(3, 8))))
    );
}

#[test]
fn a_run_of_signs_is_broken_by_anything_but_blanks() {
    let limits = Limits { max_signs: 3, ..Limits::default() };
    let too_many = |source: &str| {
        matches!(
            parse_with(source, &limits),
            Err(ParseError { kind: ParseErrorKind::TooManySigns { .. }, .. })
        )
    };
    // Blanks of every kind keep a run going; sign commands and Unicode signs count.
    assert!(too_many("- - - - x"));
    assert!(too_many("-\t-\n-\r-x"));
    assert!(too_many("- \\pm \\mp - x"));
    assert!(too_many("− ± - + x"));
    // Operands, spacing commands, escapes and groups break it.
    for source in ["- - - x - - - y", "- - -\\,- - - y", "- - - {} - - - y", "- - -\\quad - - - y"] {
        assert!(!too_many(source), "{source}");
    }
    // The error points at the first sign over the limit.
    let error = parse_with("x = - - - - y", &limits).err().map(|e| e.span);
    assert_eq!(error, Some(eqmap::syntax::ast::Span::new(10, 11)));
}

#[test]
fn limits_refuse_hostile_sizes_with_one_clear_error() {
    let deep = "{".repeat(100_000);
    assert!(matches!(error_kind(&deep), ParseErrorKind::TooDeep { limit: 256 }));
    let deep_parens = "(".repeat(100_000);
    assert!(matches!(error_kind(&deep_parens), ParseErrorKind::TooDeep { .. }));
    let switches = "\\bf ".repeat(10_000);
    assert!(matches!(error_kind(&switches), ParseErrorKind::TooDeep { .. }));
    let long = "x+".repeat(5_000_000);
    assert!(matches!(error_kind(&long), ParseErrorKind::TooLong { .. }));
    let signs = "-".repeat(1_000) + "x";
    assert!(matches!(error_kind(&signs), ParseErrorKind::TooManySigns { .. }));
    let scripts = "x".to_string() + &"_1!".repeat(1_000);
    assert!(matches!(error_kind(&scripts), ParseErrorKind::TooManyScripts { .. }));
    // Limits are adjustable: a long flat sum parses when allowed.
    let sum = "x+".repeat(60_000) + "x";
    let limits = Limits { max_bytes: 1_000_000, ..Limits::default() };
    let parsed = parse_with(&sum, &limits).map(|p| p.root);
    assert!(matches!(parsed.map(|r| r.kind), Ok(NodeKind::Chain { ref rest, .. }) if rest.len() == 60_000));
}

#[test]
fn a_bracket_in_a_matrix_is_content_not_a_position() {
    // Found by the print → parse property: `[A]` right after `\begin{bmatrix}` was taken as a
    // position argument such as `[t]`.
    let parsed = parse(r"\begin{bmatrix} [A] \end{bmatrix}").map(|p| p.root);
    match parsed.map(|r| r.kind) {
        Ok(NodeKind::Rows(table)) => {
            let rows = &table.rows;
            assert!(matches!(rows[0][0].kind, NodeKind::Fenced { .. }), "{:?}", rows[0][0]);
        }
        other => panic!("{other:?}"),
    }
    assert!(parse(r"\begin{aligned}[t] a &= b \end{aligned}").is_ok());
}

/// Each source is one word holding `joiner`, printed back as it was written.
fn assert_name_kept_whole(sources: &[&str], joiner: char) {
    for source in sources {
        let parsed = parse(source).unwrap_or_else(|e| panic!("{source}: {}", e.message(eqmap::Lang::En)));
        assert!(
            matches!(&parsed.root.kind, NodeKind::Word { text, .. } if text.contains(joiner)),
            "{source}: {:?}",
            parsed.root.kind
        );
        assert_eq!(canonical(source), *source, "printed as it was read");
    }
}

#[test]
fn a_hyphen_set_as_text_inside_a_roman_name_keeps_the_name_whole() {
    assert_name_kept_whole(&[r"\mathrm{W\text{-}MSA}", r"\mathrm{Grad\text{-}CAM}"], '-');
    // A hyphen that ends the name, or a minus, is no part of a name.
    assert!(!matches!(parse(r"\mathrm{W\text{-}}").map(|p| p.root.kind), Ok(NodeKind::Word { .. })));
    assert!(!matches!(parse(r"\mathrm{W-MSA}").map(|p| p.root.kind), Ok(NodeKind::Word { .. })));
}

#[test]
fn an_escaped_underscore_inside_a_name_keeps_the_name_whole() {
    assert_name_kept_whole(&[r"\mathit{keep\_prob}", r"\mathrm{z\_loss}"], '_');
    // An underscore that ends the name is no part of a name.
    assert!(!matches!(parse(r"\mathit{keep\_}").map(|p| p.root.kind), Ok(NodeKind::Word { .. })));
}

#[test]
fn the_unicode_subscript_predicate_is_the_grammars_set() {
    // `syntax::names::is_unicode_subscript` (the paste's `Σᵢ` asks it) must hold exactly for the
    // characters the grammar reads as a subscript after a letter.
    for code in 0x2070..=0x2C7F_u32 {
        let Some(c) = char::from_u32(code) else { continue };
        let read_as_subscript = parse(&format!("x{c}"))
            .is_ok_and(|parsed| matches!(&parsed.root.kind, NodeKind::Scripts { sub: Some(_), .. }));
        assert_eq!(eqmap::syntax::names::is_unicode_subscript(c), read_as_subscript, "U+{code:04X} {c}");
    }
}
