//! Regressions: inputs that once crashed, hung or misled eqmap, each with the outcome it must
//! have now. The CLI side of each is in the hostile catalogue (`tests/fixtures/hostile/`);
//! these hold the library to the same. See FUZZING.md for how each was found.

use eqmap::eval::{EvalErrorKind, Failure, Options, Session};
use eqmap::syntax::error::ParseErrorKind;
use eqmap::{parse_with, Lang, Limits};
use std::time::{Duration, Instant};

fn eval_error(session: &mut Session, formula: &str) -> EvalErrorKind {
    match session.evaluate(formula) {
        Ok(outcome) => panic!("{formula} was computed: {:?}", outcome.value),
        Err(Failure::Eval(error)) => *error.kind,
        Err(Failure::Parse(error)) => panic!("{formula}: parse error {}", error.message(Lang::En)),
    }
}

/// Runs `f` on a thread with a small stack (1.5 MiB, less than Rust's default of 2 MiB): at the
/// default limit the library must not need a big one, for input it takes or refuses. (The
/// deepest formulas at the default limit use about 1 MiB: 256 nested roots, `{\log {\log …}}`
/// 256 deep, a refused tower of 5,000 operators.)
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let worker = std::thread::Builder::new().stack_size(1536 * 1024).spawn(f);
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(value)) => value,
        _ => panic!("the worker died"),
    }
}

/// `\log \log … \log x` is one flat chain in the syntax tree but 5,000 nested calls to
/// evaluate: eval overflowed its stack (found by the hostile catalogue, `eval-operator-chain`).
/// Its resolved tree is 5,000 levels deep, so it is refused as too deep by the one rule
/// (`syntax::depth`), at the default limit, on a small stack.
#[test]
fn a_long_chain_of_operators_is_refused_not_a_stack_overflow() {
    let error = on_small_stack(|| {
        let mut session = Session::new(Options::default());
        let _ = session.bind_json("x", "2");
        let formula = r"\log ".repeat(5_000) + "x";
        match session.evaluate(&formula) {
            Err(Failure::Parse(error)) => Some(error.kind),
            _ => None,
        }
    });
    assert_eq!(error, Some(ParseErrorKind::TooDeep { limit: 256 }));
}

/// The deepest formulas the default limit takes are resolved, evaluated, mapped and read whole
/// on the small stack: 256 nested roots, and `{\log {\log … x}}` 256 deep, which resolution
/// takes in two steps a level (its guard stopped such a nest at 148 levels when it was an eighth
/// past the limit, and at 195 when it was a half past).
#[test]
fn the_deepest_accepted_formulas_fit_a_small_stack() {
    for (open, close) in [("\\sqrt{", "}"), ("{\\log ", "}")] {
        let formula = format!("{}x{}", open.repeat(256), close.repeat(256));
        let outcome = on_small_stack(move || {
            let mut session = Session::new(Options::default());
            let _ = session.bind_json("x", "2");
            let evaluated = match session.evaluate(&formula) {
                Err(Failure::Parse(error)) => Some(error.message(Lang::En)),
                _ => None,
            };
            let knowledge = eqmap::slotmap::Knowledge::default_knowledge();
            let mapped = knowledge.map(|k| {
                eqmap::slotmap::map_source(&formula, &k, Lang::En).err().map(|e| e.message(Lang::En))
            });
            let read = eqmap::speak::read_formula(&formula, Lang::En).err().map(|e| e.message(Lang::En));
            (evaluated, mapped, read)
        });
        assert_eq!(outcome, (None, Ok(None), None), "{open} 256 deep");
    }
}

/// Three nested sums of 1,000 terms whose body depends on every index ran for minutes
/// (`eval-nested-sums`); 2^40 steps from forty sums of two terms (`…-exponential`); free
/// indices over 2,500 × 2,500 with an inner sum of 2,500 (`eval-einsum-too-much-work`).
#[test]
fn nested_loops_past_the_step_limit_are_refused_before_running() {
    let start = Instant::now();
    let mut session = Session::new(Options { seed: Some(1), ..Options::default() });
    let kind = eval_error(&mut session, r"\sum_{i=1}^{1000}\sum_{j=1}^{1000}\sum_{k=1}^{1000} i j k");
    assert!(
        matches!(kind, EvalErrorKind::TooMuchWork { steps: Some(1_000_000_000), limit: 20_000_000 }),
        "{kind:?}"
    );
    let kind = eval_error(&mut session, &(r"\sum_{i=1}^{2} ".repeat(40) + "i"));
    assert!(matches!(kind, EvalErrorKind::TooMuchWork { .. }), "{kind:?}");
    session.set_dim("n", 2500);
    session.set_dim("d", 2500);
    let kind = eval_error(&mut session, r"Q \in \mathbb{R}^{n \times d}, \quad \sum_{t=1}^{d} Q_{it} Q_{jt}");
    assert!(matches!(kind, EvalErrorKind::TooMuchWork { .. }), "{kind:?}");
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
}

/// The step limit is adjustable, and work within it is done.
#[test]
fn the_step_limit_is_adjustable() {
    let formula = r"\sum_{i=1}^{100}\sum_{j=1}^{100} i j";
    let mut tight = Session::new(Options { max_steps: 1_000, ..Options::default() });
    assert!(matches!(eval_error(&mut tight, formula), EvalErrorKind::TooMuchWork { .. }));
    let mut session = Session::new(Options::default());
    let value = session.evaluate(formula).ok().and_then(|o| o.value);
    assert_eq!(value.map(|v| v.entries()), Some(vec![5050.0 * 5050.0]));
}

/// `--max-depth 200000` let 20,000 nested groups reach pest and the tree builder, which recurse:
/// a stack overflow (`max-depth-beyond-ceiling`). The ceiling applies whatever is asked.
#[test]
fn max_depth_is_capped_at_the_ceiling() {
    let kind = on_small_stack(|| {
        let source = r"\sqrt{".repeat(20_000) + &"}".repeat(20_000);
        let limits = Limits { max_depth: 200_000, max_bytes: 1_000_000, ..Limits::default() };
        parse_with(&source, &limits).err().map(|e| e.kind)
    });
    assert_eq!(kind, Some(ParseErrorKind::TooDeep { limit: Limits::MAX_DEPTH_CEILING }));
}

/// A NUL byte was echoed raw in the message ("unexpected ` `") and in the source line, where
/// a terminal shows nothing (`nul-byte`, `control-characters`).
#[test]
fn invisible_characters_are_named_by_code_point() {
    let source = "a + \0 b";
    let error = eqmap::parse(source).err().unwrap_or_else(|| panic!("accepted"));
    let message = error.message(Lang::En);
    assert!(message.contains("U+0000"), "{message}");
    let rendered = eqmap::report::diagnostic::render_error(source, &error, Lang::En);
    assert!(!rendered.contains('\0'), "{rendered:?}");
    // The caret stays under the character it names.
    let lines: Vec<&str> = rendered.lines().collect();
    let caret_line = lines.iter().find(|l| l.contains('^')).copied().unwrap_or_default();
    let source_line = lines.iter().find(|l| l.contains("1 |")).copied().unwrap_or_default();
    let column = |line: &str, c: char| line.chars().position(|x| x == c);
    assert_eq!(column(caret_line, '^'), column(source_line, '\u{FFFD}'), "{rendered}");
}

/// `1e400` was computed as 1 · e · 400 = 1087.3 without a word (`scientific-notation-formula`).
#[test]
fn scientific_notation_in_a_formula_is_refused_with_the_latex_spelling() {
    let mut session = Session::new(Options::default());
    for (formula, text) in [(r"\eta = 1e400", "1e400"), ("3e-4 x", "3e-4"), ("2.5E+3", "2.5E+3")] {
        match session.evaluate(formula) {
            Err(Failure::Eval(error)) => {
                assert_eq!(*error.kind, EvalErrorKind::ScientificNotation { text: text.to_string() });
                assert!(error.message(Lang::En).contains(r"\times 10^{"), "{}", error.message(Lang::En));
            }
            other => panic!("{formula}: {other:?}"),
        }
    }
    // e as Euler's number is still e: `2e^{x}`, `e^2`, `x e`.
    let _ = session.bind_json("x", "1");
    for formula in ["2e^{x}", "e^2", "x e", "2 e"] {
        assert!(session.evaluate(formula).is_ok(), "{formula}");
    }
}

/// `map` ignored `--max-bytes` and `--max-depth`: the library call now takes the limits.
#[test]
fn map_honours_the_limits() {
    let worker = std::thread::Builder::new().stack_size(16 << 20).spawn(|| {
        let knowledge = eqmap::slotmap::Knowledge::default_knowledge().unwrap_or_else(|e| panic!("{e}"));
        let source = "{".repeat(260) + "x" + &"}".repeat(260);
        assert!(eqmap::slotmap::map_source(&source, &knowledge, Lang::En).is_err());
        let limits = Limits { max_depth: 300, ..Limits::default() };
        let map = eqmap::slotmap::map_source_with(&source, &knowledge, Lang::En, &limits);
        assert!(map.is_ok(), "{:?}", map.err().map(|e| e.message(Lang::En)));
    });
    assert!(worker.map(std::thread::JoinHandle::join).is_ok_and(|r| r.is_ok()));
}

/// The roundtrip fuzz target's first find (artifact `W⁻`, 4 bytes): a lone operator in a
/// script, as in `\mathbb{R}^{+}` or the left limit `x^{-}`, is a chain of two empty operands;
/// the printer wrote it `W^{ - {}}`, which parses as a sign applied to an empty group — a
/// different tree, so `parse(print(t)) == t` failed.
#[test]
fn a_lone_operator_in_a_script_prints_back_to_itself() {
    for source in ["W⁻", "W^{-}", r"\mathbb{R}^{+}", "x_{-}", "{-}", "a^{+} + b", "x₋"] {
        let tree = eqmap::parse(source).map(|p| p.root).unwrap_or_else(|e| panic!("{source}: {e:?}"));
        let printed = eqmap::syntax::print::to_latex(&tree);
        let again = eqmap::parse(&printed).map(|p| p.root).unwrap_or_else(|e| panic!("{printed}: {e:?}"));
        assert_eq!(again, tree, "{source} printed as {printed}");
    }
}

/// Parses `source`, prints the tree, and checks that the printed form parses to the same tree.
fn assert_prints_back_to_itself(source: &str) {
    let tree = eqmap::parse(source).map(|p| p.root).unwrap_or_else(|e| panic!("{source}: {e:?}"));
    let printed = eqmap::syntax::print::to_latex(&tree);
    let again = eqmap::parse(&printed).map(|p| p.root).unwrap_or_else(|e| panic!("{printed}: {e:?}"));
    assert_eq!(again, tree, "{source} printed as {printed}");
}

/// The roundtrip fuzz target, on the fixed printer (artifact `\lVert q \QK^\toprVert`,
/// minimised to `\lVert`): a bracket group opened by `\lvert` or `\lVert` without a bar to
/// close it, or closed by `\rvert` after another bracket, was printed with a bare bar (`\|`,
/// `|x)`, `(x|`), which parses as a relation — a different tree.
#[test]
fn a_bar_command_that_opens_or_closes_a_bracket_group_prints_back_to_itself() {
    for source in [r"\lVert", r"\lvert x", r"\lvert x )", r"( x \rvert", r"[x \rVert", r"\lVert x ]"] {
        assert_prints_back_to_itself(source);
    }
    // A bar at both ends stays a bar group.
    for source in [r"\lVert x \rVert", r"\lvert x \rVert", r"\lvert a | b \rvert", "|x|", r"\|x\|"] {
        assert_prints_back_to_itself(source);
    }
}

/// The roundtrip fuzz target (session 6, artifact `…QK^\sf\f…`): a font switch standing
/// alone where an argument or a script goes (`K^\sf`, kept as an unknown command with a
/// warning) was printed in braces, `K^{\sf}`, which switches the font of an empty group: an
/// empty script, a different tree.
#[test]
fn a_stray_font_switch_as_an_argument_prints_back_to_itself() {
    for source in [r"K^\sf", r"x_\Bbb", r"\frac\bf x", r"\sqrt\rm", r"a^\cal b", r"{\bf}"] {
        assert_prints_back_to_itself(source);
    }
}

/// The roundtrip fuzz target (session 6, `t|_c\A\operatorname*ef\mB` and three more):
/// `\operatorname` on one letter made a roman style (printed `\mathrm{e}`, which reads back
/// as a roman symbol) where two letters make an operator name. One letter is a name too:
/// `\operatorname{E}[X]` is the expectation operator.
#[test]
fn an_operator_name_of_one_letter_prints_back_to_itself() {
    for source in [r"\operatorname*ef", r"\operatorname{E}[X]", r"\operatorname{e}", r"\operatorname*{W}\mu"]
    {
        assert_prints_back_to_itself(source);
    }
    let tree = eqmap::parse(r"\operatorname{E}").map(|p| p.root).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(matches!(&tree.kind, eqmap::syntax::ast::NodeKind::Word { text, .. } if text == "E"), "{tree:?}");
}

/// The roundtrip fuzz target (artifact `\underbrace{A}_{n \times n} … \underbrace{\pm_sn
/// \times d_v}`, minimised to `{\pm_v}`): an empty first operand before an operator that is
/// also a sign, as in `{} - x` or `-_v`, was printed bare (` - x`, ` \pm {}_{v}`), and the
/// sign then parses as a prefix on what follows — a different tree.
#[test]
fn an_empty_operand_before_a_sign_prints_back_to_itself() {
    for source in [r"{\pm_v}", "{}-x", "{} + x", "-_v", r"-_a - x", r"\mp_v", "a = {} - b"] {
        assert_prints_back_to_itself(source);
    }
}

/// The roundtrip fuzz target's largest open family (FUZZING.md): `x^*` parsed to a symbol and
/// `x^{*}` to a chain of two empty operands around `*`, so the printer's braces changed the
/// tree. In TeX both are the same script, and now so they are here: a script that is one
/// operator alone is that operator as a symbol.
#[test]
fn a_braced_lone_operator_script_is_the_same_as_a_bare_one() {
    let pairs = [
        (r"\theta^{*}", r"\theta^*"),
        (r"\mathbb{R}^{+}", r"\mathbb{R}^+"),
        ("x^{-}", "x^-"),
        (r"x^{\pm}", r"x^\pm"),
        ("x_{=}", "x_="),
        ("W⁻", "W^-"),
    ];
    for (braced, bare) in pairs {
        let a = eqmap::parse(braced).map(|p| p.root).unwrap_or_else(|e| panic!("{braced}: {e:?}"));
        let b = eqmap::parse(bare).map(|p| p.root).unwrap_or_else(|e| panic!("{bare}: {e:?}"));
        assert_eq!(a, b, "{braced} and {bare}");
        assert_prints_back_to_itself(braced);
    }
}

/// Two more of the roundtrip target's open families (FUZZING.md): several trailing `\\` made
/// one empty row that printed back as a `\\` the parser then dropped; and an empty operand
/// before juxtaposition (`{}x`) printed bare, so it vanished.
#[test]
fn trailing_row_breaks_and_empty_groups_print_back_to_themselves() {
    for source in
        [r"a \\ \\", r"a \\ \\ \\", r"\begin{aligned} a \\ \\ \end{aligned}", "{}x", "a {} b", "{}_a b"]
    {
        assert_prints_back_to_itself(source);
    }
}

/// From the roundtrip target: `x_‖` parsed (an unknown symbol as script) but printed as
/// `x_{‖}`, which does not parse. A bar or a root sign cannot be a script on its own, braced
/// or not, as `x_|` cannot.
#[test]
fn a_bar_or_root_sign_alone_is_no_script() {
    for source in ["x_‖", "x^√", "x_|"] {
        assert!(eqmap::parse(source).is_err(), "{source} should be an error");
    }
    assert_prints_back_to_itself("x_{‖a‖}");
}

/// Delimiter commands (`\{`, `\lfloor`, `\langle`…) open bracket groups, through which the
/// grammar recurses, but the pre-scan did not count them: 300 nested passed where 300 `{` are
/// refused, and a 46 KB line of `\{` overflowed the stack (issue 16). Each is one level now,
/// counted as `{` and `\left(` are; closed ones as well as open ones.
#[test]
fn delimiter_commands_count_as_nesting() {
    let limits = Limits::default();
    for open in [
        "\\{",
        "\\lfloor",
        "\\lceil",
        "\\langle",
        "\\lvert",
        "\\lVert",
        "\\Bigl\\{",
        "⟨",
        "(",
        "{",
        "\\left(",
    ] {
        let deep = format!("{}x", open.repeat(300));
        match parse_with(&deep, &limits) {
            Err(error) => assert!(
                matches!(error.kind, ParseErrorKind::TooDeep { limit: 256 }),
                "{open}: {}",
                error.message(Lang::En)
            ),
            Ok(_) => panic!("300 nested {open} parsed"),
        }
    }
    for (open, close) in [("\\{", "\\}"), ("\\lfloor", "\\rfloor"), ("\\langle", "\\rangle"), ("⟨", "⟩")]
    {
        let within = format!("{}x{}", open.repeat(250), close.repeat(250));
        assert!(parse_with(&within, &limits).is_ok(), "250 nested {open} … {close}");
        let closed_in_turn = format!("{open}x{close}").repeat(2_000);
        assert!(parse_with(&closed_in_turn, &limits).is_ok(), "{open} x {close} 2000 times in a row");
    }
    // A delimiter after `\left` or `\right` is that command's, not a level of its own.
    let sized = format!("{}x{}", "\\left\\langle ".repeat(200), "\\right\\rangle ".repeat(200));
    assert!(parse_with(&sized, &limits).is_ok());
    let text = "\\{".repeat(23_000);
    let outcome = on_small_stack(move || parse_with(&text, &Limits::default()).map(|_| ()));
    assert!(matches!(outcome, Err(error) if matches!(error.kind, ParseErrorKind::TooDeep { .. })));
}

/// `/` repeated 100,000 times is one flat row (found by the repeated-token family once the
/// work threads' stacks were sized from the default limit, 18 MiB): the reading nests a
/// division in a division per `/`, and the long-reading pass (`speak::shape::clauses`) walked
/// that phrase recursively, 100,000 calls deep, and overflowed the stack in `read` and `map`.
/// It walks without recursion now. The renderers still recurse once per division, up to their
/// guard (`syntax::depth::WALK_GUARD`, about 1.8 MiB in a release build), past the small stack
/// of this file: the test runs on the stack the binary gives a thread at the default limit.
#[test]
fn a_long_row_of_divisions_is_read_without_overflowing_the_stack() {
    let stack = eqmap::syntax::depth::stack_for(eqmap::syntax::depth::DEFAULT_MAX_DEPTH);
    let worker = std::thread::Builder::new().stack_size(stack).spawn(|| {
        let formula = "/".repeat(100_000);
        let parsed = parse_with(&formula, &Limits::default()).ok()?;
        let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
        Some(eqmap::speak::read(&parsed.root, &formula, &table, Lang::En))
    });
    let reading = worker.map(std::thread::JoinHandle::join).ok().and_then(Result::ok).flatten();
    assert!(reading.is_some_and(|r| r.contains("all divided by")));
}
