"""Two exact rules that settle a real three-player position (every hand
holding cards) as lost for the side to move without searching it.

The cover rule (:func:`covered`): a lead, or an answer to the other team's
play, is lost at once when the other team *covers* every play the team to
move could make: some coverer answers it and then goes out or has a control
win.

The threat rule (:func:`threat_rule`): a farmer to move has lost when
neither farmer can go out without letting the landlord make a *threat*, a
play after which he surely wins.  When every threat is a solo it is
sharpened by counting: farmer1's low solos (:func:`low_solos_least`)
against farmer2's plays that cover them (:func:`low_solo_covers`) and
farmer1's plays that win the trick back (:func:`regains`).

The rules take the search's work arrays as one record, ``wk``
(:class:`layout.Work`), and read from it what they use.

Laizi (wild ranks in the rule flags).  Where no hand holds a laizi the game
left is a classic one (:func:`key.laizi_held`) and both rules hold as they
are, bombs compared by their levels (:func:`profiles.bomb_level`).  Where a
hand holds laizi:

* the cover rule is not used (its list of plays to cover rebuilds the
  movers' top bomb from its level, which only a hard four-card bomb allows,
  and it reads each hand's profile as a bound on what the hand will hold);
* the threat rule is used without ``natural_first``: the landlord's hand
  does not change while he passes, so his threats stay what they are; a
  farmer's later plays are plays of his hand now (without ``natural_first``
  whether cards are a play depends on those cards alone), so his profile
  now bounds what he can play later and a split search that finds none
  (order does not matter) proves there is none; the profiles compare bombs
  by level, as ``kinds.play_beats`` does.  The count of low solos is left
  out (it reasons about chains and bombs of natural cards).  With
  ``natural_first`` a smaller hand may hold plays the larger one has not,
  and the split searches are sequences (see :func:`control.control_win_search`):
  the rule is not used.

Four-player rules (``F_FOUR``: two decks, four seats or fewer hands under
the four-player plays).  Neither rule is used, whatever the number of hands:
both are proven for three seats (farmer2's play goes straight to the
landlord, farmer1's to farmer2 first; with three farmers the order and the
covers between them differ), the cover rule rebuilds the movers' top bomb
as a hard four-card bomb, the threat rule takes the rocket for a play
nothing beats (under ``top_bomb=bomb8`` an 8-card bomb does), and the count
of low solos reads counts of at most 4 and chains of ``3``..``A`` (two decks
hold 8 of a rank; ``chains=shanghai`` runs A and 2 low).
"""

from ...core._jit import kernel
from ...core.cards import RANK_A
from ..decompose import min_plays_memo_in
from ...core.kinds import F_FOUR, F_NATURAL_FIRST
from ...moves.movegen import gen_into_scratch
from ...core.rules import T_BOMB, T_PASS, T_ROCKET, T_SOLO
from .control import control_split, control_win, merged_hash, same_profile
from .key import fold, laizi_held, plain_flags, slot, team
from .layout import (COVER_KEEP, COVER_LIST, COVER_OW, CW_MERGED, CW_ROWS, LOW_SOLO_SETS, PROF_W, THREAT_KEEP,
                     THREAT_ONE, THREAT_ROWS)
from .profiles import bomb_level, can_answer, free, merge_opponents, merge_word, profile_row, with_play


@kernel
def covered(hands, turn, pk, lb, flags, nplayers, mc, mk, lo, wk):
    """1 when ``turn``'s team loses at once because the other team *covers*
    everything it could play before that team's next turn; 0 when not shown;
    -1 when ``dwork`` is too small for the decomposer.

    Call the mover's team the movers and the other team the coverers.  The
    rule (exact), for a lead (``pk`` 0) and for an answer to a play of the
    coverers:

    * no hand of the movers is one play, so none of them goes out before a
      coverer's next turn (the caller has checked that no move of the mover
      empties his hand; his partner's fewest plays are asked here);
    * the movers hold no rocket;
    * every play the movers could make (for a lead, every play type and
      length their merged answer profile holds, bombs included; for an
      answer, the standing play's type and length where they can beat it,
      and their bombs) has a cover: some coverer holds an answer to the
      highest such play that no mover can beat, after which the rest of his
      hand is empty or a control win;
    * for an answer, the coverer who made the standing play also has a
      control win with his whole hand (the movers may all pass).

    Whatever the movers play, the coverer holding the cover of the play
    standing plays it when his turn comes (a farmer's partner passes before
    him), everyone passes, and he goes out with his control win.  The
    movers' hands only shrink meanwhile, so what none of them could answer
    stays unanswerable.

    The caller has merged the coverers' profiles for ``turn`` (see
    :func:`profiles.merge_opponents`, as ``search._expand`` does before); the merged
    profile is left in place when the answer is 0.  The coverers' answers
    are generated into ``mc``/``mk`` from ``lo`` (past the node's own moves);
    a buffer too small only loses the shortcut."""
    memo, dwork, prof, pbuf = wk.memo, wk.dwork, wk.prof, wk.pbuf
    if (flags & F_FOUR) != 0:
        # Not under the four-player rules (see the module doc).
        return 0
    me = team(turn, nplayers)
    if pk != 0 and team(lb, nplayers) == me:
        return 0
    if laizi_held(hands, flags):
        # Not with laizi in a hand (see the module doc).
        return 0
    w = pbuf[2]
    if w[CW_MERGED + PROF_W - 1] != turn + 1:
        # Some coverer has too many plays for a profile.
        return 0
    tw = w[CW_MERGED:CW_MERGED + PROF_W]
    # The movers' merged answer profile: the mover's and his partner's (each
    # row read before the next is looked up, which may take its place).
    # Merged here, beside the coverers' profile, rather than by
    # merge_opponents, which would overwrite that profile before the cheap
    # test below has settled most calls (measured: 10% slower on three
    # players 10 a seat, the same nodes).
    ow = w[CW_MERGED + COVER_OW:CW_MERGED + COVER_OW + PROF_W]
    r = profile_row(prof, hands[turn], flags, pbuf)
    if r < 0:
        return 0
    for t in range(PROF_W - 2):
        ow[t] = prof[r, 2 + t]
    mate = hands[3 - turn] if nplayers == 3 and turn != 0 else 0
    if mate != 0:
        r = profile_row(prof, mate, flags, pbuf)
        if r < 0:
            return 0
        for t in range(PROF_W - 2):
            ow[t] = merge_word(ow[t], prof[r, 2 + t], t)
    if ow[T_ROCKET] != 0:
        return 0
    # The plays to cover (kinds at the movers' highest main rank), each tested
    # first on the profiles alone: a higher one of the same type and length,
    # or a bomb above the movers' highest bomb, or the rocket.  (The movers'
    # top bomb is rebuilt from its level: every bomb here is a hard bomb of
    # four, whose level's low nibble is its rank, under any rules.)
    obomb = ow[T_BOMB] >> 4
    bomb_cover = tw[T_ROCKET] != 0 or (tw[T_BOMB] >> 4) > obomb
    pend = CW_MERGED + COVER_LIST
    npend = 0
    if pk == 0:
        for t in range(PROF_W - 2):
            if t == T_ROCKET or t == T_PASS:
                continue
            if t == T_BOMB:
                if obomb > 0:
                    if not bomb_cover:
                        return 0
                    w[pend + npend] = T_BOMB | (((obomb - 1) & 15) << 5) | (1 << 9)
                    npend += 1
                continue
            x = ow[t]
            i = 0
            while x != 0:
                v = x & 15
                if v != 0:
                    if not (bomb_cover or (t != T_BOMB and ((tw[t] >> (4 * i)) & 15) > v)):
                        return 0
                    w[pend + npend] = t | ((v - 1) << 5) | (i << 9)
                    npend += 1
                x >>= 4
                i += 1
    else:
        t = pk & 31
        i = (pk >> 9) & 15
        pm1 = bomb_level(pk, flags) if t == T_BOMB else ((pk >> 5) & 15) + 1
        if t != T_BOMB and t != T_ROCKET:
            v = (ow[t] >> (4 * i)) & 15
            if v > pm1:
                if not (bomb_cover or ((tw[t] >> (4 * i)) & 15) > v):
                    return 0
                w[pend] = t | ((v - 1) << 5) | (i << 9)
                npend = 1
        if obomb > 0 and t != T_ROCKET and (t != T_BOMB or obomb > pm1):
            if not bomb_cover:
                return 0
            w[pend + npend] = T_BOMB | (((obomb - 1) & 15) << 5) | (1 << 9)
            npend += 1
    # The mover's partner must not go out with one play either.
    if mate != 0:
        mp = min_plays_memo_in(mate, plain_flags(flags), memo, dwork)
        if mp < 0:
            return -1
        if mp == 1:
            return 0
    # From here on the coverers ask about the movers: the merged profile
    # becomes the movers' (what merge_opponents merges for any coverer),
    # set for one coverer at a time.  The coverers' is kept aside, to put
    # back when the answer is 0.
    keep = CW_MERGED + COVER_KEEP
    for t in range(PROF_W):
        w[keep + t] = tw[t]
    for t in range(PROF_W - 2):
        w[CW_MERGED + t] = ow[t]
    w[CW_MERGED + PROF_W - 2] = -1
    ok = True
    if pk != 0:
        # The movers may all pass: the coverer who made the play then leads.
        w[CW_MERGED + PROF_W - 1] = lb + 1
        ok = control_win(hands, lb, hands[lb], flags, nplayers, wk)
    cap = mc.shape[0] - lo
    for s in range(nplayers):
        if not ok or npend == 0:
            break
        if team(s, nplayers) == me or hands[s] == 0:
            continue
        w[CW_MERGED + PROF_W - 1] = s + 1
        h = hands[s]
        j = 0
        while j < npend:
            kind = w[pend + j]
            n = gen_into_scratch(h, flags, kind, mc[lo:], mk[lo:], w)
            if n > cap:
                ok = False
                break
            hit = False
            for i in range(n):
                if free(hands, s, mk[lo + i], flags, nplayers, prof, pbuf):
                    rest = h - mc[lo + i]
                    if rest == 0 or control_win(hands, s, rest, flags, nplayers, wk):
                        hit = True
                        break
            if hit:
                npend -= 1
                w[pend + j] = w[pend + npend]
            else:
                j += 1
    if ok and npend == 0:
        return 1
    for t in range(PROF_W):
        w[CW_MERGED + t] = w[keep + t]
    return 0


@kernel
def _threat_profile(hands, flags, w, at, wk):
    """Write at ``w[at:]`` the answer profile (see :func:`profiles.profile_row`) of
    the landlord's *threats*: his plays after which he surely wins, that is
    plays that empty his hand, and plays no farmer can beat that leave him a
    control win.  Returns 0 when he has none (or too many plays for
    ``pbuf``), 1 when he has some, 2 when he has some and his whole hand is
    a control win too.  Leaves the farmers' merged profile at CW_MERGED,
    for the landlord.

    Remembered in the rows of ``cwm`` from CW_ROWS, two a key: what it
    depends on is the landlord's hand, the rules and the farmers' merged
    profile (which the control wins ask), and in a search the landlord's
    hand stays the same while the farmers play on."""
    prof, pbuf, cwm = wk.prof, wk.pbuf, wk.cwm
    m = CW_MERGED
    merge_opponents(hands, 0, flags, 3, prof, pbuf)
    if w[m + PROF_W - 1] != 1:
        # A farmer has too many plays for a profile.
        return 0
    hand = hands[0]
    ra = CW_ROWS + 2 * slot(fold(merged_hash(w, flags), hand), THREAT_ROWS)
    rb = ra + 1
    tag = (flags << 1) | 1
    if cwm[ra, 0] == hand and cwm[ra, 1] == tag and same_profile(cwm, ra, w):
        for t in range(PROF_W - 2):
            w[at + t] = cwm[rb, 2 + t]
        return cwm[rb, 0]
    n = gen_into_scratch(hand, flags, 0, pbuf[0], pbuf[1], pbuf[2])
    if n > pbuf.shape[1]:
        return 0
    for t in range(PROF_W - 2):
        w[at + t] = 0
    found = False
    for i in range(n):
        k = pbuf[1, i]
        rest = hand - pbuf[0, i]
        if rest != 0 and not (free(hands, 0, k, flags, 3, prof, pbuf)
                              and control_split(hands, 0, rest, flags, 3, wk) == 1):
            continue
        w[at + (k & 31)] = with_play(w[at + (k & 31)], k, flags)
        found = True
    res = 0
    if found:
        res = 2 if control_split(hands, 0, hand, flags, 3, wk) == 1 else 1
    cwm[ra, 0] = hand
    cwm[ra, 1] = tag
    cwm[rb, 0] = res
    for t in range(PROF_W - 2):
        cwm[ra, 2 + t] = w[m + t]
        cwm[rb, 2 + t] = w[at + t]
    return res


@kernel
def _lone_solos(h, r):
    """The solos below rank ``r`` when every rank of ``h`` is played whole
    (a pair, trio or bomb, the two jokers as the rocket): the ranks below
    ``r`` held once, the small joker not counted beside the big one."""
    n = 0
    for i in range(15):
        if i < r and (h >> (4 * i)) & 15 == 1 and not (i == 13 and (h >> 56) & 15 == 1):
            n += 1
    return n


@kernel
def low_solos_least(hand, r, work):
    """A lower bound on the solos of rank below ``r`` (*low* solos) in any
    split of ``hand`` into plays (under any rules).

    Take a split and make each kicker a play of its own (a solo, or a pair
    for a pair kicker): what is left are solo chains and plays that hold no
    single card of a rank but a solo (pairs, trios, bombs, pair chains,
    airplanes, the rocket).  Only the solo chains decide which ranks are
    left with one card, so the fewest low solos of such splits is the least,
    over every set of solo chains the hand holds, of the ranks below ``r``
    left with one card (searched here, up to ``LOW_SOLO_SETS`` sets of
    chains; past that the bound is 0).  The kickers took at most one card
    per trio and two per four of the hand, each at most one low solo: the
    bound is the least less those.  A bound below 2 is given as 0 when no
    chain needs searching to show it (the threat rule asks for 2 or more)."""
    best = _lone_solos(hand, r)
    kick = 0
    for i in range(15):
        c = (hand >> (4 * i)) & 15
        if c >= 3:
            kick += c - 2
    if best <= kick + 1:
        # Below 2 whatever the chains: 0, all the threat rule needs to know.
        return 0
    # Depth-first over sets of solo chains, each chain (start, length) not
    # before the one it follows: a frame holds the hand left and the next
    # chain to try (in ``work``, 24 words).
    fh = work[0:8]
    fs = work[8:16]
    fl = work[16:24]
    fh[0] = hand
    fs[0] = 0
    fl[0] = 5
    d = 0
    sets = 0
    while d >= 0:
        h = fh[d]
        st = fs[d]
        ln = fl[d]
        found = False
        while st + 4 <= RANK_A:
            end = st + ln - 1
            ok = end <= RANK_A
            if ok:
                for i in range(st, end + 1):
                    if (h >> (4 * i)) & 15 == 0:
                        ok = False
                        break
            if ok:
                found = True
                break
            st += 1
            ln = 5
        if not found or d + 1 >= 8:
            d -= 1
            continue
        fs[d] = st
        fl[d] = ln + 1
        chain = 0
        for i in range(st, st + ln):
            chain += 1 << (4 * i)
        sets += 1
        if sets > LOW_SOLO_SETS:
            return 0
        rest = h - chain
        v = _lone_solos(rest, r)
        if v < best:
            best = v
        fh[d + 1] = rest
        fs[d + 1] = st
        fl[d + 1] = ln
        d += 1
    return best - kick if best > kick else 0


@kernel
def low_solo_covers(hand, r):
    """An upper bound on the number of plays of ``hand``, none sharing a
    card, that each beat a solo below rank ``r`` and are no such solo
    themselves: its cards of rank ``r`` and up (each a solo at most), and
    its bombs below ``r``."""
    n = 0
    for i in range(15):
        c = (hand >> (4 * i)) & 15
        if i >= r:
            n += c
        elif c == 4:
            n += 1
    return n


@kernel
def regains(a, b, top, flags, wk):
    """An upper bound on the number of plays of hand ``a``, none sharing a
    card, that each beat some play of hand ``b`` that is no solo below rank
    ``top`` (0 when no play of ``a`` beats one).

    Such a play is a bomb or the rocket, or beats a play of ``b`` of its own
    type and length, so its main rank (whose cards it holds) is above the
    lowest main rank ``m`` of the plays of ``b`` that ``a`` can beat with
    one of their type (read off ``a``'s answer profile): at most ``a``'s
    cards above ``m``, its bombs and its rocket.  Large when ``a`` or ``b``
    has more plays than the buffers hold."""
    sc, sk, prof, pbuf = wk.sc, wk.sk, wk.prof, wk.pbuf
    r1 = profile_row(prof, a, flags, pbuf)
    if r1 < 0:
        return 1 << 20
    n = gen_into_scratch(b, flags, 0, sc, sk, pbuf[2])
    if n > sc.shape[0]:
        return 1 << 20
    m = 99
    bombs = 0
    for i in range(13):
        if (a >> (4 * i)) & 15 == 4:
            bombs += 1
    if (a >> 52) == 0x11:
        bombs += 1
    beaten = False
    for i in range(n):
        k = sk[i]
        t = k & 31
        main = (k >> 5) & 15
        if t == T_SOLO and main < top:
            continue
        if t == T_BOMB or t == T_ROCKET:
            if not beaten and can_answer(a, flags, k, prof, pbuf):
                beaten = True
            continue
        beaten = True if bombs > 0 else beaten
        if main < m and ((prof[r1, 2 + t] >> (4 * ((k >> 9) & 15))) & 15) - 1 > main:
            m = main
            beaten = True
    if not beaten:
        return 0
    count = bombs
    for i in range(m + 1, 15):
        count += (a >> (4 * i)) & 15
    return count


@kernel
def _solo_threats_top(w, at):
    """The highest main rank of the threats profiled at ``w[at:]`` (see
    :func:`_threat_profile`) when they are all solos, else -1."""
    for t in range(PROF_W - 2):
        if t != T_SOLO and w[at + t] != 0:
            return -1
    return ((w[at + T_SOLO] >> 4) & 15) - 1


@kernel
def threat_rule(hands, turn, pk, lb, flags, wk, count):
    """2 when the farmer to move loses at once by the *threat rule*, else 0.
    Real three-player positions (every hand holding cards), a farmer to
    move who cannot go out with one play.

    The landlord's threats are his plays after which he surely wins (see
    :func:`_threat_profile`); a farmer's play is *safe* when no threat beats
    it.  Fix the landlord's strategy: he plays a threat as soon as one
    beats the play standing, and passes otherwise.  He wins as soon as he
    plays one, and he leads only after one (or, when the play standing now
    is his and both farmers pass, with his whole hand, which the rule then
    asks to be a control win).  Against that:

    * after farmer2's play the landlord is next, so farmer2 can go out only
      if his hand splits into safe plays and at most one more (a control
      split against the threats alone);
    * farmer1's play goes to farmer2 first, who may beat it with a safe play
      of his own (one of the same type and length at least as high as the
      threats of that type and length, or a bomb when no threat is one and
      the rocket is not a threat, a bomb above the threats' bombs when some
      threat is one, the rocket): so farmer1 can go out only if his hand
      splits into plays that are safe or that some safe play of farmer2
      beats, and at most one more.

    When neither holds, the farmers never go out: the landlord wins.  A
    split search that gives up shows nothing.

    With ``count`` not 0 and every threat a solo (as when the landlord holds
    one card), farmer1's condition is sharpened by counting.  Let r be the
    highest threat's rank: the threats beat the solos below r (*low* solos)
    and nothing else.  Each low solo farmer1 plays, but his last play, must
    be beaten by farmer2 before the landlord's turn, with a safe play (a
    card of rank r or above, or a bomb), and farmer2, who cannot go out,
    spends a different play on each.  So farmer1 goes out only if some
    split of his hand has at most one low solo more than farmer2 has such
    plays.  And after each such cover farmer2 holds the trick and plays
    only safe plays, so farmer1 plays again only by beating one of them,
    with a different play of his own each time.  So when the least low
    solos of any split (a lower bound, see :func:`low_solos_least`) exceed
    by two or more the most of farmer2's covers (an upper bound, see
    :func:`low_solo_covers`) or the most of farmer1's plays that win the
    trick back (an upper bound, see :func:`regains`), the landlord wins."""
    sc, prof, pbuf = wk.sc, wk.prof, wk.pbuf
    if (flags & F_FOUR) != 0:
        # Not under the four-player rules (see the module doc).
        return 0
    if laizi_held(hands, flags):
        # Laizi in a hand: not under natural_first, and without the count
        # (see the module doc).
        if (flags & F_NATURAL_FIRST) != 0:
            return 0
        count = 0
    w = pbuf[2]
    m = CW_MERGED
    keep = m + THREAT_KEEP
    one = m + THREAT_ONE
    # The node's merged profile, kept aside for its ordering.
    for t in range(PROF_W):
        w[keep + t] = w[m + t]
    res = 0
    tp = _threat_profile(hands, flags, w, one, wk)
    if tp == 2 or (tp == 1 and (pk == 0 or lb != 0)):
        # Farmer2 against the threats alone.
        for t in range(PROF_W - 2):
            w[m + t] = w[one + t]
        w[m + PROF_W - 2] = -1
        w[m + PROF_W - 1] = 3
        if control_split(hands, 2, hands[2], flags, 3, wk) == 0:
            lr = _solo_threats_top(w, one) if count != 0 else -1
            if lr >= 0:
                least = low_solos_least(hands[1], lr, sc)
                if least >= 2 and (least >= low_solo_covers(hands[2], lr) + 2
                                   or least >= regains(hands[1], hands[2], lr, flags, wk) + 2):
                    res = 2
            r2 = profile_row(prof, hands[2], flags, pbuf) if res == 0 else -1
            if r2 >= 0:
                # Farmer1 against what a threat beats and farmer2 cannot
                # beat with a safe play.
                xbomb = w[one + T_BOMB] >> 4
                fbomb = prof[r2, 2 + T_BOMB] >> 4
                frocket = prof[r2, 2 + T_ROCKET] != 0
                if w[one + T_ROCKET] != 0:
                    empty = False
                elif xbomb > 0:
                    empty = frocket or fbomb > xbomb
                else:
                    empty = frocket or fbomb > 0
                for t in range(PROF_W - 2):
                    x = w[one + t]
                    if empty:
                        x = 0
                    elif xbomb == 0 and t != T_ROCKET:
                        fw = prof[r2, 2 + t]
                        for i in range(15):
                            v = (x >> (4 * i)) & 15
                            if v != 0 and ((fw >> (4 * i)) & 15) >= v:
                                x &= ~(15 << (4 * i))
                    w[m + t] = x
                w[m + PROF_W - 2] = -1
                w[m + PROF_W - 1] = 2
                if control_split(hands, 1, hands[1], flags, 3, wk) == 0:
                    res = 2
    for t in range(PROF_W):
        w[m + t] = w[keep + t]
    return res
