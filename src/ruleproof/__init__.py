"""ruleproof: a formal model checker for card-game rules."""

__all__ = ["__version__"]
__version__ = "0.1.0"
