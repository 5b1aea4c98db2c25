"""YAML files that expand to billions of values, or nest thousands deep, are refused at their line.

Before this check a ruling file of 400 bytes built out of aliases ("billion laughs") kept
``ruleproof ruling`` running past any limit; the same held for ``loops --overrides``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_helpers import attempt

from ruleproof import yaml_guard
from ruleproof.errors import InputError


def _laughs(levels: int) -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _commands(path: str) -> list[list[str]]:
    return [["ruling", path], ["loops", "--cards", "01001", "--overrides", path]]


@pytest.mark.parametrize("which", [0, 1])
def test_an_alias_bomb_is_refused_at_its_line(tmp_path: Path, which: int) -> None:
    f = tmp_path / "bomb.yaml"
    f.write_text(_laughs(9))  # 9^9 = 387,420,489 values
    line = attempt(*_commands(str(f))[which], expect={2}).error_line()
    assert line.startswith(f"{f}:") and f"more than {yaml_guard.MAX_VALUES:,} values" in line


@pytest.mark.parametrize("which", [0, 1])
def test_deep_nesting_is_refused(tmp_path: Path, which: int) -> None:
    f = tmp_path / "deep.yaml"
    f.write_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    line = attempt(*_commands(str(f))[which], expect={2}).error_line()
    assert line.startswith(f"{f}:") and "levels deep" in line


def test_aliases_within_the_limit_are_still_read(tmp_path: Path) -> None:
    """The check counts expansion, it does not forbid aliases: a small shared value is fine."""
    import yaml

    text = _laughs(3)  # 9^3 = 729 values
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    yaml_guard.check_size(root, "small.yaml")  # does not raise
    with pytest.raises(InputError, match="more than"):
        yaml_guard.check_size(yaml.compose(_laughs(7), Loader=yaml.SafeLoader), "big.yaml")


_RULING = """model: agot/claim
unnamed: initial
rulings:
  - ruling: a long question
    source: a hostile test
    quote: none
    expected: true
    never: {expr}
"""


@pytest.mark.parametrize("expr, words", [
    ("(" * 5000 + "true" + ")" * 5000, "nests more than 40 levels deep"),
    ("not " * 3000 + "true", "nests more than 40 levels deep"),
    ("0 < " + "- " * 3000 + "1", "nests more than 40 levels deep"),
    (" or ".join(["false"] * 3000), "more than 100 operators in a chain"),
])
def test_an_expression_too_deep_for_the_parser_is_refused_at_its_line(tmp_path: Path, expr: str, words: str) -> None:
    """Before: 'internal error: RecursionError' from the ruling expression parser or compiler."""
    f = tmp_path / "deep.yaml"
    f.write_text(_RULING.format(expr=expr))
    line = attempt("ruling", str(f), expect={2}).error_line()
    assert line.startswith(f"{f}:8: error: ") and words in line


def test_a_long_expression_within_the_limits_is_checked(tmp_path: Path) -> None:
    f = tmp_path / "ok.yaml"
    f.write_text(_RULING.format(expr=" or ".join(["(" * 38 + "false" + ")" * 38] * 99)))
    res = attempt("ruling", str(f), expect={0})
    assert "1 ruling: 1 passed" in res.out


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize(("text", "at"), [("\x00\x01binary", 1), ("a: 1\nb: \"x\x01y\"\n", 2)])
def test_a_control_character_is_refused_at_its_line(tmp_path: Path, which: int, text: str, at: int) -> None:
    """PyYAML's reader refuses a NUL before parsing starts: that was an internal error (ReaderError)."""
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    line = attempt(*_commands(str(path))[which], expect={2}).error_line()
    assert line.startswith(f"{path}:{at}: error: the file has a control character"), line
