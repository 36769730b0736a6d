"""The table as text: what the player sees at each decision, in 80 columns.

:func:`render` draws the screen of a :class:`~.session.Session`: the match
so far, each other seat (its role, its bot, how many cards it holds, its hand
when shown), the bottom once turned (to the seats that see it), the wild
ranks shown, the stake so far, the plays on the table and the player's hand
sorted and grouped by rank.  :class:`Style` colours it where the terminal
has colour (:func:`use_colour`), and leaves it plain otherwise.

>>> group_hand("33345578TTJQKA2XD")
'333 4 55 7 8 TT J Q K A 2 X D'
>>> Style(False).bold("x"), Style(True).bold("x")
('x', '\\x1b[1mx\\x1b[0m')
"""

from __future__ import annotations

import itertools
import os
import textwrap

from ...core.cards import format_cards
from ...engines.game import BIDDING, DOUBLING, FINISHED
from ...engines.game.scoring import public_multiple
from ..advise.parse import bottom_seen

__all__ = ["WIDTH", "Style", "use_colour", "group_hand", "render", "history_lines", "stake_text"]


#: The screen's width in columns.
WIDTH = 80


class Style:
    """ANSI colours when ``colour`` is on, the text as it is otherwise."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}

    def __init__(self, colour: bool = False):
        self.colour = colour

    def paint(self, text: str, *names: str) -> str:
        if not self.colour or not text:
            return text
        return "\x1b[" + ";".join(self.CODES[n] for n in names) + "m" + text + "\x1b[0m"

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def good(self, text: str) -> str:
        return self.paint(text, "green")

    def bad(self, text: str) -> str:
        return self.paint(text, "red")

    def note(self, text: str) -> str:
        return self.paint(text, "cyan")


def use_colour(stream, environ=None) -> bool:
    """Colour on ``stream``: a terminal (not a pipe or a file), with neither
    ``NO_COLOR`` set nor ``TERM=dumb``."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def group_hand(cards: str, wild: str = "", style: "Style | None" = None) -> str:
    """Cards as text (sorted, as :func:`~ddz_tools.core.cards.format_cards`
    writes them) grouped by rank; the wild ranks (``wild``, rank letters)
    and the controls (2s and jokers) stand out in colour."""
    style = style or Style(False)
    groups = []
    for rank, run in itertools.groupby(cards):
        text = "".join(run)
        if rank in wild:
            text = style.paint(text, "bold", "yellow")
        elif rank in "2XD":
            text = style.paint(text, "bold", "red")
        groups.append(text)
    return " ".join(groups)


def stake_text(g) -> str:
    """The stake so far: the base times the multiple of the bombs, the shows,
    the bottom bonus, and the seats' doubles where the rules have them."""
    if g.landlord is None:
        return "stake: the auction is open" + (f" (shows x{g.show_multiple})" if g.shows else "")
    bonus = g.bottom_bonus_now()
    m = public_multiple(g.doublings)
    parts = [f"base {g.base}"]
    if g.bombs:
        parts.append(f"bombs x{m}")
    if g.shows:
        parts.append(f"shows x{g.show_multiple}")
    if bonus != 1:
        parts.append(f"bottom x{bonus}")
    total = g.base * public_multiple(g.doublings, g.show_multiple, bonus)
    text = "stake: " + " x ".join(parts) + f" = {total}"
    if g.variant.stake.doubles and any(d is not None for d in g.doubles):
        text += "; doubles " + " ".join(f"x{d}" if d else "?" for d in g.doubles)
    return text


def _table_lines(s, style: Style) -> list:
    """The plays of the trick on the table, oldest first (the bids and the
    stakes before the play)."""
    g = s.game
    if g.phase == BIDDING:
        words = [f"{s.name(seat)}: {'pass' if v == 0 else v}" for seat, v in g.bids]
        return ["auction: " + ("; ".join(words) if words else "no bid yet")]
    if g.phase == DOUBLING:
        done = [f"{s.name(seat)}: x{d}" for seat, d in enumerate(g.doubles) if d is not None]
        return ["doubles: " + ("; ".join(done) if done else "none yet")]
    trick = []
    for seat, p in reversed(g.plays):
        trick.append((seat, p))
        if len(trick) >= s.variant.seats or (not p.is_pass and seat == g.turn):
            break
    if not trick:
        return ["table: empty (the landlord leads)"]
    words = []
    for seat, p in reversed(trick):
        text = "pass" if p.is_pass else p.notation(g.rules)
        words.append(f"{s.name(seat)} {style.dim(text) if p.is_pass else style.bold(text)}")
    return ["table: " + " . ".join(words)]


def _wrap(text: str, indent: str = "  ") -> list:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def render(s, style: "Style | None" = None) -> str:
    """The screen of session ``s`` (see the module doc), lines of at most
    :data:`WIDTH` columns (not counting colour codes)."""
    style = style or Style(False)
    g = s.game
    n = s.variant.seats
    mine = s.match_scores()[s.seat]
    head = (f"-- ddz play: rules {s.base_rules.describe()}, game {s.index + 1}, "
            f"match {'+' if mine > 0 else ''}{mine} ")
    lines = [style.bold(head + "-" * max(0, WIDTH - len(head)))]
    for k in range(1, n):
        seat = (s.seat + k) % n
        cards = len(g.hand(seat))
        line = f"{s.name(seat)}, {s.bot.name}: {cards} card{'s' if cards != 1 else ''}"
        if seat in g.shown:
            line += " shown: " + g.hand(seat)
        lines += _wrap(line)
    wild = g.rules.wild_text() if g.rules.wild else ""
    info = []
    if g.landlord is not None and g.bottom and bottom_seen(s.variant, s.seat == g.landlord):
        info.append(f"bottom: {format_cards(g.bottom)}")
    if wild:
        info.append(f"wild: {style.paint(wild, 'bold', 'yellow')}")
    info.append(stake_text(g))
    lines += _wrap("; ".join(info))
    if g.phase != FINISHED:
        lines += _wrap(_table_lines(s, style)[0])
    hand = g.hand(s.seat)
    lines += _wrap(f"{style.bold(s.name(s.seat))}, {len(hand)} cards: "
                   f"{group_hand(hand, _wild_letters(wild), style)}", "    ")
    return "\n".join(lines)


def _wild_letters(wild: str) -> str:
    """The rank letters of a wild text (``"5,9"`` -> ``"59"``)."""
    return wild.replace(",", "").replace(" ", "")


def history_lines(s) -> list:
    """Every action of the deal so far, one a line: the shows, the auction,
    the draws, the doubles and the plays, numbered as ``ddz analyze`` numbers
    the moves (1 is the landlord's first lead)."""
    out = []
    move = 0
    for action in s.actions:
        if action[0] == "play":
            move += 1
            out.append(f"{move:3d}. {s.action_text(action, action[2])}")
        elif action[0] != "no-show" or action[1] == s.seat:
            out.append(f"     {s.action_text(action)}")
    return out or ["nothing yet: the cards are dealt"]
