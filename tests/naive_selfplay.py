"""Plain-Python references for the self-play kernels (tests only).

Written from docs/rules.md, sharing no code with ``ddz_tools.engines.selfplay``:

* :func:`check_record` replays a ``ddz-record/1`` dict move by move with the
  plain-Python rules of ``tests/naive.py`` (readings by brute force, the
  comparison rule by class) and recomputes the bidding outcome and the
  score; it raises ``AssertionError`` naming the first thing that is wrong
  and returns the recomputed result otherwise.
* :func:`python_playout` is a game loop in Python around the policy kernel
  ``policy_play``: same decisions as ``_playout`` (the same Numba generator,
  seeded the same way), but its own turn order, trick, end and scoring logic,
  with every move checked for legality against the naive rules.
* :func:`seed_ref` is the per-game seed function written with Python's
  unbounded ints and explicit 64-bit masks.
"""

from __future__ import annotations

import numpy as np

from naive import decode, naive_beats, naive_readings, unpack

RANKS = "3456789TJQKA2XD"
FULL_COUNTS = (4,) * 13 + (1, 1)


def counts_of_text(text: str) -> list[int]:
    c = [0] * 15
    for ch in text.replace("-", ""):
        c[RANKS.index(ch)] += 1
    return c


def pack_text(text: str) -> int:
    return sum(n << (4 * r) for r, n in enumerate(counts_of_text(text)))


def seed_ref(run_seed: int, index: int) -> int:
    """The documented per-game seed, with Python's unbounded ints."""
    p = 2**31 - 1
    x = (run_seed * 48271 + index * 69621 + 1) % p
    for _ in range(3):
        x ^= x >> 13
        x = x * 48271 % p
        x ^= x >> 17
        x = (x * 16807 + 11) % p
    return x


_PER = {"solo": 1, "pair": 2, "trio": 3, "trio_solo": 3, "trio_pair": 3, "chain": 1, "pair_chain": 2,
        "airplane": 3, "airplane_solo": 3, "airplane_pair": 3, "four_two_solo": 4, "four_two_pair": 4,
        "bomb": 4, "rocket": 1, "four_solo": 4, "four_pair": 4}


def _body(kind: int) -> list[int]:
    """Rank counts of the body of a play of ``kind`` (the rocket: both jokers)."""
    name, main, length = decode(kind)
    c = [0] * 15
    if name == "rocket":
        c[13] = c[14] = 1
        return c
    for r in range(main - length + 1, main + 1):
        c[r] = _PER[name]
    return c


def _auction(bids, first, mode):
    """Check the bid sequence; return (landlord, base) or (None, 0) for all-pass."""
    highest, landlord = 0, None
    if mode == "single-round":
        assert 1 <= len(bids) <= 3, f"single round has 1..3 bids, not {len(bids)}"
        for j, b in enumerate(bids):
            assert b["seat"] == (first + j) % 3, f"bid {j} by seat {b['seat']}, expected {(first + j) % 3}"
            v = b["bid"]
            assert v == 0 or highest < v <= 3, f"bid {v} after {highest}"
            if v:
                highest, landlord = v, b["seat"]
        if highest != 3:
            assert len(bids) == 3, "the round ended early without a 3"
        return landlord, highest
    if mode == "call-grab":
        # First calls in turn order; once someone calls, the rest of the round may grab
        # once each, then the caller once more if anybody grabbed.  Base 2 ** grabs.
        order = [(first + j) % 3 for j in range(3)]
        values = [b["bid"] for b in bids]
        assert all(v in (0, 1) for v in values), "call-grab bids are 0 or 1"
        assert [b["seat"] for b in bids[:3]] == order[:len(bids[:3])], "call-grab turn order"
        if 1 not in values[:3]:
            assert len(bids) == 3, "all passed, yet more bids"
            return None, 0
        c = values.index(1)
        caller = order[c]
        grabs = [order[j] for j in range(c + 1, 3) if values[j] == 1]
        expected = 3 + (1 if grabs else 0)
        assert len(bids) == expected, f"{len(bids)} call-grab bids, expected {expected}"
        landlord = grabs[-1] if grabs else caller
        n = len(grabs)
        if grabs:
            assert bids[3]["seat"] == caller, "the caller has the last word"
            if values[3] == 1:
                n += 1
                landlord = caller
        return landlord, 2 ** n
    assert mode == "until-two-pass"
    out = set()
    seat = first
    done = False
    for j, b in enumerate(bids):
        assert not done, f"bid {j} after the auction ended"
        while seat in out:
            seat = (seat + 1) % 3
        assert b["seat"] == seat, f"bid {j} by seat {b['seat']}, expected {seat}"
        v = b["bid"]
        assert v == 0 or highest < v <= 3, f"bid {v} after {highest}"
        if v:
            highest, landlord = v, seat
        else:
            out.add(seat)
        seat = (seat + 1) % 3
        done = highest == 3 or len(out) == 3 or (len(out) == 2 and highest > 0)
    assert done, "the auction stopped early"
    return landlord, highest


def check_record(rec: dict, rules) -> dict:
    """Replay a self-play record with the naive rules; return the recomputed result."""
    assert rec["schema"] == "ddz-record/1"
    hands = [counts_of_text(h) for h in rec["deal"]["hands"]]
    bottom = counts_of_text(rec["deal"]["bottom"])
    assert [sum(h) for h in hands] == [17, 17, 17] and sum(bottom) == 3
    total = [sum(h[r] for h in hands) + bottom[r] for r in range(15)]
    assert tuple(total) == FULL_COUNTS, "the deal is not one deck"
    landlord, base = _auction(rec["bids"], rec["first_bidder"], rules.bidding)
    assert landlord is not None, "all passed, yet the game was played"
    assert rec["landlord"] == landlord
    hands[landlord] = [a + b for a, b in zip(hands[landlord], bottom)]

    seat = landlord
    to_beat = None  # kind of the play to answer, None on a lead
    last_player = None
    plays_made = [0, 0, 0]
    bombs = 0
    winner = None
    for i, p in enumerate(rec["plays"]):
        assert winner is None, f"plays[{i}] after the game ended"
        assert p["seat"] == seat, f"plays[{i}] by seat {p['seat']}, expected {seat}"
        if last_player == seat:
            to_beat = None  # both others passed: a new trick
        if p["cards"] == "":
            assert to_beat is not None, f"plays[{i}]: pass on a lead"
        else:
            cards = counts_of_text(p["cards"])
            assert all(h >= c for h, c in zip(hands[seat], cards)), f"plays[{i}]: seat {seat} lacks the cards"
            packed = pack_text(p["cards"])
            kinds = [k for _, k in naive_readings(packed, rules)]
            if to_beat is not None:
                kinds = [k for k in kinds if naive_beats(k, to_beat)]
            assert kinds, f"plays[{i}]: {p['cards']} is not a legal play here"
            if "-" in p["cards"]:
                body = counts_of_text(p["cards"].split("-")[0])
                kinds = [k for k in kinds if _body(k) == body]
                assert kinds, f"plays[{i}]: no reading of {p['cards']} has that body"
            kind = max(kinds)
            hands[seat] = [h - c for h, c in zip(hands[seat], cards)]
            plays_made[seat] += 1
            if decode(kind)[0] in ("bomb", "rocket"):
                bombs += 1
            to_beat, last_player = kind, seat
            if sum(hands[seat]) == 0:
                winner = seat
        seat = (seat + 1) % 3
    assert winner is not None, "nobody went out"
    ll_won = winner == landlord
    farmers = [s for s in range(3) if s != landlord]
    if rules.spring == "any-player":
        spring = ll_won and any(plays_made[f] == 0 for f in farmers)
    else:
        spring = ll_won and all(plays_made[f] == 0 for f in farmers)
    anti = (not ll_won) and plays_made[landlord] == 1
    mult = 2 ** bombs * (2 if spring else 1) * (2 if anti else 1)
    stake = base * mult
    scores = [(2 * stake if ll_won else -2 * stake) if s == landlord else (-stake if ll_won else stake)
              for s in range(3)]
    return {"winner": "landlord" if ll_won else "farmers", "base": base, "multiplier": mult, "bombs": bombs,
            "spring": spring, "anti_spring": anti, "scores": scores}


def python_playout(hands, landlord, policies, rules, seed, seed_kernel, choose, table, bufc, bufk):
    """Play out ``hands`` in Python, asking ``choose`` (the ``policy_play`` kernel) for each move.

    Returns ``([landlord_won, bombs, spring, anti_spring, n_moves], moves)``.
    """
    seed_kernel(seed)
    h = [int(x) for x in hands]
    flags = rules.flags
    seat = landlord
    trick = None  # (kind, cards, seat) of the play to answer
    moves = []
    made = [0, 0, 0]
    bombs = 0
    while True:
        if trick is not None and trick[2] == seat:
            trick = None
        arr = np.array(h, np.int64)
        pk, _, ps = trick if trick is not None else (0, 0, landlord)
        c, k = choose(arr, seat, landlord, pk, ps, policies[seat], flags, table, bufc, bufk)
        c, k = int(c), int(k)
        moves.append((seat, c, k))
        if k == 0:
            assert trick is not None, "the policy passed on a lead"
        else:
            assert all(a >= b for a, b in zip(unpack(h[seat]), unpack(c))), "played cards it does not hold"
            assert (c, k) in naive_readings(c, rules), "not a reading of the cards"
            if trick is not None:
                assert naive_beats(k, trick[0]), "does not beat the play to answer"
            h[seat] -= c
            made[seat] += 1
            if decode(k)[0] in ("bomb", "rocket"):
                bombs += 1
            trick = (k, c, seat)
            if h[seat] == 0:
                break
        seat = (seat + 1) % 3
    won = seat == landlord
    f = [s for s in range(3) if s != landlord]
    spring = won and made[f[0]] == 0 and made[f[1]] == 0
    anti = not won and made[landlord] == 1
    return [int(won), bombs, int(spring), int(anti), len(moves)], moves


# Four players (rules ``four``) -------------------------------------------------------
#
# A whole four-player game written from docs/rules.md ("Four players with two
# decks") and docs/selfplay.md: the 108 card ids shuffled by Fisher-Yates with
# Numba's generator (one draw per place, from the last down), 25 cards a seat
# in seat order and the last 8 as the bottom; one round of bids over the four
# seats (each above the highest so far, 3 ends it, all four passing deals
# again with the next seat first); the landlord takes the bottom and leads; a
# play stands until the turn comes back to its maker after three passes; the
# first empty hand ends the game; each farmer settles the stake with the
# landlord.  The policies' decisions come from the policy kernels
# (``policy_bid``, ``policy_play``), one call a decision, Numba's generator
# seeded as the game kernel seeds it, so a random policy draws the same numbers.


def _numba_helpers():
    import numba

    @numba.njit
    def seed(s):
        np.random.seed(s)

    @numba.njit
    def randint(lo, hi):
        return np.random.randint(lo, hi)

    return seed, randint


_NUMBA = []


def numba_rng():
    """``(seed, randint)``: Numba's generator, the one the kernels draw from, called from Python."""
    if not _NUMBA:
        _NUMBA.extend(_numba_helpers())
    return tuple(_NUMBA)


def rank_of_id_four(card_id: int) -> int:
    """The rank of card id 0..107 of two decks: card ``id % 54`` of one deck."""
    c = card_id % 54
    return c // 4 if c < 52 else 13 + (c - 52)


def python_game_four(seed: int, policies, rules, first_bidder: int, bid, choose, table, bufc, bufk) -> dict:
    """One four-player game in Python; ``bid`` and ``choose`` are the
    ``policy_bid`` and ``policy_play`` kernels.  ``first_bidder`` a seat, or
    -1 to draw it.  Returns ``{"hands", "bottom", "first", "redeals", "bids",
    "landlord", "base", "moves", "won", "bombs", "spring", "anti_spring",
    "multiplier", "scores"}`` (``moves`` as ``(seat, cards, kind)``)."""
    import naive_four
    from naive_gamerules import bomb_factor, settlement, stake_of

    seed_numba, randint = numba_rng()
    flags = rules.flags
    seed_numba(seed)
    first = first_bidder if first_bidder >= 0 else int(randint(0, 4))
    redeals = 0
    while True:
        ids = list(range(108))
        for i in range(107, 0, -1):
            j = int(randint(0, i + 1))
            ids[i], ids[j] = ids[j], ids[i]
        hands = [sum(1 << (4 * rank_of_id_four(c)) for c in ids[25 * s:25 * s + 25]) for s in range(4)]
        bottom = sum(1 << (4 * rank_of_id_four(c)) for c in ids[100:])
        bids, high, landlord = [], 0, None
        for k in range(4):
            s = (first + k) % 4
            b = int(bid(np.int64(hands[s]), policies[s], flags, high, table))
            assert b == 0 or high < b <= 3, f"seat {s} bid {b} after {high}"
            bids.append((s, b))
            if b:
                high, landlord = b, s
            if b == 3:
                break
        if landlord is not None:
            break
        redeals += 1
        first = (first + 1) % 4
    dealt = list(hands)
    h = list(hands)
    h[landlord] += bottom
    seat = landlord
    trick = None   # (kind, seat) of the play to answer
    passes = 0
    moves, made = [], []
    while True:
        pk, ps = trick if trick is not None else (0, landlord)
        c, k = choose(np.array(h, np.int64), seat, landlord, pk, ps, policies[seat], flags, table, bufc, bufk)
        c, k = int(c), int(k)
        moves.append((seat, c, k))
        if k == 0:
            assert trick is not None, "the policy passed on a lead"
            passes += 1
            if passes == 3:
                trick, passes = None, 0
        else:
            assert all(a >= b for a, b in zip(unpack(h[seat]), unpack(c))), "played cards it does not hold"
            assert (c, k) in naive_four.naive_readings(c, rules), "not a reading of the cards"
            if trick is not None:
                assert naive_four.naive_beats(k, trick[0], rules), "does not beat the play to answer"
            h[seat] -= c
            made.append((seat, k))
            trick, passes = (k, seat), 0
            if h[seat] == 0:
                break
        seat = (seat + 1) % 4
    spring, anti, mult, stake = stake_of(high, made, landlord, seat, rules.spring == "any-player",
                                         seats=4, bomb_doubles=rules.bomb_doubles)
    return {"hands": dealt, "bottom": bottom, "first": first, "redeals": redeals, "bids": bids,
            "landlord": landlord, "base": high, "moves": moves, "won": int(seat == landlord),
            "bombs": sum(1 for _, k in made if bomb_factor(k, False, rules.bomb_doubles) > 1),
            "spring": spring, "anti_spring": anti, "multiplier": mult,
            "scores": settlement(landlord, seat == landlord, stake, seats=4)}
