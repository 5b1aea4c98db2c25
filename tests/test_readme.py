"""The README's examples are golden files: every command it shows runs, and prints what the README says.

Conventions in README.md (this test reads the README itself, so the two cannot drift):

* ``<!-- file: NAME -->`` on the line before a fenced block: the block is the file ``NAME``, written to
  the working folder of the transcripts (beside copies of ``model/``, ``properties/`` and ``mutants/``);
* a fenced block whose first line starts with ``$ ruleproof`` is a transcript: each ``$`` line is run
  in-process (``ruleproof.cli.run``, 100 columns, standard output and error together) and what follows it,
  up to the next ``$`` line, is its expected output.  A line ``...`` stands for any number of lines;
  times (``12.3s``) are compared as ``N.Ns``;
* every other ``ruleproof ...`` command (``sh`` blocks, inline code without placeholders) must be accepted
  by the command line parser.

Run ``python tests/test_readme.py`` to print what each transcript prints now (to update the README by hand).
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import sys
import textwrap
import warnings
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from ruleproof.cli import main, run
from ruleproof.report import mask_times

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
WIDTH = "100"

_FENCE = re.compile(r"^(?P<pre>[ ]*<!-- file: (?P<file>[\w./-]+) -->\n)?(?P<indent>[ ]*)```(?P<lang>[\w-]*)\n"
                    r"(?P<body>.*?)^(?P=indent)```$", re.M | re.S)


@dataclass(frozen=True)
class Command:
    line: int  # in README.md
    argv: tuple[str, ...]
    expected: tuple[str, ...]


def _blocks(text: str) -> list[tuple[int, str | None, str, str]]:
    """``(line, file name or None, language, body)`` of each fenced block."""
    out = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start("body"))
        body = textwrap.dedent(m.group("body")) if m.group("indent") else m.group("body")
        out.append((line + 1, m.group("file"), m.group("lang"), body))
    return out


def files(text: str) -> dict[str, str]:
    return {name: body for _, name, _, body in _blocks(text) if name}


def transcripts(text: str) -> list[Command]:
    cmds = []
    for line, name, _, body in _blocks(text):
        if name or not body.startswith("$ ruleproof"):
            continue
        current: list[str] = []
        argv: tuple[str, ...] = ()
        at = line
        for i, ln in enumerate(body.splitlines()):
            if ln.startswith("$ "):
                if argv:
                    cmds.append(Command(at, argv, tuple(current)))
                argv, current, at = tuple(shlex.split(ln[2:])[1:]), [], line + i
            else:
                current.append(ln)
        cmds.append(Command(at, argv, tuple(current)))
    return cmds


_PLACEHOLDER = re.compile(r"\[|\||\.\.\.|\b[A-Z][A-Z_]+\b|<|>")


def other_commands(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """Concrete ``ruleproof`` commands outside transcripts: in sh blocks and inline code."""
    out = []
    for line, name, lang, body in _blocks(text):
        if name or body.startswith("$ ") or lang not in ("sh", "bash", ""):
            continue
        for i, ln in enumerate(body.splitlines()):
            for part in re.split(r"&&|;", ln.split("#")[0]):
                words = _words(part)
                if words[:1] == ["ruleproof"]:
                    out.append((line + i, tuple(words[1:])))
    prose = _FENCE.sub("", text)
    for m in re.finditer(r"`(ruleproof [^`]+)`", prose):
        if not _PLACEHOLDER.search(m.group(1)):
            out.append((text.count("\n", 0, text.find(m.group(0))) + 1, tuple(shlex.split(m.group(1))[1:])))
    return out


def _words(command: str) -> list[str]:
    """The words of a shell command, up to a redirection or a pipe."""
    lex = shlex.shlex(command, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    out = []
    for w in lex:
        if w in (">", ">>", "<", "|", "2>", "&>"):
            break
        out.append(w)
    return out


def workdir(tmp: Path, text: str) -> Path:
    for d in ("model", "properties", "mutants"):
        shutil.copytree(ROOT / d, tmp / d, ignore=shutil.ignore_patterns("__pycache__"))
    for name, body in files(text).items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(body, encoding="utf-8")
    return tmp


def actual(cmd: Command) -> tuple[int, list[str]]:
    buf = io.StringIO()
    code = run(list(cmd.argv), buf, buf)
    return code, mask_times(buf.getvalue()).rstrip("\n").split("\n")


def matches(expected: tuple[str, ...], got: list[str]) -> bool:
    """``got`` equals ``expected``, where an expected line ``...`` stands for any number of lines."""
    exp = [mask_times(x) for x in expected]
    while exp and exp[-1] == "":
        exp.pop()

    def go(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(got)
        if exp[i] == "...":
            return any(go(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and got[j] == exp[i] and go(i + 1, j + 1)

    return go(0, 0)


def parses(argv: tuple[str, ...]) -> None:
    """Raise if the command line parser refuses ``ruleproof ARGV`` (nothing is run)."""
    def rest(ctx: click.Context) -> list[str]:
        with warnings.catch_warnings():  # click 8.2 deprecates protected_args (the group's unparsed words)
            warnings.simplefilter("ignore", DeprecationWarning)
            return [*ctx.protected_args, *ctx.args]

    ctx = main.make_context("ruleproof", list(argv))
    cmd: click.Command = main
    args = rest(ctx)
    while isinstance(cmd, click.Group) and args:
        _, sub, args = cmd.resolve_command(ctx, args)
        assert sub is not None
        ctx = sub.make_context(sub.name, list(args), parent=ctx)
        cmd, args = sub, rest(ctx) if isinstance(sub, click.Group) else []


TEXT = README.read_text(encoding="utf-8")
TRANSCRIPTS = transcripts(TEXT)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workdir(tmp_path_factory.mktemp("readme"), TEXT)


def test_the_readme_has_transcripts_and_a_model_file() -> None:
    assert "treasury.py" in files(TEXT)
    assert any(c.argv[:2] == ("check", "treasury.py") for c in TRANSCRIPTS)
    assert len(TRANSCRIPTS) >= 6


@pytest.mark.parametrize("cmd", TRANSCRIPTS, ids=[f"README.md:{c.line}" for c in TRANSCRIPTS])
def test_transcript(cmd: Command, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    monkeypatch.setenv("COLUMNS", WIDTH)
    code, got = actual(cmd)
    assert matches(cmd.expected, got), (
        f"README.md:{cmd.line}: `ruleproof {shlex.join(cmd.argv)}` printed (exit {code}):\n" + "\n".join(got))
    assert code != 2 or any("error:" in x for x in cmd.expected), "exit 2:\n" + "\n".join(got)


@pytest.mark.parametrize("line, argv", other_commands(TEXT), ids=lambda x: str(x))
def test_every_other_command_parses(line: int, argv: tuple[str, ...]) -> None:
    try:
        parses(argv)
    except click.exceptions.Exit:  # --version, --help: parsed, then the eager option stops
        pass
    except click.ClickException as e:
        pytest.fail(f"README.md:{line}: `ruleproof {shlex.join(argv)}`: {e.format_message()}")


#: pytest options the quick start's test command may use (with how many values each takes): none chooses tests
_WHOLE_SUITE_OPTIONS = {"-n": 1, "--dist": 1, "-q": 0}


def _quick_start(text: str) -> list[str]:
    """The commands of the README's quick start (its ``sh`` blocks, one command each)."""
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    return [body.strip() for _, _, lang, body in _blocks(section) if lang == "sh"]


def test_the_quick_start_has_two_commands_and_ci_runs_its_test_command() -> None:
    """One command checks the bundled rules, one runs the whole test suite, and ``.ci/run`` runs that test
    command (pip's ``-q`` aside): CI tests what a newcomer runs."""
    check, suite = _quick_start(TEXT)
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert "\n" not in check + suite and check.startswith(venv) and suite.startswith(venv)
    assert check.endswith(" && ruleproof check")
    install, pytest_command = suite[len(venv):].split(" && ")
    assert install == "pip install -e '.[test]'"
    env, *python = shlex.split(pytest_command)
    assert env == "PYTHONHASHSEED=0" and python[:3] == ["python", "-m", "pytest"]
    args, i = python[3:], 0
    while i < len(args):  # only options that choose no tests: the command runs the whole suite
        assert args[i] in _WHOLE_SUITE_OPTIONS, f"the quick start's test command selects tests: {args[i]}"
        i += 1 + _WHOLE_SUITE_OPTIONS[args[i]]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"pip install -q -e '.[test]' && {pytest_command}\n" in ci


def test_matching_rules() -> None:
    assert matches(("a", "...", "d"), ["a", "b", "c", "d"]) and matches(("a", "...", "b"), ["a", "b"])
    assert not matches(("a", "b"), ["a", "b", "c"]) and not matches(("a", "...", "d"), ["a", "b"])
    assert matches(("took 1.2s",), ["took N.Ns"])


if __name__ == "__main__":  # print what every transcript prints now
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        os.chdir(workdir(Path(d), TEXT))
        os.environ["COLUMNS"] = WIDTH
        for c in TRANSCRIPTS if len(sys.argv) < 2 else [c for c in TRANSCRIPTS if str(c.line) in sys.argv[1:]]:
            code, got = actual(c)
            ok = "same" if matches(c.expected, got) else "DIFFERENT"
            print(f"--- README.md:{c.line} ({ok}, exit {code})\n$ ruleproof {shlex.join(c.argv)}\n" + "\n".join(got))
