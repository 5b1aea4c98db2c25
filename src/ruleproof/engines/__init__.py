"""Engines: BMC, k-induction, CHC (Spacer), explicit-state search, and ``auto``.

Each engine module exposes ``check(system, prop, opts, lemmas, progress) ->
Result``; none prints.  :mod:`ruleproof.engines.runner` runs a whole system
(lemma reuse, coverage).
"""

__all__ = ["ENGINES"]

ENGINES = ("auto", "bmc", "kind", "chc", "explicit")
