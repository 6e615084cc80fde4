//! Symbols with their scripts, read by the role the meaning layer gave each script (index,
//! label, range, family member, layer, mark; power, transpose, inverse), and the parts of a
//! formula that are not rows: fractions, brackets, braces with labels, environments.

use super::Shaper;
use crate::meaning::tree::{Occurrence, Script};
use crate::meaning::{kind_of_term, ScriptRole, SymbolKind, Term, TermKind};
use crate::speak::phrase::{Fence, Inverted, Name, NameClass, Phrase, SubStyle};
use crate::speak::Verbosity;
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind};

/// Words that open a condition in `cases`: `\text{if } x > 0`.
const CONDITION_WORDS: &[&str] = &["if", "when", "for", "where", "if:"];

/// Words that stand for "in every other case".
const OTHERWISE_WORDS: &[&str] = &["otherwise", "else", "elsewhere"];

impl Shaper<'_> {
    /// A symbol with the scripts that are part of it: `x_i`, `W_Q`, `d_k`, `W_i^Q`, `h^{(l)}`.
    pub(super) fn occurrence(&self, term: &Term, occurrence: &Occurrence, d: usize) -> Phrase {
        // `I_{\{S(X) \geq \gamma\}}`: the indicator of the event below it.
        if let [event] = occurrence.scripts.as_slice() {
            if crate::meaning::is_indicator_of_an_event(occurrence.base, event.term.node) {
                return Phrase::Indicator(self.shape(unfenced(&event.term), d).boxed());
            }
        }
        let mut phrase = self.name_of(term, occurrence, d);
        let primes = match &term.node.kind {
            NodeKind::Scripts { primes, .. } => *primes,
            _ => 0,
        };
        if primes > 0 {
            phrase = Phrase::Prime { base: phrase.boxed(), count: primes };
        }
        for script in &occurrence.scripts {
            phrase = self.name_script(phrase, occurrence, script, d);
        }
        phrase
    }

    /// The name of a symbol without its scripts: a letter, a run of letters the meaning layer
    /// made one name (`pos`, `PE`), an increment (`\Delta W`).
    fn name_of(&self, term: &Term, occurrence: &Occurrence, d: usize) -> Phrase {
        let NodeKind::Symbol { name, .. } = &occurrence.base.kind else {
            return self.leaf_node(occurrence.base, d);
        };
        if *name == occurrence.base_name {
            return self.leaf_node(occurrence.base, d);
        }
        if name == "Delta" {
            // An increment, `\Delta W`: said as written, one name.
            let inner = match &term.node.kind {
                NodeKind::Scripts { base, .. } => base.as_ref(),
                _ => term.node,
            };
            return Phrase::Seq(vec![self.leaf_node(occurrence.base, d), self.leaf_node(inner, d)]);
        }
        super::word(&occurrence.base_name)
    }

    /// One script that is part of a name, by its role.
    fn name_script(&self, phrase: Phrase, occurrence: &Occurrence, script: &Script, d: usize) -> Phrase {
        let base = phrase.boxed();
        match (script.role, script.above) {
            (ScriptRole::Range, _) => self.range_script(base, &script.term, d),
            (ScriptRole::Label, false) => {
                let simple = matches!(
                    script.term.node.kind,
                    NodeKind::Symbol { .. } | NodeKind::Word { .. } | NodeKind::Styled { .. }
                ) || letter_run(script.term.node).is_some();
                let style = if occurrence.kind == SymbolKind::Dimension && simple {
                    SubStyle::Joined
                } else {
                    SubStyle::Label
                };
                Phrase::Sub { base, sub: self.sub_phrase(&script.term, d).boxed(), style }
            }
            (ScriptRole::Mark, _) => {
                Phrase::Sub { base, sub: self.shape(&script.term, d).boxed(), style: SubStyle::Label }
            }
            (ScriptRole::Order, _) => {
                let order = self.shape(unparenthesised(&script.term), d).boxed();
                Phrase::OrderedDerivative { base, order }
            }
            (ScriptRole::Layer, true) => {
                // At full the parentheses are said: `m^{(t)}` is not `m^{t}`.
                let inner = match self.verbosity {
                    Verbosity::Full => &script.term,
                    _ => unparenthesised(&script.term),
                };
                let layer = self.shape(inner, d).boxed();
                if crate::meaning::names_a_layer(inner) {
                    Phrase::Layer { base, layer }
                } else {
                    Phrase::Super { base, sup: layer }
                }
            }
            // `F^{-1}(p)`: a function's name with its inverse, the inverse function applied.
            (ScriptRole::Inverse, true) if inverted(occurrence.kind) == Inverted::Function => {
                Phrase::Inverse { base, of: Inverted::Function }
            }
            (_, true) => Phrase::Super { base, sup: self.shape(&script.term, d).boxed() },
            (_, false) => {
                Phrase::Sub { base, sub: self.sub_phrase(&script.term, d).boxed(), style: SubStyle::Index }
            }
        }
    }

    /// `x_{<i}`, `y_{>t}`, `x_{\le n}`: earlier or later items.
    fn range_script(&self, base: Box<Phrase>, script: &Term, d: usize) -> Phrase {
        let TermKind::Chain { rest, .. } = &script.kind else {
            return Phrase::Sub { base, sub: self.shape(script, d).boxed(), style: SubStyle::Index };
        };
        let Some(joint) = rest.first() else { return *base };
        if let (TermKind::Chain { first, .. }, ":") =
            (&script.kind, crate::meaning::tree::infix_name(joint.op))
        {
            // `x_{1:d}`: the entries from one position through another.
            let range = Phrase::Range {
                first: self.shape(first, d).boxed(),
                last: Some(self.shape(&joint.term, d).boxed()),
            };
            return Phrase::Sub { base, sub: range.boxed(), style: SubStyle::Slice };
        }
        let style = match crate::meaning::tree::infix_name(joint.op) {
            ">" | "\\ge" | "\\geq" => SubStyle::After,
            "\\le" | "\\leq" => SubStyle::UpTo,
            _ => SubStyle::Before,
        };
        Phrase::Sub { base, sub: self.shape(&joint.term, d).boxed(), style }
    }

    /// Scripts that operate on their base or pick from it: `(QK^\top)_{ij}`, `K^\top`, `x^2`,
    /// `A^{-1}`, `\|x\|_2`, `\mathbb{R}^{n \times d}`.
    pub(super) fn scripted(
        &self,
        term: &Term,
        base: &Term,
        sub: Option<&Script>,
        sup: Option<&Script>,
        primes: u8,
        d: usize,
    ) -> Phrase {
        if let Some(dims) = self.real_space(term, sup, d) {
            return dims;
        }
        if let (Some(cond), None, true) = (sub, sup, self.is_indicator(base)) {
            return Phrase::Indicator(self.shape(unfenced(&cond.term), d).boxed());
        }
        let mut phrase = match (&base.kind, sub) {
            (TermKind::Fenced { open: Delim::DoubleBar, body }, Some(p)) => {
                Phrase::PNorm { p: self.shape(&p.term, d).boxed(), body: self.shape(body, d).boxed() }
            }
            _ => self.shape(base, d),
        };
        let sub = sub.filter(|_| !matches!(phrase, Phrase::PNorm { .. }));
        if primes > 0 {
            phrase = Phrase::Prime { base: phrase.boxed(), count: primes };
        }
        if let Some(sub) = sub {
            let entry = self.sub_phrase(&sub.term, d).boxed();
            // `\nabla_t` standing alone: the gradient taken at step t, no entry of one.
            let style = if crate::meaning::is_bare_gradient(base) { SubStyle::At } else { SubStyle::Entry };
            phrase = Phrase::Sub { base: phrase.boxed(), sub: entry, style };
        }
        match sup {
            Some(sup) => self.operation(phrase, base, sup, d),
            None => phrase,
        }
    }

    /// A superscript that operates on `phrase`: a transpose, an inverse, a mark or a power.
    pub(super) fn operation(&self, phrase: Phrase, base: &Term, sup: &Script, d: usize) -> Phrase {
        let base_phrase = phrase.boxed();
        match sup.role {
            ScriptRole::Transpose => Phrase::Transpose(base_phrase),
            ScriptRole::Inverse => Phrase::Inverse { base: base_phrase, of: inverted(kind_of_term(base)) },
            ScriptRole::Mark => Phrase::Sub {
                base: base_phrase,
                sub: self.shape(&sup.term, d).boxed(),
                style: SubStyle::Label,
            },
            ScriptRole::Power => {
                Phrase::Power { base: base_phrase, exponent: self.shape(&sup.term, d).boxed() }
            }
            ScriptRole::Ordinal => Phrase::Ordinal(base_phrase),
            _ => Phrase::Super { base: base_phrase, sup: self.shape(&sup.term, d).boxed() },
        }
    }

    /// Whether a base is the indicator's one: `\mathbb{1}`, `\mathbbm{1}`, `\mathds{1}`, `𝟙`.
    fn is_indicator(&self, base: &Term) -> bool {
        let written: String =
            base.node.span.text(self.source).chars().filter(|c| !c.is_whitespace()).collect();
        INDICATORS.contains(&written.as_str())
    }

    /// `\mathbb{R}^{n \times d}`, `\mathbb{C}^{m \times n}`: the real or complex space of those sizes.
    fn real_space(&self, term: &Term, sup: Option<&Script>, d: usize) -> Option<Phrase> {
        crate::meaning::real_space_dims(term.node)?;
        let complex = crate::meaning::is_complex_space(term.node);
        let sup = &sup?.term;
        let dims = match &sup.kind {
            TermKind::Product(factors)
                if factors
                    .iter()
                    .skip(1)
                    .all(|f| matches!(f.op, Some(InfixOp::Multiplicative(op)) if op == "\\times")) =>
            {
                factors.iter().map(|f| self.shape(&f.term, d)).collect()
            }
            _ => vec![self.shape(sup, d)],
        };
        Some(Phrase::NumberSpace { complex, dims })
    }

    /// The phrase of a subscript: `ij` and `i, j` are said one after the other, a list with a
    /// worked-out position as a list; three or more italic letters spell a word (`p_{data}`).
    pub(super) fn sub_phrase(&self, sub: &Term, d: usize) -> Phrase {
        if let Some(word) = letter_run(sub.node) {
            return super::word(&word);
        }
        // `PE_{(pos, 2i)}`: positions listed in parentheses below a name are the positions, no
        // tuple. At full, where brackets are said, they are kept (`x_{(t-a)}` reads apart from
        // `x_{t-a}`).
        let sub = match &sub.kind {
            TermKind::Fenced { open: Delim::Paren, body } if self.verbosity != Verbosity::Full => {
                body.as_ref()
            }
            _ => sub,
        };
        match &sub.kind {
            TermKind::Product(factors) if factors.iter().skip(1).all(|f| f.op == Some(&InfixOp::Juxt)) => {
                Phrase::Seq(factors.iter().map(|f| self.shape(&f.term, d)).collect())
            }
            TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) => {
                let parts = std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term));
                // `X_{i+1, j}`: positions worked out are said as a list ("i plus 1 and j"), so
                // that where one ends is heard.
                let worked_out =
                    parts.clone().any(|t| t.occurrence().is_none() && !matches!(t.kind, TermKind::Number));
                let phrases = parts.map(|t| self.shape(t, d)).collect();
                if worked_out {
                    Phrase::List(phrases)
                } else {
                    Phrase::Seq(phrases)
                }
            }
            _ => self.shape(sub, d),
        }
    }

    /// A bracketed group `term` that is no argument list (opened by `open`, holding `body`), by
    /// its delimiters; a tuple and an inner product as the meaning reads them ([`Term::is_tuple`],
    /// [`Term::inner_product_sides`]).
    pub(super) fn fenced(&self, term: &Term, open: Delim, body: &Term, d: usize) -> Phrase {
        // An interval (`[0, 1)`, `t \in [0, T]`) is the meaning layer's to find: it is no
        // fenced group by then.
        let inner = || self.shape(body, d).boxed();
        match open {
            Delim::Paren if term.is_tuple() => Phrase::Fence { fence: Fence::Tuple, body: inner() },
            Delim::Paren | Delim::Bracket => {
                // A group is kept where it is heard: around a sum always, around anything at
                // full (where brackets are said).
                let fence = if open == Delim::Bracket { Fence::Bracket } else { Fence::Group };
                match self.shape(body, d) {
                    Phrase::Ops { first, rest, .. } => {
                        let ops = Phrase::Ops { first, rest, nested: true };
                        Phrase::Fence { fence, body: ops.boxed() }
                    }
                    other if self.verbosity == Verbosity::Full => {
                        Phrase::Fence { fence, body: other.boxed() }
                    }
                    other => other,
                }
            }
            Delim::DoubleBar => Phrase::Fence { fence: Fence::Norm, body: inner() },
            Delim::Bar if kind_of_term(body) == SymbolKind::Matrix => {
                Phrase::Fence { fence: Fence::Det, body: inner() }
            }
            // `|\mathcal{A}|`, `|P(i)|`: the bars of a set count its members.
            Delim::Bar if kind_of_term(body) == SymbolKind::Set => {
                Phrase::Fence { fence: Fence::Cardinality, body: inner() }
            }
            Delim::Bar => Phrase::Fence { fence: Fence::Abs, body: inner() },
            Delim::Floor => Phrase::Fence { fence: Fence::Floor, body: inner() },
            Delim::Ceil => Phrase::Fence { fence: Fence::Ceil, body: inner() },
            Delim::Brace => self.set(body, d),
            Delim::Angle => match term.inner_product_sides() {
                Some((a, b)) => Phrase::Inner(self.shape(a, d).boxed(), self.shape(b, d).boxed()),
                None => self.shape(body, d),
            },
            _ => self.shape(body, d),
        }
    }

    /// `\{ … \}`: a set of elements, or a set builder `\{x \mid x > 0\}`.
    fn set(&self, body: &Term, d: usize) -> Phrase {
        if let TermKind::Chain { first, rest } = &body.kind {
            if let Some((bar, more)) = rest.split_first() {
                if matches!(&bar.op, InfixOp::Relation(r) if r == "\\mid" || r == ":") {
                    let cond = match more {
                        [] => self.shape(&bar.term, d),
                        joints => Phrase::Relation {
                            first: self.shape(&bar.term, d).boxed(),
                            rest: joints
                                .iter()
                                .map(|j| (super::op_name(j.op), self.shape(&j.term, d)))
                                .collect(),
                        },
                    };
                    return Phrase::SetBuilder { x: self.shape(first, d).boxed(), cond: cond.boxed() };
                }
            }
        }
        Phrase::Fence { fence: Fence::Set, body: self.shape(body, d).boxed() }
    }

    /// `\underbrace{body}_{label}`: a shape label reads "of shape n by d".
    pub(super) fn annotated(&self, body: &Term, label: Option<&Term>, d: usize) -> Phrase {
        let body = self.shape(body, d);
        let Some(label) = label else { return body };
        let label = self.shape(label, d);
        let shape = matches!(label, Phrase::Shape(_));
        Phrase::Annotated { body: body.boxed(), label: label.boxed(), shape }
    }

    /// An environment or top-level rows.
    pub(super) fn rows(&self, env: Option<&str>, rows: &[Vec<Term>], d: usize) -> Phrase {
        let env = env.unwrap_or("").trim_end_matches('*');
        if env.ends_with("matrix") || env == "array" {
            let cells = |row: &Vec<Term>| row.iter().map(|c| self.shape(c, d)).collect();
            return Phrase::Matrix(rows.iter().map(cells).collect());
        }
        if env.ends_with("cases") {
            return Phrase::Cases(rows.iter().map(|row| self.case(row, d)).collect());
        }
        let mut statements: Vec<Phrase> = rows.iter().map(|row| self.row(row, d)).collect();
        match statements.len() {
            1 => statements.pop().unwrap_or(Phrase::Empty),
            _ => Phrase::Statements(statements),
        }
    }

    /// One row of `cases`: the value and its condition (`None`: otherwise).
    fn case(&self, row: &[Term], d: usize) -> (Phrase, Option<Phrase>) {
        let mut cells = row.iter();
        let value = cells.next().map_or(Phrase::Empty, |c| self.shape(c, d));
        let condition = cells.next().map(|c| self.shape(c, d)).and_then(strip_condition_word);
        (value, condition)
    }

    /// One row of aligned cells: `a &= b` is the relation `a = b`.
    fn row(&self, row: &[Term], d: usize) -> Phrase {
        let mut joined = Phrase::Empty;
        for cell in row {
            joined = match (joined, self.shape(cell, d)) {
                (Phrase::Empty, next) => next,
                (Phrase::Relation { first, mut rest }, Phrase::Relation { first: empty, rest: more })
                    if *empty == Phrase::Empty =>
                {
                    rest.extend(more);
                    Phrase::Relation { first, rest }
                }
                (left, Phrase::Relation { first: empty, rest }) if *empty == Phrase::Empty => {
                    Phrase::Relation { first: left.boxed(), rest }
                }
                // `a \leq& b`: the relation sign ends the left cell, its right side is the next.
                (Phrase::Relation { first, mut rest }, next)
                    if matches!(rest.last(), Some((_, Phrase::Empty))) =>
                {
                    if let Some((_, rhs)) = rest.last_mut() {
                        *rhs = next;
                    }
                    Phrase::Relation { first, rest }
                }
                (left, next) => Phrase::Seq(vec![left, next]),
            };
        }
        joined
    }
}

/// Three or more italic letters side by side spell a word, not a product: `p_{data}`,
/// `d_{model}`, `PE_{pos}`.
pub(super) fn letter_run(node: &Node) -> Option<String> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    if rest.len() < 2 || rest.iter().any(|l| l.op != InfixOp::Juxt) {
        return None;
    }
    let letters = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
    letters
        .map(|n| match &n.kind {
            NodeKind::Symbol { name, font: Font::Normal } if is_lower_letter(name) => Some(name.as_str()),
            _ => None,
        })
        .collect::<Option<Vec<&str>>>()
        .map(|letters| letters.concat())
}

/// How papers write the indicator's one.
const INDICATORS: &[&str] = &["\\mathbb{1}", "\\mathbb1", "\\mathbbm{1}", "\\mathds{1}", "\\mathbf{1}", "𝟙"];

/// A condition without the brackets around it: `k \neq i` of `[k \neq i]`.
fn unfenced<'t, 'n>(term: &'t Term<'n>) -> &'t Term<'n> {
    match &term.kind {
        TermKind::Fenced { body, .. } => body,
        _ => term,
    }
}

/// What a layer script holds inside its parentheses: `l+1` of `h^{(l+1)}`.
fn unparenthesised<'t, 'n>(script: &'t Term<'n>) -> &'t Term<'n> {
    match &script.kind {
        TermKind::Fenced { open: Delim::Paren, body } => body,
        _ => script,
    }
}

/// The condition of a case without its leading "if"; `None` for "otherwise".
fn strip_condition_word(condition: Phrase) -> Option<Phrase> {
    let word_is = |p: &Phrase, words: &[&str]| matches!(p, Phrase::Name(Name { key, class: NameClass::Word }) if words.contains(&key.trim()));
    let lead_is = |clauses: &[(Option<String>, Phrase)], words: &[&str]| {
        clauses
            .first()
            .and_then(|(w, _)| w.as_deref())
            .is_some_and(|w| words.contains(&w.to_lowercase().as_str()))
    };
    match condition {
        p if word_is(&p, OTHERWISE_WORDS) => None,
        Phrase::Prose(clauses) if lead_is(&clauses, OTHERWISE_WORDS) => None,
        // `\text{if } x > 0`: the clause after the word.
        Phrase::Prose(mut clauses) if lead_is(&clauses, CONDITION_WORDS) => match clauses.len() {
            1 => clauses.pop().map(|(_, clause)| clause),
            _ => {
                if let Some(first) = clauses.first_mut() {
                    first.0 = None;
                }
                Some(Phrase::Prose(clauses))
            }
        },
        Phrase::Product(factors) | Phrase::Seq(factors)
            if factors.first().is_some_and(|f| word_is(f, CONDITION_WORDS)) =>
        {
            let mut rest: Vec<Phrase> = factors.into_iter().skip(1).collect();
            Some(if rest.len() == 1 { rest.pop().unwrap_or(Phrase::Empty) } else { Phrase::Product(rest) })
        }
        Phrase::Relation { first, rest } => {
            let first = strip_condition_word(*first).unwrap_or(Phrase::Empty);
            Some(Phrase::Relation { first: first.boxed(), rest })
        }
        other => Some(other),
    }
}

fn is_lower_letter(name: &str) -> bool {
    name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase())
}

/// What a `-1` above a symbol of this kind inverts: a matrix, a function (a law's too) or a number.
fn inverted(kind: SymbolKind) -> Inverted {
    match kind {
        SymbolKind::Matrix => Inverted::Matrix,
        SymbolKind::Function | SymbolKind::Distribution => Inverted::Function,
        _ => Inverted::Number,
    }
}
