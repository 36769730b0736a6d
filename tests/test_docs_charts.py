"""The charts in docs/ (calibration of the bid and doubling evaluators): each
is a self-contained SVG that parses and holds a drawing, and renders to a
non-blank picture in headless Chromium (``-m browser``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from analysis.test_report import CHROMIUM, not_blank, screenshot

DOCS = Path(__file__).resolve().parent.parent / "docs"
CHARTS = sorted(DOCS.glob("*.svg"))
SVG = "{http://www.w3.org/2000/svg}"


def test_every_chart_is_linked_from_a_page():
    pages = "".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    assert CHARTS and all(c.name in pages for c in CHARTS)


@pytest.mark.parametrize("chart", CHARTS, ids=lambda p: p.name)
def test_chart_parses_and_is_self_contained(chart):
    root = ET.parse(chart).getroot()
    assert root.tag == f"{SVG}svg"
    assert len(list(root.iter(f"{SVG}path"))) > 20
    text = chart.read_text(encoding="utf-8")
    assert "http://" not in text.replace("http://www.w3.org", "").replace("http://purl.org", "") \
        .replace("http://creativecommons.org", "")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make test-browser installs it)")
@pytest.mark.parametrize("chart", CHARTS, ids=lambda p: p.name)
def test_chart_renders_in_chromium(chart, tmp_path):
    png = str(tmp_path / "chart.png")
    screenshot(chart.resolve().as_uri(), png, str(tmp_path / "profile"), height=800)
    away, spread = not_blank(png)
    assert away > 0.01 and spread > 0.02, (away, spread)
