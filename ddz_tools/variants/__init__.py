"""The variants layer: each variant of the game answers for itself.

:func:`variant_of` gives the :class:`Variant` of a rule set: its
:class:`~.table.Table` (deal, seats, roles, settlement), its
:class:`~.wild.WildCards` (the wild draw and reveal) and its
:class:`~.stake.Stake` (auction and stake stages), which decisions exist
(:meth:`Variant.supports`) and the kernels' parameters.  :data:`VARIANTS` is
the registry, :func:`register` adds a variant.  This layer imports only
:mod:`ddz_tools.core`.
"""

from .stake import Stake
from .table import FOUR, NO_BOTTOM, ROLE_NAMES, THREE, Table
from .variant import DECISIONS, VARIANTS, Variant, find_variant, register, support_table, variant_of
from .wild import LAIZI, NATURAL, TIANDI, WildCards

__all__ = ["Variant", "variant_of", "find_variant", "register", "support_table", "VARIANTS", "DECISIONS", "Table", "THREE",
           "NO_BOTTOM", "FOUR", "ROLE_NAMES", "WildCards", "NATURAL", "LAIZI", "TIANDI", "Stake"]
