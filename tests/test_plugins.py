"""SVG layouts run dot without Pango: text sized from dot's tables, whatever fonts are installed."""

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import autoviz
from autoviz.errors import LayoutError
from autoviz.render import plugins, process
from autoviz.render.layout import run_layout
from conftest import graphviz_pure_path, lesson_example, lesson_timeline

DOT = shutil.which("dot")
real_run = process.run
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed")


@pytest.fixture
def real_dot(monkeypatch, tmp_path):
    """Graphviz's dot, with a cache folder of the test's own."""
    monkeypatch.setenv("AUTOVIZ_DOT", DOT or "dot")
    monkeypatch.delenv("AUTOVIZ_MEASURE_FONTS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    plugins._FOLDERS.clear()
    yield DOT
    plugins._FOLDERS.clear()


def lesson_source(**options) -> str:
    return autoviz.draw(lesson_example()["z"], **options).source


def verbose_report(source: str, env: dict) -> str:
    """What dot -v says it loaded while laying `source` out in `env`."""
    run = subprocess.run([DOT, "-v", "-Tsvg"], input=source.encode(), capture_output=True, env=env)
    assert run.returncode == 0, run.stderr
    return run.stderr.decode()


@needs_dot
def test_a_diagrams_layout_loads_no_text_layout_plugin(real_dot):
    env = plugins.environment(real_dot, lesson_source())
    report = verbose_report(lesson_source(), env)
    assert "Using layout: dot:dot_layout" in report
    assert "Using render: svg:core" in report
    assert "pango" not in report.lower()
    assert "textlayout\t: \n" in report  # none configured
    # Without the folder, the same dot has Pango's text layout.
    assert "textlayout\t:  textlayout" in verbose_report("digraph {}", dict(os.environ))


@needs_dot
def test_the_folder_configures_only_what_dot_used_for_svg(real_dot):
    folder = Path(plugins.plugin_folder(real_dot))
    assert folder.parent == Path(os.environ["XDG_CACHE_HOME"], "autoviz")
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no draft left behind
    configs = [p for p in folder.iterdir() if p.name.startswith("config")]
    assert len(configs) == 1
    config = configs[0].read_text()
    assert "dot_layout" in config and "svg" in config
    assert "pango" not in config and "textlayout" not in config
    for library in folder.iterdir():  # each linked plugin library is there to load
        assert library.exists()


@needs_dot
def test_layouts_do_not_depend_on_the_fonts_installed(real_dot, monkeypatch, tmp_path):
    """The same diagram on a laptop with other fonts, or none: the same SVG, byte for byte.
    (Measured with Pango, the lesson diagram comes out wider or narrower without fonts.)"""
    tl = lesson_timeline()
    sources = [lesson_source(), lesson_source(theme="projector"), tl.draw(step=len(tl) - 1).source]
    here = [run_layout(source) for source in sources]
    no_fonts = tmp_path / "fonts.conf"
    no_fonts.write_text(f"<fontconfig><cachedir>{tmp_path}</cachedir></fontconfig>\n")
    monkeypatch.setenv("FONTCONFIG_FILE", str(no_fonts))
    assert [run_layout(source) for source in sources] == here


def test_graphs_needing_more_than_tables_are_measured_in_their_fonts():
    assert plugins.suits(lesson_source())
    assert plugins.suits("digraph { a }")  # dot's default, Times
    assert plugins.suits('digraph { node [fontname="Times-Roman"] a [fontname=Courier] }')
    assert not plugins.suits('digraph { node [fontname="Comic Sans MS"] a }')
    # Graphviz 2.50+ has tables for single family names only.
    assert not plugins.suits('digraph { node [fontname="Helvetica,Arial,sans-serif"] a }')
    assert not plugins.suits('digraph { node [fontname="Arial Black"] a }')
    assert not plugins.suits("digraph { layout=neato a }")
    assert not plugins.suits('digraph { a [label=<<font face="Fira Code">a</font>>] }')
    assert not plugins.suits('digraph { a [image="logo.png"] }')
    assert not plugins.suits('digraph { a [label=<<IMG SRC="logo.png"/>>] }')
    assert plugins.suits('digraph { images [label="an image, not an attribute"] }')
    # autoviz's own superscripts (a transposed weight) keep the font tables; Greek does not
    assert plugins.suits('digraph { a [label="net.0.weightᵀ x² h₁ → ∂"] }')
    assert not plugins.suits('digraph { a [label="α"] }')


@needs_dot
def test_autoviz_measure_fonts_and_other_engines_keep_every_plugin(real_dot, monkeypatch):
    assert plugins.environment(real_dot, lesson_source()) is not None
    assert plugins.environment(graphviz_pure_path(), lesson_source()) is None
    monkeypatch.setenv("AUTOVIZ_MEASURE_FONTS", "1")
    assert plugins.environment(real_dot, lesson_source()) is None


def test_an_engine_without_graphvizs_report_is_run_as_is(tmp_path, monkeypatch):
    """A wrapper called dot that answers -v differently: no folder, and it still draws."""
    fake = tmp_path / "dot"
    svg = '<?xml version="1.0"?>\\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\nprint('{svg}')\n")
    fake.chmod(0o755)
    monkeypatch.setenv("AUTOVIZ_DOT", str(fake))
    assert plugins.plugin_folder(str(fake)) is None
    assert run_layout(lesson_source()).endswith(b"</svg>\n")


@needs_dot
def test_a_folder_that_stopped_working_is_made_again(real_dot, monkeypatch):
    """After a Graphviz upgrade, say: the layout reruns with every plugin, then the folder is
    made again and used."""
    folder = Path(plugins.plugin_folder(real_dot))
    for config in folder.glob("config*"):
        config.write_text("")  # as if its libraries had gone
    runs = []
    monkeypatch.setattr(process, "run", lambda *args: runs.append(args) or real_run(*args))
    monkeypatch.setenv("AUTOVIZ_MEASURE_FONTS", "1")
    measured = run_layout(lesson_source())
    monkeypatch.delenv("AUTOVIZ_MEASURE_FONTS")
    runs.clear()
    assert run_layout(lesson_source()) == measured  # with every plugin, after the folder failed
    in_folder = [len(args) > 3 and args[3] is not None for args in runs]
    assert in_folder == [True, False, True]  # the layout in the folder, without, then a probe
    assert not folder.exists()
    assert list(folder.parent.iterdir()) == []  # nothing left aside
    runs.clear()
    assert run_layout(lesson_source()) != measured  # the folder made again: no Pango
    assert [args[0][1] for args in runs] == ["-v", "-Tsvg", "-Tsvg"]  # look up, probe, layout
    assert any(folder.glob("config*"))


@needs_dot
def test_a_graph_that_needs_more_leaves_a_working_folder_alone(real_dot, monkeypatch):
    folder = Path(plugins.plugin_folder(real_dot))

    def fails_in_the_folder(command, data, timeout, env=None):
        if env is not None and data != plugins._PROBE:
            return 1, b"", b"Error: something this graph needs"
        return real_run(command, data, timeout, env)

    monkeypatch.setattr(process, "run", fails_in_the_folder)
    assert run_layout(lesson_source()).endswith(b"</svg>\n")  # with every plugin
    assert folder.is_dir()  # the probe still works there: kept
    assert plugins.plugin_folder(real_dot) == str(folder)


@needs_dot
def test_the_folder_is_kept_for_the_next_session(real_dot):
    """A new Python process finds the folder made before: no `dot -v` to wait for."""
    first = plugins.plugin_folder(real_dot)
    code = (
        "from autoviz.render import plugins, process\n"
        "process.run = None  # any run of dot would fail\n"
        f"print(plugins.plugin_folder({real_dot!r}))"
    )
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert again.stdout.strip() == first


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert plugins._cache() == tmp_path / ".cache" / "autoviz"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert plugins._cache() == tmp_path / "xdg" / "autoviz"


def test_autoviz_measure_fonts_takes_1_or_0(monkeypatch):
    monkeypatch.setenv("AUTOVIZ_MEASURE_FONTS", "maybe")
    with pytest.raises(ValueError, match=r"AUTOVIZ_MEASURE_FONTS must be 1 \(on\) or 0"):
        plugins.environment("dot", "digraph {}")


@needs_dot
def test_bad_dot_text_reports_dots_own_error(real_dot):
    with pytest.raises(LayoutError, match=r"syntax error in line 2"):
        run_layout("digraph {\n a -> }\n")


@needs_dot
@pytest.mark.parametrize("what", ["file", "dangling link", "link to a file", "file as cache"])
def test_a_file_or_dangling_link_where_the_folder_goes_is_replaced(real_dot, what):
    folder = plugins._folder_for(real_dot)
    folder.parent.mkdir(parents=True)
    spot = folder.parent if what == "file as cache" else folder
    if what == "file as cache":
        shutil.rmtree(spot)
    if what in ("file", "file as cache"):
        spot.write_text("left by something else")
    elif what == "dangling link":
        spot.symlink_to(folder.parent / "gone")
    else:
        (folder.parent / "a-file").write_text("")
        spot.symlink_to(folder.parent / "a-file")
    made = plugins.plugin_folder(real_dot)
    assert made == str(folder) and folder.is_dir() and not folder.is_symlink()
    assert any(folder.glob("config*"))
    assert plugins.environment(real_dot, lesson_source()) is not None


@needs_dot
def test_forget_leaves_nothing_aside_when_the_folder_cannot_be_moved(real_dot, monkeypatch):
    folder = Path(plugins.plugin_folder(real_dot))
    monkeypatch.setattr(plugins, "_works", lambda *args: False)  # as if it stopped working
    real_rename = Path.rename

    def refused(self, target):
        if self == folder:
            raise PermissionError(f"cannot move {self}")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", refused)
    plugins.forget(real_dot)
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no empty "-old-" folder


# -- issue 26 item 12: never write through a link; a broken system dot is replaced ------------


def fake_graphviz(folder: Path, libraries: list[str]) -> tuple[Path, Path]:
    """A system plugin folder of its own (configuration and libraries, read-only), and a `dot`
    whose `-v` report names `libraries` there; any other run is the real dot's."""
    system = folder / "system"
    system.mkdir()
    config = "libgvplugin_core.so.6 core {\n}\nlibgvplugin_pango.so.6 textlayout {\n}\n"
    (system / "config6").write_text(config)
    (system / "libgvplugin_core.so.6").write_bytes(b"\x7fELF the system's plugin")
    for path in system.iterdir():
        path.chmod(0o444)
    report = "".join(f"Activated plugin library: {name}\\n" for name in libraries)
    dot = folder / "dot"
    dot.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-v" ]; then\n'
        f"  printf 'libdir = \"{system}\"\\n' >&2\n"
        f"  printf 'The plugin configuration file:\\n\\t{system}/config6\\n"
        "\\t\\twas successfully loaded.\\n' >&2\n"
        f"  printf '{report}' >&2\n"
        "  cat > /dev/null; echo '<svg></svg>'; exit 0\n"
        "fi\n"
        f'exec {DOT} "$@"\n'
    )
    dot.chmod(0o755)
    return dot, system


def snapshot(folder: Path) -> dict:
    return {p.name: (p.read_bytes(), p.stat().st_mode) for p in folder.iterdir()}


@needs_dot
@pytest.mark.parametrize(
    "libraries",
    [
        ["config6", "libgvplugin_core.so.6"],  # a library named as the configuration
        ["libgvplugin_core.so.6", "libgvplugin_core.so.6"],  # one library twice
        ["../../outside.so", "libgvplugin_core.so.6", "sub/dir.so"],  # a path, not a name
    ],
)
def test_the_plugin_cache_never_writes_through_a_link(real_dot, tmp_path, libraries):
    dot, system = fake_graphviz(tmp_path, libraries)
    before = snapshot(system)
    plugins.plugin_folder(str(dot))
    assert snapshot(system) == before  # the system's plugins untouched
    cache = Path(os.environ["XDG_CACHE_HOME"])
    outside = [p for p in tmp_path.rglob("*") if p.name in ("outside.so", "dir.so")]
    assert outside == []
    for path in cache.rglob("*"):  # what is there: links to the system's files, or our own
        assert not path.is_symlink() or path.resolve().parent == system.resolve()


@needs_dot
def test_a_broken_system_dot_gives_way_to_the_bundled_engine_once(monkeypatch, tmp_path):
    """Graphviz with its plugin libraries emptied (an upgrade that failed half-way): every
    layout would fail with dot's 'Format "svg" not recognized'."""
    broken = tmp_path / "plugins"
    broken.mkdir()
    real = Path(
        subprocess.run([DOT, "-v"], capture_output=True, text=True, input="")
        .stderr.split('libdir = "')[1]
        .split('"')[0]
    )
    for path in real.iterdir():
        if path.name.startswith("config"):
            shutil.copy(path, broken / path.name)
        else:
            (broken / path.name).write_bytes(b"")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "dot").write_text(f'#!/bin/sh\nGVBINDIR={broken} exec {DOT} "$@"\n')
    (bin_dir / "dot").chmod(0o755)
    monkeypatch.delenv("AUTOVIZ_DOT", raising=False)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from autoviz.render import layout

    monkeypatch.setattr(layout, "_BROKEN", set())
    assert layout.find_engine() == str(bin_dir / "dot")
    with pytest.warns(RuntimeWarning, match=r"system's Graphviz .* is broken.*graphviz-pure"):
        svg = autoviz.draw(lesson_example()["z"]).svg()
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "value: 7.0" in texts  # drawn, by the bundled engine:
    assert layout.find_engine() == graphviz_pure_path()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once: the next drawings are quiet
        lesson_timeline().save_html(tmp_path / "lesson.html")
    # A graph that dot refuses for itself is still dot's error, from a working dot.
    monkeypatch.setattr(layout, "_BROKEN", set())
    monkeypatch.setenv("PATH", os.environ["PATH"].split(os.pathsep, 1)[1])
    with pytest.raises(LayoutError, match="syntax error"):
        run_layout("digraph { a -> }")
