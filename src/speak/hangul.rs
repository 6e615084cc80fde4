//! Hangul syllable arithmetic: the final consonant (받침) of a syllable, and the verb endings
//! built by changing it.
//!
//! A precomposed Hangul syllable is `0xAC00 + (initial × 21 + medial) × 28 + final`, where
//! final 0 means no final consonant, 4 is ㄴ and 8 is ㄹ. Adding ㄴ to "나누" gives "나눈";
//! adding ㄹ to "크" gives "클". The rules here cover the regular verbs and adjectives eqmap
//! reads with (나누다, 씌우다, 더하다, 곱하다, 붙이다, 받다, 만들다, 속하다, 작다, 같다, 이다);
//! irregular stems (ㅂ, ㄷ, ㅅ irregulars such as 돕다, 듣다, 낫다) are not conjugated
//! specially.

/// The first precomposed Hangul syllable, 가.
const FIRST: u32 = 0xAC00;
/// The last precomposed Hangul syllable, 힣.
const LAST: u32 = 0xD7A3;
/// The number of finals per initial–medial pair (the first is "none").
const FINALS: u32 = 28;

/// The final consonant ㄴ.
pub const NIEUN: u32 = 4;
/// The final consonant ㄹ.
pub const RIEUL: u32 = 8;

/// The final-consonant index of a Hangul syllable (0 = none), or `None` for any other char.
pub fn final_of(c: char) -> Option<u32> {
    let code = u32::from(c);
    (FIRST..=LAST).contains(&code).then(|| (code - FIRST) % FINALS)
}

/// The syllable `c` with its final consonant replaced by `jong` (0 removes it).
pub fn with_final(c: char, jong: u32) -> Option<char> {
    let code = u32::from(c);
    if !(FIRST..=LAST).contains(&code) || jong >= FINALS {
        return None;
    }
    char::from_u32(code - (code - FIRST) % FINALS + jong)
}

/// Splits off the last char of `text`.
fn split_last(text: &str) -> Option<(&str, char)> {
    let last = text.chars().next_back()?;
    Some((text.get(..text.len() - last.len_utf8()).unwrap_or(""), last))
}

/// `text` with the final consonant of its last syllable set to `jong` (0 removes it);
/// `None` when the last char is no Hangul syllable.
fn set_last_final(text: &str, jong: u32) -> Option<String> {
    let (head, last) = split_last(text)?;
    let changed = with_final(last, jong)?;
    Some(format!("{head}{changed}"))
}

/// The past adnominal form (-ㄴ/-은) of a verb stem: 나누 → 나눈, 더하 → 더한, 받 → 받은,
/// 만들 → 만든, 빼 → 뺀.
pub fn adnominal_past(stem: &str) -> String {
    let Some((_, last)) = split_last(stem) else { return stem.to_string() };
    match final_of(last) {
        Some(0) | Some(RIEUL) => set_last_final(stem, NIEUN).unwrap_or_else(|| format!("{stem}은")),
        Some(_) => format!("{stem}은"),
        None => format!("{stem}ㄴ"),
    }
}

/// The present adnominal form (-는) of a verb stem: 받 → 받는, 만들 → 만드는, 씌우 → 씌우는.
pub fn adnominal_present(stem: &str) -> String {
    match split_last(stem) {
        Some((_, last)) if final_of(last) == Some(RIEUL) => {
            format!("{}는", set_last_final(stem, 0).unwrap_or_else(|| stem.to_string()))
        }
        _ => format!("{stem}는"),
    }
}

/// The prospective form (-ㄹ/-을) of a stem, as before 때: 크 → 클, 작 → 작을, 이 → 일,
/// 만들 → 만들.
pub fn prospective(stem: &str) -> String {
    let Some((_, last)) = split_last(stem) else { return stem.to_string() };
    match final_of(last) {
        Some(0) => set_last_final(stem, RIEUL).unwrap_or_else(|| format!("{stem}을")),
        Some(RIEUL) => stem.to_string(),
        _ => format!("{stem}을"),
    }
}

/// The stem of a sentence that ends in a plain predicate: "…속한다" → "…속하",
/// "…작다" → "…작", "…이다" → "…이". `None` when it does not end in 다.
pub fn predicate_stem(sentence: &str) -> Option<String> {
    let body = sentence.strip_suffix('다')?;
    // A consonant-final stem adds 는다 (넣 → 넣는다): take 는 off.
    if let Some(stem) = body.strip_suffix('는') {
        if split_last(stem).is_some_and(|(_, before)| final_of(before).is_some_and(|f| f != 0)) {
            return Some(stem.to_string());
        }
    }
    let (_, last) = split_last(body)?;
    // A verb's plain present adds ㄴ to a vowel-final stem (속하 → 속한다): take it off.
    if final_of(last) == Some(NIEUN) {
        return set_last_final(body, 0);
    }
    Some(body.to_string())
}

/// A sentence ending in a predicate, turned into its connective form: "…이다" → "…이고".
pub fn connective(sentence: &str) -> String {
    match predicate_stem(sentence) {
        Some(stem) => format!("{stem}고"),
        None => format!("{sentence}, 그리고"),
    }
}

/// A sentence ending in a predicate, turned into a "when" clause: "…크다" → "…클 때".
pub fn when_clause(sentence: &str) -> String {
    match predicate_stem(sentence) {
        Some(stem) => format!("{} 때", prospective(&stem)),
        None => format!("{sentence}일 때"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connectives_of_plain_predicates() {
        assert_eq!(connective("A에 B를 넣는다"), "A에 B를 넣고");
        assert_eq!(connective("A는 B에 속한다"), "A는 B에 속하고");
        assert_eq!(connective("A는 B보다 작다"), "A는 B보다 작고");
        assert_eq!(connective("A는 B이다"), "A는 B이고");
    }

    #[test]
    fn finals_of_syllables() {
        assert_eq!(final_of('가'), Some(0));
        assert_eq!(final_of('간'), Some(NIEUN));
        assert_eq!(final_of('갈'), Some(RIEUL));
        assert_eq!(final_of('a'), None);
        assert_eq!(with_final('나', NIEUN), Some('난'));
        assert_eq!(with_final('x', NIEUN), None);
    }

    #[test]
    fn verb_forms() {
        for (stem, past) in [
            ("나누", "나눈"),
            ("더하", "더한"),
            ("받", "받은"),
            ("만들", "만든"),
            ("빼", "뺀"),
            ("씌우", "씌운"),
        ] {
            assert_eq!(adnominal_past(stem), past);
        }
        assert_eq!(adnominal_present("받"), "받는");
        assert_eq!(adnominal_present("만들"), "만드는");
        assert_eq!(prospective("크"), "클");
        assert_eq!(prospective("작"), "작을");
        assert_eq!(prospective("이"), "일");
    }

    #[test]
    fn sentence_forms() {
        assert_eq!(connective("큐는 공간에 속한다"), "큐는 공간에 속하고");
        assert_eq!(connective("엘은 0이다"), "엘은 0이고");
        assert_eq!(when_clause("엑스가 0보다 크다"), "엑스가 0보다 클 때");
        assert_eq!(when_clause("엑스가 0보다 작거나 같다"), "엑스가 0보다 작거나 같을 때");
        assert_eq!(when_clause("엑스가 공간에 속한다"), "엑스가 공간에 속할 때");
    }
}
