//! Bytes → a small `.tex` or `.md` document with `$` in odd places → the batch document
//! reader and pipeline; and, on unix, a folder holding that document beside special files
//! (a FIFO, a socket, links to `/dev/zero` and `/dev/null`, a dangling link, a link to the
//! folder itself, a line file) → the folder reader.
//!
//! The first byte picks the flavor (bit 0: `.tex` or `.md`), the mode (bit 1) and whether to
//! build the folder (bit 2); the second which special entries the folder holds (a bit each).
//! Each later byte picks a fragment.
//!
//! - **Strict mode**: fragments that are whole (an equation with a unique marker `m_{K}`, or
//!   text with `$` where it opens no math: `\text{US$ 5}`, `\url{…$…}`, `\path|$HOME|`,
//!   `\newcommand{\dollar}{$}`, `\iffalse $x$ \fi`, `%`, `\verb|$|`, verbatim and comment
//!   environments, `\$`; in Markdown code spans, indented and fenced code, HTML comments,
//!   `$5 and $10`, an unclosed `$$` that a blank line ends), joined by line breaks (`\n`,
//!   lone `\r`, `\r\n`; blank lines in Markdown). Every marker must come back in exactly one
//!   record, read (not an error), and there are no more records than markers plus the
//!   fragments that may make a failed one.
//! - **Wild mode**: any fragments and stray delimiters (`$`, `$$`, `\text{`, `\iffalse`, `\r`,
//!   `` ` ``, `\begin{equation}`, …) glued in any order.
//!
//! Always: one record per equation (`process_unit` loses and invents none, ids in order and
//! unique), every line number inside the document, no more equations than opening
//! delimiters, every slot and parse-error span inside its formula on character boundaries,
//! every record rendered (JSONL is JSON). The folder: each special entry is exactly one error
//! record and is never opened (a FIFO would block: libFuzzer's `-timeout` catches a hang),
//! the document gives the same records as read directly, the line file one a non-blank line.
#![no_main]

use eqmap::batch::extract::Flavor;
use eqmap::batch::output::Format;
use eqmap::batch::pipeline::{process_unit, Options};
use eqmap::batch::readers::{document_inputs, Reader};
use eqmap::batch::{Input, Unit};
use eqmap::slotmap::Knowledge;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn knowledge() -> &'static Knowledge {
    static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
    KNOWLEDGE.get_or_init(|| match Knowledge::default_knowledge() {
        Ok(k) => k,
        Err(e) => panic!("shipped knowledge does not load: {e}"),
    })
}

/// A whole fragment: its text (`@` is where a marker goes) and whether it may also make one
/// failed record (an unclosed delimiter that a blank line ends).
struct Fragment(&'static str, bool);

const TEX: &[Fragment] = &[
    Fragment("$@$", false),
    Fragment("\\[ @ \\]", false),
    Fragment("\\(@\\)", false),
    Fragment("\\begin{equation} @ \\end{equation}", false),
    Fragment("\\begin{align*} @ &= 1 \\\\ b &= 2 \\end{align*}", false),
    Fragment("$$ @ $$", false),
    Fragment("$@ + \\text{US$ 5}$", false),
    Fragment("$@ + \\text{for all $x$ in $S$}$", false),
    Fragment("See \\url{http://a.b/$x$} and \\path{$HOME}.", false),
    Fragment("Set \\path|$HOME/$x| first.", false),
    Fragment("\\newcommand{\\dollar}{$}", false),
    Fragment("\\renewcommand{\\cost}[1]{\\text{$#1}}", false),
    Fragment("\\iffalse $x$ and $$ \\[ \\fi", false),
    Fragment("% a comment $ with $$ dollars", false),
    Fragment("Type \\verb|$| or \\verb+$$+.", false),
    Fragment("\\begin{verbatim}\n$ $$ \\[\n\\end{verbatim}", false),
    Fragment("costs \\$5 and \\$6", false),
    Fragment("$@$ and $@$", false),
    Fragment("\\begin{comment} $x \\end{comment}", false),
    Fragment("\\href{http://x/$}{a link}", false),
    Fragment("\\mbox{$@$ here} then", false),
    Fragment("\\textbf{a $@$ b} $$@ \\text{$}$$", false),
    Fragment("\\begin{lstlisting}\necho $PATH\n\\end{lstlisting}", false),
    Fragment("  \\[\n  @\n  \\]", false),
];

const MARKDOWN: &[Fragment] = &[
    Fragment("$@$", false),
    Fragment("$$@$$", false),
    Fragment("$$\n@\n$$", false),
    Fragment("Run `$x$` or `` $$ `` here.", false),
    Fragment("    $indented$ code $$", false),
    Fragment("```\n$x$ $$\n```", false),
    Fragment("<!-- $x$ $$ -->", false),
    Fragment("It was $5 and $10.", false),
    Fragment("\\[@\\]", false),
    Fragment("text $@$ more $@$", false),
    Fragment("~~~\n$$ y\n~~~", false),
    Fragment("$$ x + 1", true),
    Fragment("An unclosed $$ display\nover two lines", true),
    Fragment("\\begin{equation}@\\end{equation}", false),
    Fragment("- item $@$", false),
    Fragment("> quote $@$", false),
];

/// Stray pieces for the wild mode.
const STRAY: &[&str] = &[
    "$", "$$", "\\", "{", "}", "\\text{", "\\url{", "\\path|", "|", "\\iffalse", "\\fi", "\r", "\n",
    "\r\n", "\n\n", "    ", "`", "```", "~~~", "\\begin{equation}", "\\end{equation}", "\\begin{align}",
    "\\end{align}", "\\[", "\\]", "\\(", "\\)", "α", "é", "\u{2028}", "\u{85}", "\u{feff}",
    "\\newcommand{\\x}{", "\\newcommand{\\dollar}{$}", "\\dollar", "%", "<!--", "-->", "\\verb",
    "\\begin{verbatim}", "\\end{verbatim}", "\\$", "x", " ", "\t", "#", "\\def\\y{$}", "\\y", "m_{1}",
    "\\begin{comment}", "\\end{comment}", "\\href{", "\\mbox{", "^", "_", "&", "\\\\", "\0",
];

const TEX_SEPARATORS: &[&str] = &["\n", "\n\n", "\r", "\r\r", "\r\n", " \n", "\r\n\r\n"];
const MARKDOWN_SEPARATORS: &[&str] = &["\n\n", "\r\r", "\r\n\r\n", "\n \n"];

struct Document {
    text: String,
    markers: Vec<String>,
    may_fail: usize,
}

fn build(flavor: Flavor, strict: bool, bytes: &[u8]) -> Document {
    let (fragments, separators) = match flavor {
        Flavor::Tex => (TEX, TEX_SEPARATORS),
        Flavor::Markdown => (MARKDOWN, MARKDOWN_SEPARATORS),
    };
    let mut document = Document { text: String::new(), markers: Vec::new(), may_fail: 0 };
    for (i, &byte) in bytes.iter().take(64).enumerate() {
        if strict {
            let fragment = &fragments[usize::from(byte) % fragments.len()];
            if i > 0 {
                document.text.push_str(separators[usize::from(byte >> 5) % separators.len()]);
            }
            let mut pieces = fragment.0.split('@');
            document.text.push_str(pieces.next().unwrap_or(""));
            for piece in pieces {
                let marker = format!("m_{{{}}}", document.markers.len() + 100);
                document.text.push_str(&marker);
                document.markers.push(marker);
                document.text.push_str(piece);
            }
            document.may_fail += usize::from(fragment.1);
        } else if byte & 1 == 0 {
            let all = usize::from(byte >> 1);
            let fragment = if all % 2 == 0 { &TEX[(all / 2) % TEX.len()] } else { &MARKDOWN[(all / 2) % MARKDOWN.len()] };
            document.text.push_str(&fragment.0.replace('@', "a_{1}"));
        } else {
            document.text.push_str(STRAY[usize::from(byte >> 1) % STRAY.len()]);
        }
    }
    document
}

/// Opening delimiters in `text`: no document has more equations than these.
fn openers(text: &str) -> usize {
    text.matches('$').count()
        + text.matches("\\[").count()
        + text.matches("\\(").count()
        + text.matches("\\begin").count()
}

fn lines(text: &str) -> usize {
    let bytes = text.as_bytes();
    let lone_returns = bytes
        .iter()
        .enumerate()
        .filter(|(i, b)| **b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    1 + text.matches('\n').count() + lone_returns
}

fn span_ok(text: &str, start: usize, end: usize) -> bool {
    start <= end && end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end)
}

/// Runs the pipeline on `unit`: one outcome per input, in order, spans inside their formula.
fn check_unit(unit: &Unit) {
    let options = Options::default();
    let outcomes = process_unit(unit, knowledge(), &options);
    assert_eq!(outcomes.len(), unit.len(), "a record was lost or invented");
    for (input, outcome) in unit.inputs().iter().zip(&outcomes) {
        assert_eq!(input.id, outcome.id, "records out of order");
        match &outcome.result {
            Ok(map) => {
                for slot in &map.slots {
                    for span in slot.span.iter().chain(&slot.spans) {
                        assert!(span_ok(&outcome.latex, span.start, span.end), "slot span {span:?} in {:?}", outcome.latex);
                    }
                }
            }
            Err(eqmap::batch::Failure::Parse { span, opened, .. }) => {
                assert!(span_ok(&outcome.latex, span.start, span.end), "error span {span:?} in {:?}", outcome.latex);
                if let Some(o) = opened {
                    assert!(span_ok(&outcome.latex, o.start, o.end), "opened span {o:?} in {:?}", outcome.latex);
                }
            }
            Err(eqmap::batch::Failure::Read { .. }) => {}
        }
        for format in [Format::Jsonl, Format::Csv, Format::Markdown] {
            let text = format.render(outcome);
            if format == Format::Jsonl {
                let parsed: Result<serde_json::Value, _> = serde_json::from_str(text.trim_end());
                assert!(parsed.is_ok(), "a JSONL record is not JSON: {text:?}");
            }
        }
    }
}

fn check_document(document: &Document, flavor: Flavor, strict: bool) -> Vec<Input> {
    let text = &document.text;
    let inputs = document_inputs(text, flavor, &Arc::from("fuzz"));
    let mut ids = std::collections::HashSet::new();
    for input in &inputs {
        assert!(ids.insert(input.id.clone()), "two records with id {}", input.id);
        let line = input.line.unwrap_or(0);
        assert!(line >= 1 && line <= lines(text), "line {line} of a {}-line document {text:?}", lines(text));
    }
    assert!(inputs.len() <= openers(text), "{} equations from {} opening delimiters in {text:?}", inputs.len(), openers(text));
    if strict {
        for marker in &document.markers {
            let holding: Vec<&Input> = inputs
                .iter()
                .filter(|i| match &i.content {
                    Ok(latex) => latex.matches(marker.as_str()).count() > 0,
                    Err(_) => false,
                })
                .collect();
            assert!(
                holding.len() == 1,
                "marker {marker} in {} records (want 1) of {text:?}: {inputs:#?}",
                holding.len()
            );
            if let Ok(latex) = &holding[0].content {
                assert_eq!(latex.matches(marker.as_str()).count(), 1, "marker {marker} twice in {latex:?}");
            }
        }
        assert!(
            inputs.len() <= document.markers.len() + document.may_fail,
            "{} records for {} markers (+{} that may fail) from {text:?}: {inputs:#?}",
            inputs.len(),
            document.markers.len(),
            document.may_fail
        );
    }
    if !inputs.is_empty() {
        check_unit(&Unit::Document(inputs.clone()));
    }
    inputs
}

#[cfg(unix)]
fn check_folder(document: &Document, flavor: Flavor, inputs: &[Input], entries: u8) {
    use std::os::unix::fs::symlink;
    let dir = std::env::temp_dir().join(format!("eqmap-fuzz-documents-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir(&dir).is_err() {
        return;
    }
    let name = if flavor == Flavor::Tex { "doc.tex" } else { "doc.md" };
    if std::fs::write(dir.join(name), &document.text).is_err() {
        return;
    }
    // The special entries, each named so that its extension would have it read.
    let mut special: Vec<&str> = Vec::new();
    let mut add = |bit: u8, entry: &'static str, make: &dyn Fn(&std::path::Path) -> bool| {
        if entries & bit != 0 && make(&dir.join(entry)) {
            special.push(entry);
        }
    };
    add(1, "a-fifo.tex", &|p| {
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap_or_default();
        unsafe { libc::mkfifo(c.as_ptr(), 0o644) == 0 }
    });
    add(2, "b-zero.txt", &|p| symlink("/dev/zero", p).is_ok());
    add(4, "c-null.md", &|p| symlink("/dev/null", p).is_ok());
    add(8, "d-socket.jsonl", &|p| {
        // The listener is dropped at once; the socket file stays.
        std::os::unix::net::UnixListener::bind(p).is_ok()
    });
    add(16, "e-dangling.tex", &|p| symlink("/nonexistent/eqmap-fuzz", p).is_ok());
    add(32, "f-fifo-link.txt", &|p| {
        let target = p.with_file_name("g-fifo-target");
        let c = std::ffi::CString::new(target.as_os_str().as_encoded_bytes()).unwrap_or_default();
        (unsafe { libc::mkfifo(c.as_ptr(), 0o644) == 0 }) && symlink(&target, p).is_ok()
    });
    // The FIFO the link above points to has no extension, but a special file is an error
    // record whatever its name. A link to the folder itself is skipped (a walk cannot loop).
    if special.contains(&"f-fifo-link.txt") {
        special.push("g-fifo-target");
    }
    if entries & 64 != 0 {
        let _ = symlink(&dir, dir.join("h-loop"));
    }
    let mut line_records = 0;
    if entries & 128 != 0 {
        let body = "x^2\n\n\\frac{a}{b}\n$\n";
        if std::fs::write(dir.join("i-lines.txt"), body).is_ok() {
            line_records = body.lines().filter(|l| !l.trim().is_empty()).count();
        }
    }

    let units: Vec<Unit> = Reader::new(&[&dir]).collect();
    let records: Vec<&Input> = units.iter().flat_map(|u| u.inputs()).collect();
    for entry in &special {
        let about: Vec<&&Input> = records.iter().filter(|i| i.source.ends_with(entry)).collect();
        assert_eq!(about.len(), 1, "special entry {entry}: {} records: {records:#?}", about.len());
        assert!(about[0].content.is_err(), "special entry {entry} read as a formula: {:?}", about[0]);
    }
    let from_document: Vec<&&Input> = records.iter().filter(|i| i.source.ends_with(name)).collect();
    assert_eq!(from_document.len(), inputs.len(), "the document in a folder gave other records than read directly");
    for (a, b) in from_document.iter().zip(inputs) {
        // Error messages name the file: compare them without it.
        let unnamed = |c: &Result<String, String>, name: &str| match c {
            Ok(latex) => Ok(latex.clone()),
            Err(message) => Err(message.strip_prefix(name).unwrap_or(message).to_string()),
        };
        assert_eq!(
            unnamed(&a.content, &a.source),
            unnamed(&b.content, "fuzz"),
            "the document in a folder read differently"
        );
    }
    let from_lines = records.iter().filter(|i| i.source.ends_with("i-lines.txt")).count();
    assert_eq!(from_lines, line_records, "the line file's records");
    assert_eq!(records.len(), special.len() + inputs.len() + line_records, "records from the folder: {records:#?}");
    for unit in &units {
        check_unit(unit);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let (entries, body) = match rest.split_first() {
        Some((&e, b)) => (e, b),
        None => (0, rest),
    };
    let flavor = if selector & 1 == 0 { Flavor::Tex } else { Flavor::Markdown };
    let strict = selector & 2 == 0;
    let document = build(flavor, strict, body);
    let inputs = check_document(&document, flavor, strict);
    #[cfg(unix)]
    if selector & 4 != 0 {
        check_folder(&document, flavor, &inputs, entries);
    }
    #[cfg(not(unix))]
    let _ = (entries, inputs);
});
