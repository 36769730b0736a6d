"""``ddz bid``: the Monte Carlo verdict on each bidding choice of a hand."""

from __future__ import annotations

import click
from tabulate import tabulate

from ..analysis.bid import (CHOICES, DOUBLE_CHOICES, SEAT_NAMES_FOUR, BidEvaluation, CallEvaluation, DoubleEvaluation,
                            ShowEvaluation, evaluate_bid, evaluate_call, evaluate_double, evaluate_show, parse_bid_line)
from .options import (default_workers, file_inputs, file_option, format_option, rules_option, run_inputs,
                      seed_option, workers_option)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(pair, fmt) -> str:
    return f"[{fmt(pair[0])}, {fmt(pair[1])}]"


def _score(x: float) -> str:
    return f"{x:+.3f}"


def _level(ev) -> str:
    """The confidence level of an evaluation's intervals: ``95%``."""
    return f"{100 * ev.confidence:g}%"


def _print_samples(ev, rejected_by: "str | None") -> None:
    """The samples drawn, whether the evaluation stopped early, the drawn deals
    rejected (by what: None when no deal is) and the samples given up."""
    stop = ", stopped early: recommendation settled" if ev.stopped_early else ""
    if rejected_by and ev.inference:
        rejected_by += ", read by the player model"
    rejected = f"; {ev.rejected} drawn deals rejected by {rejected_by}" if rejected_by else ""
    failed = f", {ev.failed} sample(s) given up" if ev.failed else ""
    click.echo(f"{ev.samples} samples of {ev.samples_max} max{stop}{rejected}{failed}")


def _print_recommendation(ev) -> None:
    click.echo(f"recommendation: {ev.recommendation} (margin {ev.margin:+.3f} {_ci(ev.margin_ci, _score)} over the "
               f"next best)")


def print_evaluation(ev: BidEvaluation) -> None:
    """The human-readable report of one evaluation."""
    where = f"{ev.seat} seat" + (f" after {','.join(CHOICES[b] for b in ev.before)}" if ev.before else "")
    bottom = f" (bottom {ev.bottom})" if ev.bottom else ""
    click.echo(f"hand {ev.hand}{bottom}, {where}, rules {ev.rules.describe()}{ev.wild_note()}, {ev.policy} policy, "
               f"seed {ev.seed}")
    _print_samples(ev, "the earlier bids")
    level = _level(ev)
    click.echo(f"win probability as landlord: {_pct(ev.win_prob)} {_ci(ev.win_prob_ci, _pct)}")
    rows = []
    for name in CHOICES:
        r = ev.choices[name]
        if not r.legal:
            rows.append((name, "illegal", "", "", "", ""))
            continue
        rows.append((name, _pct(r.landlord_prob), f"{_pct(r.landlord_win_prob)} {_ci(r.landlord_win_ci, _pct)}",
                     _pct(r.win_prob), f"{r.expected_score:+.3f}",
                     _ci(r.score_ci, _score)))
    headers = ["choice", "P(landlord)", f"landlord wins [{level}]", "this seat wins", "E[score]", f"[{level}]"]
    click.echo(tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True))
    _print_recommendation(ev)


def print_double(ev: DoubleEvaluation) -> None:
    """The human-readable report of one doubling evaluation."""
    where = f"{ev.seat} to double ({ev.role})" + (f" after {','.join(f'x{b}' for b in ev.before)}"
                                                   if ev.before else "")
    click.echo(f"hand {ev.hand}, bottom {ev.bottom}, base {ev.base}, {where}, rules {ev.rules.describe()}, "
               f"{ev.policy} policy, seed {ev.seed}")
    _print_samples(ev, "the auction and the earlier doubles")
    side = "the landlord wins" if ev.role == "landlord" else "the farmers win"
    click.echo(f"{side}: {_pct(ev.win_prob)} {_ci(ev.win_prob_ci, _pct)}; the landlord shows at his first "
               f"play: {_pct(ev.landlord_show_prob)}")
    others = "; ".join(f"{who} " + ", ".join(f"{k} {_pct(v)}" for k, v in shares.items() if v)
                       for who, shares in ev.others_double.items())
    click.echo(f"the others double: {others}")
    rows = []
    for name in DOUBLE_CHOICES:
        r = ev.choices[name]
        rows.append((name, "illegal", "") if not r.legal else
                    (name, f"{r.expected_score:+.3f}", _ci(r.score_ci, _score)))
    click.echo(tabulate(rows, headers=["double", "E[score]", f"[{_level(ev)}]"], tablefmt="simple",
                        disable_numparse=True))
    _print_recommendation(ev)


def print_call(ev: CallEvaluation) -> None:
    """The human-readable report of one call-grab evaluation."""
    where = f"{ev.seat} seat" + (f" after {','.join(('pass', 'call')[a] for a in ev.before)}" if ev.before else "")
    click.echo(f"hand {ev.hand}, {where}, to {ev.what} or pass, rules {ev.rules.describe()}{ev.wild_note()}, "
               f"{ev.policy} policy, seed {ev.seed}")
    _print_samples(ev, "the earlier actions")
    level = _level(ev)
    rows = []
    for name, r in ev.choices.items():
        rows.append((name, _pct(r.landlord_prob), f"{_pct(r.landlord_win_prob)} {_ci(r.landlord_win_ci, _pct)}",
                     _pct(r.win_prob), f"{r.expected_score:+.3f}", _ci(r.score_ci, _score)))
    headers = ["choice", "P(landlord)", f"landlord wins [{level}]", "this seat wins", "E[score]", f"[{level}]"]
    click.echo(tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True))
    _print_recommendation(ev)


def print_show(ev: ShowEvaluation) -> None:
    """The human-readable report of one show evaluation."""
    if ev.stage == "first-play":
        shown = f", the farmers showed at {','.join(ev.shown)}" if ev.shown else ""
        where = (f"bottom {ev.bottom}, base {ev.base}, doubles {','.join(f'x{b}' for b in ev.before)}{shown}, "
                 f"the landlord at his first play")
    else:
        where = f"{ev.seat} seat in the auction"
    hand = f"hand {ev.hand}" if ev.hand else "no card yet"
    click.echo(f"{hand}, {where}, to show at {ev.stage} (x{ev.factor}) or not, rules {ev.rules.describe()}"
               f"{ev.wild_note()}, {ev.policy} policy, seed {ev.seed}")
    _print_samples(ev, "the farmers' doubles" if ev.stage == "first-play" else None)
    if ev.stage == "first-play":
        click.echo(f"the landlord wins: {_pct(ev.win_prob)} {_ci(ev.win_prob_ci, _pct)}")
    else:
        click.echo(f"this seat becomes landlord: {_pct(ev.landlord_prob)}, all pass: {_pct(ev.void_prob)}; its side "
                   f"wins: {_pct(ev.win_prob)} {_ci(ev.win_prob_ci, _pct)}; the landlord shows at his first play: "
                   f"{_pct(ev.landlord_show_prob or 0.0)}")
    rows = [(name, f"{r.expected_score:+.3f}", _ci(r.score_ci, _score)) for name, r in ev.choices.items()]
    click.echo(tabulate(rows, headers=["show", "E[score]", f"[{_level(ev)}]"], tablefmt="simple",
                        disable_numparse=True))
    _print_recommendation(ev)


def _print(ev) -> None:
    if isinstance(ev, ShowEvaluation):
        print_show(ev)
    elif isinstance(ev, DoubleEvaluation):
        print_double(ev)
    elif isinstance(ev, CallEvaluation):
        print_call(ev)
    else:
        print_evaluation(ev)


@click.command()
@click.argument("hand", required=False)
@click.option("--decide", type=click.Choice(["bid", "call", "double", "show"]), default="bid", show_default=True,
              help="The decision: the bid; under call-grab or first-call bidding the call (or grab); "
                   "(Happy Dou Dizhu) the double after the auction, or showing the hand (--stage).")
@click.option("--stage", default="deal", show_default=True,
              help="--decide show: when: before-deal (no HAND), deal (HAND: the cards dealt so far), deal:N, "
                   "or first-play (the landlord's 20 cards, with --bottom, --base and the three doubles in "
                   "--before).")
@click.option("--bottom", default=None, help="The 3 bottom cards, when HAND is the landlord's 20 cards "
                                             "(--rules four: the 8 of the landlord's 33; --decide double: "
                                             "always, the bottom is shown to all).")
@click.option("--seat", type=click.Choice(SEAT_NAMES_FOUR), default=None,
              help="This seat's place in the round decided: the bidding (fourth under --rules four; a show "
                   "during the deal: the auction), or the doubling (first: the farmer on the landlord's left, "
                   "second: the other farmer, third: the landlord, who alone shows at first-play).  "
                   "[default: first; third at first-play]")
@click.option("--before", default="", help="What the earlier seats of that round did: bids (pass,1), "
                                           "calls (pass,call,grab) or doubles (x2,x1; at first-play all three).")
@click.option("--base", type=click.IntRange(min=1), default=1, show_default=True,
              help="--decide double or show at first-play: the base the auction set (2 per grab under "
                   "call-grab).")
@click.option("--shown", default="",
              help="--decide show at first-play: the stages at which the farmers showed during the deal "
                   "(deal:5), merged with the landlord's x2 by show_merge.")
@click.option("--flush/--no-flush", default=None,
              help="--decide double under bottom_bonus=table: the bottom's three cards share a suit.")
@click.option("--samples", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Maximum number of samples (stops earlier once the recommendation is settled).")
@click.option("--confidence", type=click.FloatRange(0.5, 1, max_open=True), default=0.95, show_default=True,
              help="Confidence level of the intervals and of the stopping rule.")
@click.option("--policy", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True,
              help="Self-play policy of the playouts and of the bid rule.")
@click.option("--no-early-stop", is_flag=True, help="Always use --samples samples.")
@click.option("--inference", type=click.Choice(["on", "off"]), default="off", show_default=True,
              help="Read the earlier seats' actions by the player model (each deal kept with the chance it "
                   "gives them) instead of by the policy's own rule (kept when the rule acts exactly so).")
@seed_option
@workers_option
@rules_option
@format_option()
@file_option
def bid(hand, decide, stage, bottom, seat, before, base, shown, flush, samples, confidence, policy, no_early_stop,
        inference, seed, workers, rules, fmt, file):
    """Should HAND bid (or double)? Win probability and expected score per choice.

    The unseen cards are dealt at random (consistent with --before, judged by
    the policy's own bid rule, or with --inference on by the player model),
    each deal is played out by the policy, and
    each choice is scored for this seat: +-2 x stake as landlord, +-stake as
    a farmer, 0 on a redeal (stake = winning bid x 2 per bomb, rocket,
    spring, anti-spring).  --file takes one hand per line, optionally with
    bottom=, seat= and before= keys.

    --rules four (four players, two decks): HAND is 25 cards (or the
    landlord's 33 with the 8-card --bottom), --seat first to fourth, and the
    landlord scores +-3 x stake (stake = winning bid x the bombs by
    bomb_doubles, spring, anti-spring).

    --decide call (bidding=call-grab or first-call, e.g. --rules happy or
    notalon): call (or grab) or pass, given the auction so far.  Under
    --rules laizi or tiandi the bid, the call and a show during the deal
    draw the wild ranks a seat does not know yet for each deal (--wild: the
    known ones, 天 under tiandi; all of them under
    laizi_reveal=before-bidding).  --decide
    double (Happy Dou Dizhu): after the auction and the shown bottom, x1, x2
    or x4 for this seat, given the base and the doubles before it.  --decide
    show (Happy Dou Dizhu): show the hand now or not, during the deal (HAND
    the cards dealt so far, --stage deal) or, the landlord, at his first
    play (--stage first-play).  Each choice is scored with the rules' whole
    stake.

    \b
    Examples:
      $ ddz bid 3445567789TJQKA2D
      $ ddz bid 33456789TTJQKA22X --seat third --before pass,1 --samples 5000
      $ ddz bid 3345678899TJQKKA22XD --bottom 8KX --format json
      $ ddz bid 3334455667789TTJJQQKA22XD --rules four --seat second --before pass
      $ ddz bid --file hands.txt --seed 7 --format json
      $ ddz bid 3345566789TJQKA2D --rules happy --decide call --seat second --before call
      $ ddz bid 3345566789TJQKA2D --rules happy --decide double --bottom 22X --base 2
      $ ddz bid 3456789TJQKA2 --rules happy --decide show --stage deal
      $ ddz bid 33344455567TJQKA22XD --rules happy --decide show --stage first-play --bottom 2XD --before x1,x1,x4
    """
    if hand is None and file is None and decide == "show" and stage.strip().lower() in ("before-deal", "deal:0"):
        hand = ""      # before the deal: no card seen yet
    if (hand is None) == (file is None):
        raise click.UsageError("give a HAND or --file (one hand per line), not both")
    if decide != "show" and (shown or stage != "deal"):
        raise click.UsageError("--stage and --shown go with --decide show")
    defaults = {"bottom": bottom, "seat": seat, "before": before}
    common = dict(samples=samples, seed=seed, workers=default_workers(workers), policy=policy,
                  confidence=confidence, rules=rules, early_stop=not no_early_stop, inference=inference == "on")

    def run(args: dict, progress):
        if args.get("seat") is None:
            args = {k: v for k, v in args.items() if k != "seat"}
        if decide == "show":
            return evaluate_show(**args, **common, stage=stage, base=base, shown=shown, flush=flush,
                                 progress=progress)
        if decide == "double":
            return evaluate_double(**args, **common, base=base, flush=flush, progress=progress)
        if decide == "call":
            if args.get("bottom"):
                raise click.UsageError("--decide call is before the auction: no --bottom")
            args = {k: v for k, v in args.items() if k != "bottom"}
            return evaluate_call(**args, **common, progress=progress)
        return evaluate_bid(**args, **common, progress=progress)

    if file is None:
        return run_inputs("bid", run, _print, fmt, one={"hand": hand, **defaults})
    return run_inputs("bid", run, _print, fmt, inputs=file_inputs(file),
                      parse=lambda text: parse_bid_line(text, defaults),
                      summary="{done} hand(s) evaluated, {failed} skipped")
