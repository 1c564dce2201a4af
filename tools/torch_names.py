"""Write autoviz/torch_names.txt: the public names of PyTorch's modules and classes, and the
documented ones (its API reference: the functions torch documents in _torch_docs.py and
torch.functional, the Tensor methods of _tensor_docs.py and torch/_tensor.py, and the
__all__ of torch.autograd, torch.autograd.functional, torch.linalg and torch.special).

autoviz reads the public names when a lookup fails, to tell an API that PyTorch has from a
typo; tests/test_torch_inventory.py checks every documented name against autoviz. Run with
the PyTorch the project compares against: `python tools/torch_names.py`.
"""

import inspect
import pkgutil
import re
from pathlib import Path

import torch
import torch.autograd.functional
import torch.distributions
import torch.functional
import torch.linalg
import torch.nn.functional
import torch.optim.lr_scheduler
import torch.special
import torch.utils.data

OWNERS = {
    "torch": torch,
    "torch.Tensor": torch.Tensor,
    "torch.nn": torch.nn,
    "torch.nn.Module": torch.nn.Module,
    "torch.nn.functional": torch.nn.functional,
    "torch.nn.init": torch.nn.init,
    "torch.nn.utils": torch.nn.utils,
    "torch.optim": torch.optim,
    "torch.optim.Optimizer": torch.optim.Optimizer,
    "torch.optim.lr_scheduler": torch.optim.lr_scheduler,
    "torch.utils.data": torch.utils.data,
    "torch.autograd": torch.autograd,
    "torch.autograd.functional": torch.autograd.functional,
    "torch.cuda": torch.cuda,
    "torch.distributions": torch.distributions,
    "torch.linalg": torch.linalg,
    "torch.special": torch.special,
}
OUT = Path(__file__).resolve().parent.parent / "autoviz" / "torch_names.txt"


def _docs(module_file: str, pattern: str) -> set:
    """The names a torch docs file gives a docstring to (add_docstr(torch.abs, ...))."""
    text = (Path(torch.__file__).parent / module_file).read_text(encoding="utf-8")
    return set(re.findall(pattern, text, re.MULTILINE))


def documented() -> dict:
    """{owner: documented names} from torch's own docstring sources."""
    functions = _docs("_torch_docs.py", r"^add_docstr\(\s*torch\.(\w+),")
    functions |= set(torch.functional.__all__)
    listed_in = (  # the Python modules whose top-level functions torch's reference lists
        "torch.random",
        "torch.serialization",
        "torch.autograd.grad_mode",
        "torch.functional",
        "torch._tensor_str",
    )
    for n in torch.__all__:
        value = getattr(torch, n, None)
        public = not n.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
        if public and getattr(value, "__module__", "").startswith(listed_in):
            functions.add(n)
    methods = _docs("_tensor_docs.py", r'^add_docstr_all\(\s*"(\w+)",')
    methods |= {
        n
        for n, v in vars(torch._tensor.Tensor).items()
        if not n.startswith("_") and callable(v) and getattr(v, "__doc__", None)
    }
    autograd = set(torch.autograd.__all__) | {"Function", "once_differentiable"}
    autograd |= {f"functional.{n}" for n in torch.autograd.functional.__all__}
    return {
        "documented torch": functions,
        "documented torch.Tensor": methods,
        "documented torch.autograd": autograd,
        "documented torch.linalg": {
            n
            for n in dir(torch.linalg)
            if not n.startswith("_") and callable(getattr(torch.linalg, n)) and n != "LinAlgError"
        },
        "documented torch.special": set(torch.special.__all__),
    }


def main() -> None:
    lines = [f"# public names of PyTorch {torch.__version__.split('+')[0]}; tools/torch_names.py"]
    for owner, obj in OWNERS.items():
        names = sorted(n for n in dir(obj) if not n.startswith("_"))
        lines.append(f"{owner}: {' '.join(names)}")
    for owner, names in documented().items():
        lines.append(f"{owner}: {' '.join(sorted(names))}")
    modules = sorted(m.name for m in pkgutil.iter_modules(torch.__path__) if m.name[0] != "_")
    lines.append(f"modules: {' '.join(modules)}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
