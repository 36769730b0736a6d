"""The move generation layer: :mod:`.movegen`, the Numba move generator every
tool shares (leads and answers of a hand under any rule options), with the
wild-card generator :mod:`.movegen_laizi` beside it."""
