"""The first layer: cards and rules.

:mod:`.cards` (notation, packed hands), :mod:`.kinds` (the play encoding the
kernels share), :mod:`.faces` (what wild cards stand for), :mod:`.rules`
(combination types, readings, comparison, rule options), :mod:`.gamerules`
(turn and trick, settlement, auction step: each game rule written once as a
kernel), :mod:`.errors` and :mod:`._jit` (how kernels are compiled).  Nothing
here imports another layer.
"""
