"""Properties state the rules from the rule text: no property file calls a function its model defines.

A property that computes its expectation with the model's own helper (``waived()``, ``has()``...)
proves any misreading in that helper by construction.  This test reads every properties file
under ``properties/`` and its model module (``model/<game>/<system>.py``) as source, and flags a
call of (or an import of) any function the model module defines, at any depth (helpers nested in
``build()`` included), unless the properties file defines a function of that name itself.
Reading the model's state variables, sorts and static data through ``m.v`` is fine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _defined(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def model_calls(properties: Path, model: Path) -> list[str]:
    """Where ``properties`` calls or imports a function that ``model`` defines: ``"line: name"``."""
    helpers = _defined(ast.parse(model.read_text(encoding="utf-8")))
    tree = ast.parse(properties.read_text(encoding="utf-8"))
    helpers -= _defined(tree) | {"build", "register"}
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in helpers:
                found.append(f"{node.lineno}: {name}()")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[-1] == model.stem:
            found.append(f"{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[-1] == model.stem]
    return found


PAIRS = sorted(
    (p, ROOT / "model" / p.parent.name / p.name)
    for p in (ROOT / "properties").glob("*/*.py")
    if (ROOT / "model" / p.parent.name / p.name).is_file()
)


def test_there_are_properties_files_to_read() -> None:
    assert {p.parent.name for p, _ in PAIRS} >= {"agot", "berserk"}


@pytest.mark.parametrize("properties,model", PAIRS, ids=[f"{p.parent.name}/{p.name}" for p, _ in PAIRS])
def test_no_property_calls_a_function_of_its_model(properties: Path, model: Path) -> None:
    assert model_calls(properties, model) == []


def test_the_check_finds_a_model_helper_and_an_import(tmp_path: Path) -> None:
    model = tmp_path / "model.py"
    model.write_text("def build():\n    def waived(c):\n        return c\n    return waived\n", encoding="utf-8")
    props = tmp_path / "props.py"
    props.write_text(
        "from model import build\n\n"
        "def register(m):\n    def alive(c):\n        return c\n    return alive(1), waived(2), m.v.waived(3)\n",
        encoding="utf-8",
    )
    assert model_calls(props, model) == ["1: from model import ...", "6: waived()", "6: waived()"]
