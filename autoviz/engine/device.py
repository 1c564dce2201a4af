"""`torch.device`: autoviz computes on the CPU only, and says so as a CPU build of PyTorch does."""

DEVICE_TYPES = (
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
)
NO_CUDA = "Torch not compiled with CUDA enabled"


class device:
    """Where a tensor lives: `device(type='cpu')`; other types can be named but not used."""

    __slots__ = ("index", "type")

    def __init__(self, type, index=None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        elif not isinstance(type, str):
            raise TypeError(
                f"device() received an invalid combination of arguments - got "
                f"({_type_name(type)}), but expected one of:\n * (torch.device device)\n"
                " * (str type, int index = -1)"
            )
        else:
            type, index = _parse(type, index)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):
            return NotImplemented
        return (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (rebuild_device, (self.type, self.index))  # pickled by this module's name


def rebuild_device(kind: str, index) -> device:
    """A device from what `__reduce__` saved."""
    return device(kind, index)


def _type_name(value) -> str:
    return type(value).__name__


def _parse(text: str, index):
    kind, colon, number = text.partition(":")
    if kind not in DEVICE_TYPES:
        raise RuntimeError(
            f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: "
            f"{text}"
        )
    if colon:
        if not number.isdigit() or index is not None:
            raise RuntimeError(f"Invalid device string: '{text}'")
        index = int(number)
    return kind, index


CPU = device("cpu")
_default = {"device": CPU}


def check_device(value) -> device:
    """The device a tensor may be made on or moved to: the CPU, or PyTorch's CPU-build error."""
    if value is None:
        return _default["device"]
    where = value if isinstance(value, device) else device(value)
    if where.type == "cpu":
        return CPU
    if where.type == "cuda":
        raise AssertionError(NO_CUDA)
    raise NotImplementedError(
        f"Could not run 'aten::empty.memory_format' with arguments from the "
        f"'{where.type.upper()}' backend: autoviz computes on the CPU only"
    )


def set_default_device(value) -> None:
    """`torch.set_default_device`: only the CPU exists here, so anything else raises now."""
    _default["device"] = check_device(value if value is not None else "cpu")
    # torch keeps a TorchFunctionMode for a default device set, which some fast paths (the
    # transformer encoder's nested tensors) step aside for
    _default["set"] = value is not None


def default_device_set() -> bool:
    """Whether a default device is in force (torch.set_default_device with a device)."""
    return _default.get("set", False)


def get_default_device() -> device:
    return _default["device"]


class memory_format:
    """`torch.memory_format`: how a tensor's elements are laid out in memory. autoviz keeps
    row-major (contiguous) memory; channels-last layouts are outside its scope."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


class layout:
    """`torch.layout`: how a tensor's elements are stored. autoviz's tensors are all dense and
    strided (`x.layout` is torch.strided); sparse layouts are outside its scope."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
legacy_contiguous_format = contiguous_format
