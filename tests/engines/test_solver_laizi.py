"""The endgame solver under Laizi rules (wild cards) against the plain-Python
reference minimax (``naive_solver.laizi_wins``, plays from tests/naive_laizi.py):
the value and every winning root play on seeded small positions, two- and
three-player, both presets and the rule options that change what is a play
or what beats what; plus the parts of the solver that changed for wild
cards (keys, answer profiles, the shortcuts' gating)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddz_tools.core.cards import format_cards
from ddz_tools.core.kinds import TIER_PURE, TIER_SHIFT, TIER_SOFT, T_BOMB, T_SOLO, make_kind
from ddz_tools.moves.movegen import generate
from ddz_tools.engines.position import Position
from ddz_tools.core.rules import Play, Rules
from ddz_tools.engines.solver import Solver, solve

from naive_solver import laizi_plays, laizi_winning_plays, laizi_wins

SEATS2 = ("me", "opponent")
SEATS3 = ("landlord", "farmer1", "farmer2")

#: Rule sets tested, each with wild ranks drawn per position.
SPECS = [
    "laizi",
    "tiandi",
    "laizi,bomb_order=rank",
    "laizi,pure_bomb=soft",
    "laizi,natural_first=on",
    "laizi,laizi_alone_as_self=off",
    "laizi,laizi_in_four_two=off",
    "tiandi,natural_first=on",
    "tiandi,bomb_order=rank",
    "tiandi,mixed_pure_bomb=off,pure_bomb=soft",
]


def _pack(ranks) -> int:
    out = 0
    for r in ranks:
        out += 1 << (4 * r)
    return out


def random_rules(rng: random.Random, spec: str) -> Rules:
    base = Rules.parse(spec)
    wild = rng.sample(range(13), base.wild_ranks)
    return base.with_wild(",".join("3456789TJQKA2"[w] for w in wild))


def random_laizi_position(rng: random.Random, nplayers: int, max_cards: int, spec: str,
                          max_laizi: int = 3) -> Position:
    """A random position under ``spec`` with fresh wild ranks: 1..max_cards
    cards a seat, 0..max_laizi laizi among the hands; half of them answer a
    play (a reading of other cards, bombs favoured) made by another seat."""
    rules = random_rules(rng, spec)
    wild = list(rules.wild)
    lz_cards = [w for w in wild for _ in range(4)]
    other = [r for r in range(13) if r not in wild for _ in range(4)] + [13, 14]
    rng.shuffle(lz_cards)
    rng.shuffle(other)
    sizes = [rng.randint(1, max_cards) for _ in range(nplayers)]
    n_lz = min(rng.randint(0, max_laizi), sum(sizes), len(lz_cards))
    slots = [s for s in range(nplayers) for _ in range(sizes[s])]
    rng.shuffle(slots)
    hands = [[] for _ in range(nplayers)]
    for i, s in enumerate(slots):
        hands[s].append(lz_cards.pop() if i < n_lz else other.pop())
    seats = SEATS2 if nplayers == 2 else SEATS3
    to_move = rng.choice(seats)
    after = by = None
    if rng.random() < 0.5:
        rest = other[:rng.randint(1, 6)] + lz_cards[:rng.randint(0, 3)]
        plays = sorted(laizi_plays(_pack(rest), 0, rules))
        bombs = [p for p in plays if p[1] & 31 == T_BOMB]
        if plays:
            c, k = rng.choice(bombs) if bombs and rng.random() < 0.4 else rng.choice(plays)
            after = Play(c, k)
            by = rng.choice([s for s in seats if s != to_move])
    return Position.build(dict(zip(seats, (_pack(h) for h in hands))), to_move, after, by, rules)


def _naive_args(p: Position):
    hands = tuple(h for _, h in p.hands)
    turn = p.seats.index(p.to_move)
    if p.last_play is None:
        return hands, turn, 0, 0
    return hands, turn, p.last_play.kind, p.seats.index(p.last_by)


def _text(p: Position, c: int, k: int) -> str:
    return Play(c, k).notation(p.rules) if k else "pass"


def _expect(p: Position):
    """(the reference's value, its winning plays as the solver writes them)."""
    hands, turn, prev, lb = _naive_args(p)
    won = laizi_winning_plays(hands, turn, prev, lb, p.rules, {})
    texts = {_text(p, c, k) for c, k in won}
    assert len(texts) == len(won), "two plays written alike"
    return won, texts


CASES = [(spec, n) for spec in SPECS for n in (2, 3)]
#: Positions per case of the default differential test (1,000 in all; -m slow adds more and bigger ones).
COUNT = 50


@pytest.mark.parametrize("spec,nplayers", CASES)
def test_differential_laizi_positions(spec, nplayers):
    """The result and every winning play (``all_plays``) equal the
    reference's, and a value solve from a fresh table agrees: 10 rule sets
    x 2 player counts x COUNT positions, hands of 1-6 (two players) or 1-5
    (three) cards with 0-3 laizi."""
    rng = random.Random(f"laizi-{spec}-{nplayers}")
    solver = Solver(tt_mb=8)
    max_cards = 6 if nplayers == 2 else 5
    wins = 0
    for i in range(COUNT):
        p = random_laizi_position(rng, nplayers, max_cards, spec)
        won, expect = _expect(p)
        r = solver.solve(p, all_plays=True)
        what = f"{p.describe()} wild {p.rules.wild_text()} [{spec}]"
        assert r.result == ("win" if won else "loss"), what
        assert set(r.winning_plays) == expect, what
        assert len(r.winning_plays) == len(expect), what
        wins += bool(won)
        assert solve(p, tt_mb=1, line=False).result == r.result, what
    assert 0 < wins < COUNT


def _bigger(spec, nplayers, count, max_cards, seed="big"):
    rng = random.Random(f"{seed}-{spec}-{nplayers}")
    solver = Solver(tt_mb=32)
    for _ in range(count):
        p = random_laizi_position(rng, nplayers, max_cards, spec)
        hands, turn, prev, lb = _naive_args(p)
        expect = laizi_wins(hands, turn, prev, lb, p.rules, {})
        r = solver.solve(p, line=False)
        assert r.result == ("win" if expect else "loss"), f"{p.describe()} wild {p.rules.wild_text()} [{spec}]"


@pytest.mark.parametrize("spec,nplayers", [("laizi", 3), ("tiandi", 3), ("laizi,natural_first=on", 3),
                                           ("laizi,laizi_alone_as_self=off", 2)])
def test_differential_bigger_laizi_positions_capped(spec, nplayers):
    """Up to 6 cards a seat: the value equals the reference's (a few each)."""
    _bigger(spec, nplayers, 3, 6 if nplayers == 2 else 5)


@pytest.mark.slow
@pytest.mark.parametrize("spec,nplayers", CASES)
def test_differential_laizi_positions_more(spec, nplayers):
    """Many more of the default test's positions, and bigger ones: hands of
    up to 6 cards a seat."""
    rng = random.Random(f"laizi-slow-{spec}-{nplayers}")
    solver = Solver(tt_mb=32)
    for i in range(60):
        p = random_laizi_position(rng, nplayers, 6 if nplayers == 2 else 5, spec)
        won, expect = _expect(p)
        r = solver.solve(p, all_plays=True, line=False)
        what = f"{p.describe()} wild {p.rules.wild_text()} [{spec}]"
        assert (r.result, set(r.winning_plays)) == ("win" if won else "loss", expect), what
    _bigger(spec, nplayers, 20, 6, seed="slow-big")


@pytest.mark.parametrize("switch", ["dominance", "cover", "threat", "solo_count", "out_now", "known_lost"])
def test_each_shortcut_off_gives_the_same_answers(switch):
    """Three-player laizi positions of up to 6 cards a seat (and two-player
    ones of up to 8): every winning play the same with each shortcut switched
    off, for shortcuts that run (or are switched off) where hands hold laizi."""
    rng = random.Random(f"switch-{switch}")
    on, off = Solver(16), Solver(16)
    setattr(off, switch, False)
    differ = 0
    for i in range(30):
        spec = SPECS[i % len(SPECS)]
        nplayers = 3 if i % 3 else 2
        p = random_laizi_position(rng, nplayers, 6 if nplayers == 3 else 8, spec)
        on.clear()
        off.clear()
        r1 = on.solve(p, all_plays=True, line=False)
        r2 = off.solve(p, all_plays=True, line=False)
        assert (r1.result, r1.winning_plays) == (r2.result, r2.winning_plays), (p.describe(), spec)
        differ += r1.nodes != r2.nodes
    assert differ > 0 or switch in ("cover", "solo_count")


def test_line_and_strategy_under_laizi():
    """The line is made of legal plays (as the reference lists them) ending
    with the winner going out, and the strategy tree's winning plays are
    winning in the reference."""
    rng = random.Random("laizi-line")
    checked = 0
    for i in range(12):
        p = random_laizi_position(rng, 2 + i % 2, 4, SPECS[i % len(SPECS)])
        r = solve(p, all_plays=True, strategy=True)
        hands, turn, prev, lb = _naive_args(p)
        hands = list(hands)
        n = len(hands)
        for text in r.line:
            legal = {_text(p, c, k): (c, k) for c, k in laizi_plays(hands[turn], prev, p.rules)}
            if prev:
                legal["pass"] = (0, 0)
            assert text in legal, (p.describe(), r.line, text)
            c, k = legal[text]
            nxt = (turn + 1) % n
            if k:
                hands[turn] -= c
                if hands[turn] == 0:
                    break
                prev, lb = k, turn
            elif nxt == lb:
                prev = 0
            turn = nxt
        assert 0 in hands
        winner = hands.index(0)
        team = (lambda s: s) if n == 2 else (lambda s: 0 if s == 0 else 1)
        start = p.seats.index(p.to_move)
        assert (team(winner) == team(start)) == (r.result == "win"), (p.describe(), r.line)
        checked += 1
    assert checked == 12


def test_classic_keys_are_unchanged_and_laizi_keys_apart():
    """A classic key's misc word is what it always was (same buckets, same
    nodes); bomb tiers, laizi options and wild ranks have bits of their own
    (no two distinct inputs give one word); a position whose hands hold laizi
    is never renamed and is marked apart from every renamed key."""
    from ddz_tools.engines.solver.key import canon, misc
    from ddz_tools.engines.solver.layout import LAIZI_BIT, MISC_MASK, VALUE_BIT

    rng = random.Random(5)
    for _ in range(2000):
        turn, lb, flags = rng.randrange(3), rng.randrange(3), rng.randrange(32)
        pk = rng.randrange(17) | rng.randrange(15) << 5 | rng.randrange(13) << 9
        assert misc(turn, lb, pk, flags, 3) == turn | (lb << 2) | (pk << 4) | (flags << 18) | (1 << 23)
    seen = {}
    for _ in range(5000):
        args = (rng.randrange(3), rng.randrange(3),
                rng.randrange(17) | rng.randrange(15) << 5 | rng.randrange(13) << 9 | rng.randrange(4) << TIER_SHIFT,
                rng.randrange(1 << 13) | rng.randrange(256) << 16, 2 + rng.randrange(2))
        m = misc(*args)
        assert 0 <= m <= MISC_MASK < VALUE_BIT and not m & (LAIZI_BIT | 1 << 24)
        assert seen.setdefault(m, args) == args
    r = Rules.parse("laizi").with_wild("9")
    m = misc(0, 1, Play.parse("3", r).kind, r.flags, 2)
    nine = 1 << (4 * 6)
    h = canon(0x1 | nine, 0x100, 0, 0, m, 2, r.flags)  # 3 and a laizi 9 against a 5: held as it is
    assert h == (0x1 | nine, 0x100, 0, m | LAIZI_BIT)
    h = canon(0x1, 0x100, 0, 0, m, 2, r.flags)  # no laizi left: renamed as classic (3, 5 -> 1, 2)
    assert h[3] & LAIZI_BIT == 0 and (h[0], h[1]) == (0x10, 0x100)


def test_answer_profiles_under_laizi_match_the_generator():
    """``can_answer`` and ``free`` (the merged profiles, bombs compared by
    level) say what generating each hand's answers says, for laizi hands and
    plays including tiered and long bombs."""
    from ddz_tools.engines.solver.layout import PROF_PLAYS, PROF_ROWS, PROF_W
    from ddz_tools.engines.solver.profiles import can_answer, free, merge_opponents, unanswered

    rng = random.Random(11)
    prof = np.zeros((PROF_ROWS, PROF_W), np.int64)
    pbuf = np.zeros((3, PROF_PLAYS), np.int64)
    checked = answered = bombs = 0
    for i in range(120):
        spec = SPECS[i % len(SPECS)]
        p = random_laizi_position(rng, 3, 9, spec, max_laizi=5)
        flags = p.rules.flags
        hands = np.array([h for _, h in p.hands], np.int64)
        turn = rng.randrange(3)
        merge_opponents(hands, turn, flags, 3, prof, pbuf)
        kinds = {k for _, k in laizi_plays(int(hands[turn]) or 1, 0, p.rules)}
        kinds |= {make_kind(T_BOMB, rng.randrange(13), rng.randint(1, 9), rng.choice((0, TIER_SOFT, TIER_PURE)))
                  for _ in range(6)}
        kinds |= {make_kind(T_SOLO, rng.randrange(15), 1)}
        for k in sorted(kinds):
            for s in range(3):
                want = len(generate(int(hands[s]), after=Play(0, k), rules=p.rules)) > 0
                assert bool(can_answer(hands[s], flags, k, prof, pbuf)) == want, (spec, format_cards(int(hands[s])), k)
            want = bool(unanswered(hands, turn, k, flags, 3, prof, pbuf))
            assert bool(free(hands, turn, k, flags, 3, prof, pbuf)) == want
            checked += 1
            answered += not want
            bombs += k & 31 == T_BOMB
    assert checked > 1000 and 0.1 * checked < answered < 0.9 * checked and bombs > 300


def test_positions_a_renaming_would_merge_keep_their_own_values():
    """With 9 wild, ``3467`` + a laizi leads the chain 34567 and wins at once,
    while ``3478`` + a laizi against the same joker loses: renamed as classic
    keys are (the held ranks in order), the two would share one table entry.
    Solved one after the other with one table, each keeps its value."""
    r = Rules.parse("laizi").with_wild("9")
    a = Position.two_player("34679", "X", rules=r)
    b = Position.two_player("34789", "X", rules=r)
    for first, second in ((a, b), (b, a)):
        solver = Solver(tt_mb=1)
        got = [solver.solve(p, line=False).result for p in (first, second)]
        assert got == [("win" if p is a else "loss") for p in (first, second)]
    assert solve(a, all_plays=True).winning_plays == ["34679=34567"]


def test_a_bomb_to_answer_keeps_its_tier_in_the_key():
    """The same hands answering a soft bomb of 7s or a hard one: a hard bomb
    of 6s beats the first and not the second (tiered bombs).  One table for
    both, each in turn first: the tier is part of the key."""
    r = Rules.parse("laizi").with_wild("9")
    soft = Position.two_player("6666", "4", after="7779=7777", rules=r)
    hard = Position.two_player("6666", "4", after="7777", rules=r)
    assert soft.last_play.kind >> TIER_SHIFT == TIER_SOFT and hard.last_play.kind >> TIER_SHIFT == 0
    for first, second in ((soft, hard), (hard, soft)):
        solver = Solver(tt_mb=1)
        got = [solver.solve(p, line=False).result for p in (first, second)]
        assert got == [("win" if p is soft else "loss") for p in (first, second)]


def test_natural_hands_are_counted_under_the_classic_options():
    """With 5 wild, ``D34`` against a 6 loses (the 3 and the 4 are two solos,
    the 6 beats the first), although a decomposer asked under the wild rank
    would count ``34`` as one play (its stand-in hand for two solos is
    ``35``, a laizi pair): the solver asks it under the classic options."""
    r = Rules.parse("laizi").with_wild("5")
    for opp in ("6", "5"):
        p = Position.two_player("D34", opp, rules=r)
        assert solve(p, line=False).result == "loss", opp
        hands, turn, prev, lb = _naive_args(p)
        assert not laizi_wins(hands, turn, prev, lb, p.rules, {})
