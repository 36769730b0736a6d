"""Plain-Python reference solver for positions under the four-player rules
(two decks; tests only).

What is four-player in the reference, beside :mod:`naive_solver`: the plays
of a hand are those of the plain-Python reference :mod:`naive_four` (every
sub-multiset of the hand read from the rules text, answers by
``naive_four.naive_beats``); nothing of the package's move generator, rules
order or solver is used.  The minimax is :func:`naive_solver.minimax_wins`,
over the rules of docs/rules.md ("Four players with two decks"): the
landlord (seat 0) against one, two or three farmers (seats 1..3 in turn
order) who win together when any of them goes out; with two hands each side
is a team of its own.  A play is answered by the next seat; after a pass the
play stands until the turn comes back to the seat that made it, which then
leads (one pass with two hands, two with three, three with four).  No move
ordering and no shortcuts; a dict of whole states (given by the caller) only
saves the repeated subtrees of the four-seat game.  Also here: the
four-player table key, the farmers' packing and the dominated plays, as
plain definitions.

A state is ``(hands, turn, prev, last_by)``: ``hands`` a tuple of packed
hands in seat order, ``prev`` the kind of the play to answer (0 for a lead)
and ``last_by`` the seat that made it.
"""

from __future__ import annotations

from naive_four import naive_beats, naive_leads
from naive_solver import minimax_winning_plays, minimax_wins, team

_plays_cache: dict = {}


def four_plays(hand: int, prev: int, rules) -> tuple:
    """Every (cards, kind) ``hand`` may play: its leads for ``prev`` 0, else
    the leads that beat ``prev`` (pass not included)."""
    key = (hand, prev, rules)
    got = _plays_cache.get(key)
    if got is None:
        leads = naive_leads(hand, rules)
        got = tuple(sorted(leads if prev == 0 else (p for p in leads if naive_beats(p[1], prev, rules))))
        _plays_cache[key] = got
    return got


def four_wins(hands: tuple, turn: int, prev: int, last_by: int, rules, memo: "dict | None" = None) -> bool:
    """Can the team of ``turn`` force a win?  The plain minimax of
    :func:`naive_solver.minimax_wins` over :func:`four_plays` (``memo``: an
    optional dict of whole states)."""
    return minimax_wins(hands, turn, prev, last_by, lambda hand, pk: four_plays(hand, pk, rules), None, memo)


def four_winning_plays(hands: tuple, turn: int, prev: int, last_by: int, rules, memo: "dict | None" = None) -> set:
    """The set of winning (cards, kind) at the root; pass is (0, 0)."""
    return minimax_winning_plays(hands, turn, prev, last_by, lambda hand, pk: four_plays(hand, pk, rules), memo)


# The table key under the four-player rules ------------------------------------------------
#
# Written from docs/solver-notes.md ("Table keys rename the ranks") with the
# four-player additions of docs/solver.md: a rank is held up to 8 times, the
# chains are those of naive_four (under chains=shanghai also from a low A),
# and four hands key the farmers' three hands as one byte a rank.

from naive_four import runs, unpack  # noqa: E402
from naive_solver import rank_map, rename_ranks, sorted_runs  # noqa: E402


def chain_possible_four(hand: int, rules) -> bool:
    """Can the hand play a chain under the four-player ``rules``: five places
    of the chain sequence in a row held once, three held twice, or two held
    three times?"""
    c = unpack(hand)
    for per, length in ((1, 5), (2, 3), (3, 2)):
        for ranks, _ in runs(rules, length):
            if all(c[r] >= per for r in ranks):
                return True
    return False


def table_key_four(hands: tuple, prev: int, rules) -> tuple:
    """(renamed hands, four of them, the play to answer renamed, squeezed):
    the ranks renamed as under the classic rules (in order when no hand can
    play a chain, each seat's counts then sorted within the runs of ranks he
    alone holds; else A and 2 in place and every gap below A closed to one
    empty rank), except that under ``chains=shanghai`` a position where some
    hand can play a chain is not renamed at all."""
    hands = tuple(hands) + (0,) * (4 - len(hands))
    counts = [list(unpack(h)) for h in hands]
    held = [r for r in range(13) if any(c[r] for c in counts)]
    if len(held) == 13:
        return hands, prev, False
    chains = any(chain_possible_four(h, rules) for h in hands)
    if chains and rules.chains == "shanghai":
        return hands, prev, False
    squeezed = not chains
    new, kept = rank_map(held, squeezed)
    if prev:
        m = (prev >> 5) & 15
        if m in new:
            m = new[m]
        elif m not in kept and m != 15:
            # (15: the low 2 topping AAA222 under chains=shanghai, kept as it is.)
            if squeezed:
                m = len([r for r in held if r < m])
            else:
                m = min([new[r] for r in held if r > m and r in new], default=11) - 1
        prev = (prev & ~(15 << 5)) | (m << 5)
    renamed = rename_ranks(counts, new, kept)
    if squeezed:
        renamed = sorted_runs(renamed, (prev >> 5) & 15 if prev else 0)
    return renamed, prev, squeezed


#: Every (a, b, c) of one rank's counts in three hands of two decks (a sum of
#: at most 8), in the order of their index: smaller sums first, then by a, b.
TRIPLES = sorted(((a, b, c) for a in range(9) for b in range(9) for c in range(9) if a + b + c <= 8),
                 key=lambda t: (sum(t), t[0], t[1]))
TRIPLE_INDEX = {t: i for i, t in enumerate(TRIPLES)}


def pack_farmers_ref(h1: int, h2: int, h3: int) -> tuple:
    """The farmers' words of a four-hand key: a byte a rank 3..2 (ranks 3..9
    in the first word, T..2 in the second), each the place of the rank's three
    counts in :data:`TRIPLES`, the small joker's at bit 56 of the first word
    and the big joker's at bit 48 of the second."""
    c = [unpack(h) for h in (h1, h2, h3)]
    idx = [TRIPLE_INDEX[(c[0][r], c[1][r], c[2][r])] for r in range(15)]
    lo = sum(idx[r] << (8 * r) for r in range(7)) | (idx[13] << 56)
    hi = sum(idx[r] << (8 * (r - 7)) for r in range(7, 13)) | (idx[14] << 48)
    return lo, hi


# Dominated plays under the four-player rules ------------------------------------------------


def loose_ranks_four(hand: int, rules) -> tuple:
    """(solo, pair, trio): the ranks 3..2 the hand holds exactly once, twice,
    resp. three times that lie in no chain (five places in a row held), for
    a pair and a trio in no pair chain (three held twice or more), for a
    trio in no airplane (two held three times or more) it could play."""
    c = unpack(hand)
    chained = [set(), set(), set()]
    for j, (per, length) in enumerate(((1, 5), (2, 3), (3, 2))):
        for ranks, _ in runs(rules, length):
            if all(c[r] >= per for r in ranks):
                chained[j] |= set(ranks)
    solo = {r for r in range(13) if c[r] == 1 and r not in chained[0]}
    pair = {r for r in range(13) if c[r] == 2 and r not in chained[0] | chained[1]}
    trio = {r for r in range(13) if c[r] == 3 and r not in chained[0] | chained[1] | chained[2]}
    return solo, pair, trio


def dominated_four(hands: tuple, turn: int, cards: int, kind: int, prev: int, rules) -> bool:
    """Is the play (``cards``, ``kind``) of ``turn`` one the solver leaves out
    as dominated (docs/solver-notes.md, "Dominated plays"), read with the
    four-player plays: a single, pair or trio (with its pair) whose rank x is
    held exactly once, twice, three times, when the same play of a lower
    loose rank y would do (a lead, or y beats ``prev``), y not in the play,
    and no opponent holds one, two, three cards of a rank above y up to x (a
    partner: any card); or a trio or airplane whose pair wing x is held
    exactly twice, with a lower loose pair y left out (no wing swapped where
    wings must be consecutive), and for a farmer no partner holding a card of
    a rank above y up to x."""
    n = len(hands)
    hand = hands[turn]
    if cards == hand:
        return False
    t, main, length = kind & 31, (kind >> 5) & 15, (kind >> 9) & 15
    hc, pc = unpack(hand), unpack(cards)
    loose = loose_ranks_four(hand, rules)
    partners = [hands[q] for q in range(n) if q != turn and team(q, n) == team(turn, n)]
    opponents = [hands[q] for q in range(n) if team(q, n) != team(turn, n)]

    def holds(h, r, k):
        return unpack(h)[r] >= k

    # Kicker (wing) dominance.
    if t in (5, 10) and not (t == 10 and rules.wing_pairs_consecutive):
        body = {r for r in range(13) if pc[r] == 3}
        for x in range(13):
            if pc[x] == 2 and x not in body and hc[x] == 2:
                for y in loose[1]:
                    if y < x and pc[y] == 0 and not any(holds(h, r, 1) for h in partners for r in range(y + 1, x + 1)):
                        return True
    # A lower single, pair or trio.
    j = {1: 0, 2: 1, 3: 2, 5: 2}.get(t)
    if j is None or length != 1 or main >= 13 or hc[main] != j + 1:
        return False
    x = main
    for y in loose[j]:
        if y >= x or pc[y] or (prev and y <= ((prev >> 5) & 15)):
            continue
        if any(holds(h, r, j + 1) for h in opponents for r in range(y + 1, x + 1)):
            continue
        if any(holds(h, r, 1) for h in partners for r in range(y + 1, x + 1)):
            continue
        return True
    return False
