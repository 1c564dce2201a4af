"""Stepping cost in the kernel: a Stepper click on a 500-node timeline vs re-laying out a frame.

The timings alternate: each ▶ click is followed by a frame laid out again from scratch (the
peer), so both see the same load; the ratio is the median of their paired ratios. Targets: a
click at most a tenth of a re-layout, and what a click sends at most a tenth of the frame.
"""

import argparse
import gc
import json
import statistics
import time

import harness  # before numpy: one BLAS thread

import autoviz
from autoviz.render import draw_graph


def chain(n_ops: int = 166):
    """499 nodes: tanh and * alternating, each product with a fresh leaf (lays out in ~1 s)."""
    x = autoviz.tensor(0.5, requires_grad=True)
    with autoviz.trace() as tl:
        y = x
        for i in range(n_ops):
            w = autoviz.tensor(1.01, requires_grad=True)
            y = y * w if i % 2 else y.tanh()
        y.backward()
    return tl


def median_ms(fn, args) -> float:
    times = []
    for arg in args:
        start = time.perf_counter()
        fn(arg)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def sent_bytes(stepper, k: int) -> int:
    """Bytes of the frame layers that stepping from k - 1 to k sends."""
    stepper.step = k - 1
    before = [view.value for view in stepper.layers]
    stepper.next_button.click()
    pairs = zip(stepper.layers, before, strict=True)
    return sum(len(view.value.encode()) for view, old in pairs if view.value != old)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="steps timed per workload")
    parser.add_argument("--quick", action="store_true", help="8 steps per workload")
    args = parser.parse_args()
    tl = chain()
    start = time.perf_counter()
    stepper = autoviz.Stepper(tl)
    built = (time.perf_counter() - start) * 1000
    n = 8 if args.quick else args.steps
    forward, backward = range(1, n + 1), range(len(tl) // 2, len(tl) // 2 + n)
    jumps = [round(i * (len(tl) - 1) / 5) for i in (4, 1, 3, 0, 2)]

    def click(_k):
        stepper.next_button.click()

    def jump(k):
        stepper.step = k

    stepper.step = 0
    next_forward = median_ms(click, forward)
    stepper.step = backward[0] - 1
    clicks, relayouts = [], []
    for i, k in enumerate(backward):  # a click, then the peer: a frame laid out again
        gc.collect()
        clicks.append(median_ms(click, [k]))
        gc.collect()
        relayouts.append(median_ms(lambda j: draw_graph(tl[j]).svg(), [jumps[i % 3]]))
    next_backward = statistics.median(clicks)
    jump_ms = median_ms(jump, jumps)
    frames = stepper.frames
    frame_ms = median_ms(lambda k: frames.svg(k), range(backward[0], backward[-1]))
    relayout_ms = statistics.median(relayouts)
    whole = len(json.dumps({"value": stepper.frame_svg}).encode())
    sent = statistics.median(sent_bytes(stepper, k) for k in backward)
    rows = [
        ("Stepper ▶ click, forward (frame, layers, panels)", next_forward),
        ("Stepper ▶ click, backward", next_backward),
        ("Stepper slider jump (frame recomputed whole)", jump_ms),
        ("renderer: next frame from the one layout", frame_ms),
        ("frame laid out again (no single layout)", relayout_ms),
    ]
    print(f"{harness.PINNED}")
    print(
        f"{len(tl.nodes)} nodes, {len(tl)} steps; Stepper built (first layout) in {built:.0f} ms\n"
    )
    print("| per step, kernel side | ms | vs ▶ click in backward |")
    print("|---|---:|---:|")
    for name, ms in rows:
        print(f"| {name} | {ms:.1f} | {ms / next_backward:.2f}x |")
    ratio = harness.ratios(clicks, relayouts)
    print(
        f"\n▶ click / re-layout, paired: {harness.fmt_ratio(ratio)}; sent to the browser per ▶ "
        f"step: {sent / 1024:.0f} KiB of frame layers (whole frame: {whole / 1024:.0f} KiB, "
        f"{len(stepper.layers)} layers)"
    )
    targets = harness.Targets("stepper.py")
    targets.ratio("Stepper ▶ click / frame laid out again, 500 nodes", ratio, 0.1)
    targets.add("Stepper bytes sent per ▶ step / whole frame, 500 nodes", sent / whole, 0.1)
    targets.write()


if __name__ == "__main__":
    main()
