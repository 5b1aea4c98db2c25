"""``ruleproof graph --what abilities``: the two-player ability graph of named cards, written atomically."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ruleproof.cli import run
from ruleproof.timing.graph import read_graphml

ROOT = Path(__file__).resolve().parents[2]
LEW = "19009"  # Left Hand Lew: kneel to stand a character owned by an opponent
BAY = "08086"  # The Bay of Seals (location): kneel to stand a character owned by an opponent


class _Ran:
    """What a ``ruleproof`` run printed (stdout and stderr together) and its exit status."""

    def __init__(self, args: list[str]) -> None:
        out, err = io.StringIO(), io.StringIO()
        self.exit_code = run(args, out, err)
        self.output = out.getvalue() + err.getvalue()


def _run(args: list[str]) -> tuple[int, str]:
    r = _Ran(["graph", "--what", "abilities", *args])
    return r.exit_code, r.output


@pytest.mark.parametrize("fmt", ["svg", "png", "dot", "graphml"])
def test_cross_player_cycle_is_written(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"a.{fmt}"
    rc, output = _run(["--cards", LEW, "--cards", f"opp:{LEW}", "--cards", BAY, "--format", fmt, "--out", str(out)])
    assert rc == 0, output
    assert "(3 nodes, 3 edges)" in output  # Lew <-> opp Lew, Bay of Seals -> opp Lew
    data = out.read_bytes()
    if fmt == "png":
        assert data.startswith(b"\x89PNG") and len(data) > 5000
    elif fmt == "svg":
        assert b"<svg" in data[:2000] and b"Left Hand Lew" in data and b"The Bay of Seals" in data
    elif fmt == "dot":
        text = data.decode()
        # node label: card name and ability type; edge label: why A enables B; dashed across players
        assert '"19009#1" [label="Left Hand Lew (19009#1)\\naction"' in text
        assert '"opp:19009#1" [label="opp: Left Hand Lew (19009#1)\\naction"' in text
        edge = next(line for line in text.splitlines() if line.startswith('  "19009#1" -> "opp:19009#1"'))
        assert "effect stand re-enables cost kneel" in edge and 'style="dashed"' in edge
        # the Bay of Seals stands the opponent's Lew, but nothing stands a location: not on a cycle
        assert 'on_cycle="false"' in next(line for line in text.splitlines() if line.startswith('  "08086#0" ['))
    else:
        g = read_graphml(out)
        assert set(g.nodes) == {"19009#1", "opp:19009#1", "08086#0"}
        assert g.nodes["opp:19009#1"]["controller"] == "opponent" and g.nodes["19009#1"]["on_cycle"] == "true"
        assert g.edges["opp:19009#1", "19009#1"]["cross_player"] == "true"
        assert "re-enables cost kneel" in g.edges["opp:19009#1", "19009#1"]["label"]
        assert not g.has_edge("19009#1", "08086#0")
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left behind


def test_deck_and_only_cycles(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("1x Left Hand Lew\n1x The Bay of Seals\n", encoding="utf-8")
    out = tmp_path / "d.graphml"
    rc, output = _run(["--deck", str(deck), "--cards", f"opp:{LEW}", "--only-cycles", "--format", "graphml",
                       "--out", str(out)])
    assert rc == 0, output
    assert set(read_graphml(out).nodes) == {"19009#1", "opp:19009#1"}


def test_no_cards_is_bad_input_never_the_whole_pool(tmp_path: Path) -> None:
    out = tmp_path / "a.svg"
    rc, output = _run(["--format", "svg", "--out", str(out)])
    assert rc == 2 and "without cards" in output and "--all" in output
    assert not out.exists()


@pytest.mark.parametrize(("args", "needle"), [
    (["--cards", "99999"], "unknown card code 99999"),
    (["--cards", "opp:99999"], "unknown card code 99999"),
    ([str(ROOT / "model" / "agot"), "--cards", LEW], "MODEL names a rules model"),
])
def test_bad_input_exits_2(tmp_path: Path, args: list[str], needle: str) -> None:
    out = tmp_path / "a.dot"
    rc, output = _run([*args, "--format", "dot", "--out", str(out)])
    assert rc == 2 and needle in output
    assert not out.exists()


def test_card_options_belong_to_the_ability_graph(tmp_path: Path) -> None:
    out = tmp_path / "t.dot"
    r = _Ran(["graph", "--what", "timing", "--cards", LEW, "--format", "dot", "--out", str(out)])
    assert r.exit_code == 2 and "apply to --what abilities" in r.output
    assert not out.exists()


def test_whole_pool_needs_all_and_pictures_stay_readable(tmp_path: Path) -> None:
    out = tmp_path / "pool.graphml"
    r = _Ran(["graph", "--what", "abilities", "--all", "--format", "graphml", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "warning: the whole pool" in r.output
    assert read_graphml(out).number_of_nodes() > 1000
    pic = tmp_path / "pool.png"
    r = _Ran(["graph", "--what", "abilities", "--all", "--format", "png", "--out", str(pic)])
    assert r.exit_code == 2 and "too many to draw" in r.output
    assert not pic.exists()
