//! Readings that must hold whatever the exact wording: the seed's attention line, the
//! cross-entropy loss, names read as words, `\mid` read as "given", and particles.

use eqmap::speak::read_formula;
use eqmap::Lang;

fn ko(source: &str) -> String {
    read_formula(source, Lang::Ko).unwrap_or_else(|e| panic!("{source}: {}", e.message(Lang::En)))
}

fn en(source: &str) -> String {
    read_formula(source, Lang::En).unwrap_or_else(|e| panic!("{source}: {}", e.message(Lang::En)))
}

const ATTENTION: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";
const CROSS_ENTROPY: &str = r"L = -\frac{1}{N}\sum_{i=1}^{N} \log p_\theta(x_i \mid x_{<i})";

#[test]
fn the_attention_line_reads_as_the_seed_reads_it() {
    let reading = ko(ATTENTION);
    assert!(reading.contains("큐, 케이, 브이를 받는 어텐션은"), "{reading}");
    assert!(reading.contains("디케이의 제곱근으로 나눈"), "{reading}");
    assert!(reading.contains("큐와 케이 전치의 곱"), "{reading}");
    assert!(reading.contains("소프트맥스를 씌우고, 거기에 브이를 곱한 것이다."), "{reading}");
}

#[test]
fn the_attention_line_in_english() {
    let reading = en(ATTENTION);
    assert!(reading.starts_with("Attention of Q, K and V is softmax of"), "{reading}");
    assert!(reading.contains("the square root of d k"), "{reading}");
    assert!(reading.contains("K transpose"), "{reading}");
    assert!(reading.ends_with(", times V."), "{reading}");
}

#[test]
fn the_cross_entropy_loss_follows_the_seed_in_our_words() {
    let reading = ko(CROSS_ENTROPY);
    assert!(reading.starts_with("손실 엘은, "), "{reading}");
    for part in
        ["아이가 1부터 엔까지", "로그를 씌운 것을 모두 더하고", "엔으로 나눈 다음, 마이너스를 붙인 것이다."]
    {
        assert!(reading.contains(part), "{part} not in {reading}");
    }
    let reading = en(CROSS_ENTROPY);
    assert!(
        reading.starts_with("The loss L is minus the mean over i from 1 to N of the log of"),
        "{reading}"
    );
    assert!(reading.contains("p theta of x sub i given"), "{reading}");
}

#[test]
fn names_are_words_not_letters() {
    assert_eq!(en(r"\mathrm{softmax}(z)"), "softmax of z");
    assert_eq!(ko(r"\mathrm{softmax}(z)"), "소프트맥스 제트");
    assert_eq!(en(r"\operatorname{softmax}(x)"), "softmax of x");
    let unknown = en(r"\mathrm{logsumexp}(x)");
    assert_eq!(unknown, "logsumexp of x");
    assert!(!en(r"\text{score}(i, j)").contains("s c"), "a word is never spelled out");
    assert_eq!(en(r"\mathrm{FFN}"), "feed-forward network");
    assert_eq!(en(r"\mathrm{GNN}"), "G N N", "an unknown acronym is spelled by its letters");
}

#[test]
fn mid_reads_as_given() {
    assert_eq!(en(r"p(x \mid y)"), "p of x given y");
    assert_eq!(ko(r"p(x \mid y)"), "와이를 조건으로 한 엑스의 확률 피");
    assert!(!en(r"p(x \mid y)").contains("divides"));
}

#[test]
fn korean_particles_follow_the_sound_of_the_names() {
    // 엘 ends in ㄹ: 엘은, 엘로; 엔 in ㄴ: 엔으로; 큐 in a vowel: 큐는.
    assert_eq!(ko("L = 1"), "손실 엘은 1이다.");
    assert_eq!(ko("x / l"), "엑스를 엘로 나눈 것");
    assert_eq!(ko("x / n"), "엑스를 엔으로 나눈 것");
    assert_eq!(ko("Q = K"), "큐는 케이이다.");
    assert_eq!(ko("M = 0"), "엠은 0이다.");
    assert_eq!(ko(r"R \in \mathbb{R}"), "알은 실수 전체에 속한다.");
}

#[test]
fn structures_read_as_a_teacher_reads_them() {
    let cases = [
        (r"\frac{a}{b}", "에이를 비로 나눈 것", "a divided by b"),
        (
            r"\frac{p(x,y)}{p(x) p(y)}",
            "엑스와 와이의 피를 엑스의 확률 피와 와이의 확률 피의 곱으로 나눈 것",
            "p of x and y, all divided by the product of p of x and p of y",
        ),
        (
            r"\mathbb{E}[X^2] - \mathbb{E}[X]^2",
            "엑스의 제곱의 기댓값 빼기 엑스의 기댓값의 제곱",
            "the expectation of X squared, minus the square of the expectation of X",
        ),
        (r"AB", "에이와 비의 곱", "the product of A and B"),
        (r"K^\top", "케이 전치", "K transpose"),
        (r"\sqrt{d_k}", "디케이의 제곱근", "the square root of d k"),
        (r"\|x\|", "엑스의 노름", "the norm of x"),
        (
            r"\sum_{i=1}^{N} x_i",
            "아이가 1부터 엔까지 변할 때 엑스 아이를 모두 더한 것",
            "the sum over i from 1 to N of x sub i",
        ),
        (r"-\infty", "마이너스 무한대", "minus infinity"),
        (r"e^{-\infty} = 0", "이의 마이너스 무한대 제곱은 0이다.", "e to the minus infinity is 0."),
        (
            r"\partial L / \partial Q",
            "엘을 큐로 편미분한 것",
            "the partial derivative of L with respect to Q",
        ),
        (r"\mathbb{R}^{n \times d_k}", "엔 곱하기 디케이 실수 행렬 공간", "the real n by d k matrices"),
        (r"\mathbb{C}^{m \times n}", "엠 곱하기 엔 복소수 행렬 공간", "the complex m by n matrices"),
        (
            r"\sum_{\substack{i, j \\ i \neq j}} a_{ij}",
            "아이, 제이(단, 아이는 제이와 같지 않다)에 대해 에이 아이 제이를 모두 더한 것",
            "the sum over i and j, with i not equal to j, of a sub i j",
        ),
        (r"x \in S", "엑스는 에스에 속한다.", "x is in S."),
        (r"O(n^2)", "빅오 엔의 제곱", "big O of n squared"),
    ];
    for (source, korean, english) in cases {
        assert_eq!(ko(source), korean, "{source}");
        assert_eq!(en(source), english, "{source}");
    }
}

#[test]
fn deep_formulas_read_without_overflowing() {
    let deep = format!("{}x{}", r"\sqrt{".repeat(60), "}".repeat(60));
    assert!(ko(&deep).contains("제곱근"));
    let long = vec![r"\log"; 5000].join(" ") + " x";
    assert!(!en(&long).is_empty());
    let sums = vec![r"\sum_i"; 5000].join(" ") + " x_i";
    assert!(!ko(&sums).is_empty());
}

#[test]
fn formulas_beyond_the_seeds() {
    let cases = [
        (r"W^O", "더블유 오", "W super O"),
        (r"p_{data}", "피 데이터", "p data"),
        (r"d_{model}", "디모델", "d model"),
        (r"x^*", "엑스 스타", "x star"),
        (r"x_1 + \dots + x_n", "엑스 1부터 엑스 엔까지의 합", "the sum of x sub 1 through x sub n"),
        (r"a_1, a_2, \dots", "에이 1, 에이 2 등", "a sub 1, a sub 2, and so on"),
        (
            r"\frac{1}{1 + e^{-x}}",
            "1을 1과 이의 마이너스 엑스 제곱의 합으로 나눈 것",
            "1 divided by the sum of 1 and e to the minus x",
        ),
        (r"D_{\mathrm{KL}}(q \| p)", "큐와 피의 케이엘 발산", "K L divergence of q and p"),
        (r"\mathrm{MSE}(y, z)", "와이와 제트의 평균제곱오차", "mean squared error of y and z"),
        (r"\mathrm{JS}(p \| q)", "피와 큐의 젠슨-섀넌 발산", "Jensen-Shannon divergence of p and q"),
        (
            r"\mathbb{E}_{x \sim p}[x]",
            "피 분포를 따르는 엑스에 대한 엑스의 기댓값",
            "the expectation over x drawn from p of x",
        ),
        (
            r"\{x \mid x > 0\}",
            "엑스가 0보다 클 때의 엑스들의 집합",
            "the set of x such that x is greater than 0",
        ),
        (r"f: X \to Y", "에프는 엑스에서 와이로 가는 함수이다.", "f is a function from X to Y."),
        (
            r"\int_0^1 x^2 \, dx",
            "엑스의 제곱을 0부터 1까지 엑스에 대해 적분한 것",
            "the integral from 0 to 1 of x squared with respect to x",
        ),
        (r"\arg\max_\theta p(x)", "세타에 대한 엑스의 확률 피의 아그맥스", "the argmax over theta of p of x"),
        (r"2\pi r", "2 파이 알", "2 pi r"),
        (
            r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
            "2행 2열 행렬: 1행 에이, 비; 2행 씨, 디",
            "the 2 by 2 matrix with rows a, b; c, d",
        ),
    ];
    for (source, korean, english) in cases {
        assert_eq!(ko(source), korean, "{source}");
        assert_eq!(en(source), english, "{source}");
    }
    let cases_env = r"f(x) = \begin{cases} x & \text{if } x > 0 \\ 0 & \text{otherwise} \end{cases}";
    assert_eq!(ko(cases_env), "엑스를 받는 에프는, 엑스가 0보다 클 때는 엑스, 그 밖에는 0이다.");
    assert_eq!(en(cases_env), "f of x is x if x is greater than 0, 0 otherwise.");
}

#[test]
fn trees_deeper_than_the_limit_read_as_elided() {
    use eqmap::syntax::ast::{Delim, Node, NodeKind, Span};
    let mut node = Node::new(
        NodeKind::Symbol { name: "x".into(), font: eqmap::syntax::ast::Font::Normal },
        Span::default(),
    );
    for _ in 0..2000 {
        let kind = NodeKind::Fenced {
            open: Delim::DoubleBar,
            close: Some(Delim::DoubleBar),
            sized: false,
            body: node.boxed(),
        };
        node = Node::new(kind, Span::default());
    }
    let table = eqmap::meaning::SymbolTable::new();
    let reading = eqmap::speak::read(&node, "", &table, Lang::En);
    assert!(reading.starts_with("the norm of the norm of"), "{}", &reading[..60.min(reading.len())]);
    assert!(reading.contains("(and so on)"));
    let reading = eqmap::speak::read(&node, "", &table, Lang::Ko);
    assert!(reading.contains("(생략)"));
    // Dropping a tree this deep recurses too: unwind it by hand.
    while let NodeKind::Fenced { body, .. } = node.kind {
        node = *body;
    }
}

/// A capital and its small letter in one formula are heard apart; a capital alone is said
/// plainly.
#[test]
fn capital_and_small_letters_are_heard_apart() {
    assert_eq!(en(r"\frac{t}{T}"), "t divided by capital T");
    assert_eq!(ko(r"\frac{t}{T}"), "티를 대문자 티로 나눈 것");
    assert!(ko(r"\sum_{b=1}^{B} x_b").contains("비가 1부터 대문자 비까지"));
    assert_eq!(en("QK^\\top"), "the product of Q and K transpose");
}

#[test]
fn a_sum_inside_a_product_opens_and_closes() {
    // Korean: the sum opens at 에 and closes at 더한 것, after a pause that keeps the factors
    // before it out ("에이와 비에 …" would also be (a와 b)에 …).
    assert_eq!(ko(r"a (b + c d)"), "에이와, 비에 씨 디를 더한 것의 곱");
    let gelu = ko(r"\sqrt{2/\pi}\left(x + 0.044715 x^3\right)");
    assert!(gelu.contains("엑스에, 0.044715와 엑스의 세제곱의 곱을 더한 것"), "{gelu}");
    assert!(!gelu.contains("의 곱의 합의 곱"), "{gelu}");
    // A sum of single symbols stays "…의 합".
    assert_eq!(ko(r"\sqrt{1 + \epsilon}"), "1과 엡실론의 합의 제곱근");
    // English: a comma before the last "and" when an item before it has an "and" of its own.
    assert_eq!(en(r"f(x W, y)"), "f of the product of x and W, and y");
    assert_eq!(en(r"f(a, b, c)"), "f of a, b and c");
}

#[test]
fn otimes_is_the_product_it_is() {
    assert_eq!(en(r"A \otimes B"), "the Kronecker product of A and B");
    // Beside a gate applied, as GLU and SwiGLU write it, the product is element-wise.
    assert!(en(r"\mathrm{Swish}(xW) \otimes (xV)").starts_with("the element-wise product of swish"));
    assert!(ko(r"\sigma(z) \otimes u").ends_with("원소별 곱"));
}

#[test]
fn a_full_stop_ending_the_formula_is_not_a_factor() {
    assert_eq!(en(r"y = 2 x."), "y is 2 x.");
    assert!(!ko(r"\sigma(x) = \frac{1}{1+\exp(-x)}.").contains("거기에.를"));
    assert_eq!(en(r"\sum_i x_i."), en(r"\sum_i x_i"));
}

#[test]
fn a_probability_named_probability_is_said_once() {
    assert_eq!(ko(r"P(A \mid B)"), "비를 조건으로 한 에이의 확률");
    assert_eq!(ko(r"P(A)"), "에이의 확률");
    assert_eq!(ko(r"p(x \mid y)"), "와이를 조건으로 한 엑스의 확률 피");
}

#[test]
fn relations_papers_write_are_read_as_words_not_command_names() {
    let relations = [
        "lesssim",
        "gtrsim",
        "lessapprox",
        "gtrapprox",
        "asymp",
        "approxeq",
        "prec",
        "preceq",
        "succ",
        "succeq",
        "supset",
        "supseteq",
        "ni",
        "nleq",
        "ngeq",
        "lneq",
        "gneq",
        "lll",
        "ggg",
        "nsim",
        "longrightarrow",
        "Longrightarrow",
        "Leftarrow",
        "leftrightarrow",
        "longmapsto",
        "nmid",
    ];
    for relation in relations {
        let source = format!(r"a \{relation} b");
        for reading in [en(&source), ko(&source)] {
            let words = reading.split(|c: char| !c.is_alphanumeric()).collect::<Vec<_>>();
            assert!(!words.contains(&relation), "{source} read as {reading}");
        }
    }
}

#[test]
fn a_distribution_named_beside_another_is_said_by_its_letter() {
    let kl = r"D_{\mathrm{KL}}(P \parallel Q) = \sum_x P(x) \log \frac{P(x)}{Q(x)}";
    let reading = en(kl);
    assert!(reading.starts_with("The K L divergence of P from Q is the sum over x of P of x"), "{reading}");
    assert!(!reading.contains("probability"), "{reading}");
    let reading = ko(kl);
    assert!(reading.starts_with("피의 큐에 대한 케이엘 발산은"), "{reading}");
    assert!(reading.contains("피 엑스와 피 엑스를 큐 엑스로 나눈"), "{reading}");
    // Bayes' rule names no distribution: P is the probability of an event.
    let bayes = en(r"P(A \mid B) = \frac{P(B \mid A) P(A)}{P(B)}");
    assert!(bayes.starts_with("Probability of A given B"), "{bayes}");
}

#[test]
fn a_divergence_marks_where_a_long_first_distribution_ends() {
    let kl = r"D_{\mathrm{KL}}(q_\phi(z \mid x) \parallel p(z))";
    let (reading_en, reading_ko) = (en(kl), ko(kl));
    assert!(reading_en.contains("given x, from p of z"), "{reading_en}");
    assert!(reading_ko.contains("파이의, 제트의"), "{reading_ko}");
    // Letters alone need no pause.
    assert!(ko(r"D_{\mathrm{KL}}(P \parallel Q)").starts_with("피의 큐에 대한"));
}

#[test]
fn every_spelling_of_the_ellipsis_reads_as_the_dots() {
    for (lang, read) in [("en", en as fn(&str) -> String), ("ko", ko)] {
        for template in [r"a_1 + DOTS + a_n", r"x_1, DOTS, x_n", r"f(x_1, DOTS, x_N)"] {
            let plain = read(&template.replace("DOTS", r"\dots"));
            for dots in [r"\cdots", r"\ldots", r"\dotsb", r"\dotsc", "⋯", "…"] {
                let reading = read(&template.replace("DOTS", dots));
                assert_eq!(reading, plain, "{lang}: {template} with {dots}");
            }
        }
    }
}

#[test]
fn second_derivatives_are_read_as_second_derivatives() {
    assert_eq!(en(r"\frac{d^2 y}{dx^2}"), "the second derivative of y with respect to x");
    assert_eq!(en(r"\frac{d^2}{dx^2} f(x)"), "the second derivative of f of x with respect to x");
    let mixed = en(r"\frac{\partial^2 f}{\partial x_i \partial x_j}");
    assert_eq!(mixed, "the second partial derivative of f with respect to x sub i and x sub j");
    assert_eq!(ko(r"\frac{d^2 y}{dx^2}"), "와이를 엑스로 두 번 미분한 것");
    // A first derivative says no order, and its variable squared stays what it is differentiated by.
    assert_eq!(en(r"\frac{d}{dx} f(x)"), "the derivative of f of x with respect to x");
}

#[test]
fn a_relation_opening_an_aligned_cell_is_a_relation_not_a_name() {
    // `&\approx c` continues the row above; `a \leq& b` puts the sign before the alignment point.
    let rows = r"\begin{aligned} a &= b \\ &\approx c \\ &\leq d \end{aligned}";
    assert_eq!(en(rows), "a is b, is approximately c, and is at most d.");
    assert_eq!(ko(rows), "에이는 비이고, 씨와 거의 같고, 디보다 작거나 같다.");
    assert_eq!(en(r"a \leq& b"), "a is at most b.");
    assert_eq!(ko(r"a \leq& b"), "에이는 비보다 작거나 같다.");
    for relation in ["approx", "leq", "sim", "in", "to"] {
        let aligned = format!(r"x &\{relation} y");
        assert_eq!(en(&aligned), en(&format!(r"x \{relation} y")), "{aligned}");
        assert_eq!(ko(&aligned), ko(&format!(r"x \{relation} y")), "{aligned}");
    }
}

#[test]
fn the_script_below_a_logarithm_is_its_base_however_it_is_written() {
    for source in [r"\log_2 p", r"\log_2(p)"] {
        assert!(en(source).starts_with("the log base 2 of p"), "{source}: {}", en(source));
        assert!(ko(source).starts_with("밑이 2인 로그 피"), "{source}: {}", ko(source));
    }
    assert!(en(r"\log_b(x)").starts_with("the log base b of x"), "{}", en(r"\log_b(x)"));
    // What a maximum ranges over stays a range.
    assert!(en(r"\max_j z_j").starts_with("the max over j"), "{}", en(r"\max_j z_j"));
}

#[test]
fn a_tilde_reads_as_the_meaning_layer_reads_it() {
    // The meaning layer decides what `\sim` says; the reading follows it, even where a side is
    // a call, whose term begins at its callee.
    assert_eq!(en(r"x \sim p(x)"), "x is distributed as p of x.");
    assert_eq!(en(r"f(x) \sim g(x)"), "f of x is asymptotically equal to g of x.");
    assert_eq!(
        en(r"f(n) \sim n \log n"),
        "f of n is asymptotically equal to the product of n and the log of n."
    );
    assert_eq!(en(r"0.5 \sim 2"), "0.5 is approximately 2.");
    assert_eq!(ko(r"f(x) \sim g(x)"), "에프 엑스는 지 엑스와 점근적으로 같다.");
}

#[test]
fn a_named_law_is_read_with_its_parameters() {
    // `data/speech.toml`'s laws: the normal distribution's mean and variance (a covariance when
    // the meaning layer reads a matrix), at a point after `;` or a bar; Korean says the law's
    // name once ("정규분포를 따른다", not "정규분포 분포").
    assert_eq!(
        en(r"x \sim \mathcal{N}(\mu, \sigma^2)"),
        "x is distributed as the normal distribution with mean mu and variance sigma squared."
    );
    assert_eq!(
        ko(r"x \sim \mathcal{N}(\mu, \sigma^2)"),
        "엑스는 평균이 뮤, 분산이 시그마의 제곱인 정규분포를 따른다."
    );
    assert_eq!(
        en(r"\mathcal{N}(x; \mu, \Sigma)"),
        "the density at x of the normal distribution with mean mu and covariance capital sigma"
    );
    assert_eq!(
        en(r"X \sim \mathrm{Bernoulli}(p)"),
        "X is distributed as the Bernoulli distribution with probability p."
    );
    // A law with scripts on its letter, or given other than its parameters, keeps its letter.
    assert!(en(r"\mathcal{N}_n(\mu, K)").starts_with("script N"), "{}", en(r"\mathcal{N}_n(\mu, K)"));
}
