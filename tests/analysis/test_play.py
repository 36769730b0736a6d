"""``ddz play``'s session without a terminal: whole games under every preset,
undo, saving and resuming, the ambiguous plays, the commands and the screen
(ddz_tools.analysis.play; the real program in a terminal is
tests/cli/test_play_terminal.py)."""

from __future__ import annotations

import io
import json

import pytest

from ddz_tools.analysis.play import (Console, PlayOptions, Session, Style, group_hand, history_lines, play,
                                     read_match, render, resume, use_colour)
from ddz_tools.core.errors import ArgumentError, IllegalAction, RecordError
from ddz_tools.core.rules import PRESETS
from ddz_tools.engines.records import parse_record, replay_record, validate_batch
from ddz_tools.variants import variant_of

FAST = dict(hint_samples=16, bid_samples=64, review_nodes=2000)


def simple_answer(s: Session, d):
    """A plain player: the lowest legal play (passing when it may), the last option elsewhere."""
    if d.kind == "play":
        legal = s.game.legal_plays()
        return legal[0]
    return d.options[-1]


def play_out(s: Session, answer=simple_answer, limit: int = 400) -> list:
    """Play the session's game to its end; the decisions met."""
    kinds = []
    for _ in range(limit):
        d = s.advance()
        if d is None:
            return kinds
        kinds.append(d.kind)
        s.act(answer(s, d))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_whole_game_under_every_preset_replays_ok(preset):
    for seat in range(variant_of(preset).seats)[:2]:
        s = Session(PlayOptions(rules=preset, seat=seat, seed=11))
        kinds = play_out(s)
        assert s.finished and kinds
        rec = s.record()
        assert rec["players"][seat] == "you" and rec["play"]["seat"] == seat
        rep = replay_record(rec)
        assert rep.status == "ok", rep.reason
        assert validate_batch([parse_record(rec)]).status_name(0) == "ok"
        assert tuple(rep.result.scores) == s.match_scores()
        stake = variant_of(preset).stake
        if stake.doubles:
            assert "double" in kinds
        if stake.shows:
            assert "show-deal" in kinds


def test_the_deal_and_the_bots_are_seeded():
    a, b = Session(PlayOptions(seed=5)), Session(PlayOptions(seed=5))
    play_out(a)
    play_out(b)
    assert a.record() == b.record()
    c = Session(PlayOptions(seed=6))
    assert c.game.dealt != a.game.dealt


def test_undo_takes_back_the_players_last_decision_and_the_bots_replay_the_same():
    s = Session(PlayOptions(seed=3, seat=1))
    d = s.advance()
    assert d.kind == "bid"
    s.act("pass")
    for _ in range(6):
        d = s.advance()
        if d is None:
            break
        s.act(simple_answer(s, d))
    after = list(s.actions)
    mine = max(i for i, a in enumerate(after) if a[1] == 1)
    assert s.undo()
    assert s.actions == after[:mine]
    d = s.advance()
    s.act(simple_answer(s, d))
    assert s.actions[:len(after)] == after[:len(s.actions)]
    while s.undo():
        pass
    assert [a for a in s.actions if a[1] == 1] == []
    assert not s.undo()


def test_illegal_answers_leave_the_game_unchanged():
    s = Session(PlayOptions(seed=3))
    d = s.advance()
    for bad in ("4", "call", "x2", "-1"):
        with pytest.raises(IllegalAction, match="is not a bid here"):
            s.act(bad)
    s.act("3")
    assert s.advance().kind == "play"
    before = list(s.actions)
    with pytest.raises(IllegalAction, match="you passed but must lead"):
        s.act("pass")
    with pytest.raises(IllegalAction, match="but you hold"):
        s.act("AAA")
    with pytest.raises(IllegalAction, match="unknown card character"):
        s.act("3z")
    assert s.actions == before


def test_save_and_resume_go_on_where_the_game_was(tmp_path):
    for preset, moves in (("standard", 3), ("happy", 3), ("four", 4), ("laizi", 3), ("notalon,landlord_draw=on", 3)):
        s = Session(PlayOptions(rules=preset, seed=2, seat=1))
        for _ in range(moves):
            d = s.advance()
            s.act(simple_answer(s, d))
        d = s.advance()
        assert d is not None, preset
        path = tmp_path / f"{preset}.jsonl"
        s.save(str(path))
        r, earlier = resume(str(path))
        assert earlier == []
        assert r.game.hands == s.game.hands and r.game.phase == s.game.phase
        assert r.decision() == d
        assert [a[:2] for a in r.actions] == [a[:2] for a in s.actions]
        play_out(s)
        play_out(r)
        assert r.record()["plays"] == s.record()["plays"]


def test_a_finished_game_resumes_with_the_next_deal_and_the_match(tmp_path):
    s = Session(PlayOptions(seed=4))
    play_out(s)
    path = str(tmp_path / "m.jsonl")
    s.save(path)
    r, earlier = resume(path)
    assert r.index == 1 and not r.actions and r.match_scores() == s.match_scores()
    assert len(earlier) == 1 and earlier[0]["result"]["scores"] == list(s.game.result.scores)
    assert len(read_match(path)) == 1


def test_resume_refuses_what_is_not_a_saved_game(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{\"schema\": \"nope\"}\n")
    with pytest.raises(RecordError, match="line 1: schema"):
        resume(str(bad))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(RecordError, match="no game"):
        resume(str(empty))


def test_options_are_checked():
    with pytest.raises(ArgumentError, match="seat must be 0 to 3 under rules four"):
        PlayOptions(rules="four", seat=4).checked()
    with pytest.raises(ArgumentError, match="opponents must be"):
        PlayOptions(opponents="advisor:0").checked()
    assert PlayOptions(opponents="advisor:8").checked().opponents == "advisor:8"


def lines_console(s: Session, lines, **kw) -> tuple:
    it = iter(lines)
    out = io.StringIO()

    def ask(prompt):
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        out.write(prompt + line + "\n")
        return line

    c = Console(s, ask, out, **kw)
    return c, c.run(), out.getvalue()


def test_an_ambiguous_play_lists_its_readings_to_choose_from(tmp_path):
    s = Session(PlayOptions(rules="douzero", seed=1, **FAST))
    s.set_deal(["333444555666789TJ", "777888999TTTJJJ34", "56QQQQKKKKAAAA222"], "2XD", first_bidder=0)
    c, summary, text = lines_console(s, ["3", "333444555666", "7", "2", "history", "quit"],
                                     save_path=str(tmp_path / "a.jsonl"), review=False)
    assert "333444555666 reads 3 ways here; choose one:" in text
    assert "  1. 333444555666\n" in text and "  2. 444555666-333\n" in text
    assert "error: choose 1 to 3, or type another play" in text
    assert "  1. you (landlord): 444555666-333" in text
    assert summary.saved.endswith("a.jsonl")


def test_the_readings_of_wild_cards_are_listed_too(tmp_path):
    s = Session(PlayOptions(rules="laizi", seed=1, **FAST))
    s.set_deal(["3334445556667899T", "34567778889TTTJJJ", "9JQQQQKKKKAAAA222"], "2XD", first_bidder=0, wild="9")
    c, summary, text = lines_console(s, ["3", "3339", "2", "history", "quit"], review=False)
    assert "3339 reads 2 ways here; choose one:\n  1. 333-9\n  2. 3339=3333\n" in text
    assert "  1. you (landlord): 3339=3333" in text and "wild: 9" in text
    assert summary.saved is None


def test_every_command_and_bad_input_answer_in_one_line(tmp_path):
    s = Session(PlayOptions(seed=3, **FAST))
    save = str(tmp_path / "m.jsonl")
    c, summary, text = lines_console(
        s, ["help", "hint", "why 3", "why 7", "why", "bogus", "2", "history", "undo", "3", "look", "hint",
            "why 33", "why 3333", "solve", "zz", "save " + str(tmp_path / "other.jsonl"), "quit"],
        save_path=save, review=False)
    for expected in ("hint         the advisor's", "bid evaluator (", "hint: ", "3: expected score",
                     "error: '7' is not a choice here: pass, 1, 2, 3", "error: why what?",
                     "error: 'bogus' is not a bid here", "> you: bid 2", "undone: back to your decision",
                     "advisor (16 deals", "33: win ", "error: 3333 is not a legal play here",
                     "error: solve answers once every hand holds at most 10 cards",
                     "error: you played 'zz'", "saved to " + str(tmp_path / "other.jsonl")):
        assert expected in text, expected
    errors = [line for line in text.splitlines() if line.startswith("error:")]
    assert len(errors) == 6
    assert summary.games == 0 and summary.saved == str(tmp_path / "other.jsonl")
    assert json.loads(open(tmp_path / "other.jsonl").read())["bids"] == [{"seat": 0, "bid": 3}]


def heuristic_answer(s: Session, d):
    """The heuristic's play in the player's seat, the last option elsewhere."""
    return s.bot.play(s.game, s.seat) if d.kind == "play" else d.options[-1]


def test_solve_answers_once_the_hands_are_small():
    from ddz_tools.analysis.play import Helper

    for seed in range(20):
        s = Session(PlayOptions(seed=seed, **FAST))
        h = Helper(s)
        d = s.advance()
        while d is not None:
            if d.kind == "play" and max(len(s.game.hand(t)) for t in range(3)) <= 10:
                break
            s.act(heuristic_answer(s, d))
            d = s.advance()
        if d is not None:
            break
    lines = h.solve()
    assert lines[0].startswith("open-hand truth")
    assert lines[1].startswith(("you can force a win", "lost whatever you play"))
    assert h.solve() == lines


def test_hints_in_the_stake_stages_use_the_evaluators():
    from ddz_tools.analysis.play import Helper

    s = Session(PlayOptions(rules="happy", seed=3, **FAST))
    seen = set()
    h = Helper(s)
    for _ in range(200):
        d = s.advance()
        if d is None:
            break
        if d.kind not in seen and d.kind != "play":
            lines = h.hint()
            assert lines[-1].startswith("hint: ") and lines[-1][6:] in d.options + ("show",)
            seen.add(d.kind)
        s.act(simple_answer(s, d))
    assert {"show-deal", "call", "double"} <= seen


def test_a_match_over_games_with_the_review_and_the_report(tmp_path):
    save = str(tmp_path / "m.jsonl")
    answers = []
    s = Session(PlayOptions(seed=4, **FAST))
    out = io.StringIO()

    def ask(prompt):
        if prompt.startswith("next game?"):
            answers.append("next" if not answers else "report " + str(tmp_path / "rep"))
            if len(answers) > 2:
                raise EOFError
            return answers[-1]
        if c.choices:
            return "1"
        a = simple_answer(s, s.decision())
        return a if isinstance(a, str) else (a.notation(s.game.rules) if not a.is_pass else "pass")

    c = Console(s, ask, out, save_path=save)
    summary = c.run()
    text = out.getvalue()
    assert summary.games == 2 and summary.scores == s.match_scores()
    assert text.count("review (open hands") == 2
    assert "report written: " in text and (tmp_path / "rep" / "index.html").exists()
    lines = read_match(save)
    assert len(lines) == 2 and all(replay_record(r).status == "ok" for r in lines)
    from conftest import run_ddz

    run = run_ddz("replay", save)
    assert run.returncode == 0 and run.stdout.count(" ok ") == 2


def test_play_runs_a_match_from_options_and_from_a_saved_file(tmp_path, monkeypatch):
    save = str(tmp_path / "p.jsonl")
    out = io.StringIO()
    feed = iter(["3", "quit"])
    summary = play(PlayOptions(seed=3, **FAST), ask=lambda p: next(feed), out=out, save=save, review=False)
    assert summary.saved == save and "your lead?" not in out.getvalue()
    feed = iter(["history", "quit"])
    out = io.StringIO()
    play(PlayOptions(**FAST), ask=lambda p: next(feed), out=out, resume_from=save, review=False)
    assert "game 1 resumed from" in out.getvalue() and "you (landlord): bid 3" in out.getvalue()
    with pytest.raises(ArgumentError, match="p.jsonl exists: --resume .* goes on with that match"):
        play(PlayOptions(**FAST), ask=lambda p: "quit", out=out, save=save)
    monkeypatch.chdir(tmp_path)
    names = [play(PlayOptions(seed=5, **FAST), ask=lambda p: "quit", out=out, review=False).saved for _ in range(3)]
    assert names == ["ddz-play-5.jsonl", "ddz-play-5-2.jsonl", "ddz-play-5-3.jsonl"]


def test_the_screen_fits_80_columns_and_colours_only_a_terminal():
    for preset in PRESETS:
        s = Session(PlayOptions(rules=preset, seed=9, seat=0))
        for _ in range(30):
            d = s.advance()
            if d is None:
                break
            screen = render(s)
            assert all(len(line) <= 80 for line in screen.splitlines()), screen
            assert "\x1b[" not in screen
            assert "you" in screen.splitlines()[-1]
            s.act(simple_answer(s, d))
        assert "\x1b[" in render(s, Style(True))
        assert history_lines(s)

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert use_colour(Tty(), {}) and not use_colour(Tty(), {"NO_COLOR": "1"})
    assert not use_colour(io.StringIO(), {}) and not use_colour(Tty(), {"TERM": "dumb"})
    assert group_hand("3334TT2XD", "T", Style(False)) == "333 4 TT 2 X D"


def test_every_seat_passing_deals_again_with_the_next_seat_first(tmp_path):
    for seed in range(60):
        s = Session(PlayOptions(seed=seed, seat=0))
        d = s.advance()
        s.act("pass")
        d = s.advance()
        if s.redeals:
            break
    else:
        raise AssertionError("no deal passed out")
    events = [e.text for e in s.take_events()]
    assert "every seat passed: the cards are dealt again, seat 1 first" in events
    assert s.game.first_bidder == 1 and not s.undo()      # the deal passed out is gone
    path = str(tmp_path / "r.jsonl")
    s.save(path)
    r, _ = resume(path)
    assert r.redeals == 1 and r.game.dealt == s.game.dealt and r.decision() == s.decision()
