//! JSON as the binary prints it: indented like `serde_json`'s pretty printer, but with the
//! indentation capped, so that the output of a deeply nested tree stays linear in its size
//! (each line of a tree 1,000 levels deep would otherwise carry thousands of spaces), and with
//! the line separators U+2028, U+2029 and U+0085 escaped, which line splitters take for line
//! breaks.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde::Serialize;
use std::io::{self, Write};

/// The deepest level that is still indented further; deeper lines keep this indentation.
pub const MAX_INDENT_LEVELS: usize = 32;

/// `value` as indented JSON (two spaces a level, at most [`MAX_INDENT_LEVELS`] levels), without
/// a final newline; an empty string if it cannot be serialized.
pub fn pretty<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, CappedPretty::default());
    if value.serialize(&mut serializer).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// `value` as JSON on one line, with the line separators escaped; an empty string if it cannot
/// be serialized.
pub fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Compact);
    if value.serialize(&mut serializer).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Writes a fragment of a string, escaping U+2028, U+2029 and U+0085 (valid in JSON, but line
/// breaks to many readers of lines).
fn write_fragment<W: ?Sized + Write>(writer: &mut W, fragment: &str) -> io::Result<()> {
    let mut start = 0;
    for (at, c) in fragment.char_indices() {
        let escape = match c {
            '\u{2028}' => "\\u2028",
            '\u{2029}' => "\\u2029",
            '\u{85}' => "\\u0085",
            _ => continue,
        };
        writer.write_all(fragment.get(start..at).unwrap_or("").as_bytes())?;
        writer.write_all(escape.as_bytes())?;
        start = at + c.len_utf8();
    }
    writer.write_all(fragment.get(start..).unwrap_or("").as_bytes())
}

/// serde_json's compact layout, line separators escaped.
struct Compact;

impl serde_json::ser::Formatter for Compact {
    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        write_fragment(writer, fragment)
    }
}

/// serde_json's pretty layout with the indentation capped.
#[derive(Default)]
struct CappedPretty {
    level: usize,
    has_value: bool,
}

impl CappedPretty {
    fn newline<W: ?Sized + Write>(&self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..self.level.min(MAX_INDENT_LEVELS) {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for CappedPretty {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.level = self.level.saturating_sub(1);
        if self.has_value {
            self.newline(writer)?;
        }
        writer.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.newline(writer)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.level = self.level.saturating_sub(1);
        if self.has_value {
            self.newline(writer)?;
        }
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.newline(writer)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        write_fragment(writer, fragment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_values_print_as_serde_json_pretty_prints_them() {
        let value = serde_json::json!({"a": [1, {"b": null}], "c": "x", "d": [], "e": {}});
        assert_eq!(pretty(&value), serde_json::to_string_pretty(&value).unwrap_or_default());
        assert_eq!(compact(&value), serde_json::to_string(&value).unwrap_or_default());
    }

    #[test]
    fn deep_values_are_indented_at_most_the_cap() {
        let mut value = serde_json::json!(1);
        for _ in 0..100 {
            value = serde_json::json!([value]);
        }
        let text = pretty(&value);
        let widest = text.lines().map(|line| line.len() - line.trim_start().len()).max();
        assert_eq!(widest, Some(2 * MAX_INDENT_LEVELS));
        let back: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(back, value);
    }

    #[test]
    fn line_separators_are_escaped() {
        let value = serde_json::json!({"t": "a\u{2028}b\u{85}c\u{2029}"});
        let text = compact(&value);
        assert_eq!(text, r#"{"t":"a\u2028b\u0085c\u2029"}"#);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(back, value);
        assert!(!pretty(&value).contains('\u{2028}'));
    }
}
