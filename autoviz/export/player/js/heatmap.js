/* ---- heatmap.js: numbers as text and tensors as pictures (a diverging scale centred on 0) ---- */

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child);
  return el;
}

/* A preview's element as a number: the data spells non-finite ones "nan", "inf", "-inf". */
function num(v) {
  if (v === "nan") return NaN;
  if (v === "inf") return Infinity;
  if (v === "-inf") return -Infinity;
  return v;
}

/* A number as autoviz's text.number writes it: `p` significant digits, "7.0" only for exactly
   7 (1363.86 is "1364", never "1364.0"), nan, inf, -inf, -0.0; an integer dtype's elements
   as integers. */
function fmt(v, p = 4, dtype = "") {
  v = num(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v !== "number") return String(v);
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  if (/int|bool|long/.test(dtype)) return dtype === "bool" ? (v ? "True" : "False") : String(v);
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  const strip = (t) => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
  const e = Math.floor(Math.log10(Math.abs(Number(v.toPrecision(p)))));
  let text;
  if (e < -4 || e >= p) {
    const [m, x] = v.toExponential(p - 1).split("e");
    text = `${strip(m)}e${x[0] === "-" ? "-" : "+"}${x.replace(/^[+-]/, "").padStart(2, "0")}`;
  } else {
    text = strip(v.toFixed(Math.max(0, p - 1 - e)));
  }
  return text.includes("e") || text.includes(".") || Number(text) !== v ? text : `${text}.0`;
}

function flat(value) {
  return Array.isArray(value) ? value.flat(Infinity) : [value];
}

/* A tensor's value as autoviz recorded it for the player (text.shown): {shape, text, label,
   heat}; a number or null otherwise. */
function isTensor(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function shapeText(shape) {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

/* A value as the graph's labels and captions write it: a number, or the text autoviz wrote
   for a tensor (its shape, elements or statistics). */
function valueText(value, shape, p = 4, dtype = "") {
  if (isTensor(value)) return value.text;
  if (value === null || value === undefined) return shape.length ? `shape ${shapeText(shape)}, not recorded` : "not recorded";
  return fmt(value, p, dtype);
}

/* A small tensor's elements as nested lists (null for a summarised one): what nudge re-runs. */
function elements(value) {
  if (!isTensor(value)) return value;
  const heat = value.heat;
  if (!heat || heat.block[0] * heat.block[1] !== 1) return null;
  return value.shape.length ? nest(heat.cells.map(num), value.shape) : num(heat.cells[0]);
}

function nest(items, shape) {
  if (shape.length <= 1) return items;
  const step = items.length / shape[0];
  return Array.from({ length: shape[0] }, (_, i) => nest(items.slice(i * step, (i + 1) * step), shape.slice(1)));
}

/* The colour of x on the scale ±m: the same arithmetic as autoviz/render/heat.py. */
function heatColor(scale, x, m) {
  x = num(x);
  if (x === null || x === undefined) return "none";
  if (Number.isNaN(x)) return scale.nan;
  const stops = x > 0 ? scale.positive : scale.negative;
  if (!Number.isFinite(x)) return stops[stops.length - 1];
  const t = m <= 0 ? 0 : Math.min(1, Math.abs(x) / m);
  const where = t * (stops.length - 1);
  const i = Math.min(Math.floor(where), stops.length - 2);
  const f = where - i;
  let out = "#";
  for (const k of [1, 3, 5]) {
    const a = parseInt(stops[i].slice(k, k + 2), 16);
    const b = parseInt(stops[i + 1].slice(k, k + 2), 16);
    out += Math.floor(a + (b - a) * f + 0.5).toString(16).padStart(2, "0");
  }
  return out;
}

const GLYPHS = { nan: "nan", inf: "+∞", "-inf": "−∞" };

/* Where cell (r, c) of a heatmap lies in the tensor: `[i, j, k]` for one element (the leading
   dimensions were flattened into rows), `[0:4, 8:12]` rows and columns for a block. */
function cellIndex(shape, heat, r, c) {
  const [br, bc] = heat.block;
  const cols = shape.length ? shape[shape.length - 1] : 1;
  if (br * bc === 1) {
    let rest = r * cols + c;
    const at = shape.map(() => 0);
    for (let d = shape.length - 1; d >= 0; d--) {
      at[d] = rest % shape[d];
      rest = Math.floor(rest / shape[d]);
    }
    return at;
  }
  const rows = shape.length > 1 ? shape.slice(0, -1).reduce((a, b) => a * b, 1) : 1;
  const span = (i, b, n) => `${i * b}:${Math.min(n, (i + 1) * b)}`;
  return [span(r, br, rows), span(c, bc, cols)];
}

/* A tensor's heatmap as autoviz computed it (text.shown): a cell per element, or per block of
   elements past the cell budget, coloured on the tensor's own scale ±max|x|, its range and
   statistics written out. */
function heatmap(scale, value, shape, { label = "value", p = 4, width = 260, kind = "" } = {}) {
  const heat = value.heat;
  const { rows, cols } = heat;
  const items = heat.cells.map(num);
  const blocked = heat.block[0] * heat.block[1] > 1;
  const cell = Math.max(4, Math.min(18, Math.floor(width / Math.max(cols, 1))));
  const m = heat.limit;
  const svg = svgEl("svg", {
    class: "av-heat-grid",
    width: cols * cell + 1,
    height: rows * cell + 1,
    role: "img",
    "aria-label": `${label}: heatmap of ${rows} × ${cols} ${blocked ? "cells" : "elements"}, scale ±${fmt(m, p)}`,
  });
  items.forEach((x, i) => {
    const r = Math.floor(i / cols);
    const c = i % cols;
    const at = cellIndex(shape, heat, r, c);
    const what = blocked ? `${label}[${at.join(", ")}] mean` : `${label}[${at.join(", ")}]`;
    const attrs = { x: c * cell + 0.5, y: r * cell + 0.5, width: cell, height: cell, fill: heatColor(scale, x, m) };
    if (!blocked) attrs["data-index"] = at.join(",");
    svg.append(svgEl("rect", attrs, svgEl("title", {}, `${what} = ${fmt(x, p)}`)));
    const glyph = Number.isNaN(x) ? GLYPHS.nan : x === Infinity ? GLYPHS.inf : x === -Infinity ? GLYPHS["-inf"] : null;
    if (glyph && cell >= 10) {
      const size = cell * (glyph.length > 2 ? 0.38 : 0.55);
      const t = svgEl("text", { x: c * cell + cell / 2 + 0.5, y: r * cell + cell * 0.7, "font-size": size }, glyph);
      t.setAttribute("class", "av-heat-glyph");
      svg.append(t);
    }
  });
  const how = [
    shape.length > 2 ? `rows: dims 0–${shape.length - 2} flattened` : null,
    blocked ? `each cell the mean of ${heat.block[0]} × ${heat.block[1]} elements` : null,
  ].filter(Boolean);
  return h(
    "figure",
    { class: `av-heat${kind ? ` av-heat-${kind}` : ""}` },
    h("figcaption", { class: "av-heat-title" }, `${label} ${shapeText(shape)}${how.length ? ` · ${how.join(" · ")}` : ""}`),
    svg,
    scaleBar(scale, m, p),
    h("figcaption", {}, heat.stats),
  );
}

/* The scale as a bar from −m (blue) through 0 (grey) to +m (orange), its ends written. */
function scaleBar(scale, m, p) {
  const n = 11;
  const bar = svgEl("svg", { class: "av-heat-bar", width: n * 7, height: 8, "aria-hidden": "true" });
  for (let i = 0; i < n; i++) {
    const x = m * (2 * i / (n - 1) - 1);
    bar.append(svgEl("rect", { x: i * 7, y: 0, width: 7, height: 8, fill: heatColor(scale, x, m) }));
  }
  return h(
    "div",
    { class: "av-heat-scale", title: "blue below zero, orange above; darker is larger" },
    h("span", {}, `−${fmt(m, p)}`),
    bar,
    h("span", {}, `+${fmt(m, p)}`),
  );
}
