"""Discovery: `ruleproof list`, short property ids for -p, --param checked against build(), the properties lookup."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from ruleproof.catalog import select_properties, short_id, short_ids
from ruleproof.cli import run
from ruleproof.errors import InputError

ROOT = Path(__file__).resolve().parents[2]

MODEL = '''\
from ruleproof.dsl import Int, Model, Step

MUTANTS = ("no_limit",)
SCENARIOS = {"default": {}, "tall": {"limit": 4}}


def build(limit: int = 3, mutant: str = "") -> Model:
    m = Model("tiny")
    x = m.var("x", Int(0, 5), init=0)

    @m.action(describe="x grows by one")
    def grow(a: Step) -> None:
        if mutant != "no_limit":
            a.require(x < limit)
        else:
            a.require(x < 5)
        a.set(x, x + 1)

    m.game_end(x >= limit)
    m.invariant("x never passes the limit", x <= limit)
    return m
'''

PROPS = '''\
def register(m):
    m.invariant("x is never negative", m.v.x >= 0)
    m.reachable("sanity: x reaches two", m.v.x == 2)
'''


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _project(tmp_path: Path, props_at: str | None) -> Path:
    """``my/tiny.py`` with its properties at ``props_at`` (relative to ``tmp_path``), if any."""
    model = tmp_path / "my" / "tiny.py"
    model.parent.mkdir(parents=True)
    model.write_text(MODEL)
    if props_at is not None:
        p = tmp_path / props_at
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(PROPS)
    return model


# ------------------------------------------------------------------ short ids


def test_short_ids_are_words_of_the_sentence_and_checks_by_name() -> None:
    assert short_id("gold is conserved") == "gold-conserved"
    assert short_id("the game can always proceed (no deadlock)", "deadlock") == "deadlock"
    assert short_id("'must' never meets 'cannot': killed", "must-cannot") == "must-cannot-killed"
    long = short_id("a marshalled card is in its owner's play area and its cost was paid exactly once")
    assert len(long) <= 36 and long.startswith("marshalled-card-in-owners") and not long.endswith("-and")


def test_colliding_ids_are_told_apart_and_stable() -> None:
    names = [("an ability is initiated only if its cost can be paid (initiate)", ""),
             ("an ability is initiated only if its cost can be paid (play_event)", ""), ("gold is conserved", "")]
    ids = short_ids(names)
    assert len(set(ids.values())) == 3
    assert ids[names[0][0]].endswith("-initiate") and ids[names[1][0]].endswith("-play")
    assert short_ids(reversed(names)) == ids  # independent of the order


def test_select_by_id_or_sentence_and_suggest_on_a_typo() -> None:
    ids = short_ids([("gold is conserved", ""), ("no pool goes below zero", "")])
    assert select_properties(["gold-conserved", "no pool goes below zero"], ids) == (
        "gold is conserved", "no pool goes below zero")
    with pytest.raises(InputError, match="did you mean 'gold-conserved'"):
        select_properties(["gold-conserve"], ids)


# ------------------------------------------------------------------ ruleproof list


def test_list_shows_scenarios_parameters_mutants_and_properties(tmp_path: Path) -> None:
    model = _project(tmp_path, "my/properties/tiny.py")
    code, out, err = _run("list", str(model))
    assert code == 0, err
    assert "system tiny (" in out and "properties file: " in out and "my/properties/tiny.py" in out
    assert "    default      checked  the build() defaults" in out
    assert "    tall                  limit=4" in out
    assert "    limit: int = 3" in out and "    mutant: str = ''" in out
    assert "mutants (--param mutant=NAME): no_limit" in out
    for sid, name in [("x-never-passes-limit", "x never passes the limit"), ("sanity-x-reaches-two",
                      "sanity: x reaches two"), ("deadlock", "the game can always proceed (no deadlock)")]:
        assert re.search(rf"^    {sid} +{re.escape(name)}$", out, re.M), (sid, out)


def test_list_json_is_one_object_with_ids_usable_by_check(tmp_path: Path) -> None:
    model = _project(tmp_path, "my/properties/tiny.py")
    code, out, _ = _run("list", str(model), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["version"] == 1
    (sy,) = obj["systems"]
    assert [s["name"] for s in sy["scenarios"] if s["checked"]] == ["default"]
    assert {"name": "limit", "type": "int", "default": 3, "required": False} in sy["parameters"]
    assert sy["mutants"] == ["no_limit"] and sy["ir_mutants"]
    ids = {p["id"]: p["name"] for p in sy["properties"]}
    assert ids["x-never-negative"] == "x is never negative"
    code, out, _ = _run("check", str(model), "-p", "x-never-negative", "--json")
    res = json.loads(out)["results"]
    assert code == 0 and [(r["id"], r["property"], r["verdict"]) for r in res] == [
        ("x-never-negative", "x is never negative", "proved")]


def test_list_of_the_bundled_model_names_every_system() -> None:
    code, out, _ = _run("list", "--json")
    systems = [s["system"] for s in json.loads(out)["systems"]]
    assert code == 0 and "gold" in systems and "claim" in systems
    all_ids = [(p["id"], p["name"]) for s in json.loads(out)["systems"] for p in s["properties"]]
    by_id: dict[str, set[str]] = {}
    for i, n in all_ids:
        by_id.setdefault(i, set()).add(n)
    assert all(len(names) == 1 for names in by_id.values())  # an id names one sentence


# ------------------------------------------------------------------ --param


def test_param_typo_suggests_the_build_parameter(tmp_path: Path) -> None:
    model = _project(tmp_path, None)
    code, out, err = _run("check", str(model), "--param", "limt=2")
    assert code == 2 and "Traceback" not in err
    assert "tiny.py:7: error: --param limt: system 'tiny' has no build parameter 'limt' (did you mean 'limit'?)" in err


def test_param_of_the_wrong_type_is_bad_input_not_a_type_error(tmp_path: Path) -> None:
    model = _project(tmp_path, None)
    code, _, err = _run("check", str(model), "--param", "limit=lots")
    assert code == 2 and "--param limit takes int, got 'lots'" in err and "TypeError" not in err
    code, _, err = _run("check", str(model), "--param", "limit=2", "--param", "mutant=no_limit", "-q")
    assert code == 1, err  # a string needs no JSON quotes; the mutant is caught


# ------------------------------------------------------------------ properties lookup


def test_properties_beside_the_model_are_loaded_and_named_with_verbose(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # the temporary path is long: keep it on one line
    model = _project(tmp_path, "my/properties/tiny.py")
    code, out, err = _run("check", str(model), "-v")
    assert code == 0, out + err
    assert "x is never negative" in out and err == ""
    assert "properties of tiny: " in out and str(Path("my") / "properties" / "tiny.py") in out


def test_project_layout_is_the_fallback(tmp_path: Path) -> None:
    model = tmp_path / "model" / "game" / "tiny.py"
    model.parent.mkdir(parents=True)
    model.write_text(MODEL)
    (tmp_path / "properties" / "game").mkdir(parents=True)
    (tmp_path / "properties" / "game" / "tiny.py").write_text(PROPS)
    code, out, err = _run("check", str(model), "--json")
    assert code == 0 and err == ""
    assert "x is never negative" in {r["property"] for r in json.loads(out)["results"]}


def test_two_folders_up_is_not_looked_at_for_a_folder_outside_the_layout(tmp_path: Path) -> None:
    model = tmp_path / "proj" / "my" / "tiny.py"
    model.parent.mkdir(parents=True)
    model.write_text(MODEL)
    stray = tmp_path / "properties" / "my" / "tiny.py"  # ../properties/my/tiny.py from proj/, the old lookup
    stray.parent.mkdir(parents=True)
    stray.write_text(PROPS)
    code, out, _ = _run("check", str(model), "--json")
    assert code == 0 and "x is never negative" not in {r["property"] for r in json.loads(out)["results"]}


def test_a_properties_folder_beside_the_model_is_never_ignored_silently(tmp_path: Path) -> None:
    model = _project(tmp_path, "my/properties/tinny.py")  # misspelled
    code, out, err = _run("check", str(model), "-q")
    assert code == 0
    assert "warning: " in err and "has no tiny.py" in err
    assert "tinny.py matches no model file" in err and "did you mean tiny.py?" in err


def test_beside_wins_over_the_layout_and_the_other_is_named(tmp_path: Path) -> None:
    model = tmp_path / "model" / "game" / "tiny.py"
    model.parent.mkdir(parents=True)
    model.write_text(MODEL)
    for where in ("model/game/properties/tiny.py", "properties/game/tiny.py"):
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_text(PROPS)
    code, _, err = _run("check", str(model), "-q")
    assert code == 0 and "properties/game/tiny.py is not loaded" in err


def test_explicit_properties_file(tmp_path: Path) -> None:
    model = _project(tmp_path, "elsewhere/props.py")
    code, out, err = _run("check", str(model), "--properties", str(tmp_path / "elsewhere" / "props.py"), "--json")
    assert code == 0 and err == ""
    assert "x is never negative" in {r["property"] for r in json.loads(out)["results"]}
    code, _, err = _run("check", str(model), "--properties", str(tmp_path / "nope.py"))
    assert code == 2 and "no such properties file" in err
    code, _, err = _run("check", str(ROOT / "model" / "agot"), "--properties", str(tmp_path / "elsewhere" / "props.py"))
    assert code == 2 and "give a directory" in err
