/* ---- nudge.js: nudge a leaf by h, and set the output's actual change (the recorded graph
   re-run) beside the change its gradient predicts, ∂z/∂w × h ---- */

/* The elementwise ops a page re-runs itself; a widget asks its kernel, which re-runs more
   (autoviz/tracing/replay.py, where the same check is made). */
const BROWSER_OPS = {
  AddBackward0: (a, b) => a + b,
  SubBackward0: (a, b) => a - b,
  RsubBackward1: (a, b) => b - a,
  MulBackward0: (a, b) => a * b,
  DivBackward0: (a, b) => a / b,
  DivBackward1: (a, b) => a / b,
  NegBackward0: (a) => -a,
  ExpBackward0: Math.exp,
  LogBackward0: Math.log,
  TanhBackward0: Math.tanh,
  SigmoidBackward0: (a) => 1 / (1 + Math.exp(-a)),
  ReluBackward0: (a) => Math.max(a, 0),
  SinBackward0: Math.sin,
  CosBackward0: Math.cos,
  SqrtBackward0: Math.sqrt,
  AbsBackward0: Math.abs,
  PowBackward0: (a, b) => a ** b,
  PowBackward1: (a, b) => a ** b,
  PowBackward2: (a, b) => b ** a,
};

/* fn over its arguments' elements, broadcast (numpy's rules) to the output's shape. */
function elementwise(fn, args, shape) {
  const size = shape.reduce((a, b) => a * b, 1);
  const out = [];
  for (let i = 0; i < size; i++) {
    const at = [];
    let rest = i;
    for (let d = shape.length - 1; d >= 0; d--) {
      at.unshift(rest % shape[d]);
      rest = Math.floor(rest / shape[d]);
    }
    out.push(fn(...args.map((a) => pick(a, at))));
  }
  return shape.length ? nest(out, shape) : out[0];
}

function pick(value, at) {
  const shape = shapeOf(value);
  let v = value;
  at.slice(at.length - shape.length).forEach((i, d) => (v = v[shape[d] === 1 ? 0 : i]));
  return num(v);
}

function close(a, b) {
  const x = flat(a).map(num);
  const y = flat(b).map(num);
  return x.length === y.length && x.every((v, i) => (Number.isNaN(v) && Number.isNaN(y[i])) || Math.abs(v - y[i]) <= 1e-6 + 1e-4 * Math.abs(y[i]));
}

/* Re-run graph g with node `leaf` (its element `at`) raised by h, in the page. Throws an
   Error saying why when an op on the way is not one it knows. */
function replayInPage(facts, g, leaf, at, h) {
  const d = facts.d;
  const first = facts.player.data.steps.find((s, i) => facts.graph(i) === g).index;
  const start = (i) => {
    const n = d.nodes[i];
    return elements(n.graph === -1 ? facts.at(n.value, Math.max(first, n.step || 0)) : n.value && n.value[0][1]);
  };
  const reached = new Set([leaf]);
  const ops = [];
  d.nodes.forEach((n, i) => {
    if (n.kind === "op" && n.graph === g && (n.inputs || []).some((j) => reached.has(j))) {
      ops.push(i);
      if (n.output !== undefined) reached.add(n.output);
    }
  });
  const run = (values, check) => {
    for (const i of ops) {
      const n = d.nodes[i];
      const fn = BROWSER_OPS[n.op];
      if (!fn || fn.length !== n.inputs.length || n.output === undefined) throw new Error(`${n.op} needs a live kernel: this page re-runs elementwise ops only`);
      const args = n.inputs.map((j) => (values.has(j) ? values.get(j) : start(j)));
      if (args.some((a) => a === null || a === undefined)) throw new Error(`a value ${n.op} reads was not recorded`);
      const out = d.nodes[n.output];
      const result = elementwise(fn, args, out.shape);
      if (check && out.value && !close(result, elements(out.value[0][1]))) throw new Error(`re-running ${n.op} did not give ${out.name}'s recorded value`);
      values.set(n.output, result);
    }
    return values;
  };
  const root = facts.root(g);
  if (!reached.has(root)) throw new Error(`${d.nodes[root].name} does not depend on ${d.nodes[leaf].name}`);
  const before = run(new Map(), true).get(root);
  let nudged = JSON.parse(JSON.stringify(start(leaf)));
  if (at.length) {
    let v = nudged;
    at.slice(0, -1).forEach((i) => (v = v[i]));
    v[at[at.length - 1]] = num(v[at[at.length - 1]]) + h;
  } else {
    nudged = num(nudged) + h;
  }
  const after = run(new Map([[leaf, nudged]]), false).get(root);
  if (shapeOf(before).length) throw new Error(`the output ${d.nodes[root].name} is not a scalar`);
  return { output: d.nodes[root].name, before, after, change: after - before, ops: ops.length };
}

class Nudger {
  constructor(player, inspector) {
    this.player = player;
    this.inspector = inspector;
    this.h = "0.01";
    this.element = new Map(); // node index -> the element chosen (a tensor leaf)
    this.results = new Map(); // "graph:node:element:h" -> result or {error}
    this.pending = new Map();
    this.asked = 0;
    const model = player.model;
    this.kernel = typeof model.send === "function";
    if (this.kernel) {
      const onMessage = (msg) => this.answered(msg);
      model.on("msg:custom", onMessage);
      player.cleanups.push(() => model.off("msg:custom", onMessage));
    }
    inspector.sections.push((i) => this.section(i));
    player.listen(inspector.card, "click", (event) => {
      const cell = event.target.closest && event.target.closest("rect[data-index]");
      if (cell && cell.closest(".av-heat-value")) {
        const i = inspector.facts.nodeAt(inspector.selected);
        this.element.set(i, cell.dataset.index.split(",").filter(Boolean).map(Number));
        inspector.renderCard();
      }
      if (event.target.closest("[data-nudge]")) this.run();
    });
    player.listen(inspector.card, "keydown", (event) => {
      if (event.key === "Enter" && event.target.classList.contains("av-h")) this.run();
    });
    player.listen(inspector.card, "input", (event) => {
      if (event.target.classList.contains("av-h")) this.h = event.target.value;
    });
  }

  key(i) {
    return `${this.inspector.facts.graph()}:${i}:${this.at(i)}:${this.h}`;
  }

  at(i) {
    const n = this.inspector.facts.node(i);
    return this.element.get(i) || n.shape.map(() => 0);
  }

  /* The card's section for a leaf that requires grad: h, the prediction, the re-run. */
  section(i) {
    const f = this.inspector.facts;
    const n = f.node(i);
    if (n.kind !== "leaf" || !n.requires_grad || f.root() === null || !f.exists(i)) return null;
    const at = this.at(i);
    const where = at.length ? `[${at.join(", ")}]` : "";
    const name = `${n.name}${where}`;
    const z = f.rootName();
    const input = h("input", { class: "av-h", type: "text", inputmode: "decimal", value: this.h, "aria-label": `h: how much to add to ${name}`, spellcheck: "false" });
    const out = [
      h("h3", {}, "nudge and verify"),
      h("div", { class: "av-nudge-row" }, h("label", {}, `${name} + h, h = `, input), h("button", { type: "button", "data-nudge": "" }, "Nudge")),
    ];
    if (at.length) out.push(h("p", { class: "av-muted" }, "Click a cell of the value's heatmap to nudge that element."));
    const hv = Number(this.h.replace("−", "-"));
    const sent = f.received(i);
    const known = at.length ? elements(sent) : sent;
    const slope = known === undefined || known === null ? undefined : at.length ? pickAt(known, at) : num(known);
    const predicted = slope === undefined || !Number.isFinite(hv) ? null : slope * hv;
    out.push(
      h("p", { class: "av-predicted" }, slope === undefined
        ? `predicted Δ${z} ≈ ∂${z}/∂${name} × h: known once backward has reached ${n.name}`
        : `predicted Δ${z} ≈ ∂${z}/∂${name} × h = ${fmt(slope, f.p)} × ${fmt(hv, f.p)} = ${fmt(predicted, f.p)}`),
    );
    const result = this.results.get(this.key(i));
    if (result && result.error) out.push(h("p", { class: "av-actual av-needs" }, `actual Δ${z}: ${result.error}`));
    else if (result === "pending") out.push(h("p", { class: "av-actual" }, `actual Δ${z}: re-running in the kernel…`));
    else if (result) {
      const gap = predicted === null ? 0 : result.change - predicted;
      const noise = 1e-9 * Math.max(1, Math.abs(result.after));
      const agree = predicted === null ? "" : Math.abs(gap) <= noise ? " — as predicted" : ` — ${fmt(gap, 2)} from the prediction${Math.abs(gap) > 0.01 * Math.abs(predicted) ? ": try a smaller h" : ""}`;
      out.push(
        h("p", { class: "av-actual" }, `actual Δ${z} = ${z}(${name} + h) − ${z}(${name}) = ${fmt(result.after, 6)} − ${fmt(result.before, 6)} = ${fmt(result.change, f.p)}${agree}`),
        h("p", { class: "av-muted" }, `${result.where}: ${result.ops} op${result.ops === 1 ? "" : "s"} re-run`),
      );
    }
    return h("section", { class: "av-nudge", "aria-live": "polite" }, ...out);
  }

  run() {
    const inspector = this.inspector;
    const f = inspector.facts;
    const i = f.nodeAt(inspector.selected);
    const hv = Number(this.h.replace("−", "-"));
    const key = this.key(i);
    if (!Number.isFinite(hv)) {
      this.results.set(key, { error: `${JSON.stringify(this.h)} is not a number: type a small h such as 0.01` });
    } else if (this.kernel) {
      const id = ++this.asked;
      this.pending.set(id, key);
      this.results.set(key, "pending");
      this.player.model.send({ kind: "nudge", id, graph: f.graph(), node: `n${i + 1}`, element: this.at(i), h: hv });
    } else {
      try {
        this.results.set(key, { ...replayInPage(f, f.graph(), i, this.at(i), hv), where: "re-run in this page" });
      } catch (error) {
        this.results.set(key, { error: error.message });
      }
    }
    inspector.renderCard();
  }

  /* The kernel's answer (autoviz.Stepper re-runs the graph with autoviz/tracing/replay.py). */
  answered(msg) {
    if (!msg || msg.kind !== "nudged" || !this.pending.has(msg.id)) return;
    const key = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    this.results.set(key, msg.error ? { error: msg.error } : { ...msg.result, where: "re-run in the kernel" });
    if (this.inspector.selected !== null) this.inspector.renderCard();
  }
}

function pickAt(value, at) {
  let v = value;
  for (const i of at) v = v[i];
  return num(v);
}

EXTENSIONS.push((player) => {
  if (player.inspector) player.nudger = new Nudger(player, player.inspector);
});
