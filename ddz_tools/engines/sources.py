"""Input layer of batch analysis: find the games in files of any supported format.

``ddz analyze`` takes files in four formats and sniffs each file on its own:

* ``ddz-record/1`` JSON Lines (one recorded game per line; a file holding one
  pretty-printed record or a JSON list of records is read too);
* a Botzone judge log: a JSON object with ``log`` and ``initdata`` (one per
  file, or one per line of a JSON Lines file);
* a Botzone bot-side transcript: ``Judge: {...}`` and ``Bot k: {...}`` lines;
* a DouZero / PerfectDou evaluation pickle: a list of deal dicts (``landlord``,
  ``landlord_up``, ``landlord_down``, ``three_landlord_cards``, sorted DouZero
  ints).  It is loaded by :class:`RestrictedUnpickler`, which refuses every
  class, so an untrusted pickle can never run code.

:func:`read_items` turns a file into :class:`Item` objects, one per game or
deal, each keyed by file and line (or index) so that a resumed run can skip
what it has done.  A line that cannot be read becomes an item with ``error``
set: the batch reports it and goes on.  Nothing here replays a game; that is
the job of :mod:`ddz_tools.engines.records` and :mod:`ddz_tools.engines.botzone`.

>>> import pickle
>>> safe_loads(pickle.dumps([{"landlord": [3, 4]}]))
[{'landlord': [3, 4]}]
>>> safe_loads(pickle.dumps(range(3)))
Traceback (most recent call last):
...
ddz_tools.core.errors.RecordError: pickle refers to builtins.range: refused (only lists, dicts, numbers and strings may be loaded)
"""

from __future__ import annotations

import io
import json
import os
import pickle
import re
from typing import Iterator, NamedTuple

from ..core.cards import (
    FULL_DECK,
    RANK_2,
    RANK_D,
    RANK_X,
    count_of,
    format_cards,
    pack_douzero,
)
from ..core.errors import CardError, RecordError

#: Format names, as reported in every result.
FMT_RECORD = "ddz-record/1"
FMT_BOTZONE_LOG = "botzone-log"
FMT_BOTZONE_TRANSCRIPT = "botzone-transcript"
FMT_DOUZERO = "douzero-pickle"
FORMATS = (FMT_RECORD, FMT_BOTZONE_LOG, FMT_BOTZONE_TRANSCRIPT, FMT_DOUZERO)
#: An undecoded line of a JSON Lines file (see :func:`read_items`); never reported.
FMT_JSON_LINE = "json-line"

_PICKLE_SUFFIXES = (".pkl", ".pickle", ".pk")
_TRANSCRIPT_LINE = re.compile(r"^\s*(Judge|Bot \d+)\s*:")


# The restricted unpickler ----------------------------------------------------------


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that refuses every class and every persistent id.

    Plain containers and scalars (lists, tuples, dicts, ints, floats, strings,
    ``None``, booleans; sets and bytes from protocol 4 on) are built by the
    pickle machine without looking up any class.  Everything that could run code (``REDUCE``
    on a callable, ``BUILD``, ``NEWOBJ``, ``INST``, extension codes) first has to
    obtain a class or function through :meth:`find_class`, which always
    raises, so the payload is refused before anything is called.
    """

    def find_class(self, module, name):  # noqa: D401 - pickle API
        raise RecordError(f"pickle refers to {module}.{name}: refused "
                          "(only lists, dicts, numbers and strings may be loaded)")

    def persistent_load(self, pid):
        raise RecordError("pickle uses a persistent id: refused")


def safe_loads(data: bytes):
    """Unpickle ``data`` with :class:`RestrictedUnpickler`; a bad pickle is a :class:`RecordError`."""
    try:
        return RestrictedUnpickler(io.BytesIO(data)).load()
    except RecordError:
        raise
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError,
            KeyError, AttributeError, MemoryError, OverflowError) as exc:
        raise RecordError(f"not a readable pickle: {exc or type(exc).__name__}") from None


def safe_load(path: str):
    """Read and :func:`safe_loads` a pickle file."""
    with open(path, "rb") as f:
        return safe_loads(f.read())


# Items --------------------------------------------------------------------------


class Item(NamedTuple):
    """One game (or deal) found in an input file (an immutable tuple).

    ``file`` is the path as given (normalised), ``line`` the 1-based line of a
    JSON Lines file, the 1-based index of a deal in a pickle or of a record in a
    JSON list, and 1 for a file that holds one game.  ``fmt`` is one of
    :data:`FORMATS`; ``data`` the parsed JSON object, the transcript text or the
    deal dict; ``error`` the reason when the item could not be read at all.
    """

    file: str
    line: int
    fmt: str
    data: object = None
    error: "str | None" = None

    @property
    def key(self) -> tuple[str, int]:
        """The resume key: file and line."""
        return (self.file, self.line)


def sniff(path: str, head: "bytes | None" = None) -> str:
    """The format of a file: one of :data:`FORMATS`.

    Pickles are told by their suffix or the protocol byte ``0x80``.  A text
    file is a transcript when it does not start with JSON and has
    ``Judge:``/``Bot k:`` lines (other lines, such as the shell command that
    ran the bot, are ignored); JSON with ``log`` and ``initdata`` is a Botzone
    judge log; anything else is read as ``ddz-record/1``.  (Each JSON value is
    classified again when read, so a JSON Lines file may mix records and
    judge logs.)
    """
    if head is None:
        with open(path, "rb") as f:
            head = f.read(65536)
    if path.lower().endswith(_PICKLE_SUFFIXES) or head[:1] == b"\x80":
        return FMT_DOUZERO
    text = head.decode("utf-8", errors="replace")
    lines = text.splitlines()
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    if not first.startswith(("{", "[")) and any(_TRANSCRIPT_LINE.match(ln) for ln in lines[:200]):
        return FMT_BOTZONE_TRANSCRIPT
    if first.startswith("{") and '"log"' in text and '"initdata"' in text:
        return FMT_BOTZONE_LOG
    return FMT_RECORD


def _classify_json(obj) -> "tuple[str, str | None]":
    """(format, error) of one parsed JSON value meant to be a game."""
    if not isinstance(obj, dict):
        return FMT_RECORD, f"expected a JSON object, got {type(obj).__name__}"
    if "log" in obj and "initdata" in obj:
        return FMT_BOTZONE_LOG, None
    schema = obj.get("schema")
    if schema != FMT_RECORD:
        return FMT_RECORD, (f"unknown schema {schema!r} (expected {FMT_RECORD!r})" if schema is not None
                            else f"no 'schema' field (expected {FMT_RECORD!r})")
    return FMT_RECORD, None


def _json_items(path: str, text: str, decode: bool) -> Iterator[Item]:
    lines = text.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        return
    # A single pretty-printed JSON value (a record, a judge log, or a list of them).
    try:
        json.loads(lines[first])
        one_per_line = True
    except ValueError:
        one_per_line = False
    if not one_per_line:
        try:
            obj = json.loads(text)
        except ValueError as exc:
            yield Item(path, first + 1, FMT_RECORD, None, f"not JSON: {exc}")
            return
        values = obj if isinstance(obj, list) else [obj]
        for i, value in enumerate(values, 1):
            fmt, err = _classify_json(value)
            yield Item(path, i, fmt, value, err)
        return
    for i, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        item = Item(path, i, FMT_JSON_LINE, s, None)
        yield decode_item(item) if decode else item


def decode_item(item: Item) -> Item:
    """Decode an undecoded JSON line (format :data:`FMT_JSON_LINE`) and classify it;
    any other item is returned as it is.

    >>> decode_item(Item("f", 3, FMT_JSON_LINE, '{"schema": "ddz-record/1"}')).fmt
    'ddz-record/1'
    >>> decode_item(Item("f", 4, FMT_JSON_LINE, '{"schema": 1')).error
    "not JSON: Expecting ',' delimiter: line 1 column 13 (char 12)"
    """
    if item.fmt != FMT_JSON_LINE:
        return item
    try:
        value = json.loads(item.data)
    except ValueError as exc:
        return Item(item.file, item.line, FMT_RECORD, None, f"not JSON: {exc}")
    fmt, err = _classify_json(value)
    return Item(item.file, item.line, fmt, value, err)


def read_items(path: str, decode: bool = True) -> Iterator[Item]:
    """Every game or deal of one file, in file order.

    Raises :class:`RecordError` only when the file as a whole cannot be read
    (a pickle that is refused or broken, a file that is not UTF-8 text);
    single bad lines come back as items with ``error`` set.  With
    ``decode=False`` the lines of a JSON Lines file stay undecoded text (format
    :data:`FMT_JSON_LINE`) for :func:`decode_item` to decode later, in a worker:
    a line of text travels to another process far more cheaply than its parsed
    objects, and the decoding runs in parallel.
    """
    path = os.path.normpath(path)
    with open(path, "rb") as f:
        raw = f.read()
    fmt = sniff(path, raw[:65536])
    if fmt == FMT_DOUZERO:
        try:
            obj = safe_loads(raw)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None
        if isinstance(obj, dict) and isinstance(obj.get("deals"), list):
            obj = obj["deals"]
        if not isinstance(obj, (list, tuple)):
            raise RecordError(f"{path}: a DouZero pickle holds a list of deals, not a {type(obj).__name__}")
        for i, deal in enumerate(obj, 1):
            yield Item(path, i, FMT_DOUZERO, deal, None)
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if fmt == FMT_BOTZONE_TRANSCRIPT:
        yield Item(path, 1, FMT_BOTZONE_TRANSCRIPT, text, None)
        return
    yield from _json_items(path, text, decode)


# DouZero deals --------------------------------------------------------------------

#: DouZero deal keys, in our seat order (landlord, farmer1 = landlord_down who
#: plays after the landlord, farmer2 = landlord_up who plays before him).
DOUZERO_SEATS = (("landlord", 20), ("landlord_down", 17), ("landlord_up", 17))


def parse_douzero_deal(deal) -> dict:
    """Validate one DouZero deal dict and describe it.

    Returns ``{"hands": [landlord, farmer1, farmer2], "bottom": ..., "controls":
    [...], "bombs": [...]}`` in our notation; ``farmer1`` is DouZero's
    ``landlord_down``.  ``controls`` counts 2s and jokers per seat, ``bombs``
    four-of-a-kinds plus the rocket.  Raises :class:`RecordError` on a
    malformed deal.

    >>> deck = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
    >>> d = {"landlord": deck[:17] + deck[51:], "landlord_down": deck[17:34],
    ...      "landlord_up": deck[34:51], "three_landlord_cards": deck[51:]}
    >>> info = parse_douzero_deal(d)
    >>> info["hands"][0], info["bottom"], info["controls"], info["bombs"]
    ('333344445555666672XD', '2XD', [3, 0, 3], [5, 3, 3])
    """
    if not isinstance(deal, dict):
        raise RecordError(f"a DouZero deal is a dict, not a {type(deal).__name__}")
    missing = [k for k, _ in DOUZERO_SEATS if k not in deal] + (
        ["three_landlord_cards"] if "three_landlord_cards" not in deal else [])
    if missing:
        raise RecordError(f"DouZero deal lacks {', '.join(missing)}")
    hands = []
    for key, size in DOUZERO_SEATS:
        values = deal[key]
        if not isinstance(values, (list, tuple)):
            raise RecordError(f"DouZero deal: {key} is not a list of card ints")
        if len(values) != size:
            raise RecordError(f"DouZero deal: {key} holds {len(values)} cards, expected {size}")
        try:
            hands.append(pack_douzero(values))
        except CardError as exc:
            raise RecordError(f"DouZero deal: {key}: {exc}") from None
    bottom_values = deal["three_landlord_cards"]
    if not isinstance(bottom_values, (list, tuple)) or len(bottom_values) != 3:
        raise RecordError("DouZero deal: three_landlord_cards must list 3 cards")
    try:
        bottom = pack_douzero(bottom_values)
    except CardError as exc:
        raise RecordError(f"DouZero deal: three_landlord_cards: {exc}") from None
    if hands[0] + hands[1] + hands[2] != FULL_DECK:
        raise RecordError("DouZero deal: the three hands are not one 54-card deck")
    # The landlord's 20 include the bottom: every rank of the bottom must be there.
    for r in range(15):
        if count_of(bottom, r) > count_of(hands[0], r):
            raise RecordError("DouZero deal: three_landlord_cards are not in the landlord's hand")

    def controls(h):
        return count_of(h, RANK_2) + count_of(h, RANK_X) + count_of(h, RANK_D)

    def bombs(h):
        return sum(1 for r in range(13) if count_of(h, r) == 4) + (
            1 if count_of(h, RANK_X) and count_of(h, RANK_D) else 0)

    return {
        "hands": [format_cards(h) for h in hands],
        "bottom": format_cards(bottom),
        "controls": [controls(h) for h in hands],
        "bombs": [bombs(h) for h in hands],
    }
