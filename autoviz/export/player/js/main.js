/* ---- main.js: the two ways in: anywidget's render(), and the HTML page's startPage() ---- */

/* anywidget: a player in `el`, rebuilt when Python sends new frames (options changed). */
function render({ model, el }) {
  let player = null;
  let pair = null;
  // A message or a value the kernel refused (the nudge and expand replies have places of their own).
  const refused = (msg) => {
    if (!msg || msg.kind !== "error") return;
    for (const p of pair ? pair.players : [player]) p.explainBox.textContent = `The kernel could not do what the widget asked: ${msg.error}`;
  };
  model.on("msg:custom", refused);
  if (model.get("_pair")) {
    pair = mountPair(el, model, model.get("_pair_svgs"));
    return () => {
      model.off("msg:custom", refused);
      pair.destroy();
    };
  }
  player = new Player(el, model);
  const rebuild = () => {
    player.destroy();
    player = new Player(el, model);
  };
  model.on("change:_data", rebuild);
  return () => {
    model.off("change:_data", rebuild);
    model.off("msg:custom", refused);
    player.destroy();
  };
}

/* The HTML page: its data and layouts are in the document; its traits live in the page. */
function startPage() {
  const data = JSON.parse(document.getElementById("av-data").textContent);
  const holder = document.getElementById("av-layouts");
  const svgs = pageSvgs(holder, data);
  const model = localModel({
    _data: data,
    _svgs: svgs,
    step: 0,
    quiz: data.steps.some((s) => s.quiz),
    follow: true,
    projector: data.theme === "projector",
    rankdir: data.rankdir,
  });
  const player = new Player(document.getElementById("av-root"), model, { page: true });
  holder.remove();
  // For tests and benchmarks: move to a step (as the learner would) and read where it is.
  window.autoviz = {
    goto: (k) => player.request(player.entryOf(k)),
    step: () => data.steps[player.current].index,
    check,
    player,
  };
}

/* Each layout's SVGs as the page holds them (its directions, then its overviews): an element,
   or the promise of a packed one's text. */
function pageSvgs(holder, data) {
  return data.layouts.map((layout, l) =>
    Array.from({ length: variantCount(layout) }, (_, d) => {
      const el = holder.querySelector(`[data-layout="${l}"][data-direction="${d}"]`);
      return el.tagName === "SCRIPT" ? unpack(el.textContent) : el.firstElementChild;
    }),
  );
}

/* A layout the page carries gzipped in base64: its SVG text, or null where the browser cannot
   unpack it (that direction is then not offered). */
async function unpack(base64) {
  if (typeof DecompressionStream === "undefined") return null;
  const bytes = Uint8Array.from(atob(base64.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

export default { render };
