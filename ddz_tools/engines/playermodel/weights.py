"""The model's weights: the JSON file shipped in the package, read and written.

``weights.json`` (format ``ddz-playermodel/1``) holds one entry a variant
(the rule presets' names): its player types, each with its prior, its floor
``eps``, its play weights by feature name and the ``[beta, alpha]`` of each
decision, and how they were fitted (``fit``: the command, the games, the
seed, the penalty).  :func:`load_model` gives the :class:`PlayerModel` of a
rule set: its variant's entry, or for a variant the file does not name
(one made with :func:`~ddz_tools.variants.register`) the entry of the first
variant served by the same kernels with the same auction, else
``standard``'s.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os

import numpy as np

from ...core.errors import ArgumentError
from ...variants import VARIANTS, variant_of
from .model import DECISION_CODES, FEATURE_NAMES, NF, SCALE, W_DECISION, W_EPS, W_PRIOR, WEIGHTS_SIZE

__all__ = ["FORMAT", "WEIGHTS_PATH", "PlayerModel", "load_model", "model_of", "read_weights", "write_weights"]

FORMAT = "ddz-playermodel/1"
#: The weights shipped in the package.
WEIGHTS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights.json")


@dataclasses.dataclass(frozen=True, eq=False)
class PlayerModel:
    """The model of one variant: ``types`` (dicts: ``name``, ``prior``,
    ``eps``, ``play`` (a list of :data:`~.model.NF` weights in the order of
    :data:`~.model.FEATURE_NAMES`), ``bid``, ``call``, ``double``, ``show``
    (``[beta, alpha]``)), ``fit`` (how they were fitted) and ``weights``, the
    int64 array ``(K, WEIGHTS_SIZE)`` the kernels take."""

    variant: str
    types: tuple
    fit: dict
    weights: np.ndarray

    @property
    def names(self) -> tuple:
        return tuple(t["name"] for t in self.types)

    @property
    def priors(self) -> np.ndarray:
        return np.array([t["prior"] for t in self.types])


def model_of(variant: str, types, fit: "dict | None" = None) -> PlayerModel:
    """A :class:`PlayerModel` from its types (dicts as :class:`PlayerModel`
    says; ``play`` may be a dict by feature name), the priors made to add
    up to one."""
    rows = []
    clean = []
    total = sum(float(t["prior"]) for t in types)
    if not types or total <= 0:
        raise ArgumentError("a player model needs at least one type with a positive prior", param="types")
    for t in types:
        play = t["play"]
        if isinstance(play, dict):
            play = [float(play.get(name, 0.0)) for name in FEATURE_NAMES]
        eps = float(t["eps"])
        if len(play) != NF or not 0 < eps <= 1:
            raise ArgumentError(f"type {t.get('name')!r}: give {NF} play weights and a floor eps in (0, 1]",
                                param="types")
        c = dict(t, play=[float(x) for x in play], eps=eps, prior=float(t["prior"]) / total)
        for name in DECISION_CODES:
            c[name] = [float(x) for x in t.get(name, (0.0, 0.0))]
        row = np.zeros(WEIGHTS_SIZE, np.int64)
        row[:NF] = np.round(np.array(c["play"]) * SCALE)
        for name, code in DECISION_CODES.items():
            slot = W_DECISION - 2 * code - 2
            row[slot:slot + 2] = np.round(np.array(c[name]) * SCALE)
        row[W_EPS] = round(eps * SCALE)
        row[W_PRIOR] = round(np.log(c["prior"]) * SCALE)
        rows.append(row)
        clean.append(c)
    w = np.array(rows, np.int64)
    return PlayerModel(variant, tuple(clean), dict(fit or {}), w)


def read_weights(path: "str | os.PathLike | None" = None) -> dict:
    """The weights file (the package's by default) as a dict."""
    with open(path or WEIGHTS_PATH, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("format") != FORMAT:
        raise ArgumentError(f"{path or WEIGHTS_PATH} is not a {FORMAT} weights file", param="path")
    return data


def write_weights(models: dict, path: "str | os.PathLike | None" = None, keep: bool = True) -> str:
    """Write the :class:`PlayerModel` of each variant (``{name: model}``) into
    the weights file (the package's by default); with ``keep`` the variants
    already in the file and not in ``models`` stay.  Returns the path."""
    path = os.fspath(path or WEIGHTS_PATH)
    data = {"format": FORMAT, "features": list(FEATURE_NAMES), "variants": {}}
    if keep and os.path.exists(path):
        data["variants"] = read_weights(path)["variants"]
    for name, m in models.items():
        types = []
        for t in m.types:
            d = {"name": t["name"], "prior": round(t["prior"], 6), "eps": t["eps"],
                 "play": {f: round(w, 6) for f, w in zip(FEATURE_NAMES, t["play"])}}
            for dec in DECISION_CODES:
                d[dec] = [round(x, 6) for x in t[dec]]
            types.append(d)
        data["variants"][name] = {"types": types, "fit": m.fit}
    with open(path, "w", encoding="utf-8") as f:
        f.write(_dump(data))
    _cached_file.cache_clear()
    return path


def _dump(data: dict) -> str:
    """The weights file's text: a variant's fit and each of its types on one line."""
    lines = ["{", f' "format": {json.dumps(data["format"])},', f' "features": {json.dumps(data["features"])},',
             ' "variants": {']
    names = list(data["variants"])
    for i, name in enumerate(names):
        e = data["variants"][name]
        lines.append(f"  {json.dumps(name)}: {{")
        lines.append(f'   "fit": {json.dumps(e["fit"])},')
        lines.append('   "types": [')
        last = len(e["types"]) - 1
        lines.extend(f"    {json.dumps(t)}" + ("," if j < last else "") for j, t in enumerate(e["types"]))
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(names) - 1 else ""))
    lines += [" }", "}", ""]
    return "\n".join(lines)


@functools.lru_cache(maxsize=4)
def _cached_file(path: str) -> dict:
    return read_weights(path)


def load_model(rules=None, path: "str | os.PathLike | None" = None) -> PlayerModel:
    """The :class:`PlayerModel` of a rule set (a :class:`~ddz_tools.core.rules.Rules`,
    its text or ``None`` for ``standard``) from the weights file.

    >>> m = load_model("happy")
    >>> m.variant, m.names, m.weights.shape[0]
    ('happy', ('heuristic', 'generic'), 2)
    """
    v = variant_of(rules)
    entries = _cached_file(os.fspath(path or WEIGHTS_PATH))["variants"]
    name = v.name if v.name in entries else None
    if name is None:
        for other in entries:
            o = VARIANTS.get(other)
            if o is not None and o.kernels == v.kernels and o.stake.auction == v.stake.auction:
                name = other
                break
    if name is None:
        name = "standard"
    if name not in entries:
        raise ArgumentError(f"the weights file holds no model for {v.name} (nor for standard)", param="rules")
    e = entries[name]
    return model_of(name, e["types"], e.get("fit"))
