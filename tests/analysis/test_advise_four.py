"""The advisor under four-player rules (two decks, four seats, a hidden 8-card bottom).

Views read from the four-player records replay the game (hand, counts, turn, the
play to answer, the bottom only in the landlord's view, the legal plays); every
sampled deal holds exactly the unseen cards of two decks in the right counts
and fits the bids by the heuristic rule; the playout kernel with four hands
equals a plain-Python loop that writes the trick rule out (a play stands until
three passes); the stake is settled +-3 for the landlord, +-1 a farmer; the
answer depends only on the seed; bad views are one-line errors.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest

from ddz_tools.analysis import advise as adv
from ddz_tools.analysis.advise import parse, sampling, scoring
from ddz_tools.analysis.bid import sample_key
from ddz_tools.analysis.advise import (
    View,
    ViewError,
    advise,
    counts_view,
    history_view,
    sample_deals,
    view_from_record,
)
from ddz_tools.core.cards import card_count, counts_of, format_cards, full_deck, pack_counts, parse_cards
from ddz_tools.cli import main
from ddz_tools.core._jit import interpreted
from ddz_tools.engines.game import seat_roles
from ddz_tools.core.gamerules import multiplier
from ddz_tools.engines.policies import BUFFER, new_table, policy_bid, policy_play
from ddz_tools.engines.position import game_before_move
from ddz_tools.engines.records import parse_record, replay_record
from ddz_tools.core.rules import Rules

REPO = Path(__file__).resolve().parents[2]
FOUR = Rules.parse("four")
SEATS = ("landlord", "farmer1", "farmer2", "farmer3")
DECKS = full_deck(2)


def _records() -> list:
    return [parse_record(json.loads(line)) for line in (REPO / "data" / "four_games.jsonl").read_text().splitlines()]


RECORDS = _records()
_multiplier = interpreted(multiplier)


def _contains(big, small):
    return all(a >= b for a, b in zip(counts_of(big), counts_of(small)))


def _played_by(view: View) -> list:
    out = [0] * 4
    for s, p in view.played:
        out[SEATS.index(s)] += p.cards
    return out


@pytest.fixture(scope="module")
def heuristic_records():
    """Four-player games bid by the heuristic rule (so their bids fit the sampler's model)."""
    return [parse_record(adv.play_game(i, 7, "heuristic", "heuristic", "four")) for i in range(4)]


# Views ------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_views_of_four_player_records_replay(index):
    """Each view of a four-player record is the game before that move as its player
    sees it: its hand, every seat's count, the play to answer, the legal plays (the
    pass first when answering), the bids and the bottom (the landlord's view only);
    it equals the view typed by hand and round-trips through ddz-view/1."""
    rec = RECORDS[index]
    for move in sorted({1, 2, 3, 5, 9, len(rec.plays) // 2, len(rec.plays)}):
        v = view_from_record(rec, move)
        g = game_before_move(rec, move)
        role = seat_roles(g.landlord, 4)
        seat_of = {r: s for s, r in role.items()}
        assert v.rules.is_four and v.players == 4 and v.seats == SEATS
        assert v.seat == role[g.turn] and v.hand == g.hands[g.turn]
        assert v.counts == tuple(card_count(g.hands[seat_of[r]]) for r in SEATS)
        assert v.bottom == (rec.bottom if v.seat == "landlord" else None)
        assert v.must == (0, 0, 0, 0)
        assert v.base == g.base and v.stake == g.base * _multiplier(g.doublings, 0, 0)
        assert v.win_score() == (3 if v.seat == "landlord" else 1) * v.stake
        assert (v.last_play is None) == (g.last_play is None)
        if g.last_play is not None:
            assert v.last_play == g.last_play and v.last_by == role[g.last_seat]
        legal = [p for p in g.legal_plays() if not p.is_pass]
        cands = v.candidates()
        assert sorted((p.cards, p.kind) for p in cands if not p.is_pass) == sorted((p.cards, p.kind) for p in legal)
        assert (cands[0].is_pass) == (g.last_play is not None)
        # The pool: every card this seat has not seen (the unplayed bottom, for a farmer, among them).
        played = sum(p.cards for _, p in g.plays)
        assert v.pool == DECKS - v.hand - played
        # By hand: the seat, its cards now, the plays as text, the bids, the bottom if it sees it.
        text = ",".join(f"{role[s]}:{'pass' if p.is_pass else p.notation(v.rules)}" for s, p in g.plays)
        bids = ",".join(f"{role[s]}:{b or 'pass'}" for s, b in g.bids)
        by_hand = history_view(format_cards(v.hand), v.seat, text, v.bottom, rules=rec.rules, bids=bids)
        assert by_hand == dataclasses.replace(v, id=None)
        assert View.from_json(v.to_json()) == v


def test_the_game_start_and_the_counts_form():
    dealt = parse_cards("33344455566677788899TTJJQQKKAA22XD33344", 2)  # 39 cards: too many
    with pytest.raises(ViewError, match="landlord holds 39 cards, not the 33 of the game start"):
        adv.build_view(format_cards(dealt), seat="landlord", rules="four")
    hand = "3334445556667778889TTJJQQKKAA22XD"     # 33 cards
    v = adv.build_view(hand, seat="landlord", rules="four", bids="farmer1:1,farmer2:pass,farmer3:pass,landlord:3")
    assert v.counts == (33, 25, 25, 25) and v.is_lead and v.base == 3 and v.pool == DECKS - parse_cards(hand, 2)
    assert adv.game_start(hand, rules="four") == adv.build_view(hand, seat="landlord", rules="four")
    # A farmer's 25 cards alone: not his turn (he needs no bottom: he never sees it).
    with pytest.raises(ViewError, match="farmer2 is not to move") as exc:
        adv.build_view(hand[:25], seat="farmer2", rules="four")
    assert exc.value.param == "played"
    c = counts_view("55667788", "farmer3", "20,18,15,8", after="33", by="farmer2", rules="four", bombs=1)
    assert c.players == 4 and c.stake == 2 and not c.pool_exact
    assert card_count(c.pool) == 108 - 8 - 2
    assert View.from_json(c.to_json()) == c
    assert c.to_dict()["counts"] == [20, 18, 15, 8]
    # The landlord's own bottom: the bottom cards he no longer holds are out of the pool.
    ll = counts_view("XXDD", "landlord", "4,5,5,5", bottom="XD333444", rules="four")
    assert counts_of(ll.pool)[13] == 0 and counts_of(ll.pool)[0] == 5


# Sampling ---------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_sampled_deals_hold_exactly_the_unseen_cards(index):
    """Seeded deals of a four-player view: this seat's hand as it is, every other
    seat its count, the deal and the plays exactly two decks; a farmer's deals give
    the landlord the unplayed bottom among his drawn cards (the bottom is part of
    the pool), the landlord's own deals keep his hand (the bottom in it)."""
    rec = RECORDS[index]
    for move in (2, 4, len(rec.plays) // 2):
        v = view_from_record(rec, move)
        played = _played_by(v)
        if v.seat != "landlord":
            assert _contains(v.pool, parse.minus(rec.bottom, played[0]))
        else:
            assert _contains(v.hand + played[0], rec.bottom)
        deals = sample_deals(v, 0, 12, index, auction=False)
        assert deals == sample_deals(v, 0, 12, index, auction=False)     # seeded
        assert len(set(deals)) > 1
        for deal in deals:
            assert len(deal) == 4 and deal[v.me] == v.hand
            assert tuple(card_count(h) for h in deal) == v.counts
            assert sum(deal) + sum(played) == DECKS
        # Drawn to fit the bids (random bids here: some indices may find no fit): still exact deals.
        for deal in sample_deals(v, 0, 4, index):
            assert tuple(card_count(h) for h in deal) == v.counts and sum(deal) + sum(played) == DECKS


def test_sampled_deals_fit_the_four_seat_auction(heuristic_records):
    """Games bid by the heuristic rule: every deal drawn for a view fits the bids of
    the hidden farmers (25 cards before the auction); the landlord's bids are read
    through a drawn bottom when the view is a farmer's (it does not see it)."""
    checked = 0
    for k, rec in enumerate(heuristic_records):
        for move in (1, 2, 3):
            v = view_from_record(rec, move)
            check = sampling._auction_check(v)
            if check is None:
                continue
            assert check.draw_bottom == (v.seat != "landlord" and 0 in check.seats.tolist())
            played = _played_by(v)
            deals, draws, unfit = sampling.draw_deals(v, 0, 8, k)
            assert draws >= 8 and unfit == 0
            table = new_table(12)
            for deal in deals:
                assert sum(deal) + sum(played) == DECKS
                high = 0
                for seat, b in v.bids:
                    s = SEATS.index(seat)
                    if s not in (0, v.me):
                        assert policy_bid(deal[s] + played[s], 1, FOUR.flags, high, table) == b
                    high = max(high, b)
            checked += 1
    assert checked >= 6


def _controls(packed: int) -> int:
    """2s and jokers."""
    c = counts_of(packed)
    return c[12] + c[13] + c[14]


def test_the_landlords_bid_shapes_a_farmers_deals():
    """A farmer does not see the bottom, yet the landlord's bid of 3 is read through a
    drawn bottom: his hidden cards hold more 2s and jokers than unconditioned deals give him."""
    hand = "3344556677889TTJJQQKKA2XD"           # farmer1, 25 cards
    v = history_view(hand, "farmer1", "landlord:3", rules="four", bids="farmer3:pass,landlord:3")
    check = sampling._auction_check(v)
    assert check.draw_bottom and check.seats.tolist() == [0, 3] and check.values.tolist() == [3, 0]
    fit, draws, unfit = sampling.draw_deals(v, 0, 64, 1)
    plain = sample_deals(v, 0, 64, 1, auction=False)
    assert unfit == 0 and draws > 64
    assert sum(_controls(d[0]) for d in fit) > 1.2 * sum(_controls(d[0]) for d in plain)


def test_a_drawn_bottom_is_uniform_over_the_landlords_cards():
    cards = parse_cards("3333XD", 2)
    seen = {}
    for i in range(3000):
        b = sampling._drawn_bottom(cards, 2, sample_key(7, i))
        assert card_count(b) == 2 and _contains(cards, b)
        seen[b] = seen.get(b, 0) + 1
    assert sampling._drawn_bottom(cards, 2, 99) == sampling._drawn_bottom(cards, 2, 99)
    # Each physical card is in the bottom 2 times in 6: the small joker one deal in three.
    x = sum(n for b, n in seen.items() if counts_of(b)[13]) / 3000
    assert 0.30 < x < 0.37


def test_distinct_deals_of_four_seats():
    # Three hidden seats, all their cards 5s: one deal; two ranks between them: many.
    one = counts_view("KK", "farmer1", "1,2,2,1", after="Q", by="landlord", unseen="5555", rules="four")
    assert adv.distinct_deals(one) == 1
    many = counts_view("KK", "farmer1", "1,2,2,1", after="Q", by="landlord", unseen="5556", rules="four")
    assert adv.distinct_deals(many, 10) == 3    # who holds the 6
    assert adv.distinct_deals(counts_view("KK", "farmer1", "2,2,1,1", after="Q", by="landlord", unseen="5566",
                                          rules="four"), 10) == 4   # 55|6|6, 56|5|6, 56|6|5, 66|5|5
    # Nothing hidden: one deal, solved exactly.
    a = advise(one)
    assert a.samples == 1 and a.exact and a.candidates[0].solved == 1


# Scoring ----------------------------------------------------------------------------------


def _naive_playout(hands, me, cand, prev_kind, prev_seat, flags, table, bufc, bufk) -> int:
    """The winner after ``me`` plays ``cand``, every seat then asking the heuristic
    (the policy kernel) for each move; the trick rule written out: a play stands
    until the turn comes back to the seat that made it (three passes)."""
    h = list(hands)
    if cand.is_pass:
        kind, by = prev_kind, prev_seat
    else:
        h[me] -= cand.cards
        if h[me] == 0:
            return me
        kind, by = cand.kind, me
    seat = (me + 1) % 4
    while True:
        if by == seat:
            kind = 0             # three passes: the maker leads
        c, k = policy_play(np.array(h, np.int64), seat, 0, kind, by, 1, flags, table, bufc, bufk)
        if k > 0:
            h[seat] -= int(c)
            if h[seat] == 0:
                return seat
            kind, by = int(k), seat
        seat = (seat + 1) % 4


@pytest.mark.parametrize("index", range(4))
def test_playout_kernel_matches_naive_four(index):
    rec = RECORDS[index]
    rng = random.Random(index)
    table, bufc, bufk = new_table(12), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    for move in (len(rec.plays) // 2, len(rec.plays) - 3):
        v = view_from_record(rec, move)
        deal = sample_deals(v, 0, 1, index, auction=False)[0]
        cands = v.candidates()
        cands = cands[:1] + rng.sample(cands[1:], min(5, len(cands) - 1))
        out = np.zeros(len(cands), np.int64)
        stake = np.zeros((len(cands), 3), np.int64)
        pk = v.last_play.kind if v.last_play else 0
        ps = SEATS.index(v.last_by) if v.last_by else v.me
        scoring._playout_candidates(np.array(deal, np.int64), 0, v.me, np.array([p.cards for p in cands], np.int64),
                                np.array([p.kind for p in cands], np.int64), pk, ps, v.rules.flags,
                                table, bufc, bufk, v.spring_start(), 0, out, stake)
        for i, p in enumerate(cands):
            winner = _naive_playout(deal, v.me, p, pk, ps, v.rules.flags, table, bufc, bufk)
            assert out[i] == int((winner == 0) == (v.me == 0)), (move, p.notation())


def test_small_four_seat_deals_are_solved():
    """Four-seat deals of at most exact_cards cards go to the exact solver, as three-seat
    ones do (adv.SOLVER_SEATS); larger ones are played out."""
    v = counts_view("KQ6", "farmer1", "3,3,2,2", after="J", by="landlord", rules="four")
    assert adv.solver_scores(v) and 4 in adv.SOLVER_SEATS
    a = advise(v, samples=32, seed=2, early_stop=False)
    assert all(c.solved == 32 and c.played_out == 0 for c in a.candidates)
    b = advise(v, samples=32, seed=2, early_stop=False, exact_cards=9)
    assert all(c.solved == 0 and c.played_out == 32 for c in b.candidates)


@pytest.mark.parametrize("seed", range(6))
def test_nothing_hidden_four_players_equals_solve_all(seed):
    """The three other hands all of one rank: one deal, solved exactly, and the plays
    that win are ddz solve --all's winning plays."""
    from ddz_tools.engines.position import Position
    from ddz_tools.engines.solver import solve

    rng = random.Random(seed)
    rank = rng.randrange(13)
    others = [r for r in range(15) for _ in range(8 if r < 13 else 2) if r != rank]
    mine = pack_counts(counts_of(sum(1 << (4 * r) for r in rng.sample(others, rng.randint(2, 6)))))
    seat = "landlord" if seed < 4 else rng.choice(SEATS[1:])     # the landlord's choices matter most
    sizes = [rng.randint(1, 2) for _ in range(3)]
    counts = sizes[:SEATS.index(seat)] + [card_count(mine)] + sizes[SEATS.index(seat):]
    unseen = format_cards(sum(sizes) << (4 * rank))
    after = by = None
    if seed % 2:
        by = SEATS[SEATS.index(seat) - 1]
        after = format_cards(1 << (4 * rng.randrange(rank + 1))) if rank < 12 else "3"
    v = counts_view(mine, seat, ",".join(map(str, counts)), after=after, by=by, unseen=unseen, rules="four")
    assert adv.distinct_deals(v) == 1
    a = advise(v)
    assert a.exact and a.samples == 1 and {c.win_prob for c in a.candidates} <= {0.0, 1.0}
    deal = sample_deals(v, 0, 1, 0)[0]
    pos = Position.build(dict(zip(SEATS, deal)), seat, after, by, "four")
    want = set(solve(pos, all_plays=True, line=False).winning_plays)
    assert {c.play for c in a.candidates if c.win_prob == 1.0} == want


def test_the_stake_of_four_seats():
    """The landlord settles with three farmers: his win is worth three stakes, a
    farmer's one; under ladder an 8-card bomb triples the stake."""
    v = counts_view("KQ6", "farmer1", "3,3,2,2", after="J", by="landlord", rules="four", base=2, bombs=1)
    assert v.stake == 4 and v.win_score() == 4
    ll = counts_view("KQ6", "landlord", "3,3,2,2", rules="four", base=2, bombs=1)
    assert ll.win_score() == 12
    a = advise(ll, samples=16, seed=1)
    assert a.candidates[0].expected_score == pytest.approx(12 * (2 * a.candidates[0].win_prob - 1))
    ladder = "four,bomb_doubles=ladder"
    h = history_view("44556677889TTJJQQKKAA22XD", "farmer1", "landlord:33333333", rules=ladder,
                     bids="landlord:2,farmer1:pass,farmer2:pass,farmer3:pass")
    assert (h.bombs, h.stake, h.win_score()) == (1, 6, 6)
    h = history_view("44556677889TTJJQQKKAA22XD", "farmer1", "landlord:3333", rules=ladder,
                     bids="landlord:2,farmer1:pass,farmer2:pass,farmer3:pass")
    assert (h.bombs, h.stake) == (0, 2)          # a bomb of 4 does not raise the stake under ladder


def test_the_recommendation_is_deterministic_by_seed(heuristic_records):
    v = view_from_record(heuristic_records[1], 2)
    assert len(v.candidates()) > 1
    runs = [advise(v, samples=32, seed=5, workers=w, early_stop=False).to_dict() for w in (1, 2, 1)]
    for r in runs:
        r.pop("seconds")
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["rules"] == "four" and runs[0]["view"]["seat"] == v.seat
    a = advise(v, samples=32, seed=5)
    assert sorted(c.play for c in a.candidates) == sorted(
        "pass" if p.is_pass else p.notation(v.rules) for p in v.candidates())
    assert a.recommendation == a.candidates[0].play
    probs = [c.win_prob for c in a.candidates]
    assert probs == sorted(probs, reverse=True)


# Bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    # A fifth seat.
    (dict(hand="KQ6", seat="farmer1", counts="3,3,2,2,2", after="J", by="landlord"),
     "counts must be four numbers L,F1,F2,F3"),
    (dict(hand="KQ6", seat="farmer4", counts="3,3,2,2"), "seat must be one of landlord, farmer1, farmer2, farmer3"),
    (dict(hand="3456789TJQKA2XDD3456789TJ", seat="farmer1", played="landlord:33,farmer4:44"),
     "played.1. 'farmer4:44': seat must be one of landlord, farmer1, farmer2, farmer3"),
    # 33 cards for a farmer.
    (dict(hand="KQ6", seat="landlord", counts="3,33,25,25"), "farmer1 holds 33 cards: it must be 1..25"),
    (dict(hand="3334445556667778889TTJJQQKKAA22XD", seat="farmer1", played="landlord:44"),
     "hand has 33 cards, but farmer1 holds 25"),
    # Nine of a rank.
    (dict(hand="333333333", seat="farmer1", counts="3,9,2,2"),
     "hand: '333333333' has 9 3s; at most 8 exist in 2 decks"),
    (dict(hand="3456789TJQKA2XDD3456789TJ", seat="farmer1", played="landlord:33333333,farmer1:pass,farmer2:pass,"
          "farmer3:pass,landlord:3"), "the plays of landlord hold more cards of a rank than the deck has"),
    # A three-player list of seats under four.
    (dict(hand="KQ6", seat="farmer1", counts="3,3,2", after="J", by="landlord"),
     "counts must be four numbers L,F1,F2,F3, not"),
    (dict(hand="3456789TJQKA2XDD3456789TJ", seat="farmer1",
          played="landlord:33,farmer1:44,farmer2:pass,landlord:pass"), "farmer3's turn"),
    (dict(hand="3456789TJQKA2XDD3456789TJ", seat="farmer1", played="landlord:33",
          bids="farmer1:pass,farmer2:pass,landlord:3"), "landlord bid 3 but it is farmer3's turn"),
    # The bottom is the landlord's alone; the two-player form is one deck.
    (dict(hand="3456789TJQKA2XDD3456789TJ", seat="farmer1", played="landlord:33", bottom="33344455"),
     "farmer1 does not see the bottom: under four rules only the landlord does"),
    (dict(hand="KQ6", seat="landlord", counts="3,3,2,2", bottom="333"), "the bottom has 3 cards, not 8"),
    (dict(hand="KQ6", unseen="55"), "the two-player form .no seat. is an endgame of one deck"),
    (dict(hand="KQ6"), r"give seat \(landlord, farmer1, farmer2 or farmer3\) for the four-player game"),
])
def test_impossible_four_player_views_are_errors(kwargs, message):
    with pytest.raises(ViewError, match=message):
        adv.build_view(**kwargs, rules="four")


# The command line and self-play ------------------------------------------------------------


def _run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_four(capsys):
    code, out, err = _run(capsys, "advise", "--rules", "four", "--seat", "farmer2", "--hand", "55667788XX",
                          "--counts", "12,9,10,14", "--after", "44", "--by", "farmer1", "--samples", "16",
                          "--seed", "3", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["rules"] == "four" and d["view"]["counts"] == [12, 9, 10, 14] and d["view"]["seat"] == "farmer2"
    assert d["samples"] == 16 and {c["play"] for c in d["candidates"]} == {"pass", "55", "66", "77", "88", "XX"}
    assert all(c["solved"] == 0 for c in d["candidates"])
    code, out2, err = _run(capsys, "advise", "--rules", "four", "--seat", "farmer2", "--hand", "55667788XX",
                           "--counts", "12,9,10,14", "--after", "44", "--by", "farmer1", "--samples", "16",
                           "--seed", "3")
    assert code == 0 and out2.startswith("farmer2 holds 55667788XX (landlord 12, farmer1 9, farmer2 10, farmer3 14 "
                                         "cards); answers 44 by farmer1; rules four\n")
    assert f"recommendation: {d['recommendation']}\n" in out2
    code, out, err = _run(capsys, "advise", "--record", str(REPO / "data" / "four_games.jsonl"), "--move", "30",
                          "--samples", "16", "--format", "json")
    assert code == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == len(RECORDS)
    for d, rec in zip(lines, RECORDS):
        assert d["view"] == view_from_record(rec, 30).to_dict() and d["rules"] == rec.rules.describe()
        assert (d["view"]["bottom"] is None) == (d["view"]["seat"] != "landlord")
    for args, message in (
            (("--seat", "farmer1", "--hand", "KQ6", "--counts", "3,33,25,25"), "farmer1 holds 33 cards"),
            (("--seat", "farmer1", "--hand", "3456789TJQKA2XDD3456789TJ", "--played", "landlord:33",
              "--bottom", "33344455"), "(leave out --bottom)"),
            (("--hand", "KQ6", "--unseen", "55"), "an endgame of one deck, not of four rules: give the --seat")):
        code, out, err = _run(capsys, "advise", "--rules", "four", *args)
        assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1 and message in err


def test_play_game_four_seats():
    """Self-play under four-player rules: the heuristic and random policies and the
    advisor in some seats (a farmer's view without the bottom); the records replay."""
    for i in range(3):
        rec = adv.play_game(i, 2, "heuristic", "random", "four")
        assert replay_record(rec).status == "ok" and len(rec["deal"]["hands"]) == 4
        assert rec["first_bidder"] == i % 4 and rec["players"].count("heuristic") == 1
    stats = {}
    rec = adv.play_game(1, 2, "heuristic", "advisor", "four", adv.AdvisorOptions(samples=2), stats=stats)
    assert replay_record(rec).status == "ok" and stats["decisions"] > 0
    assert rec["players"] == ["heuristic" if s == rec["landlord"] else "advisor" for s in range(4)]
