"""Quiz mode's state: which steps ask before revealing a gradient, what was answered, the score."""

from ..tracing.explain import quiz


class Quiz:
    """Questions of a timeline, asked once each, in step order."""

    def __init__(self, tl, enabled: bool) -> None:
        self.questions = {}
        if enabled:
            for k in range(len(tl)):
                question = quiz(tl, k)
                if question is not None:
                    self.questions[k] = question
        self.answered = set()  # steps whose question was answered (right or wrong)
        self.right = 0
        self.pending = None  # the step whose question is being asked, if any

    def first_unanswered(self, start: int, stop: int) -> int | None:
        """The first step in (start, stop] with a question not yet answered."""
        for k in range(start + 1, stop + 1):
            if k in self.questions and k not in self.answered:
                return k
        return None

    def answer(self, text: str) -> tuple[bool | None, str]:
        """Check `text` against the pending question: (right, sentence); right is None when
        `text` is not a number, and the question stays pending."""
        question = self.questions[self.pending]
        right, sentence = question.check(text)
        if not right and not _is_number(text):
            return None, sentence  # a typo is not a wrong answer: ask again
        self.answered.add(self.pending)
        self.right += right
        return right, f"{sentence} ({self.score})"

    @property
    def score(self) -> str:
        return f"{self.right} of {len(self.answered)} right so far"


def _is_number(text: str) -> bool:
    try:
        float(str(text).strip().replace("−", "-"))
    except ValueError:
        return False
    return True
