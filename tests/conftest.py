"""Shared test set-up: deterministic hashing and hypothesis profile."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import settings

os.environ.setdefault("PYTHONHASHSEED", "0")
settings.register_profile("ruleproof", derandomize=True, deadline=None, print_blob=False)
settings.load_profile("ruleproof")

ROOT = Path(__file__).resolve().parent.parent
