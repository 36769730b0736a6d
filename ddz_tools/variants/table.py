"""The table axis of a variant: how many seats, how many decks, the bottom.

Three tables are played: three seats with a 3-card bottom (classic), three
seats without a bottom (18 cards each; ``notalon``), and four seats with two
decks and an 8-card bottom (``four``).  A :class:`Table` answers every
question about the deal's shape, the seats' names and roles, and the
settlement, for any number of seats: code elsewhere asks it instead of
testing the seat count.

>>> THREE.hand_cards, THREE.landlord_cards, NO_BOTTOM.hand_cards, FOUR.hand_cards, FOUR.deck_size
(17, 20, 18, 25, 108)
>>> FOUR.roles
('landlord', 'farmer1', 'farmer2', 'farmer3')
>>> THREE.seat_roles(2)
{2: 'landlord', 0: 'farmer1', 1: 'farmer2'}
>>> THREE.settle(0, True, 6), FOUR.settle(1, False, 2)
((12, -6, -6), (2, -6, 2, 2))
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from ..core._jit import interpreted
from ..core.cards import NUM_RANKS, RANK_D, RANK_X, RANKS, count_of, full_deck, rank_limit, rank_of_card_id
from ..core.errors import GameError
from ..core.gamerules import DOUBLING_MODES, seat_settlement

__all__ = ["Table", "THREE", "NO_BOTTOM", "FOUR", "ROLE_NAMES", "TABLES"]

#: The roles in turn order from the landlord: the landlord, then the farmer on
#: his left (who moves after him), and so on round the table.
ROLE_NAMES = ("landlord", "farmer1", "farmer2", "farmer3")

_seat_settlement = interpreted(seat_settlement)


@dataclasses.dataclass(frozen=True)
class Table:
    """The seats, the decks and the bottom of one kind of table."""

    #: A short name (``three``, ``three-no-bottom``, ``four``).
    name: str
    #: Seats at the table.
    seats: int
    #: Decks dealt (54 cards each).
    decks: int
    #: Cards in the bottom the landlord takes (0: none).
    bottom_cards: int
    #: Whether the bottom is turned up for every seat (False: only the landlord sees it).
    bottom_public: bool = True

    @property
    def deck_size(self) -> int:
        """Cards dealt in all: 54 a deck."""
        return 54 * self.decks

    @property
    def hand_cards(self) -> int:
        """Cards dealt to each seat."""
        return (self.deck_size - self.bottom_cards) // self.seats

    @property
    def landlord_cards(self) -> int:
        """Cards the landlord holds once he has the bottom."""
        return self.hand_cards + self.bottom_cards

    @property
    def farmers(self) -> int:
        """Farmers playing against the landlord."""
        return self.seats - 1

    @property
    def roles(self) -> tuple:
        """The roles at this table in turn order from the landlord."""
        return ROLE_NAMES[:self.seats]

    @property
    def duel_roles(self) -> tuple:
        """The farmers the landlord may meet alone in a two-player endgame of
        one deck (the puzzles' duels): both farmers of a three-seat table,
        none at two decks (the two-player solver plays one deck)."""
        return self.roles[1:] if self.decks == 1 else ()

    @property
    def seat_numbers(self) -> str:
        """The seats as a reader lists them: ``0, 1 or 2``."""
        return ", ".join(str(s) for s in range(self.seats - 1)) + f" or {self.seats - 1}"

    @property
    def deck_words(self) -> str:
        """The cards dealt, as a message names them: ``one 54-card deck``."""
        return "one 54-card deck" if self.decks == 1 else f"{self.decks} decks of {self.deck_size} cards"

    @property
    def card_ids_refusal(self) -> "str | None":
        """None when a deal's cards may be given as card ids (0-53, which name
        the cards of one deck: suits included), else why not."""
        return None if self.decks == 1 else f"card ids name the cards of one deck, not of {self.deck_words}"

    def deck_problem(self, parts: Sequence[int]) -> "str | None":
        """Why the packed ``parts`` of a deal (the hands and the bottom, holding
        the table's number of cards) are not the table's decks, or None.

        >>> from ddz_tools.core.cards import parse_cards
        >>> FOUR.deck_problem([parse_cards("3" * 8, 2)] * 2)
        'they hold 16 3s, not 8'
        """
        # With the right number of cards, the packed sum is the decks' exactly when every rank's count is.
        if sum(parts) == full_deck(self.decks):
            return None
        for r in range(NUM_RANKS):
            held = sum(count_of(p, r) for p in parts)
            if held != rank_limit(r, self.decks):
                name = {RANK_X: "small jokers", RANK_D: "big jokers"}.get(r, f"{RANKS[r]}s")
                return f"they hold {held} {name}, not {rank_limit(r, self.decks)}"
        return "they do not add up to the decks"

    def deal(self, rng) -> tuple:
        """A shuffled deal drawn from ``rng`` (a :class:`random.Random`):
        ``(hands, bottom)``, each the sorted card ids of one deck, or packed
        ranks when several decks are dealt (card ``k`` is card id ``k % 54`` of
        its deck, and only its rank is kept)."""
        ids = list(range(self.deck_size))
        rng.shuffle(ids)
        n, seats = self.hand_cards, self.seats
        parts = [ids[i * n:(i + 1) * n] for i in range(seats)] + [ids[seats * n:]]
        if self.card_ids_refusal is None:
            parts = [sorted(part) for part in parts]
        else:
            parts = [sum(1 << (4 * rank_of_card_id(k % 54)) for k in part) for part in parts]
        return parts[:seats], parts[seats]

    def seat_roles(self, landlord: int) -> dict:
        """Each seat's role once ``landlord`` is known.

        >>> FOUR.seat_roles(2)
        {2: 'landlord', 3: 'farmer1', 0: 'farmer2', 1: 'farmer3'}
        """
        return {(landlord + i) % self.seats: ROLE_NAMES[i] for i in range(self.seats)}

    def seat_of_role(self, role: str, landlord: int) -> int:
        """The seat that plays ``role`` (a name of :attr:`roles`)."""
        if role not in self.roles:
            raise GameError(f"role must be one of {', '.join(self.roles)}, not {role!r}")
        return (landlord + self.roles.index(role)) % self.seats

    def check_seat(self, seat) -> int:
        """``seat`` when it is a seat number of this table, else a
        :class:`~ddz_tools.core.errors.GameError` naming the seats."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise GameError(f"seat must be {self.seat_numbers}, not {seat!r}")
        return seat

    def settle(self, landlord: int, landlord_won: bool, stake: int, doubles: "Sequence[int] | None" = None,
               doubling: str = "off") -> tuple:
        """Each seat's score: every farmer settles ``stake`` with the landlord,
        times the seats' doubles under ``doubling`` (the one settlement rule,
        :func:`~ddz_tools.core.gamerules.seat_settlement`)."""
        factors = tuple(doubles) if doubles is not None else (1,) * self.seats
        return tuple(_seat_settlement(s, landlord, landlord_won, stake, self.seats, DOUBLING_MODES[doubling], factors,
                                      0) for s in range(self.seats))


#: Three seats, one deck, a 3-card bottom: classic Dou Dizhu.
THREE = Table("three", 3, 1, 3)
#: Three seats, one deck, no bottom: 18 cards each.
NO_BOTTOM = Table("three-no-bottom", 3, 1, 0)
#: Four seats, two decks, an 8-card bottom that only the landlord sees: the
#: landlord against three farmers.
FOUR = Table("four", 4, 2, 8, bottom_public=False)
#: Every table, by name.
TABLES = {t.name: t for t in (THREE, NO_BOTTOM, FOUR)}
