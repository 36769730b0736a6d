"""Game records (``ddz-record/1``): reading, writing, replaying and fast validation.

A ``ddz-record/1`` file is JSON Lines, one game per line: the rules, the
deal, the bids, the plays and the stored result.  Reading never trusts a
stored value: a record is replayed and its result recomputed, with one of
four statuses (``ok``, ``mismatch``, ``invalid``, ``incomplete``).

>>> from ddz_tools.engines.game import random_game
>>> rec = parse_record(record_to_dict(record_from_game(random_game(1))))
>>> replay_record(rec).status, validate_batch([rec]).status_name(0)
('ok', 'ok')

What is where, each module importing only those above it:

* ``format``: the format itself (documented there), :class:`Record`,
  :func:`parse_record` (the structure checked), :func:`record_to_dict`,
  :func:`record_from_game`, :func:`write_record`;
* ``walk``: a record walked through the
  :class:`~ddz_tools.engines.game.Game` (:func:`replay_record`,
  :func:`game_before_play`, the statuses) and :func:`read_records`;
* ``validate``: the fast path, one Numba kernel for the play phase of many
  games (:func:`validate_batch`, :func:`pack_games`).

Files of any format (Botzone logs too) are replayed by
:mod:`ddz_tools.engines.replay`.
"""

from .format import SCHEMA, Record, parse_record, play_text, record_from_game, record_to_dict, rules_field, \
    write_record
from .walk import LineResult, ReplayResult, game_before_play, read_records, record_lines, replay_record
from .validate import S_OK, STATUS_NAMES, BatchResult, GameBatch, pack_games, run_batch, validate_batch

__all__ = [
    "SCHEMA", "Record", "ReplayResult", "LineResult", "parse_record", "record_to_dict",
    "record_from_game", "write_record", "read_records", "record_lines", "replay_record", "game_before_play", "play_text",
    "rules_field", "GameBatch", "BatchResult", "pack_games", "run_batch", "validate_batch", "STATUS_NAMES",
    "S_OK",
]
