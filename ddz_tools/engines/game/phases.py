"""What the game's modules share: the phases of a hand, the error codes of
illegal actions, the show stages, and the table that a bare seat count
stands for.

A hand goes through :data:`BIDDING` (or :data:`REDEAL` when every seat
passed), :data:`DRAWING` (``landlord_draw``) and :data:`DOUBLING` (where the
rules have them), :data:`PLAYING` and :data:`FINISHED`.  The error codes
(``E_*``) are those of :class:`~ddz_tools.core.errors.IllegalAction`, shared
with the fast validator of :mod:`ddz_tools.engines.records`.

>>> show_stage_code("deal:5"), show_stage_text(show_stage_code("first-play"))
(5, 'first-play')
>>> seat_roles(2, 4)
{2: 'landlord', 3: 'farmer1', 0: 'farmer2', 1: 'farmer3'}
"""

from __future__ import annotations

from ...core.gamerules import SHOW_BEFORE_DEAL, SHOW_FIRST_PLAY
from ...variants.table import TABLES, Table

__all__ = ["BIDDING", "DRAWING", "DOUBLING", "PLAYING", "FINISHED", "REDEAL", "ALL_PASS_OPTIONS",
           "show_stage_code", "show_stage_text", "seat_table", "seat_roles", "SEAT_COUNTS", "ERROR_CODES",
           "E_FINISHED", "E_WRONG_TURN", "E_BAD_BID", "E_NOT_BIDDING", "E_NOT_PLAYING", "E_PASS_ON_LEAD",
           "E_BAD_CARDS", "E_NOT_IN_HAND", "E_NOT_A_COMBINATION", "E_DOES_NOT_BEAT", "E_BAD_SHOW", "E_BAD_DOUBLE",
           "E_BAD_DRAW"]

BIDDING = "bidding"
DRAWING = "drawing"     # landlord_draw: the landlord draws a card from each farmer
DOUBLING = "doubling"   # each seat doubles x1, x2 or x4
PLAYING = "playing"
FINISHED = "finished"
REDEAL = "redeal"

#: What happens when every seat passes: a new deal, or Botzone's rule
#: (seat 0 becomes landlord with base 1).
ALL_PASS_OPTIONS = ("redeal", "seat0")

# Error codes of illegal actions (shared with the fast validator, records/validate.py).
E_FINISHED = "game_over"
E_WRONG_TURN = "wrong_turn"
E_BAD_BID = "bad_bid"
E_NOT_BIDDING = "not_bidding"
E_NOT_PLAYING = "not_playing"
E_PASS_ON_LEAD = "pass_on_lead"
E_BAD_CARDS = "bad_cards"
E_NOT_IN_HAND = "not_in_hand"
E_NOT_A_COMBINATION = "not_a_combination"
E_DOES_NOT_BEAT = "does_not_beat"
E_BAD_SHOW = "bad_show"
E_BAD_DOUBLE = "bad_double"
E_BAD_DRAW = "bad_draw"
#: Every error code, in the order of the fast validator's statuses (its status ``k + 2`` is code ``k``).
ERROR_CODES = (E_WRONG_TURN, E_PASS_ON_LEAD, E_NOT_IN_HAND, E_NOT_A_COMBINATION, E_DOES_NOT_BEAT, E_FINISHED,
               E_BAD_CARDS, E_BAD_BID, E_NOT_BIDDING, E_NOT_PLAYING, E_BAD_SHOW, E_BAD_DRAW, E_BAD_DOUBLE)


def show_stage_code(stage) -> int:
    """A show stage as text (``before-deal``, ``deal:N``, ``first-play``) to
    the kernels' code (:data:`~ddz_tools.core.gamerules.SHOW_BEFORE_DEAL`, ``N``,
    :data:`~ddz_tools.core.gamerules.SHOW_FIRST_PLAY`); -1 for text that is none of them."""
    if not isinstance(stage, str):
        return -1
    t = stage.strip().lower()
    if t == "before-deal":
        return SHOW_BEFORE_DEAL
    if t == "first-play":
        return SHOW_FIRST_PLAY
    if t.startswith("deal:") and t[5:].isdigit():
        n = int(t[5:])
        return n if 1 <= n < SHOW_FIRST_PLAY else -1
    return -1


def show_stage_text(code: int) -> str:
    """The text of a show stage code (see :func:`show_stage_code`)."""
    if code == SHOW_BEFORE_DEAL:
        return "before-deal"
    if code == SHOW_FIRST_PLAY:
        return "first-play"
    return f"deal:{code}"


#: The seat counts of the tables played (:data:`~ddz_tools.variants.table.TABLES`).
SEAT_COUNTS = tuple(sorted({t.seats for t in TABLES.values()}))


def seat_table(seats) -> "Table | None":
    """The table of ``seats`` seats (the first of
    :data:`~ddz_tools.variants.table.TABLES` with as many), which answers what
    depends on the seat count alone: the seats' numbers and roles; None when
    no table seats that many."""
    return next((t for t in TABLES.values() if t.seats == seats), None)


def seat_roles(landlord: int, seats: int = 3) -> dict:
    """Each seat's role at a table of ``seats``
    (:meth:`Table.seat_roles <ddz_tools.variants.table.Table.seat_roles>`: the
    landlord, then ``farmer1`` on his left, and so on round the table)."""
    return seat_table(seats).seat_roles(landlord)
