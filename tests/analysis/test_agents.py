"""Our agents inside RLCard's and DouZero's own harnesses: whole games, every action legal
there, the cards adding up, the same seed replaying the same game, and the heuristic agent
playing what ``policies.choose`` plays on the true deal."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddz_tools import agents
from ddz_tools.agents import (
    DOUZERO_POSITIONS,
    RLCARD_RULES,
    DouZeroAgent,
    Player,
    RLCardAgent,
    check_rules,
    douzero_deal,
    douzero_view,
    rebuilt_bottom,
    rlcard_deal,
    rlcard_seats,
    rlcard_view,
)
from ddz_tools.core.cards import FULL_DECK, card_count, counts_of, douzero_values, pack_douzero, parse_cards
from ddz_tools.core.errors import ArgumentError, RulesError
from ddz_tools.engines.policies import choose
from ddz_tools.engines.selfplay import deal_cards, game_seed

SEATS = ("landlord", "farmer1", "farmer2")


def _sub(a, b):
    return sum(max(0, x - y) << (4 * r) for r, (x, y) in enumerate(zip(counts_of(a), counts_of(b))))


# Harness-free parts -------------------------------------------------------------------


def test_rules_must_be_three_player_classic():
    assert check_rules(RLCARD_RULES).kickers_distinct is False
    for spec in ("four", "laizi", "happy", "notalon"):
        with pytest.raises(RulesError, match="three-player classic"):
            check_rules(spec)
    from ddz_tools.analysis.advise import counts_view

    v = counts_view("55667788XX", "farmer2", "12,9,10,14", after="44", by="farmer1", rules="four")
    with pytest.raises(RulesError):
        Player().play(v)


def test_bad_arguments():
    with pytest.raises(ArgumentError, match="policy"):
        Player("minimax")
    with pytest.raises(ArgumentError, match="samples"):
        Player("advisor", samples=0)
    with pytest.raises(ArgumentError, match="objective"):
        Player("advisor", objective="money")
    with pytest.raises(ArgumentError, match="give env"):
        RLCardAgent("oracle")
    with pytest.raises(ArgumentError, match="position"):
        DouZeroAgent("landlord_left")
    with pytest.raises(ArgumentError, match="17 cards"):
        douzero_deal(["3", "4", "5"], "6")
    from ddz_tools.analysis.advise import history_view

    with pytest.raises(ArgumentError, match="show both"):
        Player("oracle").play(history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bottom="22A"))


def test_the_advisor_player_passes_inference_to_the_advisor():
    """``Player(..., inference=True)`` plays what ``advise(..., inference=True)`` recommends at
    the decision's seed, and the harness agents hand the option to their player."""
    from ddz_tools.analysis.advise import advise, history_view

    view = history_view("3456789TJQKA2XD", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:KK",
                        bottom="22A")
    player = Player("advisor", samples=16, seed=3, inference=True)
    want = advise(view, samples=16, seed=player.decision_seed(4), inference=True)
    assert want.inference and str(player.play(view, move=4)) == want.recommendation.replace("pass", "")
    assert RLCardAgent("advisor", inference=True).player.inference
    assert DouZeroAgent(policy="advisor", inference=True).player.inference
    assert not Player("advisor").inference


def test_rebuilt_bottom_tells_what_the_harness_tells():
    """DouZero strikes one bottom card per card the landlord plays: for random bottoms and
    plays, the rebuilt bottom less the plays is what is left, and it is in his cards."""
    rng = random.Random(3)
    deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    for _ in range(300):
        rng.shuffle(deck)
        landlord = deck[:20]
        bottom = sum(1 << (4 * r) for r in landlord[17:])
        played = sum(1 << (4 * r) for r in rng.sample(landlord, rng.randint(0, 15)))
        rest = _sub(bottom, played)
        b = rebuilt_bottom(rest, played)
        assert card_count(b) == 3
        assert _sub(b, played) == rest
        held = sum(1 << (4 * r) for r in landlord)
        assert all(x <= y for x, y in zip(counts_of(b), counts_of(held)))
    assert rebuilt_bottom(0, parse_cards("5")) is None     # RLCard struck a whole rank


def test_seat_mapping():
    assert rlcard_seats(0) == {0: "landlord", 1: "farmer1", 2: "farmer2"}
    assert rlcard_seats(2) == {2: "landlord", 0: "farmer1", 1: "farmer2"}
    d = douzero_deal(*_deal(5))
    hands, bottom = _deal(5)
    assert pack_douzero(d["landlord"]) == hands[0] + bottom
    assert pack_douzero(d["landlord_down"]) == hands[1] and pack_douzero(d["landlord_up"]) == hands[2]
    assert d["three_landlord_cards"] == douzero_values(bottom)


def _deal(i, seed=11):
    hands, bottom = deal_cards(game_seed(seed, i))
    return hands, bottom


# RLCard -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rl():
    pytest.importorskip("rlcard")
    rlcard = agents.import_rlcard()
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    return rlcard, DouDizhuRuleAgentV1


class _Checked:
    """An RLCard agent wrapper that records every state and action and checks legality."""

    def __init__(self, agent, log):
        self.agent, self.log, self.use_raw = agent, log, True

    def step(self, state):
        return self.eval_step(state)[0]

    def eval_step(self, state):
        action, info = self.agent.eval_step(state)
        assert action in state["raw_legal_actions"], (action, state["raw_legal_actions"])
        self.log.append((state, action, self.agent))
        return action, info


def _rl_game(rl, seed, make_agents, deal=None):
    """One whole game in RLCard's env; (trace, payoffs, log, env)."""
    rlcard, _ = rl
    env = rlcard.make("doudizhu", config={"seed": seed})
    log = []
    seat_agents = [_Checked(a, log) for a in make_agents(env)]
    np.random.seed(seed)                      # the rule agent's random choices
    if deal is None:
        env.set_agents(seat_agents)
        _, payoffs = env.run(is_training=False)
    else:
        env.reset()
        state, pid = rlcard_deal(env, *deal)
        while not env.is_over():
            action, _ = seat_agents[pid].eval_step(state)
            state, pid = env.step(action, True)
        payoffs = env.get_payoffs()
    return list(env.game.round.trace), list(payoffs), log, env


def _check_rl_game(env, trace, payoffs):
    game = env.game
    assert game.winner_id is not None
    hands = [parse_cards(game.players[p].initial_hand) for p in range(3)]
    assert sum(hands) == FULL_DECK and card_count(hands[0]) == 20
    played = [0, 0, 0]
    for p, a in trace:
        if a != "pass":
            played[p] += parse_cards(a)
    for p in range(3):
        left = sum(1 << (4 * "3456789TJQKA2XD".index({"BJ": "X", "RJ": "D"}.get(c.suit, c.rank)))
                   for c in game.players[p].current_hand)
        assert played[p] + left == hands[p]
    assert card_count(hands[game.winner_id] - played[game.winner_id]) == 0
    landlord_won = game.winner_id == 0
    assert list(payoffs) == ([1, 0, 0] if landlord_won else [0, 1, 1])


@pytest.mark.parametrize("seed", range(4))
def test_rlcard_heuristic_against_rule_agents(rl, seed):
    _, Rule = rl
    ours = seed % 3      # the landlord's seat (player 0), then each farmer's

    def make(env):
        return [RLCardAgent("heuristic") if s == ours else Rule() for s in range(3)]

    trace, payoffs, log, env = _rl_game(rl, seed, make)
    _check_rl_game(env, trace, payoffs)
    assert any(isinstance(a, RLCardAgent) for _, _, a in log)
    again, payoffs2, _, _ = _rl_game(rl, seed, make)
    assert again == trace and payoffs2 == payoffs


def test_rlcard_heuristic_plays_choose_on_the_true_deal(rl):
    """The agent draws the hidden hands; on the true deal the heuristic plays the same."""
    def make(env):
        return [RLCardAgent("heuristic") for _ in range(3)]

    checked = 0
    for seed in (5, 6):
        trace, payoffs, log, env = _rl_game(rl, seed, make)
        _check_rl_game(env, trace, payoffs)
        for state, action, agent in log:
            raw = state["raw_obs"]
            if len(state["raw_legal_actions"]) == 1:
                continue
            names = rlcard_seats(raw["landlord"])
            order = sorted(names, key=lambda p: SEATS.index(names[p]))   # RLCard ids in our seat order
            start = [parse_cards(env.game.players[p].initial_hand) for p in order]
            hands = list(start)
            for p, a in raw["trace"]:
                if a != "pass":
                    hands[order.index(p)] -= parse_cards(a)
            view = rlcard_view(state)
            assert view.hand == hands[order.index(raw["self"])]
            prev_seat = None if view.last_by is None else SEATS.index(view.last_by)
            want = choose(hands, order.index(raw["self"]), 0, prev=view.last_play, prev_seat=prev_seat,
                          rules=RLCARD_RULES)
            assert (0 if action == "pass" else parse_cards(action)) == want.cards
            checked += 1
    assert checked >= 20


def test_rlcard_seeded_deal_and_the_rule_agent(rl):
    _, Rule = rl
    hands, bottom = _deal(0)
    trace, payoffs, log, env = _rl_game(rl, 1, lambda env: [Rule(), RLCardAgent("heuristic", env=env), Rule()],
                                        deal=(hands, bottom))
    _check_rl_game(env, trace, payoffs)
    first = log[0][0]["raw_obs"]
    assert first["self"] == 0 and parse_cards(first["current_hand"]) == hands[0] + bottom
    assert parse_cards(first["seen_cards"]) == bottom and first["num_cards_left"] == [20, 17, 17]
    assert [parse_cards(env.game.players[p].initial_hand) for p in (1, 2)] == hands[1:]
    # The bottom the env-bound agent reads is the dealt one, whatever seen_cards has lost.
    agent = next(a for _, _, a in log if isinstance(a, RLCardAgent))
    assert all(agent._bottom(state["raw_obs"]) == bottom for state, _, _ in log)


def test_rlcard_bottom_remembered_in_a_game(rl):
    """An agent that saw seen_cards whole keeps the bottom after the landlord struck some."""
    _, Rule = rl
    hands, bottom = _deal(2)
    trace, payoffs, log, env = _rl_game(rl, 3, lambda env: [RLCardAgent("heuristic"), Rule(), Rule()],
                                        deal=(hands, bottom))
    agent = log[0][2]
    for state, _, a in log:
        if a is agent:
            assert agent._bottom(state["raw_obs"]) == bottom


@pytest.mark.parametrize("deal, oracle", [(1, 1), pytest.param(7, 0, marks=pytest.mark.slow)])
def test_rlcard_every_seat_ours_with_advisor_and_oracle(rl, deal, oracle):
    """One whole game: the oracle in one seat, the advisor (8 deals) and the heuristic in the
    others (the oracle as landlord spends about 7 s on its whole-deal searches: slow run)."""
    hands, bottom = _deal(deal)

    def make(env):
        seats = [RLCardAgent("advisor", samples=8, seed=1), RLCardAgent("heuristic"), RLCardAgent("heuristic")]
        if oracle == 0:
            seats[1] = seats[0]
        seats[oracle] = RLCardAgent("oracle", env=env)
        return seats

    trace, payoffs, log, env = _rl_game(rl, 2, make, deal=(hands, bottom))
    _check_rl_game(env, trace, payoffs)
    policies = {a.player.policy for _, _, a in log}
    assert policies == {"oracle", "advisor", "heuristic"}


# DouZero ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dz():
    game = pytest.importorskip("douzero.env.game")
    from douzero.evaluation.random_agent import RandomAgent
    from douzero.evaluation.rlcard_agent import RLCardAgent as DZRule

    agents.import_rlcard()     # DouZero's rule agent imports RLCard's tables
    return game.GameEnv, RandomAgent, DZRule


class _DZChecked:
    def __init__(self, agent, log):
        self.agent, self.log = agent, log

    def act(self, infoset):
        legal = [list(a) for a in infoset.legal_actions]
        action = self.agent.act(infoset)
        assert list(action) in legal, (action, legal)
        self.log.append((infoset, list(action), self.agent))
        return action


def _dz_game(dz, deal, players, seed=0):
    GameEnv, _, _ = dz
    log = []
    env = GameEnv({pos: _DZChecked(players[pos], log) for pos in DOUZERO_POSITIONS})
    random.seed(seed)                             # DouZero's random and rule agents
    hands, bottom = deal
    env.card_play_init(douzero_deal(hands, bottom))
    while not env.game_over:
        env.step()
    seq = [list(a) for a in env.card_play_action_seq]
    # The cards add up: each position played its hand less what it holds at the end.
    start = {"landlord": hands[0] + bottom, "landlord_down": hands[1], "landlord_up": hands[2]}
    for pos in DOUZERO_POSITIONS:
        played = sum(pack_douzero(a) for i, a in enumerate(seq) if DOUZERO_POSITIONS[i % 3] == pos)
        assert played + pack_douzero(env.info_sets[pos].player_hand_cards) == start[pos]
    winner = env.get_winner()
    last = DOUZERO_POSITIONS[(len(seq) - 1) % 3]
    assert env.info_sets[last].player_hand_cards == []
    assert winner == ("landlord" if last == "landlord" else "farmer")
    return seq, winner, log


@pytest.mark.parametrize("i", range(3))
def test_douzero_heuristic_against_random_and_rule_agents(dz, i):
    _, RandomAgent, DZRule = dz
    deal = _deal(i)
    ours = DouZeroAgent(policy="heuristic")
    for players in ({"landlord": ours, "landlord_down": RandomAgent(), "landlord_up": RandomAgent()},
                    {"landlord": DZRule("landlord"), "landlord_down": ours, "landlord_up": ours},
                    {"landlord": ours, "landlord_down": DZRule("landlord_down"), "landlord_up": DZRule("landlord_up")}):
        seq, winner, log = _dz_game(dz, deal, players, seed=i)
        assert any(a is ours for _, _, a in log)
        again, winner2, _ = _dz_game(dz, deal, players, seed=i)
        assert again == seq and winner2 == winner


@pytest.mark.parametrize("policy", ["heuristic", "heuristic-solo"])
def test_douzero_heuristic_plays_choose_on_the_true_deal(dz, policy):
    ours = DouZeroAgent(policy=policy)
    checked = 0
    for i in (3, 4):
        seq, winner, log = _dz_game(dz, _deal(i), {pos: ours for pos in DOUZERO_POSITIONS})
        for infoset, action, _ in log:
            if len(infoset.legal_actions) == 1:
                continue
            hands = [pack_douzero(infoset.all_handcards[pos]) for pos in DOUZERO_POSITIONS]
            view = douzero_view(infoset)
            me = DOUZERO_POSITIONS.index(infoset.player_position)
            assert view.hand == hands[me] and view.counts == tuple(card_count(h) for h in hands)
            prev_seat = None if view.last_by is None else SEATS.index(view.last_by)
            want = choose(hands, me, 0, prev=view.last_play, prev_seat=prev_seat, policy=policy, rules="douzero")
            assert pack_douzero(action) == want.cards
            checked += 1
    assert checked >= 20


def test_douzero_agent_checks_its_position(dz):
    GameEnv, RandomAgent, _ = dz
    env = GameEnv({"landlord": DouZeroAgent("landlord_up"), "landlord_down": RandomAgent(),
                   "landlord_up": RandomAgent()})
    env.card_play_init(douzero_deal(*_deal(0)))
    with pytest.raises(ArgumentError, match="plays landlord_up"):
        env.step()


def test_douzero_advisor_game_is_reproducible(dz):
    """One whole game: the advisor (8 deals) as landlord against the heuristic."""
    deal = _deal(1)
    h = DouZeroAgent(policy="heuristic")
    runs = []
    for _ in range(2):
        players = {"landlord": DouZeroAgent("landlord", policy="advisor", samples=8, seed=4),
                   "landlord_down": h, "landlord_up": h}
        runs.append(_dz_game(dz, deal, players)[:2])
    assert runs[0] == runs[1]


def test_douzero_oracle_view_shows_every_hand(dz):
    ours = DouZeroAgent(policy="heuristic")
    _, _, log = _dz_game(dz, _deal(6), {pos: ours for pos in DOUZERO_POSITIONS})
    infoset = log[len(log) // 2][0]
    view = douzero_view(infoset, oracle=True)
    assert len(view.shown) == 2
    from ddz_tools.analysis.advise import distinct_deals

    assert distinct_deals(view) == 1
    for pos, name in zip(DOUZERO_POSITIONS, SEATS):
        if pos != infoset.player_position:
            assert view.must[SEATS.index(name)] == pack_douzero(infoset.all_handcards[pos])


# The examples of docs/agents.md ------------------------------------------------------

DOC = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "agents.md"
SLOW_MARK = "<!-- docs-test: slow -->"


def _doc_examples() -> list:
    """Each ``python`` block of docs/agents.md with the ``text`` block after it (its
    output); a block after ``<!-- not run ...`` is left out, one after the slow mark is slow."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() != "```python":
            i += 1
            continue
        before = next((t.strip() for t in reversed(lines[:i]) if t.strip()), "")
        end = lines.index("```", i + 1)
        code = "\n".join(lines[i + 1:end])
        j = end + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        expected = None
        if j < len(lines) and lines[j].strip() == "```text":
            stop = lines.index("```", j + 1)
            expected = "\n".join(lines[j + 1:stop])
        if not before.startswith("<!-- not run"):
            marks = [pytest.mark.slow] if before == SLOW_MARK else []
            out.append(pytest.param(code, expected, marks=marks, id=f"line{i + 1}"))
        i = end + 1
    return out


@pytest.mark.parametrize("code, expected", _doc_examples())
def test_doc_examples_run_and_print_what_they_show(rl, dz, capsys, code, expected):
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs_agents"})
    if expected is not None:
        assert capsys.readouterr().out.strip() == expected.strip()
