"""Optional parts of ruleproof and the message that names the extra to install.

``pip install ruleproof`` brings the checker (``check``, ``list``, ``mutants``,
``loops``, ``cards``, and graphs as DOT or GraphML).  Pictures (SVG, PNG) need
matplotlib, ``pip install 'ruleproof[draw]'``; ``--workers`` and
``--scheduler`` need Dask, ``pip install 'ruleproof[dask]'``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import InputError

__all__ = ["EXTRAS", "require"]

# extra -> the top-level modules it brings
EXTRAS: dict[str, tuple[str, ...]] = {"draw": ("matplotlib",), "dask": ("dask", "distributed")}


def require(extra: str, purpose: str) -> None:
    """Import the modules of ``extra``; when one is missing, bad input naming the extra to install."""
    for name in EXTRAS[extra]:
        _load(name, extra, purpose)


def _load(name: str, extra: str, purpose: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise InputError(f"{purpose} needs the optional package '{name}', which is not installed: "
                         f"pip install 'ruleproof[{extra}]'") from None
