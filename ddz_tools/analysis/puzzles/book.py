"""The puzzle book: a static HTML folder of puzzles that opens from the file system.

:func:`write_book` reads ``ddz-puzzle/1`` files and writes:

* ``index.html``: the puzzles by rating band (unrated puzzles last, in a band
  of their own), by theme (each theme named and explained) and by rule set,
  each a link to its page;
* ``puzzles/<id>.html``: the position drawn with the cards as the game report
  draws them (:func:`ddz_tools.analysis.report.card_faces`), the play to
  answer, whose turn it is and which side wins; a hint (the themes) and the
  solution each behind a click (``<details>``: no script), the solution being
  the line with the defence's replies, the plays accepted where it stops, and
  the natural play that loses; links to the previous and next puzzle.

Pages are made with the report's Jinja2 templates and styles (the optional
extra ``ddz-tools[report]``): CSS inline, nothing loaded from the network.
The same puzzle (the same id) in two files is drawn once.
"""

from __future__ import annotations

import os
import shutil
from typing import Iterable

from ...core.errors import ArgumentError
from ..report import card_faces, play_cards, render_page, template_env
from .format import Puzzle, read_puzzles
from .themes import THEMES

__all__ = ["INDEX_FILE", "PAGES_DIR", "BAND", "write_book", "puzzle_page", "rating_band"]

INDEX_FILE = "index.html"
PAGES_DIR = "puzzles"
#: Width of a rating band of the index.
BAND = 200
UNRATED = "unrated"


def rating_band(rating: "float | None") -> str:
    """The index's band of a rating: ``BAND`` points wide, ``unrated`` without one.

    >>> rating_band(1523.4), rating_band(None)
    ('1400–1599', 'unrated')
    """
    if rating is None:
        return UNRATED
    low = int(rating // BAND) * BAND
    return f"{low}–{low + BAND - 1}"


def _theme_text(name: str) -> str:
    """A theme's explanation: the first line of its test's docstring."""
    doc = (THEMES[name].__doc__ or "").strip()
    return doc.splitlines()[0].rstrip(".") if doc else name


def _where(source: dict) -> str:
    if "file" in source:
        text = f"{source['file']}:{source.get('line', '?')}"
    elif "seed" in source:
        text = f"{source.get('rules', '')} self-play, seed {source['seed']} game {source.get('game', '?')}"
    else:
        return ""
    if "move" in source:
        text += f", move {source['move']}"
    if "duel" in source:
        text += f" (the landlord against {source['duel']} alone)"
    return text


def puzzle_page(z: Puzzle) -> dict:
    """Everything a puzzle's page shows, as plain values."""
    pos = z.position
    d = pos.to_dict()
    wild = d.get("wild") or ""
    seats = []
    for seat in pos.seats:
        hand = pos.hand(seat)
        seats.append({"seat": seat, "role": seat, "name": seat, "cards": card_faces(hand, wild), "count": len(hand),
                      "to_move": seat == pos.to_move, "winning": pos.team_of(seat) == z.side})
    steps = []
    for i, s in enumerate(z.solution, 1):
        steps.append({"n": i, "by": s.by, "role": s.role, "play": s.play,
                      "cards": card_faces(play_cards(s.play), wild)})
    return {
        "id": z.id, "rules": d["rules"], "wild": wild, "side": z.side, "to_move": pos.to_move,
        "seats": seats, "table": (card_faces(play_cards(d["last_play"]), wild) if d["last_play"] else None),
        "table_play": d["last_play"], "table_by": d["last_by"],
        "steps": steps, "to_find": len(z.moves),
        "accepted": [{"play": a, "cards": card_faces(play_cards(a), wild)} for a in z.accepted],
        "natural": z.natural,
        "natural_cards": card_faces(play_cards(z.natural), wild) if z.natural else [],
        "themes": [{"name": t, "text": _theme_text(t) if t in THEMES else t} for t in z.themes],
        "rating": z.rating, "deviation": z.rating_deviation, "band": rating_band(z.rating), "where": _where(z.source),
    }


def _order(z: Puzzle) -> tuple:
    """Book order: rated puzzles by rating, then the unrated; within, fewer moves to find first."""
    return (z.rating is None, z.rating or 0.0, len(z.moves), len(z.solution), z.id)


def _prepare(out: str, force: bool) -> None:
    if os.path.exists(out) and not os.path.isdir(out):
        raise ArgumentError(f"{out} exists and is not a folder")
    if os.path.isdir(out) and os.listdir(out):
        if not force:
            raise ArgumentError(f"{out} exists: give force to overwrite it", param="force")
        if os.path.exists(os.path.join(out, INDEX_FILE)):
            os.remove(os.path.join(out, INDEX_FILE))
        shutil.rmtree(os.path.join(out, PAGES_DIR), ignore_errors=True)
    os.makedirs(os.path.join(out, PAGES_DIR), exist_ok=True)


def write_book(paths: Iterable[str], out: str, *, force: bool = False, title: str = "Dou Dizhu puzzles") -> dict:
    """Write the puzzle book of the ``ddz-puzzle/1`` files ``paths`` into the folder ``out``.

    An existing, non-empty ``out`` is refused unless ``force`` (the book's own
    files are replaced; other files are left alone).  A bad line raises
    :class:`~.format.PuzzleError` ``FILE:LINE: reason`` before anything is
    written.  Returns ``{"index": path, "puzzles": n, "duplicates": n,
    "bands": {band: n}, "themes": {theme: n}, "rules": {rules: n}}``.
    """
    paths = list(paths)
    if not paths:
        raise ArgumentError("give at least one puzzle file")
    found, duplicates = {}, 0
    for path in paths:
        for z in read_puzzles(path):
            if z.id in found:
                duplicates += 1
            else:
                found[z.id] = z
    puzzles = sorted(found.values(), key=_order)
    _prepare(out, force)
    env = template_env()
    models = [puzzle_page(z) for z in puzzles]
    for k, m in enumerate(models):
        m["page"] = f"{PAGES_DIR}/{m['id']}.html"
        m["prev"] = f"{models[k - 1]['id']}.html" if k else None
        m["next"] = f"{models[k + 1]['id']}.html" if k + 1 < len(models) else None
        m["number"] = k + 1
    for m in models:
        render_page(env, os.path.join(out, m["page"]), "book_puzzle.html.j2", title=title, z=m, total=len(models))
    bands: dict = {}
    for m in models:
        bands.setdefault(m["band"], []).append(m)
    themes = {name: [m for m in models if any(t["name"] == name for t in m["themes"])] for name in THEMES}
    themes = {name: ms for name, ms in themes.items() if ms}
    plain = [m for m in models if not m["themes"]]
    by_rules: dict = {}
    for m in models:
        by_rules.setdefault(m["rules"], []).append(m)
    index = os.path.join(out, INDEX_FILE)
    render_page(env, index, "book_index.html.j2", title=title, puzzles=models, bands=bands,
                themes=[{"name": n, "text": _theme_text(n), "puzzles": ms} for n, ms in themes.items()],
                plain=plain, by_rules=by_rules, files=paths, rated=sum(m["rating"] is not None for m in models))
    return {"index": index, "puzzles": len(models), "duplicates": duplicates,
            "bands": {b: len(ms) for b, ms in bands.items()}, "themes": {n: len(ms) for n, ms in themes.items()},
            "rules": {r: len(ms) for r, ms in by_rules.items()}}
