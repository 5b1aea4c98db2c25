"""Light install: start-up imports only the subcommand used; a missing extra is named in one error line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.cli import run

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
HEAVY = ("z3", "matplotlib", "dask", "distributed", "networkx", "jsonschema", "yaml", "rich",
         "ruleproof.cards", "ruleproof.loops", "ruleproof.timing", "ruleproof.scale", "ruleproof.mutants")


def _loaded_after(argv: list[str]) -> set[str]:
    """The heavy top-level packages imported by a fresh interpreter running ``ruleproof ARGV``."""
    code = ("import io, sys; from ruleproof.cli import run; "
            f"rc = run({argv!r}, io.StringIO(), io.StringIO()); "
            f"print('\\nloaded:', rc, ' '.join(sorted(m for m in sys.modules if m in {HEAVY!r})))")
    stdout = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                            env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"}).stdout
    out = stdout.rsplit("loaded:", 1)[1].split()
    assert out and out[0] in ("0", "1", "2", "3"), out
    return set(out[1:])


def test_version_imports_no_solver_and_no_subcommand() -> None:
    assert _loaded_after(["--version"]) == set()


def test_check_imports_the_solver_but_no_pictures_cluster_or_cards() -> None:
    loaded = _loaded_after(["check", str(FIX / "counter_model.py"), "-p", "total at most 10"])
    assert "z3" in loaded  # it did check something
    assert not loaded & {"matplotlib", "dask", "distributed", "ruleproof.cards", "ruleproof.loops", "ruleproof.mutants"}


def test_help_still_lists_every_subcommand() -> None:
    out = io.StringIO()
    assert run(["--help"], out, io.StringIO()) == 0
    text = out.getvalue()  # on the given stream (the one CLI convention)
    for name in ("cards", "check", "graph", "list", "loops", "mutants"):
        assert f"\n  {name} " in text, name


def test_missing_draw_extra_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    out, err = io.StringIO(), io.StringIO()
    assert run(["graph", "--format", "png", "--out", str(tmp_path / "t.png")], out, err) == 2
    assert "Traceback" not in err.getvalue() and out.getvalue() == ""
    assert "pip install 'ruleproof[draw]'" in err.getvalue() and "matplotlib" in err.getvalue()
    assert not (tmp_path / "t.png").exists()
    # DOT needs no extra
    assert run(["graph", "--format", "dot", "--out", str(tmp_path / "t.dot")], out, err) == 0
    assert (tmp_path / "t.dot").read_text().startswith("digraph")


def test_missing_dask_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(FIX / "counter_model.py"), "--workers", "1"], out, err)
    assert code == 2
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and "pip install 'ruleproof[dask]'" in lines[0], err.getvalue()
    assert out.getvalue() == ""
