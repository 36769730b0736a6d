"""Public Laizi classification cases: "this reading must exist".

The cases come from the C++ project qmarliu/ddzlib
(``test_data/input_ana_data.json``, commit 688f3a3), converted to our notation
in ``tests/data/ddzlib_readings.json`` (its ``source`` and ``conversion``
fields say where from and how).  Each case is a set of cards and a wild rank;
ddzlib names the reading it prefers and the other readings it finds, or says
the cards are no play.

For each case the test asks for every reading of exactly those cards under the
case's rules (``laizi``, or ``laizi`` with an option where ddzlib's rules
match ours only with it) and checks that every reading ddzlib names is among
ours, or that there is none.  Where ddzlib and our rules disagree the case
says why (``differs``) and what we assert instead (``ours``), from
docs/rules.md.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import DATA
from ddz_tools.core.cards import RANKS, parse_cards
from ddz_tools.core.errors import CardError
from ddz_tools.core.kinds import T_BOMB, TIER_NAMES, TYPE_NAMES, kind_length, kind_main, kind_tier, kind_type
from ddz_tools.core.rules import Rules, readings

DOC = json.loads((DATA / "ddzlib_readings.json").read_text(encoding="utf-8"))
CASES = DOC["cases"]


def case_id(case: dict) -> str:
    return f"{case['id']}-{case['cards']}-w{case['wild']}"


def our_readings(cards: str, spec: str, wild: str) -> list[dict]:
    """Every reading of exactly ``cards`` under ``spec`` with ``wild`` wild,
    as ``{type, main, length[, tier]}``."""
    rules = Rules.parse(spec).with_wild(wild)
    out = []
    for _, kind in readings(parse_cards(cards), rules.flags):
        d = {"type": TYPE_NAMES[kind_type(kind)], "main": RANKS[kind_main(kind)], "length": kind_length(kind)}
        if kind_type(kind) == T_BOMB:
            d["tier"] = TIER_NAMES[kind_tier(kind)]
        out.append(d)
    return out


def matches(want: dict, got: dict) -> bool:
    """Does our reading ``got`` have the type, main face, length (1 unless
    given) and, for bombs, tier that ``want`` names?"""
    return (got["type"] == want["type"] and got["main"] == want["main"]
            and got["length"] == want.get("length", 1)
            and ("tier" not in want or got.get("tier") == want["tier"]))


def label(r: dict) -> str:
    tier = f" {r['tier']}" if "tier" in r else ""
    return f"{r['type']} {r['main']} x{r.get('length', 1)}{tier}"


def assert_present(wanted, got, case):
    missing = [label(w) for w in wanted if not any(matches(w, g) for g in got)]
    assert not missing, (f"{case['cards']} (wild {case['wild']}, {case['rules']}): "
                         f"missing {missing}; ours: {[label(g) for g in got]}")


def assert_absent(unwanted, got, case, spec):
    found = [label(w) for w in unwanted if any(matches(w, g) for g in got)]
    assert not found, f"{case['cards']} (wild {case['wild']}, {spec}): {found} should not be readings"


@pytest.mark.parametrize("case", [c for c in CASES if "differs" not in c], ids=case_id)
def test_ddzlib_readings_exist(case):
    got = our_readings(case["cards"], case["rules"], case["wild"])
    if case["expect"] == "no reading":
        assert got == [], f"{case['cards']} (wild {case['wild']}) is no play, ours: {[label(g) for g in got]}"
    else:
        assert_present(case["expect"], got, case)
    if "absent_under_laizi" in case:
        # The option is needed: under plain laizi (kickers_distinct on) the reading is not a play.
        assert_absent(case["absent_under_laizi"], our_readings(case["cards"], "laizi", case["wild"]), case, "laizi")


@pytest.mark.parametrize("case", [c for c in CASES if "differs" in c], ids=case_id)
def test_where_ddzlib_differs_ours_follow_our_rules(case):
    ours = case["ours"]
    if ours == "invalid cards":
        with pytest.raises(CardError):
            parse_cards(case["cards"])
        assert our_readings(case["cards_read_as_aces"], case["rules"], case["wild"]) == []
        return
    got = our_readings(case["cards"], case["rules"], case["wild"])
    if ours == "no reading":
        assert got == [], f"{case['cards']}: ours should be no play, got {[label(g) for g in got]}"
        return
    assert_present(ours["present"], got, case)
    assert_absent(ours["absent"], got, case, case["rules"])


def test_every_source_case_is_kept():
    """All 99 cases of the source file, per section, each with an outcome."""
    assert DOC["source"]["repo"] == "qmarliu/ddzlib"
    assert DOC["source"]["commit"] == "688f3a3abaa07d0c3292a23a334ed42120a7cb36"
    assert len(CASES) == 99
    assert len({c["id"] for c in CASES}) == 99
    assert Counter(c["ddzlib"]["section"] for c in CASES) == {
        "CARD_TYPE_ONELINE": 18, "CARD_TYPE_TWO": 4, "CARD_TYPE_TWOLINE": 14, "CARD_TYPE_THREE": 6,
        "CARD_TYPE_THREELINE": 14, "CARD_TYPE_THREEWITHONE": 9, "CARD_TYPE_THREEWITHTWO": 14,
        "CARD_TYPE_PLANEWITHONE": 16, "CARD_TYPE_PLANEWITHWING": 2, "CARD_TYPE_SOFTBOMB": 1,
        "CARD_TYPE_GHOSTBOMB": 1,
    }
    for c in CASES:
        assert c["expect"] == "no reading" or c["expect"], c["id"]
        # A case tested under an option says why; a differing case says what we assert.
        assert (c["rules"] == "laizi") != ("option" in c), c["id"]
        assert ("differs" in c) == ("ours" in c), c["id"]
        # ddzlib's own record converts to the cards and wild rank we test.
        values = {1: "A", 2: "2", 14: "X", 15: "D", **{v: RANKS[v - 3] for v in range(3, 14)}}
        assert sorted(c["cards"]) == sorted(values[v] for v in c["ddzlib"]["cards"]), c["id"]
        assert c["wild"] == RANKS[c["ddzlib"]["diceFace"] - 3], c["id"]
