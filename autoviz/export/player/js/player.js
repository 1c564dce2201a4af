/* ---- player.js: the component: banner, stage, panels, controls, keys, play, quiz ---- */

const LEGIBLE_PX = 12; // graph text at least this large, on any screen
const PROJECTOR_PX = 18; // and this large in projector mode
const TICK_MS = 1200; // one step at 1× speed

/* One player in `root`, reading and writing the traits of `model` (anywidget's, or the page's
   localModel). Extension points for views added later (node card, heatmaps, code↔graph
   links, a scrubbable timeline, compare): `on(event, fn)` for "step" (k, step), "picture"
   (the Variant on screen), "view" (the camera's view); `side` (the panel column) and
   `controls` (the button row) to add elements to; `picture.shown.groups` (id -> SVG group);
   `request(k)` to move as the learner would, `camera.frame()` to re-frame. */
class Player {
  constructor(root, model, { page = false, screen = null, pair = null } = {}) {
    this.root = root;
    this.pair = pair; // a comparison's sides share their header's height (layout.js)
    this.model = model;
    this.page = page;
    this.screen = screen || (page ? document.documentElement : root); // what F makes full screen
    this.data = model.get("_data");
    this.events = new Map();
    this.cleanups = [];
    this.timer = null;
    this.current = 0;
    this.build();
    this.picture = new Picture(this.data, model.get("_svgs"), this.stage);
    this.camera = new Camera(this.stage, {
      minText: () => (this.projector ? PROJECTOR_PX : LEGIBLE_PX),
      fontSize: this.data.fontSize,
      onMove: (view) => this.emit("view", view),
    });
    this.started = false;
    this.setProjector(model.get("projector"));
    this.setFollow(model.get("follow"));
    this.buildCode();
    this.wire();
    for (const extend of EXTENSIONS) extend(this);
    this.watch(new ResizeObserver(() => this.resized()));
    this.resized(); // the page has its size now; a widget gets it once attached
    this.picture.ready.then(() => this.unpacked());
  }

  /* Every direction's layout is in: show the chosen one if it was not yet at hand. */
  unpacked() {
    if (this.destroyed) return;
    if (this.started && this.picture.shown.direction !== this.picture.direction) {
      this.camera.frame(this.picture.show(), true);
      this.emit("picture", this.picture.shown);
    }
    const hidden = this.directionButton.hidden;
    this.showDirection();
    if (this.started && hidden !== this.directionButton.hidden) this.layout.fit(true); // a button more
    this.root.dataset.ready = "true";
  }

  showDirection() {
    this.directionButton.textContent = `⇄ ${this.picture.shown ? this.picture.shown.direction : ""}`;
    this.directionButton.hidden = this.picture.offered().length < 2;
  }

  /* ---- events for extensions ---- */

  on(event, fn) {
    if (!this.events.has(event)) this.events.set(event, []);
    this.events.get(event).push(fn);
  }

  emit(event, ...args) {
    for (const fn of this.events.get(event) || []) fn(...args);
  }

  /* ---- building the DOM ---- */

  build() {
    const root = this.root;
    const total = this.data.steps.length;
    root.classList.add("av-player", `av-theme-${this.data.theme}`);
    root.tabIndex = 0; // keys reach the player once it has focus (a click gives it)
    root.setAttribute("data-lm-suppress-shortcuts", "true"); // JupyterLab: our keys, not its
    const button = (action, label, title) =>
      h("button", { type: "button", "data-action": action, title }, ...labelled(label));
    this.banner = h("div", { class: "av-banner", role: "status", "aria-live": "polite" });
    this.counter = h("span", { class: "av-counter" });
    this.place = h("span", { class: "av-place" }, this.counter);
    this.stage = h("div", { class: "av-stage", "aria-label": "Computation graph" });
    this.followButton = button("follow", "◎ Follow", "Follow the step with the camera (C)");
    this.directionButton = button("direction", "⇄", "Switch the layout's direction (R)");
    this.viewBar = h(
      "div",
      { class: "av-view", role: "toolbar", "aria-label": "View" },
      button("zoom-in", "+", "Zoom in (+)"),
      button("zoom-out", "−", "Zoom out (−)"),
      button("fit", "Fit", "Show the whole graph (0)"),
      this.followButton,
      this.directionButton,
    );
    this.quiz = new Quiz(this);
    this.explainBox = h("div", { class: "av-explain" });
    this.codeList = h("ol", { class: "av-code" });
    this.codePanel = h("section", { class: "av-panel av-code-panel" }, h("h2", {}, "Code"), this.codeList);
    this.side = h(
      "aside",
      { class: "av-side" },
      this.quiz.el,
      (this.explainPanel = h("section", { class: "av-panel av-explain-panel" }, h("h2", {}, "What happens"), this.explainBox)),
      this.codePanel,
    );
    this.slider = h("input", {
      class: "av-slider",
      type: "range",
      min: 0,
      max: total - 1,
      value: 0,
      "aria-label": "Step",
    });
    this.speed = h(
      "select",
      { class: "av-speed", "aria-label": "Speed", title: "Speed" },
      ...["0.5", "1", "2", "4"].map((v) => h("option", { value: v, selected: v === "1" }, `${v}×`)),
    );
    this.playButton = button("play", "▶ Play", "Play or pause (Space)");
    this.playButton.classList.add("av-play");
    this.projectorButton = button("projector", "⤢ Projector", "Projector mode: large type (F)");
    this.controls = h(
      "nav",
      { class: "av-controls", "aria-label": "Stepping" },
      button("first", "⇤", "First step (Home)"),
      button("prev", "◀", "Previous step (←)"),
      this.playButton,
      button("next", "▶", "Next step (→)"),
      button("backward", "⤺ Backward", "Jump to the start of backward"),
      button("last", "End ⇥", "Jump to the end (End)"),
      this.speed,
      this.slider,
      this.projectorButton,
    );
    root.replaceChildren(
      (this.top = h("header", { class: "av-top" }, this.banner, this.viewBar, this.place)),
      this.stage,
      (this.key = h("div", { class: "av-key", hidden: true }, (this.keyItems = h("div", { class: "av-key-items", role: "list", "aria-label": "Legend" })))),
      this.side,
      this.controls,
    );
    this.layout = new Layout(this);
  }

  buildCode() {
    const code = this.data.code;
    let file = null;
    for (const src of code) {
      // a file's or cell's label above its rows; context rows (loop headers, calls) and the
      // block's lines that recorded nothing (idle) dimmed
      const role = src.role && src.role !== "code" ? { class: `av-${src.role}` } : {};
      const li = h(
        "li",
        role,
        h("span", { class: "av-lineno" }, src.line === null ? "" : String(src.line)),
        h("code", {}, src.text),
      );
      if (src.file !== file && code.length > 1) li.title = src.file;
      file = src.file;
      this.codeList.append(li);
    }
    this.codePanel.hidden = !code.length;
    this.shownLine = undefined;
  }

  /* ---- wiring: buttons, keys, model traits ---- */

  wire() {
    const actions = {
      first: () => this.request(0),
      prev: () => this.request(this.current - 1),
      next: () => this.next(),
      last: () => this.request(this.data.steps.length - 1),
      backward: () => this.request(this.backwardStart()),
      play: () => this.toggle(),
      projector: () => this.toggleProjector(),
      "zoom-in": () => this.camera.zoom(1.25),
      "zoom-out": () => this.camera.zoom(0.8),
      fit: () => (this.overview && this.overview.fit(true)) || this.camera.fitAll(),
      follow: () => this.setFollow(!this.camera.follow),
      direction: () => this.turn(),
      check: () => this.quiz.submit(),
      reveal: () => this.quiz.answer(null),
    };
    this.listen(this.root, "click", (event) => {
      // A notebook focuses itself on mousedown; the keys are ours once the player is clicked.
      if (!this.page && !this.root.contains(this.root.getRootNode().activeElement)) {
        this.root.focus({ preventScroll: true });
      }
      const target = event.target.closest("[data-action]");
      if (target && this.root.contains(target) && actions[target.dataset.action]) {
        actions[target.dataset.action]();
      }
    });
    this.listen(this.slider, "input", () => this.request(Number(this.slider.value)));
    this.listen(this.speed, "change", () => {
      if (this.timer !== null) {
        this.pause();
        this.play();
      }
    });
    // Extensions add keys here; a named key held with Shift is "Shift+ArrowRight".
    const keys = (this.keys = {
      ArrowRight: actions.next,
      ArrowLeft: actions.prev,
      Home: actions.first,
      End: actions.last,
      " ": actions.play,
      f: actions.projector,
      "+": actions["zoom-in"],
      "=": actions["zoom-in"],
      "-": actions["zoom-out"],
      "−": actions["zoom-out"],
      0: actions.fit,
      c: actions.follow,
      r: actions.direction,
    });
    // The page takes keys anywhere; a widget only while it has focus (a notebook has its own
    // keys, which Notebook 7 takes in the capture phase: ours are read before, on window).
    // composedPath: marimo draws a widget in a shadow root, where window sees its host only.
    const handler = (event) => {
      const path = event.composedPath();
      if (!this.page && !path.includes(this.root)) return;
      const tag = path[0].tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const action = (event.shiftKey && keys[`Shift+${key}`]) || keys[key];
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      action();
    };
    this.listen(window, "keydown", handler, true);
    this.listen(document, "fullscreenchange", () => {
      if (!document.fullscreenElement && this.projector && this.entered) this.setProjector(false);
      this.entered = document.fullscreenElement === this.screen;
    });
    const traits = {
      "change:step": () => {
        const k = this.entryOf(this.model.get("step"));
        if (k !== this.current && this.quiz.pending !== k) this.request(k);
      },
      "change:follow": () => this.setFollow(this.model.get("follow")),
      "change:projector": () => this.setProjector(this.model.get("projector")),
      "change:quiz": () => this.quiz.setEnabled(this.model.get("quiz")),
      "change:rankdir": () => {
        const dir = this.model.get("rankdir");
        if (dir && dir !== this.picture.shown.direction && this.picture.offered().includes(dir)) {
          this.turn(dir);
        }
      },
    };
    for (const [event, fn] of Object.entries(traits)) {
      this.model.on(event, fn);
      this.cleanups.push(() => this.model.off(event, fn));
    }
  }

  listen(target, event, fn, options) {
    target.addEventListener(event, fn, options);
    this.cleanups.push(() => target.removeEventListener(event, fn, options));
  }

  watch(observer) {
    observer.observe(this.stage);
    observer.observe(this.root); // its box: the arrangement is measured again
    this.cleanups.push(() => observer.disconnect());
  }

  destroy() {
    this.destroyed = true;
    this.pause();
    this.camera.stop();
    for (const fn of this.cleanups) fn();
  }

  /* ---- start and size ---- */

  resized() {
    this.layout.fit();
    const was = [this.camera.W, this.camera.H];
    this.camera.measure();
    const { W, H } = this.camera.size();
    if (!W || !H) return; // not on screen yet (a widget before its cell output is attached)
    // The player's box changed but not the stage (or the stage was measured already, as when
    // the overview's note came or went): the view stays.
    if (this.started && W === was[0] && H === was[1]) return;
    if (!this.started) {
      this.started = true;
      this.picture.direction = this.chooseDirection();
      this.goto(this.entryOf(this.model.get("step") || 0));
      // Arranged again now that the picture's nodes are measured (the stage's least width).
      if (this.layout.fit(true)) {
        this.camera.measure();
        this.picture.direction = this.chooseDirection(); // for the stage it has now
        this.camera.frame(this.picture.show(), true);
        this.showDirection();
      }
      return;
    }
    // A glide under way (a step's text reflowing the panels under a narrow stage) goes on,
    // re-aimed at the new size, rather than ending in a jump.
    const instant = !this.camera.glide;
    if (this.refolded()) return;
    if (this.camera.follow || !this.camera.view) this.frame(this.picture.shown, instant);
    else this.camera.apply(this.camera.view);
  }

  /* The camera on the step; a step about many nodes far apart (zero_grad, an optimiser's
     step) is shown in the folded overview, its nodes marked (at a legible scale, framed on
     them, where the overview is too big to read whole): never the whole graph at unreadable
     type. */
  frame(variant, instant = false) {
    if (this.camera.frame(variant, instant) && this.overview) this.overview.fit();
  }

  /* The explicit rankdir, else the direction whose layouts show largest on this stage. */
  chooseDirection() {
    const dirs = this.picture.directions;
    if (this.data.rankdir && dirs.includes(this.data.rankdir)) return this.data.rankdir;
    const score = (dir) => {
      const boxes = this.picture.sizes(dir);
      return Math.min(...boxes.map((box) => this.camera.fitScale(box)));
    };
    return dirs.reduce((best, dir) => (score(dir) > score(best) * 1.02 ? dir : best), dirs[0]);
  }

  /* ---- stepping ---- */

  /* The entry showing timeline step k (entries are the steps, except that a graph too large
     to draw has one entry for all its steps). */
  entryOf(k) {
    const steps = this.data.steps;
    let lo = 0;
    let hi = steps.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (steps[mid].index <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /* Show step k, whatever the quiz says (tests and `window.autoviz.goto` with no quiz). */
  goto(k) {
    const steps = this.data.steps;
    k = Math.max(0, Math.min(steps.length - 1, k));
    this.picture.goto(k);
    this.current = k;
    this.show();
  }

  /* Move to step k as the learner asked: forward past an unanswered question stops there. */
  request(k) {
    k = Math.max(0, Math.min(this.data.steps.length - 1, k));
    const asked = k > this.current ? this.quiz.firstUnanswered(this.current, k) : null;
    if (asked !== null) {
      if (this.current !== asked - 1) this.goto(asked - 1);
      this.quiz.ask(asked);
      this.scrollToLine(); // the question took height from the code panel
      this.slider.value = String(this.current);
      return false;
    }
    if (k === this.current) {
      this.sync(); // nothing moves: the quiz box (its verdict, the score) stays
      return true;
    }
    this.quiz.close();
    this.goto(k);
    this.scrollToLine(); // the closed question gave the code panel its height back
    return true;
  }

  next() {
    if (this.current === this.data.steps.length - 1) return false;
    return this.request(this.current + 1);
  }

  show() {
    const step = this.data.steps[this.current];
    const strings = this.data.strings;
    const variant = this.picture.shown;
    const total = this.data.steps.length;
    this.banner.textContent = strings[step.banner];
    this.banner.className = `av-banner av-phase-${step.phase}`;
    this.root.dataset.step = String(step.index);
    this.root.dataset.phase = step.phase;
    if (this.page) {
      document.body.dataset.step = String(step.index);
      document.body.dataset.phase = step.phase;
    }
    this.counter.textContent = `step ${grouped(step.index + 1)} of ${grouped(this.data.total)}`;
    this.slider.value = String(this.current);
    this.explainBox.replaceChildren(
      ...strings[step.explain].split("\n").map((line) => h("div", {}, line)),
    );
    this.showLine(step.line);
    this.controls.querySelector('[data-action="prev"]').disabled = this.current === 0;
    this.controls.querySelector('[data-action="next"]').disabled = this.current === total - 1;
    this.showDirection();
    if (!this.folded(variant) && (this.camera.follow || this.camera.variant !== variant)) this.frame(variant);
    this.sync();
    this.emit("picture", variant);
    this.emit("step", this.current, step);
  }

  /* A step while Fit's overview is on the stage: it stays while the camera does not follow
     the steps (chosen again for another graph); false when the picture is to be framed. */
  folded(variant) {
    const ov = this.overview;
    if (!ov || !ov.shown) return false;
    if (!this.camera.follow && (ov.base === variant || ov.fit())) return true;
    ov.close();
    this.camera.variant = null; // framed anew
    return false;
  }

  /* The stage, the type or the direction changed under the overview: it is chosen again. */
  refolded() {
    const ov = this.overview;
    if (!ov || !ov.shown) return false;
    if (ov.fit()) return true;
    this.camera.variant = null;
    return false;
  }

  /* Tell Python (the widget's `step` trait) where the player is. */
  sync() {
    const index = this.data.steps[this.current].index;
    if (this.model.get("step") !== index) {
      this.model.set("step", index);
      this.model.save_changes();
    }
  }

  showLine(index) {
    if (index === this.shownLine) return; // reading offsets below forces a layout
    this.shownLine = index;
    for (const li of this.codeList.querySelectorAll(".current")) li.classList.remove("current");
    if (index === null || index === undefined) return;
    const li = this.codeList.children[index];
    if (!li) return;
    li.classList.add("current");
    this.scrollToLine();
  }

  /* The current line in the middle of the code panel (or as near as its ends allow). */
  scrollToLine() {
    const li = this.shownLine === null || this.shownLine === undefined ? null : this.codeList.children[this.shownLine];
    if (!li) return;
    const panel = this.codePanel;
    panel.scrollTop = Math.max(0, li.offsetTop - panel.clientHeight / 2 + li.offsetHeight / 2);
  }

  /* What the counter can say, one text per entry ("iteration 2 · backward · step 9 of 12"). */
  placeTexts() {
    const where = this.scrubber ? (i) => this.scrubber.where(i) : () => "";
    const total = grouped(this.data.total);
    return this.data.steps.map((s, i) => `${where(i)}step ${grouped(s.index + 1)} of ${total}`);
  }

  backwardStart() {
    const steps = this.data.steps;
    const layout = steps[this.current].layout;
    let k = steps.findIndex((s, i) => s.layout === layout && s.phase === "backward" && i > 0);
    if (k < 0 || k === this.current) {
      k = steps.findIndex((s, i) => s.phase === "backward" && i > this.current);
    }
    return k < 0 ? this.current : k;
  }

  /* ---- play, projector, camera, direction ---- */

  play() {
    if (this.current === this.data.steps.length - 1) this.request(0);
    const speed = Number(this.speed.value);
    this.timer = setInterval(() => {
      if (!this.next() || this.current === this.data.steps.length - 1) this.pause();
    }, TICK_MS / speed);
    this.playButton.replaceChildren(...labelled("⏸ Pause"));
    this.playButton.classList.add("playing");
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.replaceChildren(...labelled("▶ Play"));
    this.playButton.classList.remove("playing");
  }

  toggle() {
    if (this.timer === null) this.play();
    else this.pause();
  }

  toggleProjector() {
    const on = !this.projector;
    this.setProjector(on);
    const target = this.screen;
    if (on && !document.fullscreenElement && target.requestFullscreen) {
      target.requestFullscreen().catch(() => {}); // refused (no user gesture): large type only
    } else if (!on && document.fullscreenElement) {
      document.exitFullscreen().catch(() => {});
    }
  }

  setProjector(on) {
    on = Boolean(on);
    if (this.projector === on) return;
    this.projector = on;
    this.root.classList.toggle("av-projector", on);
    if (this.page) document.documentElement.classList.toggle("projector", on);
    this.projectorButton.classList.toggle("active", on);
    this.projectorButton.setAttribute("aria-pressed", String(on));
    this.emit("projector", on);
    if (this.model.get("projector") !== on) {
      this.model.set("projector", on);
      this.model.save_changes();
    }
    if (this.started) {
      // Measured now (reading the size lays the page out): a step taken before the next frame
      // must already be framed for the projector's stage.
      this.layout.fit(true);
      this.camera.minimap.colours = null;
      this.camera.measure();
      if (!this.refolded()) this.frame(this.picture.shown, true);
    }
  }

  setFollow(on) {
    this.camera.follow = Boolean(on);
    this.followButton.setAttribute("aria-pressed", String(this.camera.follow));
    this.followButton.classList.toggle("active", this.camera.follow);
    if (this.model.get("follow") !== this.camera.follow) {
      this.model.set("follow", this.camera.follow);
      this.model.save_changes();
    }
    if (this.camera.follow && this.started) {
      if (this.overview) this.overview.close();
      this.frame(this.picture.shown);
    }
  }

  /* Show the layout in another direction (the next one, or `dir`), made at export time. */
  turn(dir) {
    const dirs = this.picture.offered();
    if (dirs.length < 2) return;
    const now = this.picture.shown.direction;
    this.picture.direction = dir || dirs[(dirs.indexOf(now) + 1) % dirs.length];
    const variant = this.picture.show();
    if (!this.refolded()) this.frame(variant, true);
    this.showDirection();
    if (this.model.get("rankdir") !== this.picture.direction) {
      this.model.set("rankdir", this.picture.direction);
      this.model.save_changes();
    }
    this.emit("picture", variant);
  }
}
