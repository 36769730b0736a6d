"""ddz-tools: Dou Dizhu analysis and hand solving.

The package is in layers, one folder each, and each layer imports only those
before it (``docs/architecture.md`` draws them):

1. :mod:`ddz_tools.core` -- cards (notation, packed hands), rules (types,
   readings, comparison, options) and the game rules every tool shares;
2. :mod:`ddz_tools.variants` -- each variant of the game answers for its deal,
   seats, settlement, wild cards, stake and which decisions exist;
3. :mod:`ddz_tools.moves` -- the Numba move generator;
4. :mod:`ddz_tools.engines` -- the decomposer, the solver, the game engine and
   its records, the policies and self-play;
5. :mod:`ddz_tools.analysis` -- the bid evaluator, the advisor, batch analysis
   and the reports;
6. :mod:`ddz_tools.cli` -- the thin ``ddz`` command line.
"""

from .core.cards import Hand, format_cards, parse_cards
from .core.errors import DdzError
from .core.rules import PRESETS, Play, Rules, classify

__version__ = "0.1.0"

__all__ = ["Hand", "Play", "Rules", "PRESETS", "DdzError", "classify", "parse_cards", "format_cards"]
