#!/usr/bin/env bash
# The PDF paste corpus (issue 20): typeset real formulas with LaTeX, extract the PDF's text
# with pdftotext as a reader's copy and paste would, and compare the map eqmap makes of each
# extracted string with the map of its LaTeX source. A measurement, not part of CI.
#
#   scripts/pdf-paste-corpus.sh [FORMULAS.txt] [OUT_DIR]
#
# FORMULAS.txt: one LaTeX formula a line (default ../shared/corpus-real/d2l_display.txt).
# Installs Debian's texlive and poppler-utils if missing (apt-get, as root). The corpus is
# generated in OUT_DIR (default target/pdf-paste), not committed; the share and the commonest
# reasons are printed by examples/pdf_paste.rs, twice: for plain pdftotext (the figure that
# counts) and for pdftotext -raw. Each prints the strict share (the map of the source as
# written) and a second one against the source with its letter fonts taken off (\mathbf{x}
# as x), which the text of a PDF cannot carry; the strict one is the share quoted.
set -euo pipefail
cd "$(dirname "$0")/.."
formulas=${1:-../shared/corpus-real/d2l_display.txt}
out=${2:-target/pdf-paste}
mkdir -p "$out"

if ! command -v pdflatex >/dev/null || ! command -v pdftotext >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    texlive-latex-base texlive-latex-recommended texlive-fonts-recommended poppler-utils
fi

# One display per formula, each on a page of its own after a marker line the extraction keeps,
# so that the text of formula N is what lies between marker N and marker N+1 — what a reader
# gets who selects that one display. (On a shared page pdftotext's reading order mixes the
# lines of neighbouring displays, which no reader's selection would.)
python3 - "$formulas" "$out" <<'PY'
import sys, pathlib
formulas, out = sys.argv[1], pathlib.Path(sys.argv[2])
lines = [l.rstrip("\n") for l in open(formulas, encoding="utf-8") if l.strip()]
(out / "sources.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
body = []
for i, f in enumerate(lines):
    body.append(f"\\noindent EQMAPMARK{i:05d}\n\\[ {f} \\]\n\\newpage\n")
doc = ("\\documentclass{article}\n\\usepackage[margin=1cm,paperwidth=60cm,paperheight=20cm]{geometry}\n"
       "\\usepackage{amsmath,amssymb,bm}\n\\usepackage[T1]{fontenc}\n\\pagestyle{empty}\n"
       "\\begin{document}\n" + "\n".join(body) + "\\noindent EQMAPMARK99999\n\\end{document}\n")
(out / "corpus.tex").write_text(doc, encoding="utf-8")
PY
(cd "$out" && pdflatex -interaction=nonstopmode corpus.tex >/dev/null 2>&1 || true)

# Two extractions of the same PDF, each kept with its line breaks, as a copy gives them:
#   pasted.jsonl      plain `pdftotext` (poppler's reading order, what Evince and Okular copy);
#   pasted-raw.jsonl  `pdftotext -raw` (the order of the content stream, closer to what pdf.js
#                   in Firefox and Chrome's viewer copy).
# The text of formula N is what lies between marker N and marker N+1; each file holds one
# JSON string a line, formula N's text on line N (a formula whose marker went missing gets
# an empty string).
pdftotext -enc UTF-8 "$out/corpus.pdf" "$out/extracted.txt"
pdftotext -raw -enc UTF-8 "$out/corpus.pdf" "$out/extracted-raw.txt"
python3 - "$out" <<'PY'
import sys, re, json, pathlib
out = pathlib.Path(sys.argv[1])
n = len((out / "sources.txt").read_text(encoding="utf-8").splitlines())
for name in ["", "-raw"]:
    text = (out / f"extracted{name}.txt").read_text(encoding="utf-8")
    parts = re.split(r"EQMAPMARK(\d{5})", text)
    found = {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}
    # The page's own form feed goes; blank lines (pdftotext's block breaks) are kept.
    records = [found.get(i, "").rstrip("\f\n ").lstrip("\n") for i in range(n)]
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    (out / f"pasted{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
PY
cargo build --release --locked --example pdf_paste
echo "== plain pdftotext (the primary figure) =="
target/release/examples/pdf_paste "$out/sources.txt" "$out/pasted.jsonl"
echo "== pdftotext -raw =="
target/release/examples/pdf_paste "$out/sources.txt" "$out/pasted-raw.jsonl"
