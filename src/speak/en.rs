//! English readings: a [`Phrase`] put into English words.
//!
//! English reads a formula from the outside in — "softmax of …, times V", "the sum over i
//! from 1 to N of …" — so each structure is one template around its parts. A sentence (a
//! relation or a definition) starts with a capital when its first word is a word, not a
//! symbol, and ends with a full stop.

use super::keys;
use super::phrase::{Apply, BigOp, Fence, Name, NameClass, Phrase};
use super::quantify;
use super::speaker::Speaker;
use super::template::fill;
use super::vocab::{Template, Vocabulary};
use super::Verbosity;
use crate::lang::Lang;

/// Deeper phrases than this read as elided: a guard for hand-built phrases only. A phrase
/// nests at most twice as deep as the shaper goes ([`super::MAX_DEPTH`]: a role or a sign
/// around a part).
const MAX_DEPTH: usize = 2 * super::MAX_DEPTH;

/// Where the rest of a product goes while its nested template is filled (no reading holds it:
/// control characters never reach a reading).
const HOLE: &str = "\u{1}";

/// Words left at the end of a template whose last slot is empty ("the sum over i of ").
const DANGLING: &[&str] = &[" with respect to", " of"];

/// The English reading of a whole formula.
pub fn render(phrase: &Phrase, vocab: &Vocabulary) -> String {
    render_at(phrase, vocab, Verbosity::Default)
}

/// The English reading of a whole formula at a [`Verbosity`].
pub fn render_at(phrase: &Phrase, vocab: &Vocabulary, verbosity: Verbosity) -> String {
    let text = Reader { vocab, verbosity }.say(phrase, 0);
    if !phrase.is_sentence() || text.is_empty() {
        return text;
    }
    format!("{}.", capitalize(&text))
}

/// Capitalises the first word when it is a lower-case word of two letters or more ("the",
/// "attention"); a symbol such as "x" keeps its case.
fn capitalize(text: &str) -> String {
    let first_word = text.split(' ').next().unwrap_or("");
    let is_word = first_word.len() >= 2 && first_word.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if is_word => c.to_uppercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

struct Reader<'a> {
    vocab: &'a Vocabulary,
    verbosity: Verbosity,
}

impl Speaker for Reader<'_> {
    type Said = String;
    const LANG: Lang = Lang::En;

    fn vocab(&self) -> &Vocabulary {
        self.vocab
    }

    fn fill(&self, key: &str, slots: &[(&str, &str)]) -> String {
        self.phrase(key, slots)
    }

    fn text(&self, phrase: &Phrase, d: usize) -> String {
        self.say(phrase, d)
    }

    fn dimensions(&self, dims: &[Phrase], d: usize) -> String {
        self.shape(dims, d)
    }

    fn fill_text(&self, key: &str, slots: &[(&str, &str)]) -> String {
        self.phrase(key, slots)
    }

    fn join_and(&self, items: Vec<String>) -> String {
        self.and_list(items)
    }
}

impl Reader<'_> {
    fn says(&self, phrases: &[Phrase], depth: usize) -> Vec<String> {
        phrases.iter().map(|p| self.say(p, depth)).filter(|s| !s.is_empty()).collect()
    }

    /// A template filled with `slots`.
    fn phrase(&self, key: &str, slots: &[(&str, &str)]) -> String {
        let text = self.raw_phrase(key, slots);
        // "the sum over i of " with nothing after it: drop the dangling "of".
        let mut trimmed = text.trim_end();
        for dangling in DANGLING {
            trimmed = trimmed.strip_suffix(dangling).unwrap_or(trimmed);
        }
        trimmed.to_string()
    }

    fn raw_phrase(&self, key: &str, slots: &[(&str, &str)]) -> String {
        match self.vocab.phrase_at(Lang::En, key, self.verbosity) {
            Some(Template::Text(text)) => fill(text, slots),
            Some(Template::Clause { lead, verb, .. }) => fill(&format!("{lead}{verb}"), slots),
            None => slots.iter().map(|(_, v)| *v).filter(|v| !v.is_empty()).collect::<Vec<_>>().join(" "),
        }
    }

    fn one(&self, key: &str, x: &Phrase, d: usize) -> String {
        self.phrase(key, &[("x", &self.say(x, d))])
    }

    fn two(&self, key: &str, a: &str, pa: &Phrase, b: &str, pb: &Phrase, d: usize) -> String {
        self.phrase(key, &[(a, &self.say(pa, d)), (b, &self.say(pb, d))])
    }

    /// "A, B and C"; "A, B, and C" when an item has an "and" of its own (in two items, the first), so
    /// that "swish of the product of x and W, and the product of x and V" is heard as two items.
    fn and_list(&self, mut items: Vec<String>) -> String {
        let Some(last) = items.pop() else { return String::new() };
        if items.is_empty() {
            return last;
        }
        let and = self.phrase("list_and", &[("a", ""), ("b", "")]);
        let inner = format!(" {} ", and.trim());
        // In three items or more, an "and" in the last one pauses too: "clip of r of theta, the
        // quantity 1 minus epsilon, and the sum of 1 and epsilon".
        let last_has_and = items.len() >= 2 && last.contains(&inner);
        let pause = last_has_and || items.iter().any(|item| item.contains(&inner));
        let key = if pause { "list_and_pause" } else { "list_and" };
        self.phrase(key, &[("a", &items.join(", ")), ("b", &last)])
    }

    fn say(&self, phrase: &Phrase, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return self.phrase("elided", &[]);
        }
        let d = depth + 1;
        match phrase {
            Phrase::Name(name) => self.name(name),
            Phrase::Number(text) | Phrase::Text(text) => text.clone(),
            Phrase::Empty => String::new(),
            Phrase::Elided => self.phrase("elided", &[]),
            Phrase::Dots => self.phrase("dots", &[]),
            Phrase::Seq(parts) => self.says(parts, d).join(" "),
            Phrase::Shape(dims) => self.shape(dims, d),
            Phrase::Sub { base, sub, style } => self.two(keys::sub_key(*style, sub), "x", base, "i", sub, d),
            Phrase::Super { base, sup } => self.two(keys::super_key(sup), "x", base, "i", sup, d),
            Phrase::Layer { base, layer } => self.two("layer", "x", base, "i", layer, d),
            Phrase::Evaluated { body, at, to: None } => {
                let (x, a) = (self.text(body, d), self.point_text(at, d));
                self.phrase("evaluated_at", &[("x", &x), ("a", &a)])
            }
            Phrase::Evaluated { body, at, to: Some(to) } => {
                let (x, a, b) = (self.say(body, d), self.say(at, d), self.say(to, d));
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
            Phrase::Ordinal(x) => {
                // "the i-th", not "the the sum of 2 j and 1-th".
                let said = self.say(x, d);
                self.phrase("ordinal", &[("x", said.strip_prefix("the ").unwrap_or(&said))])
            }
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
            Phrase::Neg(x) => self.one(if x.is_atomic() { "minus" } else { "negate" }, x, d),
            Phrase::Sign { sign, x } => self.one(keys::sign_key(*sign), x, d),
            Phrase::Relation { first, rest } => self.relation(first, rest, d),
            Phrase::Definition { name, params, body } => self.definition(name, params, body, d),
            Phrase::Role { role, x } => self.role(role, x, d),
            Phrase::Statements(items) => self.statements(items, d),
            Phrase::Prose(clauses) => self.prose(clauses, d),
            Phrase::List(items) => self.and_list(self.says(items, d)),
            Phrase::Range { first, last: Some(last) } => match first.as_ref() {
                Phrase::List(items) => {
                    let (x, b) = (self.says(items, d).join(", "), self.say(last, d));
                    self.phrase("list_through", &[("x", &x), ("b", &b)])
                }
                _ => self.two("range", "a", first, "b", last, d),
            },
            Phrase::Range { first, last: None } => match first.as_ref() {
                Phrase::List(items) => self.phrase("etc", &[("x", &self.says(items, d).join(", "))]),
                other => self.one("etc", other, d),
            },
            Phrase::Fence { fence, body } => self.fence(*fence, body, d),
            Phrase::PNorm { p, body } => self.two("p_norm", "p", p, "x", body, d),
            Phrase::SetBuilder { x, cond } => self.set_builder(x, cond, d),
            Phrase::Mapping { f, from, to } => {
                let (f, a, b) = (self.say(f, d), self.say(from, d), self.say(to, d));
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
            Phrase::Cases(cases) => self.cases(cases, d),
            Phrase::Matrix(rows) => self.matrix(rows, d),
            Phrase::Indicator(x) => self.one("indicator", x, d),
            Phrase::Where { body, name, value } => {
                let (body, name, value) = (self.say(body, d), self.say(name, d), self.say(value, d));
                self.phrase("where", &[("x", &body), ("name", &name), ("value", &value)])
            }
            Phrase::Factorial(x) => self.one("factorial", x, d),
            Phrase::Binom(n, k) => self.two("binom", "n", n, "k", k, d),
        }
    }

    /// A symbol or a name in English: Q, theta, infinity, softmax.
    fn name(&self, name: &Name) -> String {
        let key = name.key.as_str();
        let found = match name.class {
            NameClass::Letter => Some(key.to_string()),
            NameClass::Capital => Some(self.phrase("capital", &[("x", key)])),
            NameClass::Greek => self.vocab.greek.get(key).map(|w| w.en.clone()),
            NameClass::Symbol => self.vocab.symbols.get(key).map(|w| w.en.clone()),
            NameClass::Word => self.vocab.functions.get(key).map(|w| w.en.clone()),
            NameClass::Blackboard => self.vocab.blackboard.get(key).map(|w| w.en.clone()),
            NameClass::Calligraphic => Some(self.phrase("calligraphic", &[("x", key)])),
        };
        found.unwrap_or_else(|| unknown_word(key))
    }

    fn shape(&self, dims: &[Phrase], d: usize) -> String {
        let by = format!(" {} ", self.phrase("by", &[]));
        self.says(dims, d).join(&by)
    }

    fn prime(&self, base: &Phrase, count: u8, d: usize) -> String {
        let mut text = self.say(base, d);
        for _ in 0..count {
            text = self.phrase("prime", &[("x", &text)]);
        }
        text
    }

    fn power(&self, base: &Phrase, exponent: &Phrase, d: usize) -> String {
        // The power of an operation's result is said before it: "the square of the expectation
        // of X", never "the expectation of X squared", which is the expectation of X².
        // So is the power of a product or a sum: "the square of the product of a and b".
        let result = matches!(
            base,
            Phrase::Expectation { .. }
                | Phrase::Apply(_)
                | Phrase::BigOp(_)
                | Phrase::Gradient { .. }
                | Phrase::Product(_)
                | Phrase::Seq(_)
                | Phrase::Div { .. }
        ) || matches!(base, Phrase::Fence { fence: Fence::Group, body } if !body.is_atomic());
        match exponent {
            Phrase::Number(n) if n == "2" && result => self.one("square_of", base, d),
            Phrase::Number(n) if n == "3" && result => self.one("cube_of", base, d),
            Phrase::Number(n) if n == "2" => self.one("square", base, d),
            Phrase::Number(n) if n == "3" => self.one("cube", base, d),
            _ if result => self.two("power_of_result", "x", base, "n", exponent, d),
            _ => {
                // "x to the n", but "x to the power of the sum of l and 1": never "to the the".
                // An exponent of more than one symbol is closed: "e to the x plus 1 power" is
                // e^{x+1}, "e to the x, plus 1" would be e^x + 1.
                let n = self.say(exponent, d);
                let closed = if exponent.is_compound_script() { "_closed" } else { "" };
                let key = if n.starts_with("the ") { "power_of" } else { "power" };
                self.phrase(&format!("{key}{closed}"), &[("x", &self.say(base, d)), ("n", &n)])
            }
        }
    }

    /// "the normal distribution with mean mu and variance sigma squared"; at a point, "the
    /// density at x of the normal distribution with …".
    fn law(&self, key: &str, at: Option<&Phrase>, params: &[(bool, Phrase)], d: usize) -> String {
        let Some(words) = self.vocab.laws.get(key) else { return String::new() };
        let said: Vec<String> = words
            .params
            .iter()
            .zip(params)
            .map(|(name, (matrix, value))| {
                self.phrase("law_param", &[("p", name.get(Lang::En, *matrix)), ("v", &self.say(value, d))])
            })
            .collect();
        let params = self.and_list(said);
        match at {
            Some(x) => {
                self.phrase("law_at", &[("name", &words.en), ("x", &self.say(x, d)), ("params", &params)])
            }
            None => self.phrase("law", &[("name", &words.en), ("params", &params)]),
        }
    }

    /// "the K L divergence of P from Q".
    fn divergence(&self, func: &Phrase, a: &Phrase, b: &Phrase, d: usize) -> String {
        let (f, a, b) = (self.say(func, d), self.say(a, d), self.say(b, d));
        // `q_\phi(z \mid x)` first: a comma marks where the first distribution ends.
        let key = if a.contains(" of ") { "divergence_long" } else { "divergence" };
        self.phrase(key, &[("f", &f), ("a", &a), ("b", &b)])
    }

    fn sqrt(&self, index: Option<&Phrase>, body: &Phrase, d: usize) -> String {
        match index {
            None => self.one("sqrt", body, d),
            Some(Phrase::Number(n)) if n == "3" => self.one("cube_root", body, d),
            Some(n) => self.two("root", "x", body, "n", n, d),
        }
    }

    /// "A divided by B"; a product below the bar is said whole ("divided by the product of p of
    /// x and p of y"), never "divided by p of x, times p of y", which divides by p of x alone.
    fn divide(&self, num: &Phrase, den: &Phrase, d: usize) -> String {
        let den = match den {
            Phrase::Product(factors) => {
                self.phrase("product", &[("x", &self.and_list(self.says(factors, d)))])
            }
            _ => self.say(den, d),
        };
        // A numerator of several parts is closed: "the sum of a and b, all divided by c" is
        // (a + b)/c, where "the sum of a and b divided by c" could be a + b/c.
        let several = matches!(
            num,
            Phrase::Product(_)
                | Phrase::Ops { .. }
                | Phrase::Div { .. }
                | Phrase::Apply(_)
                | Phrase::BigOp(_)
        ) || matches!(num, Phrase::Fence { .. } | Phrase::Dot(..) | Phrase::Neg(_));
        let key = if several { "divide_all" } else { "divide" };
        self.phrase(key, &[("num", &self.say(num, d)), ("den", &den)])
    }

    /// "the product of A and B"; after an operation, "softmax of X, times V".
    /// A product: "the product of a, b and c"; each leading operation (a call, a large operator,
    /// a quotient) is said first and the rest after it ("tanh of u, times v"). The nested
    /// "first, times the rest" is built as prefixes and suffixes around the innermost rest, so a
    /// row of n operations costs time linear in what is said, not n copies of a growing rest.
    fn product(&self, factors: &[Phrase], d: usize) -> String {
        let leading =
            factors.iter().take_while(|p| leads_product(p)).count().min(factors.len().saturating_sub(1));
        let (operations, tail) = factors.split_at(leading);
        let innermost = match tail {
            [one] if leading > 0 => self.say(one, d),
            _ => self.phrase("product", &[("x", &self.and_list(self.says(tail, d)))]),
        };
        if operations.is_empty() {
            return innermost;
        }
        let mut prefix = String::new();
        let mut suffixes = Vec::with_capacity(operations.len());
        for first in operations {
            let template = self.raw_phrase("product_then", &[("first", &self.say(first, d)), ("x", HOLE)]);
            let (before, after) = template.split_once(HOLE).unwrap_or((template.as_str(), ""));
            prefix.push_str(before);
            suffixes.push(after.to_string());
        }
        prefix.push_str(&innermost);
        suffixes.iter().rev().for_each(|after| prefix.push_str(after));
        prefix.trim_end().to_string()
    }

    fn ops(&self, first: &Phrase, rest: &[(String, Phrase)], nested: bool, d: usize) -> String {
        if let Some(key) = keys::whole_product(rest) {
            let items = std::iter::once(first).chain(rest.iter().map(|(_, p)| p));
            let said = items.map(|p| self.say(p, d)).collect();
            return self.phrase(key, &[("x", &self.and_list(said))]);
        }
        if nested && rest.iter().all(|(op, _)| op == "+") {
            let items = std::iter::once(first).chain(rest.iter().map(|(_, p)| p));
            let said = items.map(|p| self.say(p, d)).collect();
            return self.phrase("sum_of", &[("x", &self.and_list(said))]);
        }
        if let (true, [(op, b)]) = (nested, rest) {
            if op == "-" {
                return self.two("difference", "a", first, "b", b, d);
            }
        }
        let mut words = vec![self.say(first, d)];
        let mut previous = first;
        for (op, operand) in rest {
            let word = self
                .vocab
                .operators
                .get(op)
                .map_or_else(|| op.trim_start_matches('\\').to_string(), |w| w.en.clone());
            // After a term of several parts, a pause: "the product of a and b, plus c" is ab + c,
            // where "the product of a and b plus c" could be a(b + c).
            words.push(if pauses_after(previous) { format!(", {word}") } else { word });
            words.push(self.say(operand, d));
            previous = operand;
        }
        let text =
            words.into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ").replace(" , ", ", ");
        if nested {
            return self.phrase("group", &[("x", &text)]);
        }
        text
    }

    /// "softmax of X", "p theta of x given y", "softmax over j of …".
    fn apply(&self, apply: &Apply, d: usize) -> String {
        let f = self.say(&apply.func, d);
        let x = match apply.args.as_slice() {
            // "cosine of the product of t divided by T and pi": the row said whole, since "cosine
            // of the quantity t divided by T, times pi" is also cos(t/T)·π.
            [Phrase::Product(factors)] if factors.first().is_some_and(leads_product) => {
                self.phrase("product", &[("x", &self.and_list(self.says(factors, d)))])
            }
            _ => self.and_list(self.says(&apply.args, d)),
        };
        if let Some(given) = &apply.given {
            let key = if apply.probability { "probability" } else { "given" };
            return self.phrase(key, &[("given", &self.say(given, d)), ("x", &x), ("f", &f)]);
        }
        // One argument that is an operation is announced ("cosine of the quantity t divided by
        // T, times pi") unless its words already open it ("the sum of …").
        let grouped = matches!(apply.args.as_slice(), [arg] if opens_quietly(arg)) && !x.starts_with("the ");
        let key = if grouped { "apply_group" } else { "apply" };
        match &apply.over {
            Some(over) => self.phrase("over", &[("over", &self.over_text(over, d)), ("x", &x), ("f", &f)]),
            None => self.phrase(key, &[("x", &x), ("f", &f)]),
        }
    }

    /// A sum, product, integral, mean, or another large operator.
    fn big_op(&self, big: &BigOp, d: usize) -> String {
        let part = |p: &Option<Box<Phrase>>| p.as_deref().map(|p| self.say(p, d)).unwrap_or_default();
        let (x, var, from, to) = (part(&big.body), part(&big.var), part(&big.from), part(&big.to));
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
            None => op,
        }
    }

    fn op_word(&self, op: &str) -> String {
        let from_functions = self.vocab.functions.get(op).map(|w| w.en.clone());
        let from_big = self.vocab.big_operators.get(op).map(|w| w.en.clone());
        from_functions.or(from_big).unwrap_or_else(|| op.to_string())
    }

    /// "A is B, which is C".
    fn relation(&self, first: &Phrase, rest: &[(String, Phrase)], d: usize) -> String {
        let again = self.phrase("again", &[]);
        let mut sentences = Vec::new();
        for (k, (relation, rhs)) in rest.iter().enumerate() {
            let a = if k == 0 { self.say(first, d) } else { again.clone() };
            let template = self.vocab.relations.get(relation).map_or_else(
                || format!("{{a}} {} {{b}}", relation.trim_start_matches('\\')),
                |w| w.en.clone(),
            );
            let filled = fill(&template, &[("a", &a), ("b", &self.say(rhs, d))]);
            // A side left empty (`&\approx c`, `a \leq& b`) leaves no gap in the sentence.
            sentences.push(filled.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        sentences.join(", ")
    }

    fn definition(&self, name: &Phrase, params: &[Phrase], body: &Phrase, d: usize) -> String {
        let params = self.and_list(self.says(params, d));
        self.phrase(
            "definition",
            &[("params", &params), ("name", &self.say(name, d)), ("body", &self.say(body, d))],
        )
    }

    fn role(&self, role: &str, x: &Phrase, d: usize) -> String {
        let word = self.vocab.roles.get(role).map(|w| w.en.clone()).unwrap_or_default();
        self.phrase("role", &[("role", &word), ("x", &self.say(x, d))])
    }

    /// "Q is in …, K is in …, and V is in …".
    fn statements(&self, items: &[Phrase], d: usize) -> String {
        let mut said = self.says(items, d);
        if said.len() >= 2 {
            if let Some(last) = said.last_mut() {
                *last = format!("and {last}");
            }
        }
        said.join(", ")
    }

    /// Clauses joined by words of prose: "the norm of x is greater than 0, for all x is not equal
    /// to 0" (the comma marks where a clause ends).
    fn prose(&self, clauses: &[(Option<String>, Phrase)], d: usize) -> String {
        let parts = clauses.iter().map(|(words, clause)| {
            let quantifier = words.as_deref().and_then(|w| quantify::template(self.vocab, w, Lang::En));
            if let Some(template) = quantifier {
                return quantify::bound(self.vocab, Lang::En, template, clause, |p| self.say(p, d));
            }
            let words = words.as_deref().map(|w| self.vocab.prose_words(w, Lang::En));
            let said = self.say(clause, d);
            words
                .into_iter()
                .chain(Some(said.as_str()))
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        });
        parts.filter(|p| !p.is_empty()).collect::<Vec<_>>().join(", ")
    }

    fn fence(&self, fence: Fence, body: &Phrase, d: usize) -> String {
        let key = keys::fence_key_of(fence, body);
        // Inside brackets said aloud (full), a sum is said as written: "open paren a plus b
        // close paren".
        match body {
            Phrase::Ops { first, rest, nested: true } if self.verbosity == Verbosity::Full => {
                let flat = self.ops(first, rest, false, d);
                self.phrase(key, &[("x", &flat)])
            }
            _ => self.one(key, body, d),
        }
    }

    fn differential(&self, partial: bool, x: &Phrase, d: usize) -> String {
        let sign = if partial {
            self.vocab.symbols.get("partial").map_or("partial", |w| w.en.as_str())
        } else {
            "d"
        };
        format!("{sign} {}", self.say(x, d))
    }

    fn accent(&self, accent: &str, body: &Phrase, d: usize) -> String {
        let x = self.say(body, d);
        match self.vocab.accents.get(accent) {
            Some(words) => fill(&words.en, &[("x", &x)]),
            None => format!("{x} {accent}"),
        }
    }

    /// "the set of x such that x is greater than 0".
    fn set_builder(&self, x: &Phrase, cond: &Phrase, d: usize) -> String {
        self.two("set_builder", "x", x, "cond", cond, d)
    }

    /// "x if x is greater than 0, 0 otherwise".
    fn cases(&self, cases: &[(Phrase, Option<Phrase>)], d: usize) -> String {
        let mut parts = Vec::new();
        for (value, condition) in cases {
            let x = self.say(value, d);
            parts.push(match condition {
                Some(condition) => self.phrase("case", &[("cond", &self.say(condition, d)), ("x", &x)]),
                None => self.phrase("otherwise", &[("x", &x)]),
            });
        }
        parts.join(", ")
    }

    fn matrix(&self, rows: &[Vec<Phrase>], d: usize) -> String {
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let said: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let cells = self.says(row, d).join(", ");
                self.phrase("matrix_row", &[("n", &(k + 1).to_string()), ("x", &cells)])
            })
            .collect();
        let (r, c, x) = (rows.len().to_string(), cols.to_string(), said.join("; "));
        self.phrase("matrix", &[("rows", &r), ("cols", &c), ("x", &x)])
    }
}

/// Whether a factor is an operation said before the rest of its product ("tanh of u, times v").
fn leads_product(p: &Phrase) -> bool {
    matches!(p, Phrase::Apply(_) | Phrase::BigOp(_) | Phrase::Div { .. })
}

/// Whether a term of a sum is long enough that the operator after it needs a pause.
fn pauses_after(term: &Phrase) -> bool {
    // `\gamma \odot \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta`: "…, plus beta", not "the
    // sum of sigma squared and epsilon plus beta".
    matches!(
        term,
        Phrase::Product(_)
            | Phrase::Div { .. }
            | Phrase::Apply(_)
            | Phrase::BigOp(_)
            | Phrase::Ops { .. }
            | Phrase::Sqrt { .. }
            | Phrase::Dot(..)
            | Phrase::Expectation { .. }
    )
}

/// Whether an argument is an operation whose start the words do not mark (a division, a row of
/// factors), so that "of" needs "the quantity".
fn opens_quietly(arg: &Phrase) -> bool {
    matches!(arg, Phrase::Div { .. } | Phrase::Product(_) | Phrase::Scale { .. })
        || matches!(arg, Phrase::Seq(parts) if parts.len() > 1)
}

/// A name the vocabulary does not know: an acronym spelled out (FFN → "F F N", IoU → "I O U"), a
/// camel-case word split and lower-cased (MultiHead → "multi head"), anything else as written.
fn unknown_word(key: &str) -> String {
    let acronym = key.len() <= 5 && key.len() > 1 && key.chars().all(|c| c.is_ascii_uppercase());
    // `IoU`, `GIoU`: a capital standing alone after small letters marks an acronym written with
    // some letters small, spelled out as one.
    let spelled = key.len() <= 6
        && key.chars().all(|c| c.is_ascii_alphabetic())
        && key
            .as_bytes()
            .windows(2)
            .any(|w| matches!(w, [a, b] if a.is_ascii_lowercase() && b.is_ascii_uppercase()))
        && key.ends_with(|c: char| c.is_ascii_uppercase());
    if acronym || spelled {
        return key.chars().map(|c| c.to_ascii_uppercase().to_string()).collect::<Vec<_>>().join(" ");
    }
    let mut out = String::with_capacity(key.len() + 4);
    let mut previous_lower = false;
    for c in key.chars() {
        if c.is_ascii_uppercase() && previous_lower {
            out.push(' ');
        }
        previous_lower = c.is_ascii_lowercase();
        out.push(c);
    }
    if out.contains(' ') {
        out.to_lowercase()
    } else {
        out
    }
}
