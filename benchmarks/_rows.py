"""Shared by the resumable benchmarks: the rows an earlier run left in its JSON Lines file."""

from __future__ import annotations

import json
import os


def read_rows(path: "str | None", key: str) -> dict:
    """The JSON objects of ``path`` (one a line, blank lines skipped) by their ``key`` field;
    empty when ``path`` is None or does not exist yet."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        rows = (json.loads(line) for line in f if line.strip())
        return {r[key]: r for r in rows}
