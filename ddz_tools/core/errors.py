"""Exceptions of ddz-tools: every exception class of the package is defined here.

Three kinds of failure, three kinds of exception:

* **bad input** (card text, a rules spec, a record, a position, an option
  value that a user typed) raises a :class:`DdzError`, a ``ValueError``, with
  one subclass per kind below.  The message is one line and names what is
  wrong; the CLI prints it as ``error: ...`` and exits with code 2.
* **misuse of the Python API** by a program (an argument of the wrong type)
  raises a plain ``TypeError`` or ``ValueError``.
* a search that reaches its node or time limit raises :class:`SearchLimit`
  inside the solver, which catches it and reports an unknown result.
* **an unexpected internal state** is a bug: it raises whatever it raises
  (``RuntimeError`` where the package checks for one) and is never caught as
  bad input, so the CLI shows the traceback and exits with code 1.

A message speaks of a function's parameters (``bottom``, ``scheduler``),
never of command-line flags.  An error about one parameter carries its name
in :attr:`DdzError.param`; the CLI uses it to name its own flag instead
(``--bottom``).
"""

from __future__ import annotations

__all__ = [
    "DdzError", "CardError", "RulesError", "PlayError", "PositionError", "RecordError", "GameError",
    "IllegalAction", "BidError", "ViewError", "PuzzleError", "ArgumentError", "MissingExtraError", "SearchLimit",
]


class DdzError(ValueError):
    """Base class of every ddz-tools input error.

    ``param`` is the name of the function parameter the error is about (or a
    tuple of names), or ``None``; the message names each as a word of its
    own, so that a command line can put its flag in its place.

    >>> str(ArgumentError("workers must be a positive integer, not 0", param="workers"))
    'workers must be a positive integer, not 0'
    """

    def __init__(self, message: str = "", *, param: "str | tuple | None" = None):
        super().__init__(message)
        self.param = param


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


class StageError(RecordError):
    """A record's stages before the play do not replay: ``status``
    (``invalid`` or ``incomplete``), ``phase`` (``show``, ``bid``, ``draw``
    or ``double``), ``index`` into that field, the error ``code``, and the
    game so far (``game``)."""

    def __init__(self, message: str, status: str, phase: str, index, code, game):
        super().__init__(message)
        self.status, self.phase, self.index, self.code, self.game = status, phase, index, code, game


class GameError(DdzError):
    """An action that is illegal in the current state of a game, or a game set up wrongly."""


class IllegalAction(GameError):
    """An action that is illegal in the current state; ``code`` names the kind.

    Codes: ``game_over``, ``wrong_turn``, ``bad_bid``, ``not_bidding``,
    ``not_playing``, ``pass_on_lead``, ``bad_cards``, ``not_in_hand``,
    ``not_a_combination``, ``does_not_beat``, ``bad_show``, ``bad_draw``,
    ``bad_double``.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class BidError(DdzError):
    """Inconsistent input to the bid evaluator (hand, bottom, seat, earlier bids)."""


class ViewError(DdzError):
    """An impossible or malformed view of one player (``ddz-view/1``, ``ddz advise``)."""


class PuzzleError(DdzError):
    """A ``ddz-puzzle/1`` line that cannot be read or is inconsistent."""


class ArgumentError(DdzError):
    """A bad value of a parameter that sets how a tool runs: a count, a limit,
    a seed, a number of workers, a table size, a policy name, a scheduler.
    (The CLI names the matching option.)"""


class MissingExtraError(DdzError):
    """A feature needs an optional extra that is not installed (the message
    says which, and the ``pip install`` that brings it)."""


class SearchLimit(Exception):
    """Raised inside a solve when a node or time limit is reached (caught by
    the solver, which then reports the result as unknown; not an error)."""

    def __init__(self, reason: str, shared: bool = False):
        super().__init__(reason)
        self.reason = reason
        #: The solve's node limit shared by its workers (not one worker's own cap).
        self.shared = shared
        #: Winning root plays proven before the limit (parallel root only).
        self.proven = None


def attempt(fn, arg) -> tuple:
    """``(fn(arg), None)``, or ``(None, message)`` when ``fn`` finds the input
    bad (raises a :class:`DdzError`): for the loops over many inputs that
    report a bad one and go on with the next.

    >>> from ddz_tools.core.cards import parse_cards
    >>> attempt(parse_cards, "33")
    (2, None)
    >>> attempt(parse_cards, "3Z")
    (None, "'3Z': unknown card character 'Z' (use 3456789TJQKA2XD)")
    """
    try:
        return fn(arg), None
    except DdzError as exc:
        return None, str(exc)
