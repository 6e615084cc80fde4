//! Batch readers: the equations of a `.tex` and a `.md` fixture with their ids and lines,
//! JSONL and line files, and a folder with a file that is not UTF-8 and a path that cannot be
//! read (error records, the walk goes on, one record per formula).

use eqmap::batch::extract::{equations, Flavor};
use eqmap::batch::readers::Reader;
use eqmap::batch::{Input, Unit};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/batch").join(name)
}

/// Every input of `paths`, flattened, in order.
fn inputs(paths: &[PathBuf]) -> Vec<Input> {
    Reader::new(paths).flat_map(|unit| unit.inputs().to_vec()).collect()
}

/// (id without the folder, line, latex or error) of every input.
fn rows(paths: &[PathBuf]) -> Vec<(String, Option<usize>, Result<String, String>)> {
    let root = format!("{}/", Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/batch").display());
    inputs(paths).into_iter().map(|i| (i.id.replace(&root, ""), i.line, i.content)).collect()
}

fn ok(id: &str, line: usize, latex: &str) -> (String, Option<usize>, Result<String, String>) {
    (id.to_string(), Some(line), Ok(latex.to_string()))
}

#[test]
fn a_tex_document_gives_its_equations_with_file_and_line() {
    let found = rows(&[fixture("paper.tex")]);
    let expected = vec![
        ok("paper.tex:6", 6, r"Q \in \mathbb{R}^{n \times d_k}"),
        ok("paper.tex:6#2", 6, r"K \in \mathbb{R}^{m \times d_k}"),
        ok("paper.tex:8", 8, "x"),
        ok(
            "paper.tex:9",
            9,
            "\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V\n  \\label{eq:attention}",
        ),
        ok(
            "paper.tex:13",
            13,
            "m_t &= \\beta_1 m_{t-1} + (1 - \\beta_1) g_t \\\\\n  v_t &= \\beta_2 v_{t-1} + (1 - \\beta_2) g_t^2",
        ),
        ok(
            "paper.tex:21",
            21,
            r"\mathrm{LayerNorm}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} \odot \gamma + \beta",
        ),
        ok("paper.tex:24", 24, r"p_\theta(x)"),
        ok("paper.tex:25", 25, r"\mathcal{L} = -\sum_{i=1}^{N} \log p_\theta(x_i)"),
        ok("paper.tex:26", 26, "a = b + c"),
        ok("paper.tex:29", 29, "y = x_1 + x_2 \\\\\n  + x_3"),
        ok("paper.tex:33", 33, "x &= 1 & y &= 2"),
        ok("paper.tex:35", 35, r"\operatorname{softmax}(W\mathbf{x}) \in \mathbb{R}^{d}"),
        ok("paper.tex:35#2", 35, r"\norm{\mathbf{x}}"),
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (found, expected) in found.iter().zip(&expected) {
        // Comments are blanked, not cut: compare with the trailing blanks of each line removed.
        let squeeze = |r: &Result<String, String>| {
            r.clone().map(|t| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n"))
        };
        assert_eq!((&found.0, found.1, squeeze(&found.2)), (&expected.0, expected.1, squeeze(&expected.2)));
    }
}

#[test]
fn tex_documents_are_one_unit_so_their_formulas_share_a_table() {
    let units: Vec<Unit> = Reader::new(&[fixture("paper.tex")]).collect();
    assert_eq!(units.len(), 1);
    assert!(matches!(&units[0], Unit::Document(inputs) if inputs.len() == 13));
}

#[test]
fn markdown_skips_code_comments_and_dollar_amounts() {
    let found = rows(&[fixture("notes.md")]);
    let expected = vec![
        ok("notes.md:3", 3, r"\mathbf{x} \in \mathbb{R}^{d}"),
        ok("notes.md:11", 11, r"\mathbf{q} = W_q \mathbf{x}"),
        ok("notes.md:15", 15, "a+b"),
        ok("notes.md:15#2", 15, "c"),
        ok("notes.md:15#3", 15, "d"),
    ];
    assert_eq!(found, expected);
}

#[test]
fn unclosed_math_in_tex_is_an_error_not_a_silent_drop() {
    let found = equations("text $x$ and\n\\begin{equation} y = 1\n", Flavor::Tex);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].latex, Ok("x".to_string()));
    assert_eq!(found[1].line, 2);
    assert!(found[1].latex.as_ref().is_err_and(|e| e.contains("\\end{equation}")), "{:?}", found[1]);
    // Markdown: a lone dollar is text.
    assert!(equations("costs $5 today", Flavor::Markdown).is_empty());
}

#[test]
fn a_documents_own_commands_without_arguments_are_expanded() {
    let text = "\\newcommand*{\\E}{\\mathbb{E}} \\renewcommand\\Sx{\\Sigma x}\n\\def\\a{\\b_1} \\def\\b{c}\n\\def\\loop{\\loop\\loop}\n\\newcommand{\\f}[1]{#1}\n$\\E[\\Sx] + \\a + \\f{y} + \\Ex$ $\\loop$\n";
    let found: Vec<_> = equations(text, Flavor::Tex).into_iter().map(|e| e.latex).collect();
    assert_eq!(found[0], Ok(r"\mathbb{E}[\Sigma x] + c_1 + \f{y} + \Ex".to_string()), "{text}");
    let looped = found[1].clone().unwrap_or_default();
    assert!(looped.len() <= 2 * eqmap::batch::macros::MAX_EXPANDED_BYTES, "bounded: {}", looped.len());
    let markdown = equations("$\\E$\n\\newcommand{\\E}{F}", Flavor::Markdown);
    assert_eq!(markdown[0].latex, Ok(r"\E".to_string()), "Markdown keeps commands as written");
}

#[test]
fn tex_comments_and_escaped_dollars_are_not_math() {
    let text = "a 50\\% rate % $not$\n\\$5 and $y$ \\[ z \\] % \\[ w \\]\n";
    let found: Vec<_> = equations(text, Flavor::Tex).into_iter().map(|e| (e.line, e.latex)).collect();
    assert_eq!(found, vec![(2, Ok("y".to_string())), (2, Ok("z".to_string()))]);
}

#[test]
fn jsonl_records_keep_their_ids_and_bad_lines_become_error_records() {
    let found = rows(&[fixture("records.jsonl")]);
    assert_eq!(found.len(), 5, "every non-blank line is a record: {found:#?}");
    assert_eq!(found[0], ok("first", 1, "a = b"));
    assert_eq!(found[1], ok("7", 2, r"\sqrt{x}"));
    assert_eq!(found[2], ok("records.jsonl:4", 4, "x + 1"), "no id: FILE:LINE");
    assert!(found[3].2.as_ref().is_err_and(|e| e.contains("records.jsonl:5") && e.contains("not a JSON")));
    assert!(found[4].2.as_ref().is_err_and(|e| e.contains("no \"latex\"")), "{:?}", found[4]);
}

#[test]
fn line_files_give_one_record_per_non_blank_line() {
    let found = rows(&[fixture("formulas.txt")]);
    assert_eq!(
        found,
        vec![
            ok("formulas.txt:1", 1, r"\frac{1}{2}"),
            ok("formulas.txt:3", 3, "x^2 + y^2 = z^2"),
            ok("formulas.txt:4", 4, r"\frac{a}{"),
        ]
    );
}

/// A fresh folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eqmap-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn a_folder_with_bad_files_gives_error_records_and_goes_on() {
    let dir = scratch("folder");
    write(&dir.join("a.txt"), b"\xef\xbb\xbfx + 1\r\ny\r\n\xff\xfe bad\nz\n");
    std::fs::create_dir_all(dir.join("sub")).unwrap_or_else(|e| panic!("{e}"));
    write(&dir.join("sub/b.tex"), b"$ok$ and \xc3\x28 $broken$\n");
    write(&dir.join("sub/c.md"), b"$$m$$\n");
    write(&dir.join("sub/ignored.png"), b"\x89PNG");
    write(&dir.join(".hidden.txt"), b"hidden\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("nowhere.txt"), dir.join("dangling.txt"))
        .unwrap_or_else(|e| panic!("{e}"));
    let missing = dir.join("missing.jsonl");
    let mut reader = Reader::new(&[dir.clone(), missing.clone()]);
    let found: Vec<Input> = reader.by_ref().flat_map(|unit| unit.inputs().to_vec()).collect();
    let show = |i: &Input| format!("{} {:?}", i.id.replace(&format!("{}/", dir.display()), ""), i.content);
    let shown: Vec<String> = found.iter().map(show).collect();
    let errors: Vec<&Input> = found.iter().filter(|i| i.content.is_err()).collect();
    // a.txt: 4 lines (one not UTF-8); b.tex: not UTF-8 as a whole; c.md: 1; dangling; missing.
    let expected_records = 4 + 1 + 1 + usize::from(cfg!(unix)) + 1;
    assert_eq!(found.len(), expected_records, "{shown:#?}");
    assert_eq!(found[0].content, Ok("x + 1".to_string()), "the BOM and CRLF are stripped");
    assert!(found[2]
        .content
        .as_ref()
        .is_err_and(|e| e.contains("a.txt") && e.contains("line 3 is not UTF-8")));
    assert_eq!(found[3].content, Ok("z".to_string()), "the file goes on after a bad line");
    assert!(errors
        .iter()
        .any(|i| i.id.ends_with("b.tex") && i.content.as_ref().is_err_and(|e| e.contains("not UTF-8"))));
    assert!(found.iter().any(|i| i.content == Ok("m".to_string())), "the walk goes on after a bad file");
    if cfg!(unix) {
        assert!(errors.iter().any(|i| i.id.ends_with("dangling.txt")), "{shown:#?}");
    }
    let last = found.last().unwrap_or_else(|| panic!("no records"));
    assert!(last.content.as_ref().is_err_and(|e| e.contains("missing.jsonl")), "{last:?}");
    assert_eq!(reader.skipped(), 2, "the .png and the hidden file are skipped");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Extraction round two (issue 16): what derailed every later formula or was taken for math.
#[test]
fn dollars_in_text_urls_and_definitions_do_not_derail_later_formulas() {
    let latex = |text: &str, flavor| -> Vec<Result<String, String>> {
        equations(text, flavor).into_iter().map(|e| e.latex).collect()
    };
    // `$` inside `\text{…}` within math, in `\url`/`\path` and in a `\newcommand` body.
    let tex = "$a \\text{ costs $5 } b$ and $c$\n\\url{http://x.org/$y} \\path|$z| $d$\n\
               \\newcommand{\\dollar}{$} \\def\\cash{$} $e$\n";
    assert_eq!(
        latex(tex, Flavor::Tex),
        [r"a \text{ costs $5 } b", "c", "d", "e"].map(|s| Ok(s.to_string())).to_vec()
    );
    // A `$` in a text group of prose (`\text{costs $5}`) cannot close past the group, as TeX
    // ends math where the group ends: it is one failed equation, and later math is still math.
    let prose = "Price \\text{costs $5} and $x_1$, then {a $b} $c$.\n";
    let found = latex(prose, Flavor::Tex);
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.first().is_some_and(|e| e.as_ref().is_err_and(|m| m.contains("brace group"))), "{found:?}");
    assert_eq!(found.get(1), Some(&Ok("x_1".to_string())), "{found:?}");
    assert!(found.get(2).is_some_and(Result::is_err), "{found:?}");
    assert_eq!(found.get(3), Some(&Ok("c".to_string())), "{found:?}");
    // `\iffalse … \fi` is not extracted; the math after it is.
    let hidden = "\\iffalse $x$ \\fifty $y$ \\fi $z$\n";
    assert_eq!(latex(hidden, Flavor::Tex), vec![Ok("z".to_string())]);
    // In Markdown a blank line ends display math: the next paragraph's formula is its own.
    let unclosed = "$$ a + b\n\nthen $c$ and $$d$$\n";
    assert_eq!(latex(unclosed, Flavor::Markdown), vec![Ok("c".to_string()), Ok("d".to_string())]);
    // Indented code after a blank line is code; indented text continuing a paragraph is not.
    let code = "text\n\n    $x$ in code\n    $y$\n\nafter $z$\ntext\n    $w$\n";
    assert_eq!(latex(code, Flavor::Markdown), vec![Ok("z".to_string()), Ok("w".to_string())]);
    // A lone carriage return is a line break.
    let lines: Vec<usize> = equations("$a$\r$b$\r\n$c$", Flavor::Tex).iter().map(|e| e.line).collect();
    assert_eq!(lines, [1, 2, 3]);
}
