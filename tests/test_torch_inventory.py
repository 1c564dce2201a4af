"""Every documented name of torch, torch.Tensor, torch.autograd, torch.linalg and
torch.special (the inventory tools/torch_names.py writes from real torch's docstring sources)
is in autoviz, outside its scope by decision (torchnames.OUT_OF_SCOPE, said in its NotInAutoviz
message), or one of the few gaps listed here, which shrink and never grow."""

import pytest

import autoviz
from autoviz.errors import NotInAutoviz
from autoviz.torchnames import OUT_OF_SCOPE, _names, out_of_scope

# Documented names autoviz does not have yet, and is not leaving out by decision: none.
GAPS = {
    "documented torch": "",
    "documented torch.Tensor": "",
    "documented torch.autograd": "",
    "documented torch.linalg": "",
    "documented torch.special": "",
}
OWNERS = {
    "documented torch": lambda: autoviz,
    "documented torch.Tensor": lambda: autoviz.ones(2, 2),
    "documented torch.autograd": lambda: autoviz.autograd,
    "documented torch.linalg": lambda: autoviz.linalg,
    "documented torch.special": lambda: autoviz.special,
}


def _has(owner, dotted: str) -> bool:
    head, _, tail = dotted.partition(".")
    try:
        value = getattr(owner, head)
        if tail:
            getattr(value, tail)
    except (AttributeError, RuntimeError):  # NotInAutoviz is an AttributeError
        return False
    return True


@pytest.mark.parametrize("group", sorted(OWNERS))
def test_every_documented_name_is_in_autoviz_or_out_of_scope_by_decision(group):
    documented = _names()[group]
    assert len(documented) > 20, f"{group}: regenerate autoviz/torch_names.txt"
    owner = OWNERS[group]()
    gaps = set(GAPS[group].split())
    missing = sorted(
        n for n in documented if not _has(owner, n) and out_of_scope(n.partition(".")[0]) is None
    )
    assert set(missing) <= gaps, f"{group}: documented, missing, not out of scope: {missing}"
    stale = sorted(gaps - set(missing))
    assert not stale, f"{group}: now in autoviz, take them out of GAPS: {stale}"


def test_out_of_scope_names_say_so_and_why():
    with pytest.raises(NotInAutoviz, match=r"^torch\.view_as_complex is not in autoviz: complex"):
        autoviz.view_as_complex  # noqa: B018
    with pytest.raises(NotInAutoviz, match=r"^torch\.Tensor\.to_sparse is not in autoviz: sparse"):
        autoviz.ones(1).to_sparse  # noqa: B018
    with pytest.raises(NotInAutoviz, match=r"^torch\.Tensor\.index is not in autoviz: functorch"):
        autoviz.ones(1).index  # noqa: B018
    with pytest.raises(NotInAutoviz, match=r"^torch\.special\.bessel_j0 is not in autoviz: Bessel"):
        autoviz.special.bessel_j0  # noqa: B018
    with pytest.raises(NotInAutoviz, match=r"^torch\.FileCheck is not in autoviz yet \("):
        autoviz.FileCheck  # noqa: B018
    assert len(OUT_OF_SCOPE) <= 12


def test_the_inventory_is_current_for_the_torch_it_was_made_with():
    torch = pytest.importorskip("torch")
    header = (autoviz.__file__.replace("__init__.py", "torch_names.txt"),)
    with open(header[0], encoding="utf-8") as names:
        first = names.readline()
    assert torch.__version__.split("+")[0] in first
