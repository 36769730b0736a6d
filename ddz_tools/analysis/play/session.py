"""One seat at the table: the game stepped from the deal to the settlement,
the bots in the other seats, undo, and the game saved and resumed.

A :class:`Session` holds a :class:`~ddz_tools.engines.game.Game` and the log
of every action taken in it (shows, bids, draws, doubles, plays).  The game is
the engine's: every rule (whose turn, what is legal, the stake, the score)
is its answer, and an illegal action is its
:class:`~ddz_tools.core.errors.IllegalAction`.  :meth:`Session.advance` lets
the bots act until the player must decide (:class:`Decision`) or the game is
over; :meth:`Session.act` takes the player's action; :meth:`Session.undo`
takes back the player's last decision (the game is rebuilt from its deal and
the log, so the bots, deterministic, act as before).

Every random thing is seeded by the session's seed: the deal of game ``k``
(and of its redeals when every seat passes), the advisor bots' deals, the
cards the landlord draws.  A game is saved as one ``ddz-record/1`` line
(:meth:`Session.record`) whose extra ``play`` field says who sat where;
:func:`resume` reads a file of them back and goes on with the last game.

>>> s = Session(PlayOptions(rules="standard", seat=0, seed=3))
>>> d = s.advance()
>>> d.kind, d.seat, d.options
('bid', 0, ('pass', '1', '2', '3'))
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Iterator

from ...core._jit import interpreted
from ...core.cards import format_cards
from ...core.errors import ArgumentError, DdzError, IllegalAction, RecordError
from ...core.gamerules import SHOW_FIRST_PLAY, show_factor
from ...core.rules import Play, Rules
from ...engines.game import BIDDING, DOUBLING, DRAWING, FINISHED, PLAYING, REDEAL, Game, show_stage_code
from ...engines.records import parse_record, record_from_game, record_lines, record_to_dict
from ...variants import variant_of
from .bots import Bot, parse_opponents

__all__ = ["PlayOptions", "Decision", "Event", "Session", "resume", "read_match", "PLAYER_NAME"]

_show_factor = interpreted(show_factor)

#: The name of the player's seat in the records.
PLAYER_NAME = "you"


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    """How a session plays: the rules, the player's seat, the bots, the seed
    and the budgets of the hints and of the review."""

    rules: str = "standard"
    #: The player's seat (0 .. seats-1).
    seat: int = 0
    #: ``heuristic``, ``advisor`` or ``advisor:N`` (N deals a decision).
    opponents: str = "heuristic"
    seed: int = 0
    #: Most deals of a hint in the play (the advisor's ``samples``).
    hint_samples: int = 128
    #: Most samples of a hint in the auction and the stake stages (``ddz bid``'s).
    bid_samples: int = 1000
    #: The exact solver's node budget of ``solve`` and of the review per position.
    solve_nodes: int = 2_000_000
    review_nodes: int = 20_000

    def checked(self) -> "PlayOptions":
        """These options, checked: an :class:`~ddz_tools.core.errors.ArgumentError`
        names the first that is wrong."""
        rules = Rules.parse(self.rules)
        seats = variant_of(rules).seats
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or not 0 <= self.seat < seats:
            raise ArgumentError(f"seat must be 0 to {seats - 1} under rules {rules.describe()}, not {self.seat!r}",
                                param="seat")
        parse_opponents(self.opponents)
        for name in ("hint_samples", "bid_samples", "solve_nodes", "review_nodes"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ArgumentError(f"{name} must be an integer >= 1, not {v!r}", param=name)
        return self


@dataclasses.dataclass(frozen=True)
class Decision:
    """What the player must decide now: ``kind`` is ``show-deal`` (show the
    hand before the bidding), ``bid``, ``call``, ``double``, ``show`` (the
    landlord, before his first play) or ``play``; ``options`` the legal
    answers as typed (every legal play is too many: for ``play`` only
    ``pass`` when the player may pass)."""

    kind: str
    seat: int
    options: tuple
    prompt: str


@dataclasses.dataclass(frozen=True)
class Event:
    """One action taken at the table (by a bot, the player, or the deal)."""

    seat: "int | None"
    kind: str
    text: str


# The log: (kind, seat, value), kind one of these.
_SHOW, _NO_SHOW, _BID, _DRAW, _DOUBLE, _PLAY = "show", "no-show", "bid", "draw", "double", "play"


def _apply(g: Game, action: tuple) -> None:
    kind, seat, value = action
    if kind == _SHOW:
        g.show(value, seat)
    elif kind == _BID:
        g.bid(value, seat)
    elif kind == _DRAW:
        g.draw(value, seat)
    elif kind == _DOUBLE:
        g.double(value, seat)
    elif kind == _PLAY:
        g.play(value, seat)


class Session:
    """A match at one table: the player in one seat, bots in the others, one
    game after another (see the module doc)."""

    def __init__(self, options: PlayOptions = PlayOptions(), game: int = 0, match: "list | None" = None,
                 deal: "tuple | None" = None):
        self.options = options.checked()
        self.base_rules = Rules.parse(options.rules)
        self.variant = variant_of(self.base_rules)
        self.seat = options.seat
        self.bot = Bot(options.opponents, options.seed)
        #: The index of the game in the match (0 first).
        self.index = game
        #: The finished games' scores, by seat, one tuple a game.
        self.match: list = list(match or [])
        self.redeals = 0
        self.new_game(game)
        if deal is not None:
            self.set_deal(*deal)

    # The deal ------------------------------------------------------------------------------
    def _rng(self, what: str) -> random.Random:
        return random.Random(f"ddz-play/{self.options.seed}/{self.index}/{self.redeals}/{what}")

    def new_game(self, index: "int | None" = None) -> None:
        """Deal game ``index`` (default: the next one) of the match."""
        if index is not None:
            self.index = index
        elif getattr(self, "game", None) is not None:
            self.index += 1
        self.redeals = 0
        self._deal(self.index % self.variant.seats)

    def _deal(self, first_bidder: int) -> None:
        g = Game(rules=self.base_rules, first_bidder=first_bidder, rng=self._rng("deal"))
        self._start = dict(hands=list(g.hand_ids) if g.hand_ids else list(g.dealt),
                           bottom=g.bottom_ids if g.bottom_ids is not None else g.bottom,
                           wild=g.wild or None, first_bidder=first_bidder)
        self.actions: list = []
        self.game = g
        self.events: list = [Event(None, "deal", f"game {self.index + 1}: cards dealt, seat {first_bidder} "
                                                 f"{'calls' if self.variant.stake.auction == 'call' else 'bids'} "
                                                 f"first")]

    def set_deal(self, hands, bottom, first_bidder: "int | None" = None, wild=None) -> None:
        """Play this deal (the hands by seat and the bottom, as
        :class:`~ddz_tools.engines.game.Game` takes them) instead of the dealt one."""
        fb = self.game.first_bidder if first_bidder is None else first_bidder
        self._start = dict(hands=list(hands), bottom=bottom, wild=wild, first_bidder=fb)
        self.actions = []
        self.game = self._rebuild()

    def _rebuild(self) -> Game:
        s = self._start
        g = Game(hands=s["hands"], bottom=s["bottom"], rules=self.base_rules, first_bidder=s["first_bidder"],
                 wild=s["wild"])
        for a in self.actions:
            _apply(g, a)
        return g

    # Whose decision ------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.phase == FINISHED

    def _asked(self, seat: int, stage: str) -> bool:
        return any(k in (_SHOW, _NO_SHOW) and s == seat and (v == stage) for k, s, v in self.actions)

    def _deal_show_stage(self) -> "str | None":
        """The stage at which the player may show his dealt hand before the
        bidding (all its cards dealt), None when the rules have no such show."""
        g = self.game
        n = self.variant.table.hand_cards
        if g.phase != BIDDING or g.bids or not self.variant.stake.shows or self._asked(self.seat, f"deal:{n}"):
            return None
        if any(s == self.seat for s, _ in g.shows):
            return None
        return f"deal:{n}" if _show_factor(g.base_rules.stage_flags, n, 0) else None

    def _first_play_show(self, seat: int) -> bool:
        """The landlord ``seat`` is about to make his first play and may show his hand first."""
        g = self.game
        return (g.phase == PLAYING and seat == g.landlord and g.turn == seat and not g.played[seat]
                and seat not in g.shown and self.variant.stake.shows and not self._asked(seat, "first-play")
                and _show_factor(g.base_rules.stage_flags, SHOW_FIRST_PLAY, 1) != 0)

    def decision(self) -> "Decision | None":
        """The player's decision now, or None when a bot (or the deal) acts next or the game is over."""
        g = self.game
        stage = self._deal_show_stage()
        if stage is not None:
            f = _show_factor(g.base_rules.stage_flags, show_stage_code(stage), 0)
            return Decision("show-deal", self.seat, ("show", "no"), f"show your hand before the bidding (x{f})?")
        if g.turn != self.seat or g.phase in (FINISHED, REDEAL, DRAWING):
            return None
        if g.phase == BIDDING:
            if self.variant.stake.auction == "call":
                what = "call" if g.auction.caller is None else "grab"
                opts = tuple("pass" if v == 0 else what for v in g.legal_bids())
                return Decision("call", self.seat, opts, f"{what} or pass?")
            opts = tuple("pass" if v == 0 else str(v) for v in g.legal_bids())
            return Decision("bid", self.seat, opts, f"your bid ({', '.join(opts)})?")
        if g.phase == DOUBLING:
            opts = tuple(f"x{f}" for f in g.legal_doubles())
            return Decision("double", self.seat, opts, f"double ({', '.join(opts)})?")
        if self._first_play_show(self.seat):
            f = _show_factor(g.base_rules.stage_flags, SHOW_FIRST_PLAY, 1)
            return Decision("show", self.seat, ("show", "no"), f"show your hand before your first play (x{f})?")
        return Decision("play", self.seat, ("pass",) if g.last_play is not None else (),
                        "your lead?" if g.last_play is None else "your play (or pass)?")

    # Stepping ------------------------------------------------------------------------------
    def advance(self) -> "Decision | None":
        """Let the bots (and the deal) act until the player must decide:
        that :class:`Decision`, or None once the game is over.  What they did
        is added to :attr:`events` (see :meth:`take_events`)."""
        for _ in self.steps():
            pass
        return self.decision()

    def steps(self) -> Iterator[Event]:
        """:meth:`advance` one action at a time: yield each bot's action as it is taken."""
        while True:
            if self.decision() is not None or self.finished:
                return
            g = self.game
            if g.phase == REDEAL:
                self.redeals += 1
                pending = self.events
                self._deal((self.game.first_bidder + 1) % self.variant.seats)
                ev = Event(None, "deal", f"every seat passed: the cards are dealt again, seat "
                                         f"{self.game.first_bidder} first")
                self.events = pending + [ev]
                yield ev
                continue
            if g.phase == DRAWING:
                farmer = g.turn
                cards = _single_cards(g.hands[farmer])
                card = cards[self._rng(f"draw{len(self.actions)}").randrange(len(cards))]
                yield self._do((_DRAW, farmer, card), by=g.landlord)
                continue
            seat = g.turn
            if self._first_play_show(seat):
                show = self.bot.shows(g, seat)
                yield self._do((_SHOW, seat, "first-play") if show else (_NO_SHOW, seat, "first-play"))
                continue
            yield self._do(self.bot.action(g, seat, len(self.actions), self.index))

    def _do(self, action: tuple, by: "int | None" = None) -> Event:
        g = self.game
        kind, seat, value = action
        played = None
        if kind == _PLAY:
            played = g.play(value, seat)
            action = (kind, seat, played)
        else:
            _apply(g, action)
        self.actions.append(action)
        ev = Event(seat if by is None else by, kind, self.action_text(action, played))
        self.events.append(ev)
        if g.phase == FINISHED:
            self.match.append(tuple(g.result.scores))
            self.events.append(Event(None, "end", self.result_text()))
        return ev

    def take_events(self) -> list:
        """The events since the last call (what the screen has not shown yet)."""
        out, self.events = self.events, []
        return out

    # The player's actions -------------------------------------------------------------------
    def act(self, answer) -> Event:
        """Take the player's answer to :meth:`decision`: the option as typed
        (``pass``, ``2``, ``call``, ``x2``, ``show``, ``no``), or for a play
        its text or a :class:`~ddz_tools.core.rules.Play`.  An illegal answer
        raises :class:`~ddz_tools.core.errors.IllegalAction` (the game is
        unchanged)."""
        d = self.decision()
        if d is None:
            raise IllegalAction("not_your_turn", "it is not your turn" if not self.finished else "the game is over")
        g = self.game
        text = answer.strip().lower() if isinstance(answer, str) else answer
        if d.kind in ("show-deal", "show"):
            if text not in ("show", "yes", "y", "no", "n"):
                raise IllegalAction("bad_show", f"answer show or no, not {answer!r}")
            stage = f"deal:{self.variant.table.hand_cards}" if d.kind == "show-deal" else "first-play"
            return self._do((_SHOW if text in ("show", "yes", "y") else _NO_SHOW, self.seat, stage))
        if d.kind in ("bid", "call"):
            words = {"pass": 0, "p": 0}
            if d.kind == "call":
                words.update({"call": 1, "grab": 1})
            value = words.get(text, text)
            if isinstance(value, str) and value.isdigit():
                value = int(value)
            if value not in g.legal_bids():
                raise IllegalAction("bad_bid", f"{answer!r} is not a {d.kind} here: answer {', '.join(d.options)}")
            return self._do((_BID, self.seat, value))
        if d.kind == "double":
            value = text[1:] if isinstance(text, str) and text.startswith("x") else text
            if not (isinstance(value, str) and value.isdigit() and int(value) in g.legal_doubles()):
                raise IllegalAction("bad_double", f"{answer!r} is not a double here: answer {', '.join(d.options)}")
            return self._do((_DOUBLE, self.seat, int(value)))
        try:
            return self._do((_PLAY, self.seat, answer))
        except IllegalAction as exc:
            raise IllegalAction(exc.code, _as_player(str(exc), self.seat)) from None

    def undo(self) -> bool:
        """Take back the player's last decision and all that followed (the bots
        then act as before); False when there is none in this deal."""
        mine = [i for i, (k, s, _) in enumerate(self.actions) if s == self.seat and k != _DRAW]
        if not mine:
            return False
        del self.actions[mine[-1]:]
        if self.match and self.finished:
            self.match.pop()
        self.game = self._rebuild()
        self.events = []
        return True

    # Texts ---------------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        """A seat as the screen names it: ``you`` or ``seat 1``, with its role once known."""
        role = self.game.role(seat)
        who = "you" if seat == self.seat else f"seat {seat}"
        return f"{who} ({role})" if role else who

    def action_text(self, action: tuple, played: "Play | None" = None) -> str:
        kind, seat, value = action
        who = self.name(seat)
        g = self.game
        if kind == _SHOW:
            return f"{who} shows {'your' if seat == self.seat else 'its'} hand ({value}): {g.hand(seat)}"
        if kind == _NO_SHOW:
            return f"{who} does not show"
        if kind == _BID:
            if self.variant.stake.auction == "call":
                earlier = [b for s, b in g.bids[:-1] if b]
                word = "pass" if value == 0 else ("call" if not earlier else "grab")
                return f"{who}: {word}"
            return f"{who}: {'pass' if value == 0 else 'bid ' + str(value)}"
        if kind == _DRAW:
            secret = self.seat not in (seat, g.landlord)
            return f"the landlord draws {'a card' if secret else format_cards(value)} from {self.name(seat)}"
        if kind == _DOUBLE:
            return f"{who}: x{value}"
        p = played if played is not None else value
        return f"{who}: {'pass' if p.is_pass else p.notation(g.rules)}"

    def result_text(self) -> str:
        r = self.game.result
        mine = r.scores[self.seat]
        side = "the landlord wins" if r.winner == "landlord" else "the farmers win"
        won = (r.winner == "landlord") == (self.seat == r.landlord)
        extra = [w for w, on in (("spring", r.spring), ("anti-spring", r.anti_spring)) if on]
        doubles = f", doubles {'/'.join(f'x{d}' for d in r.doubles)}" if r.staged else ""
        return (f"{side}{' (' + ', '.join(extra) + ')' if extra else ''}: you "
                f"{'win' if won else 'lose'} {abs(mine)} (base {r.base} x {r.multiplier}{doubles})")

    def match_scores(self) -> tuple:
        """Each seat's total over the finished games of the match."""
        n = self.variant.seats
        return tuple(sum(s[i] for s in self.match) for i in range(n))

    # Saving --------------------------------------------------------------------------------
    def record(self) -> dict:
        """The game as a ``ddz-record/1`` object (finished or not), with the
        session in its extra ``play`` field."""
        g = self.game
        players = [PLAYER_NAME if s == self.seat else self.bot.name for s in range(self.variant.seats)]
        d = record_to_dict(record_from_game(g, id=f"play-{self.options.seed}-{self.index + 1}", players=players))
        o = self.options
        d["play"] = {"seat": self.seat, "opponents": o.opponents, "seed": o.seed, "game": self.index,
                     "redeals": self.redeals, "doubles": list(g.doubles) if self.variant.stake.doubles else None,
                     "no_show": [[s, v] for k, s, v in self.actions if k == _NO_SHOW]}
        return d

    def save(self, path: str, earlier: "list | None" = None) -> None:
        """Write the match to ``path``: the ``earlier`` records (the finished
        games, as dicts) and this game, one ``ddz-record/1`` line each."""
        lines = [json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in (earlier or [])]
        lines.append(json.dumps(self.record(), separators=(",", ":"), ensure_ascii=False))
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def _single_cards(hand: int) -> list:
    """The cards of a packed hand one by one (packed), one per card held."""
    out = []
    for r in range(15):
        n = (hand >> (4 * r)) & 15
        out += [1 << (4 * r)] * n
    return out


def _as_player(message: str, seat: int) -> str:
    """An engine message about ``seat`` as said to its player."""
    return (message.replace(f"seat {seat} played", "you played").replace(" but holds ", " but you hold ")
            .replace(f"seat {seat} passed", "you passed"))


def _actions_of(rec, extra: dict) -> list:
    """The log of a recorded game, in the order the actions were taken."""
    acts = [(_SHOW, s, st) for s, st in rec.shows if st != "first-play"]
    acts += [(_NO_SHOW, s, v) for s, v in extra.get("no_show") or [] if v != "first-play"]
    acts += [(_BID, s, b) for s, b in rec.bids]
    acts += [(_DRAW, s, c) for s, c in rec.draws]
    return acts


def read_match(path: str) -> list:
    """The records (as dicts) of a file saved by a session, each checked by
    :func:`~ddz_tools.engines.records.parse_record`; a
    :class:`~ddz_tools.core.errors.RecordError` names a line that is not one."""
    out = []
    for lineno, text, error in record_lines(path):
        if error is not None:
            raise RecordError(f"{path}, line {lineno}: {error}")
        try:
            parse_record(text)
        except DdzError as exc:
            raise RecordError(f"{path}, line {lineno}: {exc}") from None
        out.append(json.loads(text))
    if not out:
        raise RecordError(f"{path}: no game in the file")
    return out


def resume(path: str, **overrides) -> "tuple[Session, list]":
    """The session of the last game of a saved file, where it was left, and
    the records of the games before it.  The file's ``play`` field gives the
    seat, the bots and the seed (``overrides``, options of
    :class:`PlayOptions`, win over it); a finished last game goes on with the
    next deal."""
    records = read_match(path)
    last = records[-1]
    rec = parse_record(last)
    info = last.get("play") or {}
    if not isinstance(info, dict):
        raise RecordError(f"{path}: the play field of the last game is not an object")
    opts = dict(rules=rec.rules.with_wild(()).describe(), seat=info.get("seat", 0),
                opponents=info.get("opponents", "heuristic"), seed=info.get("seed", 0))
    opts.update({k: v for k, v in overrides.items() if v is not None})
    earlier = []
    for r in records[:-1]:
        res = r.get("result")
        if isinstance(res, dict) and isinstance(res.get("scores"), list):
            earlier.append(tuple(res["scores"]))
    index = info.get("game", len(records) - 1)
    s = Session(PlayOptions(**opts), game=index if isinstance(index, int) else 0, match=earlier)
    s.redeals = info.get("redeals", 0) if isinstance(info.get("redeals"), int) else 0
    ids = rec.hand_ids is not None
    s.set_deal(rec.hand_ids if ids else rec.hands, rec.bottom_ids if ids else rec.bottom, rec.first_bidder,
               rec.rules.wild or None)
    acts = _actions_of(rec, info)
    try:
        for a in acts:
            s._do(a)
        doubles = info.get("doubles") or rec.doubles or []
        while s.game.phase == DOUBLING and s.game.turn is not None and s.game.turn < len(doubles) \
                and doubles[s.game.turn] is not None:
            s._do((_DOUBLE, s.game.turn, doubles[s.game.turn]))
        late = [seat for seat, st in rec.shows if st == "first-play"]
        late_no = [seat for seat, v in info.get("no_show") or [] if v == "first-play"]
        for i, (seat, text) in enumerate(rec.plays):
            if i == 0:
                for t in late:
                    s._do((_SHOW, t, "first-play"))
                for t in late_no:
                    s._do((_NO_SHOW, t, "first-play"))
            s._do((_PLAY, seat, text))
        if not rec.plays and s.game.phase == PLAYING:
            for t in late:
                s._do((_SHOW, t, "first-play"))
    except (IllegalAction, DdzError) as exc:
        raise RecordError(f"{path}: the last game does not replay: {exc}") from None
    if s.finished:
        s.match.pop()        # counted once, with the earlier games
        earlier_records = records
        s.match = list(earlier) + [tuple(s.game.result.scores)]
        s.new_game()
        s.events = s.events[-1:]
        return s, earlier_records
    s.events = [Event(None, "deal", f"game {s.index + 1} resumed from {path}")]
    return s, records[:-1]


