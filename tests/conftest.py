"""Shared test helpers: seeded random deals and the rule variants to test under.

Other test modules may import these (``from conftest import random_hands``)
or use the fixtures below.  Everything random here is driven by an explicit
seed, so a failure names a seed that reproduces it.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import sys
import types
from pathlib import Path

import pytest

from ddz_tools.core.rules import PRESETS, Rules

REPO = Path(__file__).resolve().parent.parent
# The CLI's first-run notice ("compiling the ... kernels") depends on what the
# kernel cache holds; tests compare stderr, so it is off (tests/core/test_jit.py
# turns it on where it checks it).
os.environ["DDZ_COMPILE_NOTICE"] = "0"
#: Test data files (tests/data/README.md says what each one is).
DATA = REPO / "tests" / "data"

#: The 54 cards as rank indices (0 = "3" .. 12 = "2", 13 = X, 14 = D).
DECK = tuple([r for r in range(13) for _ in range(4)] + [13, 14])

PLAY_OPTIONS = ("kickers_distinct", "jokers_as_kickers", "jokers_in_four_two", "four_with_one", "chains_with_two")


def pack_ranks(ranks) -> int:
    """Packed hand of a list of rank indices."""
    packed = 0
    for r in ranks:
        packed += 1 << (4 * r)
    return packed


def random_deal(rng: random.Random) -> tuple[list[int], int]:
    """One shuffled deal: three packed 17-card hands and the packed 3-card bottom."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [pack_ranks(deck[17 * i:17 * (i + 1)]) for i in range(3)]
    return hands, pack_ranks(deck[51:])


def random_hands(count: int, size: int, seed: int) -> list[int]:
    """``count`` packed hands of ``size`` cards from seeded random deals.

    Size 17 is a farmer's deal, 20 the landlord's (17 plus the bottom); any
    other size takes the first ``size`` cards of a shuffled deck.
    """
    rng = random.Random(f"ddz-hands-{size}-{seed}")
    out = []
    for _ in range(count):
        if size in (17, 20):
            hands, bottom = random_deal(rng)
            out.append(hands[0] + bottom if size == 20 else hands[0])
        else:
            deck = list(DECK)
            rng.shuffle(deck)
            out.append(pack_ranks(deck[:size]))
    return out


def random_laizi_hand(rng: random.Random, spec: str, lo: int, hi: int, max_laizi: int = 3):
    """``(packed hand, rules)``: ``spec`` (a Laizi preset and options) with
    wild ranks drawn from ``rng``, and a hand of ``lo``..``hi`` cards biased
    to hold laizi (0..``max_laizi`` of them, the rest from the other cards)."""
    rules = Rules.parse(spec)
    wild = tuple(rng.sample(range(13), rules.wild_ranks))
    rules = rules.with_wild(wild)
    n = rng.randint(lo, hi)
    nlz = min(n, rng.randint(0, max_laizi))
    laizi = [w for w in wild for _ in range(4)]
    cards = rng.sample(laizi, min(nlz, len(laizi)))
    rest = list(DECK)
    for r in cards:
        rest.remove(r)
    cards += rng.sample(rest, n - len(cards))
    return pack_ranks(cards), rules


def rules_with_flips() -> list[Rules]:
    """The three presets, and each preset with each single play option flipped.

    Duplicates (the same options reached two ways) are dropped, keeping the
    first spelling, so every entry is a distinct option set.
    """
    out, seen = [], set()
    for preset in PRESETS.values():
        if preset.is_four:   # the two-deck plays have their own reference (naive_four)
            continue
        variants = [preset] + [
            dataclasses.replace(preset, **{opt: not getattr(preset, opt)}) for opt in PLAY_OPTIONS
        ]
        for r in variants:
            if r.flags not in seen:
                seen.add(r.flags)
                out.append(r)
    return out


def all_option_sets() -> list[Rules]:
    """All 32 combinations of the five play options (on the standard preset)."""
    out = []
    for bits in itertools.product((False, True), repeat=len(PLAY_OPTIONS)):
        out.append(dataclasses.replace(PRESETS["standard"], **dict(zip(PLAY_OPTIONS, bits))))
    return out


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only when ``-m`` selects them (``pytest -m slow``)."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="exhaustive run: select it with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def run_ddz(*args) -> types.SimpleNamespace:
    """``ddz ARGS`` run through the console script's entry point in this
    process: its ``returncode``, ``stdout`` and ``stderr`` as a process's (the
    docs' examples run the commands as processes of their own,
    tests/test_docs.py)."""
    from click.testing import CliRunner

    from ddz_tools.cli import main

    with CliRunner().isolation() as (out, err, _):
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code
        sys.stdout.flush()
        sys.stderr.flush()
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue().decode(), stderr=err.getvalue().decode())


def fake_open_review(states, end, moves, landlord, rules, node_limit, time_limit):
    """A stand-in for the review's open-hand solver: every move's side could
    win before it, and every fifth move of the last seat (seat 2, or seat 3
    at four seats) threw the win away.  What it lets a test check is how the
    verdicts are counted, summed and shown; a real open review of a
    four-player game costs minutes."""
    last = len(states[0].hands) - 1
    for m in moves:
        m.open_before = "win"
        m.open_after = "loss" if m.seat == last and m.move % 5 == 0 else "win"
        if m.open_after == "loss":
            m.open_flag, m.better = "mistake", []
    return len(moves) + 1, 0


@pytest.fixture
def stub_open_review(monkeypatch):
    """The review's open-hand solver replaced by :func:`fake_open_review`."""
    from ddz_tools.analysis import review

    monkeypatch.setattr(review, "_review_open", fake_open_review)


@pytest.fixture
def rng(request) -> random.Random:
    """A random.Random seeded from the test's name (stable across runs)."""
    return random.Random(request.node.nodeid)


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The test data directory, ``tests/data`` (Botzone transcripts under ``botzone/``)."""
    return DATA


@pytest.fixture(scope="session")
def rule_variants() -> list[Rules]:
    return rules_with_flips()

