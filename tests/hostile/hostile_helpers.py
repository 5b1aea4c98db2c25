"""Running ``ruleproof`` as an adversarial user would, and checking the README's promise for the outcome.

The promise (README, "Exit status"): a documented exit status; never a
traceback; exit 2 comes with exactly one error line on stderr and nothing on
stdout, or, under ``--json``, with exactly one JSON object with ``version``
and ``error`` on stdout; ``--json`` always prints exactly one object with
``"version": 1``.
"""

from __future__ import annotations

import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ruleproof.cards.pool import default_pool_dir
from ruleproof.cli import run

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "hostile"
COUNTER = str(FIX / "counter.py")
GOLD = str(ROOT / "model" / "agot" / "gold.py")
# A run that cannot finish within seconds on any machine: bounded model checking of gold's
# properties to depth 10,000 with no solver resource limit.  Budget and signal tests stop it;
# a fast idle machine must not finish it before the stop (the whole run of gold takes ~2 s).
LONG_RUN = ["check", GOLD, "--scenario", "small", "--engine", "bmc", "--depth", "10000", "--timeout", "600",
            "--rlimit", "0"]

DOCUMENTED = {0, 1, 2, 3, 130, 143}


@dataclass
class Outcome:
    """What one run printed and returned."""

    argv: list[str]
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)

    def error_line(self) -> str:
        """The one error line (stderr, or the JSON object's ``error``)."""
        if "--json" in self.argv or "--jsonl" in self.argv:
            return str(self.json["error"])
        (line,) = self.err.strip().splitlines()
        return line


def attempt(*argv: str, expect: Iterable[int], out: io.StringIO | None = None) -> Outcome:
    """Run ``ruleproof ARGV`` in this process and check the promise; ``expect``: the allowed exit statuses."""
    o, e = out or io.StringIO(), io.StringIO()
    code = run(list(argv), o, e)
    res = Outcome(list(argv), code, o.getvalue(), e.getvalue())
    check_promise(res, set(expect))
    return res


def check_promise(res: Outcome, expect: set[int]) -> None:
    shown = f"argv={res.argv!r}\nexit={res.code}\nstdout={res.out[:2000]!r}\nstderr={res.err[:2000]!r}"
    assert res.code in expect, shown
    assert res.code in DOCUMENTED, shown
    assert "Traceback" not in res.out + res.err, shown
    assert "Exception ignored" not in res.err, shown
    json_mode, jsonl_mode = "--json" in res.argv, "--jsonl" in res.argv
    if jsonl_mode and res.code != 2 and res.code in DOCUMENTED:  # one object a line, each with the version
        lines = res.out.splitlines()
        assert lines and all(json.loads(ln).get("version") == 1 for ln in lines), shown
    elif json_mode or jsonl_mode:  # an error under --jsonl is one object too
        obj = json.loads(res.out)  # exactly one object: json.loads refuses trailing data
        assert isinstance(obj, dict) and obj.get("version") == 1, shown
        if res.code == 2:
            assert isinstance(obj.get("error"), str) and obj["error"], shown
            assert "\n" not in obj["error"], shown
    elif res.code == 2:
        lines = res.err.strip().splitlines()
        assert len(lines) == 1, shown
        assert res.out == "", shown
        line = lines[0]
        assert "error: " in line, shown
        assert len(line) <= 1100, shown


def make_pool(root: Path, packs: dict[str, str | bytes | None] | None = None, *, schemas: bool = True) -> Path:
    """A card pool directory: the bundled schemas and the given ``packs/<name>`` files (None: a directory)."""
    root.mkdir(parents=True, exist_ok=True)
    if schemas:
        for name in ("card.schema.json", "pack.schema.json"):
            shutil.copy(default_pool_dir() / name, root / name)
    (root / "packs").mkdir(exist_ok=True)
    for name, data in (packs or {}).items():
        p = root / "packs" / name
        if data is None:
            p.mkdir()
        elif isinstance(data, bytes):
            p.write_bytes(data)
        else:
            p.write_text(data, encoding="utf-8")
    return root


def one_card_pack() -> str:
    """A valid pack file with one card (from the bundled Core set)."""
    core = json.loads((default_pool_dir() / "packs" / "Core.json").read_text(encoding="utf-8"))
    return json.dumps({**core, "cards": core["cards"][:1]})
