"""The documentation's examples are run and compared with what they show.

Rewrite the examples from the commands' real output with ``make docs``
(``.venv/bin/python tests/test_docs.py --update``); ``--help`` lists the options.

What is checked
---------------
Every fenced block marked ``console`` in README.md and docs/*.md is a transcript:

- A line ``$ ddz ...`` is a command.  A trailing ``# comment`` is not part of it;
  a line ending in ``\\`` continues on the next.  Only ``ddz`` commands are allowed.
- The lines after it, up to the next ``$`` line or the end of the block, are its
  expected output (blank lines at the end are dropped).  A command is run in a
  fresh temporary directory where ``data/`` is the repository's ``data/``, so
  paths such as ``data/sample_games.jsonl`` read as from the repository root and
  files written (``--out games.jsonl``) never land in the repository.  It must
  exit with status 0.
- Stdout alone is compared; a command ending in ``2>&1`` shows stdout and
  stderr as a terminal does.  The one-time kernel compilation notice and the
  progress line are off (``DDZ_COMPILE_NOTICE=0``, ``DDZ_PROGRESS`` unset).
- A line that is just ``...`` stands for any number of lines (none included);
  ``...`` inside a line stands for any text within that line.
- What legitimately varies from run to run is masked on both sides before they
  are compared: durations (``0.064 s``, ``12 ms``), rates (``452/s``,
  ``11,900 games/s``), table sizes (``of 8,192 entries``, ``0.25 of 512 MiB``)
  and other memory sizes, dates and times of day, temporary paths, and in JSON
  the values of ``seconds``, ``nodes_per_second``, ``mb``, ``used_mb``,
  ``capacity`` and ``fill``.  Runs of spaces count as one and runs of dashes
  (table rules) as one, as masked figures may change column widths.  Everything
  else must be equal: a changed count, play or column fails, with a diff that
  names the file, the line and the command.
- A block whose opening fence is preceded by the line ``<!-- docs-test: slow -->``
  runs only with ``pytest -m slow`` (the default run stays quick).

Fenced blocks marked ``sh`` are commands to copy, not transcripts: they are not run.

Each command runs as a process of its own (``python -m ddz_tools``), as a user
runs it: about 0.5 s each once the kernels are compiled.  Run in this process
instead (through ``ddz_tools.cli:main`` in click's ``CliRunner`` isolation;
``DDZ_DOCS_IN_PROCESS=1`` for pytest, ``--in-process`` for the update), the
commands take about 0.1 s each but do not print quite the same: what a command
leaves in the process can change the next one's search (a solve's node count
once differed after ``ddz report``), and a solve's time then leaves out loading
its kernel.

The headline figures
--------------------
docs/benchmarks.md holds the headline figures table between the lines
``<!-- BEGIN headline figures ...`` and ``<!-- END headline figures -->``;
README.md holds a copy between the same lines.  ``--update`` copies it and a
test fails when the two differ.

``--update`` rewrites the examples whose output no longer matches (in full: an
elision with ``...`` is kept only where the new output still fits it) and copies
the figures table; ``--update --all`` also refreshes the masked figures of the
examples that still match.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import functools
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BENCHMARKS = REPO / "docs" / "benchmarks.md"
SLOW_MARK = "<!-- docs-test: slow -->"
FIGURES_BEGIN = re.compile(r"^<!-- BEGIN headline figures\b.*-->$")
FIGURES_END = "<!-- END headline figures -->"
ENV = {"DDZ_COMPILE_NOTICE": "0", "DDZ_PROGRESS": None}

# What varies from run to run, each with what it is masked as.  Applied in this
# order to both the documented and the real output.
_NUM = r"\d[\d,]*(?:\.\d+)?"
MASKS = [
    (re.compile(r"(?:/tmp|/var/folders)/\S+"), "<tmp>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?"), "<date>"),
    (re.compile(r'"(seconds|nodes_per_second|mb|used_mb|capacity|fill)": ?-?[\d.e+-]+'), r'"\1":<n>'),
    (re.compile(rf"\bof {_NUM} entries"), "of <n> entries"),
    (re.compile(rf"\b{_NUM} of {_NUM} [KMGT]iB\b"), "<size>"),
    (re.compile(rf"\b{_NUM} ?(?:[KMGT]i?B|bytes)\b"), "<size>"),
    (re.compile(rf"\b{_NUM}(?=(?: [a-z]+)?/s\b)"), "<n>"),
    (re.compile(rf"\b{_NUM}(?: s| ?ms| ?us| ?µs| min)\b(?!/)"), "<time>"),
    (re.compile(r"\b\d\d:\d\d(?::\d\d)?\b"), "<time>"),
]


def mask(line: str) -> str:
    """``line`` with what varies from run to run replaced by placeholders."""
    for pattern, repl in MASKS:
        line = pattern.sub(repl, line)
    return line.rstrip()


def normalize(line: str) -> str:
    """The masked line as compared: runs of spaces and of dashes made one."""
    return re.sub(r"-{3,}", "---", re.sub(r"\s+", " ", mask(line))).strip()


# Parsing ---------------------------------------------------------------------

@dataclasses.dataclass
class Example:
    """One ``$ ddz ...`` command of a console block and the output it shows."""

    path: Path
    line: int                  # 1-based line of the ``$``
    command: str               # as written, continuation lines joined, comment dropped
    argv: list[str]            # the arguments after ``ddz``
    merge_stderr: bool         # the command ends in ``2>&1``
    expected: list[str]        # the lines shown after it
    span: tuple[int, int]      # 0-based [start, end) of the output lines in the file
    slow: bool

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def parse(path: Path) -> list[Example]:
    """The examples of every console block of one Markdown file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    examples: list[Example] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        slow = i > 0 and lines[i - 1].strip() == SLOW_MARK
        end = next((k for k in range(i + 1, len(lines)) if lines[k].strip() == "```"), None)
        if end is None:
            raise ValueError(f"{path.name}:{i + 1}: console block never closed")
        k = i + 1
        if k < end and not lines[k].startswith("$ "):
            raise ValueError(f"{path.name}:{k + 1}: a console block must start with a '$ ' command")
        while k < end:
            start = k
            text = lines[k][2:]
            while text.endswith("\\") and k + 1 < end:
                k += 1
                text = text[:-1].rstrip() + " " + lines[k].strip()
            k += 1
            out_start = k
            while k < end and not lines[k].startswith("$ "):
                k += 1
            out_end = k
            while out_end > out_start and not lines[out_end - 1].strip():
                out_end -= 1
            examples.append(_example(path, start, text, lines[out_start:out_end], (out_start, out_end), slow))
        i = end + 1
    return examples


def _example(path, start, text, expected, span, slow) -> Example:
    words = shlex.split(text, comments=True)
    merge = bool(words) and words[-1] == "2>&1"
    if merge:
        words = words[:-1]
    command = shlex.join(words) + (" 2>&1" if merge else "")
    if not words or words[0] != "ddz" or any(w in ("|", ">", "<", "&&", ";") for w in words):
        raise ValueError(f"{path.name}:{start + 1}: only plain `ddz ...` commands can be run: {text!r}")
    return Example(path, start + 1, command, words[1:], merge, expected, span, slow)


def all_examples() -> list[Example]:
    return [ex for path in DOC_FILES for ex in parse(path)]


# Running ---------------------------------------------------------------------

@contextmanager
def workdir():
    """A temporary directory with ``data/`` linked to the repository's, as cwd."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="ddz-docs-") as tmp:
        os.symlink(REPO / "data", Path(tmp) / "data")
        os.chdir(tmp)
        try:
            yield tmp
        finally:
            os.chdir(old)


def run(example: Example, in_subprocess: bool = True) -> tuple[int, str]:
    """Run the example's command; its exit status and the output to compare."""
    with workdir() as tmp:
        if in_subprocess:
            env = {k: v for k, v in {**os.environ, **ENV}.items() if v is not None}
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
            proc = subprocess.run([sys.executable, "-m", "ddz_tools", *example.argv], cwd=tmp, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT if example.merge_stderr else subprocess.PIPE,
                                  text=True, timeout=900)
            status, text = proc.returncode, proc.stdout
            if status and not example.merge_stderr:
                text += proc.stderr
        else:
            from click.testing import CliRunner

            from ddz_tools.cli import main

            with CliRunner().isolation(env=ENV) as streams:
                try:
                    main(example.argv)
                    status = 0
                except SystemExit as exc:
                    status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                sys.stdout.flush()
                sys.stderr.flush()
                out, err, both = (s.getvalue().decode("utf-8", "replace") for s in streams)
            text = both if example.merge_stderr else out
            if status and not example.merge_stderr:
                text += err
    return status, text.replace(tmp, "/tmp/ddz-docs")


# Comparing -------------------------------------------------------------------

def _line_pattern(line: str):
    parts = re.split(r"\s*\.\.\.\s*", normalize(line))
    if len(parts) == 1:
        return parts[0]
    return re.compile(".*".join(re.escape(p) for p in parts) + r"\Z")


def align(expected: list[str], actual: list[str]) -> list[int | None] | None:
    """For each expected line, the index of the actual line it matches (None
    for ``...`` lines), or None when the output does not match."""
    pats = [None if line.strip() == "..." else _line_pattern(line) for line in expected]
    norm = [normalize(line) for line in actual]

    def fits(p, j):
        return p.match(norm[j]) is not None if isinstance(p, re.Pattern) else p == norm[j]

    @functools.lru_cache(maxsize=None)
    def go(i: int, j: int):
        if i == len(pats):
            return () if j == len(norm) else None
        if pats[i] is None:
            for jj in range(j, len(norm) + 1):
                rest = go(i + 1, jj)
                if rest is not None:
                    return (None, *rest)
            return None
        if j < len(norm) and fits(pats[i], j):
            rest = go(i + 1, j + 1)
            if rest is not None:
                return (j, *rest)
        return None

    found = go(0, 0)
    return None if found is None else list(found)


def output_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def failure(example: Example, status: int, text: str) -> str | None:
    """None when the example's output matches what it shows, else a report."""
    actual = output_lines(text)
    head = f"{example.where}: $ {example.command}\n"
    if status != 0:
        return head + f"exited with status {status}:\n" + "\n".join(actual)
    if align(example.expected, actual) is not None:
        return None
    diff = difflib.unified_diff([mask(x) for x in example.expected], [mask(x) for x in actual],
                                f"{example.where} (documented)", "actual output", lineterm="", n=2)
    return (head + "output differs (times, rates, sizes and dates masked; `make docs` rewrites it):\n"
            + "\n".join(diff))


def rewritten(example: Example, actual: list[str], refresh: bool) -> list[str] | None:
    """The example's new output lines, or None to leave it as it is."""
    where = align(example.expected, actual)
    if where is None:
        return actual
    if not refresh:
        return None
    return [example.expected[i] if j is None or "..." in example.expected[i] else actual[j]
            for i, j in enumerate(where)]


# The headline figures ---------------------------------------------------------

def figures(path: Path) -> tuple[list[str], int, int]:
    """The file's lines and the [begin, end) of the headline figures between the markers."""
    lines = path.read_text(encoding="utf-8").split("\n")
    begins = [i for i, line in enumerate(lines) if FIGURES_BEGIN.match(line.strip())]
    ends = [i for i, line in enumerate(lines) if line.strip() == FIGURES_END]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise ValueError(f"{path.relative_to(REPO)}: expected one headline figures block between markers")
    return lines, begins[0], ends[0] + 1


# The tests -------------------------------------------------------------------

try:
    import pytest
except ImportError:  # pragma: no cover - the update command needs no pytest
    pytest = None

if pytest is not None:
    def _params():
        return [pytest.param(ex, id=f"{ex.where} {ex.command[:60]}",
                             marks=[pytest.mark.slow] if ex.slow else [])
                for ex in all_examples()]

    @pytest.mark.parametrize("example", _params())
    def test_example(example):
        status, text = run(example, in_subprocess=os.environ.get("DDZ_DOCS_IN_PROCESS") != "1")
        problem = failure(example, status, text)
        if problem:
            pytest.fail(problem, pytrace=False)

    def test_readme_figures_are_benchmarks_headline():
        readme, a, b = figures(REPO / "README.md")
        bench, c, d = figures(BENCHMARKS)
        if readme[a:b] != bench[c:d]:
            diff = difflib.unified_diff(bench[c:d], readme[a:b], "docs/benchmarks.md", "README.md", lineterm="")
            pytest.fail("README.md's headline figures differ from docs/benchmarks.md's "
                        "(`make docs` copies them):\n" + "\n".join(diff), pytrace=False)

    def test_console_blocks_parse():
        """Every console block parses; the examples cover the documentation's files."""
        examples = all_examples()
        assert len(examples) >= 10
        assert all(ex.expected for ex in examples), [ex.where for ex in examples if not ex.expected]

    def _slug(heading: str) -> str:
        """GitHub's anchor of a Markdown heading."""
        return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

    def test_links_resolve():
        """Every relative link of README.md and docs/*.md names a file that exists
        and, after a ``#``, one of its headings."""
        broken = []
        for path in DOC_FILES:
            text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
            for target in re.findall(r"\]\(([^)\s]+)\)", text):
                if re.match(r"[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                dest = (path.parent / file).resolve() if file else path
                if not dest.exists():
                    broken.append(f"{path.relative_to(REPO)}: {target}")
                elif anchor and dest.suffix == ".md":
                    headings = re.findall(r"^#+ (.*)$", dest.read_text(encoding="utf-8"), flags=re.M)
                    if anchor not in {_slug(h) for h in headings}:
                        broken.append(f"{path.relative_to(REPO)}: {target}")
        assert not broken, "broken links:\n" + "\n".join(broken)

    @pytest.mark.parametrize("shown, real, ok", [
        (["nodes  29 (50/s)"], ["nodes  23 (452/s)"], False),
        (["nodes  23 (50/s)", "time   0.576 s"], ["nodes  23 (4,176/s)", "time   0.006 s"], True),
        (["table  17 of 16,777,216 entries (512.0 MiB), 12 hits"],
         ["table  17 of 8,192 entries (0.25 of 512 MiB), 12 hits"], True),
        (["table  17 of 8,192 entries (0.25 of 512 MiB), 12 hits"],
         ["table  17 of 8,192 entries (0.25 of 512 MiB), 4 hits"], False),
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "...", "d"], ["a", "b"], False),
        (['{"count":15,"plays":[{"cards":"3"}, ...]}'], ['{"count":15,"plays":[{"cards":"3"},{"cards":"4"}]}'], True),
        (['{"count":15,"plays":[{"cards":"3"}, ...]}'], ['{"count":14,"plays":[{"cards":"3"},{"cards":"4"}]}'], False),
        (['{"nodes":23,"seconds":0.005,"tt":{"mb":512.0}}'], ['{"nodes":23,"seconds":1.5e-05,"tt":{"mb":64.0}}'], True),
        (["type   count", "-----  -----", "chain  7"], ["type   count", "-----  -----", "chain  8"], False),
        (["128 deals of 128 max; 6.24 s"], ["128 deals of 128 max; 0.24 s"], True),
        (["controls: 2s 0, jokers 2"], ["controls: 2s 1, jokers 2"], False),
    ])
    def test_comparison(shown, real, ok):
        """The masks hide only what varies: a changed count still fails."""
        assert (align(shown, real) is not None) is ok


# The update command ----------------------------------------------------------

def update(paths: list[Path], refresh: bool, slow: bool, in_subprocess: bool) -> int:
    """Rewrite the examples of ``paths`` from real output; the number of problems."""
    problems = 0
    for path in paths:
        examples = [ex for ex in parse(path) if slow or not ex.slow]
        lines = path.read_text(encoding="utf-8").split("\n")
        changes = []
        for ex in examples:
            t0 = time.perf_counter()
            status, text = run(ex, in_subprocess)
            took = time.perf_counter() - t0
            if status != 0:
                problems += 1
                print(failure(ex, status, text), file=sys.stderr)
                continue
            new = rewritten(ex, output_lines(text), refresh)
            changed = new is not None and new != ex.expected
            print(f"{'rewritten' if changed else 'unchanged'}  {took:6.2f} s  {ex.where}: $ {ex.command}")
            if changed:
                changes.append((ex.span, new))
        for (a, b), new in sorted(changes, reverse=True):
            lines[a:b] = new
        if changes:
            path.write_text("\n".join(lines), encoding="utf-8")
    readme = REPO / "README.md"
    if readme in paths:
        bench, c, d = figures(BENCHMARKS)
        lines, a, b = figures(readme)
        if lines[a:b] != bench[c:d]:
            lines[a:b] = bench[c:d]
            readme.write_text("\n".join(lines), encoding="utf-8")
            print("rewritten  README.md: the headline figures, from docs/benchmarks.md")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Rewrite the documentation's console examples "
                                     "from the commands' real output (see this file's docstring).")
    parser.add_argument("--update", action="store_true", required=True,
                        help="rewrite the examples whose output changed, and README.md's figures table")
    parser.add_argument("--all", action="store_true",
                        help="also refresh the masked figures (times, rates) of examples that still match")
    parser.add_argument("--fast", action="store_true", help="skip the examples marked slow")
    parser.add_argument("--in-process", action="store_true",
                        help="run the commands in this process (quicker, but see this file's docstring)")
    parser.add_argument("files", nargs="*", type=Path, help="Markdown files (default: README.md and docs/*.md)")
    args = parser.parse_args(argv)
    os.environ["DDZ_COMPILE_NOTICE"] = "0"
    paths = [p.resolve() for p in args.files] or DOC_FILES
    return 1 if update(paths, args.all, not args.fast, not args.in_process) else 0


if __name__ == "__main__":
    sys.exit(main())
