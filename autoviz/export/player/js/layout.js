/* ---- layout.js: the player's arrangement, measured in its own box (a page, a notebook's
   output column, half of a comparison), never guessed from the screen: the panels beside the
   stage, the side as wide as the longest explanation needs, or under it with the player
   growing; short button labels where the full ones do not fit one row; the banner and, beside
   the stage, the explanation kept at the height of their longest, so no step cuts text or
   resizes the stage (under it, the explanation takes its own height: only the player's foot
   moves) ---- */

const STAGE_MIN_EM = 26; // a stage narrower than this shows no node with its values legibly
const STAGE_LEAST_EM = 20; // in projector mode, where the text needs more: the graph gives way to here
const SIDE_EM = [16, 48]; // the side column's narrowest and widest
const SIDE_SHARES = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]; // of the width, tried in turn
const SIDE_MOST = 0.5; // out of projector mode, the side's widest share: else the panels go under
const MEASURED = 48; // texts laid out to measure: the longest by an estimate (the rest are shorter)
const CODE_ROWS = 6; // the code panel's height under the stage, in rows
const STAGE_FLOOR_EM = 8; // a question under the stage leaves it this tall: else the player grows

class Layout {
  constructor(player) {
    this.player = player;
    this.root = player.root;
    this.probe = h("div", { class: "av-probe", "aria-hidden": "true" });
    this.root.append(this.probe);
    this.key = null;
    this.texts = {};
    player.on("picture", (variant) => this.showKey(variant));
  }

  /* The legend of the picture shown, as the key under the stage. */
  showKey(variant) {
    if (!variant || variant.legend === this.keyed) return;
    this.keyed = variant.legend;
    const items = variant.legend.map((e) => {
      // A node kind's shape in its colours; the gradient's colour as a line.
      const line = !e.shape && e.kind === "grad";
      const swatch = e.shape || line ? h("span", { class: "av-swatch", "aria-hidden": "true" }) : null;
      if (e.shape) {
        swatch.style.background = e.fill;
        swatch.style.border = `${Math.max(1, Math.min(e.width, 3))}px ${e.dashed ? "dashed" : "solid"} ${e.stroke}`;
        swatch.style.borderRadius = e.shape === "ellipse" ? "50%" : "4px";
      } else if (line) {
        swatch.style.borderBottom = `3px solid ${e.colour}`;
      }
      return h("span", { class: "av-key-item", role: "listitem" }, swatch, e.words);
    });
    this.player.keyItems.replaceChildren(...items);
    this.player.key.hidden = !items.length && !this.player.key.querySelector(".av-overview-note:not([hidden])");
  }

  /* Arrange the player for its box; again only when the box's size or the type changed
     (an arrangement that makes the player taller does not arrange it again). */
  fit(force = false) {
    const root = this.root;
    const W = root.clientWidth;
    const H = this.available();
    if (!W || !H) return false;
    const key = `${W}x${H}:${this.player.projector}`;
    if (!force && key === this.key) return false;
    this.key = key;
    const em = parseFloat(getComputedStyle(root).fontSize);
    const before = `${root.dataset.arrange} ${root.style.cssText}`;
    this.unplaceQuiz();
    this.controls();
    this.header();
    this.arrange(W, H, em);
    this.placeQuiz();
    return before !== `${root.dataset.arrange} ${root.style.cssText}`;
  }

  /* The height the player is given (--av-height: the page's, the output column's clamp). */
  available() {
    const probe = this.probe;
    probe.style.height = "var(--av-height)";
    const H = probe.offsetHeight;
    probe.style.height = "";
    return H;
  }

  /* Full labels on one row; else short ones; else the timeline on a row of its own. */
  controls() {
    const row = this.player.controls;
    for (const mode of ["full", "short", "wrap"]) {
      this.root.dataset.controls = mode;
      if (row.scrollWidth <= row.clientWidth + 1) return;
    }
  }

  /* The counter as wide as its widest text, the banner as tall as its tallest: the header,
     and so the stage, keep their size from step to step. */
  header() {
    const player = this.player;
    const place = player.place;
    const widest = this.longest("place", () => player.placeTexts());
    place.style.minWidth = "";
    const probe = this.probe;
    probe.className = "av-probe av-place";
    probe.style.whiteSpace = "nowrap";
    probe.textContent = widest;
    place.style.minWidth = `min(100%, ${probe.offsetWidth + 1}px)`;
    probe.style.whiteSpace = "";
    this.root.dataset.header = "row";
    player.banner.style.minHeight = "";
    // One row while the view buttons and the counter fit beside the banner's least width (the
    // buttons, wrapped, start a row at the left; the counter, wrapped, sits below them): else
    // the banner above them.
    const [banner, view] = [player.banner, player.viewBar];
    const below = () => place.offsetTop >= view.offsetTop + view.offsetHeight - 1;
    if (view.offsetLeft <= banner.offsetLeft + 1 || below()) {
      this.root.dataset.header = "wrap";
      // Under the banner, the view buttons and the counter on one row: the buttons' symbols
      // alone if their words would push the counter onto a row of its own.
      if (below()) this.root.dataset.header = "short";
      if (below()) this.root.dataset.header = "wrap"; // no help: the words back
    }
    const banners = this.distinct("banner");
    const tall = this.tallest("av-probe-banner", banners, player.banner.offsetWidth, (t) => t);
    player.banner.style.minHeight = `${tall}px`;
    if (player.pair) this.shareTop(player.pair);
  }

  /* A comparison's sides side by side: each header as tall as the taller one's, so the two
     stages start at one height; a side whose header changed is arranged again. */
  shareTop(pair) {
    const top = this.player.top;
    top.style.minHeight = "";
    pair.set(this.player, top.offsetHeight);
    if (this.root.closest(".av-compare[data-stacked]")) return;
    const tall = Math.max(...pair.values());
    top.style.minHeight = `${tall}px`;
    for (const other of pair.keys()) {
      if (other !== this.player && other.top.offsetHeight !== tall) other.layout.fit(true);
    }
  }

  /* Beside: the narrowest side at which the tallest explanation, the code panel's rows and
     the other panels fit, the stage keeping STAGE_MIN_EM and (out of projector mode) half the
     width. Else under: the stage at a fixed height, the panels below it as tall as each step's
     text needs (a page then scrolls, a notebook's cell grows). */
  arrange(W, H, em) {
    const root = this.root;
    const style = root.style;
    const player = this.player;
    const explain = player.explainPanel;
    delete root.dataset.columns;
    for (const name of ["--av-explain", "--av-code", "--av-stage-min"]) style.removeProperty(name);
    const gap = parseFloat(getComputedStyle(root).columnGap) || 0;
    const inner = W - 2 * (parseFloat(getComputedStyle(root).paddingLeft) || 0);
    const chrome = explain.offsetWidth - player.explainBox.clientWidth;
    const headed = explain.offsetHeight - player.explainBox.offsetHeight;
    // Beside: the code panel in the side too; split: the code panel under the stage, the side
    // the explanation's alone (narrower, so the stage keeps a wide node legible). The stage
    // keeps its widest node legible if it can; else the graph gives way to the text.
    // A learner at the screen reads a graph that keeps half the width; at a distance, the
    // text comes first.
    const projector = player.projector;
    const least = [...new Set([this.stageMin(inner, em), STAGE_MIN_EM * em, ...(projector ? [STAGE_LEAST_EM * em] : [])])];
    const shares = SIDE_SHARES.filter((share) => projector || share <= SIDE_MOST);
    for (const [stageMin, mode] of least.flatMap((m) => [[m, "beside"], [m, "split"]])) {
      this.placeCode(mode);
      const sideH = player.side.clientHeight;
      for (const share of shares) {
        const side = Math.round(Math.min(Math.max(share * inner, SIDE_EM[0] * em), SIDE_EM[1] * em));
        if (inner - side - gap < stageMin) break;
        style.setProperty("--av-side", `${side}px`);
        const text = this.explainHeight(side - chrome) + headed;
        const code = this.codeMin();
        const fits = mode === "beside"
          ? text + code + this.others() <= sideH
          : text + this.others() <= sideH && sideH - code - gap - player.key.offsetHeight >= 12 * em;
        if (fits) {
          style.setProperty("--av-explain", `${Math.ceil(text)}px`);
          style.setProperty("--av-code", `${Math.ceil(code)}px`);
          return;
        }
      }
    }
    this.placeCode("under");
    // Growing anyway, the player gives the stage over half its box (a page scrolls past it).
    style.setProperty("--av-stage-min", `${Math.round(Math.max(12 * em, 0.55 * H))}px`);
    root.dataset.columns = inner >= 44 * em ? "2" : "1";
    style.setProperty("--av-code", `${Math.ceil(this.codeRows())}px`);
  }

  /* An open question atop the side while the side holds it with the explanation and the
     code line; else under the stage, the graph giving way (past STAGE_FLOOR_EM the player
     grows: a page scrolls, a notebook's cell grows). Once under the stage, it stays there
     until the box closes or the player is arranged again (`fresh`: a new question). */
  placeQuiz(fresh = false) {
    const { root, player } = this;
    const box = player.quiz.el;
    if (fresh || box.hidden || root.dataset.arrange === "under") this.unplaceQuiz();
    const side = player.side;
    if (box.parentElement === side && !box.hidden && root.dataset.arrange !== "under" && side.scrollHeight > side.clientHeight + 1) {
      root.dataset.quiz = "stage";
      player.stage.after(box);
      const short = STAGE_FLOOR_EM * parseFloat(getComputedStyle(root).fontSize) - player.stage.clientHeight;
      if (short > 0) root.style.height = `${root.offsetHeight + short}px`;
    }
    player.scrollToLine();
  }

  unplaceQuiz() {
    const { root, player } = this;
    if (player.quiz.el.parentElement !== player.side) player.side.prepend(player.quiz.el);
    delete root.dataset.quiz;
    root.style.removeProperty("height");
  }

  /* The code panel in the side, or (split) in the stage's column, under it. */
  placeCode(mode) {
    const { root, player } = this;
    root.dataset.arrange = mode;
    const panel = player.codePanel;
    if (mode === "split" && panel.parentElement !== root) player.key.before(panel);
    if (mode !== "split" && panel.parentElement !== player.side) player.explainPanel.after(panel);
  }

  /* The stage's least width: STAGE_MIN_EM, or the widest node of the picture shown at the
     legible scale with the camera's margins (at most 70% of the player). */
  stageMin(inner, em) {
    const v = this.player.picture && this.player.picture.shown;
    if (v && v.measured && v.widest === undefined) {
      v.widest = 0;
      for (const [id, g] of v.groups) {
        if (g.classList.contains("node") && !g.classList.contains("legend")) v.widest = Math.max(v.widest, v.boundsOf(id).w);
      }
    }
    const need = v && v.widest ? v.widest * this.player.camera.legible() + 2 * FOCUS_PAD : 0;
    return Math.max(STAGE_MIN_EM * em, Math.min(0.7 * inner, need));
  }

  /* The height of the tallest explanation at `width` (its box's inner width). */
  explainHeight(width) {
    const lines = (t) => t.split("\n");
    return this.tallest("av-probe-explain", this.distinct("explain"), width, lines);
  }

  /* The code panel's least height: its heading, the tallest (wrapped) line and one more. */
  codeMin() {
    const { rows, chrome } = this.codeSizes();
    const one = Math.min(...rows);
    return chrome + Math.max(3 * one, Math.max(...rows) + one);
  }

  /* Under the stage: CODE_ROWS rows (fewer when the code is shorter), at least codeMin. */
  codeRows() {
    const { rows, chrome } = this.codeSizes();
    const shown = rows.slice().sort((a, b) => b - a).slice(0, CODE_ROWS);
    return Math.max(this.codeMin(), chrome + shown.reduce((a, b) => a + b, 0));
  }

  codeSizes() {
    const panel = this.player.codePanel;
    if (panel.hidden) return { rows: [0], chrome: 0 };
    const rows = [...this.player.codeList.children].map((li) => li.offsetHeight);
    const cs = getComputedStyle(panel);
    const heading = panel.firstElementChild;
    const chrome = panel.offsetHeight - panel.clientHeight + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom)
      + heading.offsetHeight + parseFloat(getComputedStyle(heading).marginBottom);
    return { rows: rows.length ? rows : [0], chrome };
  }

  /* The side's other panels as they stand (the run plot's, an open quiz), with their gaps. */
  others() {
    const player = this.player;
    const gap = parseFloat(getComputedStyle(player.side).rowGap) || 0;
    let sum = 0;
    for (const el of player.side.children) {
      if (el === player.explainPanel || el === player.codePanel || el.classList.contains("av-card")) continue;
      if (el.hidden) continue;
      sum += el.offsetHeight + gap;
    }
    return sum + gap;
  }

  /* Each distinct text a step shows in `field` ("banner", "explain"). */
  distinct(field) {
    if (!this.texts[field]) {
      const data = this.player.data;
      this.texts[field] = [...new Set(data.steps.map((s) => s[field]))].map((i) => data.strings[i]);
    }
    return this.texts[field];
  }

  longest(field, make) {
    if (!(field in this.texts)) this.texts[field] = make().reduce((a, b) => (b.length > a.length ? b : a), "");
    return this.texts[field];
  }

  /* The tallest of `texts` laid out in the probe as class `cls` at `width` px; `lines` splits a
     text into its rows. Past MEASURED texts, the ones an estimate puts tallest are laid out. */
  tallest(cls, texts, width, lines) {
    const probe = this.probe;
    probe.className = `av-probe ${cls}`;
    probe.style.width = `${Math.max(1, width)}px`;
    let chosen = texts;
    if (texts.length > MEASURED) {
      const perRow = Math.max(8, width / 7); // characters a row holds, at least
      const rows = (t) => [lines(t)].flat().reduce((n, row) => n + Math.ceil((row.length + 1) / perRow), 0);
      chosen = texts.map((t) => [rows(t), t]).sort((a, b) => b[0] - a[0]).slice(0, MEASURED).map((x) => x[1]);
    }
    let tall = 0;
    for (const text of chosen) {
      probe.replaceChildren(...[lines(text)].flat().map((row) => h("div", {}, row)));
      tall = Math.max(tall, probe.offsetHeight);
    }
    probe.replaceChildren();
    probe.style.width = "";
    return tall;
  }
}
