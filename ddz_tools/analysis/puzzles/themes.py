"""Themes of a puzzle, read off its solution line.

Each theme is a small function of the position and the line (a list of
:class:`~.format.Step`) that says whether the line shows it; only the
winning side's moves of role ``solve`` count as its ideas.  The names, as
``docs/puzzles.md`` describes them:

* ``bomb-timed``: the bomb held back and then timed: the winning side holds a
  bomb at the start, makes another play first, and later plays the bomb;
* ``partner-lead``: the lead handed to the partner: after a farmer's winning
  play the next free lead falls to the other farmer;
* ``two-early``: a 2 spent early to win the lead back: a play of 2s only, as
  an answer, among the winning side's first two moves, and the same player
  leads next;
* ``pair-split``: a single card played from a pair (the mover held exactly two
  of its rank);
* ``chain-broken``: a play that is not a chain, of a rank inside a chain of
  the mover's fewest-plays split (the decomposer's);
* ``rocket-last``: the rocket kept as the last control: the winning side plays
  the rocket and goes out with its next play;
* ``quiet-pass``: the only winning move is a pass (the winning side lets a
  play stand);
* ``bomb-kept``: the winning side holds a bomb or the rocket and wins without
  playing it, along a line where it ends the game.

>>> from ddz_tools.engines.position import Position
>>> from .format import Step
>>> p = Position.two_player("335", "4")
>>> detect_themes(p, [Step("me", "3", "solve"), Step("opponent", "4", "defence")])
['pair-split']
"""

from __future__ import annotations

from ...core.cards import RANK_2, count_of
from ...core.kinds import (T_AIRPLANE, T_AIRPLANE_PAIR, T_AIRPLANE_SOLO, T_BOMB, T_CHAIN, T_PAIR, T_PAIR_CHAIN,
                          T_ROCKET, T_SOLO)
from ...core.rules import Play
from ...engines.decompose import decompose
from ...engines.position import Position
from .format import side_of

__all__ = ["THEMES", "detect_themes", "walk"]

_CHAINS = (T_CHAIN, T_PAIR_CHAIN, T_AIRPLANE, T_AIRPLANE_SOLO, T_AIRPLANE_PAIR)


def walk(position: Position, steps: list) -> list:
    """``(position before, step, Play)`` for each step of a line."""
    out = []
    p = position
    for s in steps:
        play = Play.parse(s.play, p.rules)
        out.append((p, s, play))
        p = p.push(play)
        if p.is_over:
            break
    return out


def _is_bomb(play: Play) -> bool:
    return play.type in (T_BOMB, T_ROCKET)


def _holds_bomb(p: Position, seat: str) -> bool:
    from ...moves.movegen import generate

    return any(_is_bomb(m) for m in generate(p.packed(seat), rules=p.rules))


def _solves(position: Position, steps: list) -> list:
    return [(p, s, play) for p, s, play in walk(position, steps) if s.role == "solve"]


def bomb_timed(position: Position, steps: list) -> bool:
    """The winning side's first move is not a bomb and a later one is, held from the start."""
    moves = _solves(position, steps)
    if len(moves) < 2 or _is_bomb(moves[0][2]):
        return False
    return any(_is_bomb(play) and _holds_bomb(position, s.by) for _, s, play in moves[1:])


def partner_lead(position: Position, steps: list) -> bool:
    """After a farmer's winning play, the next free lead falls to the other farmer."""
    line = walk(position, steps)
    for i, (p, s, play) in enumerate(line):
        if s.role != "solve" or play.is_pass or p.team_of(s.by) != "farmers":
            continue
        for q, t, _ in line[i + 1:]:
            if q.is_lead:
                if t.by != s.by and q.team_of(t.by) == "farmers":
                    return True
                break
    return False


def two_early(position: Position, steps: list) -> bool:
    """A play of 2s only, answering, among the winning side's first two moves; its maker leads next."""
    line = walk(position, steps)
    solves = [i for i, (_, s, _) in enumerate(line) if s.role == "solve"][:2]
    for i in solves:
        p, s, play = line[i]
        if (play.is_pass or p.is_lead or play.type not in (T_SOLO, T_PAIR)
                or play.cards != count_of(play.cards, RANK_2) << (4 * RANK_2)):
            continue
        for q, t, _ in line[i + 1:]:
            if q.is_lead:
                if t.by == s.by:
                    return True
                break
    return False


def pair_split(position: Position, steps: list) -> bool:
    """A single card played from exactly two of its rank."""
    for p, s, play in _solves(position, steps):
        if play.type == T_SOLO and not p.rules.wild:
            ranks = [r for r in range(15) if count_of(play.cards, r)]
            if len(ranks) == 1 and count_of(p.packed(s.by), ranks[0]) == 2:
                return True
    return False


def chain_broken(position: Position, steps: list) -> bool:
    """A play that is no chain, of a rank inside a chain of the mover's fewest-plays split."""
    for p, s, play in _solves(position, steps):
        if play.is_pass or play.type in _CHAINS or p.rules.wild:
            continue
        split = decompose(p.packed(s.by), p.rules).plays
        chained = 0
        for q in split:
            if q.type in _CHAINS:
                chained |= q.body(p.rules)
        if any(count_of(play.cards, r) and count_of(chained, r) for r in range(15)):
            return True
    return False


def rocket_last(position: Position, steps: list) -> bool:
    """The winning side plays the rocket and goes out with its next play."""
    line = walk(position, steps)
    for i, (p, s, play) in enumerate(line):
        if s.role == "solve" and play.type == T_ROCKET:
            rest = [(q, t, x) for q, t, x in line[i + 1:] if t.by == s.by and not x.is_pass]
            if rest and rest[0][0].packed(s.by) == rest[0][2].cards:
                return True
    return False


def quiet_pass(position: Position, steps: list) -> bool:
    """The only winning move is a pass."""
    return any(play.is_pass for _, _, play in _solves(position, steps))


def bomb_kept(position: Position, steps: list) -> bool:
    """A bomb or the rocket held by the winning side and never played, along a line that ends the game."""
    line = walk(position, steps)
    if not line or not line[-1][0].push(line[-1][2]).is_over:
        return False
    side = side_of(position)
    holders = [s for s in position.seats if position.team_of(s) == side and _holds_bomb(position, s)]
    played = {s.by for _, s, play in line if _is_bomb(play)}
    return bool(holders) and not played & set(holders)


#: Theme name -> its test, in the order themes are listed.
THEMES = {
    "bomb-timed": bomb_timed,
    "partner-lead": partner_lead,
    "two-early": two_early,
    "pair-split": pair_split,
    "chain-broken": chain_broken,
    "rocket-last": rocket_last,
    "quiet-pass": quiet_pass,
    "bomb-kept": bomb_kept,
}


def detect_themes(position: Position, steps: list) -> list:
    """The names of the themes the line shows, in :data:`THEMES` order."""
    return [name for name, test in THEMES.items() if test(position, steps)]
