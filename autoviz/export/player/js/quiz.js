/* ---- quiz.js: asking for a gradient before the step that reveals it ---- */

/* Question.check in the browser: Python's float syntax and math.isclose. Returns
   [right, sentence]; right is null when the text is not a number. */
function check(text, quiz) {
  const stripped = text.trim();
  const guess = pythonFloat(stripped.replace(/\u2212/g, "-"));
  if (guess === null) {
    return [null, `${pythonRepr(stripped)} is not a number: type a value such as 2 or 0.5.`];
  }
  const answer = pythonFloat(quiz.answer);
  // NaN is close to nothing, itself included: a NaN gradient is answered with "nan".
  const right =
    (Number.isNaN(guess) && Number.isNaN(answer)) || isclose(guess, answer, quiz.rel, quiz.abs);
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

/* Which steps ask, which were answered, and the score. A question is asked once; moving
   forward past an unanswered one (→, End, the slider, a jump) stops in front of it. */
class Quiz {
  constructor(steps, enabled) {
    this.steps = steps;
    this.enabled = enabled;
    this.answered = new Set();
    this.right = 0;
    this.pending = null; // the step whose question is on screen
  }

  /* The first step in (from, to] whose question is still unanswered, or null. */
  firstUnanswered(from, to) {
    if (!this.enabled) return null;
    for (let k = from + 1; k <= to; k++) {
      if (this.steps[k].quiz && !this.answered.has(k)) return k;
    }
    return null;
  }

  /* The learner's answer (or null for "Show me"): [verdict class, sentence], or null when the
     text is not a number and the question stays. */
  answer(text) {
    const quiz = this.steps[this.pending].quiz;
    if (text === null) {
      this.answered.add(this.pending);
      return ["revealed", `${quiz.reveal} (${this.score()})`];
    }
    const [right, sentence] = check(text, quiz);
    if (right === null) return ["invalid", sentence];
    this.answered.add(this.pending);
    this.right += right ? 1 : 0;
    return [right ? "right" : "wrong", `${sentence} (${this.score()})`];
  }

  score() {
    return `${this.right} of ${this.answered.size} right so far`;
  }
}
