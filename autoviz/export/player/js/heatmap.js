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

/* A number as Python's autoviz writes it (`%.{p}g`, "2.0" not "2", nan, inf, -inf); an
   integer dtype's elements as integers. */
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
  return text.includes("e") || text.includes(".") ? text : `${text}.0`;
}

function flat(value) {
  return Array.isArray(value) ? value.flat(Infinity) : [value];
}

function shapeText(shape) {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

/* A value as the graph's labels write it: a number, or a shape and its first elements. */
function valueText(value, shape, p = 4, dtype = "") {
  if (!shape.length) return value === null || value === undefined ? "?" : fmt(value, p, dtype);
  const items = value === null || value === undefined ? [] : flat(value);
  const head = items.slice(0, 4).map((v) => fmt(v, p, dtype)).join(", ");
  const more = items.length > 4 ? ", …" : "";
  return `shape ${shapeText(shape)}${items.length ? ` [${head}${more}]` : ""}`;
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

function heatLimit(items) {
  let m = 0;
  for (const v of items) if (Number.isFinite(v)) m = Math.max(m, Math.abs(v));
  return m;
}

const GLYPHS = { nan: "?", inf: "+∞", "-inf": "−∞" };

/* A 1-D or 2-D tensor's elements as a grid of cells (one per element, a 1-D tensor as one
   row), its colour scale ±max|x| with the range written out, and what is not finite. */
function heatmap(scale, value, shape, { label = "value", p = 4, width = 260, kind = "" } = {}) {
  const items = flat(value).map(num);
  const [rows, cols] = shape.length === 1 ? [1, shape[0]] : [shape[0], shape[1]];
  const cell = Math.max(4, Math.min(18, Math.floor(width / Math.max(cols, 1))));
  const m = heatLimit(items);
  const svg = svgEl("svg", {
    class: "av-heat-grid",
    width: cols * cell + 1,
    height: rows * cell + 1,
    role: "img",
    "aria-label": `${label}: heatmap of ${rows} × ${cols} elements, scale ±${fmt(m, p)}`,
  });
  items.forEach((x, i) => {
    const r = Math.floor(i / cols);
    const c = i % cols;
    const where = shape.length === 1 ? `[${c}]` : `[${r}, ${c}]`;
    const rect = svgEl(
      "rect",
      {
        x: c * cell + 0.5,
        y: r * cell + 0.5,
        width: cell,
        height: cell,
        fill: heatColor(scale, x, m),
        "data-index": shape.length === 1 ? `${c}` : `${r},${c}`,
      },
      svgEl("title", {}, `${label}${where} = ${fmt(x, p)}`),
    );
    svg.append(rect);
    const glyph = Number.isNaN(x) ? GLYPHS.nan : x === Infinity ? GLYPHS.inf : x === -Infinity ? GLYPHS["-inf"] : null;
    if (glyph && cell >= 10) {
      const t = svgEl("text", { x: c * cell + cell / 2 + 0.5, y: r * cell + cell * 0.7, "font-size": cell * 0.55 }, glyph);
      t.setAttribute("class", "av-heat-glyph");
      svg.append(t);
    }
  });
  const finite = items.filter(Number.isFinite);
  const mean = finite.length ? finite.reduce((a, b) => a + b, 0) / finite.length : NaN;
  const odd = ["nan", "inf", "-inf"]
    .map((k) => [k, items.filter((x) => fmt(x) === k).length])
    .filter(([, n]) => n)
    .map(([k, n]) => `${GLYPHS[k]} ${k} ×${n}`);
  const stats = finite.length
    ? `min ${fmt(Math.min(...finite), p)}, max ${fmt(Math.max(...finite), p)}, mean ${fmt(mean, p)}`
    : "no finite elements";
  return h(
    "figure",
    { class: `av-heat${kind ? ` av-heat-${kind}` : ""}` },
    h("figcaption", { class: "av-heat-title" }, `${label} ${shapeText(shape)}`),
    svg,
    scaleBar(scale, m, p),
    h("figcaption", {}, `${stats}${odd.length ? ` · ${odd.join(" · ")}` : ""}`),
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
