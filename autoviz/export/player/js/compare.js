/* ---- compare.js: two timelines side by side, stepping together (phase by phase when their
   lengths differ): autoviz.compare(tl_a, tl_b), as a widget and as one HTML page ---- */

/* Keeps two players on matching steps: the same step when they have as many, else the same
   place in the same phase of the same iteration. */
class Sync {
  constructor(players) {
    this.players = players;
    this.moving = false;
    players.forEach((player, i) => player.on("step", () => this.follow(i)));
    // Projector mode is the pair's: both sides take the large type.
    players.forEach((player) => player.on("projector", (on) => players.forEach((p) => p.setProjector(on))));
  }

  follow(i) {
    if (this.moving) return;
    this.moving = true;
    try {
      const from = this.players[i];
      this.players.forEach((other, j) => {
        if (j === i) return;
        const k = this.counterpart(from, other, from.current);
        if (k !== other.current) other.goto(k);
      });
    } finally {
      this.moving = false;
    }
  }

  counterpart(from, to, i) {
    if (from.data.steps.length === to.data.steps.length) return i;
    const runs = from.scrubber.runs;
    const run = runs.find((r) => r.start <= i && i <= r.end);
    const theirs = to.scrubber.runs;
    let match = theirs.find((r) => r.graph === run.graph && r.phase === run.phase);
    if (!match) {
      const before = theirs.filter((r) => r.graph < run.graph || (r.graph === run.graph && r.start <= i));
      match = before.length ? before[before.length - 1] : theirs[0];
      return match.end;
    }
    const t = run.end > run.start ? (i - run.start) / (run.end - run.start) : 0;
    return match.start + Math.round(t * (match.end - match.start));
  }
}

/* Two players in `el`, each on a model of its own; `model` is anywidget's (the widget) or the
   page's. Returns a function that takes them down. */
function mountPair(el, model, svgs, page = false) {
  const labels = model.get("labels");
  const box = h("div", { class: "av-compare" });
  el.append(box);
  const tops = new Map(); // each side's header height (layout.js, shareTop)
  const players = model.get("_pair").map((data, i) => {
    const root = h("div", { class: "av-player av-compare-player", "data-side": String(i) });
    box.append(h("section", { class: "av-compare-side", "aria-label": labels[i] }, h("h2", { class: "av-compare-label" }, labels[i]), root));
    const sub = localModel({ _data: data, _svgs: svgs[i], step: model.get("steps")[i], quiz: false, follow: true, projector: false, rankdir: data.rankdir });
    // Each side's step goes back to the pair's `steps` (Python reads it, tests drive it).
    sub.on("change:step", () => {
      const steps = model.get("steps").slice();
      steps[i] = sub.get("step");
      model.set("steps", steps);
      model.save_changes();
    });
    return new Player(root, sub, { page: false, screen: page ? document.documentElement : box, pair: tops });
  });
  const sync = new Sync(players);
  // Side by side while each side keeps a stage a node fits in, else one above the other.
  const fitPair = () => {
    const em = parseFloat(getComputedStyle(players[0].root).fontSize);
    const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
    box.toggleAttribute("data-stacked", (box.clientWidth - gap) / 2 < (STAGE_MIN_EM + 1) * em);
  };
  const observer = new ResizeObserver(fitPair);
  observer.observe(box);
  // Python moved a side (the first that differs from what it shows): the other follows it.
  const moved = () => {
    const steps = model.get("steps");
    const i = players.findIndex((p, j) => p.entryOf(steps[j]) !== p.current);
    if (i >= 0) players[i].request(players[i].entryOf(steps[i]));
  };
  model.on("change:steps", moved);
  if (page) players[0].root.focus({ preventScroll: true });
  return { players, sync, destroy: () => { observer.disconnect(); model.off("change:steps", moved); players.forEach((p) => p.destroy()); } };
}

/* The comparison page: its two data sets and layouts are in the document. */
function startComparePage() {
  const pair = [0, 1].map((side) => JSON.parse(document.getElementById(`av-data-${side}`).textContent));
  const svgs = pair.map((data, side) => {
    return pageSvgs(document.getElementById(`av-layouts-${side}`), data);
  });
  const { labels, steps } = JSON.parse(document.getElementById("av-pair").textContent);
  const model = localModel({ _pair: pair, labels, steps });
  const mounted = mountPair(document.getElementById("av-root"), model, svgs, true);
  for (const side of [0, 1]) document.getElementById(`av-layouts-${side}`).remove();
  window.autoviz = {
    goto: (side, k) => mounted.players[side].request(mounted.players[side].entryOf(k)),
    steps: () => mounted.players.map((p) => p.data.steps[p.current].index),
    players: mounted.players,
  };
}
