"""Rules: combination types, readings, comparison and rule options.

The public face of the rules layer: the rule options live in
:mod:`.options` (:class:`Rules`, the presets), the plays in :mod:`.plays`
(:class:`Play`, readings, :func:`classify`) and the encoding the kernels
share in :mod:`.kinds`; every tool imports them from here.

The rules in plain English (``docs/rules.md`` is the full text)
---------------------------------------------------------------
Three players, 54 cards (ranks ``3..A 2`` four times, two jokers ``X`` < ``D``).
A play is one *combination*: solo, pair, trio, trio + solo, trio + pair, chain
(5..12 consecutive singles, 3..A), pair chain (3+ consecutive pairs, 3..A),
airplane (2+ consecutive trios, 3..A), airplane + solo wings (k trios + k solos),
airplane + pair wings (k trios + k pairs), four + two solos, four + two pairs,
bomb (four of a rank) and rocket (both jokers).  A kicker never has a rank of
the combination's body.  A play is answered by the same type with the same
length and a higher main rank (the highest body rank); a bomb beats every
non-bomb and any lower bomb; the rocket beats everything.

Rule options (each a flag, see :class:`Rules`) decide the disputed details:
``kickers_distinct``, ``jokers_as_kickers``, ``jokers_in_four_two``,
``four_with_one`` and ``chains_with_two``; the presets ``standard`` (default),
``douzero`` and ``encyclopedia`` name sets of them.  Game options (``bidding``,
``first_bidder``, ``spring``) live on the same object.

Encoding used by the kernels
----------------------------
A play is two int64s: ``cards`` (a packed hand, see :mod:`ddz_tools.core.cards`)
and ``kind``::

    kind = type | main << 5 | length << 9

``type`` is one of the ``T_*`` constants, ``main`` the highest rank index of
the body and ``length`` the number of body ranks (1 except for chains and
airplanes).  A multiset with two readings (``333444555666`` as a 4-trio
airplane, and under ``douzero`` also as a 3-trio airplane with solo wings) is
one play per reading: same ``cards``, different ``kind``.
"""

from .faces import reads_as_itself  # noqa: F401
from .kinds import *  # noqa: F401,F403  (the encoding: every tool names it from here)
from .options import *  # noqa: F401,F403
from .plays import *  # noqa: F401,F403
