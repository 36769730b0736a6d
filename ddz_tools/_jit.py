"""The one place that sets how kernels are compiled.

Every kernel in the package is decorated with :data:`kernel`: nopython mode
and an on-disk cache, so only the first run on a machine pays for compiling.
Kernels take and return int64 scalars and int64 arrays only; cached kernels
freeze the globals they read, so every table they use is a module constant
that never changes or is passed in.

Performance note (measured in the move generator): each call of a kernel
that takes arrays costs atomic reference-count updates on those arrays, which
dominated a per-play helper (42M -> 170M plays/s once the write was inlined).
Pass arrays to helpers once per position, not once per play.
"""

import numba

kernel = numba.njit(cache=True, nogil=True)
