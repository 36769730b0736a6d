"""ddz-tools: Dou Dizhu analysis and hand solving.

Layers, each importing only those before it:

1. :mod:`ddz_tools.cards` -- notation, packed hands, :class:`~ddz_tools.cards.Hand`;
2. :mod:`ddz_tools.rules` -- combination types, readings, comparison, rule options;
3. :mod:`ddz_tools.movegen` -- the Numba move generator every tool shares;
4. :mod:`ddz_tools.decompose`, :mod:`ddz_tools.solver`, :mod:`ddz_tools.game`
   (with records and policies) -- the engines;
5. :mod:`ddz_tools.bid`, :mod:`ddz_tools.analyze` -- Monte Carlo and batch work;
6. :mod:`ddz_tools.cli` -- the thin ``ddz`` command line.
"""

from .cards import Hand, format_cards, parse_cards
from .errors import DdzError
from .rules import PRESETS, Play, Rules, classify

__version__ = "0.1.0"

__all__ = ["Hand", "Play", "Rules", "PRESETS", "DdzError", "classify", "parse_cards", "format_cards"]
