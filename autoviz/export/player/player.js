/* autoviz HTML player: replays per-step changes over each graph's one inline SVG.
   User text is written with textContent only; nothing is evaluated or fetched. */
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("av-data").textContent);
  const $ = (id) => document.getElementById(id);
  const steps = data.steps;
  const last = steps.length - 1;
  const boxes = Array.from(document.querySelectorAll(".av-graph"));
  const layouts = data.layouts.map((slots, i) => resolve(boxes[i], slots));
  const undo = buildUndo();
  const answered = new Set();
  let current = 0;
  let pending = null; // the step whose question is on screen
  let timer = null;
  let shownLine; // the code line highlighted now

  /* Each slot of a layout becomes {el, cls}: an element and whether it holds a class list. */
  function resolve(box, slots) {
    const groups = {};
    for (const g of box.querySelectorAll("g[id]")) groups[g.id] = g;
    return slots.map(([kind, id, row]) => {
      const g = groups[id];
      if (kind === "nc" || kind === "ec") return { el: g, cls: true };
      const text = kind === "et" ? g.querySelector("text.flow") : g.querySelectorAll("text")[row];
      return { el: text, cls: false };
    });
  }

  function read(slot) {
    return slot.cls ? slot.el.getAttribute("class") : slot.el.textContent;
  }

  function write(slot, value) {
    if (slot.cls) slot.el.setAttribute("class", value);
    else slot.el.textContent = value;
  }

  /* What each step overwrote, so stepping back is as cheap as stepping forward. */
  function buildUndo() {
    const values = layouts.map((slots) => slots.map(read));
    return steps.map((step) => {
      const now = values[step.layout];
      const old = [];
      for (let i = 0; i < step.changes.length; i += 2) {
        const slot = step.changes[i];
        old.push(slot, now[slot]);
        now[slot] = data.strings[step.changes[i + 1]];
      }
      return old;
    });
  }

  /* Collect the net value of every touched slot first, then write each slot once. */
  function goto(target) {
    target = Math.max(0, Math.min(last, target));
    const net = layouts.map(() => new Map());
    if (target > current) {
      for (let k = current + 1; k <= target; k++) {
        const c = steps[k].changes;
        const into = net[steps[k].layout];
        for (let i = 0; i < c.length; i += 2) into.set(c[i], data.strings[c[i + 1]]);
      }
    } else {
      for (let k = current; k > target; k--) {
        const c = undo[k];
        const into = net[steps[k].layout];
        for (let i = 0; i < c.length; i += 2) into.set(c[i], c[i + 1]);
      }
    }
    net.forEach((changes, l) => changes.forEach((value, slot) => write(layouts[l][slot], value)));
    current = target;
    show();
  }

  function show() {
    const step = steps[current];
    boxes.forEach((box, i) => (box.hidden = i !== step.layout));
    const banner = $("av-banner");
    banner.textContent = data.strings[step.banner];
    banner.className = "av-banner " + step.phase;
    document.body.dataset.step = String(current);
    document.body.dataset.phase = step.phase;
    $("av-counter").textContent = `Step ${current + 1} of ${steps.length}`;
    $("av-slider").value = String(current);
    const explain = $("av-explain");
    explain.replaceChildren();
    for (const line of data.strings[step.explain].split("\n")) {
      const div = document.createElement("div");
      div.textContent = line;
      explain.appendChild(div);
    }
    showLine(step.line);
    if (pending === null) $("av-quiz").hidden = true; // a verdict stays until the next move
    $("av-prev").disabled = current === 0;
    $("av-next").disabled = current === last;
    if (!$("av-figure").classList.contains("fit")) scrollToCurrent();
  }

  function showLine(index) {
    if (index === shownLine) return; // reading offsets below forces a layout of the page
    shownLine = index;
    const list = $("av-code");
    list.querySelectorAll(".current").forEach((li) => li.classList.remove("current"));
    if (index === null) return;
    const li = list.children[index];
    li.classList.add("current");
    const panel = list.parentElement;
    const top = li.offsetTop - panel.clientHeight / 2 + li.clientHeight / 2;
    panel.scrollTop = Math.max(0, top);
  }

  function scrollToCurrent() {
    const node = boxes[steps[current].layout].querySelector("g.current");
    if (node) node.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function buildCode() {
    const list = $("av-code");
    let file = null;
    data.code.forEach((src) => {
      const li = document.createElement("li");
      const num = document.createElement("span");
      num.className = "av-lineno";
      num.textContent = src.line === null ? "" : String(src.line);
      const text = document.createElement("code");
      text.textContent = src.text;
      li.append(num, text);
      // a file's or cell's label above its lines; context lines (loop headers, calls) dimmed
      if (src.role && src.role !== "code") li.className = "av-" + src.role;
      if (src.file !== file && data.code.length > 1) li.title = src.file;
      file = src.file;
      list.appendChild(li);
    });
    if (!data.code.length) list.parentElement.hidden = true;
  }

  /* ---- stepping, with the quiz in front of steps that reveal a gradient ---- */

  function next() {
    if (current === last) return false;
    const quiz = steps[current + 1].quiz;
    if (quiz && !answered.has(current + 1)) {
      openQuiz(current + 1, quiz);
      return false;
    }
    goto(current + 1);
    return true;
  }

  function jump(target) {
    closeQuiz();
    goto(target);
  }

  function openQuiz(k, quiz) {
    pause();
    pending = k;
    $("av-quiz").hidden = false;
    $("av-prompt").textContent = quiz.prompt;
    $("av-verdict").textContent = "";
    $("av-verdict").className = "av-verdict";
    enableQuiz(true);
    $("av-answer").value = "";
    $("av-answer").focus();
  }

  function enableQuiz(on) {
    for (const id of ["av-answer", "av-check", "av-reveal"]) $(id).disabled = !on;
  }

  function closeQuiz() {
    pending = null;
    $("av-quiz").hidden = true;
  }

  /* Question.check in the browser: Python's float syntax and math.isclose. */
  function check(text, quiz) {
    const stripped = text.trim();
    const guess = pythonFloat(stripped.replace(/\u2212/g, "-"));
    if (guess === null) {
      return [null, `${pythonRepr(stripped)} is not a number: type a value such as 2 or 0.5.`];
    }
    const right = isclose(guess, pythonFloat(quiz.answer), quiz.rel, quiz.abs);
    return [right, right ? quiz.right : quiz.wrong];
  }

  const FLOAT =
    /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:e[+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

  function pythonFloat(text) {
    if (!FLOAT.test(text)) return null;
    const body = text.replace(/_/g, "").toLowerCase();
    const sign = body.startsWith("-") ? -1 : 1;
    const bare = body.replace(/^[+-]/, "");
    if (bare.startsWith("inf")) return sign * Infinity;
    if (bare === "nan") return NaN;
    return Number(body);
  }

  function isclose(a, b, relTol, absTol) {
    if (a === b) return true;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
    const diff = Math.abs(a - b);
    return diff <= Math.abs(relTol * b) || diff <= Math.abs(relTol * a) || diff <= absTol;
  }

  function pythonRepr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    const named = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    let out = "";
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (named[ch]) out += named[ch];
      else if (ch === quote) out += "\\" + ch;
      else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
      else out += ch;
    }
    return quote + out + quote;
  }

  function answer(reveal) {
    if (pending === null) return;
    const quiz = steps[pending].quiz;
    const verdict = $("av-verdict");
    let right = false;
    let sentence = quiz.reveal;
    if (!reveal) {
      [right, sentence] = check($("av-answer").value, quiz);
      if (right === null) {
        verdict.textContent = sentence;
        verdict.className = "av-verdict invalid";
        return; // not a number: let the learner try again
      }
    }
    const k = pending;
    answered.add(k);
    pending = null;
    goto(k);
    $("av-quiz").hidden = false;
    verdict.textContent = sentence;
    verdict.className = "av-verdict " + (reveal ? "revealed" : right ? "right" : "wrong");
    enableQuiz(false);
  }

  /* ---- play, keyboard, projector ---- */

  function play() {
    if (current === last) goto(0);
    const speed = Number($("av-speed").value);
    timer = setInterval(() => {
      if (!next() || current === last) pause();
    }, 1200 / speed);
    $("av-play").textContent = "⏸ Pause";
    $("av-play").classList.add("playing");
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    $("av-play").textContent = "▶ Play";
    $("av-play").classList.remove("playing");
  }

  function toggle() {
    if (timer === null) play();
    else pause();
  }

  function backwardStart() {
    const layout = steps[current].layout;
    let k = steps.findIndex((s, i) => s.layout === layout && s.phase === "backward" && i > 0);
    if (k < 0) k = steps.findIndex((s) => s.phase === "backward");
    return k < 0 ? current : k;
  }

  function projector() {
    const on = document.documentElement.classList.toggle("projector");
    $("av-projector").classList.toggle("active", on);
    const root = document.documentElement;
    if (on && !document.fullscreenElement && root.requestFullscreen) {
      root.requestFullscreen().catch(() => {}); // refused (no user gesture): large type only
    } else if (!on && document.fullscreenElement) {
      document.exitFullscreen().catch(() => {});
    }
  }

  function zoom() {
    const fit = $("av-figure").classList.toggle("fit");
    $("av-zoom").textContent = fit ? "Full size" : "Fit";
    if (!fit) scrollToCurrent();
  }

  const KEYS = {
    ArrowRight: () => next(),
    ArrowLeft: () => jump(current - 1),
    Home: () => jump(0),
    End: () => jump(last),
    " ": toggle,
    f: projector,
    F: projector,
    z: zoom,
    Z: zoom,
  };

  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = KEYS[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  document.addEventListener("fullscreenchange", () => {
    const root = document.documentElement;
    if (!document.fullscreenElement && root.classList.contains("projector")) {
      root.classList.remove("projector");
      $("av-projector").classList.remove("active");
    }
  });

  $("av-first").addEventListener("click", () => jump(0));
  $("av-prev").addEventListener("click", () => jump(current - 1));
  $("av-next").addEventListener("click", () => next());
  $("av-last").addEventListener("click", () => jump(last));
  $("av-backward").addEventListener("click", () => jump(backwardStart()));
  $("av-play").addEventListener("click", toggle);
  $("av-speed").addEventListener("change", () => {
    if (timer !== null) {
      pause();
      play();
    }
  });
  $("av-slider").addEventListener("input", (e) => jump(Number(e.target.value)));
  $("av-zoom").addEventListener("click", zoom);
  $("av-projector").addEventListener("click", projector);
  $("av-check").addEventListener("click", () => answer(false));
  $("av-reveal").addEventListener("click", () => answer(true));
  $("av-answer").addEventListener("keydown", (event) => {
    if (event.key === "Enter") answer(false);
  });

  $("av-slider").max = String(last);
  buildCode();
  show();
  // For tests and benchmarks: move to a step and report nothing else.
  window.autoviz = { goto: jump, step: () => current, check };
})();
