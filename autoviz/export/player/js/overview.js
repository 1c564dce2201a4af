/* ---- overview.js: Fit on a graph too big to read whole on this stage shows the least folded
   of its overviews that is legible here (export/overview.py: modules and repeated blocks
   folded, inner tensors hidden, values left out), the step's nodes marked in it; a click on a
   part unfolds it, Fit again shows everything unfolded, Follow goes back to the step ---- */

class Overview {
  constructor(player) {
    this.player = player;
    this.shown = null; // the overview on the stage
    this.base = null; // the picture it stands for
    this.members = null; // overview group id -> the ids of the picture's nodes it draws
    this.note = h("p", { class: "av-overview-note", role: "status", hidden: true });
    player.key.prepend(this.note);
    player.on("step", () => this.shown && this.mark());
    let down = null;
    player.listen(player.stage, "pointerdown", (event) => {
      down = this.shown && { x: event.clientX, y: event.clientY, g: event.target.closest("g.node") };
    }, true);
    player.listen(player.stage, "pointerup", (event) => {
      const still = down && Math.hypot(event.clientX - down.x, event.clientY - down.y) < 5;
      if (still && down.g && this.shown && this.shown.svg.contains(down.g)) this.unfold(down.g.id);
      down = null;
    });
  }

  /* Fit: the whole picture where it is legible, else the overview that is (the most legible
     one when none is, framed at a legible scale on the step's nodes); true when an overview is
     shown. Fit on an overview unfolds it all. */
  fit(again = false) {
    const player = this.player;
    const cam = player.camera;
    const main = player.picture.shown;
    if (again && this.shown) return this.close() && false;
    const px = (variant, size) => cam.fitScale(variant.box) * size;
    const l = player.data.steps[player.current].layout;
    let chosen = null;
    let best = px(main, player.data.fontSize);
    if (best < cam.minText()) {
      // Level by level from the least folded, each in the direction it shows larger in.
      const levels = new Map();
      for (const v of player.picture.folded[l].filter(Boolean)) {
        const size = px(v, v.meta.fontSize);
        const had = levels.get(v.meta.level);
        if (!had || size > had[1]) levels.set(v.meta.level, [v, size]);
      }
      for (const [variant, size] of [...levels.keys()].sort((a, b) => a - b).map((k) => levels.get(k))) {
        if (size > best) [chosen, best] = [variant, size];
        if (size >= cam.minText()) break; // the least folded that is legible
      }
    }
    if (!chosen) {
      this.close();
      return false;
    }
    this.open(chosen, main);
    return true;
  }

  open(variant, main) {
    const player = this.player;
    const cam = player.camera;
    if (this.shown && this.shown !== variant) this.shown.svg.style.display = "none";
    main.svg.style.display = "none";
    variant.svg.style.display = "";
    variant.resolve();
    variant.measureAll();
    if (this.shown !== variant) this.members = null;
    [this.shown, this.base] = [variant, main];
    this.mark();
    this.note.textContent = `Overview: ${variant.meta.folds}. Click a part to unfold it there; Fit (0) again unfolds everything; the next step goes back to it (unless ◎ Follow is off).`;
    this.note.hidden = false;
    player.key.hidden = false;
    cam.measure(); // the note took a row under the stage
    cam.variant = variant;
    const legible = cam.minText() / variant.meta.fontSize;
    const whole = cam.fitScale(variant.box);
    if (whole >= legible) return cam.moveTo(cam.centred(variant.box, Math.min(whole, legible * MAX_ZOOM)), true);
    // Too big to read whole even folded: the most of the step's nodes a legible view holds
    // (the minimap shows the rest; − zooms out).
    const marked = [...variant.groups.values()].filter((g) => g.classList.contains("current") && g.classList.contains("node"));
    const group = marked.length ? cam.densest(marked.map((g) => variant.boundsOf(g.id)), legible) : variant.box;
    cam.moveTo(cam.centred(group, Math.min(legible, cam.fitScale(group))), true);
  }

  /* Back to the picture (the camera frames it next). */
  close() {
    if (!this.shown) return true;
    this.shown.svg.style.display = "none";
    this.player.picture.shown.svg.style.display = "";
    this.shown = this.base = null;
    this.note.hidden = true;
    this.player.key.hidden = !this.player.keyItems.children.length;
    this.player.camera.measure();
    this.player.camera.variant = this.player.picture.shown;
    return true;
  }

  /* The step in the overview: its nodes marked, what is not made yet dimmed. */
  mark() {
    const v = this.shown;
    const main = this.base;
    if (!this.members) {
      this.members = new Map();
      const map = v.meta.map;
      for (const [id, g] of main.groups) {
        if (!g.classList.contains("node") || g.classList.contains("legend")) continue;
        const drawn = map[id] || id;
        if (!v.groups.has(drawn)) continue;
        if (!this.members.has(drawn)) this.members.set(drawn, []);
        this.members.get(drawn).push(g);
      }
    }
    const later = new Set();
    for (const [id, nodes] of this.members) {
      const g = v.groups.get(id);
      const made = nodes.some((n) => !n.classList.contains("hidden"));
      if (!made) later.add(id);
      g.classList.toggle("av-later", !made);
      g.classList.toggle("current", nodes.some((n) => n.classList.contains("current")));
    }
    for (const [a, edges] of v.edgeIndex()) {
      for (const [edge, b] of edges) {
        const g = v.groups.get(edge);
        if (g) g.classList.toggle("av-later", later.has(a) || later.has(b));
      }
    }
  }

  /* A part clicked in the overview: the picture, framed on the nodes it stands for. */
  unfold(id) {
    const nodes = (this.members && this.members.get(id)) || [];
    const main = this.base;
    this.close();
    const cam = this.player.camera;
    const boxes = nodes.map((g) => main.boundsOf(g.id)).filter(Boolean);
    cam.variant = main;
    if (!boxes.length) return cam.frame(main, true);
    const box = union(boxes);
    const legible = cam.legible();
    cam.moveTo(cam.centred(box, Math.max(legible, Math.min(cam.fitScale(box), legible * FOCUS_ZOOM))), true);
  }
}

EXTENSIONS.push((player) => {
  if (player.data.layouts.some((layout) => (layout.overviews || []).length)) player.overview = new Overview(player);
});
