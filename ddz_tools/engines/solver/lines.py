"""The principal line and the strategy tree of a solved position.

Both are read off an :class:`~.probing.Prober`'s exact values: at each turn
the winner's winning play (:meth:`~.probing.Prober._best`) and, for the
line, the loser's first play in search order; the strategy tree lists every
legal play of the loser and one winning play of the winner at each of his
turns.
"""

from __future__ import annotations

from ...core.errors import ArgumentError
from .engine import State, notation, team_of

__all__ = ["principal_line", "strategy_tree"]


def principal_line(eng, root: State, nplayers: int, flags: int, seats, first=None) -> tuple[list, list]:
    """Principal line from ``root`` as ``eng`` (a :class:`~.probing.Prober`)
    finds it: at each turn the winner's winning play found by its
    :meth:`~.probing.Prober._best` (``first`` at the root when given), the
    loser's first play in search order.  Returns (plays, the seats that
    make them)."""
    plays, by = [], []
    st = root
    for step in range(400):
        if step == 0 and first is not None:
            chosen = first
        else:
            v, chosen, _ = eng._best(st, nplayers, flags)
            if not v:
                chosen = eng._moves(st, nplayers, flags)[0]
        plays.append(notation(chosen, flags))
        by.append(seats[st.turn])
        st = eng._child(st, chosen, nplayers)
        if st is None:
            break
    return plays, by


def strategy_tree(eng, st: State, nplayers: int, flags: int, seats, budget: list, first=None) -> dict:
    """The winning strategy of the team to move at the root (or of the
    other team if the root is lost): one winning play for the winner
    (``first`` at the root when given), every legal play for the loser;
    at most ``budget[0]`` nodes (an :class:`ArgumentError` past it)."""
    won = first is not None or eng._best(st, nplayers, flags)[0]
    winner_team = team_of(st.turn, nplayers) if won else 1 - team_of(st.turn, nplayers)
    return _subtree(eng, st, nplayers, flags, seats, budget, winner_team, first)


def _subtree(eng, st, nplayers, flags, seats, budget, winner_team, first=None) -> dict:
    budget[0] -= 1
    if budget[0] < 0:
        raise ArgumentError("the strategy tree is larger than the node cap; raise strategy_max_nodes",
                            param="strategy_max_nodes")
    seat = seats[st.turn]
    if team_of(st.turn, nplayers) == winner_team:
        mv = first if first is not None else eng._best(st, nplayers, flags)[1]
        if mv is None:
            raise AssertionError("winning side without a winning play")
        child = eng._child(st, mv, nplayers)
        node = {"by": seat, "play": notation(mv, flags)}
        node["then"] = None if child is None else _subtree(eng, child, nplayers, flags, seats, budget, winner_team)
        return node
    replies = {}
    for mv in eng._moves(st, nplayers, flags):
        child = eng._child(st, mv, nplayers)
        replies[notation(mv, flags)] = (None if child is None
                                        else _subtree(eng, child, nplayers, flags, seats, budget, winner_team))
    return {"by": seat, "replies": replies}
