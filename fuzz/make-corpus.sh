#!/usr/bin/env bash
# Builds the fuzz corpora (git-ignored) from the test fixtures and fuzz/seeds/:
#   fuzz/corpus/{parse,roundtrip,map,read}/  one formula a file
#   fuzz/corpus/eval/                         `let`/`dim` lines and formulas, one script a file
#   fuzz/corpus/batch/                        a selector byte (0 lines, 1 JSONL, 2 .tex, 3 .md)
#                                             and a file's content
#   fuzz/corpus/{documents,nesting,definitions}/  byte strings that the targets build inputs
#                                             from (see each target's header)
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures
mkdir -p corpus/formulas corpus/eval
n=0
emit() { n=$((n + 1)); printf '%s' "$1" > "corpus/formulas/seed-$n"; }
for file in "$fixtures"/seeds/*.tex "$fixtures"/errors/*.tex; do
  emit "$(cat "$file")"
done
while IFS=$'\t' read -r unicode latex; do
  [ -n "$unicode" ] && emit "$unicode" && emit "$latex"
done < "$fixtures"/unicode/pairs.txt
for target in parse roundtrip map read direct; do
  mkdir -p "corpus/$target"
  cp corpus/formulas/* "corpus/$target/"
done
rm -r corpus/formulas
# Eval: the golden cases (bindings as `let` lines, then the formulas), the error fixtures
# (already `let` lines after the formula) and the committed seeds.
python3 - "$fixtures"/eval/cases.json <<'PY'
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
for i, case in enumerate(cases):
    lines = [f"let {name}={json.dumps(value, separators=(',', ':'))}" for name, value in case.get("lets", {}).items()]
    lines += case["formulas"]
    open(f"corpus/eval/case-{i}", "w").write("\n".join(lines))
PY
for file in "$fixtures"/eval/errors/*.txt; do
  cp "$file" "corpus/eval/error-$(basename "$file" .txt)"
done
cp seeds/eval/* corpus/eval/
# Batch: the batch fixtures and slices of the corpus of paper equations, each behind the
# byte that picks its reader.
mkdir -p corpus/batch
b=../tests/fixtures/batch
{ printf '\x00'; cat "$b/formulas.txt"; } > corpus/batch/lines
{ printf '\x01'; cat "$b/records.jsonl"; } > corpus/batch/records
{ printf '\x02'; cat "$b/paper.tex"; } > corpus/batch/paper
{ printf '\x03'; cat "$b/notes.md"; } > corpus/batch/notes
{ printf '\x01'; head -n 20 ../corpus/equations.jsonl; } > corpus/batch/corpus-head
{ printf '\x00'; cut -c1-300 "$b/formulas.txt" | head -n 50; } > corpus/batch/lines-short
# The generating targets: a few byte strings that reach every fragment, delimiter and line kind.
mkdir -p corpus/documents corpus/nesting corpus/definitions
python3 - <<'PY'
import os
def put(target, name, data):
    open(os.path.join("corpus", target, name), "wb").write(bytes(data))
# documents: selector (bit 0 .md, bit 1 wild, bit 2 folder), folder entries (a bit each),
# fragments.
put("documents", "tex-strict-all", [0, 0] + list(range(24)))
put("documents", "md-strict-all", [1, 0] + list(range(16)))
put("documents", "tex-strict-lone-cr", [0, 0, 0x40, 0x46, 0x48, 0x4a, 0x4c, 0x47, 0x60])
put("documents", "tex-folder", [4, 0xFF] + list(range(24)))
put("documents", "md-folder", [5, 0xFF] + list(range(16)))
put("documents", "tex-wild", [2, 0] + list(range(120)))
put("documents", "md-wild-folder", [7, 0x3F] + list(range(120, 240)))
# nesting: depth (two bytes), ending (well formed, a close dropped, `x^` at the bottom,
# closes reversed, cut), delimiters.
for depth in (40, 257, 3000):
    for ending in range(5):
        for picks in ([4], list(range(33)), [28, 29, 30]):
            put("nesting", f"d{depth}-e{ending}-{picks[0]}-{len(picks)}", [depth >> 8, depth & 255, ending] + picks)
# definitions: selector (step limit, language, bindings), then (line kind, argument) pairs.
put("definitions", "doubling", [2, 2, 0] + [b for k in range(1, 21) for b in (0, k)] + [12, 20])
put("definitions", "tenfold", [0, 2, 0] + [b for k in range(1, 9) for b in (217, k)] + [12, 8])
put("definitions", "mutual", [1, 4, 0, 5, 0, 17, 0, 3, 3, 12, 3])
put("definitions", "shadow", [0x42, 2, 0, 9, 1, 23, 2, 8, 2, 10, 3, 11, 9, 18, 2, 19, 2, 14, 2, 15, 0, 16, 2, 22, 2, 20, 3, 21, 2, 7, 200, 12, 2])
put("definitions", "every-kind", [2] + [b for i in range(24) for b in (i, i + 1)])
PY
echo "corpora: $(ls corpus/parse | wc -l) formulas, $(ls corpus/eval | wc -l) eval scripts, $(ls corpus/batch | wc -l) batch files, $(ls corpus/documents | wc -l) documents, $(ls corpus/nesting | wc -l) nestings, $(ls corpus/definitions | wc -l) definition sessions"
