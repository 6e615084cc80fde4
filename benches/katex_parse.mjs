// KaTeX side of the parse benchmark (a benchmark, not a test).
//
//   node benches/katex_parse.mjs [--rounds N] [--limit L] [FILE]
//
// Same input, rounds and output format as examples/parse_bench.rs: all lines are read into
// memory first (empty lines skipped), then each round parses every line with
// katex.__parse(line, {throwOnError: true, strict: "ignore"}) (parse tree only, no HTML/MathML
// rendering), timed with process.hrtime.bigint(), and prints one line:
//   katex round=1 formulas=17902 ok=... err=... bytes=... seconds=... formulas_per_s=... mb_per_s=...
// FILE defaults to ../shared/corpus-real/im2latex100k_norm_test_val.txt (relative to the repo root).
import { readFileSync } from "node:fs";
import katex from "katex";

const DEFAULT_FILE = "../shared/corpus-real/im2latex100k_norm_test_val.txt";

function usage() {
  console.error("usage: katex_parse.mjs [--rounds N] [--limit L] [FILE]");
  process.exit(2);
}

function number(value) {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 0) usage();
  return n;
}

let rounds = 1;
let limit = Infinity;
let path = DEFAULT_FILE;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === "--rounds" || arg === "-n") rounds = number(args[++i]);
  else if (arg === "--limit") limit = number(args[++i]);
  else if (arg.startsWith("-")) usage();
  else path = arg;
}

let text;
try {
  text = readFileSync(path, "utf8");
} catch (e) {
  console.error(`katex_parse: cannot read ${path}: ${e.message}`);
  process.exit(1);
}
// Same split as Rust's str::lines(): "\n" or "\r\n".
const lines = text
  .split("\n")
  .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
  .filter((l) => l.trim() !== "")
  .slice(0, limit);
const bytes = lines.reduce((sum, l) => sum + Buffer.byteLength(l, "utf8"), 0);

const options = { throwOnError: true, strict: "ignore" };
let sink = 0; // keeps the results observable
for (let round = 1; round <= rounds; round++) {
  let ok = 0;
  let err = 0;
  const start = process.hrtime.bigint();
  for (const line of lines) {
    try {
      const tree = katex.__parse(line, options);
      sink += tree.length;
      ok++;
    } catch (e) {
      err++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(
    `katex round=${round} formulas=${lines.length} ok=${ok} err=${err} bytes=${bytes} ` +
      `seconds=${seconds.toFixed(6)} formulas_per_s=${(lines.length / seconds).toFixed(0)} ` +
      `mb_per_s=${(bytes / seconds / 1e6).toFixed(3)}`,
  );
}
if (sink < 0) console.log(sink);
