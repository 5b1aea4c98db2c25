"""The package's layers hold: what a module may import is what ARCHITECTURE.md says ("Layers and gates").

Each check runs in a fresh interpreter, so what one test imported cannot hide
what another module loads on its own.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_the_explicit_engine_neither_imports_nor_needs_z3() -> None:
    """Only the encoder imports z3: the explicit engine checks a model on the evaluator alone."""
    proc = _python("""
        import sys
        from ruleproof.dsl import Int, Model, Step
        from ruleproof.engines import explicit
        from ruleproof.engines.common import Options

        m = Model("counter")
        n = m.var("n", Int(0, 3), init=0)

        @m.action()
        def inc(a: Step) -> None:
            a.require(n < 3)
            a.set(n, n + 1)

        m.invariant("n stays below 3", n < 3)
        system = m.finish()
        prop = next(p for p in system.properties if p.name == "n stays below 3")
        r = explicit.check(system, prop, Options(depth=10))
        print(r.verdict.value, len(r.trace.steps) if r.trace else None, "z3" in sys.modules)
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["violated", "3", "False"]


def test_every_module_of_the_package_has_a_layer() -> None:
    """The import contract (.importlinter) places every top-level module and package of ``ruleproof``.

    A module the layers contract does not name is not checked by it: a new module must be put in a
    layer when it is added (ARCHITECTURE.md, "Layers and gates").
    """
    import configparser
    import re

    config = configparser.ConfigParser()
    assert config.read(ROOT / ".importlinter", encoding="utf-8"), ".importlinter is missing"
    layers = config["importlinter:contract:layers"]["layers"]
    placed = set(re.findall(r"ruleproof\.(\w+)", layers))
    pkg = ROOT / "src" / "ruleproof"
    modules = {p.stem for p in pkg.glob("*.py") if p.stem != "__init__"}
    modules |= {p.parent.name for p in pkg.glob("*/__init__.py")}
    assert modules, "no modules found"
    assert sorted(modules - placed) == [], "modules in no layer of .importlinter"
