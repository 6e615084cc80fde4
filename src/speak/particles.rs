//! Korean particles (조사) chosen by the sound a word ends in.
//!
//! Korean writes a different particle after a final consonant than after a vowel: 큐**는** but
//! 엘**은**, 케이**를** but 곱**을**, 엔**으로** but 알**로** (a final ㄹ takes the vowel form of
//! 으로). What counts is how the word is *said*: a Latin letter or a digit that a reading leaves
//! as written is said by its Korean name (`L` is 엘, `1` is 일, `10` is 십), so the particle
//! follows that name's final sound.

use super::hangul;

/// A particle that changes with the final sound of the word before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Particle {
    /// Topic: 은 / 는.
    Topic,
    /// Subject: 이 / 가.
    Subject,
    /// Object: 을 / 를.
    Object,
    /// "And", "with": 과 / 와.
    And,
    /// Means, direction, "by": 으로 / 로 (ㄹ takes 로).
    Instrument,
    /// Quotation, "called": 이라고 / 라고.
    Quote,
}

/// How a word ends, as far as particles care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A vowel: 큐, 케이, 이.
    Vowel,
    /// The consonant ㄹ: 엘, 알, 일.
    Rieul,
    /// Any other final consonant: 엔, 곱, 삼.
    Consonant,
}

impl Particle {
    /// The particle as written after `ending`.
    pub fn form(self, ending: Ending) -> &'static str {
        let consonant = ending != Ending::Vowel;
        match self {
            Particle::Topic => pick(consonant, "은", "는"),
            Particle::Subject => pick(consonant, "이", "가"),
            Particle::Object => pick(consonant, "을", "를"),
            Particle::And => pick(consonant, "과", "와"),
            Particle::Instrument => pick(ending == Ending::Consonant, "으로", "로"),
            Particle::Quote => pick(consonant, "이라고", "라고"),
        }
    }

    /// The particle named by either of its forms (`은` or `는` is [`Particle::Topic`]).
    pub fn from_written(text: &str) -> Option<Particle> {
        Some(match text {
            "은" | "는" => Particle::Topic,
            "이" | "가" => Particle::Subject,
            "을" | "를" => Particle::Object,
            "과" | "와" => Particle::And,
            "으로" | "로" => Particle::Instrument,
            "이라고" | "라고" => Particle::Quote,
            _ => return None,
        })
    }
}

fn pick(first: bool, a: &'static str, b: &'static str) -> &'static str {
    if first {
        a
    } else {
        b
    }
}

/// `word` followed by `particle` in the form its last sound takes: `attach("큐", Topic)` is
/// "큐는", `attach("엘", Instrument)` is "엘로", `attach("10", Object)` is "10을".
pub fn attach(word: &str, particle: Particle) -> String {
    format!("{word}{}", particle.form(ending_of(word)))
}

/// How `text` ends when said aloud: its last Hangul syllable, Latin letter or number, after
/// skipping spaces and punctuation.
pub fn ending_of(text: &str) -> Ending {
    let trimmed = text.trim_end_matches(|c: char| !c.is_alphanumeric());
    let Some(last) = trimmed.chars().next_back() else { return Ending::Vowel };
    if let Some(jong) = hangul::final_of(last) {
        return match jong {
            0 => Ending::Vowel,
            hangul::RIEUL => Ending::Rieul,
            _ => Ending::Consonant,
        };
    }
    if last.is_ascii_digit() {
        let digits: String = trimmed.chars().rev().take_while(char::is_ascii_digit).collect();
        return number_ending(&digits.chars().rev().collect::<String>());
    }
    if last.is_ascii_alphabetic() {
        return latin_ending(trimmed);
    }
    Ending::Vowel
}

/// The ending of a number said in Sino-Korean: 1 일, 3 삼, 10 십, 100 백, 1000 천, 0 영.
fn number_ending(digits: &str) -> Ending {
    let zeros = digits.chars().rev().take_while(|&c| c == '0').count();
    if zeros == digits.len() {
        return Ending::Consonant; // 영
    }
    if zeros > 0 {
        return Ending::Consonant; // 십, 백, 천, 만, 억 all end in a consonant other than ㄹ
    }
    match digits.chars().next_back() {
        Some('1' | '7' | '8') => Ending::Rieul,     // 일, 칠, 팔
        Some('0' | '3' | '6') => Ending::Consonant, // 영, 삼, 육
        _ => Ending::Vowel,                         // 이, 사, 오, 구
    }
}

/// The ending of Latin text: one letter (or an all-capital acronym) by the Korean name of its
/// last letter (엘, 엠, 엔, 알 end in consonants); a word by a rough rule for loanwords.
fn latin_ending(text: &str) -> Ending {
    let reversed: String = text.chars().rev().take_while(char::is_ascii_alphabetic).collect();
    let written: String = reversed.chars().rev().collect();
    // A name whose sound the spelling does not tell (clip is 클립, SwiGLU 스위글루) is said by
    // the vocabulary's `[pronunciations]`.
    let said = super::vocab::Vocabulary::builtin().pronunciation(&written);
    if let Some(said) = said {
        return ending_of(said);
    }
    let word = reversed;
    let letter = word.chars().next().unwrap_or('a');
    let is_name = word.len() == 1 || word.chars().all(|c| c.is_ascii_uppercase());
    if is_name {
        return match letter.to_ascii_lowercase() {
            'l' | 'r' => Ending::Rieul,
            'm' | 'n' => Ending::Consonant,
            _ => Ending::Vowel,
        };
    }
    // A word: "model" ends in ㄹ, "norm" and "sin" in a consonant, "score" and "max" in a vowel
    // (스코어, 맥스).
    match letter.to_ascii_lowercase() {
        'l' => Ending::Rieul,
        // "norm", "sin", "clip" (클립), "web" (웹): a final m, n, p or b is a consonant.
        'm' | 'n' | 'p' | 'b' => Ending::Consonant,
        'g' if word.starts_with("gn") => Ending::Consonant,
        _ => Ending::Vowel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Particle::*;

    #[test]
    fn particles_follow_the_final_sound() {
        let cases = [
            ("큐", Topic, "큐는"),
            ("엘", Topic, "엘은"),
            ("케이", Object, "케이를"),
            ("브이", Object, "브이를"),
            ("엔", Instrument, "엔으로"),
            ("알", Instrument, "알로"),
            ("디케이의 제곱근", Instrument, "디케이의 제곱근으로"),
            ("큐", And, "큐와"),
            ("곱", And, "곱과"),
            ("것", Object, "것을"),
            ("엑스들", Subject, "엑스들이"),
            ("엔 곱하기 디케이", Quote, "엔 곱하기 디케이라고"),
            ("엔 곱하기 엔", Quote, "엔 곱하기 엔이라고"),
        ];
        for (word, particle, expected) in cases {
            assert_eq!(attach(word, particle), expected, "{word}");
        }
    }

    #[test]
    fn letters_and_digits_are_said_by_their_korean_names() {
        let cases = [
            ("L", Topic, "L은"),
            ("Q", Topic, "Q는"),
            ("n", Instrument, "n으로"),
            ("r", Instrument, "r로"),
            ("1", Instrument, "1로"),
            ("1", Subject, "1이"),
            ("2", Topic, "2는"),
            ("3", Object, "3을"),
            ("0", Topic, "0은"),
            ("10", Object, "10을"),
            ("0.5", Topic, "0.5는"),
            ("FFN", Topic, "FFN은"),
            ("score", Topic, "score는"),
            ("model", Instrument, "model로"),
            ("(x)", Object, "(x)를"),
            ("clip", Object, "clip을"),
            ("RMSNorm", Topic, "RMSNorm은"),
            ("SwiGLU", Topic, "SwiGLU는"),
            ("GeGLU", Object, "GeGLU를"),
            ("logit", Object, "logit을"),
        ];
        for (word, particle, expected) in cases {
            assert_eq!(attach(word, particle), expected, "{word}");
        }
    }

    #[test]
    fn both_written_forms_name_the_particle() {
        assert_eq!(Particle::from_written("는"), Some(Topic));
        assert_eq!(Particle::from_written("으로"), Some(Instrument));
        assert_eq!(Particle::from_written("의"), None);
    }
}
