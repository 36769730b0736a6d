"""HTML report of a batch of games: an index and one page per game.

:func:`write_report` analyses and reviews games (:func:`ddz_tools.analysis.analyze.analyze_files`
with a ``review`` mode) and writes a folder that opens from the file system:

* ``index.html``: the batch summary (per player, or per role when the
  records name no players: games, wins as landlord and as farmer, flagged
  moves per game by class, bid agreement) with a chart, a link to every game,
  and every invalid or incomplete record with its ``FILE:LINE`` and reason;
* ``games/<name>.html``: the deal drawn as cards, the auction, every move with
  the three hands shrinking, the evaluation timeline (one point per move),
  each flagged move with the better move, and the final score;
* ``analysis.jsonl``: the analysis of each game (as ``ddz analyze --out``
  writes it), appended as games are done: ``resume=True`` skips the games it
  holds.

Pages are static and self-contained: CSS inline, charts inline SVG (drawn by
matplotlib), no script and nothing loaded from the network.  Templates are
Jinja2 files shipped in ``ddz_tools/analysis/templates``.  Both libraries come with
the optional extra ``ddz-tools[report]``.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
from typing import Callable, Iterable, Iterator, Sequence

from .analyze import (
    STATUS_DEAL,
    STATUS_INCOMPLETE,
    STATUS_INVALID,
    STATUS_VALID,
    GameAnalysis,
    analyze_files,
    load_results,
    summarize,
)
from ..core.cards import format_cards
from ..core.errors import ArgumentError, MissingExtraError
from ..engines.game import seat_roles
from .review import CLASSES, HIDDEN_THRESHOLDS
from ..core.rules import play_text_cards

#: The analyses of a report folder (JSON Lines, one game a line).
DATA_FILE = "analysis.jsonl"
INDEX_FILE = "index.html"
GAMES_DIR = "games"

_RANK_LABEL = {"T": "10"}
#: Class names in the plural, for headings.
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def _need(module: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"the report needs {module.split('.')[0]}: pip install 'ddz-tools[report]'") from None


# Folder ----------------------------------------------------------------------------------


def prepare_folder(out: str, *, force: bool = False, resume: bool = False) -> list[GameAnalysis]:
    """Make ``out`` ready for a report; returns the analyses already in it (``resume``).

    An existing, non-empty folder is refused unless ``force`` (the report's own
    files are removed first; other files are left alone) or ``resume`` (the
    games of its ``analysis.jsonl`` are kept).
    """
    if force and resume:
        raise ArgumentError("give force or resume, not both", param=("force", "resume"))
    if os.path.exists(out) and not os.path.isdir(out):
        raise ArgumentError(f"{out} exists and is not a folder")
    if os.path.isdir(out) and os.listdir(out):
        if resume:
            data = os.path.join(out, DATA_FILE)
            if not os.path.exists(data):
                raise ArgumentError(f"{out} holds no {DATA_FILE}: it is not a report folder to resume")
            return load_results(data, repair=True)
        if not force:
            raise ArgumentError(f"{out} exists: give force to overwrite it or resume to go on with it",
                                param=("force", "resume"))
        for name in (DATA_FILE, INDEX_FILE):
            if os.path.exists(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
        shutil.rmtree(os.path.join(out, GAMES_DIR), ignore_errors=True)
    os.makedirs(os.path.join(out, GAMES_DIR), exist_ok=True)
    return []


def page_name(g: GameAnalysis) -> str:
    """The file name of a game's page: readable, and unique for each ``(file, line)``.

    >>> page_name(GameAnalysis("data/My games.jsonl", 12, "ddz-record/1", "valid"))
    'My-games-12-8301ac.html'
    """
    base = os.path.splitext(os.path.basename(g.file))[0]
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", base).strip("-.")[:40] or "game"
    digest = hashlib.sha1(f"{os.path.normpath(g.file)}\0{g.line}".encode()).hexdigest()[:6]
    return f"{slug}-{g.line}-{digest}.html"


def has_page(g: GameAnalysis) -> bool:
    """Valid games with a review get a page of their own."""
    return g.status == STATUS_VALID and bool(g.review)


# Cards -----------------------------------------------------------------------------------


def card_faces(text: str, wild: str = "") -> list[dict]:
    """Cards of a hand for drawing: ``label``, ``red`` and ``suit`` (records
    hold ranks, not suits, so a card is drawn by its rank alone: no suit is
    made up, and so no flush either; only a joker's colour is known), and
    ``wild``: a laizi, a card of one of the ranks in ``wild`` (``"9"``,
    ``"5,9"``), drawn apart.

    >>> [(c["label"], c["suit"], c["red"]) for c in card_faces("TTXD")]
    [('10', '', False), ('10', '', False), ('★', 'joker', False), ('★', 'joker', True)]
    >>> [c["wild"] for c in card_faces("899", "9")]
    [False, True, True]
    """
    out = []
    for ch in text:
        if ch in "XD":
            out.append({"label": "★", "suit": "joker", "red": ch == "D", "joker": True, "wild": False})
            continue
        out.append({"label": _RANK_LABEL.get(ch, ch), "suit": "", "red": False, "joker": False,
                    "wild": ch in wild.replace(",", "")})
    return out


def play_cards(play: str) -> str:
    """The cards of a play's notation (``333-4``, ``34569=34567``), ``""`` for a pass."""
    # Validated plays, shown only: read with the two decks' limits (a four-player bomb holds up to 8).
    return "" if play == "pass" else format_cards(play_text_cards(play, 2))


# Charts ------------------------------------------------------------------------------------


def pyplot():
    """matplotlib's pyplot set up for the project's charts: SVG output with text
    kept as text, a fixed id salt (the same chart gives the same file), small
    sans-serif type, no top and right spines."""
    mpl = _need("matplotlib")
    mpl.use("svg", force=True)
    mpl.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "ddz-tools", "font.size": 9,
                         "font.family": "sans-serif", "axes.spines.top": False, "axes.spines.right": False})
    import matplotlib.pyplot as plt
    return plt


def _svg(fig) -> str:
    """The figure as inline SVG: no XML prologue, no fixed size (CSS sizes it)."""
    plt = pyplot()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1', text, count=1)
    return text.replace("<svg", '<svg role="img" preserveAspectRatio="xMidYMid meet"', 1)


LANDLORD_COLOUR = "#c0392b"
FARMER_COLOUR = "#2471a3"
UNKNOWN_COLOUR = "#9aa0a6"
FLAG_COLOURS = {"inaccuracy": "#e6a700", "mistake": "#e67e22", "blunder": "#c0392b"}


def timeline_svg(review: dict) -> str:
    """The evaluation timeline of a review: one point per move, for the landlord's side.

    Open review: 1 when the landlord can force a win after the move, 0 when
    the farmers can, a grey point at the middle when the solver could not
    tell.  Hidden review: the advisor's win probability, turned to the
    landlord's side.  Flagged moves are ringed in their class's colour.  Each
    series is an SVG group with an ``id`` (``timeline-open``,
    ``timeline-unknown``, ``timeline-hidden``) holding one marker per point.
    """
    plt = pyplot()
    moves = review["moves"]
    n = len(moves)
    xs = [m["move"] for m in moves]
    fig, ax = plt.subplots(figsize=(9, 2.6))
    ax.axhspan(0.5, 1.02, color=LANDLORD_COLOUR, alpha=0.05, lw=0)
    ax.axhspan(-0.02, 0.5, color=FARMER_COLOUR, alpha=0.05, lw=0)
    ax.axhline(0.5, color="#cccccc", lw=0.8)
    mode = review["mode"]
    if mode in ("open", "both"):
        known = [(m["move"], _landlord_open(m)) for m in moves]
        kx = [x for x, v in known if v is not None]
        ky = [v for _, v in known if v is not None]
        ux = [x for x, v in known if v is None]
        ax.step(xs, [0.5 if v is None else v for _, v in known], where="mid", color="#555555", lw=0.8,
                alpha=0.5)
        ax.plot(kx, ky, ls="none", marker="o", ms=5, color="#333333", gid="timeline-open", label="open hands")
        ax.plot(ux, [0.5] * len(ux), ls="none", marker="o", ms=5, mfc="white", color=UNKNOWN_COLOUR,
                gid="timeline-unknown", label="open hands: unknown")
    if mode in ("hidden", "both"):
        pts = [(m["move"], _landlord_p(m)) for m in moves]
        hx = [x for x, v in pts if v is not None]
        hy = [v for _, v in pts if v is not None]
        ax.plot(hx, hy, marker=".", ms=6, color=LANDLORD_COLOUR, lw=1.2, gid="timeline-hidden",
                label="win probability (hidden cards)")
    for c in CLASSES:
        fx = [m["move"] for m in moves if m.get("flag") == c]
        if fx:
            ys = [_flag_y(m, mode) for m in moves if m.get("flag") == c]
            ax.plot(fx, ys, ls="none", marker="o", ms=11, mfc="none", mew=1.8, color=FLAG_COLOURS[c],
                    gid=f"timeline-flag-{c}", label=c)
    ax.set_xlim(0.5, max(n, 1) + 0.5)
    ax.set_ylim(-0.06, 1.06)
    ax.set_yticks([0, 0.5, 1])
    ax.set_yticklabels(["farmers win", "50%" if mode != "open" else "?", "landlord wins"])
    ax.set_xlabel("move")
    ax.grid(axis="x", color="#eeeeee", lw=0.6)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=5, frameon=False, fontsize=8)
    return _svg(fig)


def _landlord_open(m: dict) -> "float | None":
    after = m.get("open_after")
    if after in (None, "unknown"):
        return None
    return 1.0 if (after == "win") == (m["role"] == "landlord") else 0.0


def _landlord_p(m: dict) -> "float | None":
    p = m.get("p_after")
    if p is None:
        return None
    return p if m["role"] == "landlord" else 1.0 - p


def _flag_y(m: dict, mode: str) -> float:
    if mode in ("hidden", "both") and _landlord_p(m) is not None:
        return _landlord_p(m)
    v = _landlord_open(m)
    return 0.5 if v is None else v


def players_svg(rows: Sequence[dict]) -> str:
    """Index chart: per player (or role), win rate as landlord and as farmer,
    and flagged moves per game by class."""
    plt = pyplot()
    names = [r["name"] for r in rows]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 0.5 + 0.42 * max(3, len(rows))))
    ys = list(range(len(rows)))
    h = 0.38
    ll = [r["landlord_rate"] or 0 for r in rows]
    ff = [r["farmer_rate"] or 0 for r in rows]
    a1.barh([y - h / 2 for y in ys], ll, h, color=LANDLORD_COLOUR, label="as landlord")
    a1.barh([y + h / 2 for y in ys], ff, h, color=FARMER_COLOUR, label="as farmer")
    a1.set_xlim(0, 1)
    a1.set_yticks(ys)
    a1.set_yticklabels(names)
    a1.invert_yaxis()
    a1.set_title("win rate", fontsize=10)
    left = [0.0] * len(rows)
    for c in CLASSES:
        vals = [r["per_game"][c] for r in rows]
        if any(vals):
            a2.barh(ys, vals, 0.6, left=left, color=FLAG_COLOURS[c], label=PLURALS[c])
            left = [a + b for a, b in zip(left, vals)]
    a2.set_yticks(ys)
    a2.set_yticklabels([])
    a2.invert_yaxis()
    a2.set_title("flagged moves per game", fontsize=10)
    if any(left):
        a2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3, fontsize=8, frameon=False)
    a1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    return _svg(fig)


# Page models ------------------------------------------------------------------------------


def _pct(x) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def bid_names(bids: Sequence, rules: "str | None") -> list[str]:
    """How the auction's bids read: ``pass``, and under ``call-grab`` bidding
    the first 1 a ``call`` and every later 1 a ``grab`` (under ``first-call``
    a 1 is a ``call``); otherwise the bid itself.  ``bids`` are ``(seat,
    value)``, ``rules`` the game's rules as :meth:`Rules.describe` writes them.

    >>> bid_names([(0, 0), (1, 1), (2, 1), (1, 1)], "happy")
    ['pass', 'call', 'grab', 'grab']
    >>> bid_names([(0, 1), (1, 0), (2, 3)], "standard")
    ['1', 'pass', '3']
    """
    from ..core.errors import DdzError
    from ..core.rules import Rules

    try:
        bidding = Rules.parse(rules).bidding if rules else "single-round"
    except DdzError:
        bidding = "single-round"
    out, called = [], False
    for _, b in bids:
        if b == 0:
            out.append("pass")
        elif bidding == "call-grab":
            out.append("grab" if called else "call")
            called = True
        elif bidding == "first-call":
            out.append("call")
        else:
            out.append(str(b))
    return out


def _bombs(g: GameAnalysis) -> dict:
    """The bombs and rockets of a game for its pages: ``played`` (every one)
    and ``stake`` (those that raised the stake: fewer only under four-player
    ``bomb_doubles=six-plus`` or ``ladder``)."""
    stake = (g.result or {}).get("bombs") or 0
    return {"played": stake if g.bombs_played is None else g.bombs_played, "stake": stake}


def stake_against(g: GameAnalysis) -> tuple[int, int]:
    """(stake decisions reviewed, against the evaluator) of a game: its bids
    (calls, grabs), doubles and show decisions under ``--bids``, counted as
    :func:`~ddz_tools.analyze.summarize` counts them."""
    rows = [*(g.bid_review or ()), *(g.double_review or ()), *(g.show_review or ())]
    return len(rows), sum(1 for b in rows if not b.get("agrees"))


def belief_heat(b: "dict | None", by_role: dict) -> "dict | None":
    """The heat table of a flagged move's beliefs (:attr:`MoveReview.beliefs
    <ddz_tools.analysis.review.MoveReview.beliefs>`): per hidden hand the
    expected count of each rank, shaded by the count against the most a hand
    can hold of it, and the chance of a bomb and of the rocket; None
    without beliefs."""
    if not b:
        return None
    ranks = list(b["hands"][0]["expected"]) if b["hands"] else []
    rows = []
    for h in b["hands"]:
        top = max(4.0, max(h["expected"].values()))
        cells = [{"x": f"{x:.1f}" if x >= 0.05 else "", "shade": round(min(1.0, x / top), 2)}
                 for x in h["expected"].values()]
        rows.append({"who": by_role.get(h["seat"], {"name": h["seat"], "role": h["seat"]}), "cards": h["cards"],
                     "cells": cells, "bomb": h["holdings"].get("bomb"), "rocket": h["holdings"].get("rocket")})
    return {"ranks": ranks, "rows": rows, "samples": b.get("samples"), "ess": b.get("ess")}


def game_model(g: GameAnalysis) -> dict:
    """Everything the game page shows, as plain values."""
    r = g.review
    ns = len(r["hands"])       # three seats, or four under four-player rules
    roles = seat_roles(r["landlord"], ns)
    names = g.players if g.players and len(g.players) == ns else None

    def who(seat):
        role = roles[seat]
        return {"seat": seat, "role": role, "name": names[seat] if names else f"seat {seat}",
                "landlord": role == "landlord"}

    seats = [who(s) for s in range(ns)]
    wild = r.get("wild") or ""
    start = list(r["hands"])
    start[r["landlord"]] = _merge(start[r["landlord"]], r["bottom"])
    bids = [{"who": seats[s], "bid": name} for (s, _), name in zip(r["bids"], bid_names(r["bids"], g.rules))]
    moves = []
    for m in r["moves"]:
        moves.append({
            "move": m["move"], "who": seats[m["seat"]], "play": m["play"],
            "cards": card_faces(play_cards(m["play"]), wild), "hands": m["hands"],
            "counts": [len(h) for h in m["hands"]],
            "open_before": m.get("open_before"), "open_after": m.get("open_after"),
            "p_before": m.get("p_before"), "p_after": m.get("p_after"),
            "flag": m.get("flag"), "better": m.get("better") or [], "advised": m.get("advised"),
            "beliefs": belief_heat(m.get("beliefs"), {role: seats[s] for s, role in roles.items()}),
        })
    res = g.result or {}
    bid_review = {b.get("order", k): b for k, b in enumerate(g.bid_review or [])}   # by place in the auction
    double_review = {b["seat"]: b for b in g.double_review or []}
    landlord = r["landlord"]
    stake = None
    show_review = [dict(b, who=seats[b["seat"]]) for b in g.show_review or [] if "margin" in b]
    if r.get("shows") or r.get("doubles") or r.get("draws") or "show_multiple" in res or show_review:
        order = [(landlord + k) % 3 for k in (1, 2, 0)]       # the doubling order
        stake = {
            "shows": [{"who": seats[s], "stage": stage} for s, stage in r.get("shows") or []],
            "doubles": [{"who": seats[s], "factor": r["doubles"][s], "review": double_review.get(s)}
                        for s in order] if r.get("doubles") else [],
            "draws": [{"from": seats[s], "card": card_faces(c, wild)} for s, c in r.get("draws") or []],
            "show_multiple": res.get("show_multiple", 1), "bottom_bonus": res.get("bottom_bonus", 1),
            "reviewed": bool(double_review),
            "show_review": show_review, "show_samples": max((b.get("samples") or 0 for b in show_review), default=0),
        }
    return {
        "title": g.id or f"{os.path.basename(g.file)}:{g.line}",
        "where": f"{g.file}:{g.line}" if g.line else g.file,
        "rules": g.rules, "wild": wild, "mode": r["mode"], "seats": seats,
        "deal": [{"who": seats[s], "cards": card_faces(r["hands"][s], wild), "count": len(r["hands"][s])}
                 for s in range(ns)],
        "bottom": card_faces(r["bottom"], wild), "landlord_start": card_faces(start[r["landlord"]], wild),
        "bids": bids, "bid_review": bid_review, "moves": moves, "stake": stake,
        "flagged": [m for m in moves if m["flag"]],
        "timeline": timeline_svg(r),
        "result": res, "winner": res.get("winner"), "bombs": _bombs(g),
        "stake_decisions": stake_against(g),
        "scores": [{"who": seats[s], "score": sc} for s, sc in enumerate(res.get("scores") or [])],
        "stats": [{"who": seats[s], **r["seats"][s]} for s in range(ns)],
        "node_limit": r.get("node_limit"), "positions": r.get("positions"), "unknown": r.get("unknown"),
        "seconds": r.get("seconds"), "notes": g.notes, "thresholds": HIDDEN_THRESHOLDS,
        "classes": CLASSES if r["mode"] != "open" else ("mistake",), "plurals": PLURALS,
    }


def _merge(a: str, b: str) -> str:
    from ..core.cards import format_cards, parse_cards

    return format_cards(parse_cards(a, 2) + parse_cards(b, 2))   # a validated hand and bottom, as above


def _player_rows(s: dict, slim: Sequence[dict]) -> list[dict]:
    """Rows of the index's player table: per named player, else per role."""
    rows = []
    if s["players"]:
        for name, p in s["players"].items():
            rev = p.get("review") or {}
            rows.append(_row(name, p["games"], p["landlord_games"], p["landlord_wins"], p["wins"] - p["landlord_wins"],
                             rev, p["bids_reviewed"], p["bids_agreeing"], p["score"],
                             (p.get("stake_decisions", 0), p.get("stake_against", 0))))
        return rows
    by_role: dict = {}
    for g in slim:
        if g["status"] != STATUS_VALID or not g.get("result"):
            continue
        ns = len(g["result"].get("scores") or [0, 0, 0])
        roles = seat_roles(g["landlord"], ns)
        won_ll = g["result"]["winner"] == "landlord"
        for seat in range(ns):
            role = roles[seat]
            acc = by_role.setdefault(role, {"games": 0, "ll": 0, "llw": 0, "fw": 0, "review": _zero(),
                                            "bids": 0, "agree": 0, "score": 0, "stake": 0, "against": 0})
            acc["games"] += 1
            acc["ll"] += role == "landlord"
            acc["llw"] += role == "landlord" and won_ll
            acc["fw"] += role != "landlord" and not won_ll
            acc["score"] += (g["result"].get("scores") or [0] * ns)[seat]
            if g.get("seats"):
                acc["review"]["games"] += 1
                for c in CLASSES + ("moves", "unknown"):
                    acc["review"][c] += g["seats"][seat][c]
            for b in g.get("bid_review") or []:
                if b["seat"] == seat:
                    acc["bids"] += 1
                    acc["agree"] += bool(b.get("agrees"))
            for s_, agrees in g.get("stake_rows") or []:
                if s_ == seat:
                    acc["stake"] += 1
                    acc["against"] += not agrees
    for role in ("landlord", "farmer1", "farmer2", "farmer3"):
        if role in by_role:
            a = by_role[role]
            rows.append(_row(role, a["games"], a["ll"], a["llw"], a["fw"], a["review"], a["bids"], a["agree"],
                             a["score"], (a["stake"], a["against"])))
    return rows


def _zero() -> dict:
    d = {c: 0 for c in CLASSES}
    d.update(games=0, moves=0, unknown=0)
    return d


def _row(name, games, ll_games, ll_wins, f_wins, rev, bids, agree, score, stake=(0, 0)) -> dict:
    fgames = games - ll_games
    rgames = rev.get("games") or 0
    return {
        "name": name, "games": games, "landlord_games": ll_games, "landlord_wins": ll_wins,
        "farmer_games": fgames, "farmer_wins": f_wins,
        "landlord_rate": ll_wins / ll_games if ll_games else None,
        "farmer_rate": f_wins / fgames if fgames else None,
        "per_game": {c: (rev.get(c, 0) / rgames if rgames else 0.0) for c in CLASSES},
        "moves": rev.get("moves", 0), "unknown": rev.get("unknown", 0),
        "mean_prob_lost": rev.get("mean_prob_lost"),
        "bids": bids, "bids_agreeing": agree, "score": score,
        "stake_decisions": stake[0], "stake_against": stake[1],
    }


def _slim(g: GameAnalysis, page: "str | None") -> dict:
    """What the index keeps of a game (the moves are dropped)."""
    r = g.review or {}
    flags = {c: sum(s[c] for s in r["seats"]) for c in CLASSES} if r else None
    return {"file": g.file, "line": g.line, "id": g.id, "status": g.status, "players": g.players,
            "landlord": g.landlord, "result": g.result, "reason": g.describe() if g.status in
            (STATUS_INVALID, STATUS_INCOMPLETE) else None, "page": page, "flags": flags,
            "seats": r.get("seats"), "unknown": r.get("unknown"), "positions": r.get("positions"),
            "bid_review": g.bid_review, "deal": g.deal, "moves": len(r.get("moves") or []),
            "mode": r.get("mode"), "stake": stake_against(g),
            "stake_rows": [(b["seat"], bool(b.get("agrees")))
                           for b in (*(g.bid_review or ()), *(g.double_review or ()), *(g.show_review or ()))]}


# Writing -----------------------------------------------------------------------------------


def template_env():
    """The Jinja2 environment of the pages: the templates of
    ``ddz_tools/analysis/templates``, HTML escaped, undefined names an error,
    the ``pct`` filter."""
    jinja2 = _need("jinja2")
    env = jinja2.Environment(loader=jinja2.PackageLoader("ddz_tools.analysis", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["pct"] = _pct
    return env


def render_page(env, path: str, template: str, **ctx) -> None:
    """Render ``template`` with ``ctx`` to ``path``, written whole or not at all."""
    html = env.get_template(template).render(**ctx)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(html)
    os.replace(tmp, path)


class ReportWriter:
    """Writes a report folder game by game; :meth:`close` writes the index.

    >>> import tempfile
    >>> w = ReportWriter(os.path.join(tempfile.mkdtemp(), "r"))
    >>> w.add(GameAnalysis("x.jsonl", 3, "ddz-record/1", "invalid", reason="bad card Z", move=2))
    >>> os.path.basename(w.close())
    'index.html'
    """

    def __init__(self, out: str, *, force: bool = False, resume: bool = False, title: str = "Game review"):
        self.env = template_env()
        self.out = out
        self.title = title
        self.previous = prepare_folder(out, force=force, resume=resume)
        self._games: list = []        # every analysis seen, slim, in order
        self._sum_input: list = []    # analyses without their moves, for summarize()
        self._data = open(os.path.join(out, DATA_FILE), "a", encoding="utf-8")
        for g in self.previous:
            self._remember(g, write_page=not os.path.exists(self._page_path(g)))

    @property
    def done(self) -> set:
        """``(file, line)`` of the games already in the report."""
        return {(g["file"], g["line"]) for g in self._games}

    def _page_path(self, g: GameAnalysis) -> str:
        return os.path.join(self.out, GAMES_DIR, page_name(g))

    def _remember(self, g: GameAnalysis, write_page: bool = True) -> None:
        page = None
        if has_page(g):
            page = f"{GAMES_DIR}/{page_name(g)}"
            if write_page:
                self._write(self._page_path(g), "game.html.j2", game=game_model(g))
        self._games.append(_slim(g, page))
        light = GameAnalysis.from_dict(g.to_dict())
        if light.review:
            light.review = {k: v for k, v in light.review.items() if k != "moves"}
        self._sum_input.append(light)

    def add(self, g: GameAnalysis) -> None:
        """Write a game's page and its analysis line."""
        self._remember(g)
        self._data.write(json.dumps(g.to_dict(), separators=(",", ":"), ensure_ascii=False) + "\n")
        self._data.flush()

    def _write(self, path: str, template: str, **ctx) -> None:
        render_page(self.env, path, template, **ctx)

    def close(self) -> str:
        """Write ``index.html``; returns its path."""
        self._data.close()
        s = summarize(self._sum_input)
        rows = _player_rows(s, self._games)
        games = [g for g in self._games if g["page"]]
        bad = [g for g in self._games if g["status"] in (STATUS_INVALID, STATUS_INCOMPLETE)]
        deals = [g for g in self._games if g["status"] == STATUS_DEAL]
        other = [g for g in self._games if g["status"] == STATUS_VALID and not g["page"]]
        path = os.path.join(self.out, INDEX_FILE)
        hidden = any(g["mode"] in ("hidden", "both") for g in self._games if g["mode"])
        self._write(path, "index.html.j2", title=self.title, summary=s, players=rows,
                    by_role=not s["players"], chart=players_svg(rows) if rows else None, games=games,
                    bad=bad, deals=deals, other=other, classes=CLASSES if hidden else ("mistake",),
                    plurals=PLURALS, hidden=hidden, stake=s["stake_decisions"] > 0)
        return path


def write_report(paths: Iterable[str], out: str, *, force: bool = False, resume: bool = False,
                 review: str = "open", progress: "Callable[[int, int], None] | None" = None,
                 on_game: "Callable[[GameAnalysis], None] | None" = None, **analyze_options) -> dict:
    """Analyse and review every game of ``paths`` and write the report folder ``out``.

    ``analyze_options`` are those of :func:`ddz_tools.analysis.analyze.analyze_files`
    (rules, workers, scheduler, node limits, bids, seed, ...); ``on_game`` is
    called with each new analysis.  Returns ``{"index": path, "games": n,
    "new": n, "invalid": n, "summary": {...}}``.
    """
    writer = ReportWriter(out, force=force, resume=resume)
    new = bad = 0
    try:
        for g in analyze_files(paths, review=review, skip=writer.done, progress=progress, **analyze_options):
            writer.add(g)
            new += 1
            bad += g.status == STATUS_INVALID
            if on_game is not None:
                on_game(g)
    finally:
        index = writer.close()
    return {"index": index, "games": len(writer._games), "new": new, "resumed": len(writer.previous),
            "invalid": sum(g["status"] == STATUS_INVALID for g in writer._games)}
