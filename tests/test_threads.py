"""trace() and trace_torch() record the thread that entered them, and say what they skipped."""

import threading
import time

import pytest

import autoviz


def busy(lib, stop: threading.Event, started: threading.Event, module=None):
    """A background thread running tensor ops (and a module's forward) until told to stop."""
    x = lib.ones(3, requires_grad=True)
    started.set()
    while not stop.is_set():
        y = (x * 2.0).sum()
        if module is not None:
            module(lib.ones(1, 2))
        y.backward()


def traced_beside_a_busy_thread(lib, tracer, module=None):
    stop, started = threading.Event(), threading.Event()
    thread = threading.Thread(target=busy, args=(lib, stop, started, module), name="busy")
    thread.start()
    started.wait()
    try:
        warned = pytest.warns(UserWarning, match=r"records the thread that entered it only")
        with warned, tracer() as tl:
            w = lib.tensor(3.0, requires_grad=True)
            for _ in range(200):
                z = w * 2.0
            time.sleep(0.05)  # the other thread runs meanwhile
            z.backward()
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join()
    return tl


def test_trace_records_the_tracing_thread_only():
    tl = traced_beside_a_busy_thread(autoviz, autoviz.trace)
    assert all(s.source is None or "busy" not in s.source.text for s in tl.steps)
    assert len(tl) == 1 + 200 + 1 + 1 + 1 + 1  # leaf, 200 ops, seed, backward, grad, free
    assert set(tl.skipped) == {"busy"} and tl.skipped["busy"] > 0
    assert "events of other threads not recorded" in repr(tl)


def test_trace_torch_ignores_other_threads_modules_and_backward():
    torch = pytest.importorskip("torch")
    lin = torch.nn.Linear(2, 1)
    tl = traced_beside_a_busy_thread(torch, autoviz.trace_torch, module=lin)
    ops = [n for n in tl.nodes if n.kind == "op"]
    assert len(ops) == 200 and all(n.module == [] for n in ops)  # no module of the other thread
    assert [s.kind for s in tl.steps].count("accumulate") == 1
    assert tl.skipped["busy"] > 0
