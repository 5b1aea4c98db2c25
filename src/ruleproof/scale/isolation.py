"""Each work unit starts its solver queries in a fresh Z3 context.

Z3's answers to satisfiable queries (which counterexample, which witness)
depend on every term created before in the same context, so a system checked
after another one in one process can get a different (equally valid) trace
than the same system checked first on a fresh worker.  Calling
:func:`fresh_solver_context` at every unit boundary, in-process and on the
workers alike, makes each unit's results a function of the unit alone: the
in-process run and a cluster run print the same output.

The encoder is the only module that imports Z3: this calls
:func:`ruleproof.encoder.fresh_context`.
"""

from __future__ import annotations

from .. import encoder

__all__ = ["fresh_solver_context"]


def fresh_solver_context() -> None:
    """Make the next Z3 terms and solvers live in a new context."""
    encoder.fresh_context()
