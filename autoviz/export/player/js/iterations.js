/* ---- iterations.js: a training run at a glance: the loss and a chosen parameter per
   iteration as a plot beside the player; any iteration one click away (a condensed one is
   expanded by the widget's kernel, issue 16 item 9) ---- */

class RunPlot {
  constructor(player) {
    this.player = player;
    const its = player.data.iterations;
    this.its = its;
    this.n = its.first.length;
    this.condensedAt = new Map(); // entry -> {first, last}
    for (const run of its.condensed) this.condensedAt.set(run.entry, run);
    const names = Object.keys(its.values);
    this.choice = h(
      "select",
      { class: "av-param", "aria-label": "Parameter plotted beside the loss" },
      h("option", { value: "" }, "loss only"),
      ...names.map((name, i) => h("option", { value: name, selected: i === 0 }, name)),
    );
    this.plot = h("div", { class: "av-plot" });
    this.go = h("input", { class: "av-go", type: "number", min: 1, max: this.n, value: 1, "aria-label": "Iteration to go to" });
    this.note = h("p", { class: "av-muted av-run-note", role: "status" });
    // Open from the start where iterations are condensed: there the plot is their picture.
    this.panel = h(
      "details",
      { class: "av-panel av-run", open: its.condensed.length > 0 },
      h("summary", {}, h("h2", {}, `${this.n} iterations`)),
      this.plot,
      h("div", { class: "av-run-row" }, this.choice, h("label", {}, "iteration ", this.go), h("button", { type: "button", "data-go": "" }, "Go")),
      this.note,
    );
    player.side.append(this.panel);
    player.listen(this.choice, "change", () => this.draw());
    player.listen(this.panel, "click", (event) => {
      if (event.target.closest("[data-go]")) this.visit(Number(this.go.value) - 1);
      const svg = event.target.closest("svg");
      if (svg) {
        const r = svg.getBoundingClientRect();
        this.visit(Math.round(((event.clientX - r.left) / r.width) * (this.n - 1)));
      }
    });
    player.listen(this.go, "keydown", (event) => {
      if (event.key === "Enter") this.visit(Number(this.go.value) - 1);
    });
    player.on("step", () => this.draw());
    const model = player.model;
    this.kernel = typeof model.send === "function";
    if (this.kernel) {
      const onReply = (msg) => {
        if (msg && msg.kind === "expanded" && msg.error) this.note.textContent = `The kernel could not expand it: ${msg.error}`;
      };
      model.on("msg:custom", onReply);
      player.cleanups.push(() => model.off("msg:custom", onReply));
    }
  }

  /* The iteration (position) the step shown belongs to. */
  current() {
    const k = this.player.data.steps[this.player.current].index;
    let i = 0;
    while (i + 1 < this.n && this.its.first[i + 1] <= k) i++;
    return i;
  }

  /* Go to iteration i: its first step when shown in full; a condensed one is expanded by the
     widget's kernel, and the page goes to the entry standing for it. */
  visit(i) {
    if (!Number.isFinite(i)) return;
    i = Math.max(0, Math.min(this.n - 1, i));
    const player = this.player;
    if (this.its.full.includes(i)) {
      this.note.textContent = "";
      player.request(player.entryOf(this.its.first[i]));
      return;
    }
    if (this.kernel) {
      this.note.textContent = `Expanding iteration ${i + 1} in the kernel…`;
      player.model.send({ kind: "expand", iteration: i });
      return;
    }
    player.request(player.entryOf(this.its.first[i]));
    const how = { python: `: in Jupyter, autoviz.Stepper expands it; or export with full_iterations=[${i}]`, cli: ": export again with --full-iterations all to step through it" }[this.its.advice] || "";
    this.note.textContent = `Iteration ${i + 1} is condensed in this file${how}.`;
  }

  draw() {
    const W = 300;
    const H = 96;
    const pad = 6;
    const now = this.current();
    const x = (i) => pad + (this.n > 1 ? (i / (this.n - 1)) * (W - 2 * pad) : (W - 2 * pad) / 2);
    const line = (series, cls) => {
      const ys = series.filter((v) => v !== null);
      if (!ys.length) return null;
      const log = ys.every((v) => v > 0) && Math.max(...ys) / Math.min(...ys) > 100;
      const f = (v) => (log ? Math.log10(v) : v);
      const lo = Math.min(...ys.map(f));
      const hi = Math.max(...ys.map(f));
      const y = (v) => H - pad - (hi > lo ? ((f(v) - lo) / (hi - lo)) * (H - 2 * pad) : (H - 2 * pad) / 2);
      const points = series.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
      return svgEl("polyline", { class: cls, points: points.join(" ") });
    };
    const name = this.choice.value;
    const svg = svgEl(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", class: "av-plot-svg", role: "img", "aria-label": this.summary(now, name) },
      ...this.its.condensed.map((run) => svgEl("rect", { class: "av-plot-condensed", x: x(run.first), y: 0, width: Math.max(1, x(run.last) - x(run.first)), height: H })),
      svgEl("line", { class: "av-plot-now", x1: x(now), x2: x(now), y1: 0, y2: H }),
      line(this.its.loss, "av-plot-loss"),
      name ? line(this.its.values[name], "av-plot-param") : null,
    );
    const key = h(
      "p",
      { class: "av-plot-key" },
      h("span", { class: "av-key-loss" }, "— loss"),
      name ? h("span", { class: "av-key-param" }, `- - ${name}`) : null,
      this.its.condensed.length ? h("span", { class: "av-key-condensed" }, "▒ condensed") : null,
    );
    this.plot.replaceChildren(svg, key);
    this.go.value = String(now + 1);
  }

  summary(now, name) {
    const loss = this.its.loss.filter((v) => v !== null);
    const span = loss.length ? `, ${fmt(loss[0])} to ${fmt(loss[loss.length - 1])}` : " (no finite loss recorded)";
    return `Loss per iteration${span}${name ? `, and ${name}` : ""}; now at iteration ${now + 1} of ${this.n}`;
  }
}

EXTENSIONS.push((player) => {
  const its = player.data.iterations;
  if (its && its.first && its.first.length > 1) player.runPlot = new RunPlot(player);
});
