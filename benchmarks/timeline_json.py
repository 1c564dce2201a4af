"""Timeline.to_json and Timeline.from_json of long timelines: seconds, and seconds per op.

The timeline is a chain `y = y * c` of N ops with its backward (2N steps, 3N nodes, 3N edges:
about 2 KB of JSON per op). Each size is written and read in alternating rounds, beside
json.dumps and json.loads of the same document as plain dicts (the floor: json's C encoder
and decoder alone), so the ratio says what checking every field and building the records
costs; `first` is a freshly traced timeline's first to_json, which also builds its steps and
writes their captions (one run). Seconds per op that stay level from one size to the next
say both are linear (issue 26 item 14: 89 s and 55 s for 100,000 ops before). Target: within
5 s each at 100,000 ops.
"""

import argparse
import json

import harness

import autoviz

SECONDS = 5.0


def chain(ops: int):
    x = autoviz.tensor(1.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x
        for _ in range(ops):
            y = y * 1.0000001
        y.backward()
    return tl  # its steps are built, and their captions written, by the first view of them


def measure(ops: int, rounds: int, targets) -> None:
    """One size: its row of the table, and its targets at 100,000 ops or more."""
    tl = chain(ops)
    first = harness.clock(tl.to_json)  # a fresh trace's: it builds the steps and captions
    text = tl.to_json()
    plain = json.loads(text)
    runs = harness.alternate(
        {
            "to_json": tl.to_json,
            "from_json": lambda: autoviz.Timeline.from_json(text),
            "dumps": lambda: json.dumps(plain, sort_keys=True, separators=(",", ":")),
            "loads": lambda: [json.loads(text)],  # a list: alternate() reads a dict as phases
        },
        rounds,
    )
    seconds = {name: harness.column(r) for name, r in runs.items()}
    out, out_low, out_high = harness.spread(seconds["to_json"])
    back, back_low, back_high = harness.spread(seconds["from_json"])
    print(
        f"{ops:>8,} {len(text) / 1e6:>5.0f} {harness.fmt_time(out):>9} {out / ops * 1e6:>6.1f} "
        f"{harness.fmt_ratio(harness.ratios(seconds['to_json'], seconds['dumps'])):>22} "
        f"{harness.fmt_time(back):>9} {back / ops * 1e6:>6.1f} "
        f"{harness.fmt_ratio(harness.ratios(seconds['from_json'], seconds['loads'])):>22} "
        f"{harness.fmt_time(first):>9}"
    )
    if ops >= 100_000:
        targets.add(f"to_json of {ops:,} ops", out, SECONDS, "s", out_low, out_high)
        targets.add(f"from_json of {ops:,} ops", back, SECONDS, "s", back_low, back_high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="10,000 and 100,000 ops, 2 rounds")
    args = parser.parse_args()
    sizes, rounds = ([10_000, 100_000], 2) if args.quick else (args.ops, args.rounds)
    targets = harness.Targets("timeline_json")
    print(f"Timeline JSON of a chain of N ops with its backward ({harness.PINNED})")
    print(
        f"{'ops':>8} {'MB':>5} {'to_json':>9} {'µs/op':>6} {'÷ json.dumps':>22} "
        f"{'from_json':>9} {'µs/op':>6} {'÷ json.loads':>22} {'first':>9}"
    )
    for ops in sizes:
        measure(ops, rounds, targets)
    targets.write()


if __name__ == "__main__":
    main()
