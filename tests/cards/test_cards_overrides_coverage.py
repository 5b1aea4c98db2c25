"""Override files (precedence, validation with lines) and coverage figures."""

from __future__ import annotations

import io
import json

import pytest

from ruleproof.cards.abilities import AbilityType, ClauseRole, Compiled, EffectKind, EventKind, Scope
from ruleproof.cards.coverage import TypeCounts, coverage, normalise_reason, render_coverage
from ruleproof.cards.overrides import abilities_for, compile_pool, load_overrides, parse_overrides
from ruleproof.cards.pool import load_pool
from ruleproof.cli import run
from ruleproof.errors import InputError

GOOD = """\
"01087":
  - type: reaction
    trigger: {event: knelt, subject: {scope: self, card_type: character}}
    effects:
      - {kind: gain_power, amount: 1, target: {ref: self}}
    limit: {count: 1, period: phase}
"""


class _Ran:
    """What a ``ruleproof`` run printed (stdout and stderr together) and its exit status."""

    def __init__(self, args: list[str]) -> None:
        out, err = io.StringIO(), io.StringIO()
        self.exit_code = run(args, out, err)
        self.output = out.getvalue() + err.getvalue()


@pytest.fixture(scope="module")
def pool():
    return load_pool()


def test_override_takes_precedence(pool) -> None:
    ov = parse_overrides(GOOD, "o.yaml")
    (a,) = abilities_for(pool.get("01087"), ov)
    assert a.type is AbilityType.REACTION and a.trigger.event is EventKind.KNELT
    assert a.trigger.subject.scope is Scope.SELF and a.effects[0].kind is EffectKind.GAIN_POWER
    assert a.compiled is Compiled.FULL and a.limit.count == 1
    # without the override the reader's (partial) reading is used
    (b,) = abilities_for(pool.get("01087"), None)
    assert b.type is AbilityType.CONSTANT and b.compiled is Compiled.PARTIAL
    compiled = compile_pool(pool, ov, codes=["01087", "01001"])
    assert set(compiled) == {"01087", "01001"} and compiled["01087"] == (a,)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        (GOOD.replace("event: knelt", "event: kneeled"), 3, "bad value 'kneeled'"),
        (GOOD.replace("amount: 1,", "amont: 1,"), 5, "unknown field 'amont'"),
        (GOOD.replace("count: 1", "count: one"), 6, "expected an integer"),
        ('"1087":\n  - type: action\n', 1, "not a card code"),
        ('"01087":\n  - {}\n', 2, "missing field(s) type"),
        ('"01087": [\n', 2, "invalid YAML"),
    ],
)
def test_override_validation_lines(text: str, line: int, needle: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_overrides(text, "o.yaml")
    assert exc.value.loc.file == "o.yaml" and exc.value.loc.line == line, exc.value.render()
    assert needle in exc.value.message


def test_later_override_file_wins(tmp_path) -> None:
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text(GOOD, encoding="utf-8")
    b.write_text('"01087":\n  - type: constant\n', encoding="utf-8")
    ov = load_overrides([a, b])
    assert ov.get("01087")[0].type is AbilityType.CONSTANT
    assert ov.sources == (str(a), str(b))


def test_coverage_consistent_and_stable(pool) -> None:
    compiled = compile_pool(pool)
    cov = coverage(compiled, top=10)
    assert cov.cards == 2240
    assert cov.total.full + cov.total.partial + cov.total.unsupported == cov.total.total
    assert cov.total.total == sum(len(v) for v in compiled.values())
    assert sum(tc.total for _, tc in cov.by_type) == cov.total.total
    for _, tc in cov.by_type:
        assert tc.full + tc.partial + tc.unsupported == tc.total
    assert len(cov.top_unsupported) == 10
    counts = [n for _, n in cov.top_unsupported]
    assert counts == sorted(counts, reverse=True)
    text = render_coverage(cov)
    assert text == render_coverage(coverage(compile_pool(pool), top=10))
    assert f"cards: 2240   abilities: {cov.total.total}" in text


def test_coverage_counts_small() -> None:
    from ruleproof.cards.compiler import compile_text

    abil = {"1": compile_text("Renown.\n<b>Action:</b> Sing a song.", "A"),
            "2": compile_text("<b>Action:</b> Kneel B to gain 2 gold. Sing a song.", "B")}
    cov = coverage(abil, top=5)
    kinds = dict(cov.by_type)
    assert (kinds[AbilityType.KEYWORD].full, kinds[AbilityType.ACTION].unsupported,
            kinds[AbilityType.ACTION].partial, kinds[AbilityType.ACTION].structured) == (1, 1, 1, 1)
    assert cov.top_unsupported == (("effect not read: 'sing a song'", 2),)
    assert cov.initiated == TypeCounts(0, 1, 1, 1, 1) and dict(cov.by_role) == {ClauseRole.EFFECT: 2}


def test_normalise_reason() -> None:
    assert normalise_reason("not understood: 'draw 3 «Knight» [stark] cards'") == \
        "not understood: 'draw N «Trait» [faction] cards'"


def test_cli_json_and_text(tmp_path) -> None:
    res = _Ran(["cards", "coverage", "--json", "--top", "3"])
    assert res.exit_code == 0
    obj = json.loads(res.output)
    assert obj["version"] == 1 and obj["cards"] == 2240 and len(obj["top_unsupported"]) == 3
    t = obj["total"]
    assert t["full"] + t["partial"] + t["unsupported"] == t["total"]
    bad = tmp_path / "bad.yaml"
    bad.write_text('"01087":\n  - type: nonsense\n', encoding="utf-8")
    res = _Ran(["cards", "coverage", "--overrides", str(bad), "--json"])
    assert res.exit_code == 2
    obj = json.loads(res.output)
    assert obj["version"] == 1 and obj["error"].startswith(f"{bad}:2: ")
    res = _Ran(["cards", "coverage", "--overrides", str(tmp_path / "none.yaml")])
    assert res.exit_code == 2


def test_the_pools_coverage_does_not_fall(pool) -> None:
    """The reader's coverage of the pool's initiated abilities (actions, reactions, interrupts, forced, when
    revealed) stays above the goals: 60 % read in full, 95 % read in structure with the unread clauses named
    (README, "Reading card text")."""
    cov = coverage(compile_pool(pool))
    ini = cov.initiated
    assert ini.total == 1835
    assert ini.full >= 0.60 * ini.total  # 1,275 of 1,835 today
    assert ini.structured >= 0.95 * ini.total  # 1,796 today
    assert ini.effects_read >= 1666
    assert ini.full + ini.partial + ini.unsupported == ini.total
    assert ini.full <= ini.effects_read <= ini.structured <= ini.total
