"""``ddz puzzles book``: the pages are parsed as a browser would (a page per
puzzle, every link resolves inside the folder, nothing from the network, the
solution inside ``<details>``), the index orders by rating and lists the
themes, the folder is guarded; in headless Chromium the pages are not blank."""

from __future__ import annotations

import html.parser
import json
import os
import urllib.parse

import pytest

from conftest import REPO, run_ddz
from ddz_tools.analysis.puzzles import PuzzleError, read_puzzles
from ddz_tools.analysis.puzzles.book import rating_band, write_book
from ddz_tools.core.errors import ArgumentError

pytest.importorskip("jinja2")

SMALL = [str(REPO / "data" / "puzzles" / "tiandi.jsonl"), str(REPO / "data" / "puzzles" / "four.jsonl")]


class Html(html.parser.HTMLParser):
    """Links, resources, and the solution steps with whether each lies inside ``<details>``."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.links, self.resources, self.steps, self.ids = [], [], [], []
        self.details = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        for key in ("src", "srcset", "data", "poster", "href"):
            if key in a and tag != "a":
                self.resources.append((tag, a[key]))
        if tag == "details":
            self.details += 1
        if tag == "tr" and "data-step" in a:
            self.steps.append((int(a["data-step"]), self.details > 0))

    def handle_endtag(self, tag):
        if tag == "details":
            self.details -= 1


def pages(out) -> dict:
    return {p: Html(open(os.path.join(out, p), encoding="utf-8").read())
            for p in ["index.html"] + [f"puzzles/{n}" for n in os.listdir(os.path.join(out, "puzzles"))]}


def resolve(out, page: str, href: str) -> str:
    """The file a relative link of ``page`` points at (its fragment checked by the caller)."""
    target = urllib.parse.urlsplit(href)
    assert not target.scheme and not target.netloc, href
    return os.path.normpath(os.path.join(out, os.path.dirname(page), urllib.parse.unquote(target.path)))


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("book") / "book")
    return out, write_book(SMALL, out)


def test_every_puzzle_has_a_page_and_every_link_resolves(book):
    out, summary = book
    puzzles = [z for path in SMALL for z in read_puzzles(path)]
    assert summary["puzzles"] == len(puzzles) == len(os.listdir(os.path.join(out, "puzzles")))
    assert {f"{z.id}.html" for z in puzzles} == set(os.listdir(os.path.join(out, "puzzles")))
    parsed = pages(out)
    index = parsed["index.html"]
    linked = {resolve(out, "index.html", h) for h in index.links if not h.startswith("#")}
    assert linked == {os.path.normpath(os.path.join(out, "puzzles", f"{z.id}.html")) for z in puzzles}
    for page, p in parsed.items():
        assert p.resources == [], page                # CSS inline, nothing loaded
        for href in p.links:
            if href.startswith("#"):               # a section of the same page
                assert href[1:] in p.ids, (page, href)
            else:
                assert os.path.isfile(resolve(out, page, href)), (page, href)


def test_the_solution_is_behind_a_click(book):
    out, _ = book
    for z in (z for path in SMALL for z in read_puzzles(path)):
        text = open(os.path.join(out, "puzzles", f"{z.id}.html"), encoding="utf-8").read()
        p = Html(text)
        assert [n for n, _ in p.steps] == list(range(1, len(z.solution) + 1))
        assert all(hidden for _, hidden in p.steps), z.id
        shown = text[:text.index("<details")]
        for seat in z.position.seats:          # the hands drawn, before the first click
            assert f'data-seat="{seat}"' in shown
        assert "<summary>Solution</summary>" in text and "<script" not in text


def test_the_index_orders_by_rating_and_lists_the_themes(tmp_path):
    lines = [json.loads(s) for s in open(SMALL[0], encoding="utf-8") if s.strip()][:6]
    for k, d in enumerate(lines):
        d["rating"] = [1850.0, 1210.5, 1399.9, 2200.0, None, None][k]
        d.pop("rating_deviation", None)
    src = tmp_path / "rated.jsonl"
    src.write_text("".join(json.dumps(d) + "\n" for d in lines))
    summary = write_book([str(src)], str(tmp_path / "out"))
    assert list(summary["bands"]) == ["1200–1399", "1800–1999", "2200–2399", "unrated"]
    assert summary["bands"] == {"1200–1399": 2, "1800–1999": 1, "2200–2399": 1, "unrated": 2}
    index = (tmp_path / "out" / "index.html").read_text()
    order = [index.index(lines[k]["id"]) for k in (1, 2, 0, 3)]
    assert order == sorted(order)
    # previous and next follow the same order
    first = Html((tmp_path / "out" / "puzzles" / f"{lines[1]['id']}.html").read_text())
    assert f"{lines[2]['id']}.html" in first.links
    for theme, n in summary["themes"].items():
        assert f'id="theme-{theme}"' in index and n == sum(theme in d["themes"] for d in lines)


def test_a_puzzle_in_two_files_is_drawn_once(tmp_path):
    summary = write_book([SMALL[0], SMALL[0]], str(tmp_path / "out"))
    n = len(list(read_puzzles(SMALL[0])))
    assert summary["puzzles"] == n and summary["duplicates"] == n


def test_the_folder_is_guarded_and_a_bad_file_writes_nothing(tmp_path):
    out = tmp_path / "out"
    write_book(SMALL[:1], str(out))
    (out / "mine.txt").write_text("kept")
    with pytest.raises(ArgumentError, match="exists: give force"):
        write_book(SMALL[:1], str(out))
    write_book(SMALL[:1], str(out), force=True)
    assert (out / "mine.txt").read_text() == "kept"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(open(SMALL[0], encoding="utf-8").readline() + '{"schema": "ddz-puzzle/1"}\n')
    with pytest.raises(PuzzleError, match=r"bad.jsonl:2: no 'id'"):
        write_book([str(bad)], str(tmp_path / "never"))
    assert not (tmp_path / "never").exists()
    assert rating_band(1399.99) == "1200–1399" and rating_band(-10) == "-200–-1"


def test_the_command(tmp_path):
    out = tmp_path / "b"
    r = run_ddz("puzzles", "book", SMALL[0], "--out", out, "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["puzzles"] == len(list(read_puzzles(SMALL[0])))
    r = run_ddz("puzzles", "book", SMALL[0], "--out", out)
    assert r.returncode == 2 and r.stderr.strip() == f"error: {out} exists: give --force to overwrite it"
    r = run_ddz("puzzles", "book", "no/such.jsonl", "--out", tmp_path / "c")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "no/such.jsonl" in r.stderr


@pytest.mark.browser
def test_pages_render_in_chromium(book, tmp_path):
    pytest.importorskip("matplotlib")
    from test_report import CHROMIUM, not_blank, screenshot

    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (make test-browser installs it)")
    out, _ = book
    page = sorted(os.listdir(os.path.join(out, "puzzles")))[0]
    for name, path in (("index", os.path.join(out, "index.html")), ("puzzle", os.path.join(out, "puzzles", page))):
        png = str(tmp_path / f"{name}.png")
        screenshot("file://" + os.path.abspath(path), png, str(tmp_path / f"profile-{name}"), height=900)
        away, spread = not_blank(png)
        assert away > 0.05 and spread > 0.05, (name, away, spread)
