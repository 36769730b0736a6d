"""Each theme of ddz_tools.analysis.puzzles.themes on a hand-made line: one that shows it, one that does not."""

from __future__ import annotations

import pytest

from ddz_tools.analysis.puzzles import THEMES, Step, detect_themes
from ddz_tools.engines.position import Position


def line(*moves):
    return [Step(*m.split(":")) for m in moves]


TWO = Position.two_player
THREE = Position.three_player

CASES = {
    "bomb-timed": [
        (TWO("3333K5", "4"), line("me:5:solve", "opponent:pass:forced", "me:3333:solve", "opponent:pass:forced",
                                  "me:K:solve"), True),
        (TWO("3333K5", "4"), line("me:3333:solve", "opponent:pass:forced", "me:5:solve"), False),
    ],
    "partner-lead": [
        (THREE("KK", "3A", "45", to_move="farmer1"),
         line("farmer1:3:solve", "farmer2:4:solve", "landlord:pass:defence", "farmer1:pass:solve",
              "farmer2:5:solve"), True),
        (THREE("KK", "3A", "45", to_move="farmer1"),
         line("farmer1:3:solve", "farmer2:pass:solve", "landlord:pass:defence", "farmer1:A:solve"), False),
    ],
    "two-early": [
        (TWO("23K", "45", after="A"), line("me:2:solve", "opponent:pass:forced", "me:K:solve"), True),
        (TWO("23K", "45"), line("me:2:solve", "opponent:pass:forced", "me:K:solve"), False),    # a lead
    ],
    "pair-split": [
        (TWO("335", "4"), line("me:3:solve", "opponent:4:defence"), True),
        (TWO("335", "4"), line("me:33:solve", "opponent:pass:forced", "me:5:solve"), False),
    ],
    "chain-broken": [
        (TWO("34567K", "8"), line("me:3:solve", "opponent:8:defence"), True),
        (TWO("34567K", "8"), line("me:K:solve", "opponent:pass:forced", "me:34567:solve"), False),
    ],
    "rocket-last": [
        (TWO("XD5", "4"), line("me:XD:solve", "opponent:pass:forced", "me:5:solve"), True),
        (TWO("XD56", "4"), line("me:XD:solve", "opponent:pass:forced", "me:5:solve"), False),   # not out
    ],
    "quiet-pass": [
        (TWO("9AA", "5577TTQQ2", after="3"), line("me:pass:solve", "opponent:55:defence"), True),
        (TWO("9AA", "5577TTQQ2", after="3"), line("me:9:solve", "opponent:2:defence"), False),
    ],
    "bomb-kept": [
        (THREE("K", "33334", "5", to_move="farmer1"), line("farmer1:4:solve", "farmer2:5:solve"), True),
        (THREE("K", "33334", "5", to_move="farmer1"), line("farmer1:4:solve", "farmer2:pass:solve"), False),
    ],
}


def test_every_theme_has_cases():
    assert set(CASES) == set(THEMES)


@pytest.mark.parametrize("name,case", [(n, c) for n, cs in CASES.items() for c in cs])
def test_theme(name, case):
    position, steps, shown = case
    assert THEMES[name](position, steps) is shown
    assert (name in detect_themes(position, steps)) is shown
