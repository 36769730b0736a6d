"""Our players as agents of RLCard's and DouZero's own game harnesses.

Three policies, each a player of three-player classic Dou Dizhu:

``heuristic``
    The heuristic policy of :mod:`ddz_tools.engines.policies`.  Its kernel takes
    every seat's hand but reads only what the seat may know (its own hand,
    the cards the others hold together and how many each holds), so it is
    given a deal drawn consistently with the seat's view
    (:func:`ddz_tools.analysis.advise.sample_deals`): :func:`heuristic_play`.
``advisor``
    :func:`ddz_tools.analysis.advise.advise` on the seat's view with ``samples`` deals
    at most, its recommendation played: :func:`advisor_play`.
``oracle``
    The advisor seeing every card: the view shows both other hands
    (``history_view(..., shown=...)``), so it has one deal, which the advisor
    solves exactly or plays out.  The harness must hand the other hands to
    the agent (see the classes).

The harnesses
-------------
:class:`RLCardAgent` plays in ``rlcard.make('doudizhu')`` (``step``,
``eval_step``, ``use_raw = True``): RLCard's landlord is the player
``state['raw_obs']['landlord']`` (always player 0 in RLCard 1.2), and player
``i`` is followed by ``i + 1 mod 3``, so the landlord's next player is our
``farmer1`` and the one after ``farmer2``.

:class:`DouZeroAgent` plays in DouZero's ``douzero.env.game.GameEnv``
(``act(infoset)``): its positions ``landlord``, ``landlord_down`` (plays
right after the landlord) and ``landlord_up`` are our ``landlord``,
``farmer1`` and ``farmer2``.

Each decision replays the harness's history into a
:func:`~ddz_tools.analysis.advise.history_view` under the harness's rule set:
:data:`RLCARD_RULES` (what RLCard's judger generates: the ``standard``
combinations with kickers that may share a rank) or :data:`DOUZERO_RULES`
(the ``douzero`` preset, DouZero's move generator).  The play chosen is
returned in the harness's notation and is one of its legal actions: the
advisor plays its best candidate that the harness allows; the heuristic's
play, in the rare position where the harness forbids it (RLCard's judger
leaves out some 16- and 20-card airplanes whose wings hold a bomb or a trio
next to the chain), is replaced by the heuristic's play under ``standard``
rules.

The bottom
----------
Both harnesses show the landlord's three bottom cards to every seat but
strike them from the state as the landlord plays: RLCard's ``seen_cards``
loses every card of a rank the landlord plays, DouZero's
``three_landlord_cards`` one card for each card he plays.  A view's bottom
only tells which cards the landlord surely still holds (the bottom less his
plays, rank by rank), so the agents rebuild a bottom that tells exactly
that from what is left and from his plays (:func:`rebuilt_bottom`).  From
DouZero's state this is always exact.  From RLCard's it is exact while
``seen_cards`` is whole, when the same agent saw it whole earlier in the
game, or when the agent is given the ``env`` (it then reads the dealt
bottom); otherwise the view knows only the cards of ``seen_cards``.

Determinism
-----------
The advisor's seed for a decision is derived from the agent's ``seed`` and
the move number (the length of the harness's history); the heuristic is
deterministic.  The same seed and the same game give the same actions.
"""

from __future__ import annotations

import sys
import types
from typing import Sequence

from .analysis.advise import OBJECTIVES, THREE_SEATS, View, advise, history_view, sample_deals
from .core.cards import (FULL_DECK, RANKS, card_count, counts_of, douzero_values, format_cards, pack_counts, pack_douzero,
                    parse_cards)
from .core.errors import ArgumentError
from .engines.game import seat_roles
from .engines.policies import choose
from .core.rules import Play, Rules
from .variants import variant_of

__all__ = [
    "POLICIES", "OBJECTIVES", "RLCARD_RULES", "DOUZERO_RULES", "DOUZERO_POSITIONS", "check_rules",
    "heuristic_play", "advisor_play", "Player", "rebuilt_bottom", "import_rlcard", "rlcard_seats", "rlcard_view",
    "rlcard_deal", "RLCardAgent", "douzero_view", "douzero_deal", "DouZeroAgent",
]

#: The agents' policies.
POLICIES = ("heuristic", "heuristic-solo", "advisor", "oracle")
#: What the advisor maximises: the chance to win, or (where :func:`~ddz_tools.analysis.advise.advise`
#: takes an ``objective``) the expected score.
#: The rule set of RLCard's Dou Dizhu judger as our options.
RLCARD_RULES = "standard,kickers_distinct=off"
#: The rule set of DouZero's move generator.
DOUZERO_RULES = "douzero"
#: DouZero's positions in our seat order (landlord, farmer1, farmer2).
DOUZERO_POSITIONS = ("landlord", "landlord_down", "landlord_up")
_SEED_STEP = 1_000_003


def check_rules(rules) -> Rules:
    """The rule set, checked to be three-player classic Dou Dizhu (one deck,
    a 3-card bottom, no wild cards, no stake stages: shows, doubles, a bottom
    bonus or draws): the only game the agents play, as the variant says
    (:meth:`Variant.supports <ddz_tools.variants.Variant.supports>` ``agents``).

    >>> check_rules("douzero").describe()
    'douzero'
    >>> check_rules("four")
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.RulesError: the agents play three-player classic rules, not four
    """
    r = Rules.parse(rules)
    variant_of(r).require("agents")
    return r


def _check_view(view: View) -> None:
    if not isinstance(view, View):
        raise ArgumentError(f"a view must be a View, not {type(view).__name__}", param="view")
    if view.form == "two-player":
        raise ArgumentError("the agents play three seats, not a two-player endgame", param="view")
    check_rules(view.rules)


def _check_policy(policy: str, samples: int, objective: str) -> None:
    if policy not in POLICIES:
        raise ArgumentError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}", param="policy")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ArgumentError(f"samples must be an integer >= 1, not {samples!r}", param="samples")
    if objective not in OBJECTIVES:
        raise ArgumentError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}",
                            param="objective")


def _allowed(play: Play, allowed) -> bool:
    return allowed is None or play.cards in allowed


def heuristic_play(view: View, seed: int = 0, allowed=None, policy: str = "heuristic") -> Play:
    """The heuristic policy's play for the player to move of ``view``
    (``policy`` ``heuristic-solo``: the heuristic without the farmers'
    partnership conventions, :data:`ddz_tools.engines.policies.POLICY_SOLO`).

    The kernel reads only what the seat may know, so any deal that fits the
    view gives the same play: the deal drawn is
    ``sample_deals(view, 0, 1, seed)``, passed to
    :func:`ddz_tools.engines.policies.choose` with the view's play to answer.
    ``allowed`` (a set of packed card sets, 0 for the pass), if given, is
    what the harness allows: a play outside it is replaced by the
    heuristic's play under ``standard`` rules (distinct kickers).

    >>> from ddz_tools.analysis.advise import history_view
    >>> str(heuristic_play(history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bottom="22A")))
    '55'
    """
    _check_view(view)
    hands = list(sample_deals(view, 0, 1, seed, auction=False)[0])
    prev_seat = None if view.last_by is None else view.seats.index(view.last_by)
    p = choose(hands, view.me, 0, prev=view.last_play, prev_seat=prev_seat, policy=policy, rules=view.rules)
    if not _allowed(p, allowed):
        p = choose(hands, view.me, 0, prev=view.last_play, prev_seat=prev_seat, policy=policy, rules="standard")
        if not _allowed(p, allowed):
            raise RuntimeError(f"the harness allows neither heuristic play here ({view.describe()})")
    return p


def advisor_play(view: View, samples: int = 128, seed: int = 0, objective: str = "win", allowed=None,
                 inference: bool = False) -> Play:
    """The advisor's play for the player to move of ``view``: the
    recommendation of :func:`~ddz_tools.analysis.advise.advise` with ``samples`` deals
    at most, or with ``allowed`` (a set of packed card sets, 0 for the pass)
    its best candidate in that set.  A single legal play is played without
    advice.  ``objective`` ``"score"`` is passed on to ``advise`` (which
    then maximises the expected score); ``"win"``, the default, is
    ``advise``'s own default and is not passed.  ``inference`` weighs the
    drawn deals by the other seats' earlier actions (``advise(...,
    inference=True)``).

    >>> from ddz_tools.analysis.advise import counts_view
    >>> v = counts_view("KKA", "farmer2", "4,5,3", after="QQ", by="farmer1")
    >>> str(heuristic_play(v)), str(advisor_play(v, samples=32))   # the heuristic never overtakes its partner
    ('', 'KK')
    """
    _check_view(view)
    _check_policy("advisor", samples, objective)
    cands = [p for p in view.candidates() if _allowed(p, allowed)]
    if not cands:
        raise RuntimeError(f"the harness allows none of the plays here ({view.describe()})")
    if len(cands) == 1:
        return cands[0]
    a = advise(view, samples=samples, seed=seed, inference=inference,
               **({} if objective == "win" else {"objective": objective}))
    for c in a.candidates:
        p = Play.pass_() if c.play == "pass" else Play.parse(c.play, view.rules)
        if _allowed(p, allowed):
            return p
    raise RuntimeError(f"the advisor scored no play that the harness allows ({view.describe()})")


class Player:
    """One of our policies as a player of any harness: :meth:`play` picks the
    play for a :class:`~ddz_tools.analysis.advise.View` (three-player classic rules).

    ``policy`` is ``heuristic``, ``heuristic-solo``, ``advisor`` or ``oracle`` (the oracle's
    view must show both other hands); ``samples`` the advisor's most deals a
    decision; ``seed`` the seed its decisions' seeds derive from;
    ``objective`` what the advisor maximises and ``inference`` whether it
    weighs its deals by the other seats' actions (see :func:`advisor_play`).
    """

    def __init__(self, policy: str = "heuristic", samples: int = 128, seed: int = 0, objective: str = "win",
                 inference: bool = False):
        _check_policy(policy, samples, objective)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ArgumentError(f"seed must be an integer, not {seed!r}", param="seed")
        self.policy, self.samples, self.seed, self.objective = policy, samples, seed, objective
        self.inference = bool(inference)

    def decision_seed(self, move: int) -> int:
        """The seed of the decision at ``move`` (the number of moves before it, passes included)."""
        return self.seed * _SEED_STEP + move

    def play(self, view: View, move: int = 0, allowed=None) -> Play:
        """This policy's play for the player to move of ``view``, ``move`` the
        number of moves so far; ``allowed`` as in :func:`advisor_play`."""
        _check_view(view)
        seed = self.decision_seed(move)
        if self.policy in ("heuristic", "heuristic-solo"):
            return heuristic_play(view, seed, allowed, self.policy)
        if self.policy == "oracle" and len(view.shown) != 2:
            raise ArgumentError("the oracle's view must show both other hands", param="view")
        return advisor_play(view, self.samples, seed, self.objective, allowed, self.inference)


def rebuilt_bottom(rest: int, landlord_played: int) -> "int | None":
    """A 3-card bottom (packed) that tells what the harness's state tells:
    ``rest`` is what is left of the bottom after the landlord's plays
    (packed), ``landlord_played`` every card he played.

    For each rank with cards left, the bottom held those and every card of
    the rank he played; the cards missing are taken from his other plays
    (lowest ranks first, no more of a rank than he played), so the bottom
    less his plays is exactly ``rest``: what a view uses the bottom for.
    None when his plays cannot fill it (RLCard only: it strikes a whole
    rank when he plays one card of it).

    >>> format_cards(rebuilt_bottom(parse_cards("5"), parse_cards("33345")))   # a 5 left: two 5s and a 3
    '355'
    """
    left, played = counts_of(rest), counts_of(landlord_played)
    counts = [a + b if a else 0 for a, b in zip(left, played)]
    need = 3 - sum(counts)
    for r, (a, b) in enumerate(zip(left, played)):
        if need <= 0:
            break
        if not a and b:
            take = min(b, need)
            counts[r] += take
            need -= take
    if need != 0:
        return None
    return pack_counts(counts)


# RLCard ------------------------------------------------------------------------------


def import_rlcard():
    """Import and return the ``rlcard`` package, with a stand-in ``termcolor``
    module when that is missing (RLCard imports it for another game's display
    only).  :func:`rlcard_deal` calls it; call it first when importing
    RLCard's modules yourself without termcolor installed."""
    try:
        import termcolor  # noqa: F401
    except ImportError:
        shim = types.ModuleType("termcolor")
        shim.colored = lambda text, *a, **k: text
        sys.modules["termcolor"] = shim
    import rlcard

    return rlcard


def _rl_text(cards: int) -> str:
    return "pass" if cards == 0 else format_cards(cards).replace("X", "B").replace("D", "R")


def _rl_cards(text: str) -> int:
    return 0 if text == "pass" else parse_cards(text)


def _card_objects(cards) -> int:
    """Packed cards of a list of RLCard ``Card`` objects."""
    return sum(1 << (4 * RANKS.index({"BJ": "X", "RJ": "D"}.get(c.suit, c.rank))) for c in cards)


def rlcard_seats(landlord: int) -> dict:
    """RLCard player id -> our seat name: the landlord, then ``farmer1`` (the
    player after him) and ``farmer2``.

    >>> rlcard_seats(0)
    {0: 'landlord', 1: 'farmer1', 2: 'farmer2'}
    """
    return seat_roles(landlord, 3)


def _raw(state: dict) -> dict:
    if not isinstance(state, dict):
        raise ArgumentError(f"an RLCard state is a dict, not {type(state).__name__}", param="state")
    return state["raw_obs"] if "raw_obs" in state else state


def _landlord_played(trace, landlord: int) -> int:
    return sum(_rl_cards(a) for p, a in trace if p == landlord)


def rlcard_view(state: dict, bottom=None, hands=None, rules=RLCARD_RULES) -> View:
    """The :class:`~ddz_tools.analysis.advise.View` of the player to move in an RLCard
    Dou Dizhu state (the dict of ``env.reset()``/``env.step()``, or its
    ``raw_obs``).

    ``bottom``: the three bottom cards (text or packed) when known; without
    it the bottom is rebuilt from ``seen_cards`` (:func:`rebuilt_bottom`;
    none when that fails).  ``hands``: every player's current cards by RLCard
    player id, for the oracle: the view then shows both other hands.
    """
    raw = _raw(state)
    rules = check_rules(rules)
    landlord, me = raw["landlord"], raw["self"]
    names = rlcard_seats(landlord)
    played = [(names[p], a) for p, a in raw["trace"]]
    if bottom is None:
        seen = parse_cards(raw["seen_cards"]) if raw["seen_cards"] else 0
        bottom = rebuilt_bottom(seen, _landlord_played(raw["trace"], landlord))
    elif isinstance(bottom, str):
        bottom = parse_cards(bottom)
    shown = None
    if hands is not None:
        shown = {names[p]: (parse_cards(h) if isinstance(h, str) else h) for p, h in enumerate(hands) if p != me}
    return history_view(parse_cards(raw["current_hand"]), names[me], played, bottom=bottom, rules=rules,
                        shown=shown)


def rlcard_deal(env, hands: Sequence, bottom) -> tuple:
    """Put a deal into an RLCard Dou Dizhu environment after ``env.reset()``
    and return the first state and player id, as ``env.reset()`` does.

    ``hands``: the landlord's 17 cards, then those of the player after him
    and of the last (text or packed); ``bottom``: the 3 bottom cards.  The
    game deals them with its own dealer, as if its shuffle had put them
    there: player 0 is the landlord and takes the bottom, which is public
    (``seen_cards``).
    """
    import_rlcard()
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    packed = [parse_cards(h) if isinstance(h, str) else h for h in hands]
    bottom = parse_cards(bottom) if isinstance(bottom, str) else bottom
    if len(packed) != 3 or [card_count(h) for h in packed] != [17, 17, 17] or card_count(bottom) != 3:
        raise ArgumentError("a deal is three hands of 17 cards and a bottom of 3", param="hands")
    if sum(packed) + bottom != FULL_DECK:
        raise ArgumentError("the hands and the bottom must make up one deck", param="hands")
    game = env.game
    dealer = game.round.dealer
    by_rank: dict = {}
    for c in dealer.deck:
        by_rank.setdefault(_card_objects([c]), []).append(c)
    deck = []
    for part in (*packed, bottom):
        for r, n in enumerate(counts_of(part)):
            deck.extend(by_rank[1 << (4 * r)][:n])
            del by_rank[1 << (4 * r)][:n]
    dealer.deck = deck
    dealer.shuffle = lambda: None     # the deck is in dealing order already
    game.round.initiate(game.players)
    game.judger = DoudizhuJudger(game.players, game.np_random)
    player = game.round.current_player
    game.state = game.get_state(player)
    return env.get_state(player), player


class RLCardAgent:
    """One of our policies as an agent of RLCard's Dou Dizhu environment.

    ``env.set_agents([...])`` takes it like RLCard's own agents
    (``use_raw = True``: it returns the raw action, ``'pass'`` or RLCard's
    card string).  ``policy``, ``samples``, ``seed``, ``objective`` and
    ``inference`` are those of :class:`Player`.  ``env`` (the ``rlcard.make('doudizhu')``
    environment it plays in) is needed by the oracle, which reads the other
    players' current cards there (``env.game.players[i].current_hand``);
    given to the advisor, it makes the bottom exact (the dealer's last
    three cards) where ``seen_cards`` has lost some.

    >>> RLCardAgent("oracle")
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.ArgumentError: the oracle reads the other hands from the environment: give env
    """

    use_raw = True

    def __init__(self, policy: str = "heuristic", samples: int = 128, seed: int = 0, objective: str = "win",
                 env=None, inference: bool = False):
        self.player = Player(policy, samples, seed, objective, inference)
        if policy == "oracle" and env is None:
            raise ArgumentError("the oracle reads the other hands from the environment: give env", param="env")
        self.env = env
        self._memo = None    # (player id, trace, hand, bottom): the bottom seen whole in this game

    def _bottom(self, raw: dict) -> "int | None":
        if self.env is not None:
            return _card_objects(self.env.game.round.dealer.deck[-3:])
        trace, me = list(raw["trace"]), raw["self"]
        hand = parse_cards(raw["current_hand"])
        seen = parse_cards(raw["seen_cards"]) if raw["seen_cards"] else 0
        m = self._memo
        if card_count(seen) == 3:
            bottom = seen
        elif m is not None and m[0] == me and trace[:len(m[1])] == m[1] and _contains(m[2], hand):
            bottom = m[3]
        else:
            return rebuilt_bottom(seen, _landlord_played(trace, raw["landlord"]))
        self._memo = (me, trace, hand, bottom)
        return bottom

    def view(self, state: dict) -> View:
        """The view this agent plays from in ``state``."""
        raw = _raw(state)
        hands = None
        if self.player.policy == "oracle":
            hands = [_card_objects(p.current_hand) for p in self.env.game.players]
        return rlcard_view(raw, bottom=self._bottom(raw), hands=hands)

    def step(self, state: dict) -> str:
        """The raw action for ``state``: ``'pass'`` or RLCard's card string."""
        return self.eval_step(state)[0]

    def eval_step(self, state: dict) -> tuple:
        """``(action, info)`` for ``state``; ``info`` names the play in our notation."""
        raw = _raw(state)
        legal = state.get("raw_legal_actions", raw["actions"])
        if len(legal) == 1:
            return legal[0], {"play": "pass" if legal[0] == "pass" else format_cards(_rl_cards(legal[0]))}
        allowed = {_rl_cards(a) for a in legal}
        p = self.player.play(self.view(raw), len(raw["trace"]), allowed)
        action = _rl_text(p.cards)
        return action, {"play": "pass" if p.is_pass else p.notation(RLCARD_RULES)}


def _contains(big: int, small: int) -> bool:
    return all(a >= b for a, b in zip(counts_of(big), counts_of(small)))


# DouZero ------------------------------------------------------------------------------


def douzero_view(infoset, oracle: bool = False) -> View:
    """The :class:`~ddz_tools.analysis.advise.View` of the player to move in a DouZero
    ``InfoSet`` (of ``douzero.env.game.GameEnv``).  The bottom is rebuilt
    from ``three_landlord_cards`` and the landlord's plays
    (:func:`rebuilt_bottom`: exact for what a view uses it for).  With
    ``oracle`` the view shows both other hands, from the infoset's
    ``all_handcards`` (the GameEnv fills it for every position).
    """
    pos = infoset.player_position
    if pos not in DOUZERO_POSITIONS:
        raise ArgumentError(f"a DouZero position is one of {', '.join(DOUZERO_POSITIONS)}, not {pos!r}",
                            param="infoset")
    names = dict(zip(DOUZERO_POSITIONS, THREE_SEATS))
    played = [(THREE_SEATS[i % 3], format_cards(pack_douzero(a)) if a else "pass")
              for i, a in enumerate(infoset.card_play_action_seq)]
    landlord_played = pack_douzero(infoset.played_cards["landlord"])
    bottom = rebuilt_bottom(pack_douzero(infoset.three_landlord_cards), landlord_played)
    shown = None
    if oracle:
        shown = {names[p]: pack_douzero(h) for p, h in infoset.all_handcards.items() if p != pos}
    return history_view(pack_douzero(infoset.player_hand_cards), names[pos], played, bottom=bottom,
                        rules=DOUZERO_RULES, shown=shown)


def douzero_deal(hands: Sequence, bottom) -> dict:
    """A DouZero ``card_play_data`` dict (the format of its evaluation data)
    for a deal: ``hands`` the landlord's 17 cards, then those of the player
    after him (``landlord_down``) and of the last (``landlord_up``), text or
    packed; ``bottom`` the 3 bottom cards, which the landlord takes.

    >>> d = douzero_deal(["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2XD")
    >>> len(d["landlord"]), d["landlord_down"][:4], d["three_landlord_cards"]
    (20, [7, 7, 7, 8], [17, 20, 30])
    """
    packed = [parse_cards(h) if isinstance(h, str) else h for h in hands]
    bottom = parse_cards(bottom) if isinstance(bottom, str) else bottom
    if len(packed) != 3 or [card_count(h) for h in packed] != [17, 17, 17] or card_count(bottom) != 3:
        raise ArgumentError("a deal is three hands of 17 cards and a bottom of 3", param="hands")
    return {"landlord": douzero_values(packed[0] + bottom), "landlord_down": douzero_values(packed[1]),
            "landlord_up": douzero_values(packed[2]), "three_landlord_cards": douzero_values(bottom)}


class DouZeroAgent:
    """One of our policies as a player of DouZero's ``GameEnv`` (``act(infoset)``
    returns one of ``infoset.legal_actions``, ``[]`` the pass).

    One object serves any position (it plays the infoset's
    ``player_position``); ``position``, if given, is checked against it.
    ``policy``, ``samples``, ``seed``, ``objective`` and ``inference`` are
    those of :class:`Player`; the oracle reads the other hands from the infoset's
    ``all_handcards``, which DouZero's GameEnv fills.
    """

    def __init__(self, position: "str | None" = None, policy: str = "heuristic", samples: int = 128, seed: int = 0,
                 objective: str = "win", inference: bool = False):
        if position is not None and position not in DOUZERO_POSITIONS:
            raise ArgumentError(f"position must be one of {', '.join(DOUZERO_POSITIONS)}, not {position!r}",
                                param="position")
        self.position = position
        self.player = Player(policy, samples, seed, objective, inference)
        self.name = f"ddz-{policy}"

    def act(self, infoset) -> list:
        """The action for ``infoset``: one of its ``legal_actions``."""
        if self.position is not None and infoset.player_position != self.position:
            raise ArgumentError(f"this agent plays {self.position}, not {infoset.player_position}",
                                param="infoset")
        legal = infoset.legal_actions
        if len(legal) == 1:
            return legal[0]
        by_cards = {}
        for a in legal:
            by_cards.setdefault(pack_douzero(a) if a else 0, a)
        view = douzero_view(infoset, oracle=self.player.policy == "oracle")
        p = self.player.play(view, len(infoset.card_play_action_seq), set(by_cards))
        return by_cards[p.cards]
