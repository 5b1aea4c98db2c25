"""A model's deliberately broken rules, registered outside the rule text.

A system module (``model/<game>/<system>.py``) states the rules alone.  Its
*rule mutants* (each one rule broken on purpose, so that a test can show a
property catches it) live beside its properties, in
``mutants/<game>/<system>.py``, as edits of the built model.  The edits are
the :class:`~ruleproof.dsl.Model` methods :meth:`~ruleproof.dsl.Model.redefine`,
:meth:`~ruleproof.dsl.Model.amend`, :meth:`~ruleproof.dsl.Model.drop_require`,
:meth:`~ruleproof.dsl.Model.replace_require`, :meth:`~ruleproof.dsl.Model.drop_set`
and :meth:`~ruleproof.dsl.Model.drop_declaration` (the DSL's counterpart of the
timing declaration's ``with_window`` / ``with_moves`` / ``without_step``)::

    from ruleproof.rule_mutants import RuleMutants

    MUTANTS = RuleMutants()

    @MUTANTS("overkill", "characters the defender does not control are chosen to make up the claim")
    def _overkill(m):
        v = m.v
        m.drop_require("choose_for_claim", lambda c: v.controller[c] == v.defender)

The loader builds the model, then applies the edit named by the ``mutant``
parameter (``ruleproof check ... --param mutant='"overkill"'``) before the
properties are registered.  An edit that no longer finds what it changes
(the rule was rewritten) is an error, not a silently correct "mutant".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from .dsl import Model
from .errors import InputError

__all__ = ["RuleMutant", "RuleMutants", "Edit"]

Edit = Callable[[Model], None]
"""An edit of a built model: it breaks one rule."""


@dataclass(frozen=True)
class RuleMutant:
    """One deliberately broken rule: its name, what it breaks, and the edit that breaks it."""

    name: str
    doc: str
    edit: Edit


class RuleMutants:
    """The rule mutants of one system, by name, in registration order."""

    def __init__(self) -> None:
        self._by_name: dict[str, RuleMutant] = {}

    def __call__(self, name: str, doc: str) -> Callable[[Edit], Edit]:
        """Register the decorated edit as mutant ``name`` (``doc``: what it breaks)."""
        if not name.isidentifier():
            raise InputError(f"a rule mutant needs an identifier as its name, got {name!r}")
        if name in self._by_name:
            raise InputError(f"rule mutant '{name}' is registered twice")
        if not doc.strip():
            raise InputError(f"rule mutant '{name}' needs a description of the rule it breaks")

        def deco(fn: Edit) -> Edit:
            self._by_name[name] = RuleMutant(name, doc, fn)
            return fn

        return deco

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def doc(self, name: str) -> str:
        return self._get(name).doc

    def _get(self, name: str) -> RuleMutant:
        if name not in self._by_name:
            known = ", ".join(self._by_name) or "none"
            raise InputError(f"unknown mutant '{name}' (known: {known})")
        return self._by_name[name]

    def apply(self, m: Model, name: str) -> None:
        """Break rule ``name`` of the built model ``m`` (before its properties are registered)."""
        self._get(name).edit(m)
        m.params["mutant"] = name
