"""Stepping cost in the kernel: a Stepper click on a 500-node timeline vs re-laying out a frame."""

import argparse
import json
import statistics
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20, help="steps timed per workload")
    args = parser.parse_args()
    tl = chain()
    start = time.perf_counter()
    stepper = autoviz.Stepper(tl)
    built = (time.perf_counter() - start) * 1000
    ks = [round(i * (len(tl) - 1) / args.steps) for i in range(1, args.steps + 1)]

    def click(k):  # the whole kernel side of a click: frame and panels
        stepper.step = k - 1
        stepper.next_button.click()

    click_ms = median_ms(click, ks)
    frame_ms = median_ms(lambda k: stepper.frames.svg(k), ks)
    relayout_ms = median_ms(lambda k: draw_graph(tl[k]).svg(), ks[:5])
    message = len(json.dumps({"value": stepper.frame_svg}).encode())
    print(f"{len(tl.nodes)} nodes, {len(tl)} steps; Stepper built (first layout) in {built:.0f} ms")
    print("| per step | ms | vs click |")
    print("|---|---:|---:|")
    print(f"| Stepper click (frame + panels) | {click_ms:.1f} | 1.00x |")
    print(f"| frame restyled from the one layout | {frame_ms:.1f} | {frame_ms / click_ms:.2f}x |")
    print(
        f"| frame laid out again (draw the graph) | {relayout_ms:.1f} | "
        f"{relayout_ms / click_ms:.2f}x |"
    )
    print(f"frame update sent to the browser: {message / 1024:.0f} KiB per step")


if __name__ == "__main__":
    main()
