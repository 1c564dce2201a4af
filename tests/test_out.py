"""`out=` as torch has it: every function that takes it writes its result there and returns
that tensor (or, for several results, the tuple); none takes it and ignores it."""

import ast
from pathlib import Path

import numpy as np
import pytest

import autoviz as torch

ROOT = Path(__file__).resolve().parent.parent / "autoviz"


def test_no_function_takes_out_and_ignores_it():
    """A parameter `out` that the body never reads would drop the caller's tensor silently."""
    ignored = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            names = [a.arg for a in node.args.args + node.args.kwonlyargs]
            read = any(
                isinstance(n, ast.Name) and n.id == "out" and isinstance(n.ctx, ast.Load)
                for n in ast.walk(node)
            )
            if "out" in names and not read:
                ignored.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert ignored == []


def _x():
    torch.manual_seed(0)
    return torch.randn(4, 4)


SPD = torch.eye(3) * 2 + 0.5
ONE = {  # name: the call, given out
    "index_select": lambda out: torch.index_select(_x(), 1, torch.tensor([0, 2]), out=out),
    "masked_select": lambda out: torch.masked_select(_x(), _x() > 0, out=out),
    "take": lambda out: torch.take(_x(), torch.tensor([0, 5]), out=out),
    "gather": lambda out: torch.gather(_x(), 1, torch.tensor([[0], [1], [2], [3]]), out=out),
    "take_along_dim": lambda out: torch.take_along_dim(
        _x(), torch.tensor([[0], [1], [2], [3]]), 1, out=out
    ),
    "histc": lambda out: torch.histc(_x(), 5, out=out),
    "nonzero": lambda out: torch.nonzero(_x() > 0, out=out),
    "nextafter": lambda out: torch.nextafter(_x(), torch.zeros(4, 4), out=out),
    "lgamma": lambda out: torch.lgamma(_x().abs() + 1, out=out),
    "special.entr": lambda out: torch.special.entr(_x().abs(), out=out),
    "linalg.det": lambda out: torch.linalg.det(SPD, out=out),
    "linalg.inv": lambda out: torch.linalg.inv(SPD, out=out),
    "linalg.solve": lambda out: torch.linalg.solve(SPD, torch.ones(3), out=out),
    "linalg.svdvals": lambda out: torch.linalg.svdvals(SPD, out=out),
    "linalg.eigvalsh": lambda out: torch.linalg.eigvalsh(SPD, out=out),
    "linalg.vector_norm": lambda out: torch.linalg.vector_norm(_x(), out=out),
    "linalg.matrix_norm": lambda out: torch.linalg.matrix_norm(_x(), out=out),
    "linalg.norm": lambda out: torch.linalg.norm(_x(), out=out),
    "linalg.multi_dot": lambda out: torch.linalg.multi_dot([_x(), _x()], out=out),
    "linalg.pinv": lambda out: torch.linalg.pinv(SPD, out=out),
    "linalg.cholesky": lambda out: torch.linalg.cholesky(SPD, out=out),
    "cholesky_solve": lambda out: torch.cholesky_solve(torch.ones(3, 1), SPD, out=out),
    "cholesky_inverse": lambda out: torch.cholesky_inverse(SPD.tril(), out=out),
    "nn.functional.normalize": lambda out: torch.nn.functional.normalize(_x(), out=out),
    "multinomial": lambda out: torch.multinomial(torch.ones(2, 3), 2, out=out),
}
SEVERAL = {  # name: (call, the number of results)
    "sort": (lambda out: torch.sort(_x(), 1, out=out), 2),
    "topk": (lambda out: torch.topk(_x(), 2, out=out), 2),
    "kthvalue": (lambda out: torch.kthvalue(_x(), 2, out=out), 2),
    "aminmax": (lambda out: torch.aminmax(_x(), dim=0, out=out), 2),
    "frexp": (lambda out: torch.frexp(_x(), out=out), 2),
    "linalg.qr": (lambda out: torch.linalg.qr(SPD, out=out), 2),
    "linalg.eigh": (lambda out: torch.linalg.eigh(SPD, out=out), 2),
}


def _empty_like(t):
    return torch.empty(0, dtype=t.dtype)


@pytest.mark.parametrize("name", sorted(ONE))
def test_the_result_is_written_into_out_and_returned(name):
    call = ONE[name]
    torch.manual_seed(1)
    want = call(None)
    out = _empty_like(want)
    torch.manual_seed(1)
    got = call(out)
    assert got is out
    assert out.shape == want.shape and out.dtype == want.dtype
    np.testing.assert_array_equal(out.numpy(), want.numpy())


@pytest.mark.parametrize("name", sorted(SEVERAL))
def test_several_results_are_written_into_the_out_tuple(name):
    call, count = SEVERAL[name]
    want = call(None)
    outs = tuple(_empty_like(t) for t in want)
    got = call(outs)
    assert len(got) == count and all(g is o for g, o in zip(got, outs, strict=True))
    assert type(got) is type(want)  # torch's return type, fields and all
    for o, w in zip(outs, want, strict=True):
        np.testing.assert_array_equal(o.numpy(), w.numpy())


def test_out_errors_say_what_torch_says():
    with pytest.raises(RuntimeError, match=r"^multinomial expects Long tensor out, got: Float$"):
        torch.multinomial(torch.ones(1, 2), 2, out=torch.empty(1, 2))
    with pytest.raises(TypeError, match=r"^sort\(\): argument 'out' must be tuple of 2 Tensors"):
        torch.sort(_x(), out=torch.empty(0))
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.linalg.det(torch.eye(2).requires_grad_(), out=torch.empty(()))
