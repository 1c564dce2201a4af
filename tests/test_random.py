"""torch's CPU random numbers, bit for bit: every sampling function against real torch, over
seeds, shapes (around each size where torch switches algorithm) and dtypes.

Each case is a function of the library (`torch` or `autoviz`), run after the same seed in
both; the values must be equal bit for bit and the generators must end in the same state
(the same words drawn, the same Box-Muller value kept for the next normal).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.engine.fidelity import topk

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

from random_cases import same, state  # noqa: E402 (needs torch, imported just above)

# Sizes around every switch: the vectorised normal fill from 16 elements (ragged ends redraw
# their last 16), 64-bit draws for integer ranges from 2**32.
NORMAL_SIZES = [1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 48, 100, 257, 1000]
FLOATS = ["float32", "float64", "float16"]


def dt(lib, name):
    return getattr(lib, name)


@pytest.mark.parametrize("n", NORMAL_SIZES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_randn_every_size_and_dtype(n, dtype):
    same(lambda T: T.randn(n, dtype=dt(T, dtype)))


@pytest.mark.parametrize("n", NORMAL_SIZES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_normal_with_mean_and_std(n, dtype):
    same(lambda T: T.zeros(n, dtype=dt(T, dtype)).normal_(1.5, 0.37), seed=n)


@pytest.mark.parametrize("dtype", FLOATS)
def test_rand_and_uniform_ranges(dtype):
    same(lambda T: [T.rand(5, 7, dtype=dt(T, dtype)) for _ in range(3)])
    for a, b in [(-0.3, 0.3), (2.5, 3.7), (-5, 11.3), (1, 1), (-1e-3, 2e-3)]:
        same(lambda T, a=a, b=b: T.zeros(40, dtype=dt(T, dtype)).uniform_(a, b), seed=7)


EDGE_CASES = {
    # Box-Muller pairs: the second value waits in the generator, even across calls and dtypes
    "normal cache across calls": lambda T: [T.randn(3), T.randn(3), T.randn(1, dtype=T.float64)],
    "cache kept over a vectorised fill": lambda T: [T.randn(1), T.randn(40), T.randn(1)],
    "size keyword": lambda T: [T.randn(size=(2, 3)), T.rand(size=[4]), T.randn(T.Size([2]))],
    "scalar randn": lambda T: [T.randn(()), T.randn(()), T.rand(())],
    "empty": lambda T: [T.randn(0), T.rand(0, 3), T.randint(0, 5, (0,)), T.randperm(0)],
    "non-contiguous normal_ goes element by element": lambda T: T.zeros(4, 8).t().normal_(),
    "non-contiguous uniform_ fills memory order": lambda T: T.zeros(3, 5).t().uniform_(),
    "column slice": lambda T: _column(T),
    "randn 2-d of 1000": lambda T: T.randn(20, 50),
    "randint": lambda T: [T.randint(0, 10, (30,)), T.randint(-5, 5, (30,)), T.randint(3, 4, (5,))],
    "randint high only": lambda T: [T.randint(7, (9,)), T.randint(high=7, size=(2, 3))],
    "randint around 2**28 and 2**32": lambda T: [
        T.randint(0, 2**28 - 1, (20,)),
        T.randint(0, 2**28, (20,)),
        T.randint(-5, 2**28 - 5, (20,), dtype=T.int32),
        T.randint(0, 2**32 - 1, (20,)),
        T.randint(0, 2**32, (20,)),
        T.randint(0, 2**32 + 1, (20,)),
        T.randint(-(2**40), 2**40, (20,)),
    ],
    "randint dtypes": lambda T: (
        [
            T.randint(0, 7, (15,), dtype=getattr(T, d))
            for d in ("float32", "float64", "int32", "uint8", "bool", "float16", "int64")
            if d != "bool"
        ]
        + [T.randint(0, 2, (9,), dtype=T.bool)]
    ),
    "randint_like": lambda T: [T.randint_like(T.zeros(3, 4), 9), T.randint_like(T.ones(5), 2, 4)],
    "rand_like randn_like": lambda T: [
        T.rand_like(T.zeros(4, dtype=T.float64)),
        T.randn_like(T.zeros(20)),
        T.randn_like(T.zeros(2, 3)),
    ],
    "random_ over each dtype": lambda T: [
        T.zeros(17, dtype=getattr(T, d)).random_()
        for d in ("int64", "int32", "uint8", "float32", "float64", "float16", "bool")
    ],
    "random_(to) and random_(from, to)": lambda T: [
        T.zeros(9, dtype=T.int64).random_(5),
        T.zeros(9, dtype=T.int64).random_(-3, 3),
        T.zeros(9).random_(2, 9),
        T.zeros(9, dtype=T.uint8).random_(3, None),
        T.zeros(9, dtype=T.int64).random_(-(2**63), None),
    ],
    "randperm sizes": lambda T: [T.randperm(n) for n in (1, 2, 3, 10, 100, 5000)],
    "randperm dtypes": lambda T: [
        T.randperm(50, dtype=getattr(T, d)) for d in ("int32", "float32", "float64", "uint8")
    ],
    "bernoulli p": lambda T: [
        T.zeros(30).bernoulli_(0.3),
        T.zeros(30, dtype=T.int64).bernoulli_(0.7),
        T.bernoulli(T.zeros(4, 5), 0.5),
        T.zeros(10, dtype=T.bool).bernoulli_(0.5),
    ],
    "bernoulli tensor": lambda T: [
        T.bernoulli(T.rand(30)),
        T.bernoulli(T.rand(30, dtype=T.float64)),
        T.bernoulli(T.rand(5, 6, dtype=T.float16)),
        T.zeros(3, 4).bernoulli_(T.rand(4)),
        T.zeros(3, 4, dtype=T.float64).bernoulli_(T.rand(3, 4)),
    ],
    "exponential_": lambda T: [
        T.zeros(20).exponential_(),
        T.zeros(20, dtype=T.float64).exponential_(3.0),
        T.zeros(5, dtype=T.float16).exponential_(0.5),
    ],
    "multinomial without replacement": lambda T: [
        T.multinomial(T.rand(10), 4),
        T.multinomial(T.rand(3, 8), 8),
        T.multinomial(T.rand(6, dtype=T.float64), 2),
        T.multinomial(T.tensor([1.0, 0.0, 0.0, 2.0]), 2),
        # equal keys: which zero-probability categories come last is torch's topk's choice
        T.multinomial(T.tensor([[1.0] + [0.0] * 9, [0.0] * 6 + [3.0] * 4]), 8),
        T.multinomial(T.tensor([0.0] * 300 + [1.0, 2.0]), 4),  # topk's partial_sort path
    ],
    "multinomial with replacement": lambda T: [
        T.multinomial(T.rand(10), 25, True),
        T.multinomial(T.rand(3, 8), 5, replacement=True),
        T.multinomial(T.tensor([0.0, 1.0, 0.0, 3.0]), 10, True),
        T.multinomial(T.rand(5, dtype=T.float64), 7, True),
        T.multinomial(T.rand(4), 1, True),  # one draw: the exponential trick again
    ],
    "normal with tensors": lambda T: [
        T.normal(T.arange(20.0), T.linspace(0.1, 2, 20)),
        T.normal(T.arange(5.0), 0.5),
        T.normal(1.5, T.ones(3, 4)),
        T.normal(2.0, 3.0, (4, 5)),
        T.normal(T.zeros(2, 1), T.ones(3)),
        T.normal(T.rand(5), 0.7),  # under 16: the number std goes into the kernel's double
        T.normal(0.3, T.rand(5)),
        T.normal(T.rand(5), T.rand(5)),
    ],
    "generator objects": lambda T: _generators(T),
    "nn.Linear default init": lambda T: _linears(T),
    "nn.init": lambda T: _inits(T),
    "dropout": lambda T: [
        T.nn.functional.dropout(T.ones(40), 0.4),
        T.nn.functional.dropout(T.ones(3, 7), 0.1),
        T.nn.functional.dropout(T.ones(5), 0.0),
        T.nn.functional.dropout(T.ones(5), 1.0),
        T.nn.functional.dropout(T.ones(5), 0.5, training=False),
    ],
}


def _column(T):
    x = T.zeros(6, 5)
    x[:, 1].uniform_()
    x[:, 2].normal_()
    return x


def _generators(T):
    g = T.Generator().manual_seed(123)
    h = T.Generator()  # torch seeds a new generator with 67280421310721
    return [
        T.rand(4, generator=g),
        T.randn(30, generator=g),
        T.randn(3, generator=h),
        T.randint(0, 9, (5,), generator=g),
        T.randperm(8, generator=h),
        T.zeros(6).normal_(generator=g),
        T.zeros(6).uniform_(-1, 1, generator=h),
        T.multinomial(T.ones(5), 3, generator=g),
        T.bernoulli(T.full((6,), 0.5), generator=h),
        g.initial_seed(),
        h.initial_seed(),
        T.rand(2),  # the default generator was not touched
    ]


def _linears(T):
    nets = [
        T.nn.Linear(3, 2),
        T.nn.Linear(50, 17),
        T.nn.Linear(1, 1),
        T.nn.Linear(4, 3, bias=False),
        T.nn.Linear(200, 10),
        T.nn.Linear(6, 5, dtype=T.float64),
    ]
    return [p.detach() for net in nets for p in net.parameters()]


def _inits(T):
    init = T.nn.init
    w = T.zeros(30, 20)
    g = T.Generator().manual_seed(5)
    return [
        init.kaiming_uniform_(w).clone(),
        init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu").clone(),
        init.xavier_uniform_(w, gain=init.calculate_gain("tanh")).clone(),
        init.xavier_normal_(w).clone(),
        init.uniform_(w, -0.1, 0.2).clone(),
        init.normal_(w, 0.5, 2.0, generator=g).clone(),
        init.trunc_normal_(w, std=0.02).clone(),
        init.trunc_normal_(w, mean=0.0, std=1.0, a=2.0, b=3.0).clone(),
        init.kaiming_uniform_(T.zeros(8, 3, 3, 3), a=0.2).clone(),
        init.sparse_(T.zeros(10, 4), 0.3).clone(),
    ]


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases(name):
    same(EDGE_CASES[name], seed=sorted(EDGE_CASES).index(name))


# -- seeds and generator state ---------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1, 2**32, 2**32 + 5, 2**63, 2**64 - 1, -1, -5])
def test_seeds_reach_the_twister_as_in_torch(seed):
    same(lambda T: [T.rand(3), T.randn(17), T.initial_seed()], seed=seed)


def test_fresh_generator_and_state_round_trip():
    assert autoviz.Generator().initial_seed() == torch.Generator().initial_seed() == 67280421310721
    assert bytes(autoviz.Generator().get_state().numpy()) == bytes(torch.Generator().get_state())
    torch.manual_seed(9)
    torch.randn(5)  # leaves a Box-Muller value in the state
    autoviz.set_rng_state(autoviz.tensor(torch.get_rng_state().numpy()))
    assert autoviz.randn(3).tolist() == torch.randn(3).tolist()
    saved = autoviz.get_rng_state()
    first = autoviz.rand(4).tolist()
    autoviz.set_rng_state(saved)
    assert autoviz.rand(4).tolist() == first


def test_seed_is_random_and_returned():
    s = autoviz.seed()
    assert autoviz.initial_seed() == s and 0 <= s < 2**64
    autoviz.manual_seed(s)
    assert autoviz.initial_seed() == s


# -- errors with torch's words ------------------------------------------------------------------
ERRORS = [
    "T.rand(3, dtype=T.int64)",
    "T.randn(3, dtype=T.int64)",
    "T.randint(5, 3, (2,))",
    "T.randint(3, 3, (2,))",
    "T.randint(0, 300, (2,), dtype=T.uint8)",
    "T.randint(-1, 3, (2,), dtype=T.uint8)",
    "T.randint(0, 3, (2,), dtype=T.bool)",
    "T.randperm(-1)",
    "T.randperm(3, dtype=T.bool)",
    "T.randperm(300, dtype=T.uint8)",
    "T.randperm(3.0)",
    "T.randn(-1)",
    "T.zeros(3).uniform_(2, 1)",
    "T.zeros(3, dtype=T.int64).uniform_()",
    "T.zeros(3).normal_(0, -1)",
    "T.zeros(3, dtype=T.int32).normal_()",
    "T.normal(T.zeros(3), -1.0)",
    "T.normal(T.zeros(3), T.tensor([1.0, -1, 1]))",
    "T.normal(0.0, -1.0, (3,))",
    "T.normal(T.zeros(3), T.ones(4))",
    "T.zeros(3).bernoulli_(1.5)",
    "T.zeros(3).bernoulli_(-0.1)",
    "T.bernoulli(T.tensor([0.5, 1.5]))",
    "T.bernoulli(T.tensor([1, 0]))",
    "T.multinomial(T.tensor([0.5, 0.5]), 3)",
    "T.multinomial(T.tensor([0.5, -0.5]), 1)",
    "T.multinomial(T.tensor([0.5, -0.5]), 2, True)",
    "T.multinomial(T.tensor([0.0, 0.0]), 1)",
    "T.multinomial(T.tensor([0.0, 0.0]), 2, True)",
    "T.multinomial(T.tensor([1.0, float('inf')]), 1)",
    "T.multinomial(T.tensor([1.0, float('inf')]), 2, True)",
    "T.multinomial(T.tensor([1.0, float('nan')]), 2, True)",
    "T.multinomial(T.tensor([1.0, 2.0]), 0)",
    "T.multinomial(T.tensor(1.0), 1)",
    "T.multinomial(T.tensor([1, 2]), 1)",
    "T.multinomial(T.tensor([[0.0, 0.0], [1.0, 1.0]]), 1)",
    "T.zeros(3).exponential_(-1)",
    "T.zeros(3, dtype=T.int64).exponential_()",
    "T.zeros(3, dtype=T.int64).random_(5, 2)",
    "T.zeros(3, dtype=T.uint8).random_(0, 257)",
    "T.zeros(3, dtype=T.float16).random_(0, 70000)",
    "T.manual_seed(2**64)",
    "T.Generator().manual_seed(True)",
    "T.set_rng_state(T.zeros(10, dtype=T.uint8))",
    "T.set_rng_state(T.zeros(5056))",
    "T.set_rng_state(T.zeros(5056, dtype=T.uint8))",
    "T.nn.functional.dropout(T.ones(3), 1.5)",
    "T.nn.Dropout(-0.1)",
    "T.rand_like(T.tensor([1, 2]))",
    "T.randint_like(T.tensor([1.0, 2]), 3, 1)",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_say_what_torch_says(code):
    with pytest.raises(Exception) as expected:  # torch's own exception decides
        eval(code, {"T": torch})
    with pytest.raises(type(expected.value)) as got:
        eval(code, {"T": autoviz})
    assert str(got.value) == str(expected.value)


def test_float_randint_past_precision_warns_as_torch():
    with pytest.warns(UserWarning, match=r"to - 1 is out of bounds \[-\(2\^24\), 2\^24\]"):
        autoviz.randint(0, 2**25, (2,), dtype=autoviz.float32)


def test_in_place_fill_of_a_leaf_that_requires_grad_is_refused():
    w = autoviz.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w.normal_()
    with autoviz.no_grad():
        w.uniform_()
    assert w.requires_grad and (w._data > 0).any()


# -- Hypothesis: many seeds, shapes and dtypes ---------------------------------------------------
seeds = st.one_of(st.integers(0, 2**32 - 1), st.integers(-(2**63), 2**64 - 1))
sizes = st.one_of(st.integers(0, 40), st.sampled_from(NORMAL_SIZES))
shapes = st.one_of(
    sizes.map(lambda n: (n,)),
    st.tuples(st.integers(1, 9), st.integers(1, 9)),
    st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 5)),
)
floats = st.sampled_from(FLOATS)
INTS = ["int64", "int32", "uint8", "float32", "float64"]


@settings(max_examples=60, deadline=None)
@given(seeds, shapes, floats, st.sampled_from(["rand", "randn"]))
def test_rand_randn_match_torch(seed, shape, dtype, fn):
    same(lambda T: getattr(T, fn)(*shape, dtype=dt(T, dtype)), seed=seed)


@settings(max_examples=40, deadline=None)
@given(seeds, shapes, floats, st.floats(-5, 5), st.floats(0, 3))
def test_normal_and_uniform_with_parameters_match_torch(seed, shape, dtype, a, b):
    same(
        lambda T: [
            T.zeros(shape, dtype=dt(T, dtype)).normal_(a, b),
            T.zeros(shape, dtype=dt(T, dtype)).uniform_(a, a + b),
        ],
        seed=seed,
    )


@settings(max_examples=40, deadline=None)
@given(seeds, shapes, st.sampled_from(INTS), st.integers(-100, 100), st.integers(1, 2**34))
def test_randint_matches_torch(seed, shape, dtype, low, span):
    info = np.iinfo(dtype) if "int" in dtype else None
    if info is not None:
        low = int(np.clip(low, info.min, info.max - 1))
        span = int(min(span, info.max - low + 1))
    if "float" in dtype:
        span = min(span, 2**24)
    same(lambda T: T.randint(low, low + span, shape, dtype=dt(T, dtype)), seed=seed)


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(0, 3000))
def test_randperm_matches_torch(seed, n):
    same(lambda T: T.randperm(n), seed=seed)


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(1, 4), st.integers(1, 30), st.data())
def test_multinomial_matches_torch(seed, rows, cols, data):
    count = data.draw(st.integers(1, 2 * cols))
    replacement = data.draw(st.booleans()) or count > cols

    def case(T):
        weights = T.rand(rows, cols, generator=T.Generator().manual_seed(seed % 1000)) + 0.01
        return T.multinomial(weights, count, replacement)

    same(case, seed=seed)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 60), st.integers(1, 400), st.integers(0, 4), st.data())
def test_topk_tie_order_is_torchs(k, n, distinct, data):
    """Where keys tie, multinomial's order is libstdc++'s nth_element/sort/partial_sort's."""
    values = data.draw(st.lists(st.integers(0, distinct), min_size=n, max_size=n))
    k = min(k, n)
    expected = torch.topk(torch.tensor(values, dtype=torch.float32), k).indices.tolist()
    assert topk.topk_row([float(v) for v in values], k) == expected


@settings(max_examples=30, deadline=None)
@given(seeds, shapes, st.floats(0, 1), floats)
def test_bernoulli_and_dropout_match_torch(seed, shape, p, dtype):
    same(
        lambda T: [
            T.zeros(shape, dtype=dt(T, dtype)).bernoulli_(p),
            T.nn.functional.dropout(T.ones(shape, dtype=dt(T, dtype)), p),
        ],
        seed=seed,
    )


def test_uniform_never_returns_its_upper_bound():
    """torch turns a value that rounds up to `to` into `from`: a wide float32 range, and
    float16 where float32's value rounds up."""
    same(lambda T: T.zeros(5000).uniform_(1e6, 1e6 + 1), seed=0)
    same(lambda T: T.zeros(5000, dtype=T.float16).uniform_(2, 3), seed=0)
    same(lambda T: T.rand(15, dtype=T.float16), seed=-424188)  # 0.99995 rounds to 1: gives 0
    same(lambda T: T.zeros(5000, dtype=T.float64).uniform_(1e15, 1e15 + 1), seed=0)


def test_named_random_leaves_and_deterministic_inits():
    x = autoviz.randn(2, 3, requires_grad=True, name="x")
    assert x.name == "x" and x.requires_grad and x.is_leaf
    assert autoviz.rand(2, name="u").name == "u"
    for make in (
        lambda T: T.nn.init.eye_(T.zeros(3, 5)),
        lambda T: T.nn.init.dirac_(T.zeros(4, 2, 3, 3), groups=2),
        lambda T: T.nn.init.constant_(T.zeros(2, 2), 0.25),
        lambda T: T.nn.init.ones_(T.zeros(3)),
        lambda T: T.nn.init.zeros_(T.ones(3)),
    ):
        assert make(autoviz).tolist() == make(torch).tolist()


def test_orthogonal_init_draws_as_torch_and_is_orthogonal():
    torch.manual_seed(3)
    expected = torch.nn.init.orthogonal_(torch.zeros(4, 6), gain=2.0).numpy()
    autoviz.manual_seed(3)
    got = autoviz.nn.init.orthogonal_(autoviz.zeros(4, 6), gain=2.0).numpy()
    np.testing.assert_allclose(got, expected, atol=1e-5)  # numpy's QR: equal to rounding
    np.testing.assert_allclose(got @ got.T, 4 * np.eye(4), atol=1e-5)
    assert state(autoviz) == state(torch)


def test_devices_as_a_cpu_build_of_torch_takes_them():
    assert autoviz.randn(2, device="cpu").shape == (2,)
    assert autoviz.rand(2, device="cpu:0").shape == (2,)
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        autoviz.rand(2, device="cuda")


def test_torch_random_module_names():
    """torch.random's functions, reached as autoviz.random, and fork_rng restoring the state."""
    for lib in (torch, autoviz):
        lib.random.manual_seed(7)
        with lib.random.fork_rng():
            inside = lib.rand(3).tolist()
        assert lib.rand(3).tolist() == inside
        assert lib.random.initial_seed() == 7
    assert autoviz.random.get_rng_state().numpy().tobytes() == bytes(torch.random.get_rng_state())
