"""The examples in the library's docstrings run and print what they show.

Every module of ``ruleproof`` is imported and its doctests are run with
:mod:`doctest`; a module whose example no longer matches fails here, under its
own name.  The test also fails if no example is found at all, so it cannot pass
by collecting nothing.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ruleproof


def _modules() -> list[str]:
    names = [ruleproof.__name__]
    for info in pkgutil.walk_packages(ruleproof.__path__, prefix=ruleproof.__name__ + "."):
        names.append(info.name)
    return sorted(names)


def _examples(name: str) -> int:
    module = importlib.import_module(name)
    return sum(len(t.examples) for t in doctest.DocTestFinder().find(module))


@pytest.mark.parametrize("name", [n for n in _modules() if _examples(n)])
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} docstring examples of {name} failed (run: python -m doctest -v)"


def test_the_library_has_docstring_examples() -> None:
    assert sum(_examples(n) for n in _modules()) >= 10
