/* ---- picture.js: each graph's layouts (one per direction) and the per-step changes ---- */

/* One laid-out SVG of a graph. Its slots (node and edge classes, label texts) are found once,
   by id, when it is first shown; `shown` is what its DOM holds now. */
class Variant {
  constructor(svg, direction, keys) {
    this.svg = svg;
    this.direction = direction;
    this.keys = keys;
    this.slots = null;
    this.shown = null;
    const box = svg.viewBox.baseVal;
    this.frame = { x: box.x, y: box.y, w: box.width, h: box.height }; // the SVG's own box
    this.box = this.frame; // the drawing without its legend, once measured
    this.legend = takeLegend(svg);
    svg.removeAttribute("width"); // the camera sizes it and moves it (see camera.js)
    svg.removeAttribute("height");
    this.raster = null; // the scale it is drawn at, CSS px per viewBox unit
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.classList.add("av-svg");
    this.groups = null;
    this.bounds = new Map(); // group id -> its box in viewBox units, measured once
    this.edgeEnds = null; // node id -> [[edge id, other node id], ...]
  }

  resolve() {
    if (this.slots) return;
    this.groups = new Map();
    for (const g of this.svg.querySelectorAll("g[id]")) this.groups.set(g.id, g);
    // A slot is a group's class, a label row's text, or a heatmap cell's fill ("nf").
    this.slots = this.keys.map(([kind, id, row]) => {
      const g = this.groups.get(id);
      if (kind === "nc" || kind === "ec") return { el: g, attr: "class" };
      if (kind === "nf") return { el: g.querySelectorAll("polygon.cell")[row], attr: "fill" };
      const text = kind === "et" ? g.querySelector("text.flow") : g.querySelectorAll("text")[row];
      return { el: text, attr: null };
    });
    this.shown = this.slots.map(read);
    const graph = this.svg.querySelector("g.graph");
    this.matrix = graph ? graph.transform.baseVal.consolidate()?.matrix : null;
  }

  /* Make the DOM show `values` (the graph's state), writing only the slots that differ. */
  sync(values) {
    this.resolve();
    for (let i = 0; i < values.length; i++) {
      if (this.shown[i] !== values[i]) this.write(i, values[i]);
    }
  }

  write(i, value) {
    const slot = this.slots[i];
    if (slot.attr) slot.el.setAttribute(slot.attr, value);
    else slot.el.textContent = value;
    this.shown[i] = value;
  }

  /* Every node's and edge's box, measured in one layout when the variant is first shown:
     measuring one while stepping would force a layout in the middle of the step. */
  measureAll() {
    if (this.measured) return;
    this.measured = true;
    const drawn = [];
    for (const [id, g] of this.groups) {
      const b = this.boundsOf(id);
      if (b && id !== "graph0" && !g.classList.contains("legend")) drawn.push(b);
    }
    // The legend is the player's key, beside the stage: the camera frames the graph alone.
    if (this.legend.length && drawn.length) {
      const u = union(drawn);
      const pad = 8;
      this.box = { x: u.x - pad, y: u.y - pad, w: u.w + 2 * pad, h: u.h + 2 * pad };
    }
  }

  /* A group's box in viewBox units (getBBox is in the graph group's units). */
  boundsOf(id) {
    if (!this.bounds.has(id)) {
      const g = this.groups.get(id);
      let b = null;
      if (g) {
        const r = g.getBBox();
        const m = this.matrix || { a: 1, d: 1, e: 0, f: 0 };
        b = { x: r.x * m.a + m.e, y: r.y * m.d + m.f, w: r.width * m.a, h: r.height * m.d };
      }
      this.bounds.set(id, b);
    }
    return this.bounds.get(id);
  }

  /* Every node id -> the edges at it and the nodes at their other ends. */
  edgeIndex() {
    this.neighbours("");
    return this.edgeEnds;
  }

  /* Node id -> the edges at it and the nodes at their other ends, from Graphviz's titles. */
  neighbours(id) {
    if (!this.edgeEnds) {
      this.edgeEnds = new Map();
      for (const g of this.svg.querySelectorAll("g.edge")) {
        const title = g.querySelector("title");
        const ends = title ? title.textContent.split("->") : [];
        if (ends.length !== 2) continue;
        const [a, b] = ends;
        if (!this.edgeEnds.has(a)) this.edgeEnds.set(a, []);
        if (!this.edgeEnds.has(b)) this.edgeEnds.set(b, []);
        this.edgeEnds.get(a).push([g.id, b]);
        this.edgeEnds.get(b).push([g.id, a]);
      }
    }
    return this.edgeEnds.get(id) || [];
  }
}

/* The legend's entries (a swatch's look and its words), the legend itself hidden: the player
   shows them as its key, never under the camera's edge or the minimap. */
function takeLegend(svg) {
  const entries = [];
  for (const g of svg.querySelectorAll("g.legend")) {
    g.style.display = "none";
    if (!g.classList.contains("node")) continue;
    const shape = g.querySelector("title + *");
    const text = [...g.querySelectorAll("text")];
    const look = (name) => (shape ? shape.getAttribute(name) : null);
    const width = look("stroke-width") === null ? 1 : Number(look("stroke-width"));
    const drawn = shape && shape.tagName !== "text" && width > 0 && !["transparent", "none"].includes(look("stroke"));
    entries.push({
      kind: g.id.replace(/^legend-/, ""),
      words: text.map((t) => t.textContent).join(" "),
      colour: text.length ? text[0].getAttribute("fill") : null,
      shape: drawn ? shape.tagName : null,
      fill: look("fill"),
      stroke: look("stroke"),
      dashed: Boolean(look("stroke-dasharray")),
      width,
    });
  }
  return entries;
}

/* How many SVGs a layout has: one per direction, then its overviews. */
function variantCount(layout) {
  return layout.directions.length + (layout.overviews || []).length;
}

function read(slot) {
  return slot.attr ? slot.el.getAttribute(slot.attr) : slot.el.textContent;
}

/* Every layout, the state of each graph, and stepping: a step writes only the slots it
   changes, and an undo list makes stepping back as cheap as stepping forward. */
class Picture {
  constructor(data, svgs, stage) {
    this.data = data;
    this.steps = data.steps;
    this.strings = data.strings;
    this.stage = stage;
    // layouts[l][d]: graph l's layout in direction d, a Variant once its SVG is at hand (the
    // page unpacks other directions in the background: `ready` says when all are in).
    this.layouts = data.layouts.map((layout) => layout.directions.map(() => null));
    // folded[l][i]: graph l's overview i (export/overview.py), for Fit (overview.js).
    this.folded = data.layouts.map((layout) => (layout.overviews || []).map(() => null));
    const pending = [];
    data.layouts.forEach((layout, l) => {
      for (let d = 0; d < variantCount(layout); d++) {
        const source = svgs[l][d];
        if (source && typeof source.then === "function") {
          pending.push(source.then((text) => text && this.install(l, d, text)).catch(() => {}));
        } else if (source) {
          this.install(l, d, source);
        }
      }
    });
    this.ready = Promise.all(pending);
    this.directions = data.layouts.length ? data.layouts[0].directions : [];
    this.direction = this.directions[0];
    // Every layout's state starts as its first variant draws it.
    this.values = this.layouts.map((variants) => {
      variants[0].resolve();
      return variants[0].shown.slice();
    });
    this.undo = this.buildUndo();
    this.at = 0;
    this.shown = null; // the variant on screen
  }

  install(l, d, source) {
    const layout = this.data.layouts[l];
    const i = d - layout.directions.length;
    const meta = i >= 0 ? layout.overviews[i] : null;
    const variant = new Variant(toSvg(source), meta ? meta.direction : layout.directions[d], meta ? [] : layout.slots);
    variant.svg.style.display = "none";
    this.stage.prepend(variant.svg); // under the view buttons and the minimap
    if (meta) {
      variant.meta = meta;
      variant.svg.classList.add("av-overview");
      this.folded[l][i] = variant;
    } else {
      this.layouts[l][d] = variant;
    }
  }

  buildUndo() {
    const values = this.values.map((v) => v.slice());
    return this.steps.map((step) => {
      const now = values[step.layout];
      const old = [];
      const c = step.changes;
      for (let i = 0; i < c.length; i += 2) {
        old.push(c[i], now[c[i]]);
        now[c[i]] = this.strings[c[i + 1]];
      }
      return old;
    });
  }

  /* Collect the net value of every touched slot first, then write each slot once. */
  goto(target) {
    const net = this.layouts.map(() => new Map());
    if (target > this.at) {
      for (let k = this.at + 1; k <= target; k++) {
        const c = this.steps[k].changes;
        const into = net[this.steps[k].layout];
        for (let i = 0; i < c.length; i += 2) into.set(c[i], this.strings[c[i + 1]]);
      }
    } else {
      for (let k = this.at; k > target; k--) {
        const c = this.undo[k];
        const into = net[this.steps[k].layout];
        for (let i = 0; i < c.length; i += 2) into.set(c[i], c[i + 1]);
      }
    }
    net.forEach((changes, l) => {
      const values = this.values[l];
      changes.forEach((value, slot) => (values[slot] = value));
    });
    this.at = target;
    return this.show();
  }

  /* Put the current step's layout, in the current direction, on screen and up to date. */
  show() {
    const l = this.steps[this.at].layout;
    const variants = this.layouts[l];
    const variant = variants.find((v) => v && v.direction === this.direction) || variants[0];
    if (variant !== this.shown) {
      if (this.shown) this.shown.svg.style.display = "none";
      variant.svg.style.display = "";
      this.shown = variant;
    }
    variant.resolve();
    variant.measureAll(); // geometry does not change with the classes written below
    variant.sync(this.values[l]);
    return variant;
  }

  /* The directions the current step's layout can be shown in now. */
  offered() {
    return this.layouts[this.steps[this.at].layout].filter(Boolean).map((v) => v.direction);
  }

  /* Each layout's drawing box in a direction, for choosing the one that fits a stage. */
  sizes(direction) {
    return this.data.layouts.map((layout) => {
      const [x, y, w, h] = layout.boxes[Math.max(0, layout.directions.indexOf(direction))];
      return { x, y, w, h };
    });
  }
}
