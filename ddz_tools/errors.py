"""Exceptions of ddz-tools.

Every error the package raises on bad input is a :class:`DdzError` (a
``ValueError``), with one subclass per kind of failure.  The CLI turns any
``DdzError`` into a one-line ``error: ...`` on stderr and exit code 2.
"""


class DdzError(ValueError):
    """Base class of every ddz-tools input error."""


class CardError(DdzError):
    """Card text or a card id that does not describe a legal set of cards."""


class RulesError(DdzError):
    """An unknown rules preset or option, or a bad option value."""


class PlayError(DdzError):
    """Cards that form no legal play, or a play that is not legal here."""


class PositionError(DdzError):
    """A malformed endgame position (``ddz-position/1``)."""


class RecordError(DdzError):
    """A malformed or inconsistent game record (``ddz-record/1``, Botzone, DouZero)."""


class GameError(DdzError):
    """An action that is illegal in the current state of a game."""


class ViewError(DdzError):
    """An impossible or malformed view of one player (``ddz-view/1``, ``ddz advise``)."""
