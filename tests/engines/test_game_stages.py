"""Happy Dou Dizhu's stake stages and the deal without a bottom in the Python
game and the records: shows, the first-call auction, must-call, the landlord's
draws, the doubles and the settlement, against VARIANTS' worked examples and
plain arithmetic; records round-trip and the fast validator agrees with the
replay game by game."""

from __future__ import annotations

import json

import pytest

from ddz_tools.core.cards import card_count, format_cards
from ddz_tools.core.errors import GameError
from ddz_tools.engines.game import DOUBLING, DRAWING, PLAYING, Auction, Game, IllegalAction, random_game, score
from ddz_tools.engines.records import (
    parse_record,
    record_from_game,
    record_to_dict,
    replay_record,
    validate_batch,
)

SPECS = ["happy", "notalon", "notalon,landlord_draw=on", "happy,doubling=global,show_merge=product",
         "happy,must_call=jokers,super_double=off", "happy,bottom_bonus=table,show=dianle", "standard"]


def test_worked_example_call_and_grabs():
    """A calls, B grabs, C passes, A grabs back: landlord A at x4."""
    a = Auction(first_bidder=0, bidding="call-grab")
    for seat, v in [(0, 1), (1, 1), (2, 0), (0, 1)]:
        a.bid(seat, v)
    assert (a.landlord, a.base) == (0, 4)


def test_worked_examples_of_the_settlement():
    # One grab (base 2), the landlord's first-play show (x2), a bomb and the rocket,
    # no spring; doubles landlord x2, F1 x4, F2 x1; the landlord (seat 0) wins.
    r = score(0, 0, 2, 2, 6, [3, 2], show=2, doubles=(2, 4, 1), doubling="per-pair", staged=True)
    assert r.multiplier == 8 and r.base * r.multiplier == 16
    assert r.scores == (160, -128, -32)
    r = score(0, 0, 2, 2, 6, [3, 2], show=2, doubles=(2, 4, 1), doubling="global", staged=True)
    assert r.scores == (256, -128, -128)
    # No show, no grab, no double, base 1, the landlord wins by spring.
    assert score(0, 0, 1, 0, 4, [0, 0], doubling="per-pair", staged=True).scores == (4, -2, -2)
    assert score(0, 0, 1, 0, 4, [0, 0]).to_dict().keys() == score(0, 0, 1, 0, 4, [0, 0], staged=False).to_dict().keys()


def test_notalon_deals_18_cards_and_the_first_call_ends_the_auction():
    g = Game(seed=4, rules="notalon", first_bidder=1)
    assert [len(g.hand(s)) for s in range(3)] == [18, 18, 18] and g.bottom == 0
    g.bid(0)
    g.bid(1)           # seat 2 calls: the auction is over at base 1
    assert (g.phase, g.landlord, g.base) == (PLAYING, 2, 1)
    assert len(g.hand(2)) == 18
    with pytest.raises(IllegalAction, match="first-call bids are 1"):
        Game(seed=4, rules="notalon", first_bidder=1).bid(2)


def test_landlord_draw_takes_one_card_from_each_farmer():
    g = Game(seed=9, rules="notalon,landlord_draw=on", first_bidder=0)
    g.bid(1)
    assert g.phase == DRAWING and g.turn == 1
    with pytest.raises(IllegalAction, match="who holds"):
        g.draw("D" if "D" not in g.hand(1) else "3333")
    c1 = g.draw()
    assert card_count(c1) == 1
    before = g.hand(2)
    c2 = g.draw(before[0])
    assert format_cards(c2) == before[0]
    assert [len(g.hand(s)) for s in range(3)] == [20, 17, 17]
    assert g.phase == PLAYING and g.turn == 0


def test_doubles_come_from_the_farmers_first_and_follow_the_options():
    g = Game(seed=2, rules="happy", first_bidder=0)
    for v in (1, 0, 0):
        g.bid(v)
    assert (g.phase, g.landlord, g.turn) == (DOUBLING, 0, 1)
    assert g.legal_doubles() == [1, 2, 4]
    with pytest.raises(IllegalAction, match="must be 1, 2, 4"):
        g.double(3)
    with pytest.raises(IllegalAction, match="turn"):
        g.double(2, seat=0)
    g.double(4)
    g.double(1)
    assert g.turn == 0
    g.double(2)
    assert g.phase == PLAYING and g.doubles == [2, 4, 1]
    g2 = Game(seed=2, rules="happy,super_double=off", first_bidder=0)
    for v in (1, 0, 0):
        g2.bid(v)
    assert g2.legal_doubles() == [1, 2]


def test_shows_follow_the_stages():
    g = Game(seed=5, rules="happy", first_bidder=0)
    g.show("deal:3", 1)
    with pytest.raises(IllegalAction, match="in deal order"):
        g.show("before-deal", 2)
    with pytest.raises(IllegalAction, match="already shown"):
        g.show("deal:9", 1)
    with pytest.raises(IllegalAction, match="dealt 17 cards"):
        g.show("deal:18", 0)
    with pytest.raises(IllegalAction, match="only the landlord"):
        g.show("first-play", 0)
    g.show("deal:12", 2)
    assert g.show_multiple == 4                    # x4 (before 8 cards) and x3 merged by max
    g.bid(1)
    with pytest.raises(IllegalAction, match="before the first bid"):
        g.show("deal:17", 0)
    std = Game(seed=5, first_bidder=0)
    with pytest.raises(IllegalAction, match="no show there under show=off"):
        std.show("before-deal", 0)


def test_first_play_show_by_the_landlord_doubles_the_stake():
    g = random_game(11, "happy")
    rec = record_to_dict(record_from_game(g))
    shown = [s for s in rec["show"] if s["stage"] == "first-play"]
    base = dict(rec, show=[s for s in rec["show"] if s["stage"] != "first-play"])
    base.pop("result")
    plain = replay_record(base).result
    with_show = dict(base, show=base["show"] + [{"seat": rec["landlord"], "stage": "first-play"}])
    assert replay_record(with_show).result.multiplier == 2 * plain.multiplier
    assert all(s["seat"] == rec["landlord"] for s in shown)
    bad = dict(base, show=[{"seat": (rec["landlord"] + 1) % 3, "stage": "first-play"}])
    r = replay_record(bad)
    assert (r.status, r.phase, r.code) == ("invalid", "show", "bad_show")


def deal_with(seat0: str, bottom: str) -> list:
    """Three 17-card hands: ``seat0`` completed from the lowest cards left, the
    other seats from the rest, with ``bottom`` kept out."""
    deck = [r for r in "3456789TJQKA2" for _ in range(4)] + ["X", "D"]
    for c in seat0 + bottom:
        deck.remove(c)
    first = seat0 + "".join(deck[:17 - len(seat0)])
    rest = deck[17 - len(seat0):]
    return [first, "".join(rest[0::2]), "".join(rest[1::2])]


def test_must_call_forbids_the_pass():
    hands = deal_with("XD", "TJQ")
    # Seat 0 holds both jokers: under must_call=jokers it may not pass the call.
    g = Game(hands=hands, bottom="TJQ", rules="happy,must_call=jokers", first_bidder=0)
    with pytest.raises(IllegalAction, match="must call"):
        g.bid(0)
    assert g.legal_bids() == [1]
    Game(hands=hands, bottom="TJQ", rules="happy", first_bidder=0).bid(0)
    assert Game(hands=hands, bottom="TJQ", rules="happy,must_call=jokers+2s", first_bidder=0).legal_bids() == [0, 1]


def test_bottom_bonus_needs_suits_only_when_a_flush_could_count():
    with pytest.raises(GameError, match="flush"):
        Game(hands=deal_with("", "TJ8"), bottom="TJ8", rules="happy,bottom_bonus=table")
    for bottom in ("89D", "88K", "9TJ"):      # a joker, a pair, a straight: no suits needed
        Game(hands=deal_with("", bottom), bottom=bottom, rules="happy,bottom_bonus=table")


@pytest.mark.parametrize("spec", SPECS)
def test_records_round_trip_and_the_fast_path_agrees(spec):
    recs = []
    for seed in range(25):
        g = random_game(seed, spec)
        d = json.loads(json.dumps(record_to_dict(record_from_game(g))))
        assert sum(d["result"]["scores"]) == 0
        r = replay_record(d)
        assert r.status == "ok", (seed, r.reason)
        assert r.result == g.result
        assert record_to_dict(parse_record(d)) == d
        recs.append(d)
    res = validate_batch(recs)
    assert [res.status_name(i) for i in range(len(recs))] == ["ok"] * len(recs)
    assert [r.to_dict() for r in res.results()] == [d["result"] for d in recs]


@pytest.mark.parametrize("change, phase, code", [
    ({"doubles": [1, 3, 1]}, "double", "bad_double"),
    ({"doubles": None}, "double", "bad_double"),
    ({"show": [{"seat": 0, "stage": "deal:30"}]}, "show", "bad_show"),
])
def test_bad_stages_are_named(change, phase, code):
    g = random_game(3, "happy")
    d = record_to_dict(record_from_game(g))
    d.update(change)
    if d.get("doubles") is None:
        d.pop("doubles")
    r = replay_record(d)
    assert (r.status, r.phase, r.code) == ("invalid", phase, code), r.reason
    res = validate_batch([d])
    fast = res.replay_result(0, parse_record(d))
    assert (fast.status, fast.phase, fast.code) == ("invalid", phase, code)


def test_a_stored_result_that_contradicts_the_stages_is_a_mismatch():
    g = random_game(6, "happy")
    d = record_to_dict(record_from_game(g))
    d["result"] = dict(d["result"], show_multiple=d["result"]["show_multiple"] * 5)
    r = replay_record(d)
    assert r.status == "mismatch" and "show_multiple" in r.disagreements
    assert validate_batch([d]).status_name(0) == "mismatch"


def test_the_schema_accepts_staged_and_laizi_records():
    jsonschema = pytest.importorskip("jsonschema")
    from conftest import DATA  # noqa: F401  (the repository's data folder is ../data)
    from pathlib import Path
    schema = json.loads((Path(__file__).resolve().parents[2] / "data" / "ddz-record-1.schema.json").read_text())
    v = jsonschema.Draft202012Validator(schema)
    for spec in SPECS + ["laizi", "tiandi"]:
        for seed in range(5):
            d = json.loads(json.dumps(record_to_dict(record_from_game(random_game(seed, spec)))))
            v.validate(d)
    d = record_to_dict(record_from_game(random_game(1, "happy")))
    assert not v.is_valid(dict(d, doubles=[1, 3, 1]))
    assert not v.is_valid(dict(d, show=[{"seat": 0, "stage": "during"}]))
