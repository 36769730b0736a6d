"""The advisor under three players without a bottom (``notalon``): 18 cards a
seat, first-call bidding, and with ``landlord_draw=on`` the landlord's draws."""

import json
import random

import pytest

from ddz_tools.analysis import advise as adv
from ddz_tools.analysis.advise import sampling
from ddz_tools.analysis.advise import View, ViewError, advise, counts_view, history_view, sample_deals, view_from_record
from ddz_tools.core.cards import FULL_DECK, card_count, counts_of, format_cards
from ddz_tools.cli import main
from ddz_tools.engines.policies import bid_rule
from ddz_tools.engines.records import parse_record, replay_record

SEATS = ("landlord", "farmer1", "farmer2")
RULES = ("notalon", "notalon,landlord_draw=on")


def _contains(big, small):
    return all(a >= b for a, b in zip(counts_of(big), counts_of(small)))


def _ranks(packed):
    return [r for r, c in enumerate(counts_of(packed)) for _ in range(c)]


def _record(rules, index, seed=5):
    return parse_record(adv.play_game(index, seed, rules=rules))


def _played_by(view):
    out = [0, 0, 0]
    for s, p in view.played:
        out[SEATS.index(s)] += p.cards
    return out


@pytest.mark.parametrize("rules", RULES)
def test_every_decision_of_a_notalon_game_is_advised_from_its_record(rules):
    rec = _record(rules, 1)
    assert rec.bottom == 0 and replay_record(rec).status == "ok"
    assert len(rec.draws) == (2 if "landlord_draw" in rules else 0)
    start = (20, 17, 17) if "landlord_draw" in rules else (18, 18, 18)
    for move in range(1, len(rec.plays) + 1):
        v = view_from_record(rec, move)
        assert sum(v.counts) + sum(card_count(p.cards) for _, p in v.played) == 54
        # The landlord knows both draws, a farmer the one drawn from him.
        assert {s for s, _ in v.draws} == (set() if not rec.draws else
                                           {"farmer1", "farmer2"} if v.seat == "landlord" else {v.seat})
        if move == 1:
            assert v.counts == start
        assert View.from_json(v.to_json()) == v
        a = advise(v, samples=4, seed=move, early_stop=False, nodes=500)
        assert a.recommendation in [c.play for c in a.candidates]


def _fits(view, deal, gave):
    """Do the hidden seats' cards before the auction (their cards now, their
    plays, and for a farmer the card the landlord drew from it, less those
    for the landlord) call and pass as the bids say, by the heuristic?"""
    played = _played_by(view)
    for seat, value in view.bids:
        s = SEATS.index(seat)
        if s == view.me:
            continue
        before = deal[s] + played[s] + (gave[s] if s else -sum(gave))
        if (bid_rule(before, 0, rules=view.rules) > 0) != bool(value):
            return False
    return True


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("index", range(4))
def test_sampled_deals_fit_what_the_seat_knows(rules, index):
    """On many seeded views: this seat's hand, the counts, the deck; the
    known drawn cards the landlord has not played in his hand (never
    elsewhere); and the hidden seats' calls and passes, for some choice of
    the draws this seat does not know."""
    rec = _record(rules, 10 + index, seed=index)
    draws = dict(rec.draws)
    n = len(rec.plays)
    for move in sorted({1, 2, 3, 1 + n // 3, 1 + n // 2, n}):
        v = view_from_record(rec, move)
        check = sampling._auction_check(v)
        others = any(seat != v.seat for seat, _ in v.bids)
        assert (check is not None and check.calls) == others     # first-call: the others' calls say something
        played = _played_by(v)
        known = {SEATS.index(s): c for s, c in v.draws}
        for deal in sample_deals(v, 0, 20, 7 * move + index):
            assert deal[v.me] == v.hand
            assert tuple(card_count(h) for h in deal) == v.counts
            assert sum(deal) + sum(played) == FULL_DECK
            assert _contains(deal[0] + played[0], sum(known.values()))
            if not draws:
                assert _fits(v, deal, [0, 0, 0])
                continue
            # Each draw this seat does not know was one of the landlord's other cards.
            rest = sorted(set(_ranks(deal[0] + played[0] - sum(known.values()))))
            unknown = [f for f in (1, 2) if f not in known]
            options = [[]]
            for _ in unknown:
                options = [o + [1 << (4 * r)] for o in options for r in rest]
            fits = False
            for choice in options:
                gave = [0, 0, 0]
                for f, c in known.items():
                    gave[f] = c
                for f, c in zip(unknown, choice):
                    gave[f] = c
                if sum(choice) and not _contains(deal[0] + played[0] - sum(known.values()), sum(choice)):
                    continue
                if _fits(v, deal, gave):
                    fits = True
                    break
            assert fits


def test_a_known_drawn_card_stays_with_the_landlord():
    # farmer1 knows the landlord drew the red joker from him: every sampled
    # landlord hand holds it, the other farmer never does.
    rules = "notalon,landlord_draw=on"
    v = history_view("33445566778899TTJ", "farmer1", "landlord:3", rules=rules,
                     draws="farmer1:D", bids="farmer1:pass,farmer2:pass,landlord:call")
    assert v.counts == (19, 17, 17) and v.draws == (("farmer1", 1 << 56),)
    for deal in sample_deals(v, 0, 60, 3):
        assert (deal[0] >> 56) & 15 == 1 and (deal[2] >> 56) & 15 == 0
    # Without the draw the joker is anywhere hidden.
    w = history_view("33445566778899TTJ", "farmer1", "landlord:3", rules=rules)
    assert any((d[2] >> 56) & 15 for d in sample_deals(w, 0, 60, 3, auction=False))


@pytest.mark.parametrize("kwargs, message", [
    (dict(bottom="2XD"), "deal no bottom"),
    (dict(rules="notalon", draws="farmer1:K"), "draws no cards"),
    (dict(draws="landlord:K"), "not from himself"),
    (dict(draws="farmer1:KK"), "one card, not 2"),
    (dict(draws="farmer1:K,farmer1:5"), "one card from farmer1"),
    (dict(seat="landlord", hand="3345567899TJQKKA22XD", played=[], draws="farmer1:3,farmer2:3,"), None),
    (dict(seat="landlord", hand="3345567899TJQKKA22XD", played=[], draws="farmer1:6,farmer2:6"), "not in the landlord"),
    (dict(hand="33445566778899TTJQ"), "holds 17 after playing 0"),
])
def test_notalon_view_errors(kwargs, message):
    args = dict(hand="33445566778899TTJ", seat="farmer1", played="landlord:3",
                rules="notalon,landlord_draw=on")
    args.update(kwargs)
    if message is None:
        assert history_view(**args).counts == (20, 17, 17)
        return
    with pytest.raises(ViewError, match=message) as err:
        history_view(**args)
    assert "\n" not in str(err.value)


def test_counts_and_start_views_under_notalon():
    v = counts_view("3456789TJQKA2", "farmer2", "10,12,13", after="55", by="farmer1", rules="notalon")
    assert v.counts == (10, 12, 13) and card_count(v.pool) == 54 - 13 - 2
    a = advise(v, samples=8, seed=1, early_stop=False)
    assert a.recommendation in [c.play for c in a.candidates]
    with pytest.raises(ViewError, match="must be 1..17"):
        counts_view("3456789TJQKA2", "farmer2", "20,18,13", rules="notalon,landlord_draw=on")
    # The game start: the landlord's 18 (20 with the draws), no bottom needed; a farmer is not to move.
    assert adv.build_view("33445566778899TTJQ", seat="landlord", rules="notalon").counts == (18, 18, 18)
    with pytest.raises(ViewError, match="not to move"):
        adv.build_view("33445566778899TTJQ", seat="farmer1", rules="notalon")
    with pytest.raises(ViewError, match="draws go with played"):
        adv.build_view("3456789TJQKA2", seat="farmer2", counts="10,12,13", rules="notalon,landlord_draw=on",
                       draws="farmer2:3")


def test_cli_and_simulate_under_notalon(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["advise", "--rules", "notalon,landlord_draw=on", "--seat", "landlord", "--hand",
              "3345567899TJQKKA22XD", "--draws", "farmer1:K,farmer2:5", "--bids",
              "farmer1:pass,farmer2:pass,landlord:call", "--samples", "8", "--seed", "1", "--format", "json"])
    out, err = capsys.readouterr()
    assert exc.value.code == 0, err
    d = json.loads(out)
    assert d["view"]["draws"] == {"farmer1": "K", "farmer2": "5"} and d["view"]["rules"] == "notalon,landlord_draw=on"
    path = tmp_path / "games.jsonl"
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "2", "--seed", "4", "--rules", "notalon,landlord_draw=on", "--landlord-policy",
              "advisor", "--farmer-policy", "advisor", "--advisor-samples", "4", "--out", str(path), "--format",
              "json"])
    out, err = capsys.readouterr()
    assert exc.value.code == 0, err
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        assert rec["players"] == ["advisor"] * 3 and len(rec["draws"]) == 2
        assert replay_record(rec).status == "ok"
    # The same games again: the draws come from the game's seed.
    assert adv.play_game(0, 4, rules="notalon,landlord_draw=on")["draws"] == \
        adv.play_game(0, 4, rules="notalon,landlord_draw=on")["draws"]
