//! Korean readings: a [`Phrase`] put into Korean words and word order.
//!
//! Korean reads an operation as a clause that ends in a verb — "A를 B로 나눈 것" — and chains
//! steps through the verb: "…나눈 것에 소프트맥스를 씌우고, 거기에 브이를 곱한 것". So a
//! reading here is either a noun phrase or a clause whose verb stem is kept open (`Ko`), and
//! the next step decides whether the verb becomes "나눈 것" (a noun), "나누고," or
//! "나눈 다음,". Particles follow the final sound of the word they attach to
//! ([`super::particles`]).

use super::hangul;
use super::keys;
use super::phrase::{Apply, BigOp, Fence, Name, NameClass, Phrase, Sign, SubStyle};
use super::quantify;
use super::speaker::Speaker;
use super::template::fill;
use super::vocab::{KoStyle, Template, Vocabulary};
use super::Verbosity;
use crate::lang::Lang;

/// Deeper phrases than this read as elided: a guard for hand-built phrases only. A phrase
/// nests at most twice as deep as the shaper goes ([`super::MAX_DEPTH`]: a role or a sign
/// around a part).
const MAX_DEPTH: usize = 2 * super::MAX_DEPTH;

/// The Korean reading of a whole formula, ending in a full stop when it is a sentence.
pub fn render(phrase: &Phrase, vocab: &Vocabulary) -> String {
    render_at(phrase, vocab, Verbosity::Default)
}

/// The Korean reading of a whole formula at a [`Verbosity`].
pub fn render_at(phrase: &Phrase, vocab: &Vocabulary, verbosity: Verbosity) -> String {
    let reader = Reader { vocab, verbosity };
    let text = reader.noun(phrase, 0);
    if phrase.is_sentence() && !text.is_empty() {
        format!("{text}.")
    } else {
        text
    }
}

/// A Korean reading in progress: a noun phrase, or a clause whose verb is still open.
#[derive(Debug, Clone)]
enum Ko {
    /// "큐와 케이 전치의 곱".
    Noun(String),
    /// "큐를 디케이로 " + "나누": becomes "…나눈 것", "…나누고, …" or "…나눈 다음, …".
    Clause { lead: String, stem: String },
}

impl Ko {
    /// The reading as a noun phrase: a clause becomes "…한 것".
    fn into_noun(self) -> String {
        match self {
            Ko::Noun(text) => text,
            Ko::Clause { lead, stem } => format!("{lead}{} 것", hangul::adnominal_past(&stem)),
        }
    }
}

struct Reader<'a> {
    vocab: &'a Vocabulary,
    verbosity: Verbosity,
}

impl Speaker for Reader<'_> {
    type Said = Ko;
    const LANG: Lang = Lang::Ko;

    fn vocab(&self) -> &Vocabulary {
        self.vocab
    }

    fn fill(&self, key: &str, slots: &[(&str, &str)]) -> Ko {
        self.phrase(key, slots)
    }

    fn text(&self, phrase: &Phrase, d: usize) -> String {
        self.noun(phrase, d)
    }

    fn dimensions(&self, dims: &[Phrase], d: usize) -> String {
        self.shape(dims, d)
    }

    fn fill_text(&self, key: &str, slots: &[(&str, &str)]) -> String {
        self.phrase(key, slots).into_noun()
    }

    fn join_and(&self, items: Vec<String>) -> String {
        self.and_list(items)
    }
}

impl Reader<'_> {
    fn noun(&self, phrase: &Phrase, depth: usize) -> String {
        self.say(phrase, depth).into_noun()
    }

    fn nouns(&self, phrases: &[Phrase], depth: usize) -> Vec<String> {
        phrases.iter().map(|p| self.noun(p, depth)).filter(|s| !s.is_empty()).collect()
    }

    /// A template filled with `slots`.
    fn phrase(&self, key: &str, slots: &[(&str, &str)]) -> Ko {
        match self.vocab.phrase_at(Lang::Ko, key, self.verbosity) {
            Some(Template::Text(text)) => Ko::Noun(fill(text, slots)),
            Some(Template::Clause { lead, verb, .. }) => {
                Ko::Clause { lead: fill(lead, slots), stem: fill(verb, slots) }
            }
            None => Ko::Noun(
                slots.iter().map(|(_, v)| *v).filter(|v| !v.is_empty()).collect::<Vec<_>>().join(" "),
            ),
        }
    }

    /// A step that continues `previous`: "…나누고, 거기에 …" or "…나눈 다음, …".
    fn then(&self, previous: Ko, key: &str, slots: &[(&str, &str)]) -> Ko {
        let (Ko::Clause { lead, stem }, Some(Template::Clause { lead: next, verb, join })) =
            (&previous, self.vocab.phrase_at(Lang::Ko, key, self.verbosity))
        else {
            let before = previous.into_noun();
            return Ko::Noun(format!("{before} {}", self.phrase(key, slots).into_noun()));
        };
        let link = match join.as_deref() {
            Some("다음") => format!("{} 다음, ", hangul::adnominal_past(stem)),
            _ => format!("{stem}고, "),
        };
        Ko::Clause { lead: format!("{lead}{link}{}", fill(next, slots)), stem: fill(verb, slots) }
    }

    /// "A, B와 C".
    fn and_list(&self, items: Vec<String>) -> String {
        let mut items = items;
        let Some(last) = items.pop() else { return String::new() };
        if items.is_empty() {
            return last;
        }
        self.phrase("list_and", &[("a", &items.join(", ")), ("b", &last)]).into_noun()
    }

    fn say(&self, phrase: &Phrase, depth: usize) -> Ko {
        if depth > MAX_DEPTH {
            return self.phrase("elided", &[]);
        }
        let d = depth + 1;
        match phrase {
            Phrase::Name(name) => Ko::Noun(self.name(name)),
            Phrase::Number(text) | Phrase::Text(text) => Ko::Noun(text.clone()),
            Phrase::Empty => Ko::Noun(String::new()),
            Phrase::Elided => self.phrase("elided", &[]),
            Phrase::Dots => self.phrase("dots", &[]),
            Phrase::Seq(parts) => Ko::Noun(self.nouns(parts, d).join(" ")),
            Phrase::Shape(dims) => Ko::Noun(self.shape(dims, d)),
            Phrase::Sub { base, sub, style } => self.sub(base, sub, *style, d),
            Phrase::Super { base, sup } => self.two(keys::super_key(sup), "x", base, "i", sup, d),
            Phrase::Layer { base, layer } => self.two("layer", "x", base, "i", layer, d),
            Phrase::Evaluated { body, at, to: None } => {
                let (x, a) = (self.text(body, d), self.point_text(at, d));
                self.phrase("evaluated_at", &[("x", &x), ("a", &a)])
            }
            Phrase::Evaluated { body, at, to: Some(to) } => {
                let (x, a, b) = (self.noun(body, d), self.noun(at, d), self.noun(to, d));
                self.phrase("evaluated_between", &[("x", &x), ("a", &a), ("b", &b)])
            }
            Phrase::OrderedDerivative { base, order } => {
                // "the n-th derivative", but "the derivative of order k minus 1".
                let key = if order.is_atomic() { "nth_derivative_of" } else { "derivative_of_order" };
                self.two(key, "f", base, "n", order, d)
            }
            Phrase::Divergence { func, a, b } => self.divergence(func, a, b, d),
            Phrase::Law { key, at, params } => self.law(key, at.as_deref(), params, d),
            Phrase::Prime { base, count } => self.prime(base, *count, d),
            Phrase::Transpose(x) => self.one(keys::transpose_key(x), x, d),
            Phrase::Ordinal(x) => self.one("ordinal", x, d),
            Phrase::Inverse { base, of } => self.one(keys::inverse_key(*of, base), base, d),
            Phrase::Power { base, exponent } => self.power(base, exponent, d),
            Phrase::Sqrt { index, body } => self.sqrt(index.as_deref(), body, d),
            Phrase::Div { num, den } => self.divide(num, den, d),
            Phrase::Fraction { num, den } => self.two("fraction", "num", num, "den", den, d),
            Phrase::Product(factors) => self.product(factors, d),
            Phrase::Scale { k, x } => self.two("scale", "k", k, "x", x, d),
            Phrase::Dot(a, b) => self.two("dot_product", "a", a, "b", b, d),
            Phrase::Ops { first, rest, nested } => self.ops(first, rest, *nested, d),
            Phrase::Apply(apply) => self.apply(apply, d),
            Phrase::BigOp(big) => self.big_op(big, d),
            Phrase::Neg(x) => self.negate(x, d),
            Phrase::Sign { sign, x } => self.sign(*sign, x, d),
            Phrase::Relation { first, rest } => Ko::Noun(self.relation(first, rest, false, d)),
            Phrase::Definition { name, params, body } => self.definition(name, params, body, d),
            Phrase::Role { role, x } => self.role(role, x, d),
            Phrase::Statements(items) => Ko::Noun(self.statements(items, d)),
            Phrase::Prose(clauses) => Ko::Noun(self.prose(clauses, d)),
            Phrase::List(items) => Ko::Noun(self.nouns(items, d).join(", ")),
            Phrase::Range { first, last } => self.range(first, last.as_deref(), d),
            Phrase::Fence { fence, body } => self.fence(*fence, body, d),
            Phrase::PNorm { p, body } => self.two("p_norm", "p", p, "x", body, d),
            Phrase::SetBuilder { x, cond } => self.set_builder(x, cond, d),
            Phrase::Mapping { f, from, to } => {
                let (f, a, b) = (self.noun(f, d), self.noun(from, d), self.noun(to, d));
                self.phrase("maps", &[("f", &f), ("a", &a), ("b", &b)])
            }
            Phrase::Inner(a, b) => self.two("inner", "a", a, "b", b, d),
            Phrase::Interval(a, b) => self.two("interval", "a", a, "b", b, d),
            Phrase::NumberSpace { complex, dims } => self.number_space(*complex, dims, d),
            Phrase::Expectation { over, body } => self.with_over("expectation", over.as_deref(), body, d),
            Phrase::Derivative { partial, order, of, wrt } => {
                self.derivative((*partial, order), of.as_deref(), wrt, d)
            }
            Phrase::Differential { partial, x, .. } => self.differential(*partial, x, d),
            Phrase::Gradient { second, over, body } => {
                let key = if *second { "hessian" } else { "gradient" };
                self.with_over(key, over.as_deref(), body, d)
            }
            Phrase::Annotated { body, label, shape } => {
                self.two(if *shape { "shaped" } else { "labelled" }, "x", body, "label", label, d)
            }
            Phrase::Accent { accent, body } => self.accent(accent, body, d),
            Phrase::Cases(cases) => Ko::Noun(self.cases(cases, d)),
            Phrase::Matrix(rows) => self.matrix(rows, d),
            Phrase::Indicator(cond) => self.phrase("indicator", &[("cond", &self.when(cond, d))]),
            Phrase::Where { body, name, value } => self.where_clause(body, name, value, d),
            Phrase::Factorial(x) => self.one("factorial", x, d),
            Phrase::Binom(n, k) => self.two("binom", "n", n, "k", k, d),
        }
    }

    /// A template with one phrase in slot `x`.
    fn one(&self, key: &str, x: &Phrase, d: usize) -> Ko {
        self.phrase(key, &[("x", &self.noun(x, d))])
    }

    /// A template with two phrases.
    fn two(&self, key: &str, a: &str, pa: &Phrase, b: &str, pb: &Phrase, d: usize) -> Ko {
        self.phrase(key, &[(a, &self.noun(pa, d)), (b, &self.noun(pb, d))])
    }

    /// A symbol or a name in Korean: 큐, 세타, 무한대, 소프트맥스.
    fn name(&self, name: &Name) -> String {
        let key = name.key.as_str();
        let found = match name.class {
            NameClass::Letter => self.vocab.letters.get(&key.to_lowercase()).cloned(),
            NameClass::Capital => self
                .vocab
                .letters
                .get(&key.to_lowercase())
                .map(|letter| self.phrase("capital", &[("x", letter)]).into_noun()),
            NameClass::Greek => self.vocab.greek.get(key).map(|w| w.ko.clone()),
            NameClass::Symbol => self.vocab.symbols.get(key).map(|w| w.ko.clone()),
            NameClass::Word => self.vocab.functions.get(key).map(|w| w.ko.clone()),
            NameClass::Blackboard => self.vocab.blackboard.get(key).map(|w| w.ko.clone()),
            NameClass::Calligraphic => {
                let letter = self.vocab.letters.get(&key.to_lowercase()).map_or(key, String::as_str);
                Some(self.phrase("calligraphic", &[("x", letter)]).into_noun())
            }
        };
        found.unwrap_or_else(|| self.unknown_word(key))
    }

    /// A name the vocabulary does not know: an acronym by its letters (FFN → 에프에프엔), a
    /// word as written.
    fn unknown_word(&self, key: &str) -> String {
        let acronym = key.len() <= 5 && key.chars().all(|c| c.is_ascii_uppercase());
        if acronym {
            return key
                .chars()
                .map(|c| self.vocab.letters.get(&c.to_lowercase().to_string()).cloned().unwrap_or_default())
                .collect();
        }
        key.to_string()
    }

    fn shape(&self, dims: &[Phrase], d: usize) -> String {
        let by = format!(" {} ", self.phrase("by", &[]).into_noun());
        self.nouns(dims, d).join(&by)
    }

    /// A subscript; one of more than one symbol is closed as a relative clause ("아래첨자가 티
    /// 빼기 1인 엠"), so that it does not sound like `m_t - 1` ("엠 티 빼기 1").
    fn sub(&self, base: &Phrase, sub: &Phrase, style: SubStyle, d: usize) -> Ko {
        self.two(keys::sub_key(style, sub), "x", base, "i", sub, d)
    }

    fn prime(&self, base: &Phrase, count: u8, d: usize) -> Ko {
        let mut text = self.noun(base, d);
        for _ in 0..count {
            text = self.phrase("prime", &[("x", &text)]).into_noun();
        }
        Ko::Noun(text)
    }

    /// "평균이 뮤, 분산이 시그마의 제곱인 정규분포"; at a point, "엑스에서, 평균이 …인 정규분포의
    /// 밀도".
    fn law(&self, key: &str, at: Option<&Phrase>, params: &[(bool, Phrase)], d: usize) -> Ko {
        let Some(words) = self.vocab.laws.get(key) else { return Ko::Noun(String::new()) };
        let said: Vec<String> = words
            .params
            .iter()
            .zip(params)
            .map(|(name, (matrix, value))| {
                let value = self.noun(value, d);
                self.phrase("law_param", &[("p", name.get(Lang::Ko, *matrix)), ("v", &value)]).into_noun()
            })
            .collect();
        let params = said.join(", ");
        match at {
            Some(x) => {
                let x = self.noun(x, d);
                self.phrase("law_at", &[("name", &words.ko), ("x", &x), ("params", &params)])
            }
            None => self.phrase("law", &[("name", &words.ko), ("params", &params)]),
        }
    }

    /// "피의 큐에 대한 케이엘 발산"; after a first distribution of several words, a comma marks
    /// where it ends ("…확률 큐 파이의, 제트의 확률 피에 대한 케이엘 발산").
    fn divergence(&self, func: &Phrase, a: &Phrase, b: &Phrase, d: usize) -> Ko {
        let (f, a, b) = (self.noun(func, d), self.noun(a, d), self.noun(b, d));
        let key = if a.contains(' ') { "divergence_long" } else { "divergence" };
        self.phrase(key, &[("f", &f), ("a", &a), ("b", &b)])
    }

    fn power(&self, base: &Phrase, exponent: &Phrase, d: usize) -> Ko {
        match exponent {
            Phrase::Number(n) if n == "2" => self.one("square", base, d),
            Phrase::Number(n) if n == "3" => self.one("cube", base, d),
            _ => self.two("power", "x", base, "n", exponent, d),
        }
    }

    fn sqrt(&self, index: Option<&Phrase>, body: &Phrase, d: usize) -> Ko {
        match index {
            None => self.one("sqrt", body, d),
            Some(Phrase::Number(n)) if n == "3" => self.one("cube_root", body, d),
            Some(n) => self.two("root", "x", body, "n", n, d),
        }
    }

    /// "A를 B로 나눈 것"; after a clause, "…하고, B로 나눈 것".
    fn divide(&self, num: &Phrase, den: &Phrase, d: usize) -> Ko {
        let den = self.noun(den, d);
        if self.verbosity == Verbosity::Full {
            return self.phrase("divide", &[("num", &self.noun(num, d)), ("den", &den)]);
        }
        match self.say(num, d) {
            clause @ Ko::Clause { .. } => self.then(clause, "divide_then", &[("den", &den)]),
            Ko::Noun(num) => self.phrase("divide", &[("num", &num), ("den", &den)]),
        }
    }

    /// "A와 B의 곱"; after a clause, "…씌우고, 거기에 B를 곱한 것".
    fn product(&self, factors: &[Phrase], d: usize) -> Ko {
        let Some((first, rest)) = factors.split_first() else { return Ko::Noun(String::new()) };
        if let clause @ Ko::Clause { .. } = self.say(first, d) {
            if !rest.is_empty() {
                let rest = match rest {
                    [one] => self.noun(one, d),
                    more => self.product(more, d).into_noun(),
                };
                return self.then(clause, "product_then", &[("x", &rest)]);
            }
            return clause;
        }
        let nouns = self.nouns(factors, d);
        let pause = factors.last().is_some_and(|last| self.says_as_steps(last));
        let list = match nouns.split_last() {
            Some((last, items)) if pause && !items.is_empty() => {
                self.phrase("list_and_pause", &[("a", &items.join(", ")), ("b", last)]).into_noun()
            }
            _ => self.and_list(nouns),
        };
        self.phrase("product", &[("x", &list)])
    }

    /// Whether a factor is a sum said as steps inside the product ("1에 … 더한 것"), whose
    /// opening 에 would otherwise take the factors before it along.
    fn says_as_steps(&self, factor: &Phrase) -> bool {
        match factor {
            Phrase::Fence { fence: Fence::Group | Fence::Bracket, body } => self.says_as_steps(body),
            Phrase::Ops { first, rest, nested: true } => {
                self.verbosity != Verbosity::Full
                    && keys::whole_product(rest).is_none()
                    && rest.iter().all(|(op, _)| op == "+" || op == "-")
                    && std::iter::once(first.as_ref()).chain(rest.iter().map(|(_, p)| p)).any(has_parts)
            }
            _ => false,
        }
    }

    /// Operator words (`a 더하기 b`); inside brackets, "A와 B의 합" or "A에서 B를 뺀 것".
    fn ops(&self, first: &Phrase, rest: &[(String, Phrase)], nested: bool, d: usize) -> Ko {
        if let Some(key) = keys::whole_product(rest) {
            let items = std::iter::once(first).chain(rest.iter().map(|(_, p)| p));
            let nouns = items.map(|p| self.noun(p, d)).collect();
            return self.phrase(key, &[("x", &self.and_list(nouns))]);
        }
        if self.verbosity != Verbosity::Full {
            let items = std::iter::once(first).chain(rest.iter().map(|(_, p)| p));
            let heavy = nested && items.clone().any(has_parts);
            if !nested || heavy {
                if let Some(steps) = self.steps(first, rest, heavy, d) {
                    return steps;
                }
            }
        }
        if nested && rest.iter().all(|(op, _)| op == "+") {
            let items = std::iter::once(first).chain(rest.iter().map(|(_, p)| p));
            let nouns = items.map(|p| self.noun(p, d)).collect();
            return self.phrase("sum_of", &[("x", &self.and_list(nouns))]);
        }
        if let (true, [(op, b)]) = (nested, rest) {
            if op == "-" {
                return self.two("difference", "a", first, "b", b, d);
            }
        }
        let mut words = vec![self.noun(first, d)];
        for (op, operand) in rest {
            words.push(
                self.vocab
                    .operators
                    .get(op)
                    .map_or_else(|| op.trim_start_matches('\\').to_string(), |w| w.ko.clone()),
            );
            words.push(self.noun(operand, d));
        }
        let text = words.into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
        if nested {
            return self.phrase("group", &[("x", &text)]);
        }
        Ko::Noun(text)
    }

    /// A sum whose terms are operations, as the seed reads steps: "A에 B를 더하고, 거기서 C를 뺀
    /// 것". Operator words ("A 더하기 B") would let a clause's lead swallow what came before it:
    /// in "베타 1과 엠의 곱 더하기 1에서 베타 1을 빼고, 거기에 지 티를 곱한 것" the listener cannot
    /// tell whether the 1 is added before or after. Inside a larger phrase a sum with a term
    /// of several parts (`heavy`) is said so too: in "엑스와 0.044715와 엑스의 세제곱의 곱의 합"
    /// the listener cannot tell where the product ends, in "엑스에 0.044715와 엑스의 세제곱의 곱을
    /// 더한 것" the sum opens at 에 and closes at 더한 것. `None` when every term is one noun
    /// and the sum is not heavy.
    fn steps(&self, first: &Phrase, rest: &[(String, Phrase)], heavy: bool, d: usize) -> Option<Ko> {
        let additive = rest.iter().all(|(op, _)| op == "+" || op == "-");
        let said: Vec<Ko> = rest.iter().map(|(_, p)| self.say(p, d)).collect();
        let first_said = self.say(first, d);
        let clause = |k: &Ko| matches!(k, Ko::Clause { .. });
        if !additive || !(heavy || clause(&first_said) || said.iter().any(clause)) {
            return None;
        }
        let mut reading: Option<Ko> = None;
        let mut left = Some(first_said.into_noun());
        for ((op, _), term) in rest.iter().zip(said) {
            let b = term.into_noun();
            let minus = op == "-";
            reading = Some(match (reading, left.take()) {
                (None, Some(a)) => {
                    self.phrase(if minus { "subtract_from" } else { "add_to" }, &[("a", &a), ("b", &b)])
                }
                (Some(previous), _) => {
                    self.then(previous, if minus { "subtract_then" } else { "add_then" }, &[("b", &b)])
                }
                (None, None) => Ko::Noun(b),
            });
        }
        reading
    }

    /// "…의 곱, 여기서 유는 …이다"; after a sentence, "…이다. 여기서 유는 …이다".
    fn where_clause(&self, body: &Phrase, name: &Phrase, value: &Phrase, d: usize) -> Ko {
        let (name, value) = (self.noun(name, d), self.noun(value, d));
        let mut body = self.noun(body, d);
        if body.ends_with('다') {
            body.push('.');
        } else {
            body.push(',');
        }
        self.phrase("where", &[("x", &body), ("name", &name), ("value", &value)])
    }

    /// A function applied, in the style the vocabulary gives it.
    fn apply(&self, apply: &Apply, d: usize) -> Ko {
        let f = self.noun(&apply.func, d);
        let atomic = apply.args.len() > 1 && apply.args.iter().all(Phrase::is_atomic);
        let x = if atomic {
            self.and_list(self.nouns(&apply.args, d))
        } else {
            self.nouns(&apply.args, d).join(", ")
        };
        let entry = apply.key.as_ref().and_then(|k| self.vocab.functions.get(k));
        let said = if let Some(given) = &apply.given {
            if apply.probability {
                // `P(Y = 1 \mid X = x)`: events said as noun phrases ("1인 와이"), not sentences.
                let (given, x) = match apply.args.as_slice() {
                    [event] => (self.event(given, d), self.event(event, d)),
                    _ => (self.event(given, d), x),
                };
                self.probability("probability", &[("given", &given), ("x", &x)], &f)
            } else {
                self.phrase("given", &[("given", &self.noun(given, d)), ("x", &x), ("f", &f)])
            }
        } else if let (true, [event]) = (apply.probability, apply.args.as_slice()) {
            // `P(X > s)`: the event as a noun phrase too ("에스보다 큰 엑스").
            self.probability("probability_plain", &[("x", &self.event(event, d))], &f)
        } else if let Some(verb) = entry.and_then(|e| e.ko_verb.as_deref()) {
            self.phrase("apply_verb", &[("x", &x), ("f", verb)])
        } else {
            let key = match entry.map(|e| e.ko_style).unwrap_or_default() {
                KoStyle::Of => "apply_of",
                KoStyle::Prefix => "apply_short",
                KoStyle::Apply if apply.args.len() > 1 && apply.args.iter().all(Phrase::is_atomic) => {
                    "apply_of"
                }
                KoStyle::Apply if apply.args.len() > 1 => "apply_many",
                KoStyle::Apply if apply.args.iter().all(Phrase::is_atomic) => "apply_short",
                KoStyle::Apply => "apply",
            };
            self.phrase(key, &[("x", &x), ("f", &f)])
        };
        match &apply.over {
            Some(over) => self.over(said, &self.over_text(over, d)),
            None => said,
        }
    }

    /// An event of a probability as a noun phrase: a relation in its noun form ("1인 와이"),
    /// anything else as a noun.
    fn event(&self, phrase: &Phrase, d: usize) -> String {
        quantify::relation_noun(self.vocab, Lang::Ko, phrase, "", |p| self.noun(p, d))
            .unwrap_or_else(|| self.noun(phrase, d))
    }

    /// "엑스의 확률 피"; when the function is itself said 확률 (`P(A)`), "에이의 확률", not
    /// "에이의 확률 확률".
    fn probability(&self, key: &str, slots: &[(&str, &str)], f: &str) -> Ko {
        let bare = self.phrase(key, slots).into_noun().trim_end().to_string();
        if !f.is_empty() && bare.ends_with(f) {
            return Ko::Noun(bare);
        }
        let mut slots = slots.to_vec();
        slots.push(("f", f));
        self.phrase(key, &slots)
    }

    /// "제이에 대해 …" before a reading.
    fn over(&self, said: Ko, over: &str) -> Ko {
        match said {
            Ko::Noun(x) => self.phrase("over", &[("over", over), ("x", &x)]),
            Ko::Clause { lead, stem } => Ko::Clause {
                lead: self.phrase("over", &[("over", over), ("x", &lead)]).into_noun() + " ",
                stem,
            },
        }
    }

    /// A sum, product, integral, mean, or another large operator (max, argmax, ⋃).
    fn big_op(&self, big: &BigOp, d: usize) -> Ko {
        let part = |p: &Option<Box<Phrase>>| p.as_deref().map(|p| self.noun(p, d)).unwrap_or_default();
        let var = match big.var.as_deref() {
            // "아이와 제이가 1부터 브이까지 변할 때".
            Some(Phrase::List(items)) => self.and_list(self.nouns(items, d)),
            _ => part(&big.var),
        };
        let (x, from, to) = (part(&big.body), part(&big.from), part(&big.to));
        let over = big.over.as_deref().map(|p| self.over_text(p, d)).unwrap_or_default();
        let over = keys::big_op_over(big, over, &var);
        let (n, op) = (part(&big.mean_of), self.op_word(&big.op));
        let slots = [
            ("x", x.as_str()),
            ("var", &var),
            ("from", &from),
            ("to", &to),
            ("over", &over),
            ("n", &n),
            ("op", &op),
        ];
        match keys::big_op_key(big, &var, &from, &to, &over) {
            Some(key) => self.phrase(&key, &slots),
            None => Ko::Noun(op),
        }
    }

    fn op_word(&self, op: &str) -> String {
        let from_functions = self.vocab.functions.get(op).map(|w| w.ko.clone());
        let from_big = self.vocab.big_operators.get(op).map(|w| w.ko.clone());
        from_functions.or(from_big).unwrap_or_else(|| op.to_string())
    }

    /// "마이너스 엑스", "X에 마이너스를 붙인 것", or after a clause "…한 다음, 마이너스를 붙인 것".
    fn negate(&self, x: &Phrase, d: usize) -> Ko {
        match self.say(x, d) {
            clause @ Ko::Clause { .. } => self.then(clause, "negate_then", &[]),
            Ko::Noun(text) if x.is_atomic() => self.phrase("minus", &[("x", &text)]),
            Ko::Noun(text) => self.phrase("negate", &[("x", &text)]),
        }
    }

    fn sign(&self, sign: Sign, x: &Phrase, d: usize) -> Ko {
        self.one(keys::sign_key(sign), x, d)
    }

    /// Relations in a row: "A는 B이고, 이것은 C와 같다". A `subordinate` relation takes the
    /// subject particle 이/가 (for "…일 때").
    fn relation(&self, first: &Phrase, rest: &[(String, Phrase)], subordinate: bool, d: usize) -> String {
        let again = self.phrase("again", &[]).into_noun();
        let mut sentences = Vec::new();
        for (k, (relation, rhs)) in rest.iter().enumerate() {
            // `X \mid Y = y`: what is asked of and what is given are events, said as noun phrases
            // ("와이인 대문자 와이가 주어졌을 때"), not sentences.
            let bar = relation == "\\mid";
            let said = |p: &Phrase| if bar { self.event(p, d) } else { self.noun(p, d) };
            let a = if k == 0 { said(first) } else { again.clone() };
            let b = said(rhs);
            let mut template = self.vocab.relations.get(relation).map_or_else(
                || format!("{{a}} {} {{b}}", relation.trim_start_matches('\\')),
                |w| w.ko.clone(),
            );
            if k > 0 {
                template = template.replace("{,}", "");
            }
            let template = if subordinate {
                template.replace("{a:은}", "{a:이}").replace("{a:는}", "{a:이}")
            } else {
                template
            };
            sentences.push(fill(&template, &[("a", &a), ("b", &b)]));
        }
        join_sentences(sentences)
    }

    fn definition(&self, name: &Phrase, params: &[Phrase], body: &Phrase, d: usize) -> Ko {
        let params = self.nouns(params, d).join(", ");
        let slots =
            [("params", params.as_str()), ("name", &self.noun(name, d)), ("body", &self.noun(body, d))];
        self.phrase("definition", &slots)
    }

    fn role(&self, role: &str, x: &Phrase, d: usize) -> Ko {
        let word = self.vocab.roles.get(role).map(|w| w.ko.clone()).unwrap_or_default();
        self.phrase("role", &[("role", &word), ("x", &self.noun(x, d))])
    }

    fn statements(&self, items: &[Phrase], d: usize) -> String {
        let said: Vec<(String, bool)> = items.iter().map(|p| (self.noun(p, d), p.is_sentence())).collect();
        let count = said.len();
        let parts = said.into_iter().enumerate().map(|(k, (text, sentence))| {
            if sentence && k + 1 < count {
                hangul::connective(&text)
            } else {
                text
            }
        });
        parts.collect::<Vec<_>>().join(", ")
    }

    /// Clauses joined by words of prose: "그리고" joins two sentences ("…크고, …"), "if" makes
    /// its clause a "when" clause ("…클 때"), other words are said before their clause.
    fn prose(&self, clauses: &[(Option<String>, Phrase)], d: usize) -> String {
        let mut parts: Vec<(String, bool)> = Vec::new();
        for (words, clause) in quantify::quantified_first(self.vocab, clauses) {
            let quantifier = words.as_deref().and_then(|w| quantify::template(self.vocab, w, Lang::Ko));
            if let Some(template) = quantifier {
                let said = quantify::bound(self.vocab, Lang::Ko, template, clause, |p| self.noun(p, d));
                parts.push((said, false));
                continue;
            }
            let said = self.noun(clause, d);
            let sentence = clause.is_sentence();
            let words = words.as_deref().map(|w| self.vocab.prose_words(w, Lang::Ko));
            let part = match (words, parts.last_mut()) {
                (Some("그리고"), Some(last)) if last.1 && sentence => {
                    last.0 = hangul::connective(&last.0);
                    said
                }
                (Some("만약"), _) if sentence => hangul::when_clause(&said),
                (words, _) => words
                    .into_iter()
                    .chain(Some(said.as_str()))
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            if !part.is_empty() {
                parts.push((part, sentence));
            }
        }
        parts.into_iter().map(|(text, _)| text).collect::<Vec<_>>().join(", ")
    }

    fn range(&self, first: &Phrase, last: Option<&Phrase>, d: usize) -> Ko {
        match last {
            Some(last) => match first {
                Phrase::List(items) => {
                    let (x, b) = (self.nouns(items, d).join(", "), self.noun(last, d));
                    self.phrase("list_through", &[("x", &x), ("b", &b)])
                }
                _ => self.two("range", "a", first, "b", last, d),
            },
            None => self.one("etc", first, d),
        }
    }

    fn fence(&self, fence: Fence, body: &Phrase, d: usize) -> Ko {
        let key = keys::fence_key_of(fence, body);
        match body {
            Phrase::Ops { first, rest, nested: true } if self.verbosity == Verbosity::Full => {
                let flat = self.ops(first, rest, false, d).into_noun();
                self.phrase(key, &[("x", &flat)])
            }
            _ if matches!(fence, Fence::Group | Fence::Bracket) && self.verbosity != Verbosity::Full => {
                self.say(body, d)
            }
            _ => self.one(key, body, d),
        }
    }

    fn differential(&self, partial: bool, x: &Phrase, d: usize) -> Ko {
        let sign = if partial {
            self.vocab.symbols.get("partial").map(|w| w.ko.clone())
        } else {
            self.vocab.letters.get("d").cloned()
        };
        Ko::Noun(format!("{} {}", sign.unwrap_or_default(), self.noun(x, d)).trim().to_string())
    }

    fn accent(&self, accent: &str, body: &Phrase, d: usize) -> Ko {
        let x = self.noun(body, d);
        match self.vocab.accents.get(accent) {
            Some(words) => Ko::Noun(fill(&words.ko, &[("x", &x)])),
            None => Ko::Noun(format!("{x} {accent}")),
        }
    }

    /// "엑스가 0보다 클 때의 엑스들의 집합".
    fn set_builder(&self, x: &Phrase, cond: &Phrase, d: usize) -> Ko {
        let when = self.when(cond, d);
        self.phrase("set_builder", &[("cond", &when), ("x", &self.noun(x, d))])
    }

    /// A condition as a "when" clause: "엑스가 0보다 클 때".
    fn when(&self, cond: &Phrase, d: usize) -> String {
        match cond {
            Phrase::Relation { first, rest } => hangul::when_clause(&self.relation(first, rest, true, d)),
            // `k \le x < k+1 \textrm{ with } 0 \le k`: conditions joined ("…작고, …같을 때").
            Phrase::Prose(clauses) if clauses.iter().all(|(_, c)| matches!(c, Phrase::Relation { .. })) => {
                let last = clauses.len().saturating_sub(1);
                let said = clauses.iter().enumerate().map(|(k, (words, clause))| {
                    let Phrase::Relation { first, rest } = clause else { return String::new() };
                    let sentence = self.relation(first, rest, true, d);
                    let said = if k == last {
                        hangul::when_clause(&sentence)
                    } else {
                        hangul::connective(&sentence)
                    };
                    let joining = words.as_deref().is_none_or(|w| matches!(w, "and" | "with"));
                    match words.as_deref().filter(|_| !joining) {
                        Some(words) => format!("{} {said}", self.vocab.prose_words(words, Lang::Ko)),
                        None => said,
                    }
                });
                said.collect::<Vec<_>>().join(", ")
            }
            other => hangul::when_clause(&format!("{}이다", self.noun(other, d))),
        }
    }

    /// "엑스가 0보다 클 때는 엑스, 그 밖에는 0".
    fn cases(&self, cases: &[(Phrase, Option<Phrase>)], d: usize) -> String {
        let mut parts = Vec::new();
        for (value, condition) in cases {
            let x = self.noun(value, d);
            let said = match condition {
                Some(condition) => self.phrase("case", &[("cond", &self.when(condition, d)), ("x", &x)]),
                None => self.phrase("otherwise", &[("x", &x)]),
            };
            parts.push(said.into_noun());
        }
        parts.join(", ")
    }

    fn matrix(&self, rows: &[Vec<Phrase>], d: usize) -> Ko {
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let said: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let cells = self.nouns(row, d).join(", ");
                self.phrase("matrix_row", &[("n", &(k + 1).to_string()), ("x", &cells)]).into_noun()
            })
            .collect();
        let slots = [("rows", rows.len().to_string()), ("cols", cols.to_string()), ("x", said.join("; "))];
        let slots: Vec<(&str, &str)> = slots.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.phrase("matrix", &slots)
    }
}

/// A term that is said in several parts (a product, a call, a large operator, a quotient), so
/// that in a list of "와" it would not be heard where it ends.
fn has_parts(term: &Phrase) -> bool {
    matches!(
        term,
        Phrase::Product(_)
            | Phrase::Apply(_)
            | Phrase::BigOp(_)
            | Phrase::Div { .. }
            | Phrase::Dot(..)
            | Phrase::Scale { .. }
            | Phrase::Ops { .. }
    ) || matches!(term, Phrase::Seq(parts) if parts.len() > 1)
}

/// Sentences in a row: every one but the last in its connective form.
fn join_sentences(sentences: Vec<String>) -> String {
    let count = sentences.len();
    let parts = sentences
        .into_iter()
        .enumerate()
        .map(|(k, s)| if k + 1 < count { hangul::connective(&s) } else { s });
    parts.collect::<Vec<_>>().join(", ")
}
