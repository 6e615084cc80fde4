// eqmap serve: the page. Everything shown comes from the JSON API of this server; every text
// derived from a formula is set with textContent, and the MathML is rebuilt element by
// element from an allowlist (no markup is ever assigned from a string).
"use strict";

const TEXT = {
  ko: {
    tagline: "식을 붙여 넣으면, 자리마다 막히는 질문과 필요한 수학과 커리큘럼 위치를 보여 줍니다.",
    formulaLabel: "식 (LaTeX, 또는 PDF에서 복사한 글자)",
    curriculumLabel: "커리큘럼",
    go: "지도 그리기",
    slotsHeading: "자리 지도",
    colSlot: "자리", colQuestion: "막히는 질문", colMath: "필요한 수학", colPlace: "커리큘럼 위치",
    hiddenHeading: "식에 보이지 않는 자리",
    pathHeading: "읽는 순서",
    numbersHeading: "숫자로 보기 (표본 행렬로 계산)",
    dimsLabel: "차원 크기", seedLabel: "시드", evalButton: "계산",
    colNode: "노드", colShape: "모양", colMin: "최솟값", colMax: "최댓값", colMean: "평균", colVariance: "분산", colRowSums: "행의 합",
    compareHeading: "다른 식과 비교",
    otherLabel: "다른 식", compareButton: "비교",
    shared: "둘 다 필요한 글", onlyFirst: "이 식에만", onlySecond: "다른 식에만",
    sharedConcepts: "공통 개념",
    footer: "eqmap serve — 이 컴퓨터 안에서만 돕니다. 링크에 식이 담겨 있어 그대로 다시 열립니다.",
    symbols: "기호",
    value: "값의 모양", holds: "등식이 성립합니다", fails: "등식이 성립하지 않습니다",
    rowSumsOk: "softmax의 각 행의 합",
    empty: "식을 넣어 주세요",
    network: "서버에 닿지 못했습니다",
    slotLabel: (latex, question) => `자리 ${latex}: ${question}`,
    none: "없음",
    kinds: { scalar: "스칼라", vector: "벡터", matrix: "행렬", dimension: "크기(차원)", index: "인덱스",
      function: "함수", set: "집합", random_variable: "확률변수", distribution: "분포" },
  },
  en: {
    tagline: "Paste a formula: for each slot, the question that blocks a reader, the math that answers it, and where the curriculum teaches it.",
    formulaLabel: "Formula (LaTeX, or text copied from a PDF)",
    curriculumLabel: "Curriculum",
    go: "Map it",
    slotsHeading: "Slot map",
    colSlot: "Slot", colQuestion: "Question that blocks", colMath: "Math needed", colPlace: "Curriculum",
    hiddenHeading: "Slots the formula does not show",
    pathHeading: "Reading path",
    numbersHeading: "Numbers (evaluated on sample matrices)",
    dimsLabel: "Dimension sizes", seedLabel: "Seed", evalButton: "Evaluate",
    colNode: "Node", colShape: "Shape", colMin: "min", colMax: "max", colMean: "mean", colVariance: "variance", colRowSums: "row sums",
    compareHeading: "Compare with another formula",
    otherLabel: "Other formula", compareButton: "Compare",
    shared: "Articles both need", onlyFirst: "Only this formula", onlySecond: "Only the other",
    sharedConcepts: "Shared concepts",
    footer: "eqmap serve — runs on this computer only. The link holds the formula, so it reopens as is.",
    symbols: "Symbols",
    value: "shape of the value", holds: "the equation holds", fails: "the equation does not hold",
    rowSumsOk: "each softmax row sums to",
    empty: "Type a formula",
    network: "The server could not be reached",
    slotLabel: (latex, question) => `slot ${latex}: ${question}`,
    none: "none",
    kinds: { scalar: "scalar", vector: "vector", matrix: "matrix", dimension: "dimension", index: "index",
      function: "function", set: "set", random_variable: "random variable", distribution: "distribution" },
  },
};

const DEFAULT_FORMULA = "\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V";
const MATHML = "http://www.w3.org/1998/Math/MathML";
const ELEMENTS = new Set(["math", "mrow", "mi", "mn", "mo", "mtext", "mfrac", "msqrt", "mroot", "msub", "msup",
  "msubsup", "munder", "mover", "munderover", "mtable", "mtr", "mtd", "mspace", "mstyle", "mpadded", "mphantom"]);
const ATTRIBUTES = new Set(["data-s", "data-e", "mathvariant", "stretchy", "fence", "form", "separator", "largeop",
  "accent", "accentunder", "linethickness", "display", "class", "width"]);

const state = { lang: "ko", map: null, articles: new Map(), slotElements: [], rows: [] };
const $ = (id) => document.getElementById(id);

function t(key) { return TEXT[state.lang][key]; }

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

async function api(name, body) {
  const response = await fetch("/api/" + name, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  return { ok: response.ok, data };
}

// The byte offset `bytes` of `text`'s UTF-8 as an index into the JavaScript string.
function charIndex(text, bytes) {
  const encoded = new TextEncoder().encode(text);
  return new TextDecoder().decode(encoded.slice(0, Math.max(0, bytes))).length;
}

// --- the URL: #f=FORMULA&lang=LANG reopens the page as it was ------------------------------
function readHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { formula: params.get("f"), lang: params.get("lang"), curriculum: params.get("c") };
}

function writeHash(formula) {
  const params = new URLSearchParams();
  params.set("f", formula);
  params.set("lang", state.lang);
  const curriculum = $("curriculum").value;
  if (curriculum !== "ai-math") params.set("c", curriculum);
  history.replaceState(null, "", "#" + params.toString());
}

// --- the language -----------------------------------------------------------------------------
function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const button of document.querySelectorAll(".langs button")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
  }
}

// --- MathML, copied from the server's markup through the allowlist -----------------------------
function buildMath(markup) {
  const parsed = new DOMParser().parseFromString(markup, "application/xml");
  const root = parsed.documentElement;
  if (!root || root.nodeName !== "math" || parsed.getElementsByTagName("parsererror").length) return null;
  return copyMath(root);
}

function copyMath(source) {
  if (!ELEMENTS.has(source.nodeName)) return document.createTextNode("");
  const target = document.createElementNS(MATHML, source.nodeName);
  for (const attribute of Array.from(source.attributes)) {
    if (ATTRIBUTES.has(attribute.name)) target.setAttribute(attribute.name, attribute.value);
  }
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) target.appendChild(document.createTextNode(child.nodeValue));
    else if (child.nodeType === Node.ELEMENT_NODE) target.appendChild(copyMath(child));
  }
  return target;
}

// The outermost elements of `math` whose span lies within [start, end].
function elementsWithin(math, start, end) {
  const found = [];
  const walk = (node) => {
    for (const child of Array.from(node.children)) {
      if (child.hasAttribute("data-s")) {
        const s = Number(child.getAttribute("data-s"));
        const e = Number(child.getAttribute("data-e"));
        if (start <= s && e <= end && s < e) { found.push(child); continue; }
      }
      walk(child);
    }
  };
  walk(math);
  return found;
}

// --- lighting a slot: its row and its part of the formula ------------------------------------
function light(index, on) {
  const row = state.rows[index];
  if (row) row.classList.toggle("lit", on);
  for (const node of state.slotElements[index] || []) node.classList.toggle("lit", on);
}

function slotOf(node) {
  for (let current = node; current && current !== document; current = current.parentNode) {
    if (current.dataset && current.dataset.slot !== undefined && current.namespaceURI === MATHML) {
      return Number(current.dataset.slot);
    }
  }
  return null;
}

function attachFormulaEvents(math) {
  let current = null;
  const enter = (event) => {
    const index = slotOf(event.target);
    if (index === current) return;
    if (current !== null) light(current, false);
    current = index;
    if (index !== null) light(index, true);
  };
  const leave = () => { if (current !== null) light(current, false); current = null; };
  math.addEventListener("mouseover", enter);
  math.addEventListener("mouseleave", leave);
  math.addEventListener("focusin", enter);
  math.addEventListener("focusout", leave);
}

// --- the map -------------------------------------------------------------------------------
function showError(data, formula) {
  $("result").hidden = true;
  $("error").hidden = false;
  $("error-message").textContent = data.message || t("network");
  $("error-caret").textContent = data.rendered || "";
  if (Array.isArray(data.span) && formula) {
    const area = $("formula");
    area.setSelectionRange(charIndex(formula, data.span[0]), charIndex(formula, data.span[1]));
  }
}

async function loadArticles() {
  const { ok, data } = await api("curriculum", { curriculum: $("curriculum").value, lang: state.lang });
  state.articles = new Map();
  if (ok) for (const article of data.articles) state.articles.set(article.number, article);
}

async function run() {
  const formula = $("formula").value;
  if (!formula.trim()) { showError({ message: t("empty") }); return; }
  writeHash(formula);
  const body = { formula, lang: state.lang, curriculum: $("curriculum").value };
  let map, parse;
  try {
    [map, parse] = await Promise.all([api("map", body), api("parse", { formula, lang: state.lang }), loadArticles()]);
  } catch (error) {
    showError({ message: t("network") });
    return;
  }
  if (!map.ok) { showError(map.data, formula); return; }
  $("error").hidden = true;
  state.map = map.data;
  render(map.data, parse.ok ? parse.data.mathml : null);
}

function render(map, mathml) {
  $("result").hidden = false;
  const box = $("typeset");
  box.replaceChildren();
  const math = mathml ? buildMath(mathml) : null;
  if (math) {
    math.setAttribute("aria-label", map.reading || map.formula);
    box.appendChild(math);
  }
  $("reading").textContent = map.reading || "";
  renderSymbols(map.symbols || []);

  const tbody = $("slots").querySelector("tbody");
  tbody.replaceChildren();
  state.rows = [];
  state.slotElements = [];
  const hidden = $("hidden");
  hidden.replaceChildren();
  map.slots.forEach((slot, index) => {
    if (!slot.visible) {
      const item = el("li");
      item.appendChild(el("strong", slot.latex));
      item.appendChild(document.createTextNode(" — " + slot.question + " · " + slot.math + " · " + slot.place));
      hidden.appendChild(item);
      return;
    }
    const colour = "c" + (index % 8);
    const row = el("tr");
    row.dataset.slot = String(index);
    row.tabIndex = 0;
    row.setAttribute("aria-label", t("slotLabel")(slot.latex, slot.question));
    const first = el("td");
    first.appendChild(el("span", null, "swatch " + colour));
    first.appendChild(el("span", slot.latex, colour));
    row.appendChild(first);
    row.appendChild(el("td", slot.question));
    row.appendChild(el("td", slot.math));
    row.appendChild(el("td", slot.place));
    row.addEventListener("mouseenter", () => light(index, true));
    row.addEventListener("mouseleave", () => light(index, false));
    row.addEventListener("focus", () => light(index, true));
    row.addEventListener("blur", () => light(index, false));
    tbody.appendChild(row);
    state.rows[index] = row;
    const elements = [];
    if (math) {
      for (const [start, end] of slot.spans || []) elements.push(...elementsWithin(math, start, end));
    }
    elements.forEach((node, n) => {
      node.dataset.slot = String(index);
      node.classList.add(colour);
      if (n === 0) {
        node.setAttribute("tabindex", "0");
        node.setAttribute("aria-label", t("slotLabel")(slot.latex, slot.question));
      }
    });
    state.slotElements[index] = elements;
  });
  $("hidden-box").hidden = hidden.children.length === 0;
  if (math) attachFormulaEvents(math);

  const path = $("path");
  path.replaceChildren();
  for (const number of map.reading_path) {
    const article = state.articles.get(number);
    const item = el("li");
    item.appendChild(el("strong", article ? article.label : String(number)));
    if (article) item.appendChild(document.createTextNode(" " + article.title));
    path.appendChild(item);
  }
}

function renderSymbols(symbols) {
  const groups = new Map();
  for (const symbol of symbols) {
    if (!symbol.kind || symbol.kind === "unknown") continue;
    if (!groups.has(symbol.kind)) groups.set(symbol.kind, []);
    groups.get(symbol.kind).push(symbol.latex);
  }
  const parts = [];
  for (const [kind, names] of groups) parts.push(names.join(", ") + ": " + (t("kinds")[kind] || kind));
  $("symbols").textContent = parts.length ? t("symbols") + ": " + parts.join(" · ") : "";
}

// --- numbers: eval with trace ------------------------------------------------------------------
function parseDims(text) {
  const dims = {};
  for (const piece of text.split(/[,\s]+/)) {
    const [name, size] = piece.split("=");
    if (name && size) dims[name.trim()] = size.trim();
  }
  return dims;
}

function number(x) {
  if (typeof x !== "number") return String(x);
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(3) : x.toFixed(4);
}

async function evaluate() {
  const formula = $("formula").value;
  const body = { formula, lang: state.lang, seed: $("seed").value || "1", dim: parseDims($("dims").value), trace: true };
  const { ok, data } = await api("eval", body);
  const tbody = $("trace").querySelector("tbody");
  tbody.replaceChildren();
  const summary = $("eval-summary");
  if (!ok) { summary.textContent = ""; showError(data, formula); return; }
  $("error").hidden = true;
  const parts = [t("value") + ": " + (data.symbolic_shape || JSON.stringify(data.shape))];
  if (data.holds === true) parts.push(t("holds"));
  if (data.holds === false) parts.push(t("fails"));
  summary.textContent = parts.join(" · ");
  for (const row of data.trace || []) {
    const tr = el("tr");
    tr.appendChild(el("td", row.latex));
    tr.appendChild(el("td", row.symbolic + (row.shape && row.shape.length ? "  (" + row.shape.join(" × ") + ")" : "")));
    const stats = row.stats || {};
    for (const key of ["min", "max", "mean", "variance"]) tr.appendChild(el("td", stats[key] === undefined ? "" : number(stats[key])));
    const sums = Array.isArray(row.row_sums) ? row.row_sums.map(number).join(", ") : "";
    const cell = el("td", sums, sums ? "row-sums ok" : "row-sums");
    if (sums) cell.setAttribute("aria-label", t("rowSumsOk") + " " + sums);
    tr.appendChild(cell);
    if (Array.isArray(row.span)) {
      tr.tabIndex = 0;
      const math = $("typeset").querySelector("math");
      const nodes = math ? elementsWithin(math, row.span[0], row.span[1]) : [];
      const toggle = (on) => { tr.classList.toggle("lit", on); nodes.forEach((n) => n.classList.toggle("lit", on)); };
      tr.addEventListener("mouseenter", () => toggle(true));
      tr.addEventListener("mouseleave", () => toggle(false));
      tr.addEventListener("focus", () => toggle(true));
      tr.addEventListener("blur", () => toggle(false));
    }
    tbody.appendChild(tr);
  }
}

// --- compare -------------------------------------------------------------------------------
async function compare() {
  const formulas = [$("formula").value, $("other").value];
  const { ok, data } = await api("compare", { formulas, lang: state.lang, curriculum: $("curriculum").value });
  const list = $("comparison");
  list.replaceChildren();
  if (!ok) { showError(data, formulas[data.which || 0]); return; }
  $("error").hidden = true;
  const label = (n) => { const a = state.articles.get(n); return a ? a.label + " " + a.title : String(n); };
  const rows = [
    [t("shared"), data.shared_articles.map(label)],
    [t("onlyFirst"), data.only_first.map(label)],
    [t("onlySecond"), data.only_second.map(label)],
    [t("sharedConcepts"), data.shared_concepts],
  ];
  for (const [title, items] of rows) {
    list.appendChild(el("dt", title));
    list.appendChild(el("dd", items.length ? items.join(" · ") : t("none")));
  }
}

// --- start -----------------------------------------------------------------------------------
function start() {
  const initial = readHash();
  if (initial.lang === "en" || initial.lang === "ko") state.lang = initial.lang;
  if (initial.curriculum) $("curriculum").value = initial.curriculum;
  $("formula").value = initial.formula || DEFAULT_FORMULA;
  applyLanguage();
  $("form").addEventListener("submit", (event) => { event.preventDefault(); run(); });
  $("formula").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); run(); }
  });
  for (const button of document.querySelectorAll(".langs button")) {
    button.addEventListener("click", () => {
      state.lang = button.dataset.lang;
      applyLanguage();
      run();
    });
  }
  $("curriculum").addEventListener("change", run);
  $("eval").addEventListener("click", evaluate);
  $("compare-go").addEventListener("click", compare);
  window.addEventListener("hashchange", () => {
    const now = readHash();
    if (now.formula && now.formula !== $("formula").value) { $("formula").value = now.formula; run(); }
  });
  run();
}

start();
