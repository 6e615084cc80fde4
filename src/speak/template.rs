//! Filling a template's `{slots}`: `{x}` takes a value as it is, `{x:을}` adds the Korean
//! particle that fits the value's final sound, and `{,}` is a comma when the slot after it is
//! long.

use super::particles::{self, Particle};

/// A value longer than this (in chars) earns the comma of a `{,}`.
const COMMA_AFTER: usize = 14;

/// Fills `template` with `slots` (name, value). Unknown slots are empty; a particle after an
/// empty value is dropped, and so is the space it leaves.
pub fn fill(template: &str, slots: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(rest.get(..open).unwrap_or(""));
        let after = rest.get(open + 1..).unwrap_or("");
        let Some(close) = after.find('}') else {
            out.push_str(rest.get(open..).unwrap_or(""));
            return tidy(&out);
        };
        let inside = after.get(..close).unwrap_or("");
        rest = after.get(close + 1..).unwrap_or("");
        if inside == "," {
            if next_slot_is_long(rest, slots) {
                out.push(',');
            }
            continue;
        }
        out.push_str(&slot(inside, slots));
    }
    out.push_str(rest);
    tidy(&out)
}

/// One `{name}` or `{name:particle}`.
fn slot(inside: &str, slots: &[(&str, &str)]) -> String {
    let (name, particle) = match inside.split_once(':') {
        Some((name, particle)) => (name, Some(particle)),
        None => (inside, None),
    };
    let value = lookup(name, slots);
    match particle {
        _ if value.is_empty() => String::new(),
        None => value.to_string(),
        Some(written) => match Particle::from_written(written) {
            Some(p) => particles::attach(value, p),
            None => format!("{value}{written}"),
        },
    }
}

fn lookup<'a>(name: &str, slots: &[(&str, &'a str)]) -> &'a str {
    slots.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v)
}

/// Whether the first slot in `rest` holds a long value.
fn next_slot_is_long(rest: &str, slots: &[(&str, &str)]) -> bool {
    let Some(open) = rest.find('{') else { return false };
    let after = rest.get(open + 1..).unwrap_or("");
    let inside = after.split('}').next().unwrap_or("");
    let name = inside.split(':').next().unwrap_or("");
    lookup(name, slots).chars().count() > COMMA_AFTER
}

/// Collapses the doubled or stray spaces that empty slots leave.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !out.is_empty() && !word.starts_with([',', '.']) {
            out.push(' ');
        }
        out.push_str(word);
    }
    if text.ends_with(' ') && !out.is_empty() {
        out.push(' ');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn slots_particles_and_commas() {
        assert_eq!(fill("{a:은} {b}이다", &[("a", "큐"), ("b", "행렬")]), "큐는 행렬이다");
        assert_eq!(fill("{a:는} {b:으로}", &[("a", "엘"), ("b", "알")]), "엘은 알로");
        assert_eq!(fill("{a:은}{,} {b}이다", &[("a", "엘"), ("b", "짧다")]), "엘은 짧다이다");
        let long = "큐와 케이 전치의 곱을 디케이의 제곱근으로 나눈 것";
        assert_eq!(fill("{a:은}{,} {b}이다", &[("a", "엘"), ("b", long)]), format!("엘은, {long}이다"));
        assert_eq!(fill("{x:을} 모두 ", &[("x", "")]), "모두 ");
        assert_eq!(fill("{missing} and {x}", &[("x", "y")]), "and y");
        assert_eq!(fill("open {x", &[("x", "y")]), "open {x");
    }
}
