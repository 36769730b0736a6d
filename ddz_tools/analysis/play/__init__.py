"""``ddz play``: a whole game at the terminal against the bots, with hints."""
