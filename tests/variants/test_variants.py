"""One suite over every registered variant (as OpenSpiel plays every game
through the same checks): the deal (the Python game's and self-play's),
every tool answering or refusing with the variant's own reason, self-play
that replays clean, the settlement recomputed from each record, the review's
totals over every seat, and the table of ``docs/rules.md``.

A made-up variant, three players without a bottom holding 天地癞子 wild
cards, is registered here by :func:`ddz_tools.variants.register` alone and
goes through the same suite: a new variant needs no change elsewhere.

``python tests/variants/test_variants.py --update`` rewrites the support table of
``docs/rules.md`` from :func:`ddz_tools.variants.support_table`.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from ddz_tools.core.errors import DdzError
from ddz_tools.core.rules import PRESETS, Rules
from ddz_tools.variants import DECISIONS, VARIANTS, register, support_table, variant_of

REPO = Path(__file__).resolve().parents[2]
RULES_DOC = REPO / "docs" / "rules.md"
TABLE_BEGIN, TABLE_END = "<!-- BEGIN support table -->", "<!-- END support table -->"

#: The variants the package registers itself.
BUILT_IN = tuple(VARIANTS)
#: The made-up variant: no bottom (18 cards each, one call ends the auction) and two wild ranks a deal.
MADE_UP = "tiandi-notalon"
NAMES = BUILT_IN + (MADE_UP,)


@pytest.fixture(scope="module")
def made_up():
    """Register the made-up variant for this module's tests, and take it away after."""
    if MADE_UP not in VARIANTS:
        register(MADE_UP, dataclasses.replace(PRESETS["tiandi"], bidding="first-call", bottom_cards=0))
    yield VARIANTS[MADE_UP]
    VARIANTS.pop(MADE_UP, None)
    PRESETS.pop(MADE_UP, None)
    from ddz_tools.core.options import _parse_spec
    _parse_spec.cache_clear()


@pytest.fixture(params=NAMES)
def variant(request, made_up):
    return VARIANTS[request.param]


def _deal(v, seed):
    from ddz_tools.engines.game import Game

    return Game(rules=v.rules, seed=seed)


def test_the_deal_has_the_variants_shape(variant):
    from ddz_tools.core.cards import card_count

    t = variant.table
    for seed in range(6):
        g = _deal(variant, seed)
        assert len(g.dealt) == t.seats == len(variant.roles)
        assert [card_count(h) for h in g.dealt] + [card_count(g.bottom)] == list(variant.hand_sizes)
        assert t.deck_problem(list(g.dealt) + [g.bottom]) is None
        assert len(g.wild) == variant.cards.ranks
        assert t.landlord_cards == t.hand_cards + t.bottom_cards
        assert sorted(variant.seat_roles(seed % t.seats).values()) == sorted(variant.roles)


def test_the_selfplay_deal_has_the_variants_shape(variant):
    """Self-play deals in a kernel of its own: the same sizes and decks,
    a seed's deal reproducible and another seed's another."""
    from ddz_tools.core.cards import card_count, full_deck
    from ddz_tools.engines.selfplay import deal_cards, game_seed

    t = variant.table
    for s in range(100):
        hands, bottom = deal_cards(game_seed(1, s), variant.rules)
        assert [card_count(h) for h in hands] + [card_count(bottom)] == list(variant.hand_sizes)
        assert sum(hands) + bottom == full_deck(t.decks)
    assert deal_cards(5, variant.rules) == deal_cards(5, variant.rules) != deal_cards(6, variant.rules)
    if t.seats == 3 and t.bottom_cards == 3:       # one deal a seed, whatever else the rules change
        assert deal_cards(5, variant.rules) == deal_cards(5)


@pytest.fixture(scope="module")
def games(made_up):
    """Seeded self-play records of every variant, heuristic and random players."""
    from ddz_tools.engines.selfplay import simulate

    return {name: list(simulate(12, "heuristic", seed=5, rules=name)) + list(simulate(12, "random", seed=6, rules=name))
            for name in NAMES}


def test_selfplay_replays_clean_and_settles_as_the_variant_says(variant, games):
    from ddz_tools.engines.records import parse_record, replay_record, validate_batch

    recs = games[variant.name]
    assert recs
    batch = validate_batch(recs)
    assert not batch.status.any() and not batch.mismatch.any(), (batch.status, batch.mismatch)
    assert batch.scores[:, :variant.seats].tolist() == [r["result"]["scores"] for r in recs]
    for rec in recs:
        r = parse_record(rec)
        assert r.rules.preset == variant.name
        again = replay_record(rec)
        assert again.ok, again
        res = rec["result"]
        assert tuple(res["scores"]) == tuple(again.result.scores)
        # The settlement recomputed from the record by the variant's one rule.
        doubles = rec.get("doubles") if variant.stake.doubles else None
        won = res["winner"] == "landlord"
        assert variant.settle(rec["landlord"], won, res["base"] * res["multiplier"], doubles) == \
            tuple(res["scores"]), rec["id"]
        assert sum(res["scores"]) == 0 and len(res["scores"]) == variant.seats


def test_review_totals_cover_every_seat(variant, games, tmp_path, stub_open_review):
    """Every move of the self-play games reviewed (the open-hand verdicts
    stubbed: what is checked is how they are counted): a review row a seat,
    the last seat's flagged moves among them, and the summary's totals the
    sums over every seat."""
    import json

    from ddz_tools.analysis.analyze import analyze_files, summarize

    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in games[variant.name]), encoding="utf-8")
    got = list(analyze_files([str(path)], solve_below=0, review="open", workers=1))
    assert [len(g.review["seats"]) for g in got] == [variant.seats] * len(got)
    assert sum(g.review["seats"][-1]["mistake"] for g in got) > 0
    totals = summarize(got)["review"]
    for k in ("moves", "mistake"):
        assert totals[k] == sum(s[k] for g in got for s in g.review["seats"]), k


def _answer(variant, decision, games):
    """Ask the tool that answers ``decision`` about a small input of this variant."""
    from ddz_tools.analysis import advise as adv
    from ddz_tools.analysis import bid

    g = _deal(variant, 3)
    shown = variant.wild_shown(g.wild, landlord_known=False)
    rules = variant.rules.with_wild(shown)
    small = dict(samples=24, seed=1, workers=1, early_stop=False)
    if decision == "bid":
        return bid.evaluate_bid(g.dealt[0], seat=0, rules=rules, **small)
    if decision == "call":
        return bid.evaluate_call(g.dealt[0], seat=0, rules=rules, **small)
    if decision == "double":
        return bid.evaluate_double(g.dealt[1], g.bottom, seat="first", rules=variant.rules.with_wild(g.wild),
                                   flush=False, **small)
    if decision == "show":
        return bid.evaluate_show(g.dealt[0], "deal", rules=rules, **small)
    if decision == "advise":
        rec = games[variant.name][0]     # a view late in the game: a few cards a hand, solved exactly
        return adv.advise(adv.view_from_record(rec, move=max(1, len(rec["plays"]) - 3)), samples=8, seed=1)
    if decision == "advise-endgame":
        return adv.advise(adv.two_player_view("33JJQK2", "4455A", rules=variant.rules.with_wild(g.wild)), samples=4)
    if decision == "agents":
        from ddz_tools import agents

        return agents.check_rules(variant.rules)
    if decision == "botzone":
        from ddz_tools.engines.botzone import judge_log_from_game
        from ddz_tools.engines.game import random_game

        return judge_log_from_game(random_game(3, variant.rules, first_bidder=0, all_pass="seat0"), seed=3)
    raise AssertionError(decision)


@pytest.mark.parametrize("decision", DECISIONS)
def test_every_tool_answers_or_refuses_with_the_variants_reason(variant, decision, games):
    why = variant.supports(decision)
    if why is None:
        assert _answer(variant, decision, games) is not None
    else:
        with pytest.raises(DdzError) as err:
            _answer(variant, decision, games)
        assert str(err.value) == why and "\n" not in why


def test_the_rules_page_holds_the_support_table():
    lines = RULES_DOC.read_text(encoding="utf-8").split("\n")
    a, b = lines.index(TABLE_BEGIN), lines.index(TABLE_END)
    assert "\n".join(lines[a + 1:b]).strip() == support_table(BUILT_IN), \
        "docs/rules.md's support table is stale: python tests/variants/test_variants.py --update"


def test_a_variant_answers_for_its_parts():
    four, happy, notalon = variant_of("four"), variant_of("happy"), variant_of("notalon,landlord_draw=on")
    assert (four.table.seats, four.table.decks, four.hand_sizes[-1]) == (4, 2, 8)
    assert happy.stake.auction == "call" and happy.stake.shows and happy.stake.doubles
    assert notalon.stake.draws and notalon.table.bottom_cards == 0 and notalon.table.hand_cards == 18
    assert variant_of("tiandi").cards.ranks == 2 and not variant_of("standard").cards.wild
    assert variant_of("standard") is variant_of(Rules.parse("standard"))
    with pytest.raises(ValueError):
        four.supports("fly")
    assert list(four.params[:3]) == [four.rules.flags, four.rules.game_flags, four.rules.stage_flags]


def test_a_variant_answers_what_its_tools_ask():
    """What the tools above the variants layer ask instead of testing the
    table: the figures a summary adds, the bottom a tool needs or refuses,
    the stages a replay walks, and the params the kernels read."""
    from ddz_tools.core.gamerules import BIDDING_MODES, SPRING_MODES
    from ddz_tools.engines.selfplay import SimulationSummary, simulate
    from ddz_tools.variants.variant import P_BIDDING, P_SPRING

    standard, four, happy, notalon = (variant_of(r) for r in ("standard", "four", "happy", "notalon"))
    assert (standard.summary_figures, four.summary_figures, happy.summary_figures) == ((), ("multiplier",), ("stages",))
    assert (standard.bombs_counted, four.bombs_counted) == ("bombs + rockets", "stake bombs")
    assert standard.needs_bottom("x") is None and standard.bottom_given is None
    assert notalon.needs_bottom("the doubling evaluator") == \
        "rules notalon have no bottom: the doubling evaluator needs one"
    assert notalon.bottom_given == "rules notalon deal no bottom: leave out bottom"
    assert happy.stake.before_play and not standard.stake.before_play
    assert variant_of("standard,must_call=jokers").stake.before_play
    for v in (standard, four, happy, notalon, variant_of("standard,bidding=until-two-pass,spring=any-player")):
        assert v.params[P_BIDDING] == BIDDING_MODES[v.rules.bidding]
        assert v.params[P_SPRING] == SPRING_MODES[v.rules.spring]
    for v, extra in ((standard, []), (four, ["mean multiplier"]),
                     (happy, ["games with a double", "games with a show", "mean public multiplier",
                              "stakes per farmer pair"])):
        tally = SimulationSummary()
        for rec in simulate(3, "random", seed=2, rules=v.rules):
            tally.add(rec)
        labels = [label for label, _ in tally.rows(v.rules)]
        assert labels[1] == f"{v.bombs_counted} per game" and labels[6:] == extra
        assert [text for _, text in SimulationSummary().rows(v.rules)][:2] == ["-", "-"]


def _update() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    a, b = text.index(TABLE_BEGIN) + len(TABLE_BEGIN), text.index(TABLE_END)
    RULES_DOC.write_text(text[:a] + "\n" + support_table(BUILT_IN) + "\n" + text[b:], encoding="utf-8")
    print("rewritten docs/rules.md: the support table")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/variants/test_variants.py --update")
    _update()
