"""Plain-Python reference replay of a ``ddz-record/1`` game (tests only).

The slow twin of :class:`ddz_tools.engines.game.Game` and of the batch kernel
``ddz_tools.engines.records.validate._validate_games``, written again from docs/rules.md and the
record format: hands are lists of 15 rank counts, the bidding is written as
"who may still speak" lists, and a play is classified with the reference
classifier of ``tests/naive.py`` (every reading of a multiset by the rules
table), never with the package's generator or ``rules.readings``.

Four-player records (two decks, four seats) take the plays of the reference
``tests/naive_four.py`` and the stake table of ``naive_gamerules.FOUR_FACTORS``.

It shares with the package only the documented names of the error codes
and the documented choice of reading for bare cards (largest body length,
then main rank, then type number).
"""

from __future__ import annotations

import naive_four
from naive import TYPE_OF_NAME, decode, naive_beats, naive_readings, pack
from naive_gamerules import bomb_factor

from ddz_tools.core.rules import Rules

RANK_TEXT = "3456789TJQKA2XD"
# Cards of each body rank, by type name (docs/rules.md table).
_PER = {"solo": 1, "pair": 2, "trio": 3, "trio_solo": 3, "trio_pair": 3, "chain": 1, "pair_chain": 2,
        "airplane": 3, "airplane_solo": 3, "airplane_pair": 3, "four_two_solo": 4, "four_two_pair": 4,
        "bomb": 4, "four_solo": 4, "four_pair": 4}


class Bad(Exception):
    def __init__(self, code):
        self.code = code


def parse(text: str, decks: int = 1) -> list:
    """Rank counts of card text (of ``decks`` decks); ``Bad("bad_cards")`` for anything else."""
    counts = [0] * 15
    for ch in text.upper():
        if ch in " ,":
            continue
        if ch not in RANK_TEXT:
            raise Bad("bad_cards")
        counts[RANK_TEXT.index(ch)] += 1
    if any(c > (1 if r >= 13 else 4) * decks for r, c in enumerate(counts)):
        raise Bad("bad_cards")
    return counts


def body_counts_four(kind: int, rules: Rules) -> list:
    """The body of a four-player trio + pair or airplane with pair wings (the
    plays with kickers): the trio's rank, or the run of the chain sequence
    whose stored main is the kind's."""
    name, main, length = decode(kind)
    body = [0] * 15
    if length == 1:
        body[main] = 3
        return body
    for ranks, top in naive_four.runs(rules, length):
        if top == main:
            for r in ranks:
                body[r] += 3
    return body


def body_counts(kind: int) -> list:
    name, main, length = decode(kind)
    body = [0] * 15
    if name == "rocket":
        body[13] = body[14] = 1
        return body
    for r in range(main - length + 1, main + 1):
        body[r] = _PER[name]
    return body


def auction(bids, first: int, mode: str, all_pass: str, forced=(), seats: int = 3):
    """(landlord, base) or raises Bad(code, at index); None landlord = void/unfinished.
    ``forced``: the seats that must call (``must_call``): their pass is a bad
    bid while nobody has called or bid.  ``seats``: at the table (3 or 4)."""
    for i, (s, v) in enumerate(bids):
        if v == 0 and s in forced and all(b == 0 for _, b in bids[:i]):
            # Only a bad bid if the pass is in turn and the auction still open:
            # those errors come first, so run the auction up to here.
            auction(bids[:i], first, mode, all_pass, (), seats)
            if i < seats and (first + i) % seats == s:
                raise Bad(("bad_bid", i))
    if mode == "first-call":
        for i, (s, v) in enumerate(bids):
            if s != (first + i) % seats:
                raise Bad(("wrong_turn", i))
            if v not in (0, 1):
                raise Bad(("bad_bid", i))
            if v == 1:
                if i + 1 < len(bids):
                    raise Bad(("not_bidding", i + 1))
                return s, 1
            if i == seats - 1:
                return _all_pass(bids, seats, all_pass)
        return None, "unfinished"
    if mode == "call-grab":
        order = [(first + k) % seats for k in range(seats)]
        i = 0
        caller = None
        for seat in order:                       # the call round
            if i >= len(bids):
                return None, "unfinished"
            s, v = bids[i]
            if s != seat:
                raise Bad(("wrong_turn", i))
            if v not in (0, 1):
                raise Bad(("bad_bid", i))
            i += 1
            if v == 1:
                caller = seat
                break
        if caller is None:
            return _all_pass(bids, i, all_pass)
        holder, grabs = caller, 0
        speakers = order[order.index(caller) + 1:]
        for seat in speakers:                    # grabs by the later seats
            if i >= len(bids):
                return None, "unfinished"
            s, v = bids[i]
            if s != seat:
                raise Bad(("wrong_turn", i))
            if v not in (0, 1):
                raise Bad(("bad_bid", i))
            if v:
                holder, grabs = seat, grabs + 1
            i += 1
        if grabs:                                # the caller's last word
            if i >= len(bids):
                return None, "unfinished"
            s, v = bids[i]
            if s != caller:
                raise Bad(("wrong_turn", i))
            if v not in (0, 1):
                raise Bad(("bad_bid", i))
            if v:
                holder, grabs = caller, grabs + 1
            i += 1
        if i < len(bids):
            raise Bad(("not_bidding", i))
        return holder, 2 ** grabs
    # Numeric bids: who may still speak, in order.
    out = set()
    high, holder = 0, None
    seat = first
    spoken = 0
    for i, (s, v) in enumerate(bids):
        finished = (high == 3) or (mode == "single-round" and spoken == seats) or \
            (mode == "until-two-pass" and (len(out) == seats or (holder is not None and len(out) == seats - 1)))
        if finished:
            raise Bad(("not_bidding", i))
        if s != seat:
            raise Bad(("wrong_turn", i))
        if not isinstance(v, int) or isinstance(v, bool) or not (v == 0 or high < v <= 3):
            raise Bad(("bad_bid", i))
        spoken += 1
        if v:
            high, holder = v, s
        else:
            out.add(s)
        seat = (s + 1) % seats
        if mode == "until-two-pass":
            while seat in out and len(out) < seats:
                seat = (seat + 1) % seats
    done = high == 3 or (mode == "single-round" and spoken == seats) or \
        (mode == "until-two-pass" and (len(out) == seats or (holder is not None and len(out) == seats - 1)))
    if not done:
        return None, "unfinished"
    if holder is None:
        return _all_pass(bids, len(bids), all_pass)
    return holder, high


def _all_pass(bids, i, all_pass):
    if i < len(bids):
        raise Bad(("not_bidding", i))
    return (0, 1) if all_pass == "seat0" else (None, "void")


def naive_replay(rec: dict) -> dict:
    """Replay a record dict: ``{"status", "code", "phase", "index", "scores", ...}``."""
    rules = Rules.from_dict(rec.get("rules"))
    seats, decks, four = rules.seats, rules.decks, rules.seats == 4
    hands = [parse(h, decks) for h in rec["deal"]["hands"]]
    bottom = parse(rec["deal"]["bottom"], decks)
    bids = [(b["seat"], b["bid"]) for b in rec["bids"]]
    try:
        landlord, base = auction(bids, rec["first_bidder"], rules.bidding, rec.get("all_pass", "redeal"),
                                 seats=seats)
    except Bad as exc:
        code, i = exc.code
        return {"status": "invalid", "code": code, "phase": "bid", "index": i}
    plays = rec["plays"]
    if landlord is None:
        if plays:
            return {"status": "invalid", "code": "not_playing", "phase": "play", "index": 0}
        return {"status": "incomplete", "code": None}
    hands[landlord] = [a + b for a, b in zip(hands[landlord], bottom)]
    turn, last, passes = landlord, None, 0
    bombs, mult, n_played = 0, 1, [0] * seats
    winner = None
    for i, p in enumerate(plays):
        seat, text = p["seat"], p["cards"].strip()

        def bad(code):
            return {"status": "invalid", "code": code, "phase": "play", "index": i}
        if winner is not None:
            return bad("game_over")
        if seat != turn:
            return bad("wrong_turn")
        if text in ("", "-") or text.lower() in ("pass", "p"):
            if last is None:
                return bad("pass_on_lead")
            passes += 1
            if passes == seats - 1:          # everyone else passed: the last player leads
                last, passes = None, 0
            turn = (turn + 1) % seats
            continue
        try:
            if "-" in text:
                body_t, _, kick_t = text.partition("-")
                body, kick = parse(body_t, decks), parse(kick_t, decks)
                cards = [a + b for a, b in zip(body, kick)]
                if any(c > (1 if r >= 13 else 4) * decks for r, c in enumerate(cards)):
                    raise Bad("bad_cards")
            else:
                body, cards = None, parse(text, decks)
        except Bad as exc:
            return bad(exc.code)
        if any(c > h for c, h in zip(cards, hands[seat])):
            return bad("not_in_hand")
        if four:
            found = [k for _, k in naive_four.naive_readings(pack(cards), rules)]
            if body is not None:
                found = [k for k in found if decode(k)[0] in ("trio_pair", "airplane_pair")
                         and body_counts_four(k, rules) == body]
        else:
            found = [k for _, k in naive_readings(pack(cards), rules)]
            if body is not None:
                found = [k for k in found if body_counts(k) == body]
        if not found:
            return bad("not_a_combination")
        legal = [k for k in found if last is None
                 or (naive_four.naive_beats(k, last, rules) if four else naive_beats(k, last))]
        if not legal:
            return bad("does_not_beat")
        # Bare cards: the longest body, then the highest main rank, then the type number.
        kind = max(legal, key=lambda k: (decode(k)[2], decode(k)[1], TYPE_OF_NAME[decode(k)[0]]))
        hands[seat] = [h - c for h, c in zip(hands[seat], cards)]
        n_played[seat] += 1
        factor = bomb_factor(kind, False, rules.bomb_doubles if four else None)
        if factor > 1:
            bombs += 1
            mult *= factor
        last, passes = kind, 0
        if not any(hands[seat]):
            winner = seat
        turn = (turn + 1) % seats
    if winner is None:
        return {"status": "incomplete", "code": None}
    farmers = [s for s in range(seats) if s != landlord]
    if winner == landlord:
        losers_silent = [n_played[f] == 0 for f in farmers]
        if (any if rules.spring == "any-player" else all)(losers_silent):
            mult *= 2
    elif n_played[landlord] == 1:
        mult *= 2
    stake = base * mult
    sign = 1 if winner == landlord else -1
    scores = [(len(farmers) if s == landlord else -1) * stake * sign for s in range(seats)]
    return {"status": "ok", "code": None, "landlord": landlord, "base": base, "scores": scores,
            "multiplier": mult, "bombs": bombs}
