"""``ddz report`` and ``ddz analyze --report``: the HTML is parsed as a browser
would (every move present, one timeline point per move, every link inside the
folder, nothing from the network), bad records are listed, folders are
guarded, --resume goes on; where Chromium is installed the pages are rendered
and the screenshots checked."""

from __future__ import annotations

import html.parser
import json
import os
import re
import shutil
import subprocess
import urllib.parse

import pytest

from conftest import REPO
from ddz_tools.cli import main
from ddz_tools.analysis.report import DATA_FILE, card_faces, write_report
from ddz_tools.engines.selfplay import simulate

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")

NODES = 5_000
BAD = str(REPO / "data" / "bad_games.jsonl")


class Page(html.parser.HTMLParser):
    """Links, resources, move rows and timeline markers of one page."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.links: list = []
        self.resources: list = []
        self.moves: list = []
        self.points: dict = {}
        self.text: list = []
        self._group: list = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        for key in ("src", "srcset", "data", "poster", "xlink:href", "href"):
            if key in a and tag != "a":
                self.resources.append((tag, a[key]))
        if tag == "link":
            self.resources.append((tag, a.get("href")))
        if tag == "tr" and "data-move" in a:
            self.moves.append(int(a["data-move"]))
        if tag == "g":
            self._group.append(a.get("id"))
        if tag == "use":
            for gid in self._group:
                if gid and gid.startswith("timeline-"):
                    self.points[gid] = self.points.get(gid, 0) + 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "g":
            self._group.pop()

    def handle_endtag(self, tag):
        if tag == "g" and self._group:
            self._group.pop()

    def handle_data(self, data):
        self.text.append(data)


def records(n: int, seed: int, players=None) -> list[dict]:
    out = []
    for r in simulate(n, "heuristic", seed=seed):
        if players:
            r["players"] = players
        out.append(r)
    return out


def write_jsonl(path, recs) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return str(path)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    games = write_jsonl(tmp / "games.jsonl", records(3, 21, ["ann", "bo", "cy"]))
    out = tmp / "out"
    res = write_report([games, BAD], str(out), review_nodes=NODES, solve_below=0)
    return out, res, games


def _pages(out):
    yield out / "index.html"
    yield from sorted((out / "games").glob("*.html"))


def test_every_game_has_a_page_and_every_move_a_row(report):
    out, res, games = report
    recs = [json.loads(line) for line in open(games)]
    data = [json.loads(line) for line in open(out / DATA_FILE)]
    assert len(data) == res["games"] == len(recs) + sum(1 for _ in open(BAD))
    index = Page((out / "index.html").read_text())
    pages = [link for link in index.links if link.startswith("games/")]
    # The bad-games file holds one valid game too: it gets a page.
    assert len(pages) == len(recs) + 1
    for rec, link in zip(recs, pages):
        page = Page((out / link).read_text())
        n = len(rec["plays"])
        assert page.moves == list(range(1, n + 1))
        # One timeline point per move: known values and unknowns together.
        assert page.points.get("timeline-open", 0) + page.points.get("timeline-unknown", 0) == n
        text = " ".join(page.text)
        assert "Deal" in text and "Auction" in text
        for seat in range(3):
            assert rec["players"][seat] in text


def test_links_stay_inside_the_folder_and_nothing_is_loaded(report):
    out = report[0]
    root = os.path.realpath(out)
    for path in _pages(out):
        text = path.read_text()
        page = Page(text)
        # Only references to elements of the page itself (SVG markers).
        for tag, ref in page.resources:
            assert ref and ref.startswith("#") and f'id="{ref[1:]}"' in text, (path, tag, ref)
        assert not re.search(r"@import|url\((?!#)", text), path
        assert "<script" not in text
        for link in page.links:
            parts = urllib.parse.urlsplit(link)
            assert not parts.scheme and not parts.netloc, link
            if not parts.path:
                assert parts.fragment and f'id="{parts.fragment}"' in text, link
                continue
            target = os.path.realpath(os.path.join(os.path.dirname(path), parts.path))
            assert target.startswith(root + os.sep) and os.path.isfile(target), link


def test_bad_records_are_listed_with_file_and_line(report):
    out = report[0]
    text = " ".join(Page((out / "index.html").read_text()).text)
    for i in range(1, 8):
        assert f"bad_games.jsonl:{i}: invalid" in text
    assert "bad_games.jsonl:9: incomplete" in text


def test_existing_folders_are_refused_unless_forced_or_resumed(report, tmp_path, capsys):
    out, res, games = report
    code, _, err = _cli(["report", games, "--out", str(out)], capsys)
    assert code == 2 and err.startswith("error: ") and "--force" in err
    more = write_jsonl(tmp_path / "more.jsonl", records(1, 99))
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    code, stdout, _ = _cli(["report", games, more, BAD, "--out", str(copy), "--resume",
                            "--review-nodes", str(NODES), "--format", "json"], capsys)
    got = json.loads(stdout)
    assert code == 3 and got["new"] == 1 and got["resumed"] == res["games"]
    assert len(list((copy / "games").glob("*.html"))) == len(list((out / "games").glob("*.html"))) + 1
    assert sum(1 for _ in open(copy / DATA_FILE)) == res["games"] + 1
    code, _, _ = _cli(["report", more, "--out", str(copy), "--force", "--review-nodes", str(NODES)], capsys)
    assert code == 0 and len(list((copy / "games").glob("*.html"))) == 1


def test_analyze_writes_the_same_report(report, tmp_path, capsys):
    out, _, games = report
    code, stdout, err = _cli(["analyze", games, "--report", str(tmp_path / "r"), "--review-nodes", str(NODES),
                              "--solve-below", "0", "--format", "json"], capsys)
    assert code == 0 and "report:" in err
    summary = json.loads(stdout.splitlines()[-1])["summary"]
    assert summary["review"]["games"] == 3
    mine = sorted(p.name for p in (tmp_path / "r" / "games").glob("*.html"))
    theirs = sorted(p.name for p in (out / "games").glob("*.html"))
    assert set(mine) <= set(theirs) and len(mine) == 3
    for name in mine:
        a = Page((tmp_path / "r" / "games" / name).read_text())
        b = Page((out / "games" / name).read_text())
        assert a.moves == b.moves and a.points == b.points

    # Two worker processes (analyze's default here) give the reviews one process gave.
    def reviews(path):
        out = {}
        for line in open(path):
            d = json.loads(line)
            if d.get("review"):
                d["review"].pop("seconds")
                out[(d["file"], d["line"])] = d["review"]
        return out

    theirs = reviews(out / DATA_FILE)
    mine = reviews(tmp_path / "r" / DATA_FILE)
    assert mine and all(mine[k] == theirs[k] for k in mine)


def test_card_faces_keep_every_card():
    faces = card_faces("33TTTTXD")
    assert [f["label"] for f in faces] == ["3", "3", "10", "10", "10", "10", "★", "★"]
    # Records hold ranks, not suits: no suit is made up (a bottom 39J drawn 3♠ 9♠ J♠ was a false flush).
    assert {f["suit"] for f in faces[:6]} == {""} and not any(f["red"] for f in faces[:6])
    assert [f["red"] for f in faces[6:]] == [False, True]


def test_a_bottom_without_card_ids_is_drawn_without_suits(tmp_path):
    recs = list(simulate(1, "heuristic", seed=4, rules="happy"))
    assert recs[0]["deal"]["bottom_ids"] is None
    games = write_jsonl(tmp_path / "h.jsonl", recs)
    write_report([games], str(tmp_path / "out"), review_nodes=NODES, solve_below=0)
    page = next((tmp_path / "out" / "games").glob("*.html")).read_text(encoding="utf-8")
    assert not re.search(r'<span class="s">[♠♥♣♦]</span>', page)


@pytest.mark.parametrize("spec", ["laizi", "tiandi"])
def test_laizi_games_draw_their_laizi_apart(tmp_path, spec):
    """Each game page names the deal's wild ranks and marks every laizi card:
    the deal and the bottom show all 54 cards, so 4 a wild rank at least."""
    recs = list(simulate(2, "heuristic", seed=4, rules=spec))
    games = write_jsonl(tmp_path / "lz.jsonl", recs)
    out = tmp_path / "out"
    write_report([games], str(out), review_nodes=NODES, solve_below=0)
    pages = sorted((out / "games").glob("*.html"))
    assert len(pages) == len(recs)
    wilds = {r["deal"]["wild"] for r in recs}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        shown = re.search(r"· wild ([0-9TJQKA2,]+) ·", text)
        assert shown and shown.group(1) in wilds
        marked = len(re.findall(r'class="card[^"]* wild"', text))
        assert marked >= 4 * len(shown.group(1).split(","))
    assert [c["wild"] for c in card_faces("5599X", "5,9")] == [True, True, True, True, False]


def test_happy_games_show_their_stake(tmp_path):
    """A Happy Dou Dizhu game page draws the stake: the base, the public
    multiple, the shows and every seat's double (in doubling order), with
    the doubling evaluator's verdict when the bids are reviewed, and the
    show evaluator's verdict on every reviewed show decision, those against
    the evaluator tinted (and never called mistakes)."""
    recs = list(simulate(2, "heuristic", seed=6, rules="happy"))
    games = write_jsonl(tmp_path / "h.jsonl", recs)
    out = tmp_path / "out"
    write_report([games], str(out), review_nodes=NODES, solve_below=0, bids=True, bid_samples=100)
    pages = sorted((out / "games").glob("*.html"))
    assert len(pages) == len(recs)
    analysis = {d["id"]: d for d in map(json.loads, (out / "analysis.jsonl").read_text().splitlines())}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        stake = text[text.index('id="stake"'):text.index('id="timeline"')]
        rec = next(r for r in recs if r["id"] in text)
        factors = re.findall(r"<b>×(\d)</b>", stake)
        order = [(rec["landlord"] + k) % 3 for k in (1, 2, 0)]
        assert factors == [str(rec["doubles"][s]) for s in order]
        assert f"public multiple {rec['result']['multiplier']}" in stake
        doubles = stake[stake.index('id="doubles"'):stake.index("</table>")]
        assert doubles.count("agrees") + doubles.count("best: ") == 3
        # The show decisions: each seat's not showing with 17 cards, then the landlord's first play.
        shows = stake[stake.index('id="shows"'):]
        shows = shows[:shows.index("</table>")]
        rows = re.findall(r"<tr( class=\"stake-against\")?><td>.*?</tr>", shows, re.S)
        g = analysis[rec["id"]]
        assert len(rows) == len(g["show_review"]) == 4
        assert [bool(r) for r in rows] == [not b["agrees"] for b in g["show_review"]]
        assert "mistake" not in re.sub(r"<[^>]+>", " ", shows)
        assert re.findall(r"<td>(deal:17|first-play) <span", shows) == [b["stage"] for b in g["show_review"]]
        assert shows.count("agrees") == sum(b["agrees"] for b in g["show_review"])


def _cli(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# Rendered in a browser ---------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot(url: str, png: str, profile: str, height: int = 1400) -> None:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
           "--hide-scrollbars", f"--window-size=1280,{height}", f"--screenshot={png}", url]
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)


def not_blank(png: str) -> tuple[float, float]:
    """(share of pixels away from the page background, spread of the pixel values)."""
    import matplotlib.image
    import numpy as np

    img = matplotlib.image.imread(png)[..., :3]
    bg = np.median(img.reshape(-1, 3), axis=0)
    away = np.abs(img - bg).sum(axis=2) > 0.1
    return float(away.mean()), float(img.std())


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make test-browser installs it)")
def test_pages_render_in_chromium(report, tmp_path):
    out = report[0]
    game = sorted((out / "games").glob("*.html"))[0]
    for name, path in (("index", out / "index.html"), ("game", game)):
        png = str(tmp_path / f"{name}.png")
        screenshot(path.resolve().as_uri(), png, str(tmp_path / f"profile-{name}"))
        away, spread = not_blank(png)
        assert away > 0.05 and spread > 0.05, (name, away, spread)


def test_flagged_moves_of_the_hidden_review_show_what_could_be_read(tmp_path):
    """A hidden review stores the mover's beliefs at each move it flags, and
    the game page draws them as a heat table per hidden hand."""
    games = write_jsonl(tmp_path / "g.jsonl", records(1, 4))
    write_report([games], str(tmp_path / "out"), review="hidden", review_samples=16, workers=1)
    rows = [json.loads(line) for line in (tmp_path / "out" / DATA_FILE).read_text().splitlines() if line.strip()]
    moves = [m for r in rows for m in r["review"]["moves"]]
    flagged = [m for m in moves if m.get("hidden_flag")]
    assert flagged and all("beliefs" in m for m in flagged)
    assert all("beliefs" not in m for m in moves if not m.get("hidden_flag"))
    b = flagged[0]["beliefs"]
    assert len(b["hands"]) == 2 and 0 < b["ess"] <= b["samples"]
    page = next((tmp_path / "out" / "games").glob("*.html")).read_text()
    assert page.count('<table class="heat">') == len(flagged)


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make test-browser installs it)")
def test_belief_heat_tables_render_in_chromium(tmp_path):
    """The heat tables of a hidden review are drawn: the game page shows
    their blue shading, which the same page without them does not."""
    import re

    import matplotlib.image

    games = write_jsonl(tmp_path / "g.jsonl", records(1, 4))
    write_report([games], str(tmp_path / "out"), review="hidden", review_samples=16, workers=1)
    page = next((tmp_path / "out" / "games").glob("*.html"))
    text = page.read_text()
    bare = page.with_name("bare.html")
    bare.write_text(re.sub(r'<table class="heat">.*?</table>', "", text, flags=re.S))
    shaded = []
    for name, path in (("heat", page), ("bare", bare)):
        png = str(tmp_path / f"{name}.png")
        screenshot(path.resolve().as_uri(), png, str(tmp_path / f"profile-{name}"), height=5000)
        img = matplotlib.image.imread(png)[..., :3]
        # white blended with rgb(21, 101, 192) at a shade of 0.3 or more
        shaded.append(int(((img[..., 2] - img[..., 0] > 0.2) & (img[..., 1] > img[..., 0])).sum()))
    assert shaded[0] > shaded[1] + 500, shaded
