"""Every file autoviz writes is written whole or not at all: on a full disk the old file stays as
it was and no temporary file is left; a file written again keeps its permissions."""

import errno
import os
import stat

import pytest

import autoviz
from autoviz import cli, files
from conftest import lesson_example, lesson_timeline


@pytest.fixture
def full_disk(monkeypatch):
    """The disk fills up half-way through the first file written."""

    def write(fd, data):
        if len(data) > 1:
            return os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "_write", write)


def small_timeline():
    """Six steps: x, x * 3, and its backward (a GIF of them is quick to make)."""
    x = autoviz.tensor(2.0, requires_grad=True)
    with autoviz.trace() as tl:
        (x * 3.0).backward()
    return tl


def old_files(folder, names) -> dict:
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_text(f"old {name}")
    return {name: f"old {name}" for name in names}


def contents(folder) -> dict:
    return {p.name: p.read_text(errors="replace") for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("suffix", [".svg", ".png", ".dot", ".json"])
def test_a_diagram_saved_on_a_full_disk_leaves_the_old_file(
    tmp_path, pure_engine, full_disk, suffix
):
    before = old_files(tmp_path, [f"graph{suffix}"])
    with pytest.raises(OSError, match="No space left on device"):
        autoviz.draw(lesson_example()["z"]).save(tmp_path / f"graph{suffix}")
    assert contents(tmp_path) == before  # old file intact, no temporary file left


@pytest.mark.parametrize(
    ("save", "names"),
    [
        (lambda tl, d: tl.save_html(d / "lesson.html"), ["lesson.html"]),
        (lambda tl, d: tl.save_animation(d / "a.svg"), ["a.svg"]),
        (lambda tl, d: tl.save_animation(d / "a.gif"), ["a.gif"]),
        (lambda tl, d: tl.save_frames(d), ["step-000.svg", "step-005.svg", "step-006.svg"]),
        (lambda tl, d: tl.save_frames(d, "png"), ["step-000.png", "step-005.png"]),
        (lambda tl, d: autoviz.compare(tl, tl).save_html(d / "pair.html"), ["pair.html"]),
    ],
)
def test_exports_on_a_full_disk_leave_the_old_files(tmp_path, pure_engine, full_disk, save, names):
    pytest.importorskip("PIL", reason="pip install pillow")
    before = old_files(tmp_path, names)
    with pytest.raises(OSError, match="No space left on device"):
        save(small_timeline(), tmp_path)
    assert contents(tmp_path) == before


def test_the_cli_on_a_full_disk_fails_and_leaves_the_old_file(tmp_path, pure_engine, full_disk):
    script = tmp_path / "lesson.py"
    script.write_text(
        "import autoviz as torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\n"
    )
    out = tmp_path / "out"
    before = old_files(out, ["lesson.html"])
    assert cli.main(["html", str(script), "-o", str(out / "lesson.html")]) == 1
    assert contents(out) == before


def test_lessons_on_a_full_disk_copy_none(tmp_path, full_disk, capsys):
    assert cli.main(["lessons", str(tmp_path / "mine")]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert list((tmp_path / "mine").iterdir()) == []


def test_frames_are_replaced_whole_and_stale_ones_removed(tmp_path, pure_engine):
    tl = lesson_timeline()
    old_files(tmp_path, ["step-000.svg", "step-099.svg", "notes.txt"])
    paths = tl.save_frames(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [p.name for p in paths] + ["notes.txt"]
    )
    assert paths[0].read_text("utf-8").startswith("<?xml")


def test_a_file_written_again_keeps_its_permissions_and_a_link_stays_a_link(tmp_path):
    target = tmp_path / "shared.html"
    target.write_text("old")
    target.chmod(0o644)
    link = tmp_path / "link.html"
    link.symlink_to(target)
    files.write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    fresh = files.write_bytes(tmp_path / "fresh.bin", b"\x00\x01")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # as open() would make it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.bin", "link.html", "shared.html"]


def test_a_file_in_a_missing_folder_is_named_in_the_error(tmp_path):
    with pytest.raises(
        FileNotFoundError, match=r"cannot write '.*lesson\.html': folder '.*nowhere'"
    ):
        files.write_text(tmp_path / "nowhere" / "lesson.html", "x")
