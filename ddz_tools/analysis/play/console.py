"""The conversation at the table: the player's lines read, the commands run,
the bots' actions and the screen written (the function behind ``ddz play``).

:func:`play` runs a match on any pair of streams: ``ask(prompt)`` reads one
line (``input`` at a terminal, with :func:`line_editing`; a list's lines in
the tests), ``out`` takes the text.  At each decision the player types an
answer (a bid, ``call``, ``x2``, ``show``/``no``, a play in the project's
notation, ``pass``) or a command (:data:`COMMANDS`).  A bad line gets one
line back naming what is wrong, and the game is unchanged.  A play of bare
cards that reads several ways here (kickers, an airplane's wings, what the
wild cards stand for) is answered with the numbered readings to choose from.

After each game: the score, the match so far, the review of the player's
moves (each one :func:`~ddz_tools.analysis.review.review_record` flags, as
``ddz analyze --review open`` does) and, on request, the ``ddz report``
page.  The match is saved to a ``ddz-record/1`` file after every game, on
``save`` and on ``quit``.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Callable

from ...core.cards import contains
from ...core.errors import ArgumentError, DdzError, IllegalAction
from ...core.rules import Play, beats, has_fixed_reading, play_text_cards
from ...engines.game.reading import best_reading, reading_kinds
from ...engines.records import parse_record
from .hints import Helper
from .screen import Style, history_lines, render
from .session import PlayOptions, Session, resume

__all__ = ["COMMANDS", "MatchSummary", "Console", "play", "line_editing"]

#: The commands at any decision, and what each does.
COMMANDS = {
    "hint": "the advisor's (or in the auction and the stakes the bid evaluator's) answer, with its table",
    "why X": "how the play or choice X fares, beside the best",
    "undo": "take back your last decision",
    "history": "every action of this deal",
    "solve": "the open-hand truth, once every hand is small",
    "save [FILE]": "save the match (ddz-record/1)",
    "quit": "save and stop",
    "look": "the table again",
    "help": "this list",
}
_AFTER = "after the game: enter (or next) deals the next game; report [DIR] writes the report page; quit stops"


@dataclasses.dataclass
class MatchSummary:
    """What a match came to: the games finished, each seat's total, the file
    saved, and the rules played."""

    rules: str
    seat: int
    games: int
    scores: tuple
    saved: "str | None"
    report: "str | None" = None

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


class Console:
    """One match at the terminal (see the module doc)."""

    def __init__(self, session: Session, ask: Callable[[str], str], out, style: "Style | None" = None,
                 save_path: "str | None" = None, earlier: "list | None" = None, review: bool = True,
                 progress: "Callable[[str], None] | None" = None):
        self.s = session
        self.ask = ask
        self.out = out
        self.style = style or Style(False)
        self.save_path = save_path
        self.earlier = list(earlier or [])
        self.review = review
        self.progress = progress
        self.helper = Helper(session)
        self.choices: list = []
        self.report: "str | None" = None

    # Output ----------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.say(self.style.bad(f"error: {text}"))

    def _events(self) -> None:
        for ev in self.s.take_events():
            if ev.kind == "end":
                self.say(self.style.bold(ev.text))
            elif ev.kind == "deal":
                self.say(self.style.note(ev.text))
            else:
                self.say(("  " if ev.seat != self.s.seat else "> ") + ev.text)

    # The loop --------------------------------------------------------------------------------
    def run(self) -> MatchSummary:
        """Play until the player quits (or the input ends); the match saved."""
        fresh = True
        self._events()
        while True:
            for _ in self.s.steps():
                self._events()
            self._events()
            if self.s.finished:
                if not self._after_game():
                    return self._summary()
                fresh = True
                continue
            d = self.s.decision()
            if fresh:
                self.say(render(self.s, self.style))
                fresh = False
            line = self._read(d.prompt)
            if line is None:
                self._save()
                return self._summary()
            try:
                fresh = self._line(line.strip())
            except StopIteration:
                return self._summary()
            except DdzError as exc:
                self.error(str(exc).splitlines()[0])
            except KeyboardInterrupt:       # Ctrl-C stops a long hint, not the game
                self.say("")
                self.error("interrupted")

    def _read(self, prompt: str) -> "str | None":
        try:
            return self.ask(f"{prompt} > ")
        except (EOFError, KeyboardInterrupt):     # the end of the input, or Ctrl-C at the prompt: stop
            self.say("")
            return None

    def _line(self, line: str) -> bool:
        """Run one line of the player's; True when the screen is to be drawn again."""
        if not line:
            return False
        word, _, rest = line.partition(" ")
        cmd = word.lower()
        if self.choices and line.isdigit():
            k = int(line)
            if not 1 <= k <= len(self.choices):
                raise IllegalAction("bad_choice", f"choose 1 to {len(self.choices)}, or type another play")
            play, self.choices = self.choices[k - 1], []
            self.s.act(play)
            return True
        self.choices = []
        if cmd in ("help", "?"):
            width = max(len(c) for c in COMMANDS)
            for c, what in COMMANDS.items():
                self.say(f"  {c.ljust(width)}  {what}")
            self.say("  answer a bid with pass or 1..3, a call with call/grab or pass, a double with x1/x2/x4, "
                     "a show with show or no,")
            self.say("  a play in the cards' notation (3 4 5 6 7 8 9 T J Q K A 2 X D; 333-4 fixes a reading) or pass")
            return False
        helpers = {"hint": ("thinking...", self.helper.hint), "why": ("thinking...", lambda: self.helper.why(rest)),
                   "solve": ("solving...", self.helper.solve)}
        if cmd in helpers:
            busy, answer = helpers[cmd]
            self._busy(busy)
            for text in answer():
                self.say(text)
            return False
        if cmd == "undo":
            if not self.s.undo():
                raise IllegalAction("bad_undo", "nothing of yours to undo in this deal")
            self.say(self.style.note("undone: back to your decision"))
            return True
        if cmd == "history":
            for text in history_lines(self.s):
                self.say(text)
            return False
        if cmd in ("look", "table"):
            return True
        if cmd == "save":
            self._save(rest.strip() or None)
            return False
        if cmd in ("quit", "exit", "q"):
            self._save()
            raise StopIteration
        d = self.s.decision()
        if d.kind == "play":
            readings = self._readings(line)
            if readings:
                self.choices = readings
                self.say(f"{line} reads {len(readings)} ways here; choose one:")
                for i, p in enumerate(readings, 1):
                    self.say(f"  {i}. {p.notation(self.s.game.rules)}")
                return False
        self.s.act(line)
        return True

    def _busy(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    def _readings(self, text: str) -> list:
        """The readings of bare cards that are legal here, the engine's default
        first, when there are several; else none."""
        g = self.s.game
        if has_fixed_reading(text) or text.lower() in ("pass", "p", "-"):
            return []
        try:
            cards = play_text_cards(text, g.variant.table.decks)
        except DdzError:
            return []
        hand = g.hands[self.s.seat]
        if not cards or not contains(hand, cards):
            return []
        flags = g.rules.flags
        prev = 0 if g.last_play is None else g.last_play.kind
        kinds = [k for k in reading_kinds(cards, flags, hand) if prev == 0 or beats(k, prev, flags)]
        if len(kinds) < 2:
            return []
        first = best_reading(cards, prev, flags, hand)
        kinds.sort(key=lambda k: (k != first, -k))
        return [Play(cards, k) for k in kinds]

    # Saving, the end of a game ----------------------------------------------------------------
    def _save(self, path: "str | None" = None) -> None:
        if path is not None:
            self.save_path = path
        if self.save_path is None:
            return
        try:
            self.s.save(self.save_path, self.earlier)
        except OSError as exc:
            raise IllegalAction("bad_save", f"{self.save_path}: {exc.strerror or exc}") from None
        self.say(self.style.note(f"saved to {self.save_path}"))

    def _after_game(self) -> bool:
        """The score, the match, the review, the report on request; False to stop."""
        s = self.s
        g = s.game
        rows = []
        totals = s.match_scores()
        for seat in range(s.variant.seats):
            rows.append(f"  {s.name(seat):<20} {g.result.scores[seat]:+6d} {totals[seat]:+8d}")
        self.say(f"  {'seat':<20} {'game':>6} {'match':>8}")
        for r in rows:
            self.say(r)
        self._save()
        if self.review:
            for text in self._review_lines():
                self.say(text)
        record = s.record()
        while True:
            line = self._read("next game? (enter, report [DIR], quit)")
            if line is None:
                return False
            word, _, rest = line.strip().partition(" ")
            word = word.lower()
            if word in ("", "next", "n", "y", "yes"):
                self.earlier.append(record)
                s.new_game()
                self.helper = Helper(s)
                return True
            if word in ("quit", "exit", "q"):
                return False
            if word == "report":
                self._write_report(rest.strip() or None)
                continue
            if word in ("history",):
                for text in history_lines(s):
                    self.say(text)
                continue
            self.error(_AFTER)

    def _review_lines(self) -> list:
        from ..review import review_record

        s = self.s
        self._busy("reviewing your moves...")
        try:
            r = review_record(parse_record(s.record()), "open", node_limit=s.options.review_nodes)
        except DdzError as exc:
            return [f"review: {exc}"]
        mine = [m for m in r.moves if m.seat == s.seat]
        flagged = [m for m in mine if m.flag]
        unknown = sum(1 for m in mine if m.open_before == "unknown")
        out = [f"review (open hands, as ddz analyze --review open): {len(mine)} moves of yours, "
               f"{len(flagged)} flagged, {unknown} not settled by the solver"]
        for m in flagged:
            better = ", ".join(m.better[:6]) + (" ..." if len(m.better) > 6 else "")
            out.append(self.style.bad(f"  move {m.move}: you played {m.play}: {m.flag} (it lost a won game; "
                                      f"winning: {better})"))
        return out

    def _write_report(self, folder: "str | None") -> None:
        from ..report import write_report

        if self.save_path is None:
            raise IllegalAction("bad_report", "the report reads the saved match: save it first (save FILE)")
        folder = folder or os.path.splitext(self.save_path)[0] + "-report"
        self._busy("writing the report...")
        try:
            out = write_report([self.save_path], folder, force=True, review="open",
                               review_nodes=self.s.options.review_nodes)
        except (DdzError, OSError) as exc:
            self.error(f"report: {exc}")
            return
        self.report = out["index"]
        self.say(self.style.note(f"report written: {out['index']}"))

    def _summary(self) -> MatchSummary:
        s = self.s
        return MatchSummary(s.base_rules.describe(), s.seat, len(s.match), s.match_scores(), self.save_path,
                            self.report)


def play(options: PlayOptions = PlayOptions(), ask: Callable[[str], str] = input, out=None,
         style: "Style | None" = None, save: "str | None" = None, resume_from: "str | None" = None,
         review: bool = True, progress: "Callable[[str], None] | None" = None) -> MatchSummary:
    """Play a match of ``options`` (or go on with the saved one ``resume_from``,
    whose seat, bots and seed are kept) reading the player's lines with
    ``ask`` and writing to ``out`` (see the module doc); the match is saved to
    ``save`` (default: the resumed file, else ``ddz-play-SEED.jsonl``, or
    ``ddz-play-SEED-2.jsonl`` and so on when that exists; a new match refuses
    to write over a ``save`` file that exists).
    Returns the :class:`MatchSummary`."""
    import sys

    out = out or sys.stdout
    if resume_from is not None:
        session, earlier = resume(resume_from, hint_samples=options.hint_samples, bid_samples=options.bid_samples,
                                  review_nodes=options.review_nodes, solve_nodes=options.solve_nodes)
        save = save or resume_from
    else:
        if save is not None and os.path.exists(save):
            raise ArgumentError(f"{save} exists: --resume {save} goes on with that match, or give another --save")
        session, earlier = Session(options), []
        save = save or _free_name(f"ddz-play-{options.seed}", ".jsonl")
    console = Console(session, ask, out, style, save, earlier, review, progress)
    return console.run()


def _free_name(stem: str, ext: str) -> str:
    """``stem + ext``, or the first of ``stem-2 + ext``, ``stem-3 + ext``, ... that
    does not exist (a new match never writes over an old one)."""
    name, k = stem + ext, 1
    while os.path.exists(name):
        k += 1
        name = f"{stem}-{k}{ext}"
    return name


def line_editing(history: "str | None" = None) -> None:
    """Line editing and a history of the lines typed (readline), when the
    input is a terminal; ``history`` is the file that keeps it across runs."""
    import sys

    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:     # no readline on this platform: plain input
        return
    if history:
        try:
            readline.read_history_file(history)
        except OSError:
            pass
        readline.set_history_length(1000)
        import atexit

        def _keep():
            try:
                readline.write_history_file(history)
            except OSError:
                pass

        atexit.register(_keep)


