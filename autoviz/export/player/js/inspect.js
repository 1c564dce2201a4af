/* ---- inspect.js: details on demand: a node's card, tooltips, labels for screen readers, and
   the links between code lines and nodes ---- */

const KIND_WORDS = {
  leaf: "leaf tensor",
  op: "operation",
  intermediate: "intermediate tensor",
  output: "output tensor",
  constant: "constant tensor",
};

/* The timeline's facts at the step shown: which node or edge a picture's slot shows (a loop's
   later iterations are drawn in the first one's layout), and each field's value at step k. */
class Facts {
  constructor(player) {
    this.player = player;
    this.d = player.data.details;
    this.p = player.data.precision || 4;
    this.edgeFlows = null;
    this.slotOf = new Map(); // graph -> Map node index -> slot id
  }

  get entry() {
    return this.player.data.steps[this.player.current];
  }

  get k() {
    return this.entry.index;
  }

  /* The graph (a training loop's iteration) of entry i. */
  graph(i = this.player.current) {
    const runs = this.d.graphs;
    let lo = 0;
    let hi = runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (runs[mid][0] <= i) lo = mid;
      else hi = mid - 1;
    }
    return runs[lo][1];
  }

  /* Timeline node (or edge) index a slot id shows in graph g; null for legends and boxes. */
  nodeAt(id, g = this.graph()) {
    const alias = this.d.aliases[g];
    if (alias && id in alias.nodes) return alias.nodes[id];
    const m = /^n(\d+)$/.exec(id);
    return m ? Number(m[1]) - 1 : null;
  }

  edgeAt(id, g = this.graph()) {
    const alias = this.d.aliases[g];
    if (alias && id in alias.edges) return alias.edges[id];
    const m = /^e(\d+)$/.exec(id);
    return m ? Number(m[1]) - 1 : null;
  }

  /* The slot id that shows node i in graph g (the inverse of nodeAt). */
  slot(i, g = this.graph()) {
    const alias = this.d.aliases[g];
    if (!alias) return `n${i + 1}`;
    if (!this.slotOf.has(g)) {
      const back = new Map();
      for (const [id, j] of Object.entries(alias.nodes)) back.set(j, id);
      this.slotOf.set(g, back);
    }
    return this.slotOf.get(g).get(i) || `n${i + 1}`;
  }

  node(i) {
    return this.d.nodes[i];
  }

  /* Whether node i is in the graph of the step shown and made by step k. */
  exists(i, k = this.k) {
    const n = this.node(i);
    return n && (n.graph === -1 || n.graph === this.graph()) && (n.step || 0) <= k;
  }

  /* A field's value after step k from its history [[step, value], ...] (undefined: none yet). */
  at(history, k = this.k) {
    let found;
    for (const [step, value] of history || []) {
      if (step > k) break;
      found = value;
    }
    return found;
  }

  value(i, k = this.k) {
    return this.at(this.node(i).value, k);
  }

  grad(i, k = this.k) {
    const g = this.at(this.node(i).grad, k);
    return g === undefined ? null : g;
  }

  /* ∂root/∂node as this backward pass delivered it by step k (the running sum where it fans
     out; a broadcast input's after its sum), or undefined. */
  received(i, k = this.k) {
    const g = this.graph();
    let found;
    let when = -1;
    for (const [step, [root, grad]] of Object.entries(this.d.seeds)) {
      if (root === i && Number(step) <= k && this.graphOfStep(Number(step)) === g) [found, when] = [grad, Number(step)];
    }
    const shape = this.node(i).shape.join();
    for (const e of this.outEdges(i)) {
      const flow = this.flow(e, k);
      if (flow && flow.step >= when && shapeOf(flow.contribution).join() === shape) {
        found = flow.total === undefined ? flow.contribution : flow.total;
        when = flow.step;
      }
    }
    return found;
  }

  /* The edges leaving node i (to the ops that read it). */
  outEdges(i) {
    if (!this.outs) {
      this.outs = new Map();
      this.d.edges.forEach(([source], e) => {
        if (!this.outs.has(source)) this.outs.set(source, []);
        this.outs.get(source).push(e);
      });
    }
    return this.outs.get(i) || [];
  }

  /* The first backward step of graph g (Infinity when it has none). */
  backwardFrom(g) {
    if (!this.firstBackward) {
      this.firstBackward = new Map();
      this.player.data.steps.forEach((s, i) => {
        const h = this.graph(i);
        if (s.phase === "backward" && !this.firstBackward.has(h)) this.firstBackward.set(h, s.index);
      });
    }
    return this.firstBackward.has(g) ? this.firstBackward.get(g) : Infinity;
  }

  graphOfStep(k) {
    return this.graph(this.player.entryOf(k));
  }

  root(g = this.graph()) {
    const i = this.d.roots[g];
    return i === undefined || i === null ? null : i;
  }

  /* The latest gradient flow along edge e in this graph by step k: [upstream, local,
     contribution, total] with its step, or null. */
  flow(e, k = this.k) {
    if (!this.edgeFlows) {
      this.edgeFlows = new Map();
      for (const [step, [upstream, flows]] of Object.entries(this.d.flows)) {
        for (const [e, local, contribution, total] of flows) {
          if (!this.edgeFlows.has(e)) this.edgeFlows.set(e, []);
          this.edgeFlows.get(e).push([Number(step), { upstream, local, contribution, total }]);
        }
      }
      for (const list of this.edgeFlows.values()) list.sort((a, b) => a[0] - b[0]);
    }
    const g = this.graph();
    let found = null;
    for (const [step, f] of this.edgeFlows.get(e) || []) {
      if (step > k) break;
      if (this.graphOfStep(step) === g) found = { step, ...f };
    }
    return found;
  }

  text(value, i) {
    const n = this.node(i);
    return valueText(value, n.shape, this.p, n.dtype);
  }

  retains(i, k = this.k) {
    return Boolean(this.at(this.node(i).retains_grad, k));
  }

  /* What a tensor's grad row says at step k. */
  gradText(i, k = this.k) {
    const n = this.node(i);
    const g = this.grad(i, k);
    if (g !== null) return this.text(g, i);
    if (!n.requires_grad) return "None (requires_grad=False)";
    const started = this.backwardFrom(this.graph()) <= k;
    if ((n.kind === "intermediate" || n.kind === "output") && !this.retains(i, k) && started) return "None (not retained)";
    return "None";
  }

  /* One sentence naming a node and its state: its aria-label, <title> and tooltip. */
  describe(i) {
    const n = this.node(i);
    if (n.kind === "op") {
      const out = n.output === null || n.output === undefined ? null : this.node(n.output);
      const expr = out ? `, ${out.name} = ${n.expression}` : "";
      return `operation ${n.op}${expr}`;
    }
    let text = `${KIND_WORDS[n.kind] || n.kind} ${n.name}, value ${this.text(this.value(i), i)}`;
    if (n.requires_grad) text += `, grad ${this.gradText(i)}`;
    return text;
  }

  /* The name of what backward ran from in this graph, for ∂z/∂w. */
  rootName() {
    const r = this.root();
    return r === null ? "out" : this.node(r).name;
  }
}

class Inspector {
  constructor(player) {
    this.player = player;
    this.facts = new Facts(player);
    this.selected = null; // the slot id of the node whose card is open
    this.sections = []; // more of a tensor's card (nudge-and-verify): node index -> element
    this.linkedLine = null;
    this.card = h("section", { class: "av-panel av-card", hidden: true, tabindex: "-1", "aria-label": "Node details" });
    player.side.prepend(this.card);
    this.tip = h("div", { class: "av-tip", role: "tooltip", hidden: true });
    player.stage.append(this.tip);
    this.announcer = h("div", { class: "av-sr", role: "status", "aria-live": "polite" });
    player.root.append(this.announcer);
    player.stage.setAttribute("role", "group");
    this.wire();
    player.on("picture", (variant) => this.label(variant));
    player.on("step", () => this.stepped());
  }

  wire() {
    const player = this.player;
    const stage = player.stage;
    let down = null;
    player.listen(stage, "pointerdown", (event) => {
      down = { x: event.clientX, y: event.clientY, g: event.target.closest("g.node") };
    }, true);
    // The camera captures the pointer (a drag pans), so the click lands on the stage: a press
    // and release in one place on a node is taken as a click on it.
    player.listen(stage, "pointerup", (event) => {
      if (!down) return;
      const still = Math.hypot(event.clientX - down.x, event.clientY - down.y) < 5;
      const g = down.g;
      down = null;
      if (still && g && this.player.picture.shown.svg.contains(g)) this.select(g.id);
    });
    player.listen(stage, "pointermove", (event) => this.hover(event));
    player.listen(stage, "pointerleave", () => this.hideTip());
    player.listen(stage, "keydown", (event) => {
      const g = event.target.closest && event.target.closest("g.node");
      if (g && event.key === "Enter") {
        event.preventDefault();
        this.select(g.id, true);
      }
    });
    player.listen(player.root, "keydown", (event) => {
      if (event.key === "Escape" && this.selected !== null) {
        const back = this.player.picture.shown.groups.get(this.selected);
        this.close();
        if (back) back.focus({ preventScroll: true });
      }
    });
    player.listen(this.card, "click", (event) => {
      if (event.target.closest("[data-close]")) this.close();
    });
    this.wireCode();
  }

  /* ---- the tooltip ---- */

  hover(event) {
    if (event.buttons) return this.hideTip();
    const g = event.target.closest && event.target.closest("g.node, g.edge");
    const text = g ? this.tipText(g) : null;
    if (!text) return this.hideTip();
    const r = this.player.stage.getBoundingClientRect();
    this.tip.textContent = text;
    this.tip.hidden = false;
    const x = Math.min(event.clientX - r.left + 14, r.width - this.tip.offsetWidth - 6);
    const y = event.clientY - r.top + 18;
    this.tip.style.left = `${Math.max(4, x)}px`;
    this.tip.style.top = `${y + this.tip.offsetHeight > r.height ? y - this.tip.offsetHeight - 28 : y}px`;
  }

  hideTip() {
    this.tip.hidden = true;
  }

  tipText(g) {
    const f = this.facts;
    if (/\bhidden\b/.test(g.getAttribute("class") || "")) return null;
    if (g.classList.contains("node")) {
      const i = f.nodeAt(g.id);
      return i === null || !f.exists(i) ? null : f.describe(i);
    }
    const e = f.edgeAt(g.id);
    if (e === null) return null;
    const [source, target] = f.d.edges[e];
    const from = f.node(source);
    const to = f.node(target);
    const flow = f.flow(e);
    if (!flow) return `${from.name} → ${to.kind === "op" ? to.op : to.name}: no gradient along it yet`;
    const shape = from.shape;
    if (!shape.length && flow.local !== null && flow.local !== undefined) {
      return `gradient to ${from.name}: upstream × local = contribution: ${fmt(flow.upstream, f.p)} × ${fmt(flow.local, f.p)} = ${fmt(flow.contribution, f.p)}`;
    }
    return `gradient to ${from.name}: ${valueText(flow.contribution, shapeOf(flow.contribution), f.p)}`;
  }

  /* ---- labels for screen readers: every node's <title> and aria-label, Tab reaches it ---- */

  label(variant) {
    if (!variant) return;
    variant.resolve();
    const f = this.facts;
    const at = { graph: f.graph(), k: f.k };
    for (const id of this.stale(variant, at)) this.labelNode(variant, id);
    variant.labelled = at;
    const before = variant.selectedShown ?? null;
    if (before !== this.selected) {
      for (const id of [before, this.selected]) {
        const g = id === null ? null : variant.groups.get(id);
        if (g && g.classList.contains("node")) g.toggleAttribute("data-selected", id === this.selected);
      }
      variant.selectedShown = this.selected;
    }
    if (!variant.hits) {
      // A wide invisible stroke along each edge, so a thin line is easy to point at.
      variant.hits = true;
      for (const path of variant.svg.querySelectorAll("g.edge > path")) {
        const hit = path.cloneNode(false);
        hit.setAttribute("class", "av-hit");
        path.after(hit);
      }
    }
  }

  /* The slot ids whose sentence may differ from what `variant` was last labelled with: all of
     them in another graph; else the nodes whose facts change between the two steps (each
     step visiting all 500 nodes, formatting each one's sentence, cost milliseconds). */
  stale(variant, at) {
    const last = variant.labelled;
    if (last && last.graph === at.graph && last.k === at.k) return [];
    const all = variant.groups.keys();
    if (!last || last.graph !== at.graph) return all;
    const lo = Math.min(last.k, at.k);
    const hi = Math.max(last.k, at.k);
    const start = this.facts.backwardFrom(at.graph); // "None" becomes "None (not retained)"
    if (hi - lo > variant.groups.size || (lo < start && start <= hi)) return all;
    const changes = this.changes();
    const ids = new Set();
    for (let k = lo + 1; k <= hi; k++) {
      for (const i of changes.get(k) || []) ids.add(this.facts.slot(i, at.graph));
    }
    return ids;
  }

  /* Step -> the nodes whose sentence can change there: made, or a value, grad or
     retains_grad recorded. */
  changes() {
    if (!this.changedAt) {
      const at = (this.changedAt = new Map());
      const add = (k, i) => {
        if (!at.has(k)) at.set(k, []);
        at.get(k).push(i);
      };
      this.facts.d.nodes.forEach((n, i) => {
        add(n.step || 0, i);
        for (const field of [n.value, n.grad, n.retains_grad]) {
          for (const [k] of field || []) add(k, i);
        }
      });
    }
    return this.changedAt;
  }

  /* A node's <title> and aria-label say what it is now; Tab reaches it once it is made. */
  labelNode(variant, id) {
    const f = this.facts;
    const g = variant.groups.get(id);
    if (!g || !g.classList.contains("node")) return;
    const i = f.nodeAt(id);
    if (i === null || !f.node(i)) return;
    const made = f.exists(i);
    const text = made ? f.describe(i) : `${f.node(i).name}, not made yet at this step`;
    if (g.getAttribute("aria-label") !== text) {
      g.setAttribute("aria-label", text);
      const title = g.querySelector("title");
      if (title) title.textContent = text;
    }
    if (!g.hasAttribute("role")) g.setAttribute("role", "button");
    // Written only when changed: every write restyles the node.
    const tab = made ? "0" : "-1";
    if (g.getAttribute("tabindex") !== tab) g.setAttribute("tabindex", tab);
  }

  stepped() {
    const player = this.player;
    this.label(player.picture.shown);
    if (this.selected !== null) this.renderCard();
    const step = player.data.steps[player.current];
    const text = player.data.strings[step.explain];
    const where = player.scrubber ? player.scrubber.where() : "";
    this.announcer.textContent = `${where}${player.counter.textContent}. ${player.banner.textContent}. ${text}`;
  }

  /* ---- the card ---- */

  select(id, focus = false) {
    this.selected = id;
    this.label(this.player.picture.shown);
    this.renderCard();
    if (focus) this.card.focus({ preventScroll: true });
  }

  close() {
    this.selected = null;
    this.card.hidden = true;
    this.label(this.player.picture.shown);
    this.linkLine(null);
  }

  renderCard() {
    const f = this.facts;
    const i = f.nodeAt(this.selected);
    if (i === null || !f.node(i)) return this.close();
    const n = f.node(i);
    const close = h("button", { type: "button", class: "av-close", "data-close": "", title: "Close (Esc)", "aria-label": "Close the card" }, "×");
    const title = n.kind === "op" ? `${n.symbol && n.symbol !== n.op ? `${n.symbol}  ` : ""}${n.op}` : n.name;
    const body = !f.exists(i)
      ? [h("p", {}, `${n.kind === "op" ? n.op : n.name} is not made yet at this step.`)]
      : n.kind === "op"
        ? this.opCard(i)
        : this.tensorCard(i);
    const line = this.lineRow(n, i);
    this.card.replaceChildren(h("header", {}, h("h2", {}, title), close), ...body, line);
    this.card.setAttribute("aria-label", `Details of ${title}`);
    this.card.hidden = false;
    this.linkLine(n.line);
  }

  tensorCard(i) {
    const f = this.facts;
    const n = f.node(i);
    const leaf = n.kind === "leaf" || n.kind === "constant" || !n.requires_grad;
    const grad = f.grad(i);
    const value = f.value(i);
    const kind = `${KIND_WORDS[n.kind] || n.kind} · shape ${shapeText(n.shape)} · ${n.dtype}`;
    const where = [n.module ? `in ${n.module}` : null, n.no_grad ? "made under no_grad" : null, n.detached ? "detached" : null].filter(Boolean);
    const facts = [
      ["is_leaf", leaf ? "True" : "False"],
      ["requires_grad", n.requires_grad ? "True" : "False"],
      ["retains_grad", f.retains(i) ? "True" : "False"],
      ["grad_fn", n.grad_fn ? `<${n.grad_fn}>` : "None"],
    ];
    const row = (name, text) => h("div", {}, h("dt", {}, name), h("dd", {}, text));
    const values = h("dl", { class: "av-values" }, row("value", f.text(value, i)));
    const out = [
      h("p", { class: "av-kind" }, [kind, ...where].join(" · ")),
      h("dl", { class: "av-facts" }, ...facts.map(([k, v]) => row(k, v))),
      values,
    ];
    // The value's and the grad's pictures side by side (each on its own scale, written out).
    const pictures = h("div", { class: "av-heats" });
    if (pictured(value)) pictures.append(heatmap(f.d.scale, value, n.shape, { label: "value", p: f.p, kind: "value" }));
    if (n.requires_grad) {
      values.append(row("grad", f.gradText(i)));
      if (pictured(grad)) pictures.append(heatmap(f.d.scale, grad, n.shape, { label: "grad", p: f.p }));
    }
    if (pictures.children.length) out.push(pictures, h("p", { class: "av-muted av-heat-key" }, "blue < 0 < orange, darker is larger; point at a cell for its number"));
    if (n.requires_grad) {
      const sent = f.received(i);
      if (sent !== undefined) {
        const d = `∂${f.rootName()}/∂${n.name} = ${f.text(sent, i)}`;
        const note = grad === null
          ? " passed through it in this backward pass (call retain_grad() to keep it)"
          : valueText(grad, n.shape, f.p) === valueText(sent, n.shape, f.p)
            ? ""
            : ` in this backward pass; ${n.name}.grad holds the sum over every pass so far`;
        out.push(h("p", { class: "av-chain" }, d + note));
      }
    }
    for (const section of this.sections) {
      const el = section(i);
      if (el) out.push(el);
    }
    return out;
  }

  opCard(i) {
    const f = this.facts;
    const n = f.node(i);
    const outIndex = n.output === undefined ? null : n.output;
    const outName = outIndex === null ? "out" : f.node(outIndex).name;
    const outValue = outIndex === null ? null : f.value(outIndex);
    const result = outIndex === null ? "" : ` = ${f.text(outValue, outIndex)}`;
    const out = [
      h("p", { class: "av-kind" }, `operation (grad_fn of ${outName})`),
      h("p", { class: "av-formula" }, `forward: ${outName} = ${n.expression}${result}`),
    ];
    const locals = (n.locals || []).map((local) => {
      // A tensor op: the gradient it sends this input, as PyTorch's formula.
      if (!local.formula) return h("li", {}, `to ${local.name}: ${local.rule || "(its backward's own rule)"}`);
      let text = `∂${outName}/∂${local.name} = ${local.formula}`;
      if (local.numbers && local.numbers !== local.formula) text += ` = ${local.numbers}`;
      const shown = local.numbers && Number(local.numbers) === num(local.value);
      if (local.value !== undefined && !shown) text += ` = ${valueText(local.value, shapeOf(local.value), f.p)}`;
      return h("li", {}, text);
    });
    const heading = (n.locals || []).some((local) => local.formula) ? "local derivatives" : "what backward sends each input";
    if (locals.length) out.push(h("h3", {}, heading), h("ul", { class: "av-locals" }, ...locals));
    const chain = this.chainRule(i, n);
    if (chain) out.push(...chain);
    return out;
  }

  /* At or after this op's backward step (in this graph): upstream × local = contribution. */
  chainRule(i, n) {
    const f = this.facts;
    const inputs = n.inputs || [];
    const rows = [];
    let when = null;
    for (const e of f.d.edges.keys()) {
      const [source, target] = f.d.edges[e];
      if (target !== i) continue;
      const flow = f.flow(e);
      if (!flow) continue;
      when = flow.step;
      const from = f.node(source);
      const shape = shapeOf(flow.contribution);
      const text = !shape.length && flow.local !== null && flow.local !== undefined
        ? `→ ${from.name}: ${fmt(flow.upstream, f.p)} × ${fmt(flow.local, f.p)} = ${fmt(flow.contribution, f.p)}`
        : `→ ${from.name}: ${valueText(flow.contribution, shape, f.p)}`;
      rows.push(h("li", {}, text));
      if (pictured(flow.contribution)) rows.push(h("li", {}, heatmap(f.d.scale, flow.contribution, shape, { label: `to ${from.name}`, p: f.p })));
    }
    if (!rows.length || !inputs.length) return null;
    const now = when === f.k ? "now, in backward" : `in backward (step ${when + 1})`;
    return [h("h3", {}, `upstream × local = contribution — ${now}`), h("ul", { class: "av-locals" }, ...rows)];
  }

  lineRow(n, i) {
    const code = this.player.data.code;
    if (n.line === null || n.line === undefined || !code[n.line]) return null;
    const src = code[n.line];
    const how = this.usedAt.has(i) ? " (first used; made before the traced code)" : "";
    return h("p", { class: "av-line" }, h("span", { class: "av-muted" }, `line ${src.line}${how}: `), h("code", {}, src.text));
  }

  /* ---- code ↔ graph ---- */

  wireCode() {
    const player = this.player;
    const f = this.facts;
    const list = player.codeList;
    // Each code line's nodes: the ops and results it made, and tensors it created (a leaf
    // first used there, made before the traced block, is not the line's own).
    this.byLine = new Map();
    const usedAt = (this.usedAt = new Set());
    f.d.nodes.forEach((n) => {
      if (n.kind !== "op") return;
      for (const j of n.inputs || []) if (f.node(j).line === n.line) usedAt.add(j);
    });
    f.d.nodes.forEach((n, i) => {
      if (n.line === null || n.line === undefined || usedAt.has(i)) return;
      if (!this.byLine.has(n.line)) this.byLine.set(n.line, []);
      this.byLine.get(n.line).push(i);
    });
    [...list.children].forEach((li, line) => {
      if (!player.data.steps.some((s) => s.line === line)) return;
      li.tabIndex = 0;
      li.classList.add("av-jump");
      li.title = "Go to the first step this line caused (click, or Enter)";
    });
    const lineOf = (event) => {
      const li = event.target.closest && event.target.closest("li");
      return li && li.parentElement === list ? [...list.children].indexOf(li) : null;
    };
    const light = (event) => this.lightLine(lineOf(event));
    player.listen(list, "pointerover", light);
    player.listen(list, "focusin", light);
    player.listen(list, "pointerleave", () => this.lightLine(null));
    player.listen(list, "focusout", () => this.lightLine(null));
    player.listen(list, "click", (event) => this.jumpTo(lineOf(event)));
    player.listen(list, "keydown", (event) => {
      if (event.key === "Enter") this.jumpTo(lineOf(event));
    });
  }

  /* Highlight the nodes line `line` made (null: none) in the picture on screen. */
  lightLine(line) {
    const f = this.facts;
    const variant = this.player.picture.shown;
    if (!variant) return;
    variant.resolve();
    for (const g of variant.svg.querySelectorAll("[data-linked]")) g.removeAttribute("data-linked");
    if (line === null) return;
    for (const i of this.byLine.get(line) || []) {
      if (!f.exists(i, Infinity)) continue;
      const g = variant.groups.get(f.slot(i));
      if (g) g.setAttribute("data-linked", "");
    }
  }

  /* Go to the first step line `line` caused in this iteration, else the first of all. */
  jumpTo(line) {
    if (line === null) return;
    const steps = this.player.data.steps;
    const g = this.facts.graph();
    let target = steps.findIndex((s, i) => s.line === line && this.facts.graph(i) === g);
    if (target < 0) target = steps.findIndex((s) => s.line === line);
    if (target >= 0) this.player.request(target);
  }

  /* The code line of the selected node, marked in the code panel. */
  linkLine(line) {
    const list = this.player.codeList;
    for (const li of list.querySelectorAll(".av-linked")) li.classList.remove("av-linked");
    if (line !== null && line !== undefined && list.children[line]) list.children[line].classList.add("av-linked");
  }
}

/* Whether a value has a heatmap: a tensor autoviz recorded. */
function pictured(value) {
  return isTensor(value) && Boolean(value.heat);
}

function shapeOf(value) {
  if (isTensor(value)) return value.shape;
  const shape = [];
  while (Array.isArray(value)) {
    shape.push(value.length);
    value = value[0];
  }
  return shape;
}

EXTENSIONS.push((player) => {
  if (player.data.details) player.inspector = new Inspector(player);
});
