/* ---- scrub.js: the timeline: phase bands and iteration marks along the slider; steps by
   source line (Shift+→ / Shift+←) and by phase (PageDown / PageUp); the counter says where ---- */

const PHASE_NAMES = { forward: "forward", backward: "backward", update: "update", error: "error", condensed: "condensed" };

class Scrubber {
  constructor(player) {
    this.player = player;
    const steps = player.data.steps;
    const graphs = player.data.details ? player.data.details.graphs : [[0, 0]];
    this.iterations = new Set(graphs.map(([, g]) => g)).size;
    this.graphOf = [];
    graphs.forEach(([start, g], r) => {
      const end = r + 1 < graphs.length ? graphs[r + 1][0] : steps.length;
      for (let i = start; i < end; i++) this.graphOf[i] = g;
    });
    // An entry standing for a run of condensed iterations (issue 16 item 9) is a phase of its own.
    const its = player.data.iterations;
    this.condensed = new Map((its ? its.condensed : []).map((run) => [run.entry, run]));
    this.phaseOf = (i) => (this.condensed.has(i) ? "condensed" : steps[i].phase);
    // Runs of one phase within one graph: the bands, and where PageDown goes.
    this.runs = [];
    steps.forEach((s, i) => {
      const last = this.runs[this.runs.length - 1];
      const phase = this.phaseOf(i);
      if (last && last.phase === phase && last.graph === this.graphOf[i]) last.end = i;
      else this.runs.push({ start: i, end: i, phase, graph: this.graphOf[i] });
    });
    this.build();
    Object.assign(player.keys, {
      "Shift+ArrowRight": () => player.request(this.byLine(1)),
      "Shift+ArrowLeft": () => player.request(this.byLine(-1)),
      PageDown: () => player.request(this.byPhase(1)),
      PageUp: () => player.request(this.byPhase(-1)),
    });
    player.on("step", () => this.show());
  }

  build() {
    const player = this.player;
    const n = player.data.steps.length;
    const at = (i) => (n > 1 ? Math.min(100, Math.max(0, ((i + 0.5) / (n - 1)) * 100)) : 100);
    const from = (i) => (n > 1 ? Math.max(0, ((i - 0.5) / (n - 1)) * 100) : 0);
    const bands = h("div", { class: "av-bands", "aria-hidden": "true" });
    for (const run of this.runs) {
      const iteration = this.iterations > 1 ? `iteration ${run.graph + 1}, ` : "";
      const steps = player.data.steps;
      bands.append(
        h("span", {
          class: `av-band av-band-${run.phase}`,
          style: `left: ${from(run.start)}%; width: ${at(run.end) - from(run.start)}%`,
          title: `${iteration}${PHASE_NAMES[run.phase] || run.phase}: steps ${steps[run.start].index + 1}–${steps[run.end].index + 1}`,
        }),
      );
    }
    const starts = this.runs.filter((run, r) => r > 0 && run.graph !== this.runs[r - 1].graph);
    for (const run of starts) {
      bands.append(h("span", { class: "av-mark", style: `left: ${from(run.start)}%`, title: `iteration ${run.graph + 1} starts` }));
    }
    this.whereText = h("span", { class: "av-where" });
    player.counter.before(this.whereText);
    const slider = player.slider;
    this.box = h("div", { class: "av-scrub", title: "Shift+→ next line · PageDown next phase" });
    slider.replaceWith(this.box);
    this.box.append(bands, slider);
  }

  /* Where the step is, before the counter: "iteration 2 · backward · " + "step 9 of 12"
     (no iteration for a single graph). */
  where(i = this.player.current) {
    const run = this.condensed.get(i);
    if (run) return `iterations ${grouped(run.first + 1)}–${grouped(run.last + 1)} · condensed · `;
    const step = this.player.data.steps[i];
    const parts = this.iterations > 1 ? [`iteration ${this.graphOf[i] + 1}`] : [];
    parts.push(PHASE_NAMES[step.phase] || step.phase);
    return `${parts.join(" · ")} · `;
  }

  show() {
    this.whereText.textContent = this.where();
    const text = this.whereText.textContent + this.player.counter.textContent;
    this.player.slider.setAttribute("aria-valuetext", text);
  }

  /* The first step of the next (dir 1) or previous (dir -1) run of steps on one code line. */
  byLine(dir) {
    const steps = this.player.data.steps;
    let i = this.player.current;
    const line = steps[i].line;
    if (dir > 0) {
      while (i < steps.length - 1 && steps[i].line === line) i++;
      return i;
    }
    // Back to where this line's run starts, or if there already, to where the one before does.
    while (i > 0 && steps[i - 1].line === line) i--;
    if (i === this.player.current && i > 0) {
      const before = steps[i - 1].line;
      i--;
      while (i > 0 && steps[i - 1].line === before) i--;
    }
    return i;
  }

  /* The start of the next phase run, or of this one (then the one before) going back. */
  byPhase(dir) {
    const i = this.player.current;
    const r = this.runs.findIndex((run) => run.start <= i && i <= run.end);
    if (dir > 0) return r + 1 < this.runs.length ? this.runs[r + 1].start : this.runs[r].end;
    if (this.runs[r].start < i) return this.runs[r].start;
    return r > 0 ? this.runs[r - 1].start : 0;
  }
}

EXTENSIONS.push((player) => {
  player.scrubber = new Scrubber(player);
});
