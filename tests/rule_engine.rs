//! The rule engine's matching, on rules written for the test: what a metavariable stands for,
//! metavariables that must be one symbol or a number, conditions a pattern does not name, and one question
//! asked once; `earlier`, `within`, `without` and `distinct`; runs a sign takes whole; chains after operators with limits.

use eqmap::annotate::{fired_rules, rules::load_rules, RuleSet};
use eqmap::meaning::SymbolTable;

/// A running mean with constant weights: a rule two tests share.
const CONSTANT_WEIGHTS: &str = r#"[[rule]]
id = "constant-weights"
patterns = ['$N = $A $P + $B $G']
numbers = ["A", "B"]
earlier = { P = "N" }
concepts = ["opt.moving-average"]
examples = ['v_t = 0.9 v_{t-1} + 0.1 g_t']
"#;

fn rule_set(toml: &str) -> RuleSet {
    RuleSet::new(load_rules(toml).unwrap_or_else(|e| panic!("{e}")))
}

fn fires(source: &str, rules: &RuleSet) -> bool {
    let parsed = eqmap::parse(source).unwrap_or_else(|e| panic!("{source}: {e:?}"));
    !fired_rules(&parsed.root, source, &SymbolTable::from_formula(&parsed.root), rules).is_empty()
}

#[test]
fn a_metavariable_required_to_be_one_symbol_refuses_a_product() {
    let rules = rule_set(
        r#"[[rule]]
id = "bias"
patterns = ['$W $X + $B']
where = { W = "matrix", X = "vector", B = "vector" }
symbols = ["B"]
concepts = ["nn.affine"]
examples = ['W x + b']
"#,
    );
    assert!(fires(r"\mathbf{W}\mathbf{x} + \mathbf{c}", &rules));
    assert!(!fires(r"\mathbf{W}\mathbf{x} + \mathbf{U}\mathbf{h}", &rules));
}

#[test]
fn a_metavariable_required_to_be_a_number_refuses_a_letter() {
    let rules = rule_set(CONSTANT_WEIGHTS);
    assert!(fires(r"v_t = 0.9 v_{t-1} + 0.1 g_t^2", &rules));
    assert!(!fires(r"h_t = W h_{t-1} + U x_t", &rules));
    assert!(!fires(r"v_t = \beta v_{t-1} + 0.1 g_t", &rules));
}

#[test]
fn a_condition_on_a_metavariable_the_pattern_does_not_name_holds() {
    let rules = rule_set(
        r#"[[rule]]
id = "conditional"
patterns = ['$P($A \mid $B)', '\mathbb{E}[$A \mid $B]']
where = { P = "distribution" }
concepts = ["prob.conditional"]
examples = ['p(x \mid y)']
"#,
    );
    assert!(fires(r"\mathbb{E}[X \mid Y]", &rules));
}

#[test]
fn the_kind_asked_of_a_trailing_metavariable_is_the_kind_of_what_it_stands_for() {
    let rules = rule_set(
        r#"[[rule]]
id = "jacobian"
patterns = ['\frac{\partial $Y}{\partial $X}']
where = { Y = "vector", X = "vector" }
concepts = ["calc.jacobian"]
examples = ['\frac{\partial \mathbf{y}}{\partial \mathbf{x}}']
"#,
    );
    assert!(fires(r"\frac{\partial \mathbf{y}}{\partial \mathbf{x}}", &rules));
    // ∂ of xᵀa, a number: a gradient, not a Jacobian (the ∂ covers the whole numerator).
    assert!(!fires(r"\frac{\partial \mathbf{x}^\top \mathbf{a}}{\partial \mathbf{x}}", &rules));
}

#[test]
fn a_concept_is_asked_once_at_the_narrowest_slot() {
    let map = eqmap::slotmap::map_pasted(
        r"\theta_{t+1} = \theta_t - \eta \nabla_\theta \mathcal{L}(\theta_t)",
        &eqmap::slotmap::Knowledge::default_knowledge().unwrap_or_else(|e| panic!("{e}")),
        eqmap::Lang::En,
        &eqmap::Limits::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let rows =
        map.slots.iter().filter(|s| s.explanation.concepts.iter().any(|c| c == "opt.gradient-descent"));
    assert_eq!(rows.count(), 1);
}

#[test]
fn a_name_written_in_lower_case_matches_it_in_any_case_and_one_with_capitals_only_itself() {
    let rules = rule_set(
        r#"[[rule]]
id = "softmax"
patterns = ['\mathrm{softmax}']
concepts = ["calc.exp-log"]

[[rule]]
id = "exponential-distribution"
patterns = ['\mathrm{Exp}']
concepts = ["prob.distribution"]
"#,
    );
    for written in [r"\mathrm{Softmax}(z)", r"\operatorname{SOFTMAX}(z)", r"\text{softmax}(z)"] {
        assert!(fires(written, &rules), "{written}");
    }
    assert!(!fires(r"\mathrm{softmin}(z)", &rules));
    assert!(fires(r"x \sim \mathrm{Exp}(\lambda)", &rules));
    assert!(!fires(r"\exp(x)", &rules), "the exponential function is not the distribution");
    let short =
        rule_set("[[rule]]\nid = \"ln\"\npatterns = ['\\mathrm{LN}']\nconcepts = [\"nn.normalization\"]\n");
    assert!(fires(r"\mathrm{LN}(x)", &short));
    assert!(!fires(r"\ln x", &short), "a name of two letters keeps its case");
}

#[test]
fn dots_along_a_line_are_one_in_patterns_and_vertical_dots_are_not() {
    let rules = rule_set(
        r#"[[rule]]
id = "list"
patterns = ['$X_1, \dots, $X_{$N}']
concepts = ["notation.index-sum"]
"#,
    );
    for written in [r"x_1, \dots, x_n", r"x_1, \ldots, x_n", "x_1, …, x_n"] {
        assert!(fires(written, &rules), "{written}");
    }
    assert!(!fires(r"x_1, \vdots, x_n", &rules));
}

#[test]
fn earlier_asks_for_the_same_letter_one_step_before_however_the_step_is_written() {
    let rules = rule_set(
        r#"[[rule]]
id = "update"
patterns = ['$N = $P - $E']
earlier = { P = "N" }
concepts = ["opt.gradient-descent"]
examples = ['w_{t+1} = w_t - g_t']
"#,
    );
    for formula in [
        r"w_{t+1} = w_t - \eta g_t",
        r"w_t = w_{t-1} - \eta g_t",
        r"x^{(k+1)} = x^{(k)} - \alpha d^{(k)}",
        r"x^{k+1} = x^k - \alpha d^k",
        r"\mathbf{w}(t) = \mathbf{w}(t-1) - \eta \mathbf{g}(t)",
    ] {
        assert!(fires(formula, &rules), "{formula}");
    }
    // Another letter, the same step, or two steps apart: no update of this value.
    for formula in [r"w_{t+1} = v_t - \eta g_t", r"w_t = w_t - \eta g_t", r"w_t = w_{t-2} - \eta g_t"] {
        assert!(!fires(formula, &rules), "{formula}");
    }
}

#[test]
fn within_and_without_ask_what_a_metavariable_holds() {
    let rules = rule_set(
        r#"[[rule]]
id = "expected-squared-error"
patterns = ['\mathbb{E}[$S^2]']
within = { S = ['$A - $B'] }
without = { S = ['\mu', '\mathbb{E}'] }
concepts = ["opt.squared-error"]
examples = ['\mathbb{E}[(y - f(x))^2]']
"#,
    );
    assert!(fires(r"\mathbb{E}[(y - f(x))^2]", &rules));
    assert!(fires(r"\mathbb{E}[(r + \gamma v - q)^2]", &rules));
    assert!(!fires(r"\mathbb{E}[(X - \mu)^2]", &rules));
    assert!(!fires(r"\mathbb{E}[(X - \mathbb{E}[X])^2]", &rules));
    assert!(!fires(r"\mathbb{E}[X^2]", &rules));
}

#[test]
fn a_chain_pattern_matches_after_a_prefix_of_operators_with_limits() {
    // `\max_w`, `\arg\max_\theta`, `\min_G \max_D` scope over what follows them: a pattern for
    // what follows finds it (issue 15: the Wasserstein critic's objective, a MAP estimate).
    let rules = rule_set(
        r#"[[rule]]
id = "gap"
patterns = ['\mathbb{E}[$F($X)] - \mathbb{E}[$F($Y)]', '\log $P + \log $Q']
concepts = ["prob.expectation"]
examples = ['\mathbb{E}[f(x)] - \mathbb{E}[f(y)]']
"#,
    );
    assert!(fires(r"\max_{w} \mathbb{E}[f_w(x)] - \mathbb{E}[f_w(g(z))]", &rules));
    assert!(fires(r"\arg\max_\theta \log p(x \mid \theta) + \log p(\theta)", &rules));
    assert!(fires(r"\min_G \max_D \mathbb{E}[D(x)] - \mathbb{E}[D(G(z))]", &rules));
    // Other operands in front are not a scope: a product or a sum stays itself.
    assert!(!fires(r"a \mathbb{E}[f(x)] - \mathbb{E}[f(y)]", &rules));
    assert!(!fires(r"\sum_i \mathbb{E}[f(x)] - \mathbb{E}[f(y)]", &rules));
}

#[test]
fn a_pattern_matches_the_spellings_papers_vary() {
    // One update written with any sign that sets a value; one expectation with any E.
    let rules = rule_set(
        &(CONSTANT_WEIGHTS.to_string()
            + r#"
[[rule]]
id = "expected-log"
patterns = ['\mathbb{E}[\log $P]']
concepts = ["prob.expectation"]
examples = ['\mathbb{E}[\log p(x)]']
"#),
    );
    for update in [
        r"v_t \leftarrow 0.9 v_{t-1} + 0.1 g_t",
        r"v_t := 0.9 v_{t-1} + 0.1 g_t",
        r"v_t \doteq 0.9 v_{t-1} + 0.1 g_t",
    ] {
        assert!(fires(update, &rules), "{update}");
    }
    assert!(fires(r"\mathrm{E}_{q}[\log p(x \mid z)]", &rules));
    assert!(fires(r"E_{z \sim q}[\log p(x \mid z)]", &rules));
    assert!(!fires(r"v_t < 0.9 v_{t-1} + 0.1 g_t", &rules));
}

#[test]
fn the_spellings_of_a_pattern_change_only_what_papers_vary() {
    use eqmap::annotate::rules::spellings;
    let one = |p: &str| spellings(&[p.to_string()]);
    // The `=` inside a group (a sum's lower limit) stays; a bare E before a parenthesis is not
    // an expectation.
    assert_eq!(one(r"\sum_{$I = 1}^{$N} $X").len(), 1);
    assert!(!one(r"\mathbb{E}($X)").contains(&"E($X)".to_string()));
    assert!(one(r"$N := $A").contains(&r"$N \leftarrow $A".to_string()));
    assert!(one(r"$N \leftarrow $A").contains(&r"$N = $A".to_string()));
}

#[test]
fn the_spellings_vary_greek_shapes_logs_and_exponentials() {
    use eqmap::annotate::rules::spellings;
    let one = |p: &str| spellings(&[p.to_string()]);
    // ε and ϵ, φ and ϕ, log and ln: one meaning, two shapes, each way.
    assert!(one(r"$M + $S \epsilon").contains(&r"$M + $S \varepsilon".to_string()));
    assert!(one(r"\varphi($Q)").contains(&r"\phi($Q)".to_string()));
    assert!(one(r"\log(1 + \exp($X))").contains(&r"\ln(1 + \exp($X))".to_string()));
    // exp of a parenthesis and e to a power, each way; the group found by its closing bracket.
    assert!(one(r"\log(1 + \exp($X))").contains(&r"\log(1 + e^{$X})".to_string()));
    assert!(one(r"\frac{e^{$A (b)}}{\sum $B}").contains(&r"\frac{\exp($A (b))}{\sum $B}".to_string()));
    // A script after the group, a letter ending in e, a longer command: left as written.
    assert_eq!(one(r"\exp($X)^{2}").len(), 1);
    assert_eq!(one(r"$Ae^{$X}").len(), 1);
    assert_eq!(one(r"e^{$X}").len(), 1);
    assert_eq!(one(r"\logit($X)").len(), 1);
}

#[test]
fn the_spellings_write_a_differential_upright() {
    use eqmap::annotate::rules::spellings;
    let one = |p: &str| spellings(&[p.to_string()]);
    assert!(one(r"$G \, d\mathbf{w}").contains(&r"$G \, \mathrm{d}\mathbf{w}".to_string()));
    assert!(one(r"\frac{dy}{dx}").contains(&r"\frac{\mathrm{d}y}{\mathrm{d}x}".to_string()));
    // A dimension d, a name with a d in it, d_k: not differentials.
    assert_eq!(one(r"\sqrt{d}").len(), 1);
    assert_eq!(one(r"\mathrm{dim}($X)").len(), 1);
    assert_eq!(one(r"$Q / d_k").len(), 1);
}

#[test]
fn metavariables_required_distinct_refuse_the_same_subtree() {
    let rules = rule_set(
        r#"[[rule]]
id = "cross"
patterns = ['\mathrm{MultiHead}($A, $B, $B)']
distinct = [["A", "B"]]
concepts = ["nn.cross-attention"]
examples = ['\mathrm{MultiHead}(Y, X, X)']
"#,
    );
    assert!(fires(r"Z = \mathrm{MultiHead}(Y, X, X)", &rules));
    assert!(!fires(r"Z = \mathrm{MultiHead}(X, X, X)", &rules));
}

#[test]
fn a_metavariable_at_a_patterns_end_takes_the_whole_run_a_sign_joins() {
    // `Q h_i \cdot K h_j`: the dot product of Qh_i and Kh_j, both vectors, though h_i and K
    // stand side by side with the sign in the syntax's flat row.
    let rules = rule_set(
        r#"[[rule]]
id = "dot"
patterns = ['$A \cdot $B']
where = { A = "vector", B = "vector" }
concepts = ["linalg.dot-product"]
examples = ['q \cdot k']
"#,
    );
    assert!(fires(r"e_{ij} = Q h_i \cdot K h_j", &rules));
    assert!(!fires(r"e = \eta \cdot g", &rules));
}

#[test]
fn an_operator_and_its_operand_are_one_term_for_a_metavariable_a_sign_joins() {
    // `\nabla_{\mathbf{w}} L \cdot \mathbf{v}`: the gradient (a vector) against v, not L.
    let rules = rule_set(
        r#"[[rule]]
id = "dot"
patterns = ['$A \cdot $B']
where = { A = "vector", B = "vector" }
concepts = ["linalg.dot-product"]
examples = ['q \cdot k']
"#,
    );
    assert!(fires(r"\nabla_g L = \frac{\nabla_{\mathbf{w}} L \cdot \mathbf{v}}{\|\mathbf{v}\|}", &rules));
    assert!(!fires(r"\frac{L \cdot \mathbf{v}}{\|\mathbf{v}\|}", &rules));
}

#[test]
fn a_match_asked_to_stand_alone_has_no_matrix_side_by_side() {
    let rules = rule_set(
        r#"[[rule]]
id = "rows"
patterns = ['$A $B^\top']
where = { A = "matrix", B = "matrix" }
alone = true
concepts = ["linalg.dot-product"]
examples = ['QK^\top']
"#,
    );
    assert!(fires(r"\mathrm{softmax}(QK^\top / \sqrt{d})", &rules));
    assert!(fires(r"\frac{1}{\sqrt{d}} Q K^\top", &rules), "a number beside it is no matrix");
    assert!(!fires(r"U S V^\top", &rules));
    assert!(!fires(r"P L P^\top R", &rules));
}

#[test]
fn a_metavariable_asked_not_to_be_a_number_refuses_one_bare_or_in_parentheses() {
    let rules = rule_set(
        r#"[[rule]]
id = "nll"
patterns = ['-\log $P']
not_numbers = ["P"]
concepts = ["info.cross-entropy"]
examples = ['-\log p']
"#,
    );
    assert!(fires(r"-\log p(x)", &rules));
    assert!(!fires(r"-\log(4)", &rules));
    assert!(!fires(r"-\log 2", &rules));
}

#[test]
fn a_bar_in_a_calls_parenthesis_matches_only_where_the_meaning_reads_a_condition() {
    let rules = rule_set(
        r#"[[rule]]
id = "conditional"
patterns = ['$P($A | $B)']
concepts = ["prob.conditional"]
examples = ['p(y | x)']
"#,
    );
    assert!(fires(r"p(y | x)", &rules));
    assert!(fires(r"\pi_\theta(a \mid s)", &rules));
    // A divergence's two distributions, set apart by a single bar.
    assert!(!fires(r"\mathrm{KL}(\pi | \pi^{2n})", &rules));
    assert!(!fires(r"D_{\mathrm{KL}}(P \mid Q)", &rules));
}

#[test]
fn a_pattern_that_begins_with_an_operator_takes_its_whole_operand() {
    let rules = rule_set(
        r#"[[rule]]
id = "self-information"
patterns = ['\log \frac{1}{$P}']
concepts = ["info.self-information"]
examples = ['\log \frac{1}{p}']
"#,
    );
    assert!(fires(r"H = \log \frac{1}{p}", &rules));
    assert!(fires(r"\log \frac{1}{N} + c", &rules));
    // The log of a mean: the log's operand is the fraction and the sum together.
    assert!(!fires(r"\log \frac{1}{N} \sum_{j} e^{s_j}", &rules));
}

#[test]
fn a_power_of_e_matches_only_where_the_meaning_reads_a_power() {
    let rules = rule_set(
        r#"[[rule]]
id = "exponential"
patterns = ['e^{$A}']
concepts = ["calc.exp-log"]
examples = ['e^{-x}']
"#,
    );
    assert!(fires(r"e^{-x}", &rules));
    assert!(fires(r"p = e^{x} + 1", &rules));
    // Euler's number to the minus one is a power, no inverse.
    assert!(fires(r"1 - e^{-1} \approx 0.63", &rules));
    // The error at step k, and a basis vector transposed: letters with scripts, no powers.
    assert!(!fires(r"e^{(k)} = x^{(k)} - x^*", &rules));
    assert!(!fires(r"e_j^T W_j", &rules));
}

#[test]
fn unless_refuses_what_a_metavariable_matched_of_those_kinds() {
    let rules = rule_set(
        r#"[[rule]]
id = "logarithm"
patterns = ['\log $X']
unless = { X = ["dimension", "index"] }
concepts = ["calc.exp-log"]
examples = ['\log x']
"#,
    );
    assert!(fires(r"\log p(x)", &rules));
    assert!(fires(r"\log(1 + x)", &rules));
    // A size, also in parentheses, and a position.
    assert!(!fires(r"b = -\log n", &rules));
    assert!(!fires(r"b = -\log(n)", &rules));
    assert!(!fires(r"\sum_{i=1}^{n} \log i", &rules));
}

#[test]
fn a_metavariable_below_a_big_operator_stands_for_the_variable_it_runs_over() {
    let rules = rule_set(
        r#"[[rule]]
id = "weighted-values"
patterns = ['\sum_{$J} $W_{$J} v_{$J}']
concepts = ["linalg.linear-combination"]
examples = ['\sum_{j} w_j v_j']
"#,
    );
    assert!(fires(r"\sum_{j=1}^{n} a_j v_j", &rules));
    assert!(fires(r"\sum_{k} a_k v_k", &rules));
    // Written with the set it runs over.
    assert!(fires(r"\sum_{j \in \mathcal{N}(i)} a_j v_j", &rules));
    assert!(!fires(r"\sum_{j \in \mathcal{N}(i)} a_j v_i", &rules));
    // The values read at another index than the one summed over: no match.
    assert!(!fires(r"\sum_{j=1}^{n} a_j v_i", &rules));
}

#[test]
fn a_metavariable_on_a_big_operator_takes_its_body_and_within_searches_it() {
    let rules = rule_set(
        r#"[[rule]]
id = "second-loss"
patterns = ['$A - \lambda $B']
within = { A = ['L_{$X}'], B = ['L_{$Y}'] }
concepts = ["opt.auxiliary-loss"]
examples = ['L_y - \lambda L_d']
"#,
    );
    assert!(fires(r"E = \sum_{i} L_y(\theta) - \lambda \sum_{i} L_d(\theta)", &rules));
    // The sum's body holds no loss after the sign: no match.
    assert!(!fires(r"E = \sum_{i} L_y(\theta) - \lambda \sum_{i} r_i", &rules));
    // Before a product sign inside a sum's body, the sum is not taken back with the metavariable.
    let dotted = rule_set(
        r#"[[rule]]
id = "dotted-sum"
patterns = ['$A \cdot $B']
within = { A = ['\sum'] }
concepts = ["linalg.dot-product"]
examples = ['\sum a \cdot b']
"#,
    );
    assert!(!fires(r"\sum_{p} w(p) \cdot x(p)", &dotted));
}

#[test]
fn a_metavariable_ending_on_an_operator_name_takes_its_operand() {
    let rules = rule_set(
        r#"[[rule]]
id = "row-against-a-gradient"
patterns = ['$A^\top $B']
where = { A = "vector", B = "vector" }
concepts = ["linalg.dot-product"]
examples = ['a^\top b']
"#,
    );
    // The gradient of a function of a vector is a vector: the row meets all of it.
    assert!(fires(r"h^\top \nabla_\theta g(\theta, \delta)", &rules));
    // A lone name with no operand after it is no vector.
    assert!(!fires(r"h^\top \nabla", &rules));
}
