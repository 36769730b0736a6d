"""The engines: :mod:`.decompose` (the fewest plays that empty a hand),
:mod:`.solver` (exact open-hand search), :mod:`.game` with :mod:`.records`,
:mod:`.botzone`, :mod:`.replay`, :mod:`.sources` and :mod:`.position` (the
game engine and its file formats), :mod:`.policies` and :mod:`.selfplay`
(players and seeded self-play), and :mod:`.kernels` (the kernels other code
may call, named in one place)."""
