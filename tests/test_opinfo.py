"""autoviz against PyTorch's own test data (tests/opinfo.py): every OpInfo whose op autoviz
has, its samples in float32 and float64, its gradients, variants and error inputs."""

import functools

import opinfo
import pytest

OP_DB = opinfo.load_op_db()
OPS = {opinfo.full_name(info): info for info in opinfo.implemented(OP_DB)}


@functools.cache
def _report(name):
    return opinfo.check_op(OPS[name])


def _problems(report) -> str:
    lines = [f"{report.op}:{c} {s}: {m}" for c, s, m in opinfo.unexplained(report)]
    return "\n".join(lines[:12]) + (f"\n... {len(lines) - 12} more" if len(lines) > 12 else "")


@pytest.mark.skipif(not OP_DB, reason="needs torch and expecttest (torch's test helpers)")
@pytest.mark.parametrize("name", sorted(OPS))
def test_op_matches_torch_on_its_opinfo_samples(name):
    report = _report(name)  # (a CUDA-only variant has no CPU samples)
    assert not opinfo.unexplained(report), _problems(report)


@pytest.mark.skipif(not OP_DB, reason="needs torch and expecttest (torch's test helpers)")
def test_known_deviations_are_real_and_few():
    """Each KNOWN entry names an op autoviz has, and still differs there (or is removed),
    but for the CPU-dependent float32 ones, which need only name an op autoviz has."""
    assert len(opinfo.DEVIATIONS) <= 15
    for key in opinfo.KNOWN:
        op, _, check = key.partition(":")
        op, _, dtype = op.partition("@")
        assert op in OPS, f"KNOWN names {op}, which autoviz does not have"
        if key in opinfo.PLATFORM_DEPENDENT:
            continue
        report = _report(op)
        checks = {c for c, _, _ in report.problems}
        dtypes = {s.split()[0] for _, s, _ in report.problems}
        assert report.problems if not (check or dtype) else check in checks or dtype in dtypes, (
            f"{key} no longer deviates: remove it from KNOWN"
        )


@pytest.mark.skipif(not OP_DB, reason="needs torch and expecttest (torch's test helpers)")
def test_the_oracle_covers_the_ops_lessons_use():
    """The comparison really runs over autoviz's ops (a broken lookup would check nothing)."""
    for name in ("add", "mul", "matmul", "sum", "mean", "exp", "log", "tanh", "sigmoid", "cat"):
        assert name in OPS
    assert len(OPS) >= 100


@pytest.mark.skipif(not OP_DB, reason="needs torch and expecttest (torch's test helpers)")
def test_the_readme_and_docs_state_the_oracles_counts():
    """The counts the README and docs/pytorch.md give are this run's (ops, samples, error
    inputs, deviations), so they cannot drift as ops are added."""
    from pathlib import Path

    reports = [_report(name) for name in OPS]
    samples = sum(r.samples for r in reports)
    errors = sum(r.errors for r in reports)
    root = Path(__file__).resolve().parent.parent
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    docs = " ".join((root / "docs" / "pytorch.md").read_text(encoding="utf-8").split())
    assert f"{len(OPS)} ops are checked on {samples:,} samples" in readme
    assert f"and {errors} of torch's error inputs" in readme
    assert f"with {len(opinfo.DEVIATIONS)} known deviations" in readme
    assert f"{len(OPS)} of its {len(OP_DB)}" in docs and f"{samples:,} samples" in docs
    assert f"and {errors} of torch's `error_inputs`" in docs
    assert f"{len(opinfo.DEVIATIONS)} known deviations remain" in docs
