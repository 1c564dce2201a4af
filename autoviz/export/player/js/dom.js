/* autoviz player, one ES module for the HTML file and the Jupyter widget (anywidget).
   Parts (joined in this order by autoviz/export/frontend.py): dom, picture, camera, quiz,
   player, main. User text is only ever written with textContent; nothing is evaluated or
   fetched, so the module runs under the HTML page's Content-Security-Policy. */

/* ---- dom.js: element helpers and the page's stand-in for an anywidget model ---- */

/* Views added to every player (node card, timeline bands, …): each is a function of the
   Player, called once its DOM, picture and keys are made and before it shows a step. */
const EXTENSIONS = [];

/* 76004 -> "76,004": counts read as Python writes them in banners and captions. */
function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/* h("button", {class: "x", "data-action": "next"}, "▶"): an element with attributes and
   children (strings become text nodes, never markup). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) el.append(child);
  }
  return el;
}

/* A button's label as its parts: words in spans a narrow row hides ("▶ Play" shows "▶"), the
   symbols always; a label of words alone stays whole. */
function labelled(label) {
  const tokens = label.split(" ");
  if (tokens.every((t) => /\p{L}/u.test(t))) return [label];
  return tokens.map((t, i) => {
    const piece = (i ? " " : "") + t;
    return /\p{L}/u.test(t) ? h("span", { class: "av-word" }, piece) : piece;
  });
}

/* An SVG layout as an element: the widget receives SVG text, the page has it in its DOM. */
function toSvg(source) {
  if (typeof source !== "string") return source;
  const doc = new DOMParser().parseFromString(source, "image/svg+xml");
  return document.importNode(doc.documentElement, true);
}

/* What anywidget's model offers the module (get, set, save_changes, on, off), over plain
   values: the HTML page's traits live here and nowhere else. */
function localModel(values) {
  const handlers = new Map();
  return {
    get: (name) => values[name],
    set(name, value) {
      if (values[name] === value) return;
      values[name] = value;
      for (const fn of handlers.get(`change:${name}`) || []) fn();
    },
    save_changes() {},
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      if (!event) handlers.clear();
      else if (handlers.has(event)) handlers.get(event).delete(fn);
    },
  };
}

function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
