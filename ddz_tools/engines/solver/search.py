"""The search kernel.

The value of a position is a win or a loss for the team to move, so the
search is an AND/OR tree: one winning child ends a node.  :func:`search_step`
is an iterative depth-first search over an explicit stack held in NumPy
arrays, so a call can stop after a node budget and the next call resumes
exactly where it stopped: that is how time limits, node limits and Ctrl-C
work without ever giving a wrong answer.

A node is expanded by :func:`_expand`: its moves generated, the exact
shortcuts tried, the dominated moves left out (:mod:`.ordering`), every
child's key worked out and probed, the rest ordered.  Exact shortcuts: a
play that empties the hand ends the node; so does a control win
(:mod:`.control`); in a real three-player position the cover and threat
rules settle a node as lost (:mod:`.threats`).  Enhanced transposition
cutoff: before ordering, a child already stored as a win for the mover's
team ends the node.  A seat that can only pass (no answer in hand to the
play standing, as its answer profile tells) is passed over, with no node of
its own (see :func:`after_move`): a child may be moved by the mover's own
team.  When the landlord's first move fails, a relaxation may settle the
node (:mod:`.relax`).

The search's stack and its work arrays travel as two records,
:class:`layout.Frames` (``fr``) and :class:`layout.Work` (``wk``), each
kernel reading from them what it uses.
"""

from ...core._jit import flat_kernel, kernel, prefetch
from ..decompose import min_plays_memo_in, min_plays_prefetch
from ...core.gamerules import next_seat, trick_after
from ...core.kinds import F_FOUR, T_PASS, wild_cards
from ...moves.movegen import gen_into_scratch
from .control import control_split, control_win
from .key import bucket_base, hands_key, misc, plain_flags, team, tt_find, tt_split, tt_store
from .layout import (AHEAD_PLAYS, C_COVER, C_DOMINANCE, C_FILLED, C_GROW_AT, C_HITS, C_KNOWN, C_MAXD, C_NODES, C_OUT,
                     C_RESULT, C_RET, C_RX_ABORTS, C_RX_BUDGET, C_RX_D, C_RX_MODE, C_RX_N0, C_RX_WINS, C_SP, C_TASK,
                     C_THREAT,
                     CW_MERGED, PASS_KIND, PH_ITER, PH_NEW, PH_RELAX, PROF_W, ST_DONE, ST_GROW, ST_MEMO, ST_PAUSED,
                     ST_TABLE, TASK_BEST_MOVES, TASK_KEY, TASK_SEARCH, TASK_SPLIT, Frames, Work)
from .ordering import drop_dominated, score, sort_range
from .profiles import can_answer, free, merge_opponents, profile_row
from .relax import relax_code, relax_first, relax_push, relaxed_known
from .threats import covered, threat_rule


@kernel
def plays_out(hand, flags, pk, pbuf):
    """True when ``hand`` can be played whole over the play ``pk`` (0: a
    lead): the seat holding it, to move, goes out at once.  Asks the move
    generator (into ``pbuf``'s rows 0 and 1); False when it lists more plays
    than they hold."""
    n = gen_into_scratch(hand, flags, pk, pbuf[0], pbuf[1], pbuf[2])
    if n > pbuf.shape[1]:
        return False
    for i in range(n):
        if pbuf[0, i] == hand:
            return True
    return False


@kernel
def _expand(hands, turn, pk, lb, flags, nplayers, mc, mk, key, ekey, start, wk, tt, nbuckets, dominance, cover, threat,
            out_now, known_lost):
    """Generate and order the moves of a node into the buffers at ``start``
    (and, from the cutoff probe, each move's child key into the rows of
    ``ekey``, columns 0-3, and in column 4 the seat to move after it, the
    play to answer and who made it: ``nxt | clb << 2 | cpk << 4``).

    Returns (n, immediate): ``n`` moves (pass included, as kind -1) whose
    order is ``key[start:start+n] & 0xFFFF``; ``immediate`` is 1 when an exact
    shortcut proves a win for the side to move, 2 when the cover rule (see
    :func:`threats.covered`, on when ``cover`` is not 0) proves a loss; ``n ==
    -needed`` when the move buffers are too small and ``n == -1`` when
    ``dwork`` is.  With ``out_now`` not 0, a move after which another seat
    is to move and goes out at once (his hand one play, which beats the play
    standing: see :func:`plays_out`) is settled here: a win when that seat
    is of the mover's team, else left out of the moves (it loses), so
    neither becomes a node; with ``known_lost`` not 0, so is a move whose
    child the cutoff probe finds stored as a loss for the mover.  ``n`` may
    then be 0 (the node lost).  With ``threat & 4`` (and the rule on), a
    landlord's move that leaves him at most ``AHEAD_PLAYS`` plays and after
    which the farmer to move loses by :func:`threats.threat_rule` wins the node
    (``immediate`` 1).
    """
    memo, dwork, sc, prof, pbuf = wk.memo, wk.dwork, wk.sc, wk.prof, wk.pbuf
    hand = hands[turn]
    # The decomposer's flags (see key.plain_flags) and the laizi nibbles (0
    # under classic rules): a hand with laizi is never taken for one play on
    # the decomposer's word.
    dfl = plain_flags(flags)
    lzm = wild_cards(flags)
    cap = mc.shape[0] - start - 1
    if cap < 0:
        return -(start + 2), 0
    n = gen_into_scratch(hand, flags, pk, mc[start:start + cap], mk[start:start + cap], pbuf[2])
    if n > cap:
        return -(start + n + 2), 0
    for i in range(n):
        if mc[start + i] == hand:
            return n, 1
    if n > 0 or pk == 0:
        merge_opponents(hands, turn, flags, nplayers, prof, pbuf)
    else:
        # A forced pass: nothing to weigh.
        pbuf[2, CW_MERGED + PROF_W - 1] = 0
    # Whether the ordering must still look for a lead no one can answer that
    # leaves one play or a control win: only when the control-win search of
    # the whole hand gave up, since such a lead and the rest's split are a
    # split of the whole hand.  (Answers are looked at just below.)
    scanned = 1
    if pk == 0:
        cs = control_split(hands, turn, hand, flags, nplayers, wk)
        if cs == 1:
            return n, 1
        if cs == 2:
            scanned = 0
    if pk != 0 and n > 0:
        # An answer nobody can beat that leaves one play or a control win
        # ends the node before the cutoff probe renames every child's key.
        for i in range(n):
            if free(hands, turn, mk[start + i], flags, nplayers, prof, pbuf):
                rest = hand - mc[start + i]
                mp = min_plays_memo_in(rest, dfl, memo, dwork)
                if mp < 0:
                    return -1, 0
                if (mp == 1 and (rest & lzm) == 0) or control_win(hands, turn, rest, flags, nplayers, wk):
                    return n, 1
    # The threat and cover rules: real three-player positions only.  A
    # two-hand game (two players, or a relaxation with a farmer set aside)
    # has an empty hand, and there they cost more time than they save.
    # Not under the four-player rules (see threats' module doc).
    three_hands = nplayers == 3 and (flags & F_FOUR) == 0 and hands[1] != 0 and hands[2] != 0
    if (threat != 0 and turn != 0 and three_hands
            and threat_rule(hands, turn, pk, lb, flags, wk, threat & 2) != 0):
        return n, 2
    if cover != 0 and (n > 0 or pk == 0) and three_hands:
        cv = covered(hands, turn, pk, lb, flags, nplayers, mc, mk, start + n + 1, wk)
        if cv < 0:
            return -1, 0
        if cv == 1:
            return n, 2
    if dominance != 0:
        n = drop_dominated(hands, turn, flags, nplayers, mc, mk, start, n, pk)
    if pk != 0:
        mc[start + n] = 0
        mk[start + n] = PASS_KIND
        n += 1
    # Enhanced transposition cutoff: a child already proven good for us ends
    # the node.  The children's keys first (into ``ekey``, where each child
    # takes its own), each bucket prefetched, then the probes (in blocks
    # whose buckets and children's teams fit the two halves of the scratch):
    # the cache misses overlap.
    me = team(turn, nplayers)
    block = sc.shape[0] // 2
    dropped = 0
    # Which other seats hold one play (the decomposer's memo): only they can
    # go out at once.  (The mover's own rest is the shortcuts' business.)
    # (A hand with laizi: its answer profile says whether it is one play.)
    one = 0
    if out_now != 0:
        for q in range(nplayers):
            if q != turn and hands[q] != 0:
                if (hands[q] & lzm) != 0:
                    pr = profile_row(prof, hands[q], flags, pbuf)
                    if pr < 0 or prof[pr, 2 + T_PASS] != 0:
                        one |= 1 << q
                    continue
                mp = min_plays_memo_in(hands[q], dfl, memo, dwork)
                if mp < 0:
                    return -1, 0
                if mp == 1:
                    one |= 1 << q
    for b0 in range(0, n, block):
        b1 = min(n, b0 + block)
        for i in range(b0, b1):
            c = mc[start + i]
            nxt, cpk, clb = after_move(hands, turn, mk[start + i], pk, lb, nplayers, flags, prof, pbuf)
            # A child's value is for its own side to move (the seat after a
            # pass over those who cannot answer): good for us when it is ours.
            sc[block + i - b0] = 1 if team(nxt, nplayers) == me else 0
            hands[turn] -= c
            if (one >> nxt) & 1 and plays_out(hands[nxt], flags, cpk, pbuf):
                hands[turn] += c
                if team(nxt, nplayers) == me:
                    return n, 1
                # Lost: no key, no probe; left out below.
                ekey[start + i, 4] = -1
                dropped += 1
                continue
            k0, k1, k2, km = hands_key(hands, nplayers, misc(nxt, clb, cpk, flags, nplayers), flags)
            hands[turn] += c
            base = bucket_base(k0, k1, k2, km, nbuckets)
            prefetch(tt, base)
            # The ordering looks up every move's rest in the decomposer's memo.
            min_plays_prefetch(hands[turn] - c, memo)
            ekey[start + i, 0] = k0
            ekey[start + i, 1] = k1
            ekey[start + i, 2] = k2
            ekey[start + i, 3] = km
            ekey[start + i, 4] = nxt | (clb << 2) | (cpk << 4)
            sc[i - b0] = base
        for i in range(b0, b1):
            r = start + i
            if ekey[r, 4] < 0:
                continue
            v = tt_find(tt, sc[i - b0], ekey[r, 0], ekey[r, 1], ekey[r, 2], ekey[r, 3])
            if v >= 0:
                if v == sc[block + i - b0]:
                    return n, 1
                if known_lost != 0:
                    ekey[r, 4] = -1
                    dropped += 1
    if dropped > 0:
        j = start
        for r in range(start, start + n):
            if ekey[r, 4] >= 0:
                if j != r:
                    mc[j] = mc[r]
                    mk[j] = mk[r]
                    for q in range(5):
                        ekey[j, q] = ekey[r, q]
                j += 1
        n = j - start
    if (threat & 4) != 0 and turn == 0 and three_hands:
        # The threat rule one ply ahead: a move of the landlord after which
        # a farmer is to move and loses by the rule wins the node (whatever
        # the ordering would have tried first), with no node for the child.
        ahead = False
        for i in range(n):
            nw = ekey[start + i, 4]
            nxt = nw & 3
            if nxt == 0:
                continue
            c = mc[start + i]
            mp = min_plays_memo_in(hands[0] - c, dfl, memo, dwork)
            if mp < 0:
                return -1, 0
            if mp > AHEAD_PLAYS:
                continue
            hands[0] -= c
            if out_now == 0 and plays_out(hands[nxt], flags, nw >> 4, pbuf):
                # The farmer goes out at once: not the rule's business.  (With
                # out_now such moves were left out above.)
                hands[0] += c
                continue
            merge_opponents(hands, nxt, flags, 3, prof, pbuf)
            ahead = True
            lost = threat_rule(hands, nxt, nw >> 4, (nw >> 2) & 3, flags, wk, threat & 2)
            hands[0] += c
            if lost != 0:
                return n, 1
        if ahead:
            merge_opponents(hands, turn, flags, nplayers, prof, pbuf)
    for i in range(n):
        c = mc[start + i]
        k = mk[start + i]
        sv = score(hands, turn, lb, c, k, 1 if pk != 0 else 0, scanned, flags, nplayers, wk)
        if sv == -2:
            return -1, 0
        if sv < 0:
            return n, 1
        key[start + i] = ((((1 << 22) - sv) << 16) | i)
    sort_range(key, start, start + n)
    return n, 0


@flat_kernel
def search_step(hands, nplayers, flags, tt, nbuckets, ctl, budget, frames, mc, mk, key, ekey, work):
    """Run (or resume) the search on the stack until it is done (``ST_DONE``,
    the value for the side to move at the root in ``ctl[C_RESULT]``), has
    searched up to ``budget`` nodes in all (``ST_PAUSED``), needs a bigger move
    buffer (``ST_GROW``), a bigger table (``ST_TABLE``) or a bigger decomposer
    work array (``ST_MEMO``); a call after a pause resumes exactly.  The
    arrays are a :class:`Solver`'s (see ``Solver._value``, which sets up the
    root frame and runs the slices): ``frames`` the stack and ``work`` the
    work arrays, each a plain tuple of arrays in the order of the record
    :class:`layout.Frames`, resp. :class:`layout.Work`, that the kernel makes
    of it (Numba types a plain tuple as fast as separate arguments, a named
    one about 3 us a call slower); ``mc``, ``mk``, ``key`` and ``ekey`` the
    move buffers, each node's moves after its parent's.  A frame below the
    top has taken ``cards[p]`` from the hand of seat ``who[p]`` (its move,
    or the farmer its relaxation sets aside); popping back to it gives them
    back.  ``key[p]`` of the frames is the frame's renamed table key, which
    it probes and stores under (``key[p, 3] < 0``: not worked out yet, as at
    the root and in a relaxation); a child takes it from the row of ``ekey``
    its parent's cutoff probe filled.

    ``ctl[C_TASK]`` may ask for another task instead, done at once (the
    search state is left as it is; the slot is reset): ``TASK_SPLIT`` moves
    the entries of a table just doubled (see :func:`key.tt_split`);
    ``TASK_MOVES`` puts the root frame's moves in search order into ``mc``,
    ``mk`` and ``key`` (see :func:`_ordered_moves`; its return value in
    ``ctl[C_RESULT]``), ``TASK_BEST_MOVES`` the same without the dominated
    plays (see :func:`ordering.drop_dominated`) when ``ctl[C_DOMINANCE]`` is
    set; ``TASK_KEY`` puts the root's table key (see :func:`key.hands_key`)
    in ``mc[0:4]``.  They return ``ST_DONE``."""
    fr = Frames(*frames)
    wk = Work(*work)
    task = ctl[C_TASK]
    if task != TASK_SEARCH:
        ctl[C_TASK] = TASK_SEARCH
        if task == TASK_SPLIT:
            ctl[C_FILLED] = tt_split(tt, nbuckets // 2)
        elif task == TASK_KEY:
            k0, k1, k2, km = hands_key(hands, nplayers, misc(fr.turn[0], fr.lb[0], fr.pk[0], flags, nplayers), flags)
            mc[0] = k0
            mc[1] = k1
            mc[2] = k2
            mc[3] = km
        else:
            ctl[C_RESULT] = _ordered_moves(hands, fr.turn[0], fr.pk[0], fr.lb[0], flags, nplayers, mc, mk, key, wk,
                                           ctl[C_DOMINANCE] if task == TASK_BEST_MOVES else 0)
        return ST_DONE
    while True:
        if ctl[C_FILLED] >= ctl[C_GROW_AT] > 0:
            return ST_TABLE
        d = ctl[C_SP]
        res = -1
        turn = fr.turn[d]
        if fr.phase[d] == PH_NEW:
            if ctl[C_NODES] >= budget:
                return ST_PAUSED
            r = ctl[C_RX_D]
            if r >= 0 and ctl[C_NODES] - ctl[C_RX_N0] >= ctl[C_RX_BUDGET]:
                # The relaxation under node r is over its budget: give it up
                # (every value it stored is exact) and go back to node r.
                for p in range(d - 1, r - 1, -1):
                    hands[fr.who[p]] += fr.cards[p]
                    hands[fr.who2[p]] += fr.cards2[p]
                ctl[C_SP] = r
                ctl[C_RET] = -1
                ctl[C_RX_ABORTS] += 1
                continue
            # The node's table key (its parent's cutoff probe worked it out,
            # unless km < 0), kept for its store when it is solved.
            km = fr.key[d, 3]
            if km < 0:
                k0, k1, k2, km = hands_key(hands, nplayers, misc(turn, fr.lb[d], fr.pk[d], flags, nplayers), flags)
                fr.key[d, 0] = k0
                fr.key[d, 1] = k1
                fr.key[d, 2] = k2
                fr.key[d, 3] = km
            else:
                k0 = fr.key[d, 0]
                k1 = fr.key[d, 1]
                k2 = fr.key[d, 2]
            v = tt_find(tt, bucket_base(k0, k1, k2, km, nbuckets), k0, k1, k2, km)
            if v >= 0:
                ctl[C_HITS] += 1
                ctl[C_NODES] += 1
                res = v
                # Already stored: pop without storing again.
                if d == 0:
                    ctl[C_RESULT] = res
                    ctl[C_SP] = -1
                    return ST_DONE
                ctl[C_SP] = d - 1
                p = d - 1
                hands[fr.who[p]] += fr.cards[p]
                hands[fr.who2[p]] += fr.cards2[p]
                ctl[C_RET] = res
                continue
            # The node's value when known without a search: a relaxation of
            # it stored as a farmers' win, or an exact shortcut of _expand.
            now = relaxed_known(hands, turn, fr.pk[d], fr.lb[d], nplayers, flags, tt, nbuckets, ctl)
            if now < 0:
                n, imm = _expand(hands, turn, fr.pk[d], fr.lb[d], flags, nplayers, mc, mk, key, ekey, fr.start[d], wk,
                                 tt, nbuckets, ctl[C_DOMINANCE], ctl[C_COVER], ctl[C_THREAT], ctl[C_OUT],
                                 ctl[C_KNOWN])
                if n == -1:
                    return ST_MEMO
                if n < 0:
                    ctl[C_RESULT] = -n
                    return ST_GROW
                if imm:
                    now = 1 if imm == 1 else 0
            ctl[C_NODES] += 1
            fr.nodes0[d] = ctl[C_NODES]
            if d > ctl[C_MAXD]:
                ctl[C_MAXD] = d
            if now >= 0:
                res = now
            else:
                fr.n[d] = n
                fr.i[d] = 0
                fr.phase[d] = PH_ITER
                continue
        elif fr.phase[d] == PH_RELAX:
            # Back from the relaxed position (``fr.who[d]`` passing throughout):
            # the farmers win it, so they win here; else try the other farmer
            # or search the moves.
            cv = ctl[C_RET]
            ctl[C_RET] = -1
            ctl[C_RX_D] = -1
            if cv == 0:
                ctl[C_RX_WINS] += 1
                res = 0
            else:
                nz = fr.rx[d] + 1
                if relax_code(nz, turn, fr.pk[d], fr.lb[d], nplayers, ctl[C_RX_MODE]) > 0:
                    e = relax_push(hands, d, nz, nplayers, ctl, fr)
                    if e < 0:
                        ctl[C_RESULT] = -1
                        return ST_GROW
                else:
                    fr.phase[d] = PH_ITER
                continue
        else:
            cv = ctl[C_RET]
            if cv >= 0:
                ctl[C_RET] = -1
                child_turn = fr.turn[d + 1]
                v = cv if team(child_turn, nplayers) == team(turn, nplayers) else 1 - cv
                if v == 1:
                    res = 1
            if res < 0 and cv >= 0 and fr.i[d] == 1 and fr.n[d] > 1:
                # The first move failed: the node is likely lost, so try to
                # prove that at once with a relaxation.
                if relax_first(hands, turn, fr.pk[d], fr.lb[d], nplayers, ctl) > 0:
                    fr.phase[d] = PH_RELAX
                    e = relax_push(hands, d, 0, nplayers, ctl, fr)
                    if e < 0:
                        ctl[C_RESULT] = -1
                        return ST_GROW
                    continue
            if res < 0:
                if fr.i[d] == fr.n[d]:
                    res = 0
                else:
                    s = fr.start[d]
                    idx = key[s + fr.i[d]] & 0xFFFF
                    fr.i[d] += 1
                    c = mc[s + idx]
                    k = mk[s + idx]
                    # Who moves next and what stands, as the cutoff probe
                    # worked them out (see after_move).
                    nw = ekey[s + idx, 4]
                    nxt = nw & 3
                    clb = (nw >> 2) & 3
                    cpk = nw >> 4
                    fr.who[d] = turn
                    fr.cards2[d] = 0
                    if k == PASS_KIND:
                        fr.cards[d] = 0
                    else:
                        fr.cards[d] = c
                        hands[turn] -= c
                    e = d + 1
                    if e >= fr.turn.shape[0]:
                        ctl[C_RESULT] = -1
                        return ST_GROW
                    fr.turn[e] = nxt
                    fr.pk[e] = cpk
                    fr.lb[e] = clb
                    for q in range(4):
                        fr.key[e, q] = ekey[s + idx, q]
                    fr.start[e] = s + fr.n[d]
                    fr.phase[e] = PH_NEW
                    ctl[C_SP] = e
                    continue
        # Node d is solved with value res for its side to move.
        below = ctl[C_NODES] - fr.nodes0[d]
        lg = 0
        while below > 1 and lg < 63:
            below >>= 1
            lg += 1
        tt_store(tt, nbuckets, fr.key[d, 0], fr.key[d, 1], fr.key[d, 2], fr.key[d, 3], res, lg, ctl)
        fr.phase[d] = PH_NEW
        if d == 0:
            ctl[C_RESULT] = res
            ctl[C_SP] = -1
            return ST_DONE
        p = d - 1
        ctl[C_SP] = p
        hands[fr.who[p]] += fr.cards[p]
        hands[fr.who2[p]] += fr.cards2[p]
        ctl[C_RET] = res


@kernel
def after_move(hands, turn, kind, pk, lb, nplayers, flags, prof, pbuf):
    """(seat to move, play to answer, seat that made it) after ``turn`` makes
    the move ``kind`` (a pass: ``PASS_KIND``) over ``pk`` made by ``lb``.
    A seat that can only pass passes at once, with no node of its own: one
    holding no answer to the play (read off its answer profile), and one with
    no cards, the farmer a relaxation sets aside (a real position never holds
    an empty hand).  A lead always has a seat with a play to make."""
    nxt = next_seat(turn, nplayers)
    cpk, clb = trick_after(kind, turn, pk, lb, nplayers)
    while cpk != 0 and (hands[nxt] == 0 or not can_answer(hands[nxt], flags, cpk, prof, pbuf)):
        cpk, clb = trick_after(PASS_KIND, nxt, cpk, clb, nplayers)
        nxt = next_seat(nxt, nplayers)
    return nxt, cpk, clb


@kernel
def _ordered_moves(hands, turn, pk, lb, flags, nplayers, mc, mk, key, wk, dominance):
    """The node's moves in search order (no shortcut exit): n, -needed when
    the move buffers are too small, or -1 when ``dwork`` is."""
    prof, pbuf = wk.prof, wk.pbuf
    # Run the ordering with shortcuts disabled by scoring every move ourselves.
    hand = hands[turn]
    cap = mc.shape[0] - 1
    n = gen_into_scratch(hand, flags, pk, mc[:cap], mk[:cap], pbuf[2])
    if n > cap:
        return -(n + 2)
    if dominance != 0:
        n = drop_dominated(hands, turn, flags, nplayers, mc, mk, 0, n, pk)
    if pk != 0:
        mc[n] = 0
        mk[n] = PASS_KIND
        n += 1
    merge_opponents(hands, turn, flags, nplayers, prof, pbuf)
    for i in range(n):
        sv = score(hands, turn, lb, mc[i], mk[i], 1 if pk != 0 else 0, 0, flags, nplayers, wk)
        if sv == -2:
            return -1
        if sv < 0:
            sv = 1 << 21
        key[i] = ((((1 << 22) - sv) << 16) | i)
    sort_range(key, 0, n)
    return n
