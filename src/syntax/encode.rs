//! The text pest reads: the source with every command name replaced by its class.
//!
//! The grammar used to spell out every command it knows, so pest tried long lists of words one
//! by one, many times at each backslash. Instead, this module reads each `\name` once, in Rust,
//! and writes in its place a code the grammar matches with one literal. The encoded text has
//! exactly the length of the source, byte for byte, so every span pest reports is a span of the
//! source, and the tree builder reads names and raw text from the source, never from the code.
//!
//! | source | encoded as |
//! |---|---|
//! | `\name` (ASCII letters) | `\`, the letter of the name's [class](super::command_classes::CLASSES), then [`PAD`] up to the same length: `\frac` → `\q` + 3 × PAD |
//! | a spacing or layout command that carries no structure (`\,` `\quad` `\big` `\hspace{…}` `\kern 2pt` `\label{…}` `\tag{…}`, a `\` at the very end) | [`FILLER`], one per byte |
//! | tab, newline, carriage return, `~` | [`FILLER`] |
//! | any other control character, including the code bytes themselves | [`JUNK`] |
//! | anything else, including `\\`, `\{` and other backslash-symbol pairs | itself |
//!
//! The grammar skips FILLER like a blank (`WHITESPACE`), matches a command class as `"\\q" ~
//! pad`, and matches JUNK nowhere, just as no rule matched a control character before. What is
//! trivia here is exactly what the grammar's old `trivia_command` accepted, argument and all:
//! the old grammar only ever met such a command where it skipped blanks, or inside raw text
//! (`\text{…}`, column specifications), where FILLER is raw text as well.
//!
//! Lower-case classes but the relations (`r`) may stand alone as a symbol (`symbol_command`);
//! upper-case classes are the reserved words, which never do.
//!
//! [`encode_guarded`] puts [`GUARD_MARK`] before the text, which turns the grammar's guards on
//! (see `grammar/latex.pest`); pest's positions in that text are one byte ahead of the source's.

/// Pads a command's code to the length of its name.
pub(super) const PAD: char = '\u{1}';
/// Stands for a byte that is skipped like a blank.
pub(super) const FILLER: char = '\u{1f}';
/// Stands for a control character of the source, which no rule matches (DEL).
pub(super) const JUNK: char = '\u{7f}';
/// Marks a text in which the grammar's guards are on.
pub(super) const GUARD_MARK: char = '\u{2}';

use super::command_classes::{class_of, Kind, SYMBOL};
use Kind::{Class, Trivia, TriviaDimension, TriviaGroup};

/// Whether `command` (with or without its backslash) is a font switch such as `\bf` or
/// `\sf`, which sets the rest of its group in its font: the classes `g` and `h` of
/// [`CLASSES`](super::command_classes::CLASSES), the one list of them (the pre-scan and the printer ask here).
pub(super) fn is_font_switch(command: &str) -> bool {
    let name = command.strip_prefix('\\').unwrap_or(command);
    matches!(class_of(name), Some(Class(b'g' | b'h')))
}

/// Whether `name` (without its backslash) opens a bracket group as `(` does: the class `l` of
/// [`CLASSES`](super::command_classes::CLASSES) (`\langle`, `\lfloor`, `\lceil`, `\lvert`, `\lVert`, `\lbrace`…). The pre-scan
/// counts each as a level of nesting, as the grammar recurses into it.
pub(super) fn opens_bracket(name: &str) -> bool {
    matches!(class_of(name), Some(Class(b'l')))
}

/// Whether `name` (without its backslash) closes a bracket group as `)` does: the class `C` of
/// [`CLASSES`](super::command_classes::CLASSES) (`\rangle`, `\rfloor`…).
pub(super) fn closes_bracket(name: &str) -> bool {
    matches!(class_of(name), Some(Class(b'C')))
}

/// Whether `name` (without its backslash) may stand as the delimiter of `\left`, `\right` or
/// `\middle` (the grammar's `delimiter`): the bracket words, `\vert` `\Vert`, the arrows and
/// `\backslash`.
pub(super) fn is_delimiter_word(name: &str) -> bool {
    matches!(class_of(name), Some(Class(b'l' | b'C' | b'V' | b'w' | b'd' | b'x')))
}

/// The encoded form of `source`: as long as `source`, byte for byte (see the module docs).
pub(super) fn encode(source: &str) -> String {
    let mut out = Vec::new();
    encode_into(source, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// What [`encode_into`] met on the way.
pub(super) struct Encoded {
    /// Whether the encoding passed over text in braces or a dimension (`\label{…}`,
    /// `\hspace{…}`, `\kern 2pt`): filler hides what is inside from the reader, though the
    /// pre-scan still reads it.
    pub passed_over_text: bool,
    /// Whether it wrote [`JUNK`] (for a control character of the source).
    pub junk: bool,
}

/// [`encode`] as bytes, which is all the direct reader needs, into `out` (its room kept from
/// one formula to the next).
pub(super) fn encode_into(source: &str, out: &mut Vec<u8>) -> Encoded {
    let mut encoder = Encoder::new(source, &[], std::mem::take(out));
    encoder.run();
    *out = encoder.out;
    Encoded { passed_over_text: encoder.passed_over_text, junk: encoder.junk }
}

/// [`GUARD_MARK`], then the encoded form of `source`: pest's positions in it are one byte
/// ahead of the source's.
pub(super) fn encode_guarded(source: &str) -> String {
    let mut encoder = Encoder::new(source, &[GUARD_MARK as u8], Vec::new());
    encoder.run();
    String::from_utf8(encoder.out).unwrap_or_default()
}

/// The first byte from `from` on that the encoder changes ([`ENCODED`]), or the length.
/// Eight bytes at a time: in papers' formulas a backslash comes every 15 to 20 bytes.
fn next_encoded(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8).and_then(|chunk| <[u8; 8]>::try_from(chunk).ok()) {
        let mask = encoded_mask(u64::from_le_bytes(chunk));
        if mask != 0 {
            return at + (mask.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if ENCODED.get(usize::from(byte)) == Some(&true) {
            return at;
        }
        at += 1;
    }
    at
}

/// The high bit of each byte of `word` that [`ENCODED`] holds: control characters, DEL, `\`
/// and `~`. Exact for the lowest such byte (a borrow only marks bytes above a marked one),
/// which is all [`next_encoded`] uses.
const fn encoded_mask(word: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES * 0x80;
    const fn zero_bytes(word: u64) -> u64 {
        word.wrapping_sub(ONES) & !word & HIGHS
    }
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    control
        | zero_bytes(word ^ (ONES * 0x7f))
        | zero_bytes(word ^ (ONES * 0x5c))
        | zero_bytes(word ^ (ONES * 0x7e))
}

/// A table of the bytes in the inclusive `ranges`, for loops that pass over all other bytes
/// with one test each. Used to build constants.
// The indices are bytes, always inside the table's 256 entries.
#[allow(clippy::indexing_slicing)]
pub(super) const fn byte_set(ranges: &[(u8, u8)]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut range = 0;
    while range < ranges.len() {
        let (first, last) = ranges[range];
        let mut byte = first as usize;
        while byte <= last as usize {
            table[byte] = true;
            byte += 1;
        }
        range += 1;
    }
    table
}

/// The bytes the encoder acts on: backslashes, `~` and control bytes. The encoding starts as a
/// copy of the source and only these places are written over, so the bytes between them cost
/// one test each.
const ENCODED: [bool; 256] = byte_set(&[(0, 0x1f), (0x7f, 0x7f), (b'\\', b'\\'), (b'~', b'~')]);

struct Encoder<'s> {
    source: &'s str,
    bytes: &'s [u8],
    /// A prefix, then the source, written over where it is encoded.
    out: Vec<u8>,
    /// The length of the prefix: where the source starts in `out`.
    base: usize,
    /// Whether a group or a dimension became filler.
    passed_over_text: bool,
    /// Whether [`JUNK`] was written.
    junk: bool,
}

impl<'s> Encoder<'s> {
    /// An encoder writing `prefix`, then `source`, into `out` (cleared first).
    fn new(source: &'s str, prefix: &[u8], mut out: Vec<u8>) -> Self {
        out.clear();
        out.reserve(prefix.len() + source.len());
        out.extend_from_slice(prefix);
        out.extend_from_slice(source.as_bytes());
        Encoder {
            source,
            bytes: source.as_bytes(),
            out,
            base: prefix.len(),
            passed_over_text: false,
            junk: false,
        }
    }

    fn run(&mut self) {
        let mut at = next_encoded(self.bytes, 0);
        while let Some(&byte) = self.bytes.get(at) {
            at = next_encoded(self.bytes, self.special(at, byte));
        }
    }

    /// Writes `byte` in place of the source's byte at `at`.
    fn put(&mut self, at: usize, byte: u8) {
        self.junk |= byte == JUNK as u8;
        if let Some(slot) = self.out.get_mut(self.base + at) {
            *slot = byte;
        }
    }

    /// Writes `with` in place of the source's bytes from `from` to `to`.
    fn fill(&mut self, from: usize, to: usize, with: char) {
        if let Some(range) = self.out.get_mut(self.base + from..self.base + to) {
            range.fill(with as u8);
        }
    }

    /// Encodes the backslash, blank or control byte at `at`; returns where to go on.
    fn special(&mut self, at: usize, byte: u8) -> usize {
        match byte {
            b'\\' => self.backslash(at),
            _ => {
                self.put(at, plain(byte) as u8);
                at + 1
            }
        }
    }

    fn backslash(&mut self, at: usize) -> usize {
        match self.bytes.get(at + 1) {
            // A `\` at the very end, and `\,` `\;` `\:` `\!` `\ ` `\>` `\-` `\/`: spacing.
            None => self.trivia(at, at + 1),
            Some(b',' | b';' | b':' | b'!' | b' ' | b'>' | b'-' | b'/') => self.trivia(at, at + 2),
            Some(letter) if letter.is_ascii_alphabetic() => self.command(at),
            // `\\`, `\{`, `\|`, an accent such as `\'`…: the backslash and the next character
            // stay together as they are (a control character still becomes JUNK or FILLER).
            Some(&next) => {
                if next == b'~' {
                    at + 2
                } else if next < 0x80 {
                    self.put(at + 1, plain(next) as u8);
                    at + 2
                } else {
                    at + 1
                }
            }
        }
    }

    fn trivia(&mut self, at: usize, end: usize) -> usize {
        self.fill(at, end, FILLER);
        end
    }

    /// A `\name` at `at`: trivia with what it takes, or the class code of the name.
    fn command(&mut self, at: usize) -> usize {
        let name_end = self.letters_end(at + 1);
        let name = self.source.get(at + 1..name_end).unwrap_or("");
        let kind = class_of(name);
        let trivia_end = match kind {
            Some(Trivia) => Some(name_end),
            Some(TriviaGroup { starred }) => self.group_argument(name_end, starred),
            Some(TriviaDimension) => self.dimension(name_end),
            Some(Class(_)) | None => None,
        };
        if let Some(end) = trivia_end {
            self.passed_over_text |= end > name_end;
            return self.trivia(at, end);
        }
        let class = match kind {
            Some(Class(class)) => class,
            _ => SYMBOL,
        };
        self.put(at + 1, class);
        self.fill(at + 2, name_end, PAD);
        name_end
    }

    fn letters_end(&self, from: usize) -> usize {
        let mut end = from;
        while self.bytes.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
        }
        end
    }

    fn spaces_end(&self, from: usize) -> usize {
        let mut end = from;
        while self.bytes.get(end) == Some(&b' ') {
            end += 1;
        }
        end
    }

    /// After `\label`, `\hspace`…: an optional `*` (if `starred`), spaces, then a brace group of
    /// raw text. Where it ends, if it is there.
    fn group_argument(&self, name_end: usize, starred: bool) -> Option<usize> {
        let mut at = name_end;
        if starred && self.bytes.get(at) == Some(&b'*') {
            at += 1;
            if self.bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
                return None;
            }
        }
        self.raw_group(self.spaces_end(at))
    }

    /// A brace group of raw text at `at`, and where it ends ([`raw_group_end`]).
    fn raw_group(&self, at: usize) -> Option<usize> {
        raw_group_end(self.bytes, at)
    }

    /// After `\kern`, `\mskip`…: spaces, then `{dimension}` or a bare dimension.
    fn dimension(&self, name_end: usize) -> Option<usize> {
        let at = self.spaces_end(name_end);
        if self.bytes.get(at) != Some(&b'{') {
            return self.dimension_body(at);
        }
        let end = self.spaces_end(self.dimension_body(self.spaces_end(at + 1))?);
        (self.bytes.get(end) == Some(&b'}')).then_some(end + 1)
    }

    /// An optional sign, spaces, digits, points and spaces (at least one digit or point), then
    /// two letters: `-.2em`, `3 mu`.
    fn dimension_body(&self, from: usize) -> Option<usize> {
        let mut at = from;
        if matches!(self.bytes.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        at = self.spaces_end(at);
        let number_start = at;
        while matches!(self.bytes.get(at), Some(b'0'..=b'9' | b'.' | b' ')) {
            at += 1;
        }
        let unit = self.bytes.get(at..at + 2)?;
        (at > number_start && unit.iter().all(u8::is_ascii_alphabetic)).then_some(at + 2)
    }
}

/// Where the brace group of raw text at `at` in `bytes` ends (braces nest; nothing else
/// counts), if one starts there and is closed. The encoder reads `\label{…}` with it, and the
/// direct reader `\text{…}` and column specifications.
pub(super) fn raw_group_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    for (offset, byte) in bytes.get(at..)?.iter().enumerate() {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + offset + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The encoding of a byte outside any command: blanks become FILLER, control bytes JUNK.
fn plain(byte: u8) -> char {
    match byte {
        b'\t' | b'\n' | b'\r' | b'~' => FILLER,
        0..=0x1f | 0x7f => JUNK,
        _ => char::from(byte),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_so_that_binary_search_finds_every_name() {
        for pair in super::super::command_classes::CLASSES.windows(2) {
            if let [(a, _), (b, _)] = pair {
                assert!(a < b, "{a} and {b} are out of order");
            }
        }
    }

    proptest::proptest! {
        /// The eight-bytes-at-a-time search finds what a byte-by-byte one finds, from any
        /// start, in any bytes (UTF-8 or not: the borrow trick must not be fooled by high bits).
        #[test]
        fn next_encoded_finds_the_first_encoded_byte(
            bytes in proptest::collection::vec(proptest::sample::select(
                vec![0u8, 1, 0x1f, 0x20, b'\\', b'~', 0x7f, 0x80, 0xdc, 0xfe, 0xff, b'a', b'[', b'}'],
            ), 0..40),
            from in 0usize..44,
        ) {
            let naive = bytes
                .iter()
                .enumerate()
                .skip(from)
                .find(|(_, &byte)| ENCODED.get(usize::from(byte)) == Some(&true))
                .map_or(bytes.len().max(from), |(at, _)| at);
            proptest::prop_assert_eq!(next_encoded(&bytes, from), naive);
        }
    }

    #[test]
    fn encoding_keeps_every_length() {
        for source in
            ["\\frac{a}{b}", "\\alpha\\,\\quad x", "\\label{é}", "a\\", "\\é\t~\u{1}", "\\kern-.2em"]
        {
            assert_eq!(encode(source).len(), source.len(), "{source}");
        }
    }

    /// The encoding with PAD shown as `.`, FILLER as `_` and JUNK as `#`.
    fn shown(source: &str) -> String {
        encode(source)
            .chars()
            .map(|c| match c {
                PAD => '.',
                FILLER => '_',
                JUNK => '#',
                c => c,
            })
            .collect()
    }

    #[test]
    fn commands_become_their_class_and_trivia_becomes_filler() {
        assert_eq!(shown("\\frac{a}{\\alpha}"), "\\q...{a}{\\o....}");
        assert_eq!(shown("\\left( \\S \\right)"), "\\L...( \\o \\R....)");
        assert_eq!(shown("a\\,b\\hspace*{1cm}c\\quad"), "a__b_____________c_____");
        assert_eq!(shown("\\kern-.2em x\\mkern{ 3 mu}"), "__________ x_____________");
        assert_eq!(shown("a~b\tc\\~{a}\u{1}"), "a_b_c\\~{a}#");
        assert_eq!(shown("\\\\ \\{ \\é \\"), "\\\\ \\{ \\é _");
    }

    #[test]
    fn a_spacing_command_without_its_argument_is_a_symbol() {
        assert_eq!(shown("\\kern 2"), "\\o... 2");
        assert_eq!(shown("\\label x"), "\\o.... x");
        assert_eq!(shown("\\hspace*a{1em}"), "\\o.....*a{1em}");
        assert_eq!(shown("\\tag*{1}"), "________");
    }
}
