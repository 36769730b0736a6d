"""The endgame solver under the four-player rules (two decks): positions of
two, three and four hands against the plain-Python reference solver
(tests/naive_solver_four.py, over tests/naive_four.py's plays), and the
kernels it added (the four-hand table key, answer profiles of two decks, the
turn over four seats) against plain definitions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddz_tools.core.cards import format_cards, pack_counts
from ddz_tools.moves.movegen import generate
from ddz_tools.engines.position import FOUR_SEATS, Position
from ddz_tools.core.rules import Play, Rules
from ddz_tools.engines.solver import Solver, solve

from naive_four import naive_answers, naive_leads
from naive_solver_four import (chain_possible_four, four_winning_plays, four_wins, pack_farmers_ref, table_key_four,
                               team)

VARIANTS = ("four", "four,chains=shanghai", "four,top_bomb=bomb8")
#: The chain sequence of chains=shanghai (low A and 2, then 3..A) as rank indices.
SEQ = [11, 12] + list(range(12))


def _pack(ranks) -> int:
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
    return pack_counts(counts)


def _pool(rng: random.Random) -> list:
    """Cards to deal from: most often the two decks' cards of a few ranks in
    a row of the chain sequence (so that pairs, bombs of up to 8, chains,
    airplanes and the jokers' pairs appear), else both whole decks."""
    if rng.random() < 0.7:
        width = rng.randint(3, 6)
        start = rng.randint(0, len(SEQ) - width)
        pool = [r for r in sorted(set(SEQ[start:start + width])) for _ in range(8)]
        if rng.random() < 0.4:
            pool += [13, 13, 14, 14]
    else:
        pool = [r for r in range(13) for _ in range(8)] + [13, 13, 14, 14]
    rng.shuffle(pool)
    return pool


def random_four_position(rng: random.Random, nhands: int, max_cards: int, spec: str, min_cards: int = 1) -> Position:
    """A random legal position under ``spec`` with ``nhands`` hands (the
    landlord and the first farmers) of ``min_cards``..``max_cards`` cards;
    half of them answer a play made from cards outside the hands by a seat
    other than the one to move."""
    rules = Rules.parse(spec)
    pool = _pool(rng)
    hands, at = [], 0
    for i in range(nhands):
        # (At least a card for each hand still to deal.)
        k = min(rng.randint(min_cards, max_cards), len(pool) - at - (nhands - 1 - i))
        hands.append(_pack(pool[at:at + k]))
        at += k
    seats = FOUR_SEATS[:nhands]
    to_move = rng.choice(seats)
    after = by = None
    if rng.random() < 0.5 and at < len(pool):
        leads = list(generate(_pack(pool[at:at + rng.randint(1, 8)]), rules=rules))
        if leads:
            after = rng.choice(leads)
            by = rng.choice([s for s in seats if s != to_move])
    return Position.build(dict(zip(seats, hands)), to_move, after, by, rules)


def _naive_args(p: Position):
    hands = tuple(h for _, h in p.hands)
    turn = p.seats.index(p.to_move)
    if p.last_play is None:
        return hands, turn, 0, 0
    return hands, turn, p.last_play.kind, p.seats.index(p.last_by)


def _naive_plays(p: Position) -> set:
    hands, turn, prev, lb = _naive_args(p)
    return {Play(c, k).notation() if k else "pass" for c, k in four_winning_plays(hands, turn, prev, lb, p.rules, {})}


def _naive_value(p: Position, memo=None) -> bool:
    return four_wins(*_naive_args(p), p.rules, {} if memo is None else memo)


def _won_line(p: Position, line: list, line_by: list) -> bool:
    """The line is legal move by move and ends with a seat of the side to
    move's team going out."""
    cur = p
    for play_text, by in zip(line, line_by):
        assert by == cur.to_move
        play = cur.parse_play(play_text)
        cur = cur.push(play)
        if cur.is_over:
            return p.team_of(by) == p.team_of(p.to_move)
    return False


@pytest.mark.parametrize("spec", VARIANTS)
@pytest.mark.parametrize("nhands", (2, 3, 4))
def test_differential_random_positions(spec, nhands):
    """The result and the full set of winning plays equal the reference's on
    seeded random positions (up to 5, 4 and 3 cards a hand for two, three and
    four hands; half of them answering); the value alone from a fresh small
    table agrees, and the line is legal and won: 9 cases x 40 positions."""
    rng = random.Random(f"four-{spec}-{nhands}")
    solver = Solver(tt_mb=8)
    most = {2: 5, 3: 4, 4: 3}[nhands]
    for _ in range(40):
        p = random_four_position(rng, nhands, most, spec)
        r = solver.solve(p, all_plays=True)
        expect = _naive_plays(p)
        assert r.result == ("win" if expect else "loss"), p.describe()
        assert set(r.winning_plays) == expect, p.describe()
        assert r.rules == spec
        assert solve(p, tt_mb=1, line=False).result == r.result, p.describe()
        assert _won_line(p, r.line, r.line_by) == (r.result == "win"), (p.describe(), r.line)


def _larger(spec, nhands, count, seed="larger"):
    rng = random.Random(f"{seed}-{spec}-{nhands}")
    solver = Solver(tt_mb=32)
    most, least = {2: (9, 5), 3: (8, 4), 4: (7, 4)}[nhands]
    for _ in range(count):
        p = random_four_position(rng, nhands, most, spec, least)
        r = solver.solve(p)
        memo = {}
        assert r.result == ("win" if _naive_value(p, memo) else "loss"), p.describe()
        if r.result == "win":
            assert _won_line(p, r.line, r.line_by), (p.describe(), r.line)


@pytest.mark.parametrize("nhands", (2, 3, 4))
def test_differential_larger_positions_capped(nhands):
    """Bigger positions (5 to 9 cards against 5 to 9, 4 to 8 a hand of
    three, 4 to 7 of four): the value equals the reference's, the line wins."""
    for spec in VARIANTS:
        _larger(spec, nhands, 3)


@pytest.mark.slow
@pytest.mark.parametrize("spec", VARIANTS + ("four,wing_pairs_consecutive=on",
                                             "four,chains=shanghai,wing_pairs_consecutive=on"))
@pytest.mark.parametrize("nhands", (2, 3, 4))
def test_differential_larger_positions(spec, nhands):
    _larger(spec, nhands, 60)


@pytest.mark.parametrize("budget,mode", [(1, 2), (50, 0), (50, 1), (50, 2), (50, 3), (500, 2)])
def test_relaxations_change_no_result(budget, mode):
    """Four-hand positions solved with relaxations (farmers set aside, passing
    throughout: two of them, one, or both in either order) under a budget
    that gives many up, and with them switched off: the reference's result
    and the same winning plays; the relaxations were tried and some proved a
    farmers' win."""
    from ddz_tools.engines.solver.layout import C_RX_TRIES, C_RX_WINS
    rng = random.Random(f"relax-{budget}-{mode}")
    on = Solver(8)
    on.relax_budget = budget
    on.relax_mode = mode
    off = Solver(8)
    off.relax_budget = 0
    tries = won = 0
    for i in range(25):
        p = random_four_position(rng, 4, 5, VARIANTS[i % 3], 2)
        expect = "win" if _naive_value(p) else "loss"
        on.clear()
        r1 = on.solve(p, all_plays=True, line=False)
        tries += int(on.ctl[C_RX_TRIES])
        won += int(on.ctl[C_RX_WINS])
        r2 = off.solve(p, all_plays=True, line=False)
        assert r1.result == r2.result == expect, p.describe()
        assert r1.winning_plays == r2.winning_plays
    assert tries > 0
    assert won > 0 or budget == 1


@pytest.mark.parametrize("workers", [1, 2])
def test_probing_from_the_first_node_matches_the_reference(workers):
    """With every round's caps tiny (the root's moves, their replies and the
    relaxations probed from the first node), three- and four-hand positions
    give the reference's result, a winning play of the reference's, and a
    won line, for one and two workers."""
    rng = random.Random(41 + workers)
    s = Solver(8, workers=workers)
    s.probe_nodes = 1
    s.split_after = 1
    for i in range(30):
        p = random_four_position(rng, 3 + i % 2, 5, VARIANTS[i % 3], 2)
        s.clear()
        r = s.solve(p)
        expect = _naive_plays(p)
        assert r.result == ("win" if expect else "loss"), p.describe()
        if expect:
            assert r.winning_plays[0] in expect, (p.describe(), r.winning_plays)
        assert _won_line(p, r.line, r.line_by) == bool(expect), (p.describe(), r.line)


def test_node_limit_gives_unknown_never_a_wrong_answer():
    rng = random.Random(51)
    for i in range(20):
        p = random_four_position(rng, 4, 6, VARIANTS[i % 3], 3)
        expect = "win" if _naive_value(p) else "loss"
        r = solve(p, node_limit=1 + i, tt_mb=1, line=False)
        assert r.result in (expect, "unknown"), p.describe()
        assert r.result != "unknown" or r.stopped == "node limit"


# Kernels against plain definitions ------------------------------------------------------


def _profile_arrays():
    from ddz_tools.engines.solver.layout import PROF_PLAYS, PROF_ROWS, PROF_W
    return np.zeros((PROF_ROWS, PROF_W), np.int64), np.zeros((3, PROF_PLAYS), np.int64)


def _small_hand(rng: random.Random, most: int = 7) -> int:
    return _pack(_pool(rng)[:rng.randint(1, most)])


def _kinds_to_answer(rng: random.Random, rules: Rules) -> list:
    """Plays to answer: every lead of a random small hand, the four jokers
    and a few bombs of 4 to 8 cards."""
    kinds = {k for _, k in naive_leads(_small_hand(rng, 6), rules)}
    kinds.add(Play.parse("XXDD", rules).kind)
    for n in (4, 6, 8):
        kinds.add(Play.parse(rng.choice("3579Q2") * n, rules).kind)
    return sorted(kinds)


@pytest.mark.parametrize("spec", VARIANTS)
def test_answer_profile_matches_the_reference(spec):
    """A hand's answer profile says it can answer a play exactly when the
    reference (every sub-multiset of the hand read from the rules text)
    lists an answer: bombs by size then rank, the four jokers (under
    top_bomb=bomb8 below an 8-card bomb), Shanghai chains from a low A."""
    from ddz_tools.engines.solver.profiles import can_answer

    rules = Rules.parse(spec)
    rng = random.Random(f"profile-{spec}")
    prof, pbuf = _profile_arrays()
    checked = answered = 0
    for _ in range(60):
        hand = _small_hand(rng, 9)
        for kind in _kinds_to_answer(rng, rules):
            want = bool(naive_answers(hand, kind, rules))
            assert bool(can_answer(hand, rules.flags, kind, prof, pbuf)) == want, (
                format_cards(hand), Play(0, kind).type_name, kind, spec)
            checked += 1
            answered += want
    assert checked > 400 and 0.1 * checked < answered < 0.9 * checked


@pytest.mark.parametrize("spec", VARIANTS)
def test_merged_profile_answers_as_the_opponents_do(spec):
    """Some opponent of the seat to move (the three farmers for the
    landlord, the landlord for a farmer) can answer a play exactly when the
    merged profile says so, as the reference finds asking each of them."""
    from ddz_tools.engines.solver.profiles import free, merge_opponents

    rules = Rules.parse(spec)
    rng = random.Random(f"merged-{spec}")
    prof, pbuf = _profile_arrays()
    checked = 0
    for i in range(40):
        nhands = 2 + i % 3
        hands = [_small_hand(rng, 7) for _ in range(nhands)]
        arr = np.array(hands + [0] * (4 - nhands), np.int64)
        turn = rng.randrange(nhands)
        opps = [hands[q] for q in range(nhands) if team(q, nhands) != team(turn, nhands)]
        merge_opponents(arr, turn, rules.flags, nhands, prof, pbuf)
        for kind in _kinds_to_answer(rng, rules):
            want = not any(naive_answers(h, kind, rules) for h in opps)
            assert bool(free(arr, turn, kind, rules.flags, nhands, prof, pbuf)) == want, (
                [format_cards(h) for h in hands], turn, kind, spec)
            checked += 1
    assert checked > 250


def test_after_move_passes_round_four_seats():
    """The search's turn step over four seats: after a move, every seat with
    no answer in hand (or a hand set aside) passes, and a play that comes
    back round to its maker gives him the lead (three passes), as the plain
    definition with the reference's answers says."""
    from ddz_tools.engines.solver.layout import PASS_KIND
    from ddz_tools.engines.solver.search import after_move

    rng = random.Random(57)
    prof, pbuf = _profile_arrays()
    checked = skipped = 0
    for i in range(300):
        rules = Rules.parse(VARIANTS[i % 3])
        p = random_four_position(rng, 4, 6, VARIANTS[i % 3])
        hands, turn, pk, by = _naive_args(p)
        hands = list(hands)
        if i % 4 == 0:
            # A relaxation: two farmers set aside, neither the mover nor who made the play.
            aside = [q for q in (1, 2, 3) if q != turn and (pk == 0 or q != by)]
            for q in rng.sample(aside, min(2, len(aside))):
                hands[q] = 0
        arr = np.array(hands, np.int64)
        moves = sorted(naive_answers(hands[turn], pk, rules) if pk else naive_leads(hands[turn], rules))
        moves = [k for _, k in moves] + ([PASS_KIND] if pk else [])
        for kind in moves:
            standing, maker = (kind, turn) if kind != PASS_KIND else (pk, by)
            seat = (turn + 1) % 4
            while seat != maker and not (hands[seat] and naive_answers(hands[seat], standing, rules)):
                seat = (seat + 1) % 4
            want = (seat, 0, 0) if seat == maker else (seat, standing, maker)
            got = after_move(arr, turn, kind, pk, by, 4, rules.flags, prof, pbuf)
            assert tuple(got) == want, ([format_cards(h) for h in hands], turn, kind, pk, by)
            checked += 1
            skipped += got[0] != (turn + 1) % 4
    assert checked > 700 and skipped > 0.2 * checked


def test_reference_chain_test_and_packing():
    """The reference's chain test agrees with the plays a hand has, and its
    packing of the farmers' hands never packs two triples of hands alike (the
    kernel's key is checked against both below)."""
    rng = random.Random(58)
    seen = {}
    for i in range(400):
        rules = Rules.parse(VARIANTS[i % 3])
        h = _pack(_pool(rng)[:rng.randint(1, 8)])
        want = any(6 <= k & 31 <= 8 or k & 31 == 10 for _, k in naive_leads(h, rules))
        assert chain_possible_four(h, rules) == want, (format_cards(h), rules.describe())
        pool = _pool(rng)
        hs = tuple(_pack(pool[j * 8:j * 8 + rng.randint(0, 8)]) for j in range(3))
        assert seen.setdefault(pack_farmers_ref(*hs), hs) == hs


_KEYS = []


def _key_of(hands, turn, prev, lb, flags):
    """The table key the solver stores a position under (the search
    kernel's own, through its TASK_KEY: no kernel of its own to compile)."""
    from ddz_tools.core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS
    from ddz_tools.engines.solver.engine import State

    if not _KEYS:
        _KEYS.append(Solver(1))
    st = State(tuple(hands), turn, prev, lb, 0)
    return _KEYS[0]._key(st, len(hands), flags & ~(F_BOMBS_SIX_PLUS | F_BOMBS_LADDER))


def test_table_key_matches_the_reference():
    """The kernel's four-player key is the reference's renamed hands (a
    rank held up to 8 times; no renaming under chains=shanghai where a chain
    is possible), the farmers' packed in two words with four hands, the play
    to answer renamed with them, and the misc bits of the seats and rules."""
    from ddz_tools.engines.solver.layout import BOMB8_BIT, FOUR_SEATS_BIT

    rng = random.Random(59)
    squeezed = gapped = same = 0
    for i in range(600):
        spec = VARIANTS[i % 3]
        p = random_four_position(rng, 2 + i % 3, rng.choice([2, 4, 8, 14]), spec)
        hands, turn, prev, lb = _naive_args(p)
        rules = p.rules
        got = _key_of(hands, turn, prev, lb, rules.flags)
        want_hands, want_prev, want_sq = table_key_four(hands, prev, rules)
        words = (want_hands[0],) + (pack_farmers_ref(*want_hands[1:]) if len(hands) == 4 else want_hands[1:3])
        assert got[:3] == words, ([format_cards(h) for h in hands], spec)
        km = got[3]
        assert (km >> 4) & 0x3FFF == want_prev and bool(km & (1 << 24)) == want_sq
        assert km & 15 == turn | (lb << 2)
        assert bool(km & FOUR_SEATS_BIT) == (len(hands) == 4) and bool(km & (1 << 23)) == (len(hands) == 3)
        assert bool(km & BOMB8_BIT) == (rules.top_bomb == "bomb8")
        if want_hands == tuple(hands) + (0,) * (4 - len(hands)):
            same += 1
        elif want_sq:
            squeezed += 1
        else:
            gapped += 1
    assert squeezed > 100 and gapped > 30 and same > 30, (squeezed, gapped, same)


def _moved(rng: random.Random, hands: tuple, prev: int, rules: Rules):
    """The position with its held ranks moved so that the four-player key
    stays the same (order only, when no hand can play a chain; else, but
    under chains=shanghai, which ranks are next to each other with A and 2
    in place): (hands, prev), or None when the choice fits nowhere or makes
    a chain that was not there."""
    from naive_solver import rank_map, rename_ranks

    counts = [list(naive_unpack(h)) for h in hands]
    held = [r for r in range(13) if any(c[r] for c in counts)]
    chains = any(chain_possible_four(h, rules) for h in hands)
    if chains and rules.chains == "shanghai":
        return None
    if not chains:
        new, kept = rank_map(held, True, sorted(rng.sample(range(13), len(held))))
    else:
        new, kept = rank_map(held, False, gap=lambda: rng.choice([2, 2, 3, 4]))
        if new is None:
            return None
    out = rename_ranks(counts, new, kept)
    if not chains and any(chain_possible_four(h, rules) for h in out):
        return None
    if prev:
        m = (prev >> 5) & 15
        if m in new:
            m = new[m]
        elif m not in kept:
            lower = [new[r] for r in new if r < m]
            upper = [new[r] for r in new if r > m] + ([11] if 11 in kept else [13])
            room = list(range(max(lower, default=-1) + 1, min(upper)))
            if not room:
                return None
            m = rng.choice(room)
        prev = (prev & ~(15 << 5)) | (m << 5)
    return out, prev


def naive_unpack(h: int):
    return [(h >> (4 * r)) & 15 for r in range(15)]


@pytest.mark.parametrize("nhands", (3, 4))
def test_positions_sharing_a_table_key_have_one_value(nhands):
    """Equal four-player keys mean equal values: positions with their ranks
    moved (keeping the key) have the reference's value of the original."""
    rng = random.Random(61 + nhands)
    checked = changed = 0
    while checked < 40:
        spec = VARIANTS[checked % 3]
        p = random_four_position(rng, nhands, 4, spec, 2)
        hands, turn, prev, lb = _naive_args(p)
        moved = _moved(rng, hands, prev, p.rules)
        if moved is None or (prev and (prev >> 5) & 15 == 15):
            continue
        hands2, prev2 = moved
        hands2 = hands2[:nhands]
        assert _key_of(hands, turn, prev, lb, p.rules.flags) == _key_of(hands2, turn, prev2, lb, p.rules.flags)
        assert four_wins(hands, turn, prev, lb, p.rules, {}) == four_wins(hands2, turn, prev2, lb, p.rules, {}), (
            [format_cards(h) for h in hands], [format_cards(h) for h in hands2], prev, prev2, spec)
        checked += 1
        changed += hands2 != hands
    assert changed > 25


def test_relaxation_codes_follow_the_rules():
    """The relaxations of a node (plain Python through the kernels' own
    functions): at three seats the ones the solver always tried; at four,
    each mode's codes in order, never setting aside the farmer whose play is
    to be answered, and at a farmer's node never the farmer himself."""
    from ddz_tools.core._jit import interpreted
    from ddz_tools.engines.solver.relax import relax_aside, relax_code

    code, aside = interpreted(relax_code), interpreted(relax_aside)

    def codes(turn, pk, lb, n, mode):
        out = []
        while code(len(out), turn, pk, lb, n, mode) > 0:
            out.append(code(len(out), turn, pk, lb, n, mode))
        return out

    assert codes(0, 0, 0, 3, 0) == [1, 2] and codes(0, 1, 2, 3, 0) == [2] and codes(1, 0, 0, 3, 0) == [1]
    assert codes(2, 1, 1, 3, 0) == [] and aside(1, 3) == (2, 2)
    assert codes(0, 0, 0, 4, 0) == [1, 2, 3] and codes(0, 0, 0, 4, 1) == [6, 5, 4]
    assert codes(0, 0, 0, 4, 2) == [1, 2, 3, 6, 5, 4] and codes(0, 0, 0, 4, 3) == [6, 5, 4, 1, 2, 3]
    assert [aside(c, 4) for c in (1, 2, 3, 4, 5, 6)] == [(2, 3), (1, 3), (1, 2), (1, 1), (2, 2), (3, 3)]
    for mode in range(4):
        for turn in range(4):
            for lb in range(4):
                for pk in (0, 33):
                    if pk and lb == turn:
                        continue
                    for c in codes(turn, pk, lb, 4, mode):
                        out = set(aside(c, 4))
                        assert 0 not in out and turn not in out and not (pk and lb in out)


def test_dominated_plays_match_their_definition():
    """The plays a node leaves out as dominated are exactly those of the
    plain definition read with the four-player plays (loose ranks with up to
    8 of a rank, the chains of each variant, both partners of a farmer, no
    wing swapped where wings must be consecutive), on random positions of
    two, three and four hands, leads and answers."""
    from ddz_tools.core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS
    from ddz_tools.engines.solver.engine import State
    from naive_solver_four import dominated_four

    rng = random.Random(71)
    solver = Solver(1)
    dropped = kept = 0
    variants = VARIANTS + ("four,wing_pairs_consecutive=on",)
    for i in range(400):
        spec = variants[i % 4]
        p = random_four_position(rng, 2 + i % 3, 12, spec, 3)
        hands, turn, prev, lb = _naive_args(p)
        flags = p.rules.flags & ~(F_BOMBS_SIX_PLUS | F_BOMBS_LADDER)
        st = State(hands, turn, prev, lb, p.last_play.cards if p.last_play else 0)
        every = solver._moves(st, len(hands), flags)
        best = set(solver._moves(st, len(hands), flags, best=True))
        for c, k in every:
            if k < 0:
                continue
            want = dominated_four(hands, turn, c, k, prev, p.rules)
            assert ((c, k) not in best) == want, ([format_cards(h) for h in hands], turn, Play(c, k).notation(), spec)
            dropped += want
            kept += not want
    assert dropped > 40 and kept > 1000, (dropped, kept)


def test_dominance_on_and_off_agree():
    """Positions of up to 7 cards a hand solved with dominated plays left out
    and searched: the same results and winning plays (and the reference's
    result)."""
    rng = random.Random(72)
    on, off = Solver(16), Solver(16)
    off.dominance = False
    for i in range(24):
        p = random_four_position(rng, 2 + i % 3, 7, VARIANTS[i % 3], 3)
        r1 = on.solve(p, all_plays=True, line=False)
        r2 = off.solve(p, all_plays=True, line=False)
        assert (r1.result, r1.winning_plays) == (r2.result, r2.winning_plays), p.describe()
        assert r1.result == ("win" if _naive_value(p) else "loss"), p.describe()


def _counts_moved_in_runs(rng, hands, prev):
    """The hands with each seat's counts shuffled within every run of held
    ranks that he alone holds (ranks held by nobody skipped), no run going
    across the play to answer's main rank."""
    counts = [naive_unpack(h) for h in hands]
    held = [r for r in range(13) if any(c[r] for c in counts)]
    pm = (prev >> 5) & 15 if prev else -1
    out = []
    for q, c in enumerate(counts):
        new = list(c)
        groups, run = [], []
        for r in held:
            alone = all(counts[o][r] == 0 for o in range(len(counts)) if o != q)
            if not alone or (run and run[-1] <= pm < r):
                groups.append(run)
                run = []
            if alone:
                run.append(r)
        groups.append(run)
        for run in groups:
            vals = [c[r] for r in run]
            rng.shuffle(vals)
            for r, v in zip(run, vals):
                new[r] = v
        out.append(pack_counts(new))
    return tuple(out)


def test_counts_moved_within_a_run_keep_the_key_and_the_value():
    """With no chain possible, a seat's counts (up to 8 of a rank) moved
    between ranks he alone holds, with no other seat's rank and not the
    answered play's rank between them: the same four-player key and the
    same value in the reference."""
    rng = random.Random(73)
    moved = 0
    while moved < 60:
        spec = VARIANTS[moved % 3]
        rules = Rules.parse(spec)
        nhands = 2 + moved % 3
        ranks = rng.sample(range(13), rng.randint(4, 6))
        pool = [r for r in ranks for _ in range(8)] + rng.sample([13, 13, 14, 14], rng.randint(0, 2))
        rng.shuffle(pool)
        hands, at = [], 0
        for _ in range(nhands):
            k = rng.randint(1, 5)
            hands.append(_pack(pool[at:at + k]))
            at += k
        hands = tuple(hands)
        if any(chain_possible_four(h, rules) for h in hands):
            continue
        turn = rng.randrange(nhands)
        prev = lb = 0
        if rng.random() < 0.5:
            leads = generate(_pack(pool[at:at + 4]), rules=rules)
            if leads:
                prev = rng.choice(leads).kind
                lb = rng.choice([s for s in range(nhands) if s != turn])
        hands2 = _counts_moved_in_runs(rng, hands, prev)
        if hands2 == hands:
            continue
        assert _key_of(hands, turn, prev, lb, rules.flags) == _key_of(hands2, turn, prev, lb, rules.flags)
        assert four_wins(hands, turn, prev, lb, rules, {}) == four_wins(hands2, turn, prev, lb, rules, {}), (
            [format_cards(h) for h in hands], [format_cards(h) for h in hands2], prev, spec)
        moved += 1
