"""Constants of the solver's kernels: the sizes of the transposition table and
of the work arrays, the slots of the control array (``C_*``), the search
kernel's statuses (``ST_*``) and tasks (``TASK_*``), the phases of a frame
(``PH_*``), the bit layout of a key's misc word, and the budgets of the
search's shortcuts and of the Python driver's probing.

Cached kernels freeze the globals they read: these never change at run time
(a :class:`~ddz_tools.engines.solver.Solver`'s settings reach the kernel through its
control array).
"""

from collections import namedtuple

from ...moves.movegen import GEN_SCRATCH

#: Frames of the search's stack (the deepest line it can follow).
MAX_DEPTH = 512
#: Words per table entry and entries per bucket.
ENTRY_WORDS = 4
BUCKET = 4
ENTRY_BYTES = ENTRY_WORDS * 8
DEFAULT_TT_MB = 512
#: Buckets of a fresh table (128 KiB); it doubles when half full, up to ``tt_mb``.
START_BUCKETS = 1 << 10
#: Slots (log2) of the minimum-plays memo used for move ordering.
MEMO_BITS = 20
#: Rows (a power of two) and words per row of the answer-profile cache, and
#: the plays one profile may need.  ``pbuf`` rows 0-1 are the profile's
#: generation buffer, row 2 the work space of every generation call (its first
#: GEN_SCRATCH entries) and of the control-win search (the next 320).
PROF_ROWS = 1 << 13
PROF_W = 20
PROF_PLAYS = 1 << 14
#: Rows of the control-win memo (``Solver.cwm``, PROF_W words a row), and
#: the keys of the landlord's threats remembered after them (two rows a key,
#: see ``threats._threat_profile``): CWM_ROWS rows in all.
CW_ROWS = 1 << 16
THREAT_ROWS = 1 << 14
CWM_ROWS = CW_ROWS + 2 * THREAT_ROWS
#: Where the control-win memo merges the opponents' profiles (in ``pbuf[2]``,
#: after the control-win search's stacks; PROF_W words: the profile, its hash
#: and the seat it is for).
CW_MERGED = GEN_SCRATCH + 320
#: Where the cover rule (see :func:`threats.covered`) keeps its work in
#: ``pbuf[2]``, from CW_MERGED: its list of plays to cover from COVER_LIST
#: (at most 17 types of at most 15 lengths), the movers' merged profile from
#: COVER_OW, and the node's own merged profile, kept aside, from COVER_KEEP.
COVER_LIST = PROF_W
COVER_OW = COVER_LIST + 256
COVER_KEEP = COVER_OW + PROF_W
#: Where the threat rule (see :func:`threats.threat_rule`) keeps the node's
#: merged profile aside (from THREAT_KEEP) and builds the profile of the
#: landlord's threats (from THREAT_ONE), both after CW_MERGED in ``pbuf[2]``.
THREAT_KEEP = COVER_KEEP + PROF_W
THREAT_ONE = THREAT_KEEP + PROF_W
#: Nodes of the plain search of a position before its moves are probed in
#: rounds (see ``Solver._best``); the first round's cap of the first move is
#: PROBE_GROWTH times this, and each round multiplies the caps by PROBE_GROWTH.
PROBE_NODES = 100_000
PROBE_GROWTH = 4
#: A move's cap in a round is divided by (its place in the search order + 1) ** PROBE_POWER.
PROBE_POWER = 3
#: The least cap of a move in a round.
PROBE_MIN = 1000
#: Levels of probing: 1 probes the root's moves and, in each, the replies.
PROBE_DEPTH = 1
#: Nodes one worker searches at a root before ``workers`` > 1 share its rounds.
SPLIT_AFTER = 200_000
#: Nodes a relaxation may search before it is given up (see :mod:`.relax`).
RELAX_BUDGET = 20000
#: Hands a control-win check may expand before it gives up.
CONTROL_BUDGET = 256
#: The threat rule is tried one ply ahead (see ``search._expand``) only on the
#: landlord's moves that leave him at most this many plays.
AHEAD_PLAYS = 3
#: Sets of solo chains the low-solo bound tries before it gives up (see
#: :func:`threats.low_solos_least`).
LOW_SOLO_SETS = 256

# Status returned by the kernel.
ST_DONE = 0
ST_PAUSED = 1
ST_GROW = 2
ST_TABLE = 3
ST_MEMO = 4

# Slots of the control array.
C_SP = 0
C_NODES = 1
C_RESULT = 2
C_RET = 3
C_HITS = 4
C_STORES = 5
C_FILLED = 6
C_EVICT = 7
C_MAXD = 8
C_GROW_AT = 9
C_RX_BUDGET = 10
C_RX_D = 11
C_RX_N0 = 12
C_RX_TRIES = 13
C_RX_WINS = 14
C_RX_ABORTS = 15
C_DOMINANCE = 16
C_TASK = 17
C_COVER = 18
C_THREAT = 19
C_OUT = 20
C_KNOWN = 21
C_RX_MODE = 22
C_SIZE = 23

# What a call of search_step does (ctl[C_TASK]): search; or, instead, split
# the table, just doubled, from half the buckets it is given; or list the
# root's moves in search order (one kernel for the Python side to load: each
# compiled kernel loaded from the disk cache costs 5-25 ms at start-up).
TASK_SEARCH = 0
TASK_SPLIT = 1
TASK_MOVES = 2
TASK_BEST_MOVES = 3
#: The root frame's table key into the first four words of ``mc`` (for the tests).
TASK_KEY = 4

# Frame phases.
PH_NEW = 0
PH_ITER = 1
PH_RELAX = 2

# Misc word of a key (see :func:`key.misc`): turn (bits 0-1), last_by (2-3), the play to answer's
# kind without its bomb tier (4-16), a hand holding laizi (17, see :func:`key.canon`), the classic
# rule flags (18-22), 3-player (23), ranks renamed in order (24), the bomb tier (25-26), the other
# rule flags, laizi options and wild ranks (27-45: flag bits 5-23), ``top_bomb=bomb8`` (46, the
# one play flag above bit 23), 4-player (47).  A classic key (flags below 32, no tier) is the
# word it always was: the same buckets, the same nodes.
MISC_BITS = 48
MISC_MASK = (1 << MISC_BITS) - 1
#: Misc bit of a key whose hands hold laizi (a card of a wild rank): never renamed.
LAIZI_BIT = 1 << 17
#: Rule flags a key can hold (bits 0-23: play options and the wild ranks), besides
#: ``kinds.F_TOP_BOMB8``, which it holds at ``BOMB8_BIT``.
FLAGS_LIMIT = 1 << 24
#: Misc bits of the four-player game: ``top_bomb=bomb8``, and four hands at the table.
BOMB8_BIT = 1 << 46
FOUR_SEATS_BIT = 1 << 47
VALUE_BIT = 1 << 48
VALID_BIT = 1 << 49
WORK_SHIFT = 50

#: The kind of a pass among a node's moves.
PASS_KIND = -1

# Records of arrays the search passes down as one argument each (Numba named
# tuples: a field is read as cheaply as a separate argument).

#: The search's stack, a row per frame (``MAX_DEPTH`` rows): the seat to move,
#: the play to answer and the seat that made it, where the node's moves start
#: in the move buffers, how many it has and which is next, its phase
#: (``PH_*``), the cards it took from the hand of seat ``who`` (its move, or
#: the hand a relaxation sets aside), the node count when it was entered, the
#: cards it took from seat ``who2`` (0 but where a four-player relaxation sets
#: two farmers aside), the place of the relaxation it is in (see
#: :func:`relax.relax_code`), and its table key (four words a row).
Frames = namedtuple("Frames", "turn pk lb start n i phase cards nodes0 who cards2 who2 rx key")
#: The work arrays of a search: the decomposer's memo and work array (move
#: ordering), two scratch arrays, the answer-profile cache and its buffers
#: (``PROF_ROWS``, ``PROF_PLAYS``), the control-win memo (``CWM_ROWS``).
Work = namedtuple("Work", "memo dwork sc sk prof pbuf cwm")
