"""Check every link of the built docs site: each page, picture, script and anchor it points at
is there, and no page fetches anything from the network.

    python tools/check_links.py [site]      # after `mkdocs build --strict`; exit 1 on a bad link
"""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
# What a page loads by itself (as opposed to links a reader follows): never from the network.
LOADED = {("script", "src"), ("img", "src"), ("link", "href"), ("source", "src")}


class Page(HTMLParser):
    """A page's ids, its links (tag, attribute, url) and its loaded resources."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key) is not None:
                self.links.append((tag, key, attrs[key], attrs.get("rel", "")))


def read(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def problems(site: Path) -> tuple[int, list[str]]:
    """(pages checked, what is wrong)."""
    pages = sorted(site.rglob("*.html"))
    parsed = {path: read(path) for path in pages}
    found = []
    for path, page in parsed.items():
        where = path.relative_to(site)
        for tag, key, url, rel in page.links:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:
                loaded = (tag, key) in LOADED and "canonical" not in rel
                if loaded and parts.scheme in ("http", "https", ""):
                    found.append(f"{where}: loads {url} from the network")
                continue  # a link a reader may follow: not fetched by the page
            base = site if parts.path.startswith("/") else path.parent  # 404.html: from the root
            target = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                found.append(f"{where}: {url}: no such file")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else read(target).ids
                if fragment not in ids:
                    found.append(f"{where}: {url}: no anchor #{fragment}")
    return len(pages), found


def main() -> int:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    if not (site / "index.html").exists():
        print(f"no site in {site}: run mkdocs build --strict first", file=sys.stderr)
        return 1
    count, found = problems(site)
    for line in found:
        print(line)
    print(f"{count} pages checked, {len(found)} bad links")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
