"""ddz-position/1: parsing, validation and round trips."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from hypothesis import given, settings, strategies as st

from ddz_tools.core.cards import FULL_DECK, format_cards
from ddz_tools.core.errors import DdzError, PositionError
from ddz_tools.engines.position import Position
from ddz_tools.core.rules import Play

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _d(**kw):
    d = {"schema": "ddz-position/1", "id": "t", "rules": "standard",
         "hands": {"me": "33JJQK2", "opponent": "4455A"}, "to_move": "me",
         "last_play": None, "last_by": None}
    d.update(kw)
    return d


def test_example_from_formats_md():
    p = Position.from_dict(_d())
    assert p.players == 2 and p.is_lead and p.hand("opponent") == "4455A"
    assert p.to_dict() == _d()


def test_round_trip_keeps_unknown_keys_and_normalises_cards():
    d = _d(hands={"me": "k q j 3 3 j 2", "opponent": "A5544"}, answer={"result": "win"}, note="x")
    p = Position.from_json(json.dumps(d))
    out = p.to_dict()
    assert out["hands"] == {"me": "33JJQK2", "opponent": "4455A"}
    assert out["answer"] == {"result": "win"} and out["note"] == "x"
    assert Position.from_json(p.to_json()) == p


def test_three_player_with_play_to_answer():
    d = _d(hands={"landlord": "3KK", "farmer1": "77", "farmer2": "A2"}, to_move="farmer2",
           last_play="333444-56", last_by="landlord")
    p = Position.from_dict(d)
    assert p.seats == ("landlord", "farmer1", "farmer2")
    assert p.last_play == Play.parse("333444-56") and p.last_by == "landlord"
    assert p.to_dict()["last_play"] == "333444-56"
    assert p.team_of("farmer1") == p.team_of("farmer2") == "farmers"


def test_rules_as_object_and_overrides():
    p = Position.from_dict(_d(rules={"preset": "douzero", "four_with_one": True}))
    assert p.rules.describe() == "douzero,four_with_one=on"


@pytest.mark.parametrize("change,message", [
    ({"schema": "ddz-position/2"}, "schema"),
    ({"hands": {"me": "33"}}, "exactly"),
    ({"hands": {"me": "33", "opponent": "44", "landlord": "5"}}, "exactly"),
    ({"hands": {"me": "33", "opponent": "3333"}}, "deck has 4"),
    ({"hands": {"me": "XX", "opponent": "4"}}, "small joker"),
    ({"hands": {"me": "", "opponent": "4"}}, "empty"),
    ({"hands": {"me": "33Z", "opponent": "4"}}, "unknown card"),
    ({"hands": {"me": "33445566778899TTJJQQK", "opponent": "4"}}, "at most 20"),
    ({"hands": {"me": 33, "opponent": "4"}}, "card text"),
    ({"to_move": "landlord"}, "to_move"),
    ({"last_play": "77"}, "both"),
    ({"last_by": "opponent"}, "both"),
    ({"last_play": "77", "last_by": "me"}, "side to move"),
    ({"last_play": "77", "last_by": "farmer1"}, "last_by"),
    ({"last_play": "78", "last_by": "opponent"}, "not a legal play"),
    ({"last_play": "pass", "last_by": "opponent"}, "not a pass"),
    ({"last_play": "3334445557", "last_by": "opponent", "rules": "douzero",
      "hands": {"me": "JJ", "opponent": "K"}}, "not a legal play under douzero"),
    ({"last_play": "3333-XD", "last_by": "opponent"}, "not a legal play"),
    ({"last_play": "2222", "last_by": "opponent", "hands": {"me": "22", "opponent": "4"}}, "play on the table"),
    ({"rules": "nope"}, "rules"),
    ({"last_play": 77, "last_by": "opponent"}, "play text"),
])
def test_bad_positions_name_the_problem(change, message):
    d = _d(**change)
    with pytest.raises(PositionError) as exc:
        Position.from_dict(d)
    if message:
        assert message in str(exc.value)
    assert "\n" not in str(exc.value)


def test_bad_json_and_not_an_object():
    with pytest.raises(PositionError, match="JSON"):
        Position.from_json("{nope")
    with pytest.raises(PositionError, match="object"):
        Position.from_json("[1, 2]")
    with pytest.raises(PositionError, match="missing"):
        Position.from_dict({"schema": "ddz-position/1", "hands": {"me": "3", "opponent": "4"}})


def test_three_player_last_by_may_be_either_other_seat():
    hands = {"landlord": "3", "farmer1": "4", "farmer2": "5"}
    for by in ("landlord", "farmer1"):
        Position.build(hands, "farmer2", "6", by)
    with pytest.raises(PositionError, match="side to move"):
        Position.build(hands, "farmer2", "6", "farmer2")


def test_from_hands_names_after_and_by():
    """The options of ddz solve are read by the same function as a position's last_play
    and last_by, with their own names; a by without an after is an error (it was
    ignored in two-player)."""
    with pytest.raises(PositionError, match="by needs after") as exc:
        Position.from_hands(me="33", opponent="44", by="opponent")
    assert exc.value.param == ("by", "after")
    with pytest.raises(PositionError, match="by is me, the side to move"):
        Position.from_hands(me="33", opponent="44", after="3", by="me")
    with pytest.raises(PositionError, match="after must be a play, not a pass"):
        Position.from_hands(landlord="3", farmer1="4", farmer2="5", to_move="landlord", after="pass")
    p = Position.from_hands(me="33", opponent="44", after="3")
    assert p.last_by == "opponent" and p.last_play.notation() == "3"


def test_parse_play_checks_the_side_to_move():
    lead = Position.three_player("33JJ", "44", "55", to_move="landlord")
    assert lead.parse_play("JJ") == Play.parse("JJ")
    with pytest.raises(DdzError, match="landlord leads: a pass is not legal here"):
        lead.parse_play("pass")
    with pytest.raises(DdzError, match="not a legal play here"):
        lead.parse_play("44")
    answer = Position.three_player("33JJ", "44", "55", to_move="farmer1", after="33", by="landlord")
    assert answer.parse_play("44") == Play.parse("44") and answer.parse_play("").is_pass
    with pytest.raises(DdzError, match="not a legal play here"):
        answer.parse_play("4")


def test_default_id():
    line = '{"schema": "ddz-position/1", "hands": {"me": "3", "opponent": "4"}, "to_move": "me"}'
    assert Position.from_json(line).id is None and Position.from_json(line, default_id="line 3").id == "line 3"
    assert Position.from_json(line.replace("{", '{"id": "x", ', 1), default_id="line 3").id == "x"


def test_constructors():
    p = Position.two_player("3", "XD", to_move="opponent", after="2")
    assert p.last_by == "me" and p.to_move == "opponent"
    with pytest.raises(PositionError):
        Position.two_player("3", "4", to_move="farmer1")
    assert isinstance(PositionError("x"), DdzError)


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 3), st.booleans())
def test_random_positions_round_trip(rng, nplayers, answer):
    """Any legal random position survives to_json / from_json unchanged and
    never holds more cards than the deck."""
    deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    rng.shuffle(deck)
    seats = ("me", "opponent") if nplayers == 2 else ("landlord", "farmer1", "farmer2")
    hands, pos = {}, 0
    for s in seats:
        n = rng.randint(1, 17)
        hands[s] = "".join("3456789TJQKA2XD"[r] for r in deck[pos:pos + n])
        pos += n
    after = by = None
    if answer and pos < len(deck):
        after = "3456789TJQKA2XD"[deck[pos]]
        by = seats[1]
    to_move = seats[0]
    p = Position.build(hands, to_move, after, by, "standard")
    q = Position.from_json(p.to_json())
    assert q == p
    total = sum(h for _, h in p.hands) + (p.last_play.cards if p.last_play else 0)
    assert all(a <= b for a, b in zip(
        [(total >> (4 * r)) & 15 for r in range(15)], [(FULL_DECK >> (4 * r)) & 15 for r in range(15)]))
    assert format_cards(p.packed(to_move)) == p.hand(to_move)


def test_shipped_puzzles_are_valid_positions():
    lines = (ROOT / "data" / "puzzles.jsonl").read_text().splitlines()
    ids = set()
    for ln in lines:
        p = Position.from_json(ln)
        assert p.id not in ids
        ids.add(p.id)
        assert "answer" in dict(p.extra)
    assert len(ids) >= 12
    random.Random(0)


def test_push_follows_the_turn_rule():
    p = Position.three_player("3KK", "44A", "55", to_move="landlord")
    q = p.push(Play.parse("3"))
    assert (q.to_move, q.last_play.notation(), q.last_by, q.hand("landlord")) == ("farmer1", "3", "landlord", "KK")
    r = q.push(Play.parse("A")).push(Play.pass_())
    assert (r.to_move, r.last_by) == ("landlord", "farmer1")
    s = r.push(Play.pass_())
    assert s.to_move == "farmer1" and s.is_lead and s.last_by is None
    t = s.push(Play.parse("4")).push(Play.pass_())
    assert (t.to_move, t.last_by, t.last_play.notation()) == ("landlord", "farmer1", "4")
    # Two players: one pass gives the lead back; the original is unchanged.
    a = Position.two_player("33", "4", after="2")
    assert a.push(Play.pass_()).is_lead and a.push(Play.pass_()).to_move == "opponent"
    assert a.to_move == "me" and a.hand("me") == "33"
    # Going out ends the game; the pushed position equals a validated one.
    assert Position.two_player("3", "4").push(Play.parse("3")).is_over
    assert q == Position.three_player("KK", "44A", "55", to_move="farmer1", after="3", by="landlord")


def test_from_record_replays_to_the_move():
    from ddz_tools.engines.game import Game
    from ddz_tools.engines.position import from_record
    from ddz_tools.engines.records import record_from_game

    g = Game(seed=5, first_bidder=1)
    g.bid(3)
    start = from_record(record_from_game(g, id="r"))
    assert start.to_move == "landlord" and start.is_lead and len(start.hand("landlord")) == 20
    assert len(start.hand("farmer1")) == len(start.hand("farmer2")) == 17
    plays = []
    while g.phase == "playing" and len(plays) < 12:
        play = g.legal_plays()[-1]
        plays.append(play)
        g.play(play)
    rec = record_from_game(g, id="r")
    p = start
    for n, play in enumerate(plays):
        q = from_record(rec, n + 1)
        assert q.hands == p.hands and q.to_move == p.to_move and q.last_play == p.last_play
        assert q.last_by == p.last_by and dict(q.extra) == {"record": "r", "move": n + 1}
        p = p.push(play)
    with pytest.raises(PositionError, match="past its last play"):
        from_record(rec, len(rec.plays) + 2)


# Four-player rules (two decks): the landlord and one, two or three farmers ----------------


def _d4(**kw):
    d = {"schema": "ddz-position/1", "id": "f", "rules": "four",
         "hands": {"landlord": "33XXDD", "farmer1": "4444444", "farmer2": "AA", "farmer3": "2"},
         "to_move": "landlord", "last_play": None, "last_by": None}
    d.update(kw)
    return d


@pytest.mark.parametrize("seats", [("landlord", "farmer1"), ("landlord", "farmer1", "farmer2"),
                                   ("landlord", "farmer1", "farmer2", "farmer3"), ("me", "opponent")])
def test_four_player_rules_take_two_three_or_four_hands(seats):
    """Under rules four a position gives the landlord and one, two or three
    farmers (or me and opponent), in turn order; it round-trips and keeps
    the two decks' cards (eight of a rank, two of each joker)."""
    cards = ["33XXDD", "44444444", "AA", "2"]
    d = _d4(hands=dict(zip(seats, cards)), to_move=seats[1], last_play="2222", last_by=seats[0])
    p = Position.from_dict(d)
    assert p.seats == seats and p.players == len(seats) and p.rules.is_four
    assert p.to_dict() == d and Position.from_json(p.to_json()) == p
    assert p.hand(seats[1]) == "44444444" and p.last_play.notation() == "2222"
    if len(seats) > 2:
        assert p.team_of("farmer1") == p.team_of(seats[-1]) == "farmers"


def test_four_player_turn_rule_three_passes():
    p = Position.four_player("36", "4", "5", "7")
    q = p.push(Play.parse("3")).push(Play.pass_()).push(Play.pass_())
    assert (q.to_move, q.last_by) == ("farmer3", "landlord")
    assert q.push(Play.pass_()).to_move == "landlord" and q.push(Play.pass_()).is_lead
    r = Position.four_player("36", "4", "5", rules="four,chains=shanghai").push(Play.parse("3"))
    assert r.push(Play.pass_()).push(Play.pass_()).is_lead


@pytest.mark.parametrize("change,message", [
    ({"rules": "standard"}, "farmer3 is a four-player seat: rules standard seat three players"),
    ({"hands": {"landlord": "3", "farmer1": "4", "farmer2": "5", "farmer3": "6", "farmer4": "7"}},
     "exactly two, three or four hands"),
    ({"hands": {"landlord": "3", "farmer1": "4", "farmer3": "6"}}, "exactly two, three or four hands"),
    ({"hands": {"landlord": "3", "farmer2": "4"}}, "exactly two, three or four hands"),
    ({"hands": {"landlord": "3", "farmer1": "4"}, "rules": "standard"}, "exactly {me, opponent}"),
    ({"hands": {"landlord": "3", "farmer1": "3456789TJQKA2XD3456789TJQK"}}, "farmer1 has 26 cards; at most 25"),
    ({"hands": {"landlord": "3456789TJQKA2XD3456789TJQKA2XD3456", "farmer1": "4"}},
     "landlord has 34 cards; at most 33"),
    ({"hands": {"landlord": "33333", "farmer1": "3333"}}, "hold 9 x 3; the deck has 8"),
    ({"hands": {"landlord": "DDD", "farmer1": "3"}}, "big joker"),
    ({"hands": {"landlord": "3", "farmer1": "4"}, "last_play": "XXD", "last_by": "farmer1",
      "to_move": "landlord"}, "not a legal play"),
    ({"hands": {"landlord": "3", "farmer1": "4"}, "last_play": "5", "last_by": "farmer2",
      "to_move": "landlord"}, "last_by must be one of landlord, farmer1"),
    ({"to_move": "farmer4"}, "to_move"),
])
def test_bad_four_player_positions_name_the_problem(change, message):
    with pytest.raises(PositionError) as exc:
        Position.from_dict(_d4(**change))
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_four_player_from_hands():
    """ddz solve's options: the landlord and the first farmers under rules
    four, errors naming the parameter a command line replaces by its flag."""
    p = Position.from_hands(landlord="3XX", farmer1="44", farmer2="55", farmer3="A", to_move="farmer2",
                            after="6", rules="four")
    assert p.seats == ("landlord", "farmer1", "farmer2", "farmer3") and p.last_by == "farmer1"
    with pytest.raises(PositionError, match="farmer3 is a four-player seat") as exc:
        Position.from_hands(landlord="3", farmer1="4", farmer2="5", farmer3="6", to_move="landlord")
    assert exc.value.param == "farmer3"
    with pytest.raises(PositionError, match="farmer2 missing") as exc:
        Position.from_hands(landlord="3", farmer1="4", farmer3="6", to_move="landlord", rules="four")
    assert exc.value.param == ("farmer2",)
    with pytest.raises(PositionError, match="to_move") as exc:
        Position.from_hands(landlord="3", farmer1="4", rules="four")
    with pytest.raises(PositionError, match="to_move must be landlord or farmer1 here"):
        Position.from_hands(landlord="3", farmer1="4", to_move="farmer2", rules="four")
    with pytest.raises(PositionError, match="a three-player position needs"):
        Position.from_hands(landlord="3", farmer1="4", to_move="landlord")
