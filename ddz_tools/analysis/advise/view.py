"""Views: what one player knows at his turn.

A *view* is his own cards, the bottom (public after the auction), every play
so far (or only how many cards each seat holds), and the play he must
answer.  Three forms, all :class:`View` objects (seats ``landlord``,
``farmer1``, ``farmer2`` in turn order, and ``farmer3`` under four-player
rules, or ``me`` and ``opponent`` in the two-player form):

* history: ``hand``, ``seat``, ``bottom`` and ``played`` (every play so far in
  order, ``"landlord:333-4,farmer1:pass,..."``); ``hand`` may be the seat's
  cards now or its cards before the first play (17, or the landlord's 20 with
  the bottom; four players 25, or 33).  Under four-player rules the bottom is
  hidden from the farmers, so only the landlord's view takes ``bottom``.  The
  plays are replayed through :class:`~ddz_tools.engines.game.Game` (every turn, trick
  and reading rule is the game's), which gives the trick to answer and the
  cards left in each hand.  With no plays it is the game
  start, the landlord's first lead (:func:`game_start`; :func:`build_view`
  and ``ddz-view/1`` take a seat and its dealt cards alone that way);
* counts: ``hand``, ``seat``, ``counts`` (cards held now, landlord first),
  ``after``/``by`` (the play to answer and who made it, none for a lead) and
  optionally ``unseen`` (the cards the others hold together);
* two-player: ``hand``, ``unseen`` (the opponent holds exactly these) and
  ``after`` (the opponent's play to answer); nothing is hidden.  It is an
  endgame of one deck: not under four-player rules.

The seats, the cards each holds before the first play, the deck and who sees
the bottom come from the rules' variant (:func:`~.parse.seats_of`,
:func:`~.parse.start_cards`, :func:`~ddz_tools.variants.variant_of`).

:func:`view_from_record` gives the view of the player to move before move
``N`` (numbered from 1, passes included) of a recorded game.  Views read and write the
``ddz-view/1`` JSON Lines format (:meth:`View.from_json`, :meth:`View.to_json`),
documented in ``docs/advise.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import json

import numpy as np

from ...core._jit import interpreted
from ...core.cards import card_count, counts_of, format_cards, full_deck, pack_counts
from ...core.errors import DdzError, PositionError, ViewError
from ...core.gamerules import multiplier
from ...core.rules import Play, Rules, play_text_cards
from ...engines.game import Game, IllegalAction
from ...engines.position import game_before_move
from ...moves.movegen import generate
from ...variants import variant_of
from .parse import (NUMBER, TWO_SEATS, base_arg, bottom_arg, bottom_seen, card_arg, check_bottom, check_deck,
                    dealt_cards, deck_counts, holds, landlord_draws, minus, or_list, parse_bids, parse_doubles,
                    parse_draws, parse_played, play_to_answer, ranks_list, relabel, replay_bids, rules_arg, seat_arg,
                    seats_of)

__all__ = ["SCHEMA", "View", "history_view", "counts_view", "two_player_view", "build_view", "game_start",
           "view_from_record", "game_view"]

SCHEMA = "ddz-view/1"

# The stake rule, called from Python (see gamerules).
_multiplier = interpreted(multiplier)

@dataclasses.dataclass(frozen=True)
class View:
    """What the player to move knows (see the module doc); build it with
    :func:`history_view`, :func:`counts_view`, :func:`two_player_view`,
    :func:`view_from_record` or :meth:`from_dict`.

    ``counts`` are the cards each seat holds now (turn order), ``pool`` the
    packed cards the hidden hands are drawn from (exactly their union when
    ``pool_exact``), ``must`` per seat the cards it surely holds, ``played``
    the history as ``(seat, Play)`` pairs and ``bids`` the auction as
    ``(seat, bid)`` pairs in order, 0 a pass (both empty in the other forms;
    ``bids`` also when not given).
    """

    form: str                    # "history", "counts" or "two-player"
    rules: Rules
    seat: str
    hand: int
    counts: tuple
    pool: int
    pool_exact: bool
    must: tuple
    last_play: "Play | None" = None
    last_by: "str | None" = None
    bottom: "int | None" = None
    played: tuple = ()
    base: int = 1
    bombs: int = 0
    id: "str | None" = None
    bids: tuple = ()
    #: Happy Dou Dizhu: the public multiple of the stages before the play
    #: (the shows and the bottom bonus), the seats' doubles in turn order
    #: (landlord, farmer1, farmer2; empty when nobody doubled) and the seats
    #: whose hands are shown (public: the view knows them exactly).
    stage: int = 1
    doubles: tuple = ()
    shown: tuple = ()
    #: What the plays so far multiply the stake by, summed
    #: :func:`~ddz_tools.core.gamerules.stake_doublings` (history form: from the
    #: replay); None: one doubling per bomb or rocket of ``bombs``.
    doublings: "int | None" = None
    #: ``landlord_draw=on``: the cards the landlord drew that this view knows,
    #: ``(farmer, packed card)`` pairs (the landlord knows both, a farmer the
    #: one drawn from him).
    draws: tuple = ()

    # Access ---------------------------------------------------------------------

    @functools.cached_property
    def seats(self) -> tuple:
        """The seats in turn order from the landlord: the variant's roles, or
        ``me`` and ``opponent`` in the two-player form (asked once: the
        scoring asks on every deal)."""
        return TWO_SEATS if self.form == "two-player" else variant_of(self.rules).roles

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def me(self) -> int:
        return self.seats.index(self.seat)

    @property
    def is_lead(self) -> bool:
        return self.last_play is None

    @property
    def stake(self) -> int:
        """The public stake if the game ended now: what one farmer settles
        with the landlord before the doubles."""
        return self.base * self.stage * _multiplier(self.bombs if self.doublings is None else self.doublings, 0, 0)

    def win_score(self) -> int:
        """This seat's score if its side won now (it loses as much otherwise):
        the stake settled by the variant (:meth:`Variant.settle
        <ddz_tools.variants.Variant.settle>`), with the doubles as the rules'
        ``doubling`` says; four players (no doubles): each farmer settles the
        stake with the landlord, who wins or loses three stakes."""
        return self._settle(self.me == 0, self.stake)

    def deal_score(self, won: bool, doublings: int = 0, spring: int = 0, anti_spring: int = 0) -> int:
        """This seat's score when the game ends with its side winning (``won``)
        or losing, the plays from now on having added ``doublings`` (summed
        :func:`~ddz_tools.core.gamerules.stake_doublings`) and ending in a spring or
        anti-spring (0 or 1 each): the whole stake, settled as
        :meth:`win_score` settles the stake of now.  The two-player form
        scores 1 a win and -1 a loss."""
        if self.form == "two-player":
            return 1 if won else -1
        before = self.bombs if self.doublings is None else self.doublings
        stake = self.base * self.stage * _multiplier(before + doublings, spring, anti_spring)
        return self._settle(won == (self.me == 0), stake)

    def _settle(self, landlord_won: bool, stake: int) -> int:
        """This seat's score of a hand the landlord (seat 0) won or lost at
        ``stake``; the two-player form settles ``stake`` with the opponent."""
        if self.form == "two-player":
            return stake if landlord_won else -stake
        return variant_of(self.rules).settle(0, landlord_won, stake, self.doubles or None)[self.me]

    def spring_start(self) -> np.ndarray:
        """``[0, landlord's plays, bits of the farmers who played]`` so far, for
        the spring of a playout (the playout kernel of :mod:`~.scoring`).  The history
        form counts the plays; the counts form knows only whether a farmer
        still holds all his cards (then he has not played) and counts the
        landlord's plays as 0 before his first lead, else as 2 (so no
        anti-spring: it cannot tell one play from more)."""
        start = dealt_cards(variant_of(self.rules))
        out = np.zeros(3, np.int64)
        if self.form == "history":
            for s, p in self.played:
                if p.is_pass:
                    continue
                k = self.seats.index(s)
                if k == 0:
                    out[1] += 1
                else:
                    out[2] |= 1 << k
        elif self.form == "counts":
            out[1] = 0 if self.counts[0] == start[0] else 2
            for k in range(1, self.players):
                if self.counts[k] != start[k]:
                    out[2] |= 1 << k
        return out

    def candidates(self) -> list:
        """Every legal play of this hand here (the pass first when answering)."""
        moves = list(generate(self.hand, self.last_play, self.rules))
        return ([] if self.last_play is None else [Play.pass_()]) + moves

    def describe(self) -> str:
        """One line for humans."""
        counts = ", ".join(f"{s} {n}" for s, n in zip(self.seats, self.counts))
        what = "leads" if self.last_play is None else f"answers {self.last_play.notation()} by {self.last_by}"
        return f"{self.seat} holds {format_cards(self.hand)} ({counts} cards); {what}"

    # ddz-view/1 --------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The ``ddz-view/1`` object of this view (its own form, canonical text)."""
        d = {"schema": SCHEMA, "id": self.id, "rules": self.rules.describe()}
        if self.form == "two-player":
            d.update(seat=None, hand=format_cards(self.hand), unseen=format_cards(self.pool),
                     after=_text(self.last_play))
            return d
        d.update(seat=self.seat, hand=format_cards(self.hand),
                 bottom=None if self.bottom is None else format_cards(self.bottom))
        if self.form == "history":
            d["played"] = [f"{s}:{p.notation(self.rules) if not p.is_pass else 'pass'}" for s, p in self.played]
            if self.bids:
                d["bids"] = [f"{s}:{b or 'pass'}" for s, b in self.bids]
            if self.shown:
                d["shown"] = {s: format_cards(self.must[self.seats.index(s)]) for s in self.shown}
            if self.doubles:
                d["doubles"] = list(self.doubles)
            if self.draws:
                d["draws"] = {s: format_cards(c) for s, c in self.draws}
            if self.stage != 1:
                d["stage_multiple"] = self.stage
        else:
            d.update(counts=list(self.counts), after=_text(self.last_play), by=self.last_by,
                     unseen=format_cards(self.pool) if self.pool_exact else None, bombs=self.bombs)
        d["base"] = self.base
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict, rules=None) -> "View":
        """A view from a parsed ``ddz-view/1`` object (the form follows from its
        keys); ``rules`` serve when the object names none."""
        if not isinstance(d, dict):
            raise ViewError(f"a view must be a JSON object, not {type(d).__name__}")
        if d.get("schema") != SCHEMA:
            raise ViewError(f"schema must be {SCHEMA!r}, not {d.get('schema')!r}")
        known = {"schema", "id", "rules", "seat", "hand", "bottom", "played", "counts", "after", "by",
                 "unseen", "base", "bombs", "bids", "shown", "doubles", "stage_multiple", "draws"}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ViewError(f"unknown key {unknown[0]!r} (keys: {', '.join(sorted(known))})")
        if "hand" not in d:
            raise ViewError("missing key 'hand'")
        vid = d.get("id")
        vid = None if vid is None else str(vid)
        rules = d.get("rules") if d.get("rules") is not None else rules
        if d.get("seat") is None:
            for key in ("played", "counts", "bottom", "by", "bids"):
                if d.get(key) is not None:
                    raise ViewError(f"a two-player view (no seat) takes hand, unseen and after, not {key!r}")
            if d.get("unseen") is None:
                raise ViewError("a two-player view (no seat) needs 'unseen': the opponent's cards")
            return two_player_view(d["hand"], d["unseen"], d.get("after"), rules=rules, id=vid)
        if d.get("played") is None and d.get("counts") is None:   # the game start, or an error saying what is missing
            _check_start(d["hand"], d["seat"], d.get("bottom"),
                         {k: d.get(k) for k in ("after", "by", "unseen", "bombs")}, rules)
            d = dict(d, played=[])
        if d.get("played") is not None:
            for key in ("counts", "after", "by", "unseen", "bombs"):
                if d.get(key) is not None:
                    raise ViewError(f"a view with 'played' takes no {key!r}: it follows from the plays")
            return history_view(d["hand"], d["seat"], d["played"], d.get("bottom"), rules=rules,
                                base=d.get("base"), id=vid, bids=d.get("bids"), shown=d.get("shown"),
                                doubles=d.get("doubles"), stage_multiple=d.get("stage_multiple", 1),
                                draws=d.get("draws"))
        for key in ("bids", "shown", "doubles", "stage_multiple", "draws"):
            if d.get(key) is not None:
                raise ViewError(f"{key!r} goes with 'played' (the history form), not with 'counts'")
        return counts_view(d["hand"], d["seat"], d["counts"], d.get("after"), d.get("by"), d.get("unseen"),
                           d.get("bottom"), rules=rules, base=d.get("base", 1), bombs=d.get("bombs", 0), id=vid)

    @classmethod
    def from_json(cls, text: str, rules=None) -> "View":
        """A view from one ``ddz-view/1`` JSON line."""
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ViewError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
        return cls.from_dict(d, rules)


def _text(play: "Play | None") -> "str | None":
    return None if play is None else play.notation()


def history_view(hand, seat, played, bottom=None, rules=None, base: "int | None" = None,
                 id: "str | None" = None, bids=None, shown=None, doubles=None, stage_multiple=1,
                 draws=None) -> View:
    """The view of ``seat`` after the plays ``played`` (see :func:`parse_played`).

    ``hand`` is the seat's cards now, or before its first play (17 cards; the
    landlord's 20 with the bottom; four-player rules 25, the landlord's 33).
    Every play is replayed through
    :class:`~ddz_tools.engines.game.Game`: an illegal one is an error naming it, and
    so is a history after which it is not ``seat``'s turn.  ``bids`` (see
    :func:`parse_bids`), if known, is the auction: it must make the landlord
    seat the landlord, and its winning bid is the base (1 without bids).
    ``bottom`` (3 cards, or 8 under four-player rules, where only the
    landlord sees it) is the bottom, if known.
    Happy Dou Dizhu: ``shown`` maps the seats whose hands are public to the
    cards they hold now (the view knows them exactly), ``doubles`` gives the
    seats' factors in turn order (landlord, farmer1, farmer2) and
    ``stage_multiple`` the shows' multiple times the bottom bonus.
    Without a bottom (``notalon``) each seat starts with 18 cards; under
    ``landlord_draw=on`` the landlord with 20, the farmers with 17, and
    ``draws`` gives the cards he drew that this seat knows (``{"farmer1":
    "K"}``: the landlord knows both, a farmer the one drawn from him): like
    a public bottom, a known drawn card the landlord has not played is in
    his hand in every sampled deal.

    >>> v = history_view("3456789TJQKA2XD", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass")
    >>> v.is_lead, v.counts, format_cards(v.hand)
    (True, (18, 15, 17), '3456789TJQKA2XD')
    """
    rules = rules_arg(rules)
    v = variant_of(rules)
    seats = v.roles
    n_seats = v.seats
    start = dealt_cards(v)
    decks = v.table.decks
    auction = parse_bids(bids, rules)
    if auction:
        won = replay_bids(auction, v).base
        if base is not None and base_arg(base) != won:
            raise ViewError(f"base is {base}, but the bids make it {won}")
        base = won
    base = base_arg(1 if base is None else base)
    seat = seat_arg(seat, seats)
    me = seats.index(seat)
    history = parse_played(played, rules)
    mine = card_arg(hand, "hand", decks)
    bot = bottom_arg(bottom, v)
    drawn = parse_draws(draws, v)
    # The landlord's cards this view knows besides his plays: the bottom, or the draws it knows.
    known = bot if bot is not None else (sum(c for _, c in drawn) if drawn else None)
    check_bottom(bot, seat, me, v)
    # What each seat played, as cards (the reading is the game's business below).
    deck = deck_counts(v)
    played_by = [0] * n_seats
    for i, (s, text) in enumerate(history):
        if text == "pass":
            continue
        try:
            cards = play_text_cards(text, decks)
        except DdzError as exc:
            raise ViewError(f"played[{i}] {s}:{text}: {exc}") from None
        k = seats.index(s)
        if any(a + b > deck[r] for r, (a, b) in enumerate(zip(counts_of(played_by[k]), counts_of(cards)))):
            raise ViewError(f"the plays of {s} hold more cards of a rank than the deck has")
        played_by[k] += cards
    n_hand, n_mine = card_count(mine), card_count(played_by[me])
    if n_mine and n_hand == start[me] and holds(mine, played_by[me]):
        original = mine
    elif n_hand == start[me] - n_mine:
        original = mine + played_by[me]
    else:
        raise ViewError(f"hand has {n_hand} cards, but {seat} holds {start[me] - n_mine} after playing "
                        f"{n_mine} (and held {start[me]} before the first play)")
    if me == 0 and bot is not None and not holds(original, bot):
        raise ViewError(f"the bottom {format_cards(bot)} is not in the landlord's cards {format_cards(original)}")
    if me == 0 and drawn and not holds(original, known):
        raise ViewError(f"the drawn cards {format_cards(known)} are not in the landlord's cards "
                        f"{format_cards(original)}", param="draws")
    # A deal consistent with what is known, for the game to replay the plays on.
    need = list(played_by)
    need[me] = original
    if me != 0 and known is not None:
        need[0] = pack_counts(max(a, b) for a, b in zip(counts_of(played_by[0]), counts_of(known)))
    if known is not None and me != 0:
        what = "the bottom" if bot is not None else "the drawn cards"
        check_deck([original, known], f"{seat}'s cards and {what} (the landlord's)", v)
    check_deck(need, "the hands and the plays", v)
    for s in range(n_seats):
        if card_count(need[s]) > start[s]:
            raise ViewError(f"{seats[s]} played {card_count(need[s])} cards"
                            f"{' (bottom included)' if s == 0 and bot is not None else ''}; "
                            f"a seat starts with {start[s]}")
    rest = ranks_list(full_deck(decks) - sum(need))
    full = list(need)
    for s in range(n_seats):
        k = start[s] - card_count(full[s])
        for r in rest[:k]:
            full[s] += 1 << (4 * r)
        rest = rest[k:]
    # Without a bottom, any of the landlord's cards serve as the bottom for the replay.
    game_bottom = bot if bot is not None else sum(1 << (4 * r) for r in ranks_list(full[0])[:v.table.bottom_cards])
    deal = [full[0] - game_bottom] + full[1:]
    replay_rules = rules.play_only()
    gives = []
    if landlord_draws(v):
        # The deal before the draws: each farmer held the card the landlord drew
        # from him (known, or any other of the landlord's cards for the replay).
        spare = ranks_list(minus(full[0], known or 0))
        for f in range(1, n_seats):
            c = dict(drawn).get(f)
            if c is None:
                c = 1 << (4 * spare.pop())
            gives.append((f, c))
            deal[0] -= c
            deal[f] += c
        replay_rules = dataclasses.replace(replay_rules, landlord_draw=True)
    # Every seat passing makes seat 0 the landlord under every bidding option (Botzone's all-pass rule).
    g = Game(hands=deal, bottom=game_bottom, rules=replay_rules, first_bidder=0, all_pass="seat0")
    for _ in range(n_seats):
        g.bid(0)
    for f, c in gives:
        g.draw(c, seat=f)
    for i, (s, text) in enumerate(history):
        if g.phase != "playing":
            raise ViewError(f"played[{i}] {s}:{text}: the game was already over")
        try:
            g.play(text, seat=seats.index(s))
        except IllegalAction as exc:
            raise ViewError(f"played[{i}] {s}:{text}: {relabel(str(exc), seats)}") from None
    if g.phase != "playing":
        raise ViewError(f"the game is over after these plays ({seats[g.result.winner_seat]} went out)")
    if g.turn != me:
        if not history:
            raise ViewError(f"before any play the landlord leads (the game start): {seat} is not to move; "
                            f"give played (every play so far) once it is {seat}'s turn", param="played")
        raise ViewError(f"after these plays it is {seats[g.turn]}'s turn, not {seat}'s")
    counts = tuple(card_count(h) for h in g.hands)
    pool = full_deck(decks) - g.hands[me] - sum(played_by)
    must = [0] * n_seats
    if me != 0 and known is not None:
        must[0] = minus(known, played_by[0])
    shown_seats = []
    for name, cards in (shown or {}).items():
        s = seats.index(seat_arg(name, seats))
        if s == me:
            continue
        c = card_arg(cards, f"shown {name}", decks)
        if card_count(c) != counts[s] or not holds(pool, c):
            raise ViewError(f"shown {name}: {format_cards(c)} is not {counts[s]} cards of the unseen ones")
        if not holds(c, must[s]):
            raise ViewError(f"shown {name}: {format_cards(c)} lacks the bottom cards the landlord still holds")
        must[s] = c
        shown_seats.append(seats[s])
    dbl = parse_doubles(doubles, v)
    stage = base_arg(stage_multiple) if stage_multiple != 1 else 1
    plays = tuple((seats[s], p) for s, p in g.plays)
    last_by = None if g.last_play is None else seats[g.last_seat]
    return View("history", rules, seat, g.hands[me], counts, pool, True, tuple(must), g.last_play, last_by,
                bot, plays, base, g.bombs, id, tuple(auction), stage, dbl, tuple(shown_seats), g.doublings,
                tuple((seats[f], c) for f, c in sorted(drawn)))




def counts_view(hand, seat, counts, after=None, by=None, unseen=None, bottom=None, rules=None,
                base: int = 1, bombs: int = 0, id: "str | None" = None) -> View:
    """The view of ``seat`` when only the card counts are known.

    ``counts``: cards held now by landlord, farmer1, farmer2 (and farmer3
    under four-player rules; ``"5,3,7"`` or a sequence); ``after``/``by``:
    the play to answer and its seat (both None for a lead); ``unseen``: the
    cards the others hold together, if known; ``bombs``: the bombs and
    rockets played so far that doubled the stake (x2 each).  ``bottom``
    under four-player rules only for the landlord, who alone sees it.

    >>> v = counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789")
    >>> v.pool_exact, v.last_by, format_cards(v.pool)
    (True, 'farmer1', '3456789')
    """
    rules = rules_arg(rules)
    v = variant_of(rules)
    seats = v.roles
    decks = v.table.decks
    start = dealt_cards(v)
    base = base_arg(base)
    seat = seat_arg(seat, seats)
    me = seats.index(seat)
    mine = card_arg(hand, "hand", decks)
    if isinstance(counts, str):
        try:
            counts = [int(x) for x in counts.split(",")]
        except ValueError:
            raise ViewError(f"counts must be {_counts_form(seats)}, not {counts!r}") from None
    counts = tuple(counts) if isinstance(counts, (list, tuple)) else counts
    if (not isinstance(counts, tuple) or len(counts) != len(seats)
            or any(isinstance(c, bool) or not isinstance(c, int) for c in counts)):
        raise ViewError(f"counts must be {_counts_form(seats)}, not {counts!r}")
    for s, c in enumerate(counts):
        if not 1 <= c <= start[s]:
            raise ViewError(f"{seats[s]} holds {c} cards: it must be 1..{start[s]}")
    if counts[me] != card_count(mine):
        raise ViewError(f"counts give {seat} {counts[me]} cards, but the hand has {card_count(mine)}")
    if isinstance(bombs, bool) or not isinstance(bombs, int) or bombs < 0:
        raise ViewError(f"bombs must be a non-negative integer, not {bombs!r}")
    play, by = play_to_answer(after, by, seat, rules, seats)
    table = play.cards if play is not None else 0
    bot = bottom_arg(bottom, v)
    check_bottom(bot, seat, me, v)
    check_deck([mine, table], "the hand and the play to answer", v)
    others = sum(c for s, c in enumerate(counts) if s != me)
    if unseen is not None:
        pool = card_arg(unseen, "unseen", decks)
        check_deck([mine, table, pool], "the hand, the play to answer and the unseen cards", v)
        if card_count(pool) != others:
            raise ViewError(f"unseen has {card_count(pool)} cards, but the other {NUMBER[len(seats) - 1]} "
                            f"seats hold {others}")
        exact = True
    else:
        pool = full_deck(decks) - mine - table
        if me == 0 and bot is not None:
            pool = minus(pool, minus(bot, mine))  # bottom cards no longer in my hand: I played them
        exact = card_count(pool) == others
        if card_count(pool) < others:
            raise ViewError(f"the other seats hold {others} cards, but only {card_count(pool)} are unaccounted for")
    return View("counts", rules, seat, mine, counts, pool, exact, (0,) * len(seats), play, by, bot, (), base,
                bombs, id)


def _counts_form(seats: tuple) -> str:
    """What ``counts`` must be: ``three numbers L,F1,F2`` (each role's short
    name: its initial and number)."""
    short = (role[0].upper() + role[len(role.rstrip("0123456789")):] for role in seats)
    return f"{NUMBER[len(seats)]} numbers {','.join(short)}"


def two_player_view(hand, unseen, after=None, rules=None, id: "str | None" = None) -> View:
    """Me against one opponent who holds exactly ``unseen``; ``after`` is his
    play to answer.  Nothing is hidden: :func:`advise` solves it exactly.
    An endgame of one deck: rules whose variant has no such endgame
    (:meth:`Variant.supports <ddz_tools.variants.Variant.supports>`
    ``advise-endgame``: four-player rules) are refused.

    >>> two_player_view("33JJQK2", "4455A").counts
    (7, 5)
    """
    rules = rules_arg(rules)
    v = variant_of(rules)
    why = v.supports("advise-endgame")
    if why is not None:
        raise ViewError(why, param="seat")
    mine = card_arg(hand, "hand")
    opp = card_arg(unseen, "unseen")
    for what, h in (("hand", mine), ("unseen", opp)):
        if card_count(h) == 0:
            raise ViewError(f"{what} is empty: the game is already over")
        if card_count(h) > 20:
            raise ViewError(f"{what} has {card_count(h)} cards; at most 20 are possible")
    play, by = play_to_answer(after, None, "me", rules, TWO_SEATS, default_by="opponent")
    check_deck([mine, opp] + ([play.cards] if play else []), "the hand, the unseen cards and the play to answer",
               v)
    return View("two-player", rules, "me", mine, (card_count(mine), card_count(opp)), opp, True, (0, 0),
                play, by, None, (), 1, 0, id)


def build_view(hand, seat=None, bottom=None, played=None, counts=None, after=None, by=None, unseen=None,
               base: "int | None" = None, rules=None, id: "str | None" = None, bids=None, draws=None) -> View:
    """A view of any form from the ``ddz advise`` options (the form follows
    from which are given): ``seat`` and ``played``; ``seat`` and ``counts``;
    ``seat`` and neither, for the game start (see :func:`game_start`); or no
    ``seat`` (two-player, with ``unseen``).

    >>> v = build_view("3334456789TTJQKA22XD", seat="landlord")   # the landlord's first lead
    >>> v.is_lead, v.counts, v.played
    (True, (20, 17, 17), ())
    """
    if seat is None:
        for name, v in (("bottom", bottom), ("played", played), ("counts", counts), ("by", by), ("bids", bids),
                        ("draws", draws)):
            if v is not None:
                raise ViewError(f"{name} needs a seat (without one, the view is the two-player form)", param=name)
        if unseen is None:
            seats = seats_of(rules)
            raise ViewError(f"without a seat the view is the two-player form, which needs unseen (the opponent's "
                            f"cards); give seat ({or_list(seats)}) for the {NUMBER[len(seats)]}-player game",
                            param=("unseen", "seat"))
        return two_player_view(hand, unseen, after, rules=rules, id=id)
    if played is None and counts is None:
        _check_start(hand, seat, bottom, {"after": after, "by": by, "unseen": unseen}, rules)
        played = []
    if played is not None:
        for name, v in (("counts", counts), ("after", after), ("by", by), ("unseen", unseen)):
            if v is not None:
                raise ViewError(f"{name} cannot go with played: it follows from the plays")
        return history_view(hand, seat, played, bottom, rules=rules, base=base, id=id, bids=bids, draws=draws)
    if bids is not None:
        raise ViewError("bids go with played (the history form), not with counts")
    if draws is not None:
        raise ViewError("draws go with played (the history form), not with counts", param="draws")
    return counts_view(hand, seat, counts, after, by, unseen, bottom, rules=rules,
                       base=1 if base is None else base, id=id)


def game_start(hand, seat: str = "landlord", bottom=None, rules=None, base: "int | None" = None,
               id: "str | None" = None, bids=None, draws=None) -> View:
    """The view before any play: ``seat`` holds ``hand``, its cards as dealt
    (the landlord's 20 with the bottom, a farmer's 17; four-player rules 33
    and 25), the others theirs and every other card is unseen.  It is the
    landlord's first lead, so only the landlord is to move: for a farmer
    (with ``bottom``, public after the auction) the error says it is not
    his turn.  ``bottom`` and ``bids``, if known, are used as in
    :func:`history_view` (which this is, with no plays).

    >>> game_start("3334456789TTJQKA22XD").describe()
    'landlord holds 3334456789TTJQKA22XD (landlord 20, farmer1 17, farmer2 17 cards); leads'
    """
    _check_start(hand, seat, bottom, {}, rules)
    return history_view(hand, seat, [], bottom, rules=rules, base=base, id=id, bids=bids, draws=draws)


def _check_start(hand, seat, bottom, others: dict, rules=None) -> None:
    """That ``hand`` with no plays and no counts is the game start: the seat's
    cards as dealt, and for a farmer the bottom where it is public; else the
    error saying what is missing (``others``: options that need counts, by name)."""
    for name, v in others.items():
        if v is not None:
            raise ViewError(f"{name} goes with counts (the cards each seat holds now)", param=(name, "counts"))
    rules = rules_arg(rules)
    v = variant_of(rules)
    t = v.table
    seats = t.roles
    start = dealt_cards(v)
    seat = seat_arg(seat, seats)
    me = seats.index(seat)
    n = card_count(card_arg(hand, "hand", t.decks))
    if n != start[me]:
        dealt = f"the {start[me]} of the game start" + (" (the bottom included)" if me == 0 else "")
        raise ViewError(f"{seat} holds {n} cards, not {dealt}: give played (every play so far) or counts "
                        f"(the cards each seat holds now)", param=("played", "counts"))
    # Under four-player rules a farmer never sees the bottom: history_view says whose turn it is.
    if me != 0 and bottom is None and bottom_seen(v, False):
        raise ViewError(f"{seat}'s {n} cards with no history: the game start needs bottom (the landlord's "
                        f"{t.bottom_cards} extra cards, public after the auction) or counts",
                        param=("bottom", "counts"))


def view_from_record(record, move: int = 1) -> View:
    """The view of the player to move before move ``move`` of a recorded game
    (numbered from 1, passes included, as ``ddz analyze`` and ``ddz solve
    --record --move`` number them: 1 is the landlord's first lead): a
    :class:`~ddz_tools.engines.records.Record`, a ``ddz-record/1`` dict or JSON line,
    of three or four seats.

    Only that player's cards are used; the bids, the base and the plays
    before ``move`` are public, and so is the bottom, but under four-player
    rules only the landlord sees it.
    """
    from ...engines.records import Record, parse_record

    rec = record if isinstance(record, Record) else parse_record(record)
    try:
        g = game_before_move(rec, move)     # the record's stages and plays before move, replayed
    except PositionError as exc:
        raise ViewError(str(exc)) from None
    if (move or 1) > len(rec.plays):     # a game still in play past its last recorded move: nothing to advise on
        raise ViewError(f"move {move}: the record has moves 1..{len(rec.plays)}")
    return game_view(g, rec.rules, None if rec.id is None else f"{rec.id}@{move}")


def game_view(g, rules=None, id: "str | None" = None) -> View:
    """The view of the seat to move of a :class:`~ddz_tools.engines.game.Game`
    in its play phase: its hand, the bids, the base, the plays so far, the
    bottom if the variant shows it to this seat, the hands shown, the doubles,
    the stages' multiple and the draws it knows of; ``rules`` (default: the
    game's, with the wild ranks shown) are the rules of the view."""
    rules = g.rules if rules is None else rules
    v = variant_of(rules)
    role = v.seat_roles(g.landlord)                            # seat -> role, from the landlord on
    to_move = role[g.turn]
    # Happy Dou Dizhu: the shown hands are public, the doubles and the stages' multiple are known.
    shown = {role[s]: format_cards(g.hands[s]) for s in g.shown if role[s] != to_move}
    doubles = [g.doubles[s] for s in role] if all(d is not None for d in g.doubles) else None
    bottom = g.bottom if bottom_seen(v, to_move == "landlord") else None
    # The landlord knows the cards he drew; a farmer the one drawn from him.
    draws = [(role[f], c) for f, c in g.draws if to_move == "landlord" or role[f] == to_move]
    return history_view(g.hands[g.turn], to_move, [(role[s], p) for s, p in g.plays], bottom, rules=rules,
                        base=g.base, id=id, bids=[(role[s], v) for s, v in g.bids], shown=shown or None,
                        doubles=doubles, stage_multiple=g.show_multiple * g.bottom_bonus_now(), draws=draws or None)


