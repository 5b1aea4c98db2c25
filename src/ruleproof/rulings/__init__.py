"""Rulings as data: a judge's question as a YAML file that ``ruleproof ruling`` checks against the model.

:mod:`.source` reads YAML safely with line numbers, :mod:`.expr` parses
conditions (the DSL's operators, no ``eval``), :mod:`.model` validates a file
against ``ruling.schema.json`` and compiles each ruling against its system,
:mod:`.check` checks it (steps on the Z3 encoding and the concrete evaluator,
questions with the engines), :mod:`.render` prints the results.
"""

from .check import Outcome, RulingResult, check_ruling
from .model import Ruling, bundled_rulings_dir, load_rulings

__all__ = ["Outcome", "Ruling", "RulingResult", "bundled_rulings_dir", "check_ruling", "load_rulings"]
