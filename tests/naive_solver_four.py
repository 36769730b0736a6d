"""Plain-Python reference solver for positions under the four-player rules
(two decks; tests only).

The twin of :mod:`naive_solver` for ``rules four``: the plays of a hand are
those of the plain-Python reference :mod:`naive_four` (every sub-multiset of
the hand read from the rules text, answers by ``naive_four.naive_beats``);
nothing of the package's move generator, rules order or solver is used.  A
plain recursive minimax over the rules of docs/rules.md ("Four players with
two decks"): the landlord (seat 0) against one, two or three farmers (seats
1..3 in turn order) who win together when any of them goes out; with two
hands each side is a team of its own.  A play is answered by the next seat;
after a pass the play stands until the turn comes back to the seat that made
it, which then leads (one pass with two hands, two with three, three with
four).  No move ordering and no shortcuts; a dict of whole states (given by
the caller) only saves the repeated subtrees of the four-seat game.

A state is ``(hands, turn, prev, last_by)``: ``hands`` a tuple of packed
hands in seat order, ``prev`` the kind of the play to answer (0 for a lead)
and ``last_by`` the seat that made it.
"""

from __future__ import annotations

from naive_four import naive_beats, naive_leads

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


def team(seat: int, nplayers: int) -> int:
    return seat if nplayers == 2 else (0 if seat == 0 else 1)


def _after_pass(hands, nxt, prev, last_by):
    return (hands, nxt, 0, 0) if nxt == last_by else (hands, nxt, prev, last_by)


def four_wins(hands: tuple, turn: int, prev: int, last_by: int, rules, memo: "dict | None" = None) -> bool:
    """Can the team of ``turn`` force a win?  Plain minimax (``memo``: an
    optional dict of whole states)."""
    if memo is not None:
        key = (hands, turn, prev, last_by)
        got = memo.get(key)
        if got is not None:
            return got
    n = len(hands)
    me = team(turn, n)
    nxt = (turn + 1) % n
    result = False
    children = []
    for cards, kind in four_plays(hands[turn], prev, rules):
        left = hands[turn] - cards
        if left == 0:
            result = True
            break
        new = list(hands)
        new[turn] = left
        children.append((tuple(new), nxt, kind, turn))
    if not result:
        if prev != 0:
            children.append(_after_pass(hands, nxt, prev, last_by))
        for child in children:
            if (team(child[1], n) == me) == four_wins(*child, rules, memo):
                result = True
                break
    if memo is not None:
        memo[key] = result
    return result


def four_winning_plays(hands: tuple, turn: int, prev: int, last_by: int, rules, memo: "dict | None" = None) -> set:
    """The set of winning (cards, kind) at the root; pass is (0, 0)."""
    n = len(hands)
    me = team(turn, n)
    nxt = (turn + 1) % n
    out = set()
    for cards, kind in four_plays(hands[turn], prev, rules):
        left = hands[turn] - cards
        if left == 0:
            out.add((cards, kind))
            continue
        new = list(hands)
        new[turn] = left
        if (team(nxt, n) == me) == four_wins(tuple(new), nxt, kind, turn, rules, memo):
            out.add((cards, kind))
    if prev != 0:
        child = _after_pass(hands, nxt, prev, last_by)
        if (team(nxt, n) == me) == four_wins(*child, rules, memo):
            out.add((0, 0))
    return out


# The table key under the four-player rules ------------------------------------------------
#
# Written from docs/solver-notes.md ("Table keys rename the ranks") with the
# four-player additions of docs/solver.md: a rank is held up to 8 times, the
# chains are those of naive_four (under chains=shanghai also from a low A),
# and four hands key the farmers' three hands as one byte a rank.

from naive_four import runs, unpack  # noqa: E402
from naive_solver import rank_map, rename_ranks  # noqa: E402


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
    play a chain; else A and 2 in place and every gap below A closed to one
    empty rank), except that under ``chains=shanghai`` a position where some
    hand can play a chain is not renamed at all; no counts sorted."""
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
    return rename_ranks(counts, new, kept), prev, squeezed


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
