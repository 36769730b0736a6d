"""The tools built on the engines: :mod:`.bid` (the Monte Carlo stake
evaluators), :mod:`.advise` (the best play with hidden cards), :mod:`.analyze`
(batch analysis of recorded games), :mod:`.review` and :mod:`.report` (the
whole-game review and its HTML report)."""
