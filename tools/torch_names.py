"""Write autoviz/torch_names.txt: the public names of PyTorch's modules and classes.

autoviz reads it only when a lookup fails, to tell an API that PyTorch has (and autoviz does
not yet) from a typo. Run with the PyTorch the project compares against:
`python tools/torch_names.py`.
"""

import pkgutil
from pathlib import Path

import torch
import torch.autograd.functional
import torch.distributions
import torch.linalg
import torch.nn.functional
import torch.optim.lr_scheduler
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
}
OUT = Path(__file__).resolve().parent.parent / "autoviz" / "torch_names.txt"


def main() -> None:
    lines = [f"# public names of PyTorch {torch.__version__.split('+')[0]}; tools/torch_names.py"]
    for owner, obj in OWNERS.items():
        names = sorted(n for n in dir(obj) if not n.startswith("_"))
        lines.append(f"{owner}: {' '.join(names)}")
    modules = sorted(m.name for m in pkgutil.iter_modules(torch.__path__) if m.name[0] != "_")
    lines.append(f"modules: {' '.join(modules)}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
