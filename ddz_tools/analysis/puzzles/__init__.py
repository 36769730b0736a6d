"""Puzzles: endgames with exactly one winning play, found in games.

:mod:`.format` (the ``ddz-puzzle/1`` line and :class:`Puzzle`),
:mod:`.themes` (themes read off a solution line), :mod:`.defence` (the
solver's answers, the defence that resists longest and the solution line),
:mod:`.find` (the filters and the search of one game), :mod:`.collection`
(runs over files and self-play, resumable, on a Dask cluster too), :mod:`.play`
(a puzzle played at the terminal), :mod:`.rating` (ratings by the attempts of
solvers, Glicko-2), :mod:`.book` (the static HTML book).
See ``docs/puzzles.md``.
"""

from .defence import Judge, legal_moves
from .find import FindOptions, ScanStats, find_in_position, find_in_record, natural_play, positions_of_game
from .format import SCHEMA, Puzzle, PuzzleError, Step, puzzle_id, read_puzzles, side_of
from .themes import THEMES, detect_themes

__all__ = ["SCHEMA", "Puzzle", "PuzzleError", "Step", "puzzle_id", "read_puzzles", "side_of", "THEMES",
           "detect_themes", "Judge", "legal_moves", "FindOptions", "ScanStats", "find_in_position",
           "find_in_record", "natural_play", "positions_of_game"]
