"""The options every command shares (ddz_tools/cli/options.py) and the group's help."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from ddz_tools.cli import COMMANDS, cli
from ddz_tools.core.rules import PRESETS


def help_text(*args) -> str:
    res = CliRunner().invoke(cli, [*args, "--help"], terminal_width=200)
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())   # the wrapping undone


def test_the_group_help_lists_every_preset():
    text = help_text()
    listed = re.search(r"a preset \(([^)]*)\)", text).group(1)
    assert listed.split(", ") == list(PRESETS)


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "replay"])
def test_the_rules_option_lists_every_preset(command):
    """A command group (``ddz puzzles``): each of its commands that takes --rules."""
    group = cli.get_command(None, command)
    paths = ([(command, name) for name, sub in group.commands.items() if any(p.name == "rules" for p in sub.params)]
             if isinstance(group, click.Group) else [(command,)])
    assert paths
    for path in paths:
        text = help_text(*path)
        listed = re.search(r"--rules TEXT Rules preset \(([^)]*)\)", text).group(1)
        assert listed.split(", ") == list(PRESETS)


def test_replay_takes_no_rules_option():
    """The group's help says so: a record names its own rules."""
    assert "--rules" not in help_text("replay")
