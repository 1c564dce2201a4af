"""`torch.__version__` under as_torch(): the PyTorch release whose API autoviz follows, marked
as autoviz's (`2.13.0+autoviz`), a str that compares as a version with strings and tuples, so
version checks in lesson code (`torch.__version__ >= "2.0"`) take PyTorch 2.13's branch."""

import re

_VERSION = re.compile(
    r"v?(?P<release>\d+(?:\.\d+)*)(?:[-_.]?(?P<pre>a|b|rc|alpha|beta|c)[-_.]?(?P<pre_n>\d*))?"
    r"(?:[-_.]?post[-_.]?(?P<post>\d*))?(?:[-_.]?dev[-_.]?(?P<dev>\d*))?(?:\+(?P<local>[\w.]+))?$",
    re.IGNORECASE,
)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


def _key(text: str):
    """A sort key of a PEP 440 version (a dev release before its pre-releases, those before
    the release, then post-releases; a local label after the same public version), or None
    for text that is no version."""
    found = _VERSION.match(text.strip())
    if found is None:
        return None
    release = tuple(int(n) for n in found["release"].split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    pre, dev, post = found["pre"], found["dev"], found["post"]
    if pre is not None:
        stage = (_PRE[pre.lower()], int(found["pre_n"] or 0))
    else:
        stage = (-1, 0) if dev is not None and post is None else (3, 0)
    local = tuple(found["local"].split(".")) if found["local"] else ()
    dev_key = int(dev or 0) if dev is not None else float("inf")
    return release, stage, int(post or 0) if post is not None else -1, dev_key, local


def _as_key(other):
    if isinstance(other, str):
        return _key(other)
    if isinstance(other, (tuple, list)):
        return _key(".".join(str(item) for item in other))
    if hasattr(other, "release"):  # a packaging.version.Version
        return _key(str(other))
    return None


class TorchVersion(str):
    """A version string that compares with version strings and tuples as versions."""

    __slots__ = ()

    def _compare(self, other, method: str):
        mine, theirs = _key(self), _as_key(other)
        if mine is None or theirs is None:
            return getattr(str, method)(self, other)
        return getattr(mine, method)(theirs)

    def __lt__(self, other):
        return self._compare(other, "__lt__")

    def __le__(self, other):
        return self._compare(other, "__le__")

    def __gt__(self, other):
        return self._compare(other, "__gt__")

    def __ge__(self, other):
        return self._compare(other, "__ge__")

    def __eq__(self, other):
        return self._compare(other, "__eq__")

    def __ne__(self, other):
        return self._compare(other, "__ne__")

    __hash__ = str.__hash__


__version__ = TorchVersion("2.13.0+autoviz")
