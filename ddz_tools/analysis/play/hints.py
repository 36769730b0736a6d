"""The player's helpers at a decision: ``hint``, ``why PLAY`` and ``solve``.

In the play, :func:`hint` is the advisor's answer
(:func:`~ddz_tools.analysis.advise.advise` on the player's own view: every
candidate's win probability and expected score over deals of the hidden
cards); in the auction and the stake stages it is ``ddz bid``'s evaluator of
the decision (:func:`~ddz_tools.analysis.bid.evaluate_bid`,
:func:`~ddz_tools.analysis.bid.evaluate_call`,
:func:`~ddz_tools.analysis.bid.evaluate_double`,
:func:`~ddz_tools.analysis.bid.evaluate_show`).  :func:`why` says how one
answer fares on the same figures.  :func:`solve` is the exact open-hand
solver once every hand is small: the truth with every card shown, which the
player cannot see.  Each is computed once per decision (:class:`Helper`).
"""

from __future__ import annotations

from tabulate import tabulate

from ...core.errors import DdzError, IllegalAction
from ...core.rules import Play, has_fixed_reading, play_text_cards
from ...engines.records import record_from_game
from ...engines.solver import solve as solve_position
from ..advise import advise, game_view
from ..bid import DOUBLE_SEATS, evaluate_bid, evaluate_call, evaluate_double, evaluate_show, record_flush
from ..review import position_of

__all__ = ["SOLVE_BELOW", "Helper", "advice_lines", "verdict_lines"]

#: ``solve`` answers once every hand holds at most this many cards (as
#: ``ddz analyze`` starts its mistake search).
SOLVE_BELOW = 10
#: Candidates a hint lists (the rest are counted).
HINT_ROWS = 12


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def advice_lines(a, limit: int = HINT_ROWS) -> list:
    """The advisor's table of candidates and its recommendation."""
    how = "exact: nothing hidden" if a.exact else f"{a.samples} deals of the hidden cards"
    rows = [(c.play, _pct(c.win_prob), f"[{_pct(c.win_ci[0])}, {_pct(c.win_ci[1])}]", f"{c.expected_score:+.2f}")
            for c in a.candidates[:limit]]
    out = [f"advisor ({how}, {a.seconds:.1f} s):"]
    out += tabulate(rows, headers=["play", "win", "95% interval", "E[score]"], tablefmt="simple",
                    disable_numparse=True).splitlines()
    if len(a.candidates) > limit:
        out.append(f"... and {len(a.candidates) - limit} more")
    out.append(f"hint: {a.recommendation}")
    return out


def verdict_lines(ev, what: str) -> list:
    """An evaluator's table of choices (legal ones) and its recommendation."""
    rows = []
    for name, r in ev.choices.items():
        if not getattr(r, "legal", True):
            continue
        win = getattr(r, "win_prob", None)
        rows.append((name, f"{r.expected_score:+.3f}", f"[{r.score_ci[0]:+.2f}, {r.score_ci[1]:+.2f}]",
                     _pct(win) if win is not None else "-"))
    out = [f"{what} evaluator ({ev.samples} deals played out by the heuristic):"]
    out += tabulate(rows, headers=["choice", "E[score]", "95% interval", "win"], tablefmt="simple",
                    disable_numparse=True).splitlines()
    out.append(f"hint: {ev.recommendation}")
    return out


class Helper:
    """The hints of one session, computed once per decision."""

    def __init__(self, session):
        self.s = session
        self._cache: dict = {}

    def _key(self) -> tuple:
        s = self.s
        return s.index, s.redeals, len(s.actions)

    def _seed(self) -> int:
        s = self.s
        return (s.options.seed * 1_000_003 + s.index * 1009 + len(s.actions)) & 0x7FFFFFFF

    def evaluation(self):
        """The advice (play) or the evaluator's verdict (the other decisions)
        for the player's decision now; raises a one-line
        :class:`~ddz_tools.core.errors.DdzError` when there is none."""
        d = self.s.decision()
        if d is None:
            raise IllegalAction("not_your_turn", "no decision of yours to help with now")
        key = self._key()
        if key not in self._cache:
            self._cache = {key: self._evaluate(d)}
        return self._cache[key]

    def _evaluate(self, d):
        s, g = self.s, self.s.game
        o = s.options
        seat = s.seat
        n = s.variant.seats
        common = dict(samples=o.bid_samples, seed=self._seed(), workers=1, rules=g.rules)
        if d.kind == "play":
            return advise(game_view(g), samples=o.hint_samples, seed=self._seed(), workers=1)
        place = (seat - g.first_bidder) % n
        if d.kind == "bid":
            return evaluate_bid(g.hands[seat], seat=place, before=tuple(v for _, v in g.bids), **common)
        if d.kind == "call":
            return evaluate_call(g.hands[seat], place, tuple(v for _, v in g.bids), **common)
        if d.kind == "show-deal":
            return evaluate_show(g.hands[seat], f"deal:{len(g.hand(seat))}", seat=place, **common)
        flush = record_flush(record_from_game(g))
        order = [(g.landlord + r) % n for r in (1, 2, 0)]
        if d.kind == "double":
            k = order.index(seat)
            return evaluate_double(g.hands[seat], g.bottom, DOUBLE_SEATS[k], [g.doubles[t] for t in order[:k]],
                                   g.base, flush=flush, **common)
        shown = tuple(st for t, st in g.state().shows if t != seat)
        return evaluate_show(g.hands[seat], "first-play", before=[g.doubles[t] for t in order], bottom=g.bottom,
                             base=g.base, shown=shown, flush=flush, **common)

    def hint(self) -> list:
        """The lines of ``hint``."""
        ev = self.evaluation()
        if self.s.decision().kind == "play":
            return advice_lines(ev)
        return verdict_lines(ev, {"bid": "bid", "call": "call", "double": "double"}.get(self.s.decision().kind,
                                                                                       "show"))

    def why(self, answer: str) -> list:
        """The lines of ``why ANSWER``: how that answer fares, beside the best."""
        d = self.s.decision()
        if not answer:
            raise IllegalAction("bad_why", "why what? give a play (why 33) or a choice (why pass)")
        ev = self.evaluation()
        if d.kind == "play":
            return self._why_play(ev, answer)
        key = answer.strip().lower()
        key = {"0": "pass", "p": "pass", "yes": "show", "y": "show", "n": "no"}.get(key, key)
        if d.kind == "double" and key.isdigit():
            key = "x" + key
        r = ev.choices.get(key)
        if r is None or not getattr(r, "legal", True):
            raise IllegalAction("bad_why", f"{answer!r} is not a choice here: {', '.join(d.options)}")
        best = ev.choices[ev.recommendation]
        gap = best.expected_score - r.expected_score
        line = f"{key}: expected score {r.expected_score:+.3f} [{r.score_ci[0]:+.2f}, {r.score_ci[1]:+.2f}]"
        if key == ev.recommendation:
            return [line, "the evaluator's choice"]
        return [line, f"the evaluator prefers {ev.recommendation} ({best.expected_score:+.3f}, {gap:.3f} more)"]

    def _why_play(self, a, answer: str) -> list:
        g = self.s.game
        text = answer.strip()
        if text.lower() in ("pass", "p", "-"):
            names = ["pass"]
        else:
            try:
                if has_fixed_reading(text):
                    names = [Play.parse(text, g.rules, g.hands[self.s.seat]).notation(g.rules)]
                else:
                    cards = play_text_cards(text, _decks(g))
                    names = [c.play for c in a.candidates if c.play != "pass"
                             and play_text_cards(c.play, _decks(g)) == cards]
            except DdzError as exc:
                raise IllegalAction("bad_why", f"why {text}: {exc}") from None
        rows = [c for c in a.candidates if c.play in names]
        if not rows:
            raise IllegalAction("bad_why", f"{text} is not a legal play here")
        best = a.candidates[0]
        out = []
        for c in rows:
            rank = a.candidates.index(c) + 1
            out.append(f"{c.play}: win {_pct(c.win_prob)} [{_pct(c.win_ci[0])}, {_pct(c.win_ci[1])}], "
                       f"E[score] {c.expected_score:+.2f}; rank {rank} of {len(a.candidates)}")
        if best not in rows:
            out.append(f"the advisor plays {best.play}: win {_pct(best.win_prob)}, "
                       f"E[score] {best.expected_score:+.2f}")
        return out

    def solve(self) -> list:
        """The lines of ``solve``: the open-hand value of the position for the
        player, once every hand holds at most :data:`SOLVE_BELOW` cards."""
        s, g = self.s, self.s.game
        d = s.decision()
        if d is None or d.kind != "play":
            raise IllegalAction("bad_solve", "solve answers in the play, at your turn")
        most = max(len(g.hand(t)) for t in range(s.variant.seats))
        if most > SOLVE_BELOW:
            raise IllegalAction("bad_solve", f"solve answers once every hand holds at most {SOLVE_BELOW} cards "
                                             f"(the largest holds {most})")
        key = ("solve",) + self._key()
        if key not in self._cache:
            self._cache[key] = solve_position(position_of(g.state(), g.rules), all_plays=True,
                                              node_limit=s.options.solve_nodes, time_limit=30.0)
        r = self._cache[key]
        out = ["open-hand truth (every hand shown, which you cannot see; the farmers play as one team):"]
        if r.result == "win":
            out.append(f"you can force a win: winning plays {', '.join(p or 'pass' for p in r.winning_plays)}")
            if r.line:
                out.append("a winning line: " + " ".join(p or "pass" for p in r.line))
        elif r.result == "loss":
            out.append("lost whatever you play, if the other side plays its best")
        else:
            out.append(f"unknown: the solver stopped ({r.stopped}) after {r.nodes} nodes")
        return out


def _decks(g) -> int:
    """The decks of the game's table."""
    return g.variant.table.decks
