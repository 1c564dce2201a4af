"""The browser fixture itself: Chromium starts, renders an inline SVG and reports requests."""


def test_chromium_renders_inline_svg_without_requests(page, tmp_path):
    html = tmp_path / "smoke.html"
    html.write_text(
        '<!doctype html><svg width="40" height="40"><rect id="r" width="40" height="40"/></svg>',
        encoding="utf-8",
    )
    page.goto(html.as_uri())
    assert page.locator("#r").count() == 1
    assert page.evaluate("document.getElementById('r').getBBox().width") == 40
    assert [url for url in page.requests if not url.startswith("file:")] == []
