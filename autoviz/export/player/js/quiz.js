/* ---- quiz.js: a question before the step that reveals it; a hint, a second try, a score ---- */

/* Question.check (autoviz/tracing/questions.py) in the browser: the guess read by the same
   rules, and the sentences Python wrote for each outcome. Returns [right, sentence]; right is
   null when the guess is not of the question's form (the question stays). */
function check(guess, quiz, firstTry = false) {
  const value = readGuess(guess, quiz);
  if (value === INVALID) return [null, invalidText(guess, quiz)];
  if (sameAnswer(value, readAnswer(quiz.answer, quiz), quiz)) return [true, quiz.right];
  const mistake = mistakeOf(value, quiz);
  if (firstTry) return [false, mistake ? mistake[1] : quiz.hint];
  return [false, mistake ? mistake[2] : quiz.wrong];
}

const INVALID = Symbol("invalid");
const SPACE = "[ \\t\\n\\r]";
const SIZE = /^(?:torch\.)?Size\(([\s\S]*)\)$/;
const SHAPE_SPLIT = new RegExp(`${SPACE}*[,x×*]${SPACE}*|${SPACE}+`);
const DIMS_SPLIT = new RegExp(`${SPACE}*,${SPACE}*|${SPACE}+`);
const DIM_WORD = new RegExp(`^dims?${SPACE}*`);
const RUNS = new RegExp(`${SPACE}+`, "g");
const FLOAT =
  /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:e[+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

const strip = (text) => text.replace(new RegExp(`^${SPACE}+|${SPACE}+$`, "g"), "");
const asciiLower = (text) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

function readGuess(guess, quiz) {
  if (quiz.form === "choices") return readChoices(guess, quiz);
  if (quiz.form === "number") return pythonFloat(String(guess).trim().replace(/\u2212/g, "-"));
  const text = strip(String(guess));
  if (!text) return INVALID;
  if (quiz.form === "shape") return readShape(text);
  if (quiz.form === "dims") return readDims(text, quiz.ndim);
  if (quiz.form === "choice") return readChoice(text, quiz.options);
  return text;
}

function readAnswer(answer, quiz) {
  return quiz.form === "number" ? pythonFloat(answer) : answer;
}

function pythonFloat(text) {
  if (!FLOAT.test(text)) return INVALID;
  const body = text.replace(/_/g, "").toLowerCase();
  const sign = body.startsWith("-") ? -1 : 1;
  const bare = body.replace(/^[+-]/, "");
  if (bare.startsWith("inf")) return sign * Infinity;
  if (bare === "nan") return NaN;
  return Number(body);
}

function stripBrackets(text) {
  const pair = text[0] + text[text.length - 1];
  return text.length >= 2 && (pair === "()" || pair === "[]") ? strip(text.slice(1, -1)) : text;
}

function split(pattern, text) {
  const parts = text.split(pattern);
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop(); // "(3,)"
  return parts;
}

function readShape(text) {
  const size = SIZE.exec(text);
  text = stripBrackets(size ? strip(size[1]) : text);
  if (!text) return [];
  const parts = split(SHAPE_SPLIT, text);
  return parts.every((p) => /^[0-9]+$/.test(p)) ? parts.map(Number) : INVALID;
}

function readDims(text, ndim) {
  const parts = split(DIMS_SPLIT, stripBrackets(text.replace(DIM_WORD, "")));
  if (!parts.every((p) => /^[+-]?[0-9]+$/.test(p))) return INVALID;
  const dims = new Set(parts.map((p) => (Number(p) < 0 ? Number(p) + ndim : Number(p) || 0)));
  return [...dims].sort((a, b) => a - b);
}

function readChoice(text, options) {
  if (options.includes(text)) return text;
  const folded = options.filter((o) => asciiLower(o) === asciiLower(text));
  return folded.length === 1 ? folded[0] : INVALID;
}

/* The ticked options (a list), or text naming them between commas ("none": none of them). */
function readChoices(guess, quiz) {
  if (typeof guess === "string") {
    const text = strip(guess);
    if (!text || asciiLower(text) === "none") return [];
    guess = text.split(",");
  }
  const picked = guess.map((g) => readChoice(strip(String(g)), quiz.options));
  if (picked.includes(INVALID)) return INVALID;
  return quiz.options.filter((o) => picked.includes(o));
}

function sameAnswer(a, b, quiz) {
  if (quiz.form === "number") {
    // NaN is close to nothing, itself included: a NaN gradient is answered with "nan".
    return (Number.isNaN(a) && Number.isNaN(b)) || isclose(a, b, quiz.rel, quiz.abs);
  }
  if (quiz.form === "text") return asciiLower(a.replace(RUNS, " ")) === asciiLower(b.replace(RUNS, " "));
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

/* The known mistake a wrong value is, as [answer, hint to try again with, final sentence];
   for a "choices" question, the one of the first option ticked wrongly, else left out. */
function mistakeOf(value, quiz) {
  if (quiz.form === "choices") {
    // A tensor ticked that has none is the telling mistake; then one left out.
    const picked = quiz.options.filter((o) => value.includes(o) && !quiz.answer.includes(o));
    const missed = quiz.options.filter((o) => !value.includes(o) && quiz.answer.includes(o));
    return quiz.mistakes.find((m) => m[0] === [...picked, ...missed][0]) || null;
  }
  return quiz.mistakes.find((m) => sameAnswer(value, readAnswer(m[0], quiz), quiz)) || null;
}

function isclose(a, b, relTol, absTol) {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const diff = Math.abs(a - b);
  return diff <= Math.abs(relTol * b) || diff <= Math.abs(relTol * a) || diff <= absTol;
}

function invalidText(guess, quiz) {
  const text = quiz.form === "number" ? String(guess).trim() : strip(String(guess));
  const shown = pythonRepr(text);
  const said = {
    number: `${shown} is not a number: type a value such as 2 or 0.5.`,
    shape: `${shown} is not a shape: type one such as (4, 3), or () for a single number.`,
    dims: `${shown} is not a dimension: type one such as 0, or several such as 0, 1.`,
    text: "Type an answer first.",
  };
  return said[quiz.form] || `${shown} is not one of the choices: ${quiz.options.join(", ")}.`;
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

/* The quiz of one player: which steps ask, the box that asks, tries and score. A question is
   asked once; moving forward past an unanswered one (→, End, the slider, a jump) stops in
   front of it. A first wrong try gets a hint and a second try; the second, the answer. */
class Quiz {
  constructor(player) {
    this.player = player;
    this.steps = player.data.steps;
    this.enabled = player.model.get("quiz");
    this.results = new Map(); // step -> "right", "second" (right at the second try), "wrong", "shown"
    this.pending = null; // the step whose question is on screen
    this.tries = 0;
    this.total = this.steps.filter((s) => s.quiz).length;
    this.build();
  }

  build() {
    this.prompt = h("label", { class: "av-prompt" });
    this.note = h("p", { class: "av-quiz-note" });
    this.input = h("input", {
      class: "av-answer",
      type: "text",
      autocomplete: "off",
      spellcheck: "false",
      "aria-label": "Your answer",
    });
    this.options = h("div", { class: "av-options", role: "group", "aria-label": "Choices" });
    this.checkButton = h("button", { type: "button", "data-action": "check", title: "Check my answer (Enter)" }, "Check");
    const reveal = h("button", { type: "button", "data-action": "reveal", title: "Show the answer without guessing" }, "Show me");
    this.verdict = h("p", { class: "av-verdict", role: "status", "aria-live": "polite" });
    this.scoreLine = h("p", { class: "av-score", hidden: true });
    this.row = h("div", { class: "av-quiz-row" }, this.input, this.options, this.checkButton, reveal);
    this.el = h(
      "section",
      { class: "av-quiz", hidden: true },
      this.prompt,
      this.note,
      this.row,
      this.verdict,
      this.scoreLine,
    );
    this.player.listen(this.input, "keydown", (event) => {
      if (event.key === "Enter") this.answer(this.input.value);
      if (event.key === "Escape") this.player.root.focus({ preventScroll: true }); // keys step again
    });
    this.player.listen(this.options, "click", (event) => {
      const option = event.target.closest("button.av-option");
      if (option && !option.disabled) this.answer(option.textContent);
    });
    this.player.on("step", () => this.atEnd());
  }

  /* The first step in (from, to] whose question is still unanswered, or null. */
  firstUnanswered(from, to) {
    if (!this.enabled) return null;
    for (let k = from + 1; k <= to; k++) {
      if (this.steps[k].quiz && !this.results.has(k)) return k;
    }
    return null;
  }

  ask(k) {
    this.player.pause();
    if (this.pending === k) return;
    const quiz = this.steps[k].quiz;
    this.pending = k;
    this.tries = 0;
    this.el.hidden = false;
    this.el.dataset.form = quiz.form;
    this.el.classList.remove("av-quiz-score");
    this.scoreLine.hidden = true;
    this.prompt.textContent = quiz.prompt;
    this.note.textContent = quiz.note;
    this.note.hidden = !quiz.note;
    this.setVerdict("", "");
    this.makeOptions(quiz);
    this.enable(true);
    const typed = quiz.form !== "choice" && quiz.form !== "choices";
    this.input.hidden = !typed;
    this.input.value = "";
    this.input.inputMode = quiz.form === "number" ? "decimal" : "text";
    this.checkButton.hidden = quiz.form === "choice";
    this.player.layout.placeQuiz(true);
    const first = typed ? this.input : this.options.querySelector("button, input");
    if (first) first.focus({ preventScroll: true });
  }

  makeOptions(quiz) {
    const choices = quiz.form === "choice" || quiz.form === "choices" ? quiz.options : [];
    this.options.replaceChildren(
      ...choices.map((option) =>
        quiz.form === "choice"
          ? h("button", { type: "button", class: "av-option" }, option)
          : h("label", { class: "av-option" }, h("input", { type: "checkbox", value: option }), option),
      ),
    );
    this.options.hidden = !choices.length;
  }

  /* Check: what is typed, or the options ticked. */
  submit() {
    if (this.pending === null) return;
    const form = this.steps[this.pending].quiz.form;
    if (form !== "choices") return this.answer(this.input.value);
    this.answer([...this.options.querySelectorAll("input:checked")].map((box) => box.value));
  }

  /* The learner's guess, or null for "Show me". */
  answer(guess) {
    if (this.pending === null) return;
    const k = this.pending;
    const quiz = this.steps[k].quiz;
    if (guess === null) return this.finish(k, "shown", "revealed", quiz.reveal);
    const [right, sentence] = check(guess, quiz, this.tries === 0);
    if (right === null) {
      this.setVerdict("invalid", sentence); // the learner may try again
      return this.player.layout.placeQuiz();
    }
    if (right) return this.finish(k, this.tries ? "second" : "right", "right", sentence);
    this.tries += 1;
    if (this.tries === 1) {
      this.setVerdict("hint", sentence);
      this.player.layout.placeQuiz();
      if (!this.input.hidden) this.input.select();
      return;
    }
    this.finish(k, "wrong", "wrong", sentence);
  }

  finish(k, result, verdict, sentence) {
    this.results.set(k, result);
    this.setVerdict(verdict, `${sentence} (${this.score()})`);
    this.pending = null;
    this.player.goto(k);
    this.enable(false);
    this.player.layout.placeQuiz();
    this.player.root.focus({ preventScroll: true }); // → goes on from here
  }

  setVerdict(verdict, sentence) {
    this.verdict.textContent = sentence;
    this.verdict.className = verdict ? `av-verdict ${verdict}` : "av-verdict";
  }

  score() {
    const right = [...this.results.values()].filter((r) => r === "right" || r === "second");
    return `${right.length} of ${this.results.size} right so far`;
  }

  /* At the last step, the score of the questions answered (under the last verdict). */
  atEnd() {
    const last = this.player.current === this.steps.length - 1;
    if (!this.enabled || !last || this.pending !== null || !this.results.size) return;
    const counts = { right: 0, second: 0, wrong: 0, shown: 0 };
    for (const r of this.results.values()) counts[r] += 1;
    const parts = [];
    if (counts.second) parts.push(`${counts.second} at the second try`);
    if (counts.shown) parts.push(`${counts.shown} shown`);
    const skipped = this.total - this.results.size;
    if (skipped > 0) parts.push(`${skipped} not answered`);
    const right = counts.right + counts.second;
    const more = parts.length ? ` (${parts.join(", ")})` : "";
    this.scoreLine.textContent = `Score: ${right} of ${this.results.size} right${more}.`;
    this.scoreLine.hidden = false;
    if (this.el.hidden) {
      this.el.hidden = false;
      this.el.classList.add("av-quiz-score"); // the score alone
    }
    this.player.layout.placeQuiz();
  }

  enable(on) {
    this.row.hidden = false;
    for (const el of this.el.querySelectorAll("input, button")) el.disabled = !on;
  }

  close() {
    this.pending = null;
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.player.layout.placeQuiz();
  }

  setEnabled(on) {
    this.enabled = on;
    if (!on) this.close();
  }
}
