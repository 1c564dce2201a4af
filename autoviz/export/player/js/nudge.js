/* ---- nudge.js: nudge a leaf by h, and set the output's actual change (the recorded graph
   re-run) beside the change its gradient predicts, ∂z/∂w × h ---- */

/* The page re-runs a graph as the kernel does (autoviz/tracing/replay.py: the same ops, the
   same arguments tried in the same order, the same check): tensors as {s: shape, d: elements
   in row-major order}, in float64. */
const ELEMENTWISE = {
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
const view = (a, s) => tensor(s, a.d);
/* Op name -> [inputs, forward from the inputs and the output's shape]. */
const KERNELS = {
  ...Object.fromEntries(Object.entries(ELEMENTWISE).map(([op, fn]) => [op, [fn.length, (...a) => broadcast(fn, a.slice(0, -1))]])),
  MmBackward0: [2, matmul],
  MvBackward0: [2, matmul],
  DotBackward0: [2, matmul],
  AddmmBackward0: [3, (c, a, b) => broadcast((x, y) => x + y, [c, matmul(a, b)])],
  TBackward0: [1, (a) => permute(a, a.s.map((_, i) => a.s.length - 1 - i))],
  SumBackward0: [1, (a) => tensor([], [sum(a.d)])],
  SumBackward1: [1, sumTo],
  MeanBackward0: [1, (a) => tensor([], [sum(a.d) / a.d.length])],
  MeanBackward1: [1, (a, s) => scale(sumTo(a, s), size(s) / Math.max(1, a.d.length))],
  ViewBackward0: [1, view],
  UnsafeViewBackward0: [1, view],
  ReshapeAliasBackward0: [1, view],
  CloneBackward0: [1, (a) => a],
};
/* Ops whose argument is one of a few: [inputs, the candidates in order, forward with one]. */
const dims = (a) => [-1, ...a.s.slice(0, -1).map((_, i) => i)];
const reductions = (a, b, s) => (s.length ? ["none"] : ["mean", "sum"]);
const CHOSEN = {
  SoftmaxBackward0: [1, dims, (a, s, d) => softmax(a, d, false)],
  LogSoftmaxBackward0: [1, dims, (a, s, d) => softmax(a, d, true)],
  MseLossBackward0: [2, reductions, (a, b, s, r) => reduced(broadcast((x, y) => (x - y) ** 2, [a, b]), r)],
  NllLossBackward0: [2, reductions, (a, t, s, r) => reduced(nll(a, t), r)],
  PermuteBackward0: [1, axesTo, (a, s, p) => permute(a, p)],
};

function tensor(s, d) {
  return { s: s.slice(), d };
}

function fromValue(value) {
  return tensor(shapeOf(value), flat(value).map(num));
}

const size = (s) => s.reduce((a, b) => a * b, 1);
const sum = (d) => d.reduce((a, b) => a + b, 0);
const scale = (t, k) => tensor(t.s, t.d.map((v) => v * k));
const strides = (s) => s.map((_, i) => size(s.slice(i + 1)));

/* fn over its arguments' elements broadcast to one shape (numpy's rules). */
function broadcast(fn, args) {
  const n = Math.max(...args.map((a) => a.s.length));
  const pad = (s) => [...Array(n - s.length).fill(1), ...s];
  const shapes = args.map((a) => pad(a.s));
  const out = shapes[0].map((_, i) => Math.max(...shapes.map((s) => s[i])));
  if (shapes.some((s) => s.some((m, i) => m !== 1 && m !== out[i]))) throw new Error("shapes that do not broadcast");
  const st = shapes.map(strides);
  const d = new Array(size(out));
  const at = out.map(() => 0);
  for (let k = 0; k < d.length; k++) {
    d[k] = fn(...args.map((a, j) => a.d[at.reduce((o, x, i) => o + (shapes[j][i] === 1 ? 0 : x * st[j][i]), 0)]));
    for (let i = n - 1; i >= 0 && ++at[i] === out[i]; i--) at[i] = 0;
  }
  return tensor(out, d);
}

/* numpy's @ for 1-D and 2-D operands. */
function matmul(a, b) {
  const A = a.s.length === 1 ? [1, a.s[0]] : a.s;
  const B = b.s.length === 1 ? [b.s[0], 1] : b.s;
  if (A.length !== 2 || B.length !== 2 || A[1] !== B[0]) throw new Error("shapes @ does not take");
  const d = [];
  for (let i = 0; i < A[0]; i++) {
    for (let j = 0; j < B[1]; j++) {
      let acc = 0;
      for (let k = 0; k < A[1]; k++) acc += a.d[i * A[1] + k] * b.d[k * B[1] + j];
      d.push(acc);
    }
  }
  const s = [...(a.s.length === 2 ? [A[0]] : []), ...(b.s.length === 2 ? [B[1]] : [])];
  return tensor(s, d);
}

function permute(a, axes) {
  const st = strides(a.s);
  const s = axes.map((i) => a.s[i]);
  const at = s.map(() => 0);
  const d = new Array(a.d.length);
  for (let k = 0; k < d.length; k++) {
    d[k] = a.d[axes.reduce((o, ax, i) => o + at[i] * st[ax], 0)];
    for (let i = s.length - 1; i >= 0 && ++at[i] === s[i]; i--) at[i] = 0;
  }
  return tensor(s, d);
}

/* A permutation's axes to the output's shape: reversed (a transpose) first, then the others
   in order (itertools.permutations'). */
function axesTo(a, s) {
  const perms = (rest) => (rest.length ? rest.flatMap((x) => perms(rest.filter((y) => y !== x)).map((p) => [x, ...p])) : [[]]);
  const all = [a.s.map((_, i) => a.s.length - 1 - i), ...perms(a.s.map((_, i) => i))];
  const seen = new Set();
  return all.filter((p) => !seen.has(String(p)) && seen.add(String(p)) && p.every((ax, i) => a.s[ax] === s[i]));
}

/* Sum over `dims` (keepdims: sizes of 1 left in their place). */
function sumDims(a, dims, keep) {
  const s = a.s.map((n, i) => (dims.includes(i) ? 1 : n));
  const st = strides(s);
  const d = new Array(size(s)).fill(0);
  const at = a.s.map(() => 0);
  for (let k = 0; k < a.d.length; k++) {
    d[at.reduce((o, x, i) => o + (dims.includes(i) ? 0 : x * st[i]), 0)] += a.d[k];
    for (let i = a.s.length - 1; i >= 0 && ++at[i] === a.s[i]; i--) at[i] = 0;
  }
  return tensor(keep ? s : a.s.filter((_, i) => !dims.includes(i)), d);
}

/* x summed to `shape` over the dims the shapes tell (replay.py's _sum_to). */
function sumTo(a, shape) {
  if (String(a.s) === String(shape)) return a;
  if (!shape.length) return tensor([], [sum(a.d)]);
  for (const keep of [false, true]) {
    const found = summedDims(a.s, shape, keep);
    if (found) return sumDims(a, found, keep);
  }
  throw new Error(`a sum to (${shape}) over dims the shapes do not tell`);
}

function summedDims(big, small, keep) {
  if (keep) {
    if (big.length !== small.length) return null;
    const found = big.map((n, i) => i).filter((i) => big[i] !== small[i]);
    return found.every((i) => small[i] === 1) ? found : null;
  }
  const subsets = (from, k) => (k === 0 ? [[]] : big.slice(from).flatMap((_, j) => subsets(from + j + 1, k - 1).map((r) => [from + j, ...r])));
  const k = big.length - small.length;
  return k < 0 ? null : subsets(0, k).find((found) => String(big.filter((_, i) => !found.includes(i))) === String(small)) || null;
}

/* (log-)softmax along `dim`, shifted by the line's largest as replay.py does. */
function softmax(a, dim, log) {
  const axis = dim < 0 ? a.s.length + dim : dim;
  const st = strides(a.s);
  const d = a.d.slice();
  const n = a.s[axis];
  for (let k = 0; k < a.d.length; k++) {
    if (Math.floor(k / st[axis]) % n !== 0) continue; // each line once, from its first element
    const line = Array.from({ length: n }, (_, j) => k + j * st[axis]);
    const top = Math.max(...line.map((i) => a.d[i]));
    const total = sum(line.map((i) => Math.exp(a.d[i] - top)));
    for (const i of line) d[i] = log ? a.d[i] - top - Math.log(total) : Math.exp(a.d[i] - top) / total;
  }
  return tensor(a.s, d);
}

function nll(logp, target) {
  if (logp.s.length !== 2 || target.s.length !== 1) throw new Error("an nll_loss of other shapes");
  return tensor([logp.s[0]], target.d.map((t, i) => -logp.d[i * logp.s[1] + Math.trunc(t)]));
}

function reduced(t, how) {
  if (how === "none") return t;
  return tensor([], [how === "mean" ? sum(t.d) / t.d.length : sum(t.d)]);
}

/* numpy's allclose(rtol=1e-4, atol=1e-6, equal_nan) with the shapes equal. */
function agrees(t, recorded) {
  const r = fromValue(recorded);
  return String(t.s) === String(r.s) && t.d.every((v, i) => v === r.d[i] || (Number.isNaN(v) && Number.isNaN(r.d[i])) || Math.abs(v - r.d[i]) <= 1e-6 + 1e-4 * Math.abs(r.d[i]));
}

/* One op over `args`: the first run (check) tries a CHOSEN op's arguments in order and keeps
   the first that gives the recorded value; the nudged run takes the one kept. */
function runOp(n, args, out, chosen, check) {
  const recorded = check && out.value ? elements(out.value[0][1]) ?? null : null;
  const fail = () => new Error(`re-running ${n.op} did not give ${out.name}'s recorded value: it used arguments the timeline does not hold`);
  if (n.op in KERNELS) {
    const result = KERNELS[n.op][1](...args, out.shape);
    if (recorded !== null && !agrees(result, recorded)) throw fail();
    return result;
  }
  const [, options, forward] = CHOSEN[n.op];
  if (chosen.has(n.output)) return forward(...args, out.shape, chosen.get(n.output));
  for (const option of options(...args, out.shape)) {
    let result;
    try {
      result = forward(...args, out.shape, option);
    } catch {
      continue;
    }
    if (recorded === null || agrees(result, recorded)) {
      chosen.set(n.output, option);
      return result;
    }
  }
  throw new Error(`re-running ${n.op} did not give its recorded value with any argument it could take`);
}

/* Re-run graph g with node `leaf` (its element `at`) raised by h, in the page. Throws an
   Error saying why when it cannot (replay.py's refusals). */
function replayInPage(facts, g, leaf, at, h) {
  const d = facts.d;
  const first = facts.player.data.steps.find((s, i) => facts.graph(i) === g).index;
  const start = (i) => {
    const n = d.nodes[i];
    const v = elements(n.graph === -1 ? facts.at(n.value, Math.max(first, n.step || 0)) : n.value && n.value[0][1]);
    return v === null || v === undefined ? null : fromValue(v);
  };
  const reached = new Set([leaf]);
  const ops = [];
  d.nodes.forEach((n, i) => {
    if (n.kind === "op" && n.graph === g && (n.inputs || []).some((j) => reached.has(j))) {
      ops.push(i);
      if (n.output !== undefined) reached.add(n.output);
    }
  });
  const chosen = new Map();
  const run = (values, check) => {
    for (const i of ops) {
      const n = d.nodes[i];
      const known = KERNELS[n.op] || CHOSEN[n.op];
      if (!known) throw new Error(`${n.op} cannot be re-run from the timeline`);
      if (known[0] !== n.inputs.length || n.output === undefined) throw new Error(`${n.op}'s inputs are not all in the timeline: cannot re-run it`);
      const args = n.inputs.map((j) => (values.has(j) ? values.get(j) : start(j)));
      const missing = args.findIndex((a) => a === null);
      if (missing >= 0) throw new Error(`${d.nodes[n.inputs[missing]].name}'s value was not recorded: cannot re-run`);
      values.set(n.output, runOp(n, args, d.nodes[n.output], chosen, check));
    }
    return values;
  };
  const root = facts.root(g);
  if (!reached.has(root)) throw new Error(`${d.nodes[root].name} does not depend on ${d.nodes[leaf].name}: nudging it changes nothing`);
  const before = run(new Map(), true).get(root);
  const nudged = start(leaf);
  if (!nudged) throw new Error(`${d.nodes[leaf].name}'s value was not recorded element by element (a tensor too large to keep whole)`);
  const k = at.reduce((o, x, i) => o + x * strides(nudged.s)[i], 0);
  nudged.d = nudged.d.slice();
  nudged.d[k] += h;
  const after = run(new Map([[leaf, nudged]]), false).get(root);
  if (before.s.length) throw new Error(`the output ${d.nodes[root].name} is not a scalar: its change is a tensor`);
  return { output: d.nodes[root].name, before: before.d[0], after: after.d[0], change: after.d[0] - before.d[0], ops: ops.length };
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
