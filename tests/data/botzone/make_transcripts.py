"""Write the Botzone FightTheLandlord2 bot-side transcripts of tests/data/botzone/.

The games are this project's own: seeded deals played by the game engine
(``ddz_tools.engines.game``) under Botzone's bidding, written first as a judge log by
``ddz_tools.engines.botzone.judge_log_from_game`` and then turned, request by request,
into the lines a bot sees and answers::

    Judge: {"requests": [...every request to this bot so far], "responses": [...its answers so far]}
    Bot k: {"debug": "...", "response": ...}

Run it from the repository root (``python tests/data/botzone/make_transcripts.py``)
to write the files again; the tests read the files, not this script.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ddz_tools.engines.botzone import BOTZONE_RULES, judge_log_from_game
from ddz_tools.engines.game import Game

HERE = Path(__file__).resolve().parent


def _dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def transcript_lines(log: dict, header: str, answer_last: bool = True) -> list[str]:
    """The ``Judge:`` / ``Bot k:`` lines of a judge log, one request after another."""
    requests: dict = {0: [], 1: [], 2: []}
    responses: dict = {0: [], 1: [], 2: []}
    lines = [header, ""]
    entries = log["log"]
    for i, entry in enumerate(entries):
        out = entry.get("output")
        if out is None or out["command"] != "request":
            continue
        ((seat_key, req),) = out["content"].items()
        seat = int(seat_key)
        requests[seat].append(req)
        lines.append("Judge: " + _dumps({"requests": requests[seat], "responses": responses[seat]}))
        if i + 1 == len(entries) or (i + 2 == len(entries) and not answer_last):
            break
        answer = entries[i + 1][seat_key]["response"]
        responses[seat].append(answer)
        lines.append(f"Bot {seat}: " + _dumps({"debug": f"fixture move {len(responses[seat])}", "response": answer}))
        lines.append("")
    return lines


def play_out(g: Game, rng: random.Random, moves: "int | None" = None) -> None:
    """Play ``g`` on with random legal plays (a pass one time in three when answering)."""
    done = 0
    while g.phase == "playing" and (moves is None or done < moves):
        options = g.legal_plays()
        if g.last_play is not None and (len(options) == 1 or rng.random() < 0.3):
            g.pass_()
        else:
            g.play(rng.choice(options[1:] if g.last_play is not None else options))
        done += 1


def full_game(seed: int) -> Game:
    """Seat 0 bids 3 and plays the game out."""
    g = Game(seed=seed, rules=BOTZONE_RULES, first_bidder=0, all_pass="seat0")
    g.bid(3)
    play_out(g, random.Random(seed))
    return g


def partial_game(seed: int, moves: int) -> Game:
    """All three seats pass (seat 0 becomes landlord with base 1); ``moves`` actions are played."""
    g = Game(seed=seed, rules=BOTZONE_RULES, first_bidder=0, all_pass="seat0")
    for _ in range(3):
        g.bid(0)
    play_out(g, random.Random(seed), moves)
    return g


def main() -> None:
    full_seed = 20
    g = full_game(full_seed)
    lines = transcript_lines(judge_log_from_game(g, seed=full_seed),
                             f"# a complete game: seeded deal {full_seed}, seat 0 bids 3, two bombs, the farmers win")
    (HERE / "ftl2_full_game-log.txt").write_text("\n".join(lines) + "\n")
    (HERE / "ftl2_full_game-scores.txt").write_text(" ".join(str(s) for s in g.result.scores) + "\n")
    part_seed = 12
    g = partial_game(part_seed, 16)
    lines = transcript_lines(judge_log_from_game(g, seed=part_seed),
                             f"# an unfinished game: seeded deal {part_seed}, all pass, the last request unanswered",
                             answer_last=False)
    (HERE / "ftl2_partial_game-log.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
