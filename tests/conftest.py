"""Shared test set-up: deterministic hashing, hypothesis profile, and a report width that does not come from the
environment the suite runs in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("PYTHONHASHSEED", "0")
settings.register_profile("ruleproof", derandomize=True, deadline=None, print_blob=False)
settings.load_profile("ruleproof")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _no_inherited_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text report written to a stream that is not a terminal is as wide as ``$COLUMNS`` (else 100): a value
    from the shell, or the one pytest-xdist gives its workers (80), would clip the rows some tests read in full.
    A test that wants a width sets ``COLUMNS`` itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
