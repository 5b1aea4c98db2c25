"""``ruleproof graph``: files are written (SVG/PNG/DOT/GraphML), bad input exits 2."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.timing.graph import read_graphml

ROOT = Path(__file__).resolve().parents[2]
MODEL = str(ROOT / "model" / "agot")


class _Ran:
    """What a ``ruleproof`` run printed (stdout and stderr together) and its exit status."""

    def __init__(self, args: list[str]) -> None:
        out, err = io.StringIO(), io.StringIO()
        self.exit_code = run(args, out, err)
        self.output = out.getvalue() + err.getvalue()


@pytest.mark.parametrize(("what", "fmt"), [("timing", "svg"), ("timing", "png"), ("round", "png"), ("round", "dot"),
                                           ("timing", "graphml")])
def test_graph_files_are_written(tmp_path: Path, what: str, fmt: str) -> None:
    out = tmp_path / f"g.{fmt}"
    r = _Ran(["graph", MODEL, "--what", what, "--format", fmt, "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = out.read_bytes()
    assert len(data) > 500
    if fmt == "png":
        assert data.startswith(b"\x89PNG")
    if fmt == "svg":
        assert b"<svg" in data[:2000] and b"Interrupt window" in data or b"Reveal plots" in data
    if fmt == "graphml":
        assert read_graphml(out).number_of_nodes() > 10
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left behind


def test_default_model_is_agot(tmp_path: Path) -> None:
    out = tmp_path / "t.dot"
    r = _Ran(["graph", "--format", "dot", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "agot-triggering-condition" in out.read_text()


def test_ability_graph_without_cards_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "a.svg"
    r = _Ran(["graph", "--what", "abilities", "--format", "svg", "--out", str(out)])
    assert r.exit_code == 2 and "--cards" in r.output
    assert not out.exists()


def test_model_without_timing_is_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "a.svg"
    r = _Ran(["graph", str(tmp_path), "--format", "svg", "--out", str(out)])
    assert r.exit_code == 2 and "timing.py" in r.output
    assert not out.exists()
