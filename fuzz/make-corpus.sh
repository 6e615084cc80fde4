#!/usr/bin/env bash
# Builds the fuzz corpora (git-ignored) from the test fixtures and fuzz/seeds/:
#   fuzz/corpus/{parse,roundtrip,map,read}/  one formula a file
#   fuzz/corpus/eval/                         `let`/`dim` lines and formulas, one script a file
#   fuzz/corpus/batch/                        a selector byte (0 lines, 1 JSONL, 2 .tex, 3 .md)
#                                             and a file's content
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
echo "corpora: $(ls corpus/parse | wc -l) formulas, $(ls corpus/eval | wc -l) eval scripts, $(ls corpus/batch | wc -l) batch files"
