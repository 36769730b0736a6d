"""``ddz play``: a whole game at the terminal against the bots, with hints.

The player sits in one seat, the bots (the heuristic, or the advisor on its
own view) in the others, under any variant the engine plays: the deal, the
auction (bids, or calls and grabs), under Happy Dou Dizhu the shows and the
doubles, the play and the settlement, all the engine's
(:class:`~ddz_tools.engines.game.Game`).  At each decision the player may ask
for a hint (the advisor, or ``ddz bid``'s evaluator of the decision), how a
play fares, the open-hand truth once the hands are small, undo, the history;
after each game come the score, the match, the review of the player's moves
and, on request, the report page.  Games are saved as ``ddz-record/1``.

The rooms, each of one concern:

* :mod:`~.bots` -- the players of the other seats;
* :mod:`~.session` -- :class:`Session`: the game stepped, the player's
  decisions, undo, saving and resuming;
* :mod:`~.hints` -- ``hint``, ``why`` and ``solve``;
* :mod:`~.screen` -- the table as 80 columns of text, in colour or plain;
* :mod:`~.console` -- the conversation: lines read, commands run, the match
  (:func:`play`, the function behind ``ddz play``).
"""

from .bots import DEFAULT_ADVISOR_SAMPLES, OPPONENTS, Bot, parse_opponents
from .console import COMMANDS, Console, MatchSummary, line_editing, play
from .hints import SOLVE_BELOW, Helper, advice_lines, verdict_lines
from .screen import WIDTH, Style, group_hand, history_lines, render, stake_text, use_colour
from .session import PLAYER_NAME, Decision, Event, PlayOptions, Session, read_match, resume

__all__ = [
    "OPPONENTS", "DEFAULT_ADVISOR_SAMPLES", "parse_opponents", "Bot", "PlayOptions", "Decision", "Event", "Session",
    "resume", "read_match", "PLAYER_NAME", "SOLVE_BELOW", "Helper", "advice_lines", "verdict_lines", "WIDTH",
    "Style", "use_colour", "group_hand", "render", "history_lines", "stake_text", "COMMANDS", "MatchSummary",
    "Console", "play", "line_editing",
]
