"""A question a learner answers before a step reveals it: its answer, and how a guess is read,
checked and answered (the player's quiz.js reads guesses by the same rules)."""

import math
import re
from dataclasses import dataclass

from .text import number, shape_text

# How an answer is given: a number; a shape such as (4, 3); the dimension(s) a sum runs over;
# one of some choices; several of some choices (ticked); free text (a teacher's question).
FORMS = ("number", "shape", "dims", "choice", "choices", "text")
INVALID = object()  # what read() gives for a guess that is not of the question's form

# Only these count as space, in Python and in the browser alike (str.strip and String.trim
# disagree on some Unicode spaces).
_SPACE = " \t\n\r"
_SIZE = re.compile(r"(?:torch\.)?Size\((.*)\)", re.S)
_SHAPE_SPLIT = re.compile(r"[ \t\n\r]*[,x×*][ \t\n\r]*|[ \t\n\r]+")
_DIMS_SPLIT = re.compile(r"[ \t\n\r]*,[ \t\n\r]*|[ \t\n\r]+")
_DIM_WORD = re.compile(r"dims?[ \t\n\r]*")
_COUNT = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_RUNS = re.compile(r"[ \t\n\r]+")
_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_NOTES = {
    "shape": "Type a shape such as (4, 3), or () for a single number.",
    "dims": "Type a dimension such as 0, or several: 0, 1.",
    "choices": "Tick every one that does, then Check.",
}


@dataclass(frozen=True)
class Question:
    """What the learner predicts before step `step` reveals it, and the answer, computed from
    the recorded program.

    `form` says how it is answered (FORMS); `options` are the choices of a choice question;
    `hint` is said after a first wrong try; `why` with the answer. `mistakes` are the known
    wrong answers, each (answer, name in mistakes.MISTAKES, hint); for a "choices" question
    each is (option, name, hint), said when that option is the first ticked wrongly (else the
    first left out). `about` names the
    fact the answer is, for tests: ("sent", node id, index), ("grad", ...), ("value", ...),
    ("shape", node id), ("has_grad",), ... .
    """

    prompt: str
    answer: object
    rel_tol: float = 1e-3
    abs_tol: float = 1e-4
    kind: str = "scalar"
    form: str = "number"
    options: tuple = ()
    hint: str = ""
    why: str = ""
    mistakes: tuple = ()
    ndim: int = 0  # of the tensor a "dims" question sums: -1 is its last dimension
    step: int | None = None
    about: tuple = ()

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise ValueError(f"unknown question form {self.form!r} (must be one of {list(FORMS)})")
        if self.form in ("choice", "choices") and not self.options:
            raise ValueError(f"a {self.form!r} question needs its options")
        answer = self.answer if self.form == "number" else self.read(self.answer)
        if answer is INVALID:
            raise ValueError(f"{self.answer!r} is not an answer of form {self.form!r}")
        object.__setattr__(self, "answer", float(answer) if self.form == "number" else answer)

    # -- reading a guess --------------------------------------------------------------------
    def read(self, guess):
        """The guess as a value of the question's form, or INVALID."""
        if self.form == "number":
            try:
                return float(str(guess).strip().replace("−", "-"))
            except ValueError:
                return INVALID
        if self.form == "choices":
            return self._read_choices(guess)
        if self.form == "shape" and _int_sequence(guess):
            return tuple(int(n) for n in guess)
        text = str(guess).strip(_SPACE)
        if not text:
            return INVALID
        if self.form == "text":
            return text
        return {"shape": read_shape, "dims": self._read_dims, "choice": self._read_choice}[
            self.form
        ](text)

    def _read_dims(self, text: str):
        text = _strip_brackets(_DIM_WORD.sub("", text, count=1) if _DIM_WORD.match(text) else text)
        parts = _split(_DIMS_SPLIT, text)
        if not parts or not all(_SIGNED.fullmatch(p) for p in parts):
            return INVALID
        dims = {int(p) + self.ndim if int(p) < 0 else int(p) for p in parts}
        return tuple(sorted(dims))

    def _read_choice(self, text: str):
        if text in self.options:
            return text
        folded = [o for o in self.options if o.translate(_UPPER) == text.translate(_UPPER)]
        return folded[0] if len(folded) == 1 else INVALID

    def _read_choices(self, guess):
        if isinstance(guess, str):
            text = guess.strip(_SPACE)
            if not text or text.translate(_UPPER) == "none":
                return ()
            guess = text.split(",")
        if not isinstance(guess, list | tuple | set | frozenset):
            return INVALID
        picked = {self._read_choice(str(g).strip(_SPACE)) for g in guess}
        if INVALID in picked:
            return INVALID
        return tuple(o for o in self.options if o in picked)

    def same(self, a, b) -> bool:
        """Whether two values of the question's form are the same answer."""
        if self.form == "text":
            return _plain_text(a) == _plain_text(b)
        if self.form != "number":
            return a == b
        if math.isnan(a) and math.isnan(b):  # a NaN gradient is answered with "nan"
            return True
        return math.isclose(a, b, rel_tol=self.rel_tol, abs_tol=self.abs_tol)

    # -- what is said -------------------------------------------------------------------------
    def check(self, guess, first_try: bool = False) -> tuple:
        """(right, sentence): True and "Right: …"; None and what to type when the guess is not
        of the question's form; False and, on a `first_try`, a hint to try again with (the
        mistake's when the guess is a known mistake), else the answer."""
        value = self.read(guess)
        if value is INVALID:
            return None, self.invalid(guess)
        if self.same(value, self.answer):
            return True, self.right_text()
        hint = self.mistake_hint(value)
        return False, self.try_again(hint) if first_try else self.wrong_text(hint)

    def mistake_hint(self, value) -> str | None:
        """The hint of the known mistake `value` is, if it is one."""
        if self.form == "choices":
            # A tensor ticked that has none is the telling mistake; then one left out.
            picked = [o for o in self.options if o in value and o not in self.answer]
            wrong = picked + [o for o in self.options if o not in value and o in self.answer]
            found = {option: hint for option, _, hint in self.mistakes}
            return found.get(wrong[0]) if wrong else None
        for answer, _, hint in self.mistakes:
            if self.same(value, answer):
                return hint
        return None

    def answer_text(self) -> str:
        if self.form == "number":
            return number(self.answer)
        if self.form == "shape":
            return shape_text(self.answer)
        if self.form == "dims":
            return f"dim{'s' if len(self.answer) > 1 else ''} {', '.join(map(str, self.answer))}"
        if self.form == "choices":
            return ", ".join(self.answer) if self.answer else "none of them"
        return self.answer

    def _with_why(self, text: str) -> str:
        return f"{text} {self.why}" if self.why else text

    def right_text(self) -> str:
        return self._with_why(f"Right: the answer is {self.answer_text()}.")

    def wrong_text(self, hint: str | None = None) -> str:
        said = f"Not quite: the answer is {self.answer_text()}."
        return self._with_why(f"{said} {hint}" if hint else said)

    def try_again(self, hint: str | None = None) -> str:
        return f"Not quite. {hint or self.hint or 'Look at the picture again.'} Try again."

    def reveal_text(self) -> str:
        return self._with_why(f"The answer is {self.answer_text()}.")

    def note(self) -> str:
        """What to type, shown under the prompt (with the tolerance a number is read to)."""
        if self.form == "number":
            return f"A number; within {_percent(self.rel_tol)} or ±{number(self.abs_tol)} counts."
        return _NOTES.get(self.form, "")

    def invalid(self, guess) -> str:
        text = str(guess).strip() if self.form == "number" else str(guess).strip(_SPACE)
        if self.form == "number":
            return f"{text!r} is not a number: type a value such as 2 or 0.5."
        if self.form == "shape":
            return f"{text!r} is not a shape: type one such as (4, 3), or () for a single number."
        if self.form == "dims":
            return f"{text!r} is not a dimension: type one such as 0, or several such as 0, 1."
        if self.form in ("choice", "choices"):
            return f"{text!r} is not one of the choices: {', '.join(self.options)}."
        return "Type an answer first."

    def data(self) -> dict:
        """The question as the player's quiz.js reads it: how to read and compare a guess, and
        every sentence it can say (so the page says what check() says)."""
        return {
            "kind": self.kind,
            "form": self.form,
            "prompt": self.prompt,
            "note": self.note(),
            "options": list(self.options),
            "answer": _encode(self.form, self.answer),
            "rel": self.rel_tol,
            "abs": self.abs_tol,
            "ndim": self.ndim,
            "right": self.right_text(),
            "wrong": self.wrong_text(),
            "hint": self.try_again(),
            "reveal": self.reveal_text(),
            "mistakes": [
                [
                    _encode(self.form, a) if self.form != "choices" else a,
                    self.try_again(h),
                    self.wrong_text(h),
                ]
                for a, _, h in self.mistakes
            ],
        }


def read_shape(text: str):
    """`(8, 3)`, `8, 3`, `8x3`, `[8, 3]`, `torch.Size([8, 3])`, `(3,)`, `()` as a tuple."""
    text = text.strip(_SPACE)
    if not text:
        return INVALID
    size = _SIZE.fullmatch(text)
    text = _strip_brackets(size.group(1).strip(_SPACE) if size else text)
    if not text:
        return ()
    parts = _split(_SHAPE_SPLIT, text)
    if not parts or not all(_COUNT.fullmatch(p) for p in parts):
        return INVALID
    return tuple(int(p) for p in parts)


def _strip_brackets(text: str) -> str:
    if len(text) >= 2 and (text[0], text[-1]) in (("(", ")"), ("[", "]")):
        return text[1:-1].strip(_SPACE)
    return text


def _split(pattern, text: str) -> list:
    parts = pattern.split(text)
    if len(parts) > 1 and parts[-1] == "":  # "(3,)"
        parts.pop()
    return parts


def _plain_text(text: str) -> str:
    return _RUNS.sub(" ", text).translate(_UPPER)


def _int_sequence(value) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(n, int) and not isinstance(n, bool) for n in value
    )


def _encode(form: str, value):
    if form == "number":
        return repr(float(value))  # a string: JSON has no inf or nan
    return list(value) if isinstance(value, tuple) else value


def _percent(rel: float) -> str:
    return f"{number(rel * 100)}%".replace(".0%", "%")
