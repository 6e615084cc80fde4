//! The languages eqmap speaks to its users: Korean (the curriculum's) and English.

use serde::Serialize;

/// A language for user-facing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Korean, the language of the curriculum.
    #[default]
    Ko,
    /// English.
    En,
}

impl Lang {
    /// Picks the text for this language.
    pub fn pick<'a>(self, ko: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ko => ko,
            Lang::En => en,
        }
    }

    /// Parses `ko` or `en`.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

/// The form of a Korean particle that follows `word` as it is said: `consonant` after a final
/// consonant, `vowel` after a vowel (`rieul_is_vowel` for 으로/로, where a final ㄹ takes the
/// vowel form). A digit string is said as a Korean number (3 is 삼 → 3이, 10 is 십 → 10이,
/// 2 is 이 → 2가), a Latin letter by its Korean name (L is 엘, k is 케이), a Hangul syllable as
/// written. Anything else (a symbol) counts as a vowel; messages put a noun after symbols and
/// code spans instead (`` `}` 기호가 ``).
pub fn particle<'a>(word: &str, consonant: &'a str, vowel: &'a str, rieul_is_vowel: bool) -> &'a str {
    match final_sound(word) {
        Final::Consonant => consonant,
        Final::Rieul if !rieul_is_vowel => consonant,
        _ => vowel,
    }
}

/// How a word ends when said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Final {
    Vowel,
    Rieul,
    Consonant,
}

fn final_sound(word: &str) -> Final {
    let word = word.trim_end();
    let Some(last) = word.chars().next_back() else { return Final::Vowel };
    if last.is_ascii_digit() {
        return number_sound(word);
    }
    if let Some(offset) = u32::from(last).checked_sub(0xAC00).filter(|o| *o < 11_172) {
        return match offset % 28 {
            0 => Final::Vowel,
            8 => Final::Rieul,
            _ => Final::Consonant,
        };
    }
    match last.to_ascii_lowercase() {
        'l' | 'r' => Final::Rieul,
        'm' | 'n' => Final::Consonant,
        _ => Final::Vowel,
    }
}

/// The final sound of the number a digit string ends with: its last non-zero digit's name
/// (일, 이, 삼, …), or the name of the power of ten its zeros make (십, 백, 천, 만, 억).
fn number_sound(word: &str) -> Final {
    let digits: String = word.chars().rev().take_while(char::is_ascii_digit).collect();
    let zeros = digits.chars().take_while(|c| *c == '0').count();
    if zeros == digits.len() {
        return Final::Consonant; // 영
    }
    match zeros {
        0 => match digits.chars().next() {
            Some('1' | '7' | '8') => Final::Rieul,
            Some('3' | '6') => Final::Consonant,
            _ => Final::Vowel,
        },
        _ => Final::Consonant, // 십, 백, 천, 만, 십만, 백만, 천만, 억 all end in a consonant
    }
}

#[cfg(test)]
mod tests {
    use super::particle;

    #[test]
    fn particles_follow_digits_letters_and_syllables_as_they_are_said() {
        for (word, subject) in [
            ("3", "이"),
            ("2", "가"),
            ("10", "이"),
            ("1", "이"),
            ("4", "가"),
            ("400", "이"),
            ("d_k", "가"),
            ("L", "이"),
            ("큐", "가"),
            ("곱", "이"),
        ] {
            assert_eq!(particle(word, "이", "가", false), subject, "{word}");
        }
        assert_eq!(particle("1", "으로", "로", true), "로");
        assert_eq!(particle("3", "으로", "로", true), "으로");
    }
}
