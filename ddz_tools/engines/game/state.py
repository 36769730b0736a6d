"""The game itself: :class:`Game`, one hand from the deal to the score, and
its snapshot :class:`GameState`; :func:`random_game` plays one at random.

The deal (seeded, or given as hands and a bottom), the wild draw and reveal,
the auction (:class:`~.auction.Auction`), the landlord's draws, the doubles
and the shows, the play and the scoring (:func:`~.scoring.score`) follow the
package doc.  The shape of the deal, the seats' numbers and roles, the wild
ranks and which stake stages a hand has are asked of the rules' variant
(:func:`~ddz_tools.variants.variant_of`).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Sequence

from ...core._jit import interpreted
from ...core.cards import card_count, format_cards, is_valid_packed, pack_card_ids, packed_contains, to_packed
from ...core.errors import CardError, GameError, IllegalAction, PlayError
from ...core.gamerules import (
    A_BASE,
    A_LANDLORD,
    A_OUTCOME,
    A_TURN,
    AUCTION_OPEN,
    AUCTION_VOID,
    SHOW_FIRST_PLAY,
    bottom_bonus,
    bottom_flush,
    double_ok,
    draw_card,
    may_pass,
    merge_show,
    must_call,
    next_seat,
    show_factor,
    stake_doublings,
    trick_after,
)
from ...core.rules import Play, Rules, beats, has_fixed_reading, parse_wild, play_text_cards
from ...moves.movegen import generate
from ...variants import variant_of
from .auction import Auction
from .phases import (
    ALL_PASS_OPTIONS,
    BIDDING,
    DOUBLING,
    DRAWING,
    E_BAD_CARDS,
    E_BAD_DOUBLE,
    E_BAD_DRAW,
    E_BAD_SHOW,
    E_DOES_NOT_BEAT,
    E_FINISHED,
    E_NOT_A_COMBINATION,
    E_NOT_BIDDING,
    E_NOT_IN_HAND,
    E_NOT_PLAYING,
    E_PASS_ON_LEAD,
    E_WRONG_TURN,
    FINISHED,
    PLAYING,
    REDEAL,
    show_stage_code,
    show_stage_text,
)
from .reading import best_reading, reading_kinds
from .scoring import Result, score

__all__ = ["Game", "GameState", "random_game"]

# The rules of ddz_tools.core.gamerules, run by Python (see its module doc).
_may_pass = interpreted(may_pass)
_trick_after = interpreted(trick_after)
_next_seat = interpreted(next_seat)
_stake_doublings = interpreted(stake_doublings)
_bottom_flush = interpreted(bottom_flush)
_contains = interpreted(packed_contains)
_must_call = interpreted(must_call)
_show_factor = interpreted(show_factor)
_merge_show = interpreted(merge_show)
_double_ok = interpreted(double_ok)
_bottom_bonus = interpreted(bottom_bonus)
_draw_card = interpreted(draw_card)


@dataclasses.dataclass(frozen=True)
class GameState:
    """An immutable snapshot of a :class:`Game` (what a policy sees, all hands open).

    ``hands`` are packed ints (the landlord's includes the bottom once taken);
    ``last_play`` is the play to answer (None when the seat to move leads).
    """

    phase: str
    turn: "int | None"
    hands: tuple
    bottom: int
    landlord: "int | None"
    base: int
    bids: tuple
    plays: tuple          # ((seat, Play), ...), passes included
    last_play: "Play | None"
    last_seat: "int | None"
    passes: int
    bombs: int
    rules: Rules
    shows: tuple = ()          # ((seat, stage text), ...) in the order shown
    doubles: tuple = ()        # ((seat, factor), ...) in the order doubled


class Game:
    """One hand of Dou Dizhu from the deal to the score.

    Build it from a seeded deal (``Game(seed=1)``) or from given hands
    (``Game(hands=[...], bottom=...)``: three 17-card hands and the 3-card
    bottom, as card text, packed ints or Botzone card id lists; under
    four-player rules four 25-card hands and the 8-card bottom of two decks,
    as card text or packed ints).  Then call
    :meth:`bid`, :meth:`play` and :meth:`pass_` for the seat to move
    (:attr:`turn`).  Each action may name its seat; an illegal action raises
    :class:`IllegalAction` naming it, and leaves the game unchanged.

    >>> g = Game(seed=3, first_bidder=0)
    >>> g.bid(3)
    >>> g.phase, g.landlord, g.base, len(g.hand(0))
    ('playing', 0, 3, 20)
    >>> g.pass_()
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.IllegalAction: seat 0 passed but must lead (nothing to answer)
    """

    def __init__(self, hands: "Sequence | None" = None, bottom=None, rules: "Rules | str | None" = None,
                 first_bidder: "int | None" = None, seed: "int | None" = None, dealer: int = 0,
                 all_pass: str = "redeal", rng: "random.Random | None" = None, wild=None):
        rules = Rules.parse(rules)
        #: The rules without the wild ranks; :attr:`rules` has those shown so far.
        self.base_rules = rules.with_wild(())
        self.rules = self.base_rules
        self._flags = self.rules.flags
        self._wild_given = parse_wild(wild if wild is not None else (rules.wild or None))
        if self._wild_given and len(self._wild_given) != rules.wild_ranks:
            rules.with_wild(self._wild_given)       # the error for the rules (none, or too many)
            raise GameError(f"a {rules.preset} deal draws {rules.wild_ranks} wild ranks, not "
                            f"{len(self._wild_given)}", param="wild")
        #: The deal's wild ranks, shown or not yet (rank indices; () under classic rules).
        self.wild: tuple = ()
        if all_pass not in ALL_PASS_OPTIONS:
            raise GameError(f"all_pass must be one of {', '.join(ALL_PASS_OPTIONS)}, not {all_pass!r}")
        self.all_pass = all_pass
        self._rng = rng
        self._seed = seed
        #: The variant the rules play (:func:`~ddz_tools.variants.variant_of`):
        #: the table, the wild cards and the stake stages.
        self.variant = variant_of(self.base_rules)
        self._table = self.variant.table
        #: Seats at the table (:attr:`Rules.seats <ddz_tools.core.rules.Rules.seats>`): 3, or 4.
        self.seats = self.variant.seats
        self.dealer = self._table.check_seat(dealer)
        self.hand_ids: "list[list[int]] | None" = None
        self.bottom_ids: "list[int] | None" = None
        if hands is None:
            if bottom is not None:
                raise GameError("give both hands and bottom, or neither (for a seeded deal)")
            self._deal_random()
        else:
            # A table without a bottom lets it be left out.
            self._set_deal(hands, "" if bottom is None and not self._table.bottom_cards else bottom)
            self._draw_wild()
        if first_bidder is None:
            if self.rules.first_bidder == "random":
                first_bidder = self.rng.randrange(self.seats)
            else:
                first_bidder = (self.dealer + 1) % self.seats
        self._start(self._table.check_seat(first_bidder))

    @property
    def rng(self) -> random.Random:
        """The game's random generator (seeded; made on first use)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    # Dealing.
    def _deal_random(self) -> None:
        self._set_deal(*self._table.deal(self.rng))
        self._draw_wild()

    def _draw_wild(self) -> None:
        """The deal's wild ranks: given, or drawn (none under natural cards)."""
        self.wild = self._wild_given or self.variant.draw_wild(self.rng)

    def _show_wild(self, landlord_known: bool) -> None:
        """Put the wild ranks shown by now into :attr:`rules` (see the package doc)."""
        self.rules = self.base_rules.with_wild(self.variant.wild_shown(self.wild, landlord_known))
        self._flags = self.rules.flags

    def _set_deal(self, hands, bottom) -> None:
        seats, t = self.seats, self._table
        if len(hands) != seats:
            raise GameError(f"a deal has {seats} hands, not {len(hands)}")
        packed = []
        ids_given = all(isinstance(h, (list, tuple)) for h in list(hands) + [bottom])
        for i, h in enumerate(list(hands) + [bottom]):
            what = "the bottom" if i == seats else f"hand {i}"
            if isinstance(h, (list, tuple)):
                if t.card_ids_refusal:
                    raise GameError(f"{what} is given as card ids: {t.card_ids_refusal}: give the deal as card "
                                    f"text or packed ints")
                p = pack_card_ids(h)
            elif isinstance(h, (str, int)) and not isinstance(h, bool):
                p = to_packed(h, what, t.decks)
            else:
                raise TypeError(f"a hand must be card text, a packed int or card ids, not {type(h).__name__}")
            packed.append(p)
        n, nb = t.hand_cards, t.bottom_cards
        for i in range(seats):
            if card_count(packed[i]) != n:
                raise CardError(f"hand {i} has {card_count(packed[i])} cards, not {n}")
        if card_count(packed[seats]) != nb:
            raise CardError(f"the bottom has {card_count(packed[seats])} cards, not {nb}"
                            + (" (no bottom under these rules)" if nb == 0 else ""))
        problem = t.deck_problem(packed)
        if problem:
            raise CardError(f"the deal is not {t.deck_words}: {problem}")
        if ids_given:
            all_ids = [c for h in list(hands) + [bottom] for c in h]
            pack_card_ids(all_ids)  # rejects a repeated id
            self.hand_ids = [sorted(h) for h in hands]
            self.bottom_ids = sorted(bottom)
        self.dealt = tuple(packed[:seats])
        self.bottom = packed[seats]
        # The bottom's suits matter only to the bottom bonus (a flush): known from card ids.
        self._flush = None
        if self.bottom_ids is not None:
            self._flush = _bottom_flush(self.bottom_ids, 0, len(self.bottom_ids))
        elif self.variant.stake.bottom_bonus and self.bottom:
            rules_flags = self.base_rules.stage_flags
            distinct = self.bottom < (1 << 52) and all((self.bottom >> (4 * r)) & 15 <= 1 for r in range(13))
            if distinct and _bottom_bonus(rules_flags, self.bottom, 0) < 3:
                raise GameError(f"bottom_bonus=table: whether the bottom {format_cards(self.bottom)} is a flush "
                                f"depends on its suits: give the deal as card ids", param="bottom")
            self._flush = 0

    def _start(self, first_bidder: int) -> None:
        self.first_bidder = first_bidder
        stage_flags = self.base_rules.stage_flags
        forced = [s for s in range(self.seats) if _must_call(stage_flags, self.dealt[s])]
        self.auction = Auction(first_bidder, self.rules.bidding, self.all_pass, forced, self.seats)
        #: Shows so far: ``(seat, stage code)`` in order (see :meth:`show`).
        self.shows: list[tuple[int, int]] = []
        #: Each seat's doubling factor, None until it doubled (see :meth:`double`).
        self.doubles: list = [None] * self.seats
        self._double_order: list[int] = []
        #: The landlord's draws under ``landlord_draw``: ``(farmer seat, packed card)``.
        self.draws: list[tuple[int, int]] = []
        self.hands = list(self.dealt)
        self.landlord: "int | None" = None
        self.base = 0
        self.plays: list[tuple[int, Play]] = []
        self.last_play: "Play | None" = None
        self.last_seat: "int | None" = None
        self.passes = 0
        self.bombs = 0
        self.doublings = 0
        self.played = [0] * self.seats
        self._show_wild(False)
        self.result: "Result | None" = None
        self.phase = BIDDING
        self.turn: "int | None" = first_bidder

    def redeal(self) -> None:
        """After every seat passed (phase ``redeal``): deal again from this game's
        random generator; the next seat bids first."""
        if self.phase != REDEAL:
            raise IllegalAction(E_NOT_BIDDING, "redeal is only possible after every seat passed")
        self._deal_random()
        self._start((self.first_bidder + 1) % self.seats)

    # Queries.
    def hand(self, seat: int) -> str:
        """The cards a seat holds now, as text."""
        return format_cards(self.hands[self._table.check_seat(seat)])

    def role(self, seat: int) -> "str | None":
        """The role of ``seat`` once the landlord is known
        (:data:`~ddz_tools.variants.table.ROLE_NAMES`: ``landlord``, then
        ``farmer1``, ``farmer2`` (and ``farmer3``) in turn order from him),
        None before."""
        seat = self._table.check_seat(seat)
        return None if self.landlord is None else self.variant.seat_roles(self.landlord)[seat]

    @property
    def bids(self) -> list[tuple[int, int]]:
        return list(self.auction.bids)

    @property
    def leading(self) -> bool:
        """True when the seat to move leads freely."""
        return self.phase == PLAYING and self.last_play is None

    def state(self) -> GameState:
        """An immutable snapshot of the game."""
        return GameState(self.phase, self.turn, tuple(self.hands), self.bottom, self.landlord, self.base,
                         tuple(self.auction.bids), tuple(self.plays), self.last_play, self.last_seat,
                         self.passes, self.bombs, self.rules,
                         tuple((s, show_stage_text(c)) for s, c in self.shows),
                         tuple((s, self.doubles[s]) for s in self._double_order))

    @property
    def shown(self) -> set:
        """The seats whose hands are public (they showed)."""
        return {s for s, _ in self.shows}

    @property
    def show_multiple(self) -> int:
        """The show multiple so far: 1, or the shows merged by ``show_merge``."""
        m = 1
        for seat, code in self.shows:
            m = _merge_show(self.base_rules.stage_flags, m,
                            _show_factor(self.base_rules.stage_flags, code, seat == self.landlord))
        return m

    def legal_doubles(self) -> list[int]:
        """The factors the seat to double may choose (phase ``doubling``)."""
        if self.phase != DOUBLING:
            return []
        return [f for f in (1, 2, 4) if _double_ok(self.base_rules.stage_flags, f)]

    def show(self, stage, seat: int) -> None:
        """``seat`` shows its hand at ``stage``: ``before-deal`` or ``deal:N``
        (N cards dealt so far) before the first bid, or ``first-play`` (the
        landlord, before his first play).  Raises :class:`IllegalAction` when
        the rules allow no show there or the seat already showed."""
        seat = self._table.check_seat(seat)
        code = show_stage_code(stage)
        where = f"seat {seat} showed at {stage!r}"
        if code < 0:
            raise IllegalAction(E_BAD_SHOW, f"{where}: a stage is before-deal, deal:N or first-play")
        if seat in self.shown:
            raise IllegalAction(E_BAD_SHOW, f"{where}, but its hand is already shown")
        flags = self.base_rules.stage_flags
        if code == SHOW_FIRST_PLAY:
            if self.phase != PLAYING or seat != self.landlord or self.played[seat] or self.turn != seat:
                raise IllegalAction(E_BAD_SHOW, f"{where}: only the landlord shows at his first play, "
                                                f"before he plays")
        else:
            if self.phase != BIDDING or self.auction.bids:
                raise IllegalAction(E_BAD_SHOW, f"{where}: the deal is over (shows before or during the "
                                                f"deal come before the first bid)")
            if code > self._table.hand_cards:
                raise IllegalAction(E_BAD_SHOW, f"{where}: a seat is dealt {self._table.hand_cards} cards")
            if self.shows and self.shows[-1][1] != SHOW_FIRST_PLAY and code < self.shows[-1][1]:
                raise IllegalAction(E_BAD_SHOW, f"{where}, after a show at "
                                                f"{show_stage_text(self.shows[-1][1])}: shows come in deal order")
        if _show_factor(flags, code, seat == self.landlord) == 0:
            raise IllegalAction(E_BAD_SHOW, f"{where}: no show there under show={self.base_rules.show}")
        self.shows.append((seat, code))

    def draw(self, card=None, seat: "int | None" = None) -> int:
        """The landlord draws one card from the farmer to draw from (phase
        ``drawing``, :attr:`turn`; ``landlord_draw=on``): ``card`` (text of one
        card, or packed), or None for a card at random from the game's
        generator.  Returns the packed card."""
        if self.phase != DRAWING:
            raise IllegalAction(E_BAD_DRAW, f"a draw in the {self.phase} phase")
        farmer = self.turn
        if seat is not None and self._table.check_seat(seat) != farmer:
            raise IllegalAction(E_WRONG_TURN, f"a draw from seat {seat}, but the landlord draws from seat {farmer}")
        hand = self.hands[farmer]
        if card is None:
            c = _draw_card(hand, self.rng.randrange(card_count(hand)))
        else:
            try:
                c = to_packed(card)
            except (CardError, TypeError, ValueError):
                raise IllegalAction(E_BAD_DRAW, f"the landlord drew {card!r} from seat {farmer}: not a card") from None
            if card_count(c) != 1 or not _contains(hand, c):
                raise IllegalAction(E_BAD_DRAW, f"the landlord drew {format_cards(c) if is_valid_packed(c) else card!r} "
                                                f"from seat {farmer}, who holds {self.hand(farmer)}")
        self.hands[farmer] -= c
        self.hands[self.landlord] += c
        self.draws.append((farmer, c))
        if len(self.draws) < 2:
            self.turn = _next_seat(farmer, self.seats)
        else:
            self._after_auction()
        return c

    def double(self, factor: int, seat: "int | None" = None) -> None:
        """Double by ``factor`` (1, 2 or with ``super_double`` 4) for the seat to
        move (phase ``doubling``: the farmers from the landlord's left, then
        the landlord)."""
        if self.phase != DOUBLING:
            raise IllegalAction(E_BAD_DOUBLE, f"a double of {factor!r} in the {self.phase} phase")
        seat = self._check_turn(seat, factor)
        if isinstance(factor, bool) or not isinstance(factor, int) or not _double_ok(self.base_rules.stage_flags, factor):
            allowed = ", ".join(str(f) for f in self.legal_doubles())
            raise IllegalAction(E_BAD_DOUBLE, f"seat {seat} doubled by {factor!r}: it must be {allowed}")
        self.doubles[seat] = factor
        self._double_order.append(seat)
        if len(self._double_order) == self.seats:
            self.phase, self.turn = PLAYING, self.landlord
        else:
            self.turn = self.landlord if len(self._double_order) == self.seats - 1 else _next_seat(seat, self.seats)

    def _after_auction(self) -> None:
        """After the auction (and the draws): the doubling, then the play."""
        if self.variant.stake.doubles:
            self.phase, self.turn = DOUBLING, _next_seat(self.landlord, self.seats)
        else:
            self.phase, self.turn = PLAYING, self.landlord

    def legal_bids(self) -> list[int]:
        return self.auction.legal_bids() if self.phase == BIDDING else []

    def legal_plays(self) -> list[Play]:
        """Every legal action of the seat to move in the play phase, pass first
        when it is allowed."""
        if self.phase != PLAYING:
            return []
        moves = generate(self.hands[self.turn], self.last_play, self.rules)
        return ([] if self.last_play is None else [Play.pass_()]) + list(moves)

    # Actions.
    def _check_turn(self, seat, action) -> int:
        if seat is None or seat == self.turn:
            return self.turn
        seat = self._table.check_seat(seat)
        what = (f"bid {action!r}" if self.phase == BIDDING else f"doubled by {action!r}" if self.phase == DOUBLING
                else f"played {_text(action)}")
        raise IllegalAction(E_WRONG_TURN, f"seat {seat} {what} but it is seat {self.turn}'s turn")

    def bid(self, value: int, seat: "int | None" = None) -> None:
        """Bid ``value`` (0 = pass) for the seat to move (or check that it is ``seat``)."""
        if self.phase != BIDDING:
            raise IllegalAction(E_NOT_BIDDING, f"bid {value!r} in the {self.phase} phase")
        seat = self._check_turn(seat, value)
        self.auction.bid(seat, value)
        state = self.auction._state
        outcome = state[A_OUTCOME]
        if outcome == AUCTION_OPEN:
            self.turn = state[A_TURN]
        elif outcome == AUCTION_VOID:
            self.phase, self.turn = REDEAL, None
        else:
            self.landlord, self.base = state[A_LANDLORD], state[A_BASE]
            self.hands[self.landlord] += self.bottom
            self._show_wild(True)
            if self.variant.stake.draws:
                self.phase, self.turn = DRAWING, _next_seat(self.landlord, self.seats)
            else:
                self._after_auction()

    def _resolve(self, play, seat: int) -> Play:
        """Turn the argument of :meth:`play` into a Play legal here (or raise)."""
        prev = 0 if self.last_play is None else self.last_play.kind
        if isinstance(play, Play):
            if play.is_pass:
                return play
            if play.kind not in reading_kinds(play.cards, self._flags, self.hands[seat]):
                raise IllegalAction(E_NOT_A_COMBINATION, f"seat {seat} played {_text(play, self._flags)}: not a "
                                                         f"legal play under {self._rules_text()} rules")
            cards, fixed = play.cards, play.kind
            text = play.notation(self._flags)
        elif isinstance(play, str):
            text = play.strip()
            if text in ("", "-") or text.lower() in ("pass", "p"):
                return Play.pass_()
            fixed = None
            try:
                cards = play_text_cards(text, self._table.decks)
            except PlayError:
                raise IllegalAction(E_BAD_CARDS, f"seat {seat} played {text!r}: too many cards of one rank") from None
            except CardError as exc:
                raise IllegalAction(E_BAD_CARDS, f"seat {seat} played {text!r}: {exc}") from None
            if has_fixed_reading(text):
                try:
                    fixed = Play.parse(text, self.rules, self.hands[seat]).kind
                except PlayError:
                    fixed = -1
        elif isinstance(play, int) and not isinstance(play, bool):
            if play == 0:
                return Play.pass_()
            if not is_valid_packed(play, self._table.decks):
                raise IllegalAction(E_BAD_CARDS, f"seat {seat} played {play:#x}: not a set of cards")
            cards, fixed, text = play, None, format_cards(play)
        else:
            raise TypeError(f"a play is a Play, card text or a packed int, not {type(play).__name__}")
        if not _contains(self.hands[seat], cards):
            raise IllegalAction(E_NOT_IN_HAND, f"seat {seat} played {text} but holds {self.hand(seat)}")
        if fixed == -1 or (fixed is None and not reading_kinds(cards, self._flags, self.hands[seat])):
            raise IllegalAction(E_NOT_A_COMBINATION, f"seat {seat} played {text}: not a legal play under "
                                                     f"{self._rules_text()} rules")
        if fixed is not None:
            if prev and not beats(fixed, prev, self._flags):
                raise IllegalAction(E_DOES_NOT_BEAT, f"seat {seat} played {text}, which does not beat "
                                                     f"{_text(self.last_play, self._flags)}")
            return Play(cards, fixed)
        kind = best_reading(cards, prev, self._flags, self.hands[seat])
        if kind is None:
            raise IllegalAction(E_DOES_NOT_BEAT, f"seat {seat} played {text}, which does not beat "
                                                 f"{_text(self.last_play, self._flags)}")
        return Play(cards, kind)

    def _rules_text(self) -> str:
        wild = f" with {self.rules.wild_text()} wild" if self.rules.wild else ""
        return self.rules.describe() + wild

    def play(self, play, seat: "int | None" = None) -> Play:
        """Play for the seat to move: a :class:`Play`, card text (``""`` or
        ``pass`` passes; ``333444-56`` fixes a reading) or a packed int (0
        passes).  Returns the play as read."""
        if self.phase != PLAYING:
            if self.phase == FINISHED:
                raise IllegalAction(E_FINISHED, f"{_text(play)} was played after the game ended")
            raise IllegalAction(E_NOT_PLAYING, f"{_text(play)} was played in the {self.phase} phase")
        seat = self._check_turn(seat, play)
        p = self._resolve(play, seat)
        kind = p.kind
        prev_kind = 0 if self.last_play is None else self.last_play.kind
        if kind == 0:       # a pass
            if not _may_pass(prev_kind):
                raise IllegalAction(E_PASS_ON_LEAD, f"seat {seat} passed but must lead (nothing to answer)")
            self.plays.append((seat, p))
            self.passes += 1
            if _trick_after(0, seat, prev_kind, self.last_seat, self.seats)[0] == 0:
                self.last_play, self.passes = None, 0
            self.turn = _next_seat(seat, self.seats)
            return p
        self.plays.append((seat, p))
        self.hands[seat] -= p.cards
        self.played[seat] += 1
        d = _stake_doublings(kind, self._flags)
        if d:
            self.bombs += 1
            self.doublings += d
        self.last_play, self.last_seat, self.passes = p, seat, 0     # trick_after of a play
        if self.hands[seat] == 0:
            self._finish(seat)
        else:
            self.turn = _next_seat(seat, self.seats)
        return p

    def pass_(self, seat: "int | None" = None) -> None:
        """Pass for the seat to move."""
        self.play(Play.pass_(), seat)

    def bottom_bonus_now(self) -> int:
        """The bottom bonus (``bottom_bonus=table``; 1 when off or without a bottom)."""
        if not self.bottom:
            return 1
        return _bottom_bonus(self.base_rules.stage_flags, self.bottom, self._flush or 0)

    def _finish(self, winner: int) -> None:
        farmers = [s for s in range(self.seats) if s != self.landlord]
        r = self.base_rules
        bonus = self.bottom_bonus_now()
        self.result = score(self.landlord, winner, self.base, self.bombs, self.played[self.landlord],
                            [self.played[s] for s in farmers], self.rules.spring, self.doublings,
                            self.show_multiple, bonus, tuple(d or 1 for d in self.doubles), r.doubling,
                            r.has_stages)
        self.phase, self.turn = FINISHED, None

    def __repr__(self) -> str:
        return (f"<Game {self.phase} turn={self.turn} landlord={self.landlord} "
                f"hands={[self.hand(s) for s in range(self.seats)]}>")


def _text(play, flags: int = 0) -> str:
    if isinstance(play, Play):
        return play.notation(flags)
    if isinstance(play, int) and not isinstance(play, bool):
        return format_cards(play) if play >= 0 else repr(play)
    return repr(play) if not isinstance(play, str) else (play or "pass")


def random_game(seed: int, rules: "Rules | str | None" = None, first_bidder: "int | None" = None,
                all_pass: str = "redeal", pass_prob: float = 0.3) -> Game:
    """Play one whole hand with uniformly random legal actions (for tests and
    benchmarks): random bids (redealing while everyone passes), random draws
    and doubles where the rules have them, the landlord showing at his first
    play one time in two where shows are played, then a random legal play, or
    a pass with probability ``pass_prob`` when answering.

    >>> g = random_game(5)
    >>> g.phase, sum(g.result.scores)
    ('finished', 0)
    >>> g = random_game(5, "happy")
    >>> g.phase, sum(g.result.scores), len(g.state().doubles)
    ('finished', 0, 3)
    """
    rng = random.Random(seed)
    g = Game(rules=rules, first_bidder=first_bidder, all_pass=all_pass, rng=rng)
    while g.phase != PLAYING:
        if g.phase == REDEAL:
            g.redeal()
        elif g.phase == DRAWING:
            g.draw()
        elif g.phase == DOUBLING:
            g.double(rng.choice(g.legal_doubles()))
        else:
            g.bid(rng.choice(g.legal_bids()))
    if g.variant.stake.shows and rng.random() < 0.5:
        g.show("first-play", g.landlord)
    while g.phase == PLAYING:
        options = g.legal_plays()
        if g.last_play is not None and (len(options) == 1 or rng.random() < pass_prob):
            g.pass_()
        else:
            plays = options[1:] if g.last_play is not None else options
            g.play(rng.choice(plays))
    return g
