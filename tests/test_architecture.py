"""The package's shape, checked: the layers import only the layers before
them, no module is over 800 lines, and code outside the variants layer does
not ask which variant it holds (``docs/architecture.md``).

``python tests/test_architecture.py`` lists the branches on variant facts
that are left outside the variants layer, and each module's size.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "ddz_tools"

#: The layers in order; a module may import its own layer and those before it.
LAYERS = ("core", "variants", "moves", "engines", "analysis", "cli")
#: Modules at the package's top: the package itself (its public names, from
#: core) and the programs that use every layer.
TOP = {"__init__": -1, "__main__": len(LAYERS), "agents": len(LAYERS), "warmup": len(LAYERS)}
MAX_LINES = 800
#: Attributes that say which variant a rule set is.
VARIANT_FACTS = {"is_four", "is_laizi", "has_stages", "wild_ranks", "bottom_cards", "decks", "seats", "nseats",
                 "preset", "landlord_draw", "show", "doubling", "bottom_bonus", "must_call"}
#: At most this many branches on variant facts above the variants layer (moves, engines,
#: analysis, cli): none, every such question (a message, a check, a table's own figures)
#: is asked of the variant.
MAX_VARIANT_BRANCHES = 0
#: The core layer lies below the variants and cannot ask them: its branches are the rule
#: options' own (which options a preset's parts use, the packed limits of one or two decks).
MAX_CORE_BRANCHES = 16


def modules():
    """Every module of the package: (dotted name, path)."""
    for path in sorted(PKG.rglob("*.py")):
        parts = path.relative_to(PKG.parent).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 2:
            parts = parts[:-1]
        yield ".".join(parts), path


def layer_of(name: str) -> int:
    parts = name.split(".")
    if len(parts) == 2 and parts[1] in TOP:
        return TOP[parts[1]]
    if parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    raise AssertionError(f"{name} is in no layer folder ({', '.join(LAYERS)})")


def imports_of(name: str, path: Path, top_level_only: bool = False):
    """The package modules ``name`` imports: (imported name, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    package = name.split(".") if is_pkg else name.split(".")[:-1]
    nodes = tree.body if top_level_only else ast.walk(tree)
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("ddz_tools"):
                yield target, node.lineno
                for alias in node.names:     # from . import module
                    yield f"{target}.{alias.name}", node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ddz_tools"):
                    yield alias.name, node.lineno


def is_kernel(fn: ast.AST) -> bool:
    return any((isinstance(d, ast.Name) and d.id in ("kernel", "flat_kernel"))
               or (isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id in ("kernel", "flat_kernel"))
               for d in getattr(fn, "decorator_list", ()))


def _asks_variant(test: ast.AST) -> bool:
    """True when a condition reads a variant fact: a flag (``rules.is_four``)
    or a fact compared with a constant (``seats == 3``, ``show != "off"``)."""
    for node in ast.walk(test):
        if isinstance(node, ast.Attribute) and node.attr in ("is_four", "is_laizi", "has_stages", "landlord_draw"):
            return True
        # A range check (``0 <= seat < seats``) or a test against None validates; it does not ask.
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Constant) and s.value is None for s in sides):
                continue
            named = [s for s in sides if (isinstance(s, ast.Attribute) and s.attr in VARIANT_FACTS)
                     or (isinstance(s, ast.Name) and s.id in VARIANT_FACTS)]
            if named and any(isinstance(s, (ast.Constant, ast.Tuple)) for s in sides):
                return True
    return False


def variant_branches():
    """Branches outside the variants layer that ask which variant a rule set
    is: (path, line, in a kernel)."""
    out = []
    for name, path in modules():
        if name.startswith("ddz_tools.variants"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        kernels = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and is_kernel(n)]
        kernel_lines = [(k.lineno, k.end_lineno) for k in kernels]
        for node in ast.walk(tree):
            if isinstance(node, (ast.If, ast.IfExp, ast.While)) and _asks_variant(node.test):
                inside = any(a <= node.lineno <= b for a, b in kernel_lines)
                out.append((path.relative_to(PKG.parent), node.lineno, inside))
    return out


def test_layers_import_only_earlier_layers():
    bad = []
    for name, path in modules():
        mine = layer_of(name)
        for target, line in imports_of(name, path):
            parts = target.split(".")
            if len(parts) < 2 or target == name:
                continue
            theirs = TOP.get(parts[1], LAYERS.index(parts[1]) if parts[1] in LAYERS else None)
            if theirs is not None and theirs > mine:
                bad.append(f"{path.relative_to(PKG.parent)}:{line} imports {target}")
    assert not bad, "imports of a later layer:\n" + "\n".join(bad)


def test_no_import_cycles():
    """No two modules import each other at load time, directly or round a longer circle."""
    graph = {}
    known = dict(modules())
    for name, path in known.items():
        graph[name] = {t for t, _ in imports_of(name, path, top_level_only=True) if t in known and t != name}
    state, stack, cycles = {}, [], []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1 and not m.startswith(n + "."):
                # a package importing its own modules from __init__ is not a circle
                cyc = stack[stack.index(m):] + [m]
                if not all(b.startswith(a + ".") or a.startswith(b + ".") for a, b in zip(cyc, cyc[1:])):
                    cycles.append(" -> ".join(cyc))
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    assert not cycles, "import circles:\n" + "\n".join(cycles)


def test_modules_are_rooms_of_one_concern():
    big = [(str(p.relative_to(PKG.parent)), n) for _, p in modules()
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def test_code_outside_the_variants_layer_does_not_ask_which_variant_it_is():
    found = variant_branches()
    core = [f"{p}:{line}" for p, line, _ in found if p.parts[1] == "core"]
    above = [f"{p}:{line}" for p, line, _ in found if p.parts[1] != "core"]
    assert len(above) <= MAX_VARIANT_BRANCHES, (len(above), above)
    assert len(core) <= MAX_CORE_BRANCHES, (len(core), core)


if __name__ == "__main__":
    rows = variant_branches()
    for p, line, inside in rows:
        print(f"{p}:{line}{'  (kernel)' if inside else ''}")
    by_file = {}
    for p, _, inside in rows:
        by_file.setdefault(str(p), [0, 0])[inside] += 1
    print(f"\n{len(rows)} branches on variant facts outside ddz_tools/variants "
          f"({sum(1 for r in rows if r[2])} in kernels)")
    for f, (py, k) in sorted(by_file.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {py + k:3d}  {f}" + (f" ({k} in kernels)" if k else ""))
    big = sorted(((len(p.read_text().splitlines()), str(p.relative_to(PKG.parent))) for _, p in modules()),
                 reverse=True)
    print("\nlargest modules:", ", ".join(f"{f} {n}" for n, f in big[:10]))
    sys.exit(0)
