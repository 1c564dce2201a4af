/* ---- camera.js: the view onto the picture, following the step; pan, zoom, minimap ---- */

const FOCUS_PAD = 28; // CSS px kept free around what the camera frames
const GLIDE_MS = 320;
const MAX_ZOOM = 2; // × the legible scale: a small graph is shown large, not huge
const FOCUS_ZOOM = 1.4; // × the legible scale, at most, when framing part of a graph
const SCALE_STEP = 2 ** 0.25; // framing part of a graph: FOCUS_ZOOM × legible / 2^(j/4)

/* The view is a centre (x, y) in the layout's viewBox units and a scale s (CSS px per unit).
   The SVG is drawn whole at a raster scale and moved as a composited layer (a CSS transform):
   panning repaints nothing, which matters for a picture of 500 nodes or more. When the scale
   settles somewhere new the SVG is drawn again at that scale, so text stays crisp. */
class Camera {
  constructor(stage, options) {
    this.stage = stage;
    this.minText = options.minText; // () -> CSS px the graph's text must reach
    this.fontSize = options.fontSize; // the layout's text size in viewBox units
    this.onMove = options.onMove || (() => {});
    this.follow = true;
    this.variant = null;
    this.view = null;
    this.glide = null; // the glide's animation frame while one is under way
    this.aim = null; // the view that glide ends on
    this.minimap = new Minimap(stage, this);
    this.pointers = new Map();
    this.listen();
  }

  /* The stage's size, as last measured (reading it while stepping would force a layout in
     the middle of the step: the player measures on resize). */
  size() {
    if (!this.W) this.measure();
    return { W: this.W, H: this.H };
  }

  measure() {
    this.W = this.stage.clientWidth;
    this.H = this.stage.clientHeight;
  }

  /* CSS px per viewBox unit at which the graph's text is just legible. */
  legible() {
    return this.minText() / this.fontSize;
  }

  fitScale(box, pad = FOCUS_PAD) {
    const { W, H } = this.size();
    return Math.min((W - 2 * pad) / Math.max(box.w, 1), (H - 2 * pad) / Math.max(box.h, 1));
  }

  /* Frame the nodes the step acts on with their neighbours, as large as legible; a graph that
     fits at a legible scale is shown whole; true for a step about more than three nodes that
     no legible view holds together (the player shows its folded overview instead, when it has
     one). `instant` skips the glide. */
  frame(variant, instant = false) {
    this.scattered = false;
    const switched = variant !== this.variant;
    this.variant = variant;
    const { W, H } = this.size();
    if (!W || !H) return;
    const all = variant.box;
    const legible = this.legible();
    const whole = this.fitScale(all);
    let target = null;
    if (whole >= legible) {
      target = this.centred(all, Math.min(whole, legible * MAX_ZOOM));
    } else {
      const focus = this.focusBoxes(variant);
      if (focus && !switched && this.keeps(focus.own, legible)) {
        if (!this.placed()) this.apply(this.view);
        return; // in view, or soon
      }
      if (focus) target = this.around(focus, legible, switched);
      else target = switched || !this.view ? this.centred(all, whole) : this.destination();
    }
    this.moveTo(target, instant || switched);
    return this.scattered;
  }

  /* Whether the view is on the stage as it is sized now (a glide's frames read the size; a view
     applied before the stage was resized, by a question under it say, is to be applied again). */
  placed() {
    return Boolean(this.glide) || this.shownAt === `${this.W}x${this.H}`;
  }

  /* Where the camera comes to rest: the end of the glide under way, else the view. */
  destination() {
    return this.glide ? this.aim : this.view;
  }

  /* Whether the view the camera comes to rest on shows `box` legibly, well inside its edges:
     then it goes on there (less motion to follow, no repaint). Not the view a glide has got
     to: a step taken mid-glide, on nodes the glide is leaving, would end off stage. */
  keeps(box, legible) {
    const v = this.destination();
    if (!v || v.s < legible || v.s > legible * MAX_ZOOM) return false;
    const { W, H } = this.size();
    const margin = (2 * FOCUS_PAD) / v.s;
    return (
      box.x - margin >= v.x - W / 2 / v.s &&
      box.x + box.w + margin <= v.x + W / 2 / v.s &&
      box.y - margin >= v.y - H / 2 / v.s &&
      box.y + box.h + margin <= v.y + H / 2 / v.s
    );
  }

  /* The step's nodes with their neighbours when that is legible, else with the edges the
     step acts on; else the step's nodes at the legible scale, the view pulled toward those
     edges as far as keeps the nodes in view. Nodes too far apart even for that: the most of
     them a legible view holds (the minimap shows where the others are; a node wider than the
     stage is shown whole); a step about more than three is shown in the overview where the
     picture has one (the player asks it: `scattered`). */
  around({ near, acting, own, boxes, count }, legible, switched) {
    for (const box of [near, acting]) {
      const s = this.fitScale(box);
      if (s >= legible) return this.centred(box, this.steady(s, legible, switched));
    }
    if (this.fitScale(own) < legible) {
      this.scattered = count > 3;
      const group = this.densest(boxes, legible);
      return this.centred(group, Math.min(legible, this.fitScale(group)));
    }
    const { W, H } = this.size();
    const toward = (c, lo, len, view) => {
      const room = Math.max(0, (view - 2 * FOCUS_PAD) / legible - len) / 2;
      return Math.min(Math.max(c, lo + len / 2 - room), lo + len / 2 + room);
    };
    const x = toward(acting.x + acting.w / 2, own.x, own.w, W);
    const y = toward(acting.y + acting.h / 2, own.y, own.h, H);
    return this.centred({ x, y, w: 0, h: 0 }, legible);
  }

  /* The scale to frame a box at, given the scale it just fits at (legible or more): the scale
     the camera comes to rest at, while that is legible and the box fits there; else the
     largest step of a ladder down from FOCUS_ZOOM × legible at which it fits (legible at
     least). A new scale draws the whole SVG again and lays every label in it out anew (30-50
     ms at 500 nodes): steps one after another keep one scale, not one each. */
  steady(fit, legible, switched) {
    const top = legible * FOCUS_ZOOM;
    const v = this.destination();
    if (v && !switched && v.s >= legible && v.s <= Math.min(fit, top)) return v.s;
    const down = Math.ceil(Math.log(top / Math.min(fit, top)) / Math.log(SCALE_STEP) - 1e-9);
    return Math.max(legible, top / SCALE_STEP ** down);
  }

  /* Boxes in viewBox units around what the step acts on: its nodes with their neighbours and
     edges (near), its nodes and its own edges (acting), its nodes alone (own); null when the
     step shows nothing it acts on. */
  focusBoxes(variant) {
    const current = [...variant.svg.querySelectorAll("g.current")].filter(visibleGroup);
    const nodes = current.filter((g) => g.classList.contains("node"));
    if (!current.length) return null;
    const own = (nodes.length ? nodes : current).map((g) => variant.boundsOf(g.id));
    const acting = current.map((g) => variant.boundsOf(g.id));
    const near = acting.slice();
    for (const g of nodes) {
      for (const [edge, other] of variant.neighbours(g.id)) {
        const node = variant.groups.get(other);
        if (node && visibleGroup(node)) near.push(variant.boundsOf(other));
        const line = variant.groups.get(edge);
        if (line && visibleGroup(line)) near.push(variant.boundsOf(edge));
      }
    }
    return { near: union(near), acting: union(acting), own: union(own), boxes: own, count: nodes.length };
  }

  /* The union of the most of `boxes` that a view at scale s holds, centred on one of them. */
  densest(boxes, s) {
    const { W, H } = this.size();
    const hw = Math.max(0, W / 2 - FOCUS_PAD) / s;
    const hh = Math.max(0, H / 2 - FOCUS_PAD) / s;
    let most = [boxes[0]];
    for (const a of boxes) {
      const [cx, cy] = [a.x + a.w / 2, a.y + a.h / 2];
      const held = boxes.filter((b) => b.x >= cx - hw && b.x + b.w <= cx + hw && b.y >= cy - hh && b.y + b.h <= cy + hh);
      if (held.length > most.length) most = held;
    }
    return union(most);
  }

  /* A view of `box` at scale s, kept inside the drawing where the drawing is larger. */
  centred(box, s) {
    const all = this.variant.box;
    const { W, H } = this.size();
    const clamp = (c, half, lo, len) =>
      len <= 2 * half ? lo + len / 2 : Math.min(Math.max(c, lo + half), lo + len - half);
    const x = clamp(box.x + box.w / 2, W / 2 / s, all.x, all.w);
    const y = clamp(box.y + box.h / 2, H / 2 / s, all.y, all.h);
    return { x, y, s };
  }

  moveTo(target, instant) {
    if (!target) return;
    const d = this.destination();
    const same = d && target.x === d.x && target.y === d.y && target.s === d.s;
    if (same && this.placed()) return; // there or going
    this.stop();
    const from = this.view;
    if (instant || !from || prefersReducedMotion()) {
      this.apply(target);
      return;
    }
    const start = performance.now();
    const tick = (now) => {
      const t = Math.min(1, (now - start) / GLIDE_MS);
      const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
      const s = Math.exp(Math.log(from.s) + (Math.log(target.s) - Math.log(from.s)) * e);
      const x = from.x + (target.x - from.x) * e;
      this.apply({ x, y: from.y + (target.y - from.y) * e, s }, t >= 1);
      this.glide = t < 1 ? requestAnimationFrame(tick) : null;
    };
    this.aim = target;
    this.glide = requestAnimationFrame(tick);
  }

  /* End the glide under way where it has got to. */
  stop() {
    cancelAnimationFrame(this.glide);
    this.glide = null;
  }

  /* Show `view`; `settled` (the default) draws the SVG again if its scale changed, else the
     layer is only scaled (a glide's frames, a zoom gesture until it rests). */
  apply(view, settled = true) {
    this.view = view;
    const variant = this.variant;
    if (!variant) return;
    clearTimeout(this.resting);
    if (settled) this.raster(variant, view.s);
    else if (!variant.raster) this.raster(variant, view.s);
    const { W, H } = this.size();
    this.shownAt = `${W}x${H}`;
    const all = variant.frame; // the SVG's origin (its box may leave out the legend)
    const k = view.s / variant.raster;
    const tx = Math.round(W / 2 - (view.x - all.x) * view.s);
    const ty = Math.round(H / 2 - (view.y - all.y) * view.s);
    variant.svg.style.transform = `translate(${tx}px, ${ty}px) scale(${k})`;
    this.minimap.paint();
    this.onMove(view);
  }

  /* Draw the variant's SVG whole at scale s (a repaint; only when s changed). */
  raster(variant, s) {
    if (variant.raster && Math.abs(s / variant.raster - 1) < 1e-3) return;
    variant.raster = s;
    const all = variant.frame;
    variant.svg.style.width = `${all.w * s}px`;
    variant.svg.style.height = `${all.h * s}px`;
  }

  /* A gesture's many small zooms: the layer is scaled at once and drawn again once it rests. */
  zoomTo(view) {
    this.stop(); // the learner's gesture takes over from a glide
    this.apply(view, false);
    this.resting = setTimeout(() => this.apply(this.view), 150);
  }

  /* What the learner asks for: zoom by a factor about a stage point, pan, fit everything. */
  zoom(factor, px, py) {
    if (!this.view) return;
    const { W, H } = this.size();
    const v = this.view;
    px = px ?? W / 2;
    py = py ?? H / 2;
    const s = Math.min(Math.max(v.s * factor, this.fitScale(this.variant.box) / 2), 40);
    // Keep the point under (px, py) where it is.
    const ux = v.x + (px - W / 2) / v.s;
    const uy = v.y + (py - H / 2) / v.s;
    this.zoomTo({ x: ux - (px - W / 2) / s, y: uy - (py - H / 2) / s, s });
  }

  pan(dx, dy) {
    if (!this.view) return;
    const v = this.view;
    this.moveTo({ x: v.x - dx / v.s, y: v.y - dy / v.s, s: v.s }, true);
  }

  fitAll() {
    if (!this.variant) return;
    const all = this.variant.box;
    this.moveTo(this.centred(all, this.fitScale(all)), false);
  }

  /* Whether the view shows less than the whole drawing (then the minimap is shown). */
  zoomedIn() {
    if (!this.view || !this.variant) return false;
    const { W, H } = this.size();
    const all = this.variant.box;
    return W / this.view.s < all.w * 0.98 || H / this.view.s < all.h * 0.98;
  }

  listen() {
    const stage = this.stage;
    stage.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const r = stage.getBoundingClientRect();
        const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0015));
        this.zoom(factor, event.clientX - r.left, event.clientY - r.top);
      },
      { passive: false },
    );
    stage.addEventListener("pointerdown", (event) => {
      if (event.target.closest("button, canvas, input, select")) return;
      try {
        stage.setPointerCapture(event.pointerId); // keeps a drag that leaves the stage
      } catch {
        // a pointer the browser does not track (a synthetic event): followed without capture
      }
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      stage.classList.add("av-dragging");
    });
    stage.addEventListener("pointermove", (event) => {
      const last = this.pointers.get(event.pointerId);
      if (!last) return;
      const now = { x: event.clientX, y: event.clientY };
      if (this.pointers.size === 2) {
        const [other] = [...this.pointers].filter(([id]) => id !== event.pointerId);
        const o = other[1];
        const before = Math.hypot(last.x - o.x, last.y - o.y);
        const after = Math.hypot(now.x - o.x, now.y - o.y);
        const r = stage.getBoundingClientRect();
        if (before > 0) this.zoom(after / before, (now.x + o.x) / 2 - r.left, (now.y + o.y) / 2 - r.top);
      } else {
        this.pan(now.x - last.x, now.y - last.y);
      }
      this.pointers.set(event.pointerId, now);
    });
    const release = (event) => {
      this.pointers.delete(event.pointerId);
      if (!this.pointers.size) stage.classList.remove("av-dragging");
    };
    stage.addEventListener("pointerup", release);
    stage.addEventListener("pointercancel", release);
  }
}

function visibleGroup(g) {
  const cls = g.getAttribute("class") || "";
  return !/\bhidden\b/.test(cls);
}

function union(boxes) {
  const real = boxes.filter(Boolean);
  const x0 = Math.min(...real.map((b) => b.x));
  const y0 = Math.min(...real.map((b) => b.y));
  const x1 = Math.max(...real.map((b) => b.x + b.w));
  const y1 = Math.max(...real.map((b) => b.y + b.h));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/* While zoomed in: the whole drawing small in a corner, its nodes as boxes, the view as a
   frame; a click or drag there moves the view. */
class Minimap {
  constructor(stage, camera) {
    this.camera = camera;
    this.canvas = h("canvas", { class: "av-minimap", "aria-hidden": "true", hidden: true });
    stage.append(this.canvas);
    this.colours = null; // read once: asking for computed style while stepping costs a restyle
    const moveTo = (event) => {
      const p = this.toLayout(event);
      if (p) camera.moveTo({ x: p.x, y: p.y, s: camera.view.s }, true);
    };
    this.canvas.addEventListener("pointerdown", (event) => {
      event.stopPropagation();
      this.canvas.setPointerCapture(event.pointerId);
      moveTo(event);
    });
    this.canvas.addEventListener("pointermove", (event) => {
      if (this.canvas.hasPointerCapture(event.pointerId)) moveTo(event);
    });
  }

  paint() {
    const cam = this.camera;
    const { W, H } = cam.size();
    // A fifth of the stage at most, and none on a stage too small to spare that corner.
    const show = cam.zoomedIn() && W >= 420 && H >= 280;
    this.canvas.hidden = !show;
    if (!show) return;
    const variant = cam.variant;
    const all = variant.box;
    const scale = Math.min(Math.min(168, W / 5) / all.w, Math.min(110, H / 5) / all.h);
    const cw = Math.max(24, Math.round(all.w * scale));
    const ch = Math.max(24, Math.round(all.h * scale));
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== cw * ratio || this.canvas.height !== ch * ratio) {
      this.canvas.width = cw * ratio;
      this.canvas.height = ch * ratio;
      this.canvas.style.width = `${cw}px`;
      this.canvas.style.height = `${ch}px`;
    }
    this.scale = scale;
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, cw, ch);
    if (!this.colours) {
      const style = getComputedStyle(this.canvas);
      this.colours = [style.color, style.getPropertyValue("--accent") || style.color];
    }
    const [ink, accent] = this.colours;
    const toMap = (b) => [(b.x - all.x) * scale, (b.y - all.y) * scale, b.w * scale, b.h * scale];
    for (const g of variant.svg.querySelectorAll("g.node")) {
      if (!visibleGroup(g)) continue;
      const b = variant.boundsOf(g.id);
      if (!b) continue;
      ctx.fillStyle = g.classList.contains("current") ? accent : ink;
      ctx.globalAlpha = g.classList.contains("current") ? 1 : 0.35;
      ctx.fillRect(...toMap(b));
    }
    ctx.globalAlpha = 1;
    const v = cam.view;
    const view = { x: v.x - W / 2 / v.s, y: v.y - H / 2 / v.s, w: W / v.s, h: H / v.s };
    ctx.strokeStyle = accent;
    ctx.lineWidth = 2;
    ctx.strokeRect(...toMap(view));
  }

  toLayout(event) {
    const r = this.canvas.getBoundingClientRect();
    const all = this.camera.variant.box;
    if (!this.scale) return null;
    return { x: all.x + (event.clientX - r.left) / this.scale, y: all.y + (event.clientY - r.top) / this.scale };
  }
}
