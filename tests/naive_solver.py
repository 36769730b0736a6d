"""Plain-Python reference solver for open-hand endgames (tests only).

Written from the rules text, a different way from ``ddz_tools.engines.solver`` (the
Laizi rules at the end: :func:`laizi_wins`, with tests/naive_laizi.py's plays):

* legal plays come from enumerating every sub-multiset of the hand and asking
  the plain-Python classifier ``rules.readings`` for its readings, then
  ``rules.beats`` for answers (the Numba move generator is not used);
* plain recursive minimax over the game rules as stated in docs/rules.md, with no
  transposition table, no move ordering and no shortcuts: :func:`minimax_wins`,
  the one minimax of the tests for two, three or four hands, given a hand's
  plays (:func:`plays` here, :func:`laizi_plays` under wild ranks,
  ``naive_solver_four.four_plays`` under the four-player rules).

A state is ``(hands, turn, prev, last_by)``: ``hands`` a tuple of packed hands
in seat order, ``prev`` the kind of the play to answer (0 for a lead) and
``last_by`` the seat that made it.  ``wins(...)`` is True when the team of the
player to move can force a win.
"""

from __future__ import annotations

import functools
import itertools

from ddz_tools.core.cards import NUM_RANKS, RANK_2, RANK_A, counts_of, pack_counts
from ddz_tools.core.rules import F_CHAINS_WITH_TWO, T_ROCKET, T_SOLO, beats, make_kind, readings


def sub_multisets(packed: int):
    """Every non-empty sub-multiset of a packed hand."""
    counts = counts_of(packed)
    ranges = [range(c + 1) for c in counts]
    for pick in itertools.product(*ranges):
        if any(pick):
            yield pack_counts(pick)


@functools.lru_cache(maxsize=None)
def plays(hand: int, prev_kind: int, flags: int) -> tuple[tuple[int, int], ...]:
    """Every (cards, kind) the hand may play: all readings for a lead, the
    readings that beat ``prev_kind`` for an answer (pass not included)."""
    out = []
    for sub in sub_multisets(hand):
        for cards, kind in readings(sub, flags):
            if prev_kind == 0 or beats(kind, prev_kind):
                out.append((cards, kind))
    return tuple(out)


def team(seat: int, nplayers: int) -> int:
    if nplayers == 2:
        return seat
    return 0 if seat == 0 else 1


def after_pass(hands: tuple, nxt: int, prev: int, last_by: int) -> tuple:
    """The state after a pass: the next seat answers the same play, unless he
    made it (everyone else passed), in which case he leads.  With two, three
    or four seats alike (one, two or three passes)."""
    return (hands, nxt, 0, 0) if nxt == last_by else (hands, nxt, prev, last_by)


def minimax_wins(hands: tuple, turn: int, prev: int, last_by: int, plays_of, counter=None, memo=None) -> bool:
    """Can the team of ``turn`` force a win?  The one plain minimax of the
    reference, for two, three or four hands under any rules: ``plays_of(hand,
    prev)`` lists the (cards, kind) ``hand`` may play (its leads for ``prev``
    0, else its answers to ``prev``; pass not included).  Seat 0 (the
    landlord) plays the others, who win together, or with two hands each side
    is a team of its own; a hand that goes out wins for its team.

    ``counter`` (a one-item list) counts the states visited; ``memo`` (a
    dict, or None) remembers whole states, to check the bigger positions in
    reasonable time (one dict for one rule set)."""
    if counter is not None:
        counter[0] += 1
    if memo is not None:
        key = (hands, turn, prev, last_by)
        if key in memo:
            return memo[key]
    n = len(hands)
    me = team(turn, n)
    nxt = (turn + 1) % n
    children = []
    result = None
    for cards, kind in plays_of(hands[turn], prev):
        left = hands[turn] - cards
        if left == 0:
            result = True  # the mover goes out: his team wins
            break
        new = list(hands)
        new[turn] = left
        children.append((tuple(new), nxt, kind, turn))
    if result is None:
        if prev != 0:
            children.append(after_pass(hands, nxt, prev, last_by))
        result = False
        for child in children:
            v = minimax_wins(*child, plays_of, counter, memo)
            if (team(child[1], n) == me) == v:
                result = True
                break
    if memo is not None:
        memo[key] = result
    return result


def minimax_winning_plays(hands: tuple, turn: int, prev: int, last_by: int, plays_of, memo=None) -> set:
    """The set of winning (cards, kind) at the root by :func:`minimax_wins`;
    pass is (0, 0)."""
    n = len(hands)
    me = team(turn, n)
    nxt = (turn + 1) % n
    out = set()
    for cards, kind in plays_of(hands[turn], prev):
        left = hands[turn] - cards
        if left == 0:
            out.add((cards, kind))
            continue
        new = list(hands)
        new[turn] = left
        if (team(nxt, n) == me) == minimax_wins(tuple(new), nxt, kind, turn, plays_of, None, memo):
            out.add((cards, kind))
    if prev != 0:
        if (team(nxt, n) == me) == minimax_wins(*after_pass(hands, nxt, prev, last_by), plays_of, None, memo):
            out.add((0, 0))
    return out


def wins(hands: tuple, turn: int, prev: int, last_by: int, flags: int, counter=None, memo=None) -> bool:
    """Can the team of ``turn`` force a win under the classic rule ``flags``?
    :func:`minimax_wins` over :func:`plays`.

    ``memo``: an optional dict keyed by the whole state, used only to check the
    bigger shipped puzzles in reasonable time (the tests never pass it).
    """
    return minimax_wins(hands, turn, prev, last_by, lambda hand, pk: plays(hand, pk, flags), counter, memo)


def winning_plays(hands: tuple, turn: int, prev: int, last_by: int, flags: int, memo=None) -> set:
    """The set of winning (cards, kind) at the root; pass is (0, 0)."""
    return minimax_winning_plays(hands, turn, prev, last_by, lambda hand, pk: plays(hand, pk, flags), memo)


def control_split(hands: tuple, turn: int, hand: int, flags: int) -> bool:
    """Can ``hand`` (``turn`` leading) be split into plays no opponent can
    answer plus at most one more play?  Every split, no cap."""
    n = len(hands)
    opps = [hands[s] for s in range(n) if s != turn and team(s, n) != team(turn, n)]

    def free(kind):
        return not any(plays(h, kind, flags) for h in opps)

    return splits_into(hand, free, flags)


def covered(hands: tuple, turn: int, prev: int, last_by: int, flags: int) -> bool:
    """The solver's cover rule, from its definition: ``turn``'s team (the
    movers) loses at once when, for a lead (``prev`` 0) or an answer to a
    play of the other team:

    * no move of ``turn`` empties his hand and his partner's hand is not one
      play;
    * no play the movers could make now is the rocket;
    * for each type and length of those plays (every play of theirs for a
      lead; their answers to ``prev`` for an answer), some seat of the other
      team can answer the highest such play with a play no mover can answer,
      leaving an empty hand or a control split (:func:`control_split`);
    * for an answer, the seat that made ``prev`` has a control split of his
      whole hand.
    """
    n = len(hands)
    me = team(turn, n)
    if prev != 0 and team(last_by, n) == me:
        return False
    movers = [s for s in range(n) if team(s, n) == me and hands[s]]
    others = [s for s in range(n) if team(s, n) != me and hands[s]]
    if any(cards == hands[turn] for cards, _ in plays(hands[turn], prev, flags)):
        return False
    for s in movers:
        if s != turn and any(cards == hands[s] for cards, _ in plays(hands[s], 0, flags)):
            return False
    top = {}
    for s in movers:
        for _, kind in plays(hands[s], prev, flags):
            if kind & 31 == T_ROCKET:
                return False
            group = (kind & 31, kind >> 9)
            top[group] = max(top.get(group, kind), kind)
    if prev != 0 and not control_split(hands, last_by, hands[last_by], flags):
        return False

    def unanswerable(kind):
        return not any(plays(hands[s], kind, flags) for s in movers)

    for kind in top.values():
        if not any(unanswerable(k) and (hands[s] == c or control_split(hands, s, hands[s] - c, flags))
                   for s in others for c, k in plays(hands[s], kind, flags)):
            return False
    return True


def threat_lost(hands: tuple, turn: int, prev: int, last_by: int, flags: int) -> bool:
    """The solver's threat rule, from its definition: a farmer to move
    (three players, every hand holding cards) loses at once when the
    landlord has *threats* (plays that empty his hand, or that no farmer
    can beat and leave him a control split), his whole hand is a control
    split too if the play standing is his, and neither farmer can go out
    without letting a threat be played:

    * farmer2's hand does not split into plays no threat beats (*safe*)
      and at most one more;
    * farmer1's hand does not split into plays that are safe or that some
      safe play of farmer2 beats, and at most one more.

    Every split is tried (no cap)."""
    if len(hands) != 3 or turn == 0 or not all(hands):
        return False
    landlord, f1, f2 = hands
    if prev != 0 and last_by == 0 and not control_split(hands, 0, landlord, flags):
        return False
    threats = [kind for cards, kind in plays(landlord, 0, flags)
               if cards == landlord or (not plays(f1, kind, flags) and not plays(f2, kind, flags)
                                        and control_split(hands, 0, landlord - cards, flags))]
    if not threats:
        return False

    def safe(kind):
        return not any(beats(x, kind) for x in threats)

    covers = [kind for _, kind in plays(f2, 0, flags) if safe(kind)]

    def safe_or_beaten(kind):
        return safe(kind) or any(beats(q, kind) for q in covers)

    return not splits_into(f2, safe, flags) and not splits_into(f1, safe_or_beaten, flags)


def splits_into(hand: int, ok, flags: int) -> bool:
    """Can ``hand`` be split into plays whose kinds ``ok`` accepts and at
    most one more play?  Every split, no cap."""

    @functools.lru_cache(maxsize=None)
    def split(rest: int, used: bool) -> bool:
        if rest == 0:
            return True
        low = next(r for r, c in enumerate(counts_of(rest)) if c)
        for cards, kind in plays(rest, 0, flags):
            if counts_of(cards)[low] == 0:
                continue
            good = ok(kind)
            if (good or not used) and split(rest - cards, used or not good):
                return True
        return False

    return split(hand, False)


assert NUM_RANKS == 15


def chain_possible(hand: int, flags: int) -> bool:
    """Can the hand play a chain: five ranks in a row up to A held once, three
    in a row held twice, or two in a row held three times (the last two up to
    2 when chains may hold a 2)?"""
    c = counts_of(hand)
    top = RANK_2 if flags & F_CHAINS_WITH_TWO else RANK_A

    def run(need: int, length: int, last: int) -> bool:
        k = 0
        for r in range(last + 1):
            k = k + 1 if c[r] >= need else 0
            if k >= length:
                return True
        return False

    return run(1, 5, RANK_A) or run(2, 3, top) or run(3, 2, top)


def table_key(hands: tuple, prev: int, flags: int) -> tuple[tuple, int, bool]:
    """The renamed hands, play to answer and squeezed flag under which the
    solver stores a position (docs/solver.md, "Table keys rename the ranks")."""
    hands = tuple(hands) + (0,) * (3 - len(hands))
    counts = [counts_of(h) for h in hands]
    held = [r for r in range(13) if any(c[r] for c in counts)]
    if len(held) == 13:
        return hands, prev, False
    squeezed = not any(chain_possible(h, flags) for h in hands)
    new, kept = rank_map(held, squeezed)
    if prev:
        m = (prev >> 5) & 15
        if m in new:
            m = new[m]
        elif m not in kept:
            # An empty rank: just below the new rank of the next held rank
            # above it (A's place when there is none in the kept-A case).
            if squeezed:
                m = len([r for r in held if r < m])
            else:
                m = min([new[r] for r in held if r > m and r in new], default=11) - 1
        prev = (prev & ~(15 << 5)) | (m << 5)
    renamed = rename_ranks(counts, new, kept)
    if squeezed:
        renamed = sorted_runs(renamed, (prev >> 5) & 15 if prev else 0)
    return renamed, prev, squeezed


def sorted_runs(hands: tuple, cut: int) -> tuple:
    """Squeezed hands (only the order of the ranks counts) with each seat's
    counts sorted, highest first, within every run of ranks next to each
    other that he alone holds, no run going from rank ``cut`` to ``cut + 1``
    (the play to answer's main rank; 0 for none); jokers in none.  Such ranks
    are interchangeable: no other seat holds a rank between them, so every
    comparison with another seat's cards, and with the play to answer, comes
    out the same (nobody ever answers his own play)."""
    counts = [counts_of(h) for h in hands]
    out = []
    for q, c in enumerate(counts):
        c = list(c)
        alone = [c[r] > 0 and all(counts[o][r] == 0 for o in range(len(counts)) if o != q) for r in range(13)]
        r = 0
        while r < 13:
            e = r
            while alone[r] and e + 1 < 13 and alone[e + 1] and e != cut:
                e += 1
            c[r:e + 1] = sorted(c[r:e + 1], reverse=True)
            r = e + 1
        out.append(pack_counts(c))
    return tuple(out)


def rank_map(held: list, squeezed: bool, spots=None, gap=lambda: 2):
    """``(new, kept)``: the new rank of each held rank 3..2 and the ranks left
    in place.  Squeezed: the held ranks in order onto ``spots`` (default 1, 2,
    3, ...).  Otherwise A, 2 and the jokers stay, a rank next to the held rank
    above it (or to A) stays next to it, and any other gap becomes ``gap()``
    ranks (2: one empty rank between); ``(None, kept)`` when that runs below 3."""
    if squeezed:
        return dict(zip(held, spots or range(1, len(held) + 1))), [13, 14]
    kept = [11, 12, 13, 14]
    new = {}
    anchor_rank, anchor_new = 11, 11
    for r in reversed(range(11)):
        if r in held:
            step = 1 if anchor_rank == r + 1 else gap()
            if anchor_new - step < 0:
                return None, kept
            new[r] = anchor_new - step
            anchor_rank, anchor_new = r, new[r]
    return new, kept


def rename_ranks(counts: list, new: dict, kept) -> tuple:
    """Packed hands from per-hand rank counts with rank ``r`` moved to
    ``new[r]`` and the ranks in ``kept`` left where they are."""
    out_hands = []
    for c in counts:
        out = [0] * 15
        for r in kept:
            out[r] = c[r]
        for r, to in new.items():
            out[to] = c[r]
        out_hands.append(pack_counts(out))
    return tuple(out_hands)


def least_low_solos(hand: int, rank: int, flags: int) -> int:
    """The fewest solos of rank below ``rank`` in any split of ``hand`` into
    plays.  Every split, no cap."""

    @functools.lru_cache(maxsize=None)
    def least(rest: int) -> int:
        if rest == 0:
            return 0
        low = next(r for r, c in enumerate(counts_of(rest)) if c)
        best = None
        for cards, kind in plays(rest, 0, flags):
            if counts_of(cards)[low] == 0:
                continue
            cost = 1 if (kind & 31) == T_SOLO and low < rank else 0
            n = cost + least(rest - cards)
            best = n if best is None else min(best, n)
        return best

    return least(hand)


def most_covers(hand: int, rank: int, flags: int) -> int:
    """The most plays of ``hand``, no two sharing a card, that each beat the
    solo just below ``rank`` (so every solo below it) and are not themselves
    a solo below it.  Every choice, no cap."""
    if rank == 0:
        return 0
    target = make_kind(T_SOLO, rank - 1, 1)
    return most_disjoint(hand, [cards for cards, kind in plays(hand, 0, flags) if beats(kind, target)])


def most_regains(hand: int, other: int, rank: int, flags: int) -> int:
    """The most plays of ``hand``, no two sharing a card, that each beat some
    play of ``other`` that is no solo below ``rank``.  Every choice, no cap."""
    safe = [kind for _, kind in plays(other, 0, flags) if not ((kind & 31) == T_SOLO and ((kind >> 5) & 15) < rank)]
    return most_disjoint(hand, [cards for cards, kind in plays(hand, 0, flags) if any(beats(kind, k) for k in safe)])


def most_disjoint(hand: int, candidates: list) -> int:
    """The most of the ``candidates`` (packed plays) that ``hand`` holds at
    once, no two sharing a card."""

    @functools.lru_cache(maxsize=None)
    def most(rest: int) -> int:
        if rest == 0:
            return 0
        low = next(r for r, c in enumerate(counts_of(rest)) if c)
        best = most(rest - (1 << (4 * low)))
        for cards in candidates:
            if counts_of(cards)[low] and all(a <= b for a, b in zip(counts_of(cards), counts_of(rest))):
                best = max(best, 1 + most(rest - cards))
        return best

    return most(hand)


# Laizi (wild cards) ------------------------------------------------------------------
#
# The same plain minimax (:func:`minimax_wins`), with the plays of a hand
# from the plain-Python generator of tests/naive_laizi.py (every
# sub-multiset, every face given to its laizi, classified by the classic
# reference; its own order of bombs).
# Nothing of the solver's or of the kernel move generator is used.  A state
# is ``(hands, turn, prev, last_by)`` as above; ``rules`` is a Rules object
# with its wild ranks (``Rules.parse("laizi").with_wild("9")``).

_laizi_cache: dict = {}


def laizi_plays(hand: int, prev_kind: int, rules) -> tuple:
    """Every (cards, kind) ``hand`` may play under the Laizi ``rules``: all
    its leads for ``prev_kind`` 0, else the answers that beat it (pass not
    included).  Cached without bound (the reference's own cache is small)."""
    from naive_laizi import naive_laizi_answers, naive_laizi_leads

    key = (hand, prev_kind, rules)
    got = _laizi_cache.get(key)
    if got is None:
        if prev_kind == 0:
            got = tuple(sorted(naive_laizi_leads(hand, tuple(rules.wild), rules)))
        else:
            got = tuple(sorted(naive_laizi_answers(hand, prev_kind, tuple(rules.wild), rules)))
        _laizi_cache[key] = got
    return got


def laizi_wins(hands: tuple, turn: int, prev: int, last_by: int, rules, memo=None) -> bool:
    """Can the team of ``turn`` force a win under the Laizi ``rules``?
    :func:`minimax_wins` over :func:`laizi_plays`; ``memo`` (a dict, or
    None) remembers whole states only (a laizi hand has many plays: the
    tests pass one)."""
    return minimax_wins(hands, turn, prev, last_by, lambda hand, pk: laizi_plays(hand, pk, rules), None, memo)


def laizi_winning_plays(hands: tuple, turn: int, prev: int, last_by: int, rules, memo=None) -> set:
    """The set of winning (cards, kind) at the root under the Laizi
    ``rules``; pass is (0, 0)."""
    return minimax_winning_plays(hands, turn, prev, last_by, lambda hand, pk: laizi_plays(hand, pk, rules), memo)
