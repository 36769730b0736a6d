"""Four-player Dou Dizhu (rules ``four``: two decks, four seats, an 8-card
bottom) through the game engine, the records and ``ddz replay``: the worked
scores of docs/game.md, seeded random games against the plain-Python
reference of ``tests/naive_game.py``, the batch validator, round trips and
bad input."""

from __future__ import annotations

import copy
import json
import random

import pytest
from click.testing import CliRunner
from naive_game import naive_replay

from conftest import REPO
from ddz_tools.core.cards import card_count, format_cards, full_deck, parse_cards
from ddz_tools.core.errors import CardError, DdzError, GameError, RecordError
from ddz_tools.engines.game import FINISHED, PLAYING, REDEAL, Game, IllegalAction, random_game, seat_roles
from ddz_tools.engines.records import (
    parse_record,
    read_records,
    record_from_game,
    record_to_dict,
    replay_record,
    validate_batch,
    write_record,
)

DATA = REPO / "data"
FOUR_SPECS = ["four", "four,bomb_doubles=ladder", "four,bomb_doubles=all", "four,chains=shanghai",
              "four,top_bomb=bomb8,wing_pairs_consecutive=on", "four,spring=any-player"]


def deal_with(rules: str, fixed: dict, seed: int = 0) -> dict:
    """A four-player deal whose seats hold the cards ``fixed`` names (seat ->
    card text, the landlord's 33 given as seat 0 with its bottom), the rest of
    the two decks dealt at random: ``{"hands", "bottom"}``."""
    rest = full_deck(2)
    for text in fixed.values():
        rest -= parse_cards(text, 2)
    cards = [r for r in range(15) for _ in range((rest >> (4 * r)) & 15)]
    random.Random(seed).shuffle(cards)
    hands = {}
    for seat in range(4):
        want = 33 if seat == 0 else 25
        have = fixed.get(seat, "")
        need = want - card_count(parse_cards(have, 2))
        hands[seat] = parse_cards(have, 2) + sum(1 << (4 * r) for r in cards[:need])
        cards = cards[need:]
    assert not cards
    # Seat 0's last 8 cards (high to low) are the bottom.
    text = format_cards(hands[0])
    bottom = parse_cards(text[-8:], 2)
    return {"hands": [hands[0] - bottom] + [hands[s] for s in (1, 2, 3)], "bottom": bottom, "rules": rules}


# The worked scores (docs/game.md) -------------------------------------------------------

#: Bid 2, the landlord (seat 0) wins; 4444, 555555 and XXDD are played; farmer 1 played once.
WORKED_LANDLORD = "33" + "4444" + "555555" + "XXDD" + "6789TJQKA" + "778899" + "22"
WORKED_PLAYS = ["33", "66", "", "", "4444", "", "", "", "555555", "", "", "", "XXDD", "", "", "",
                "6789TJQKA", "", "", "", "778899", "", "", "", "22"]


@pytest.mark.parametrize("option, mult, pays, bombs", [("six-plus", 4, 8, 2), ("ladder", 6, 12, 2),
                                                        ("all", 8, 16, 3)])
def test_the_worked_scores_of_bomb_doubles(option, mult, pays, bombs):
    deal = deal_with(f"four,bomb_doubles={option}", {0: WORKED_LANDLORD, 1: "66"})
    g = Game(**deal, first_bidder=0)
    for value in (2, 0, 0, 0):
        g.bid(value)
    assert (g.landlord, g.base, len(g.hand(0))) == (0, 2, 33)
    for text in WORKED_PLAYS:
        g.play(text)
    r = g.result
    assert g.phase == FINISHED and r.winner == "landlord" and not r.spring
    assert (r.multiplier, r.bombs, r.scores) == (mult, bombs, (3 * pays, -pays, -pays, -pays))
    # The record replays to the same result in Python, in the batch kernel and in the reference.
    d = record_to_dict(record_from_game(g, id="worked"))
    assert replay_record(d).result == r
    batch = validate_batch([d])
    assert batch.status_name(0) == "ok" and batch.scores[0].tolist() == list(r.scores)
    assert batch.results()[0] == r
    assert naive_replay(d)["scores"] == list(r.scores)


def test_spring_and_anti_spring_with_three_farmers():
    # Spring: the landlord plays his 33 cards one by one, the three farmers pass.
    deal = deal_with("four", {}, seed=3)
    g = Game(**deal, first_bidder=1)
    for value in (0, 0, 0, 3):
        g.bid(value)
    assert g.landlord == 0 and g.turn == 0
    while g.phase == PLAYING:
        if g.turn == 0:
            g.play(g.hand(0)[0])
        else:
            g.pass_()
    r = g.result
    assert r.spring and not r.anti_spring and r.multiplier == 2 and r.scores == (18, -6, -6, -6)
    # Farmer 1 answers once, farmers 2 and 3 never play: a spring only under any-player.
    for spec, spring in (("four", False), ("four,spring=any-player", True)):
        deal = deal_with(spec, {0: "35", 1: "4"}, seed=4)
        g = Game(**deal, first_bidder=0)
        g.bid(1), g.bid(0), g.bid(0), g.bid(0)
        g.play("3"), g.play("4"), g.pass_(), g.pass_(), g.play("5")
        while g.phase == PLAYING:
            if g.turn == 0 and g.leading:
                g.play(g.hand(0)[0])
            else:
                g.pass_()
        r = g.result
        assert r.winner == "landlord" and r.spring == spring
        s = 2 if spring else 1
        assert r.scores == (3 * s, -s, -s, -s)
        assert naive_replay(record_to_dict(record_from_game(g)))["scores"] == list(r.scores)
    # Anti-spring: the landlord leads once, farmer 1 goes out with solos while everyone passes.
    deal = deal_with("four", {0: "3", 1: "4"}, seed=5)
    g = Game(**deal, first_bidder=0)
    g.bid(2), g.bid(0), g.bid(0), g.bid(0)
    g.play("3")
    g.play(g.hand(1)[-1])
    while g.phase == PLAYING:
        if g.turn == 1 and g.last_play is None:
            g.play(g.hand(1)[0])
        else:
            g.pass_()
    r = g.result
    assert r.winner == "farmers" and r.winner_seat == 1 and r.anti_spring and not r.spring
    assert r.multiplier == 2 and r.scores == (-12, 4, 4, 4)


def test_a_play_stands_until_three_passes():
    deal = deal_with("four", {0: "345", 1: "6", 2: "7", 3: "8"}, seed=6)
    g = Game(**deal, first_bidder=0)
    g.bid(3)
    g.play("3")
    g.pass_(), g.pass_()
    assert g.last_play is not None and g.turn == 3      # two passes: the 3 still stands
    g.pass_()
    assert g.last_play is None and g.turn == 0 and g.leading    # the third pass: seat 0 leads
    with pytest.raises(IllegalAction, match="must lead"):
        g.pass_()


# The deal and the auction ---------------------------------------------------------------


def test_seeded_deal_and_the_landlord_takes_the_bottom():
    g = Game(seed=11, rules="four", first_bidder=2)
    assert g.seats == 4 and [len(g.hand(s)) for s in range(4)] == [25] * 4 and card_count(g.bottom) == 8
    assert sum(g.dealt) + g.bottom == full_deck(2) and g.hand_ids is None
    again = Game(seed=11, rules="four", first_bidder=2)
    assert again.dealt == g.dealt and again.bottom == g.bottom
    assert g.turn == 2 and g.legal_bids() == [0, 1, 2, 3]
    g.bid(1), g.bid(0), g.bid(2)
    assert g.turn == 1 and g.legal_bids() == [0, 3]
    g.bid(0)
    assert (g.phase, g.landlord, g.base, g.turn) == (PLAYING, 0, 2, 0)
    assert len(g.hand(0)) == 33 and g.hands[0] == g.dealt[0] + g.bottom
    assert [g.role(s) for s in range(4)] == ["landlord", "farmer1", "farmer2", "farmer3"]
    assert seat_roles(2, 4) == {2: "landlord", 3: "farmer1", 0: "farmer2", 1: "farmer3"}


def test_all_four_pass_redeals_and_a_three_ends_the_auction():
    g = Game(seed=2, rules="four", first_bidder=3)
    for _ in range(4):
        g.bid(0)
    assert g.phase == REDEAL and g.landlord is None
    first = g.dealt
    g.redeal()
    assert g.first_bidder == 0 and g.dealt != first and g.phase == "bidding"
    g.bid(1), g.bid(3)
    assert (g.landlord, g.base) == (1, 3)
    with pytest.raises(IllegalAction, match="bidding phase|playing phase"):
        g.bid(0)
    g = Game(seed=2, rules="four", all_pass="seat0", first_bidder=1)
    for _ in range(4):
        g.bid(0)
    assert (g.landlord, g.base) == (0, 1)


def test_bad_four_player_deals_are_one_line_errors():
    good = deal_with("four", {}, seed=7)
    hands, bottom = good["hands"], good["bottom"]
    cases = [
        (dict(hands=hands[:3], bottom=bottom), GameError, "a deal has 4 hands, not 3"),
        (dict(hands=hands + [0], bottom=bottom), GameError, "a deal has 4 hands, not 5"),
        (dict(hands=[hands[0], hands[1] + bottom, hands[2], hands[3]], bottom=0), CardError,
         "hand 1 has 33 cards, not 25"),
        (dict(hands=["3" * 9 + "4" * 16] + hands[1:], bottom=bottom), CardError, "at most 8 exist in 2 decks"),
        (dict(hands=["XXX" + "4" * 8 + "5" * 8 + "6" * 6] + hands[1:], bottom=bottom), CardError,
         "3 small jokers; at most 2"),
        (dict(hands=[list(range(25))] * 4, bottom=list(range(8))), GameError, "card ids"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message) as exc:
            Game(rules="four", **kwargs)
        assert "\n" not in str(exc.value)
    # Right sizes, wrong cards: a rank more often than two decks hold.
    three_ranks = parse_cards("3" * 8 + "4" * 8 + "5" * 8 + "6", 2)
    with pytest.raises(CardError, match=r"not 2 decks of 108 cards: they hold \d+ 3s, not 8"):
        Game(rules="four", hands=[three_ranks, hands[1], hands[2], hands[3]], bottom=bottom)
    with pytest.raises(GameError, match="seat must be 0, 1, 2 or 3, not 4"):
        Game(seed=1, rules="four", first_bidder=4)
    g = Game(seed=1, rules="four", first_bidder=0)
    with pytest.raises(GameError, match="seat must be 0, 1, 2 or 3"):
        g.bid(1, seat=5)


# Seeded random games against the reference ------------------------------------------------


def four_records(n: int, seed: int) -> list[dict]:
    out = []
    for i in range(n):
        g = random_game(seed * 1000 + i, FOUR_SPECS[i % len(FOUR_SPECS)],
                        all_pass="seat0" if i % 7 == 3 else "redeal")
        out.append(record_to_dict(record_from_game(g, id=f"four-{seed}-{i}")))
    return out


def mutate(d: dict, rng: random.Random) -> dict:
    """One random corruption of a four-player record (some leave it legal)."""
    d = copy.deepcopy(d)
    plays, bids = d["plays"], d["bids"]
    i = rng.randrange(len(plays))
    k = rng.randrange(12)
    if k == 0:
        plays[i]["seat"] = (plays[i]["seat"] + rng.choice([1, 2, 3])) % 4
    elif k == 1:
        plays[i]["cards"] = ""
    elif k == 2:
        plays[i]["cards"] = rng.choice(["3", "33", "XX", "XXDD", "22222", "34567", "33344", "333-44", "XD",
                                        "333444-5566", "Z", "333333333", "AA2233", "-", "33-4"])
    elif k == 3:
        del plays[i]
    elif k == 4:
        plays[i:i + 2] = plays[i:i + 2][::-1]
    elif k == 5:
        d["result"]["scores"][rng.randrange(4)] += 1
    elif k == 6 and bids:
        bids[rng.randrange(len(bids))]["bid"] = rng.choice([0, 1, 2, 3, 4])
    elif k == 7:
        d["result"]["multiplier"] *= 3
    elif k == 8:
        # A few cards the seat was dealt: often no play, or one that does not beat.
        dealt = d["deal"]["hands"][plays[i]["seat"]]
        plays[i]["cards"] = "".join(sorted(rng.sample(dealt, rng.randint(1, 6)), key="3456789TJQKA2XD".index))
    elif k == 9:
        # The play's own cards split by a dash: body-kicker notation, mostly naming no reading.
        t = next((p["cards"] for p in plays[i:] if len(p["cards"]) >= 2), "")
        if t:
            j = rng.randint(1, len(t) - 1)
            plays[i]["cards"] = t[:j] + "-" + t[j:]
    elif k == 10:
        plays.append({"seat": (plays[-1]["seat"] + 1) % 4, "cards": rng.choice(["", "3", "XX"])})
    else:
        del plays[i:]
    return d


def same_verdict(py, naive, batch, g):
    if naive["status"] == "ok":
        assert py.status in ("ok", "mismatch"), (py, naive)
        assert list(py.result.scores) == naive["scores"], (py, naive)
        assert (py.result.multiplier, py.result.bombs) == (naive["multiplier"], naive["bombs"])
    else:
        assert py.status == naive["status"], (py, naive)
    assert (py.code, py.index) == (naive.get("code"), naive.get("index")), (py, naive)
    assert batch.status_name(g) == py.status and batch.code(g) == py.code, (g, py)
    assert int(batch.index[g]) == (-1 if py.index is None else py.index)
    if py.result is not None:
        assert batch.results()[g] == py.result


def test_random_four_player_games_agree_with_the_reference():
    """Seeded random games under six four-player rule sets, and corrupted
    copies: the Game's replay, the batch kernel and the reference agree on
    the verdict, the move, the multiplier, the bombs and the scores."""
    rng = random.Random(8)
    recs = four_records(36, seed=1)
    broken = [mutate(d, rng) for d in recs for _ in range(2)]
    batch = validate_batch(recs + broken)
    seen = set()
    for g, d in enumerate(recs + broken):
        py = replay_record(d)
        if g < len(recs):
            assert py.status == "ok" and len(py.result.scores) == 4 and sum(py.result.scores) == 0
        seen.add((py.status, py.code))
        same_verdict(py, naive_replay(d), batch, g)
    for want in [("ok", None), ("mismatch", None), ("invalid", "wrong_turn"), ("invalid", "not_in_hand"),
                 ("incomplete", None), ("invalid", "not_a_combination"), ("invalid", "does_not_beat"),
                 ("invalid", "game_over"), ("invalid", "pass_on_lead")]:
        assert want in seen, want


@pytest.mark.slow
def test_random_four_player_games_agree_with_the_reference_many():
    rng = random.Random(9)
    recs = four_records(600, seed=2)
    recs += [mutate(d, rng) for d in recs for _ in range(2)]
    batch = validate_batch(recs)
    for g, d in enumerate(recs):
        same_verdict(replay_record(d), naive_replay(d), batch, g)


def test_a_batch_mixes_three_and_four_seat_games():
    recs = four_records(2, seed=2) + [record_to_dict(record_from_game(random_game(5)))]
    batch = validate_batch(recs)
    assert batch.scores.shape == (3, 4) and batch.nseats.tolist() == [4, 4, 3]
    assert [len(r.scores) for r in batch.results()] == [4, 4, 3]
    assert batch.scores[2, 3] == 0
    assert validate_batch(recs[2:]).scores.shape == (1, 3)


# Records --------------------------------------------------------------------------------


def test_records_round_trip(tmp_path):
    path = tmp_path / "four.jsonl"
    games = [random_game(s, "four") for s in range(3)]
    for i, g in enumerate(games):
        write_record(path, record_from_game(g, id=f"g{i}", players=["a", "b", "c", "d"]))
    items = list(read_records(path))
    for it, g in zip(items, games):
        assert it.ok and it.replay.result == g.result
        assert it.record.players == ["a", "b", "c", "d"] and len(it.record.hands) == 4
        line = json.loads(path.read_text().splitlines()[it.line - 1])
        assert line["rules"] == {"preset": "four"} and len(line["result"]["scores"]) == 4
        assert record_to_dict(it.record) == line


def test_bad_four_player_records_name_the_problem():
    good = four_records(1, seed=3)[0]
    cases = [
        (lambda d: d["deal"].update(hands=d["deal"]["hands"][:3]), "deal.hands must be a list of 4 card strings"),
        (lambda d: d["deal"]["hands"].append(d["deal"]["hands"][0]), "deal.hands must be a list of 4"),
        (lambda d: d["deal"].update(bottom=d["deal"]["bottom"][:7]), "deal.bottom has 7 cards, not 8"),
        (lambda d: d["deal"]["hands"].__setitem__(0, "3" * 9 + d["deal"]["hands"][0][9:]), "at most 8 exist"),
        (lambda d: d["deal"]["hands"].__setitem__(0, "D" * 2 + d["deal"]["hands"][1][2:]),
         "not 2 decks of 108 cards"),
        (lambda d: d["plays"][0].update(seat=4), r"plays\[0\].seat must be a seat 0, 1, 2 or 3, not 4"),
        (lambda d: d.update(players=["a", "b", "c"]), "players must be a list of 4 names"),
        (lambda d: d["deal"].update(hand_ids=[[0]] * 4), "card ids name the cards of one deck"),
        (lambda d: d.update(rules="four,kickers_distinct=off"), "does not apply to four-player rules"),
    ]
    for change, message in cases:
        d = copy.deepcopy(good)
        change(d)
        with pytest.raises(RecordError, match=message) as exc:
            parse_record(d)
        assert "\n" not in str(exc.value)


def test_schema_accepts_four_player_records_and_refuses_a_fifth_seat():
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(json.loads((DATA / "ddz-record-1.schema.json").read_text()))
    recs = four_records(3, seed=4)
    for d in recs:
        v.validate(d)
    for line in (DATA / "four_games.jsonl").read_text().splitlines():
        v.validate(json.loads(line))
    bad = copy.deepcopy(recs[0])
    bad["plays"][0]["seat"] = 4
    assert not v.is_valid(bad)
    bad = copy.deepcopy(recs[0])
    bad["deal"]["hands"] = bad["deal"]["hands"][:3]
    assert not v.is_valid(bad)
    three = record_to_dict(record_from_game(random_game(1)))
    v.validate(three)
    three["plays"][0]["seat"] = 3
    assert not v.is_valid(three)


def test_ddz_replay_of_the_bundled_four_player_games():
    from ddz_tools.cli import cli

    path = str(DATA / "four_games.jsonl")
    for fast in ([], ["--fast"]):
        r = CliRunner().invoke(cli, ["replay", path, "--format", "json"] + fast, standalone_mode=False,
                               catch_exceptions=False)
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        assert r.return_value == 0 and len(rows) >= 4
        assert all(row["status"] == "ok" and len(row["result"]["scores"]) == 4 for row in rows)
        assert all(row["rules"].startswith("four") for row in rows)
    # A stored score that disagrees is a mismatch, reported as for three players.
    line = json.loads(open(path).readline())
    line["result"]["scores"][0] += 3
    rep = replay_record(line)
    assert rep.status == "mismatch" and rep.disagreements == ("scores",)
    assert validate_batch([line]).status_name(0) == "mismatch"
    assert all(it.ok for it in read_records(path))


def test_library_errors_name_no_flag():
    with pytest.raises(DdzError) as exc:
        Game(rules="four", hands=["3"] * 4, bottom="3")
    assert "--" not in str(exc.value)


def test_the_four_seat_auction_matches_the_reference():
    """Random bid sequences at four seats, mostly in turn, some illegal: the
    Auction and the reference auction of tests/naive_game.py agree."""
    from naive_game import Bad, auction as naive

    from ddz_tools.engines.game import Auction

    rng = random.Random(12)
    seen = set()
    for _ in range(400):
        first, all_pass = rng.randrange(4), rng.choice(["redeal", "seat0"])
        a = Auction(first, "single-round", all_pass, seats=4)
        bids, got = [], None
        for i in range(rng.randint(0, 6)):
            seat = a.turn if a.turn is not None and rng.random() < 0.9 else rng.randrange(4)
            value = rng.choice(a.legal_bids() or [0]) if rng.random() < 0.9 else rng.randint(0, 4)
            bids.append((seat, value))
            try:
                a.bid(seat, value)
            except IllegalAction as exc:
                got = ("error", exc.code, i)
                break
        if got is None:
            got = (a.landlord, a.base) if a.done and not a.void else (None, "void" if a.void else "unfinished")
        try:
            want = naive(bids, first, "single-round", all_pass, seats=4)
        except Bad as exc:
            want = ("error",) + tuple(exc.code)
        assert got == want, (first, all_pass, bids)
        seen.add(got[0] if got[0] in ("error", None) else "won")
    assert seen == {"error", None, "won"}


def test_three_stored_scores_of_a_four_player_game_are_a_mismatch():
    d = four_records(1, seed=5)[0]
    d["result"]["scores"] = d["result"]["scores"][:3]
    assert replay_record(d).status == "mismatch"
    assert validate_batch([d]).status_name(0) == "mismatch"
