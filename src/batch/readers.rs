//! Readers: paths → [`Unit`]s, lazily, one file open at a time.
//!
//! What a file holds is told by its extension:
//!
//! | extension | read as | record id |
//! |---|---|---|
//! | `.jsonl`, `.ndjson` | one JSON object a line, the formula under `"latex"` (or `"formula"`) | the object's `"id"`, else `FILE:LINE` |
//! | `.tex`, `.ltx`, `.latex` | a LaTeX document whose equations are extracted ([`super::extract`]) | `FILE:LINE` of the opening delimiter |
//! | `.md`, `.markdown` | a Markdown document, likewise | `FILE:LINE` |
//! | `.txt`, `.lst`, and any file named on the command line with another extension | one formula a line | `FILE:LINE` |
//!
//! `-` is standard input, one formula a line. A folder is walked recursively in name order;
//! in a folder, files with other extensions, hidden entries (`.git`) and symbolic links to
//! folders are skipped (and counted), so a walk cannot loop. Blank lines are not formulas.
//!
//! Nothing is dropped: a path that cannot be read, a document that is not UTF-8, a line that is
//! not UTF-8 or longer than [`MAX_LINE_BYTES`], a JSONL line that is not a record: each becomes
//! one error record naming the file (and the line), and reading goes on. A FIFO, device or
//! socket (or a link to one) is an error record and is never opened; no read goes past its
//! bound (a document's size, a line's length and [`MAX_SKIPPED_BYTES`] after a long one).
//!
//! Line files stream: one line is held at a time, so a file of any length is read in bounded
//! memory. A document is read whole (up to [`MAX_DOCUMENT_BYTES`]), since its equations share
//! one symbol table.

use super::extract::{self, Flavor};
use super::{Input, Unit};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The longest line read from a line or JSONL file; a longer one is an error record.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How much of a line longer than [`MAX_LINE_BYTES`] is passed over to find the next line; if
/// no line break comes within it, the rest of the file is not read (a 1 GB file of one line
/// is not read through to report that its line is too long).
pub const MAX_SKIPPED_BYTES: u64 = 16 << 20;

/// The largest document read; a larger one is an error record.
pub const MAX_DOCUMENT_BYTES: u64 = 64 << 20;

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// One formula a line.
    Lines,
    /// One JSON record a line.
    Jsonl,
    /// A document whose equations are extracted.
    Document(Flavor),
}

/// The kind a file's extension tells, if it tells one.
pub fn kind_of_path(path: &Path) -> Option<FileKind> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "jsonl" | "ndjson" => Some(FileKind::Jsonl),
        "tex" | "ltx" | "latex" => Some(FileKind::Document(Flavor::Tex)),
        "md" | "markdown" => Some(FileKind::Document(Flavor::Markdown)),
        "txt" | "lst" => Some(FileKind::Lines),
        _ => None,
    }
}

/// A path waiting to be read.
#[derive(Debug)]
enum Pending {
    /// A path, named on the command line (`explicit`) or found in a folder.
    Path { path: PathBuf, explicit: bool },
    /// Standard input.
    Stdin,
}

/// The units of a list of paths, in order, read lazily.
pub struct Reader {
    /// Paths still to read, the next one last.
    pending: Vec<Pending>,
    current: Option<LineUnits>,
    skipped: usize,
}

impl Reader {
    /// A reader of `paths`; `-` is standard input.
    pub fn new<P: AsRef<Path>>(paths: &[P]) -> Reader {
        let pending = paths
            .iter()
            .rev()
            .map(|p| match p.as_ref() {
                p if p == Path::new("-") => Pending::Stdin,
                p => Pending::Path { path: p.to_path_buf(), explicit: true },
            })
            .collect();
        Reader { pending, current: None, skipped: 0 }
    }

    /// Entries skipped in folders so far (other extensions, hidden entries, linked folders).
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Starts on `pending`: a unit right away (a document, an error), or a line file to stream.
    fn open(&mut self, pending: Pending) -> Option<Unit> {
        match pending {
            Pending::Stdin => {
                let reader = Box::new(BufReader::new(io::stdin()));
                self.current = Some(LineUnits::new(reader, Arc::from("-"), false));
                None
            }
            Pending::Path { path, explicit } => self.open_path(&path, explicit),
        }
    }

    fn open_path(&mut self, path: &Path, explicit: bool) -> Option<Unit> {
        let metadata = match std::fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(error) => return Some(read_error(path, &error)),
        };
        if metadata.is_dir() {
            return self.open_folder(path, explicit);
        }
        if !metadata.is_file() {
            // A FIFO, a device or a socket (or a link to one) could block or never end: it is
            // an error record, and never opened.
            let source = source_of(path);
            return Some(Unit::Single(Input {
                id: source.to_string(),
                content: Err(format!("cannot read {source}: {}", special_file_kind(&metadata))),
                source,
                line: None,
            }));
        }
        let kind = match (kind_of_path(path), explicit) {
            (Some(kind), _) => kind,
            (None, true) => FileKind::Lines,
            (None, false) => {
                self.skipped += 1;
                return None;
            }
        };
        match kind {
            FileKind::Document(flavor) => read_document(path, metadata.len(), flavor),
            FileKind::Lines | FileKind::Jsonl => match File::open(path) {
                Ok(file) => {
                    let reader = Box::new(BufReader::with_capacity(1 << 16, file));
                    self.current = Some(LineUnits::new(reader, source_of(path), kind == FileKind::Jsonl));
                    None
                }
                Err(error) => Some(read_error(path, &error)),
            },
        }
    }

    /// Queues a folder's entries in name order; hidden entries and linked folders are skipped.
    fn open_folder(&mut self, path: &Path, explicit: bool) -> Option<Unit> {
        let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if linked && !explicit {
            self.skipped += 1;
            return None;
        }
        let entries = match std::fs::read_dir(path) {
            Ok(entries) => entries,
            Err(error) => return Some(read_error(path, &error)),
        };
        let mut children: Vec<PathBuf> = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) if entry.file_name().to_string_lossy().starts_with('.') => self.skipped += 1,
                Ok(entry) => children.push(entry.path()),
                Err(error) => return Some(read_error(path, &error)),
            }
        }
        children.sort();
        self.pending.extend(children.into_iter().rev().map(|path| Pending::Path { path, explicit: false }));
        None
    }
}

impl Iterator for Reader {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        loop {
            if let Some(lines) = &mut self.current {
                match lines.next() {
                    Some(unit) => return Some(unit),
                    None => self.current = None,
                }
            }
            let pending = self.pending.pop()?;
            if let Some(unit) = self.open(pending) {
                return Some(unit);
            }
        }
    }
}

/// What a file that is neither a regular file nor a folder is, in words.
fn special_file_kind(metadata: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_fifo() {
        "a named pipe (FIFO), not a regular file"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device, not a regular file"
    } else if kind.is_socket() {
        "a socket, not a regular file"
    } else {
        "not a regular file"
    }
}

/// The name a path goes by in records.
fn source_of(path: &Path) -> Arc<str> {
    Arc::from(path.to_string_lossy().as_ref())
}

/// A path that could not be read, as one error record.
fn read_error(path: &Path, error: &io::Error) -> Unit {
    let source = source_of(path);
    Unit::Single(Input {
        id: source.to_string(),
        content: Err(format!("cannot read {source}: {error}")),
        source,
        line: None,
    })
}

/// A document's equations as one unit, or one error record when it cannot be read.
fn read_document(path: &Path, length: u64, flavor: Flavor) -> Option<Unit> {
    let source = source_of(path);
    let failed = |message: String| {
        Some(Unit::Single(Input {
            id: source.to_string(),
            source: source.clone(),
            line: None,
            content: Err(message),
        }))
    };
    if length > MAX_DOCUMENT_BYTES {
        return failed(format!("cannot read {source}: larger than {MAX_DOCUMENT_BYTES} bytes"));
    }
    // Read through a bound, whatever the length said: the file may have grown since.
    let mut bytes = Vec::new();
    let read = File::open(path).and_then(|file| file.take(MAX_DOCUMENT_BYTES + 1).read_to_end(&mut bytes));
    if let Err(error) = read {
        return Some(read_error(path, &error));
    }
    if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
        return failed(format!("cannot read {source}: larger than {MAX_DOCUMENT_BYTES} bytes"));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let line = 1 + error
                .as_bytes()
                .iter()
                .take(error.utf8_error().valid_up_to())
                .filter(|&&b| b == b'\n')
                .count();
            return failed(format!("cannot read {source}: not UTF-8 (first invalid byte on line {line})"));
        }
    };
    let inputs = document_inputs(&text, flavor, &source);
    (!inputs.is_empty()).then_some(Unit::Document(inputs))
}

/// The equations of a document as inputs with `FILE:LINE` ids (`FILE:LINE#2` for a second
/// equation on the same line).
pub fn document_inputs(text: &str, flavor: Flavor, source: &Arc<str>) -> Vec<Input> {
    let mut inputs: Vec<Input> = Vec::new();
    let mut same_line = 0;
    for equation in extract::equations(text.strip_prefix('\u{feff}').unwrap_or(text), flavor) {
        let previous = inputs.last().and_then(|i| i.line);
        same_line = if previous == Some(equation.line) { same_line + 1 } else { 1 };
        let mut id = format!("{source}:{}", equation.line);
        if same_line > 1 {
            id.push_str(&format!("#{same_line}"));
        }
        let content = equation.latex.map_err(|message| format!("{source}:{}: {message}", equation.line));
        inputs.push(Input { id, source: source.clone(), line: Some(equation.line), content });
    }
    inputs
}

/// The units of a line or JSONL file, one line at a time.
struct LineUnits {
    reader: Box<dyn BufRead + Send>,
    source: Arc<str>,
    jsonl: bool,
    line: usize,
    buffer: Vec<u8>,
    done: bool,
}

/// What reading one line gave.
enum LineRead {
    End,
    Line,
    /// A line too long; `rest_unread` if no line break came within [`MAX_SKIPPED_BYTES`]
    /// after it, so the file is read no further.
    TooLong {
        rest_unread: bool,
    },
    Failed(io::Error),
}

impl LineUnits {
    fn new(reader: Box<dyn BufRead + Send>, source: Arc<str>, jsonl: bool) -> Self {
        LineUnits { reader, source, jsonl, line: 0, buffer: Vec::new(), done: false }
    }

    /// Reads the next line into the buffer, at most [`MAX_LINE_BYTES`] of it.
    fn read_line(&mut self) -> LineRead {
        self.buffer.clear();
        let limit = MAX_LINE_BYTES as u64 + 1;
        match (&mut self.reader).take(limit).read_until(b'\n', &mut self.buffer) {
            Ok(0) => LineRead::End,
            Ok(n) if n as u64 == limit && self.buffer.last() != Some(&b'\n') => {
                let rest_unread = !matches!(skip_line(&mut self.reader), Ok(true));
                LineRead::TooLong { rest_unread }
            }
            Ok(_) => LineRead::Line,
            Err(error) => LineRead::Failed(error),
        }
    }

    fn input(&self, content: Result<String, String>) -> Unit {
        // `FILE:LINE`, written without the formatting machinery (it costs as much as a
        // short formula's reading).
        let line = self.line.to_string();
        let mut id = String::with_capacity(self.source.len() + 1 + line.len());
        id.push_str(&self.source);
        id.push(':');
        id.push_str(&line);
        Unit::Single(Input { id, source: self.source.clone(), line: Some(self.line), content })
    }

    /// The unit of the line in the buffer, or `None` for a blank line.
    fn unit_of_line(&self) -> Option<Unit> {
        let mut bytes = self.buffer.strip_suffix(b"\n").unwrap_or(&self.buffer);
        bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        if self.line == 1 {
            bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        }
        let (source, line) = (&self.source, self.line);
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Some(self.input(Err(format!("cannot read {source}: line {line} is not UTF-8"))));
        };
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if !self.jsonl {
            return Some(self.input(Ok(crate::paste::without_wrappers(text))));
        }
        Some(match jsonl_record(text) {
            Ok((Some(id), latex)) => {
                Unit::Single(Input { id, source: source.clone(), line: Some(line), content: Ok(latex) })
            }
            Ok((None, latex)) => self.input(Ok(latex)),
            Err(message) => self.input(Err(format!("{source}:{line}: {message}"))),
        })
    }
}

impl Iterator for LineUnits {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        while !self.done {
            let read = self.read_line();
            self.line += 1;
            match read {
                LineRead::End => self.done = true,
                LineRead::Line => {
                    if let Some(unit) = self.unit_of_line() {
                        return Some(unit);
                    }
                }
                LineRead::TooLong { rest_unread } => {
                    let mut message = format!(
                        "cannot read {}: line {} is longer than {MAX_LINE_BYTES} bytes",
                        self.source, self.line
                    );
                    if rest_unread {
                        self.done = true;
                        message.push_str(&format!(
                            "; no line break within {MAX_SKIPPED_BYTES} bytes after it, so the rest of the file is not read"
                        ));
                    }
                    return Some(self.input(Err(message)));
                }
                LineRead::Failed(error) => {
                    self.done = true;
                    let message = format!("cannot read {} at line {}: {error}", self.source, self.line);
                    return Some(self.input(Err(message)));
                }
            }
        }
        None
    }
}

/// Consumes the rest of a line without keeping it, at most [`MAX_SKIPPED_BYTES`] of it:
/// whether the line (or the file) ended within them.
fn skip_line(reader: &mut Box<dyn BufRead + Send>) -> io::Result<bool> {
    let mut skipped = 0u64;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(true);
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(true);
            }
            None => {
                let n = buffer.len();
                reader.consume(n);
                skipped += n as u64;
                if skipped > MAX_SKIPPED_BYTES {
                    return Ok(false);
                }
            }
        }
    }
}

/// A JSONL record's id (a string or a number, if any) and LaTeX.
fn jsonl_record(text: &str) -> Result<(Option<String>, String), String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a JSON record: {e}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    let latex = ["latex", "formula"]
        .iter()
        .find_map(|key| object.get(*key).and_then(|v| v.as_str()))
        .ok_or("no \"latex\" string in the record")?;
    let id = match object.get("id") {
        Some(serde_json::Value::String(id)) => Some(id.clone()),
        Some(serde_json::Value::Number(id)) => Some(id.to_string()),
        _ => None,
    };
    Ok((id, latex.to_string()))
}

/// Why writing to `output` would destroy or feed back into what `inputs` name, if it would: it
/// is one of the input files (creating it truncates the input before it is read), or a file
/// the walk of an input folder would read while it is being written. Checked before anything
/// is written. Devices such as `/dev/null` never conflict.
pub fn output_conflict<P: AsRef<Path>>(output: &Path, inputs: &[P]) -> Option<String> {
    let output_id = file_identity(output);
    if output_id.is_none() && std::fs::metadata(output).is_ok() {
        return None; // a device, a FIFO: writing it destroys no input
    }
    let resolved = resolved_path(output);
    for input in inputs {
        let input = input.as_ref();
        if input == Path::new("-") {
            continue;
        }
        if output_id.is_some() && file_identity(input) == output_id {
            return Some(format!("{} is also an input", output.display()));
        }
        let is_folder = std::fs::metadata(input).is_ok_and(|m| m.is_dir());
        let read_by_walk = kind_of_path(output).is_some()
            && output.file_name().is_some_and(|name| !name.to_string_lossy().starts_with('.'));
        if let (true, true, Some(out), Ok(folder)) =
            (is_folder, read_by_walk, &resolved, input.canonicalize())
        {
            if out.starts_with(&folder) {
                return Some(format!(
                    "{} is inside the input folder {}, whose walk would read it",
                    output.display(),
                    input.display()
                ));
            }
        }
    }
    None
}

/// Whether `first` and `second` are the same regular file (existing, or to be created at the
/// same place).
pub fn same_output(first: &Path, second: &Path) -> bool {
    match (file_identity(first), file_identity(second)) {
        (Some(a), Some(b)) => a == b,
        (None, None) if std::fs::metadata(first).is_err() && std::fs::metadata(second).is_err() => {
            resolved_path(first).is_some() && resolved_path(first) == resolved_path(second)
        }
        _ => false,
    }
}

/// A regular file's device and inode.
fn file_identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).ok()?;
    metadata.is_file().then(|| (metadata.dev(), metadata.ino()))
}

/// `path` made absolute through its folder, which must exist (the file itself need not).
fn resolved_path(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.canonicalize().ok()?,
        _ => std::env::current_dir().ok()?,
    };
    Some(parent.join(name))
}
