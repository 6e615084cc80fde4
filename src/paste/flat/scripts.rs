//! More scripts that pdftotext flattens within a line, read back by [`Scan`]: a parenthesized
//! index set right after its letter (`W(1)`, `x(i)`, `e(k)` for W^{(1)}, x^{(i)}, e^{(k)}), a
//! subscript glued after an accented letter (`ŷui` for ŷ_{ui}), a square set beside a glued
//! index (`gt2`, `x2i` for g_t², x_i²), a factor glued to a name (`aVar(X)` for a Var(X)) and
//! an expectation's subscript with the spaces of italic correction in it (`EY ∼P (Y ) [` for
//! E_{Y∼P(Y)}[). Each reading is a warning.

use super::{is_capital, run_length, Scan, SCRIPT_CHARACTERS, TIGHT_SIGNS};
use crate::meaning::notation::{has, Notation};
use crate::syntax::error::PdfWhy;

/// The longest parenthesized index, in characters, read as a superscript (`(t+j)`, `(L−1)`).
const INDEX_CHARACTERS: usize = 5;

impl Scan<'_> {
    /// Whether `c` is an index letter of `glued_index_letters`, in either case (`L`, `N`).
    pub(super) fn index_letter(&self, c: char) -> bool {
        self.table.glued_index_letters.iter().any(|l| l.chars().eq(c.to_lowercase()))
    }

    /// `W(1) x`, `x(i) ,`, `z(l−1)`, `XW(1)`: a letter, then right after it, with no space, a
    /// parenthesized index (digits or index letters, signs set tight among them) and then a
    /// space or the line's end: TeX's `W^{(1)}`, which pdftotext gives on the line. A letter
    /// that names a function or a density (`f`, `h`, `p`: `data/notation.toml`) is applied
    /// instead (`h(t)`), and so is one before anything set tight after the parenthesis
    /// (`u(0))`). A capital's group may come after a space, its italic correction (`W (l)`);
    /// a small letter's may not (`x (i)` is a product). Of capitals set together
    /// (`XW(1)`, a product) the last takes it.
    ///
    /// TeX's space after a script, before what no space comes before in a display (a closing
    /// bracket, a comma, a full stop, or the next parenthesis: `f (i) (x0 )`, `h(l−1) )`,
    /// `y (i) .`), settles it: there the group is a superscript even after a function's
    /// letter or a small letter's italic correction (`script_space_after`).
    pub(super) fn parenthesized_index(&mut self, end: usize, word: &str, after: &str) -> Option<usize> {
        let single = word.chars().count() == 1;
        let close = |from: usize| after.get(from..)?.strip_prefix('(')?.find(')').map(|c| from + 1 + c + 1);
        // Whether the group that starts `from` bytes into `after` is followed by a script's space.
        let script_space = |from: usize| close(from).is_some_and(|e| script_space_after(after.get(e..)));
        // A capital's italic correction may set a space before the group (`W (l)`, `X (N )`);
        // so may any letter's before a superscript that a script's space follows (`y (i) .`).
        let spaced = after.starts_with(" (") && single && (is_capital(word) || script_space(1));
        // One letter at several steps is written one way: a glued group after a letter that a
        // script's space shows raised elsewhere (`h(l) = f (h(l−1) )`) is raised too.
        let elsewhere = !after.starts_with(' ')
            && word.chars().next_back().is_some_and(|c| self.raised_letters.contains(&c));
        let settled = script_space(usize::from(spaced)) || elsewhere;
        let group = after.get(usize::from(spaced)..)?.strip_prefix('(')?;
        let close = group.find(')')?;
        let index = group.get(..close)?.trim_end_matches(' ');
        let chars: Vec<char> = index.chars().collect();
        let index_char = |c: &char| c.is_ascii_digit() || self.index_letter(*c) || TIGHT_SIGNS.contains(c);
        let ends =
            chars.first().zip(chars.last()).is_some_and(|(a, b)| a.is_alphanumeric() && b.is_alphanumeric());
        if chars.is_empty() || chars.len() > INDEX_CHARACTERS || !chars.iter().all(index_char) || !ends {
            return None;
        }
        let base = word.chars().next_back()?;
        // A capital after a letter or two is a factor's (`λW(2)`, `XW(1)`: λ W^{(2)}).
        let factored =
            word.chars().count() <= 3 && base.is_uppercase() && word.chars().all(char::is_alphabetic);
        // With a script's space after it, the last of a few letters set together takes it
        // whatever its case (`Wh(t−1) )`: W h^{(t−1)}).
        let settled_factor = settled && word.chars().count() <= 3 && word.chars().all(char::is_alphabetic);
        if !(single || word.chars().all(char::is_uppercase) || factored || settled_factor)
            || !base.is_alphabetic()
        {
            return None;
        }
        let notation = Notation::shipped();
        let letter = base.to_string();
        let applied =
            has(&notation.function_letters, &letter) || has(&notation.distribution_letters, &letter);
        if applied && !settled {
            return None;
        }
        // TeX's space after a script follows it (`W(1) x`, `x(i) )`); a call may be followed
        // by anything (`u(0))`).
        let group_end = end + usize::from(spaced) + 1 + close + 1;
        if !self.text.get(group_end..).and_then(|a| a.chars().next()).is_none_or(char::is_whitespace) {
            return None;
        }
        let base_at = end - base.len_utf8();
        let read = format!("{base}^{{({index})}}");
        self.rewrite(base_at, group_end, &read, PdfWhy::Superscript);
        Some(group_end)
    }

    /// `ŷui`, `σ̂n`, `µ̂B`: a letter, a combining accent (`combining`), then index letters or
    /// digits glued after it (or one or two capitals after μ or σ, `subscripted_by_capitals`):
    /// the accented letter's subscript, as TeX's `\hat{y}_{ui}` sets it. A square set after
    /// the index (`σ̂n2`) is its power.
    pub(super) fn accented_script(&mut self, end: usize, word: &str, after: &str) -> Option<usize> {
        let mark = after.chars().next()?;
        if word.chars().count() != 1 || !self.table.combining.contains_key(&mark.to_string()) {
            return None;
        }
        let script_at = end + mark.len_utf8();
        let rest = self.text.get(script_at..)?;
        let length = run_length(rest, char::is_alphanumeric);
        let (script, power) = split_square(rest.get(..length)?);
        let capitals = self.table.subscripted_by_capitals.iter().any(|l| l == word)
            && (1..=2).contains(&script.chars().count())
            && script.chars().all(|c| c.is_ascii_uppercase());
        // `ŷui`, `R̂ui`: small letters after an accent are its subscript when one is an index
        // letter or a digit (a user u and an item i); a product after an accent is rare.
        let small = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
        let indexed = |c: char| c.is_ascii_digit() || self.index_letter(c) && c.is_lowercase();
        let indices = script.chars().all(small) && script.chars().any(indexed);
        if script.is_empty() || script.chars().count() > 3 || !(capitals || indices) {
            return None;
        }
        let script_end = script_at + length;
        let read = match power {
            Some(power) => format!("_{{{script}}}^{{{power}}}"),
            None => format!("_{{{script}}}"),
        };
        let found_at = end - word.len();
        let accented = self.text.get(found_at..script_at).unwrap_or("");
        self.note(found_at, script_end, format!("{accented}{read}"), PdfWhy::Subscript);
        self.out.replace(script_at, script_end, &read);
        Some(script_end)
    }

    /// `gt2`, `ηt2`, `x2i`: a letter, index letters and a `2` glued, before or after them:
    /// TeX stacks a square over a subscript and pdftotext gives the two in either order, so
    /// the letter has the index as its subscript and is squared (g_t², x_i²).
    pub(super) fn squared_index(&mut self, at: usize, end: usize, word: &str) -> bool {
        let mut chars = word.chars();
        let Some(base) = chars.next().filter(|c| c.is_alphabetic()) else { return false };
        let rest = chars.as_str();
        let script = match (rest.strip_prefix('2'), rest.strip_suffix('2')) {
            (Some(script), _) | (None, Some(script)) => script,
            (None, None) => return false,
        };
        let indices = !script.is_empty()
            && script.chars().count() <= 2
            && script.chars().all(|c| c.is_lowercase() && self.index_letter(c));
        if !indices || self.known(word) {
            return false;
        }
        let read = format!("{base}_{{{script}}}^{{2}}");
        self.rewrite(at, end, &read, PdfWhy::Exponent);
        true
    }

    /// `st′ =`, `yt′ −1 ,`: a letter with index letters glued, then a prime: TeX sets the
    /// prime of `y_{t'}` in the subscript, and pdftotext gives it after the index with a space
    /// after it, so the prime and a sign set tight after that space (`−1`, the step before,
    /// spaced as no display sign is) are the subscript's: y_{t′−1}. (`g_t'`, a prime on the
    /// letter, gives the same text; which was meant is a guess, with a warning.)
    pub(super) fn primed_script(&mut self, at: usize, end: usize, word: &str, after: &str) -> Option<usize> {
        let mut chars = word.chars();
        let base = chars.next().filter(|c| c.is_alphabetic())?;
        let index = chars.as_str();
        let indices = (1..=2).contains(&index.chars().count())
            && index.chars().all(|c| c.is_ascii_lowercase() && self.index_letter(c));
        let rest = after.strip_prefix('′')?;
        // A word with a prime is no word of prose (`st′` is s_{t′}, not "subject to").
        if !indices {
            return None;
        }
        // ` −1`: a sign with a space before it and none after, then a step, then the end of
        // the script (a space, a comma, a parenthesis, the line's end).
        let signed = rest.strip_prefix(' ').and_then(|r| {
            let sign = r.chars().next().filter(|c| matches!(c, '−' | '+'))?;
            let step = run_length(r.get(sign.len_utf8()..)?, |c| c.is_ascii_alphanumeric());
            let tail = r.get(sign.len_utf8() + step..)?;
            let ends = tail.chars().next().is_none_or(|c| c.is_whitespace() || matches!(c, ',' | ')'));
            (step > 0 && step <= 2 && ends).then(|| 1 + sign.len_utf8() + step)
        });
        let script_end = end + '′'.len_utf8() + signed.unwrap_or(0);
        let tail = match signed {
            Some(_) => self.text.get(end + '′'.len_utf8() + 1..script_end)?,
            None => "",
        };
        let read = format!("{base}_{{{index}′{tail}}}");
        self.rewrite(at, script_end, &read, PdfWhy::Subscript);
        Some(script_end)
    }

    /// `st ← st−1 + gt`, `at =`: a word of prose that is a letter and an index letter (`st`,
    /// `at`, prose for "subject to" and "at"), standing between signs rather than words, is
    /// the letter with its subscript (s_t, a_t).
    pub(super) fn subscripted_among_signs(&mut self, at: usize, end: usize, word: &str) -> bool {
        let mut chars = word.chars();
        let (Some(letter), Some(index), None) = (chars.next(), chars.next(), chars.next()) else {
            return false;
        };
        let prose = has(&Notation::shipped().prose_words, word);
        let kept = self.table.glued_words_kept.iter().any(|w| w == word);
        if !prose || kept || !letter.is_ascii_lowercase() || !self.index_letter(index) {
            return false;
        }
        let before = self.text.get(..at).unwrap_or("").trim_end_matches(' ').chars().next_back();
        let after = self.text.get(end..).unwrap_or("").trim_start_matches(' ').chars().next();
        let sign = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '.');
        if !sign(before) || !sign(after) {
            return false;
        }
        let read = format!("{letter}_{{{index}}}");
        self.rewrite(at, end, &read, PdfWhy::Subscript);
        true
    }

    /// `aVar(X)`, `aCov(X, X)`: a small letter glued to a name that starts with a capital,
    /// before its parenthesis: a factor and the name (a Var(X)).
    pub(super) fn factor_and_name(&mut self, at: usize, end: usize, word: &str) -> bool {
        let mut chars = word.chars();
        let Some(factor) = chars.next().filter(|c| c.is_ascii_lowercase()) else { return false };
        let name = chars.as_str();
        let notation = Notation::shipped();
        let latex = match self.table.names.get(name) {
            Some(latex) => latex.clone(),
            None if has(&notation.function_names, name) => format!("\\mathrm{{{name}}}"),
            None => return false,
        };
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || name.chars().count() < 2 {
            return false;
        }
        let read = format!("{factor} {latex}");
        self.rewrite(at, end, &read, PdfWhy::Name);
        true
    }

    /// `EY ∼P (Y ) [`, `Eat ∼π(st ) R(τ )`, `Ex∼Data log D(x)`: a capital of `delimited_after`
    /// (`E`) with a variable glued to it, `∼` (after the space of the variable's italic
    /// correction) and what it is drawn from, with its argument (spaces of italic correction
    /// in it): all of it the capital's subscript, as TeX set it (E_{Y∼P(Y)}).
    pub(super) fn drawn_script(&mut self, at: usize, end: usize, word: &str, after: &str) -> Option<usize> {
        let capital = word.chars().next()?;
        let applies = self.table.delimited_after.iter().any(|a| a.chars().eq([capital]));
        if word.chars().count() < 2 || !is_capital(&capital.to_string()) || !applies {
            return None;
        }
        let spaces = usize::from(after.starts_with(' '));
        let drawn = after.get(spaces..)?.strip_prefix('∼')?;
        let name = run_length(drawn, char::is_alphanumeric);
        let mut length = name;
        let tail = drawn.get(name..)?;
        let gap = usize::from(tail.starts_with(" ("));
        if let Some(group) = tail.get(gap..)?.strip_prefix('(') {
            let close = group.find(')').filter(|&n| n <= SCRIPT_CHARACTERS)?;
            if group.get(..close)?.contains('(') {
                return None;
            }
            length += gap + 1 + close + 1;
        }
        let script_end = end + spaces + '∼'.len_utf8() + length;
        let followed = self.text.get(script_end..).and_then(|a| a.chars().next());
        if name == 0 || !followed.is_none_or(char::is_whitespace) {
            return None;
        }
        let variable = word.get(capital.len_utf8()..)?;
        let source: String = self.text.get(end + spaces..script_end)?.split(' ').collect();
        let read = format!("{capital}_{{{variable}{source}}}");
        self.rewrite(at, script_end, &read, PdfWhy::Subscript);
        Some(script_end)
    }
}

/// `n2` → (`n`, Some(`2`)): an index with a square set after it; else the index alone.
fn split_square(script: &str) -> (&str, Option<&str>) {
    match script.strip_suffix('2') {
        Some(index) if !index.is_empty() && !index.chars().all(|c| c.is_ascii_digit()) => (index, Some("2")),
        _ => (script, None),
    }
}

/// The letters of `text` set right before a parenthesized index that TeX's space after a
/// script follows (`h(l−1) )`, `f (i) (`): raised there, whatever else they name. Linear: each
/// `)` looks back over at most an index's characters.
pub(super) fn raised_letters(text: &str) -> Vec<char> {
    let mut letters: Vec<char> = Vec::new();
    for (at, _) in text.match_indices(')') {
        if !script_space_after(text.get(at + 1..)) {
            continue;
        }
        let before: Vec<char> =
            text.get(..at).unwrap_or("").chars().rev().take(INDEX_CHARACTERS + 3).collect();
        let Some(open) = before.iter().position(|&c| c == '(') else { continue };
        let index = before.get(..open).unwrap_or_default();
        let letter = before.get(open + 1..).unwrap_or_default().iter().find(|&&c| c != ' ');
        let spaces = before.get(open + 1..).unwrap_or_default().iter().take_while(|&&c| c == ' ').count();
        let indexed =
            !index.is_empty() && index.iter().all(|c| c.is_alphanumeric() || TIGHT_SIGNS.contains(c));
        if let Some(&letter) = letter.filter(|c| c.is_alphabetic() && spaces <= 1 && indexed) {
            if !letters.contains(&letter) {
                letters.push(letter);
            }
        }
    }
    letters
}

/// Whether `after` (what follows a script) starts with the space TeX sets after a script
/// before a character that takes no space before it in a display: `)`, `]`, `,`, `.`, `;`, or
/// the parenthesis of an argument (`f (i) (x)`).
fn script_space_after(after: Option<&str>) -> bool {
    after
        .and_then(|a| a.strip_prefix(' '))
        .and_then(|a| a.chars().next())
        .is_some_and(|c| matches!(c, ')' | ']' | ',' | '.' | ';' | '('))
}

#[cfg(test)]
mod tests {
    use super::super::tests::read;

    #[test]
    fn a_parenthesized_index_right_after_its_letter_is_a_superscript() {
        assert_eq!(read("z = W(1) x,"), "z = W^{(1)} x,");
        assert_eq!(read("O = XW(1) + b(1)"), "O = XW^{(1)} + b^{(1)}");
        assert_eq!(read("h + λW(2) ."), "h + λW^{(2)} .");
        assert_eq!(read("l(i) (w, b) = z(l−1) + (e(k) )2"), "l^{(i)} (w, b) = z^{(l−1)} + (e^{(k)} )^{2}");
        // Functions and densities are applied; a spaced or glued group is no index.
        assert_eq!(read("X (N ) = W (l) x"), "X^{(N)} = W^{(l)} x");
        // A script's space after the group settles it: `f (i) (x0 )`, `h(l−1) )`, `y (i) .`.
        assert_eq!(read("f (i) (x0 ) + h(l−1) ) − y (i) ."), "f^{(i)} (x_{0} ) + h^{(l−1)} ) − y^{(i)} .");
        assert_eq!(read("ϕ(Wh(t−1) ), p(h(t) )"), "ϕ(Wh^{(t−1)} ), p(h^{(t)} )");
        // One letter at several steps: `h(l)` is raised as `h(l−1) )` shows it elsewhere.
        assert_eq!(read("h(l) = fl (h(l−1) )"), "h^{(l)} = f_{l}(h^{(l−1)} )");
        for text in [
            "h(t) = f(1) + p(i)",
            "u(x) + g(3)",
            "x (i) = W(1)x",
            "F (u(0)) + P (i)",
            "f (1) + g(0) = h(t)(x)",
        ] {
            assert_eq!(read(text), text, "{text}");
        }
    }

    #[test]
    fn accents_squares_factors_and_drawn_subscripts() {
        assert_eq!(read("y\u{302}ij = v\u{302}t + µ\u{302}B"), "y\u{302}_{ij} = v\u{302}_{t} + µ\u{302}_{B}");
        assert_eq!(read("σ\u{302}n2 = X\u{af}n"), "σ\u{302}_{n}^{2} = X\u{af}_{n}");
        assert_eq!(read("gt2 − ηt2 + x2i"), "g_{t}^{2} − η_{t}^{2} + x_{i}^{2}");
        assert_eq!(read("aVar(X)"), "a \\mathrm{Var}(X)");
        assert_eq!(read("y\u{302}ui = R\u{302}uit"), "y\u{302}_{ui} = R\u{302}_{uit}");
        assert_eq!(read("st′ = g(yt′ −1 , c, st′ −1 )."), "s_{t′} = g(y_{t′−1} , c, s_{t′−1} ).");
        assert_eq!(read("xt′ − 1 = x′"), "x_{t′} − 1 = x′");
        assert_eq!(read("st ← st−1 + gt2 ,\nat ∼ π"), "s_{t} ← s_{t−1} + g_{t}^{2} ,\na_{t} ∼ π");
        assert_eq!(read("x ∈ X for all x and st"), "x ∈ X for all x and st");
        assert_eq!(read("EY ∼P (Y ) [− log P (X | Y )]"), "E_{Y∼P(Y)} [− log P (X | Y )]");
        assert_eq!(read("Eat ∼π(st ) R(τ )"), "E_{at∼π(st)} R(τ )");
        assert_eq!(read("−Ex∼Data log D(x)"), "−E_{x∼Data} log D(x)");
        // No index after the accent, no factor before the name: left.
        for text in ["y\u{302} = x\u{302}", "Var(X)", "ab(x)"] {
            assert_eq!(read(text), text);
        }
    }
}
