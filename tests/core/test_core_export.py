"""``ruleproof export``: the Promela model gives SPIN ruleproof's verdicts, the SMT-LIB queries Z3's.

The SPIN tests run when ``spin`` and ``gcc`` are installed (Debian: ``apt-get install spin``) and are
skipped otherwise, except where ``RULEPROOF_REQUIRE_SPIN`` is set (``.ci/run`` installs SPIN and sets it).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.encoder import smtlib_queries
from ruleproof.engines import kind
from ruleproof.engines.common import Options
from ruleproof.engines.explicit import explore
from ruleproof.engines.runner import check_system
from ruleproof.export import cone, to_promela
from ruleproof.ir import PropKind
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict
from ruleproof.spin import run_spin, spin_available

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "model" / "agot" / "gold.py"
SPIN = pytest.mark.skipif(not spin_available() and not os.environ.get("RULEPROOF_REQUIRE_SPIN"),
                          reason="spin and gcc are not installed (apt-get install spin)")


def _small(mutant: str = "") -> object:
    return load_system(discover(GOLD)[0], "small", {"mutant": mutant})


@cache
def _rules_space() -> tuple[int, bool]:
    """The small gold's reachable states, counted by an exhaustive search (and whether it was exhausted): two
    tests compare SPIN's count with it, and the search takes most of their time (some 80 s of CPU)."""
    _fired, reachable, exhausted = explore(_small(), 10**6, 4 * 10**6)  # type: ignore[arg-type]
    return reachable, exhausted


@pytest.mark.slow
@SPIN
@pytest.mark.parametrize("mutant", ["", "spend_without_return", "tokens_lost", "overspend"])
def test_spin_gives_ruleproofs_verdicts_on_the_exported_small_gold_scenario(mutant: str, tmp_path: Path) -> None:
    s = _small(mutant)
    results = check_system(s, "auto", Options(depth=8, timeout=600, rlimit=20_000_000))  # type: ignore[arg-type]
    # The rules decide every property.  A mutant may leave one open (the treasury cannot run out, so with
    # spend_without_return no bound on it is inductive): SPIN's verdict on the whole model is compared below.
    if not mutant:
        assert all(r.verdict in (Verdict.PROVED, Verdict.VIOLATED) for r in results)
    violated = {r.property for r in results if r.verdict is Verdict.VIOLATED}
    assert bool(violated) == bool(mutant)
    pml = tmp_path / "gold.pml"
    pml.write_text(to_promela(s))  # type: ignore[arg-type]
    whole = run_spin(pml, wall_limit=600)
    assert whole.complete, whole.output
    assert whole.violated == bool(violated), whole.output
    if not mutant:
        # SPIN stores each reachable state (the exact count: test_the_export_is_tight_on_the_small_gold)
        reachable, exhausted = _rules_space()
        assert exhausted and whole.states is not None and whole.states >= reachable + 1, (reachable, whole.output)
    # each property ruleproof finds violated, alone: SPIN finds it violated too
    for name in sorted(violated):
        one = tmp_path / f"p{len(name)}.pml"
        one.write_text(to_promela(s, [s.prop(name)]))  # type: ignore[attr-defined, arg-type]
        r = run_spin(one, wall_limit=600)
        assert r.complete and r.violated, (name, r.output)
        assert f"/* {name} */" in one.read_text()


@pytest.mark.slow
@SPIN
def test_the_export_is_tight_on_the_small_gold(tmp_path: Path) -> None:
    """SPIN stores each reachable state once, plus the process's start state."""
    s = _small()
    pml = tmp_path / "gold.pml"
    pml.write_text(to_promela(s))  # type: ignore[arg-type]
    whole = run_spin(pml, wall_limit=600)
    reachable, exhausted = _rules_space()
    assert exhausted and whole.states == reachable + 1, (reachable, whole.output)


@pytest.mark.slow
@SPIN
def test_a_property_ruleproof_proves_holds_under_spin_on_a_mutant(tmp_path: Path) -> None:
    """The mutant breaks conservation, not the token rule: SPIN, given only the token rule, finds nothing."""
    s = _small("spend_without_return")
    p = s.prop("a card out of play carries no tokens")  # type: ignore[attr-defined]
    assert check_system(s, "auto",
            Options(depth=8, rlimit=DEFAULT_RLIMIT, timeout=600), [p.name])[0].verdict is Verdict.PROVED  # type: ignore[arg-type]
    pml = tmp_path / "tokens.pml"
    pml.write_text(to_promela(s, [p]))  # type: ignore[arg-type]
    r = run_spin(pml, wall_limit=600)
    assert r.complete and r.errors == 0, r.output


def _z3() -> str | None:
    exe = Path(sys.executable).parent / "z3"
    return str(exe) if exe.exists() else shutil.which("z3")


@pytest.mark.skipif(_z3() is None, reason="the z3 command line is not installed")
@pytest.mark.parametrize("mutant", ["", "tokens_lost", "spend_without_return"])
def test_smt2_induction_queries_are_unsat_exactly_when_k_induction_proves(mutant: str, tmp_path: Path) -> None:
    s = _small(mutant)
    f = tmp_path / "gold.smt2"
    f.write_text(smtlib_queries(s, s.properties))  # type: ignore[arg-type]
    out = subprocess.run([_z3(), str(f)], capture_output=True, text=True, timeout=300, check=True).stdout  # type: ignore[list-item]
    answers = dict(re.findall(r"^(p\d+ (?:base|step))\n(sat|unsat)$", out, re.M))
    props = [p for p in s.properties if p.kind is not PropKind.REACH]  # type: ignore[attr-defined]
    assert answers and len({k.split()[0] for k in answers}) == len(props)
    proved = []
    for i, p in enumerate(props):
        cli = all(v == "unsat" for k, v in answers.items() if k.split()[0] == f"p{i}")
        r = kind.check(s, p, Options(kmax=0, rlimit=DEFAULT_RLIMIT, timeout=600), props[:i])  # type: ignore[arg-type]
        assert cli == (r.verdict is Verdict.PROVED), (p.name, cli, r.verdict, r.reason)
        proved.append(cli)
    assert any(proved)
    # a mutant's broken rule is never proved; the rules' properties are not all 1-inductive over the earlier
    # ones since the gold model records who has been active (review F12): k-induction proves those deeper
    assert not (mutant and all(proved))


def test_promela_leaves_out_what_no_exported_property_depends_on() -> None:
    s = _small()
    conserved = to_promela(s, [s.prop("gold is conserved")])  # type: ignore[attr-defined, arg-type]
    # nothing that conservation depends on reads whether a card entered play: a SPIN user leaves it out
    head, body = conserved.split("left out", 1)[1].split("*/", 1)
    assert "entered[card 1], entered[card 2]" in head and "entered" not in body
    assert "gold[2]" in conserved and "zone[2]" in conserved and "reduction[2]" in conserved  # guards read them
    everything = to_promela(s)  # type: ignore[arg-type]
    # every property's variables are kept; the record that a card entered play is read by no property at all (the
    # game shows where the card is, not the record): the whole export leaves it out too
    assert "bool been_active[2]" in everything and "bool entered[2]" not in everything
    assert "(entered[card 1], entered[card 2])" in everything.split("left out", 1)[1].split("*/", 1)[0]
    assert cone(s, [s.prop("gold is conserved")]) < {v.name for v in s.vars}  # type: ignore[attr-defined, arg-type]


def test_promela_computes_the_initial_treasury_instead_of_excluding_choices() -> None:
    text = to_promela(_small())  # type: ignore[arg-type]
    init = text.split("atomic {", 1)[1].split("};", 1)[0]
    # the treasury is what the pools and cards do not hold (the initial constraint), not a choice among 0..27
    assert "treasury = 0; do" not in init
    assert re.search(r"_fix = \(+27 - gold\[0\]\) - gold\[1\]\) - tokens\[0\]\) - tokens\[1\]\)", init), init
    assert "if :: (0 <= _fix && _fix <= 27) -> treasury = _fix :: else -> goto excluded fi;" in init
    # an excluded combination is replaced by an allowed initial state (no end state of its own for SPIN to store)
    replaced = init.split("excluded:", 1)[1].split("chosen:", 1)[0]
    assert "treasury = 27;" in replaced and "gold[0] = 0;" in replaced and "end_excluded" not in init


def test_promela_without_an_initial_state_ends_the_run_on_every_combination() -> None:
    from ruleproof.ir import FALSE

    s = _small()
    none = replace(s, init_constraints=(*s.init_constraints, FALSE))  # type: ignore[type-var]
    init = to_promela(none).split("atomic {", 1)[1].split("};", 1)[0]  # type: ignore[arg-type]
    assert "goto end_excluded" in init and "excluded:" not in init.replace("end_excluded", "")


def test_export_command_writes_the_file_and_refuses_an_ambiguous_model(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "gold.pml"
    code = run(["export", str(GOLD), "--scenario", "small", "--format", "promela", "--out", str(target)], out, err)
    assert code == 0, err.getvalue()
    text = target.read_text()
    assert "active proctype rules()" in text and "/* gold is conserved */" in text
    assert "sanity" not in text  # targets only when named
    code = run(["export", str(ROOT / "model" / "agot"), "--format", "smt2", "--out", str(tmp_path / "x.smt2")],
               out, err)
    assert code == 2 and "name one with --system" in err.getvalue() and not (tmp_path / "x.smt2").exists()
    code = run(["export", str(ROOT / "model" / "agot"), "--system", "gold", "--scenario", "small", "-p",
                "gold is conserved", "--format", "smt2", "--out", str(tmp_path / "g.smt2")], out, err)
    assert code == 0 and "(check-sat)" in (tmp_path / "g.smt2").read_text()
