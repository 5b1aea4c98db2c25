"""Loop search: ability-graph cycles checked as lassos on Z3 (see DESIGN.md, decision 5)."""

from ruleproof.loops.driver import find_loops
from ruleproof.loops.lasso import Category, LoopResult
from ruleproof.loops.search import LoopReport, report_json

__all__ = ["Category", "LoopReport", "LoopResult", "find_loops", "report_json"]
