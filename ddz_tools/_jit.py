"""The one place that sets how kernels are compiled.

Every kernel in the package is decorated with :data:`kernel`: nopython mode
and an on-disk cache, so only the first run on a machine pays for compiling.
Kernels take and return int64 scalars and int64 arrays only; cached kernels
freeze the globals they read, so every table they use is a module constant
that never changes or is passed in.
"""

import numba

kernel = numba.njit(cache=True, nogil=True)

#: For tiny helpers called in hot loops: inlined at the Numba IR level, which
#: also saves the reference-count traffic of passing arrays to a call.
inline_kernel = numba.njit(cache=True, nogil=True, inline="always")
