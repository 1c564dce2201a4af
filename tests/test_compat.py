"""`autoviz.as_torch()`: `import torch` gives autoviz inside it, one module per name, and
everything is as it was afterwards; a PyTorch API autoviz lacks says so by name."""

import subprocess
import sys
import textwrap

import pytest

import autoviz
from autoviz.errors import NotInAutoviz


def test_import_torch_gives_autoviz_modules_one_per_name():
    with autoviz.as_torch() as torch_module:
        import torch
        import torch.autograd.functional
        import torch.nn as nn
        import torch.nn.functional as F
        import torch.utils.data
        from torch import optim
        from torch.utils.data import DataLoader

        assert torch is torch_module is autoviz
        assert nn is autoviz.nn and F is autoviz.nn.functional and optim is autoviz.optim
        assert torch.nn.Linear is autoviz.nn.Linear
        assert DataLoader is autoviz.utils.data.DataLoader is torch.utils.data.DataLoader
        assert torch.autograd.functional.jacobian is autoviz.autograd.functional.jacobian
        assert torch.cuda.is_available() is False


def test_type_names_torch_under_the_alias_and_autoviz_after():
    with autoviz.as_torch():
        import torch

        t = torch.ones(1)
        assert repr(type(t)) == "<class 'torch.Tensor'>"
        assert repr(type(torch.nn.Parameter(t))) == "<class 'torch.nn.parameter.Parameter'>"
        assert repr(type(t.dtype)) == "<class 'torch.dtype'>"
        assert repr(type(t.shape)) == "<class 'torch.Size'>"
    assert repr(type(t)) == "<class 'autoviz.engine.tensor.Tensor'>"


def test_nested_use_restores_the_outer_alias():
    with autoviz.as_torch():
        with autoviz.as_torch():
            pass
        import torch as again

        assert again is autoviz and repr(type(again.ones(1))) == "<class 'torch.Tensor'>"
    assert "torch" not in sys.modules or sys.modules["torch"] is not autoviz


def test_a_real_torch_already_imported_comes_back():
    torch_real = pytest.importorskip("torch")
    before = {n: m for n, m in sys.modules.items() if n == "torch" or n.startswith("torch.")}
    with autoviz.as_torch():
        import torch

        assert torch is autoviz
        assert sys.modules["torch.nn"] is autoviz.nn
    import torch

    assert torch is torch_real
    after = {n: m for n, m in sys.modules.items() if n == "torch" or n.startswith("torch.")}
    assert after == before


def test_undone_even_when_the_block_raises():
    with pytest.raises(ZeroDivisionError), autoviz.as_torch():
        import torch  # noqa: F401

        _ = 1 / 0
    assert sys.modules.get("torch") is not autoviz
    assert not any(type(f).__name__ == "_TorchFinder" for f in sys.meta_path)


def test_a_missing_api_is_named_and_said_to_be_not_in_autoviz_yet():
    with autoviz.as_torch():
        import torch

        with pytest.raises(
            NotInAutoviz, match=r"^torch\.fft is not in autoviz: spectral ops are outside"
        ):
            torch.fft  # noqa: B018
        with pytest.raises(AttributeError) as caught:
            torch.nn.LinearCrossEntropyLoss  # noqa: B018
        assert isinstance(caught.value, NotInAutoviz)
        assert str(caught.value).startswith("torch.nn.LinearCrossEntropyLoss is not in autoviz yet")
        with pytest.raises(NotInAutoviz, match=r"torch\.Tensor\.stft is not in autoviz: spectral"):
            torch.ones(1).stft  # noqa: B018
        with pytest.raises(NotInAutoviz, match=r"torch\.nn\.functional\.grouped_mm is not in"):
            torch.nn.functional.grouped_mm  # noqa: B018
        with pytest.raises(NotInAutoviz, match=r"torch\.optim\.SparseAdam is not in autoviz: spa"):
            torch.optim.SparseAdam  # noqa: B018
        with pytest.raises(NotInAutoviz, match=r"torch\.nn\.Module\.share_memory is not in au"):
            torch.nn.Linear(1, 1).share_memory  # noqa: B018
        with pytest.raises(ModuleNotFoundError, match=r"^torch\.fft is not in autoviz: spectral"):
            import torch.fft


def test_a_name_torch_does_not_have_gets_torchs_own_error():
    with autoviz.as_torch():
        import torch

        with pytest.raises(AttributeError) as caught:
            torch.fooo  # noqa: B018
        assert not isinstance(caught.value, NotInAutoviz)
        assert str(caught.value) == "module 'torch' has no attribute 'fooo'"
        with pytest.raises(AttributeError, match=r"^'Tensor' object has no attribute 'fooo'$"):
            torch.ones(1).fooo  # noqa: B018
        with pytest.raises(AttributeError, match=r"^'Linear' object has no attribute 'fooo'$"):
            torch.nn.Linear(1, 1).fooo  # noqa: B018
        with pytest.raises(ModuleNotFoundError, match=r"^No module named 'torch\.fooo'$"):
            import torch.fooo


def test_hasattr_sees_a_missing_api_as_missing():
    assert not hasattr(autoviz, "fft") and not hasattr(autoviz.ones(1), "stft")


def test_import_autoviz_stays_quick_and_never_imports_torch():
    code = "import sys, autoviz; print('torch' in sys.modules, 'autoviz.compat' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_a_torch_script_runs_unchanged_from_python(tmp_path):
    script = tmp_path / "lesson.py"
    script.write_text(
        textwrap.dedent(
            """
            import torch
            from torch import nn
            x = torch.tensor([1.0, 2.0], requires_grad=True)
            loss = nn.MSELoss()(x * 3, torch.zeros(2))
            loss.backward()
            print(type(x), loss, x.grad)
            """
        )
    )
    code = (
        "import runpy, autoviz\n"
        "with autoviz.as_torch():\n"
        f"    runpy.run_path({str(script)!r}, run_name='__main__')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == (
        "<class 'torch.Tensor'> tensor(22.5000, grad_fn=<MseLossBackward0>) tensor([ 9., 18.])\n"
    )


def test_drawing_and_tracing_work_inside_the_alias(pure_engine):
    """Under as_torch autoviz's tensors say they are torch's; draw() still knows them."""
    with autoviz.as_torch():
        import torch

        x = torch.tensor(2.0, requires_grad=True)
        with autoviz.trace() as tl:
            y = x * 3
            y.backward()
        diagram = autoviz.draw(y)
    assert len(tl) > 0 and "MulBackward0" in diagram.source


def test_a_module_backward_hook_is_drawn_without_its_catcher(pure_engine):
    """The hook's identity nodes are drawn (as torch's graph has them); nothing else is."""
    lin = autoviz.nn.Linear(2, 1)
    lin.register_full_backward_hook(lambda m, gi, go: None)
    x = autoviz.ones(1, 2, requires_grad=True)
    with autoviz.trace() as tl:
        out = lin(x).sum()
        out.backward()
    graph = tl[-1]
    ops = [n.op for n in graph.nodes if n.kind == "op"]
    assert ops.count("BackwardHookFunctionBackward") == 2
    assert all(n.kind != "constant" for n in graph.nodes)
    assert "BackwardHookFunctionBackward" in autoviz.draw(out).source


@pytest.mark.parametrize(
    ("source", "installed", "engine"),
    [
        ("import torch\n", True, "torch"),
        ("import torch\n", False, "autoviz"),
        ("from torch.utils.data import DataLoader\n", True, "torch"),
        ("import torch.nn as nn\n", False, "autoviz"),
        ("import autoviz as torch\n", True, "autoviz"),
        ("import numpy\n", True, "autoviz"),
        ("this is not python\n", True, "autoviz"),
    ],
)
def test_engine_auto_picks_torch_only_for_torch_scripts_where_it_is_installed(
    tmp_path, monkeypatch, source, installed, engine
):
    import importlib.util

    from autoviz import runscript

    script = tmp_path / "s.py"
    script.write_text(source)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: (
            (real("autoviz") if installed else None) if name == "torch" else real(name, *a)
        ),
    )
    assert runscript.choose_engine(script, "auto") == engine
    assert runscript.choose_engine(script, "autoviz") == "autoviz"
    with pytest.raises(runscript.ScriptError, match=r"unknown engine 'gpu' \(must be one of"):
        runscript.choose_engine(script, "gpu")


def test_submodules_load_on_first_attribute_access():
    """`torch.utils.data.DataLoader` and `torch.autograd.functional.jacobian` with no import
    of the submodule first, in a fresh interpreter."""
    code = (
        "import autoviz as torch\n"
        "print(torch.utils.data.DataLoader.__name__, torch.autograd.functional.jacobian.__name__,"
        " torch.optim.lr_scheduler.StepLR.__name__, torch.nn.utils.clip_grad_norm_.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["DataLoader", "jacobian", "StepLR", "clip_grad_norm_"]


# -- issue 26 item 4: threads, re-entry, and modules first imported inside the block ---------------


def _torch_swapped() -> bool:
    from autoviz.engine.tensor import Tensor

    return sys.modules.get("torch") is autoviz or Tensor.__module__ == "torch"


@pytest.mark.parametrize("last_out", ["first", "second"])
def test_overlapping_blocks_in_two_threads_undo_the_alias_when_the_last_ends(last_out):
    import threading

    entered, leave = [threading.Event() for _ in range(2)], [threading.Event() for _ in range(2)]
    failures = []

    def block(i):
        try:
            with autoviz.as_torch():
                entered[i].set()
                leave[i].wait(10)
                import torch

                assert torch is autoviz
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=block, args=(i,)) for i in range(2)]
    threads[0].start()
    entered[0].wait(10)
    threads[1].start()
    entered[1].wait(10)
    order = [0, 1] if last_out == "second" else [1, 0]
    leave[order[0]].set()
    threads[order[0]].join(10)
    assert sys.modules["torch"] is autoviz  # the other block is still inside
    leave[order[1]].set()
    threads[order[1]].join(10)
    assert not failures and not _torch_swapped()
    assert not any(type(f).__name__ == "_TorchFinder" for f in sys.meta_path)


def test_one_as_torch_object_can_be_entered_again_inside_itself():
    alias = autoviz.as_torch()
    with alias:
        with alias:
            import torch

            assert torch is autoviz
        import torch as still

        assert still is autoviz
    assert not _torch_swapped()
    with alias:  # and used again afterwards
        import torch as again

        assert again is autoviz
    assert not _torch_swapped()


def test_a_module_first_imported_inside_the_block_is_not_kept_bound_to_autoviz(tmp_path):
    """A helper that says `import torch` (torchviz, a lesson's utils.py) imported inside the
    block is forgotten at its end: imported again afterwards, it gets what `torch` is then."""
    pytest.importorskip("torch")
    (tmp_path / "helper.py").write_text("import torch\nfrom torch import nn\nLinear = nn.Linear\n")
    (tmp_path / "outer.py").write_text("from helper import Linear\n")
    (tmp_path / "plain.py").write_text("import math\n")
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import autoviz, torch as real
        with autoviz.as_torch():
            import outer, plain, torchviz
            assert outer.Linear is autoviz.nn.Linear
            assert torchviz.dot.torch is autoviz
        kept = sys.modules["plain"]
        import helper, outer, plain, torchviz
        assert plain is kept  # a module that never saw torch stays imported
        assert helper.torch is real and outer.Linear is real.nn.Linear, helper.torch
        assert torchviz.dot.torch is real, torchviz.dot.torch
        print("ok")
        """
    )
    pytest.importorskip("torchviz")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout == "ok\n", out.stderr
