//! Formulas as people paste them, run through the real binary: a leading minus, math
//! delimiters pasted along, plain text from PDFs, lines on standard input, typos, colour.

use assert_cmd::Command;

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

/// Runs `eqmap args` with `stdin`; (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut command = eqmap();
    command.args(args).env_remove("EQMAP_LANG");
    if let Some(text) = stdin {
        command.write_stdin(text);
    }
    let output = command.output().unwrap_or_else(|e| panic!("{e}"));
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Stdout of a run that must succeed.
fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const LOSS: &str = r"-\frac{1}{N}\sum_i \log p_i";

#[test]
fn every_command_takes_a_formula_that_starts_with_a_minus_flags_after_it() {
    let map = json(&ok(&["map", LOSS, "--lang", "en", "--format", "json"], None));
    assert_eq!(map["formula"], LOSS);
    assert!(map["reading"].as_str().unwrap_or("").starts_with("minus"), "{map}");
    let latex = ok(&["parse", LOSS, "--format", "latex"], None);
    assert!(latex.starts_with("-\\frac{1}{N}"), "{latex}");
    assert_eq!(ok(&["read", r"-\infty", "--lang", "en"], None), "minus infinity\n");
    let value = json(&ok(&["eval", "-1-2", "--format", "json"], None));
    assert_eq!(value["value"], -3.0);
    let compared = json(&ok(&["compare", LOSS, "-x", "--format", "json", "--lang", "en"], None));
    assert!(compared.get("shared_articles").is_some(), "{compared}");
}

#[test]
fn flags_may_come_before_the_formula_too() {
    let value = json(&ok(&["eval", "--format", "json", "-2"], None));
    assert_eq!(value["value"], -2.0);
    assert_eq!(ok(&["read", "--lang", "en", "-1"], None), "minus 1\n");
}

#[test]
fn a_double_dash_still_works_with_flags_after_the_formula() {
    let value = json(&ok(&["eval", "--", "-2", "--format", "json"], None));
    assert_eq!(value["value"], -2.0);
    let map = json(&ok(&["map", "--", LOSS, "--format", "json"], None));
    assert_eq!(map["formula"], LOSS);
    let compared = json(&ok(&["compare", "--", "-x", "-y", "--format", "json"], None));
    assert!(compared.get("only_first").is_some(), "{compared}");
}

#[test]
fn each_wrapper_is_taken_off_with_a_note_and_slots_point_into_the_input() {
    for input in [
        r"$\mathrm{softmax}(QK^\top/\sqrt{d_k})V$",
        r"$$\mathrm{softmax}(QK^\top/\sqrt{d_k})V$$",
        r"\(\mathrm{softmax}(QK^\top/\sqrt{d_k})V\)",
        r"\[\mathrm{softmax}(QK^\top/\sqrt{d_k})V\]",
        r"\begin{equation}\mathrm{softmax}(QK^\top/\sqrt{d_k})V\label{eq:att}\end{equation}",
        r"\begin{equation*} \mathrm{softmax}(QK^\top/\sqrt{d_k})V \end{equation*}",
    ] {
        let map = json(&ok(&["map", input, "--lang", "en", "--format", "json"], None));
        assert_eq!(map["formula"], input);
        assert_eq!(map["warnings"][0]["warning"], "wrapper", "{input}: {map}");
        let slots = map["slots"].as_array().cloned().unwrap_or_default();
        let softmax = slots.iter().find(|s| s["latex"] == r"\mathrm{softmax}");
        let span = softmax.map(|s| (s["span"][0].as_u64().unwrap_or(0), s["span"][1].as_u64().unwrap_or(0)));
        let (start, end) = span.unwrap_or_else(|| panic!("{input}: no softmax slot in {map}"));
        assert_eq!(input.get(start as usize..end as usize), Some(r"\mathrm{softmax}"), "{input}");
    }
}

#[test]
fn align_is_read_as_rows_and_a_wrapped_error_points_into_the_input() {
    let latex = ok(&["parse", r"\begin{align*} a &= b \\ c &= d \end{align*}", "--format", "latex"], None);
    assert!(latex.contains(r"\begin{aligned}"), "{latex}");
    let (code, _, err) = run(&["parse", "--lang", "en", r"$\frac{a}$"], None);
    assert_eq!(code, 1);
    assert!(err.contains("the second argument is missing"), "{err}");
    assert!(err.contains("  1 | $\\frac{a}$\n    |          ^"), "{err}");
}

#[test]
fn wrappers_come_off_in_batch_line_files() {
    let out = ok(&["batch", "-"], Some("$x^2$\n\\[a+b\\]\n"));
    let records: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(records.len(), 2, "{out}");
    assert_eq!(records[0]["latex"], "x^2");
    assert_eq!(records[1]["latex"], "a+b");
    assert!(records.iter().all(|r| r["ok"] == true), "{out}");
}

#[test]
fn an_empty_formula_is_an_error() {
    for args in [&["map", ""][..], &["parse", "$$"], &["read", "  "], &["eval", r"\[ \]"]] {
        let (code, out, err) = run(&[args, &["--lang", "en"]].concat(), None);
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains("the formula is empty"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let (code, _, err) = run(&["read", "--lang", "en"], Some(""));
    assert_eq!(code, 1);
    assert!(err.contains("the formula is empty"), "{err}");
}

#[test]
fn an_unclosed_parenthesis_is_a_warning_with_a_caret() {
    let (code, out, err) = run(&["read", "--lang", "en", r"\mathrm{softmax}(QK^\top/\sqrt{d_k}V"], None);
    assert_eq!(code, 0);
    assert!(!out.is_empty());
    assert!(err.contains("warning: `(` opened here is never closed"), "{err}");
    assert!(err.contains("    |                 ^\n"), "{err}");
    let (_, _, err) = run(&["parse", "--lang", "en", "|x + y"], None);
    assert!(err.contains("`|` has no partner"), "{err}");
    let (_, _, err) = run(&["parse", "--lang", "en", "[0, 1)"], None);
    assert!(err.is_empty(), "an interval is no typo: {err}");
}

#[test]
fn standard_input_is_one_formula_a_line_or_whole() {
    assert_eq!(ok(&["read", "--lang", "en"], Some("a+b\nc+d\n")), "a plus b\nc plus d\n");
    assert_eq!(ok(&["read", "--lang", "en", "--whole"], Some("a+b\nc+d\n")).lines().count(), 1);
    let latex = ok(&["parse", "--format", "latex", "-"], Some("\u{FEFF}x^2\n\n% a comment\ny_1\n"));
    assert_eq!(latex, "x^{2}\ny_{1}\n");
}

#[test]
fn eval_goes_on_after_a_bad_line_numbered_by_its_line_with_a_json_record() {
    let (code, out, err) =
        run(&["eval", "--lang", "en", "--format", "json"], Some("1+1\n\n\\frac{a}\n2*3\n"));
    assert_eq!(code, 1);
    let records: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(records.len(), 3, "{out}");
    assert_eq!(records[0]["value"], 2.0);
    assert_eq!(records[1]["line"], 3);
    assert_eq!(records[1]["error"], "missing_argument");
    assert_eq!(records[2]["value"], 6.0);
    assert!(err.contains("  3 | \\frac{a}"), "{err}");
}

#[test]
fn plain_text_from_a_pdf_reads_as_its_latex() {
    let read = |formula: &str| ok(&["read", "--lang", "en", formula], None);
    assert_eq!(read("softmax(QKᵀ/√dₖ)V"), read(r"\mathrm{softmax}(QK^\top/\sqrt{d_k})V"));
    assert_eq!(read("ReLU(x) = max(0, x)"), read(r"\mathrm{ReLU}(x) = \max(0, x)"));
    assert_eq!(read("p(x|y)"), "p of x given y\n");
    assert_eq!(read("x̂ + x̄"), read(r"\hat{x} + \bar{x}"));
    assert_eq!(read("xᵢ − 1"), read("x_i - 1"));
    // Names of losses and divergences before a parenthesis, read as the words they stand for.
    assert_eq!(read("MSE(y, z)"), "mean squared error of y and z\n");
    assert_eq!(read("JSD(P ∥ Q)"), read(r"\mathrm{JSD}(P \| Q)"));
    // The double vertical line of a web page: a divergence's bar between two things, a norm around one.
    assert_eq!(read("KL(P ‖ Q)"), read(r"\mathrm{KL}(P \| Q)"));
    assert_eq!(read("‖x − y‖"), read(r"\|x - y\|"));
    let map = json(&ok(&["map", "softmax(QKᵀ/√dₖ)V", "--format", "json"], None));
    let softmax = map["slots"]
        .as_array()
        .and_then(|slots| slots.iter().find(|s| s["latex"] == r"\mathrm{softmax}").cloned());
    assert_eq!(softmax.map(|s| s["span"].clone()), Some(serde_json::json!([0, 7])));
}

/// The concepts of the map of `formula`.
fn concepts(formula: &str) -> std::collections::BTreeSet<String> {
    let map = json(&ok(&["map", "--lang", "en", "--format", "json", formula], None));
    let slots = map["slots"].as_array().cloned().unwrap_or_default();
    slots
        .iter()
        .flat_map(|s| s["concepts"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect()
}

/// Texts exactly as `pdftotext` gives them for displays that pdflatex typeset
/// (`scripts/pdf-paste-corpus.sh`), line breaks kept, and the LaTeX each was typeset from.
const FROM_PDFS: &[(&str, &str)] = &[
    // A display sum: cmex10's sign as the letter X, its limits on the lines around it.
    ("X=\n\nn\nX\ni=1\n\nXi .", r"X = \sum_{i=1}^n X_i."),
    (
        "H(X, Y ) = −\n\nXX\nx\n\ny\n\npX,Y (x, y) log pX,Y (x, y).",
        r"H(X, Y) = - \sum_{x} \sum_{y} p_{X, Y}(x, y) \log p_{X, Y}(x, y).",
    ),
    // An integral (Z) set above the line it stands in, its lower limit below the integrand.
    ("Z x\nF (x) =\n\nf (y)dy.\n0", r"F(x) = \int_0^x f(y) dy."),
    (
        "Z ∞Z ∞\n−∞\n\n−∞\n\n2\n\n2\n\ne−x −y dx dy.",
        r"\int_{-\infty}^{\infty} \int_{-\infty}^{\infty} e^{-x^{2}-y^{2}} \;dx\;dy.",
    ),
    // Fractions on lines of their own; a fraction set before a sum (1X over n i=1).
    ("dF\n(x) = f (x).\ndx", r"\frac{dF}{dx}(x) = f(x)."),
    (
        "n\n\nF̂ (e, Z) =\n\n1X\n1(ei ≤ e).\nn i=1",
        r"\hat{F}(e, \mathcal{Z}) = \frac{1}{n}\sum_{i=1}^n \mathbf{1}(e_i \leq e).",
    ),
    (
        "J\n\nk(x, x′ ) =\n\nσ2 X\nϕi (x)ϕi (x′ ).\nJ i=1",
        r"k(x,x') = \frac{\sigma^2}{J} \sum_{i=1}^{J} \phi_i(x)\phi_i(x').",
    ),
    // The limit of lim on a line of its own.
    ("lim f (x) = 1\n\nx→0", r"\lim_{x \to 0} f(x) = 1"),
    // Within a line: subscripts set after their letter, exponents, the negation slash, ⊤.
    ("H(X) = −\n\nX\ni\n\npi log pi", r"H(X) = - \sum_i p_i \log p_i"),
    ("DKL (P ∥Q) ̸= DKL (Q∥P ).", r"D_{\textrm{KL}}(P\|Q) \neq D_{\textrm{KL}}(Q\|P)."),
    ("2\nσX\n= Var(X) = E[X 2 ] − µ2X", r"\sigma_X^2 = \textrm{Var}(X) = E[X^2] - \mu_X^2"),
    ("X ∼ Bernoulli(p).", r"X \sim \textrm{Bernoulli}(p)."),
    ("u⊤ v", r"\mathbf{u}^\top\mathbf{v}"),
];

#[test]
fn text_as_pdftotext_gives_it_maps_to_the_concepts_of_its_latex() {
    for (pasted, latex) in FROM_PDFS {
        assert_eq!(concepts(pasted), concepts(latex), "{pasted:?} against {latex}");
    }
}

/// The Poisson probability as pdftotext gives it: the fraction and the exponent come back, but
/// `λk` cannot say whether k was a power or an index (it is read as an index, with a warning),
/// so the map keeps the exponential and loses the Poisson form the LaTeX shows.
#[test]
fn a_power_set_after_its_letter_reads_as_an_index_and_loses_only_that() {
    let pasted = concepts("pk =\n\nλk e−λ\n.\nk!");
    let latex = concepts(r"p_k = \frac{\lambda^ke^{-\lambda}}{k!}.");
    assert!(pasted.contains("calc.exp-log"), "{pasted:?}");
    assert!(pasted.is_subset(&latex), "{pasted:?} against {latex:?}");
    assert!(latex.contains("prob.distribution") && !pasted.contains("prob.distribution"));
}

#[test]
fn every_reading_of_a_pdf_layout_is_a_warning() {
    let (code, _, err) = run(&["read", "--lang", "en", "X=\n\nn\nX\ni=1\n\nXi ."], None);
    assert_eq!(code, 0);
    assert!(err.contains("`X` read as `\\sum`"), "{err}");
    assert!(err.contains("`Xi` read as `X_{i}`"), "{err}");
    let (_, _, err) = run(&["read", "--lang", "en", "dF\n(x) = f (x).\ndx"], None);
    assert!(err.contains("read as the fraction `\\frac{dF}{dx}`") && err.contains("is a guess"), "{err}");
    let (_, _, err) = run(&["read", "--lang", "en", "lim f (x)\n\nx→0"], None);
    assert!(err.contains("`x→0` on a line of its own read as the limit"), "{err}");
    let (_, _, err) = run(&["read", "X=\n\nn\nX\ni=1\n\nXi ."], None);
    assert!(err.contains("`X` 표기를 `\\sum` 기호로 읽습니다"), "{err}");
}

#[test]
fn latex_and_one_line_texts_keep_their_letters() {
    // LaTeX is read as written: `xi` in LaTeX is x times i.
    let (_, out, err) = run(&["parse", "--lang", "en", "--format", "latex", r"\alpha xi + X"], None);
    assert!(!err.contains("read as"), "{err}");
    assert!(!out.contains("x_{i}"), "{out}");
    // A line with no layout in it: `X` stays a letter.
    let (_, out, err) = run(&["parse", "--lang", "en", "--format", "latex", "X = Y + Z"], None);
    assert!(!out.contains("\\sum") && !out.contains("\\int") && !err.contains("read as"), "{out} {err}");
}

#[test]
fn an_ambiguous_word_is_a_warning_not_a_guess() {
    let (code, _, err) = run(&["parse", "--lang", "en", "--format", "latex", "tr A"], None);
    assert_eq!(code, 0);
    assert!(err.contains("`tr` may be the name"), "{err}");
    assert_eq!(ok(&["parse", "--format", "latex", "tr(A)"], None), "\\mathrm{tr} (A)\n");
}

#[test]
fn a_camel_case_word_before_its_parenthesis_is_a_name_with_a_note() {
    // LaTeX around it: the plain-text passes do not run, this one does.
    let (code, out, err) =
        run(&["parse", "--lang", "en", "--format", "latex", r"\alpha FiLM(x) + KeepTopK(v, k)"], None);
    assert_eq!(code, 0);
    assert!(out.contains(r"\mathrm{FiLM} (x)") && out.contains(r"\mathrm{KeepTopK} (v, k)"), "{out}");
    assert!(err.contains("`FiLM` before a parenthesis read as the name"), "{err}");
    // A known name with a capital first letter is that name, quietly.
    let (_, out, err) = run(&["parse", "--lang", "en", "--format", "latex", r"\beta Softplus(x)"], None);
    assert!(out.contains(r"\mathrm{softplus}") && err.is_empty(), "{out} {err}");
    // Without a parenthesis, or in one case only, the letters stay letters.
    let (_, out, err) =
        run(&["parse", "--lang", "en", "--format", "latex", r"\gamma FiLM x + Wxyz(a) + ABCD(a)"], None);
    assert!(!out.contains("operatorname") && err.is_empty(), "{out} {err}");
}

#[test]
fn messages_fixed_in_both_languages() {
    let (_, _, err) = run(&["parse", "--lang", "en", "x^"], None);
    assert!(err.contains("the formula ends too early"), "{err}");
    let (_, _, err) = run(&["parse", "--lang", "en", "--max-bytes", "0", "x"], None);
    assert!(err.contains("formula too long: 1 byte (limit 0"), "{err}");
    let (_, _, err) = run(&["parse", "\\sqrt[3"], None);
    assert!(err.contains("`[` 표기를 닫지 않았습니다"), "{err}");
    let (_, _, err) = run(&["eval", "--let", "A=foo", "A"], None);
    assert!(err.contains("`foo`") && !err.contains("expected ident"), "{err}");
}

/// Runs `eqmap args` on a pseudo-terminal (util-linux `script`); its output, or `None` where
/// `script` is missing.
fn on_a_terminal(args: &str, no_color: bool) -> Option<String> {
    let binary = assert_cmd::cargo::cargo_bin("eqmap");
    let command = format!("{} {args}", binary.display());
    let mut script = std::process::Command::new("script");
    script.args(["-qec", &command, "/dev/null"]).stdin(std::process::Stdio::null());
    if no_color {
        script.env("NO_COLOR", "1");
    } else {
        script.env_remove("NO_COLOR");
    }
    let output = script.output().ok()?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn colour_only_on_a_terminal_never_with_no_color_never_in_pipes() {
    let (_, out, err) = run(&["parse", "--lang", "en", r"\frac{a}"], None);
    assert!(!err.contains('\u{1b}') && !out.contains('\u{1b}'), "no colour in a pipe: {err:?}");
    let json = ok(&["map", "--format", "json", "x"], None);
    assert!(!json.contains('\u{1b}'));
    if let Some(shown) = on_a_terminal(r"parse --lang en '\frac{a}'", false) {
        assert!(shown.contains("\u{1b}[1;31merror\u{1b}[0m"), "red error on a terminal: {shown:?}");
        let plain = on_a_terminal(r"parse --lang en '\frac{a}'", true).unwrap_or_default();
        assert!(plain.contains("error:") && !plain.contains('\u{1b}'), "NO_COLOR: {plain:?}");
    }
}

#[test]
fn a_bad_seed_is_bad_input_like_a_bad_dim() {
    let (seed, _, err) = run(&["eval", "--seed", "x", "--lang", "en", "1"], None);
    let (dim, _, _) = run(&["eval", "--dim", "n=x", "--lang", "en", "1"], None);
    assert_eq!((seed, dim), (1, 1), "{err}");
    assert!(err.contains("a seed is a whole number"), "{err}");
}

#[test]
fn the_korean_eval_table_is_in_korean() {
    let out = ok(&["eval", "1+2"], None);
    assert!(out.starts_with("모양: 스칼라\n"), "{out}");
    let (_, _, err) = run(&["eval", "--dim", "n=0", "1"], None);
    assert!(err.starts_with("오류:"), "{err}");
}

#[test]
fn two_ascii_bars_are_a_norm_and_a_divergences_separator() {
    let concepts = |formula: &str| {
        let map = json(&ok(&["map", "--format", "json", "--lang", "en", "--", formula], None));
        map["slots"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["concepts"].as_array().cloned().unwrap_or_default())
            .filter_map(|c| c.as_str().map(str::to_string))
            .collect::<Vec<_>>()
    };
    let norm = concepts("k(x, y) = \\exp(-||x - y||^2 / 2)");
    assert!(norm.iter().any(|c| c == "linalg.norm"), "{norm:?}");
    assert!(!norm.iter().any(|c| c == "notation.absolute-value"), "{norm:?}");
    let kl = concepts("D_{KL}(P || Q)");
    assert!(kl.iter().any(|c| c == "info.kl-divergence"), "{kl:?}");
    // Two single bars side by side stay two absolute values.
    let abs = concepts("|a||b|");
    assert_eq!(abs.iter().filter(|c| *c == "notation.absolute-value").count(), 2, "{abs:?}");
}
