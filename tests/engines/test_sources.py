"""The input layer of ``ddz analyze``: format sniffing, items, the restricted unpickler."""

from __future__ import annotations

import io
import json
import os
import pickle
import pickletools
import random

import pytest

from ddz_tools.core.cards import FULL_DECK, douzero_values, format_cards, pack_douzero
from ddz_tools.core.errors import RecordError
from ddz_tools.engines.sources import (
    FMT_BOTZONE_LOG,
    FMT_BOTZONE_TRANSCRIPT,
    FMT_DOUZERO,
    FMT_RECORD,
    RestrictedUnpickler,
    parse_douzero_deal,
    read_items,
    safe_load,
    safe_loads,
    sniff,
)

DOUZERO_DECK = [v for v in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17) for _ in range(4)] + [20, 30]


def douzero_deal(seed: int) -> dict:
    """A deal as DouZero's generate_eval_data.py writes it (sorted ints)."""
    deck = list(DOUZERO_DECK)
    random.Random(seed).shuffle(deck)
    bottom = deck[51:]
    return {"landlord": sorted(deck[:17] + bottom), "landlord_up": sorted(deck[17:34]),
            "landlord_down": sorted(deck[34:51]), "three_landlord_cards": sorted(bottom)}


# The restricted unpickler ---------------------------------------------------------------


class _Payload:
    """Unpickling this runs ``open(marker, "w")``: creates a file as its side effect."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


class _Exec:
    def __reduce__(self):
        return (exec, ("import os; os.environ['DDZ_PWNED'] = '1'",))


@pytest.mark.parametrize("protocol", [0, 1, 2, 4, 5])
def test_malicious_reduce_payload_is_refused_without_running(tmp_path, protocol):
    marker = tmp_path / "pwned"
    data = pickle.dumps([{"landlord": [3]}, _Payload(str(marker))], protocol=protocol)
    # The stock unpickler would run it: prove the payload is live.
    assert any(op.name in ("GLOBAL", "STACK_GLOBAL") for op, _, _ in pickletools.genops(data))
    with pytest.raises(RecordError, match=r"\.open: refused"):
        safe_loads(data)
    assert not marker.exists()
    os.environ.pop("DDZ_PWNED", None)
    with pytest.raises(RecordError, match=r"\.exec: refused"):
        safe_loads(pickle.dumps(_Exec(), protocol=protocol))
    assert "DDZ_PWNED" not in os.environ


def test_stock_pickle_would_have_run_the_payload(tmp_path):
    # The control experiment for the test above, with a harmless payload.
    marker = tmp_path / "ran"
    f = pickle.loads(pickle.dumps(_Payload(str(marker))))
    f.close()
    assert marker.exists()


def test_classes_and_persistent_ids_are_refused():
    import collections

    for obj in (collections.OrderedDict(a=1), range(3), _Payload("x"), complex(1, 2)):
        with pytest.raises(RecordError, match="refused"):
            safe_loads(pickle.dumps(obj, protocol=4))

    class P(pickle.Pickler):
        def persistent_id(self, obj):
            return "x" if obj == "secret" else None

    buf = io.BytesIO()
    P(buf, protocol=2).dump(["secret"])
    with pytest.raises(RecordError, match="persistent id"):
        safe_loads(buf.getvalue())


@pytest.mark.parametrize("protocol", range(0, pickle.HIGHEST_PROTOCOL + 1))
def test_plain_data_loads_in_every_protocol(protocol):
    obj = [douzero_deal(1), {"a": (1, 2.5, "x", None, True, -(10 ** 30))}, [[]], ()]
    assert safe_loads(pickle.dumps(obj, protocol=protocol)) == obj
    if protocol >= 4:  # sets and bytes have their own opcodes from protocol 4 on
        obj = [{3, 4}, frozenset({5}), b"y"]
        assert safe_loads(pickle.dumps(obj, protocol=protocol)) == obj
    else:  # before that they are built by calling builtins.set / _codecs.encode: refused
        with pytest.raises(RecordError, match="refused"):
            safe_loads(pickle.dumps([{3, 4}], protocol=protocol))


@pytest.mark.parametrize("data", [b"", b"\x80\x04", b"not a pickle", b"\x80\x04\x95\x00\x00", b"(lp0\nI1\n"])
def test_broken_pickles_are_record_errors(data):
    with pytest.raises(RecordError):
        safe_loads(data)


def test_restricted_unpickler_is_a_pickle_unpickler():
    assert issubclass(RestrictedUnpickler, pickle.Unpickler)
    assert RestrictedUnpickler(io.BytesIO(pickle.dumps([1, 2]))).load() == [1, 2]


# DouZero deals ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(25))
def test_douzero_deal_round_trip(seed):
    deal = douzero_deal(seed)
    info = parse_douzero_deal(deal)
    ll, f1, f2 = (pack_douzero(deal[k]) for k in ("landlord", "landlord_down", "landlord_up"))
    assert info["hands"] == [format_cards(ll), format_cards(f1), format_cards(f2)]
    assert info["bottom"] == format_cards(pack_douzero(deal["three_landlord_cards"]))
    assert ll + f1 + f2 == FULL_DECK
    assert [douzero_values(pack_douzero(deal[k])) for k in ("landlord", "landlord_down", "landlord_up")] == \
        [deal["landlord"], deal["landlord_down"], deal["landlord_up"]]
    # Controls (2s and jokers) and bombs counted the plain way.
    for seat, key in enumerate(("landlord", "landlord_down", "landlord_up")):
        vals = deal[key]
        assert info["controls"][seat] == sum(v in (17, 20, 30) for v in vals)
        quads = sum(vals.count(v) == 4 for v in set(vals))
        assert info["bombs"][seat] == quads + (20 in vals and 30 in vals)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("landlord_up"), "lacks landlord_up"),
    (lambda d: d.__setitem__("landlord", d["landlord"][:-1]), "holds 19 cards, expected 20"),
    (lambda d: d.__setitem__("landlord_down", d["landlord_down"][:-1] + [15]), "not a DouZero card value"),
    (lambda d: d.__setitem__("landlord_down", d["landlord_down"][:-1] + [d["landlord_up"][0]]), "not one 54-card deck"),
    (lambda d: d.__setitem__("three_landlord_cards", [3, 3]), "must list 3 cards"),
    (lambda d: d.__setitem__("landlord_up", "3456"), "not a list"),
])
def test_bad_douzero_deals(change, message):
    deal = douzero_deal(7)
    change(deal)
    with pytest.raises(RecordError, match=message):
        parse_douzero_deal(deal)


def test_bottom_must_be_in_the_landlords_hand():
    deal = douzero_deal(3)
    ll = set(deal["landlord"])
    outside = next(v for v in DOUZERO_DECK if v not in ll)
    deal["three_landlord_cards"] = [outside] + deal["three_landlord_cards"][1:]
    with pytest.raises(RecordError, match="not in the landlord's hand"):
        parse_douzero_deal(deal)


# Sniffing and items ------------------------------------------------------------------------


def _write(path, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)
    return str(path)


def test_sniff_formats(tmp_path):
    rec = {"schema": "ddz-record/1", "id": "a"}
    assert sniff(_write(tmp_path / "a.jsonl", json.dumps(rec) + "\n")) == FMT_RECORD
    assert sniff(_write(tmp_path / "deals", pickle.dumps([douzero_deal(0)], protocol=2))) == FMT_DOUZERO
    assert sniff(_write(tmp_path / "p0.pkl", pickle.dumps([], protocol=0))) == FMT_DOUZERO
    assert sniff(_write(tmp_path / "t.txt", "./bot x\n\nJudge: {}\nBot 0: {}\n")) == FMT_BOTZONE_TRANSCRIPT
    log = {"log": [], "initdata": {"allocation": []}}
    assert sniff(_write(tmp_path / "log.json", json.dumps(log, indent=2))) == FMT_BOTZONE_LOG


def test_jsonl_items_keep_going_past_bad_lines(tmp_path):
    lines = [json.dumps({"schema": "ddz-record/1", "id": "g1"}), "", "# a comment", "{not json",
             json.dumps([1, 2]), json.dumps({"schema": "other/1"}), json.dumps({"id": "x"}),
             json.dumps({"log": [], "initdata": {}}), json.dumps({"schema": "ddz-record/1", "id": "g2"})]
    items = list(read_items(_write(tmp_path / "g.jsonl", "\n".join(lines) + "\n")))
    assert [(it.line, it.fmt, it.error is None) for it in items] == [
        (1, FMT_RECORD, True), (4, FMT_RECORD, False), (5, FMT_RECORD, False), (6, FMT_RECORD, False),
        (7, FMT_RECORD, False), (8, FMT_BOTZONE_LOG, True), (9, FMT_RECORD, True)]
    assert items[1].error.startswith("not JSON")
    assert "expected a JSON object, got list" in items[2].error
    assert "unknown schema 'other/1'" in items[3].error
    assert "no 'schema' field" in items[4].error
    assert items[-1].data["id"] == "g2"
    assert items[0].key == (os.path.normpath(str(tmp_path / "g.jsonl")), 1)


def test_pretty_printed_record_and_json_list(tmp_path):
    rec = {"schema": "ddz-record/1", "id": "solo"}
    items = list(read_items(_write(tmp_path / "one.json", json.dumps(rec, indent=2))))
    assert [(i.line, i.data["id"]) for i in items] == [(1, "solo")]
    items = list(read_items(_write(tmp_path / "list.json", json.dumps([rec, dict(rec, id="b")], indent=1))))
    assert [(i.line, i.data["id"]) for i in items] == [(1, "solo"), (2, "b")]
    items = list(read_items(_write(tmp_path / "broken.json", '{\n  "schema": \n')))
    assert len(items) == 1 and items[0].error.startswith("not JSON")


def test_pickle_items_and_refusal(tmp_path):
    deals = [douzero_deal(s) for s in range(3)] + ["junk"]
    items = list(read_items(_write(tmp_path / "eval.pkl", pickle.dumps(deals, protocol=4))))
    assert [(i.line, i.fmt) for i in items] == [(1, FMT_DOUZERO), (2, FMT_DOUZERO), (3, FMT_DOUZERO), (4, FMT_DOUZERO)]
    assert items[0].data == deals[0]
    assert safe_load(str(tmp_path / "eval.pkl")) == deals
    path = _write(tmp_path / "evil.pkl", pickle.dumps([_Payload(str(tmp_path / "pwned"))]))
    with pytest.raises(RecordError, match=r"evil.pkl: pickle refers to \w+\.open"):
        list(read_items(path))
    assert not (tmp_path / "pwned").exists()
    with pytest.raises(RecordError, match="list of deals, not a int"):
        list(read_items(_write(tmp_path / "int.pkl", pickle.dumps(5))))


def test_not_utf8(tmp_path):
    with pytest.raises(RecordError, match="not UTF-8"):
        list(read_items(_write(tmp_path / "bin.jsonl", b"{\xff\xfe}\n")))


def test_transcript_item_carries_the_text(tmp_path, samples_dir):
    path = samples_dir / "botzone" / "ftl2_full_game-log.txt"
    items = list(read_items(str(path)))
    assert len(items) == 1 and items[0].fmt == FMT_BOTZONE_TRANSCRIPT
    assert items[0].data.startswith("# a complete game") and "Bot 0:" in items[0].data
