"""``--out`` to what is not a plain file: a named pipe, a symbolic link, ``/dev/stdout``.

``ruleproof graph --format dot --out /dev/stdout | dot -Tsvg`` once replaced the
link ``/dev/stdout`` with a regular file (and ``--out /dev/null`` would have
replaced ``/dev/null``: for root, for every process on the machine), because
every output was written to a temporary file renamed over the target.  A
device or a pipe is now written into; a link stays and the file it names is
replaced; and the "wrote" note goes to stderr when the output is a stream, so
it does not join the graph.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from hostile_helpers import COUNTER, attempt

from ruleproof.files import is_stream, write_atomic


def _read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(path, "rb") as fh:
            into.append(fh.read())

    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


def test_devices_and_proc_names_are_streams(tmp_path: Path) -> None:
    assert is_stream("/dev/null") and is_stream("/dev/stdout") and is_stream("/dev/full")
    (tmp_path / "plain.dot").write_text("x", encoding="utf-8")
    assert not is_stream(tmp_path / "plain.dot")
    assert not is_stream(tmp_path / "missing.dot")


def test_a_named_pipe_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "graph.dot"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    res = attempt("graph", "--format", "dot", "--out", str(fifo), expect={0})
    reader.join(30)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0].startswith(b"digraph ")
    assert res.out == "" and res.err.startswith(f"wrote {fifo} (")  # the note is not written into the graph


def test_a_symbolic_link_stays_and_its_file_is_replaced(tmp_path: Path) -> None:
    target = tmp_path / "real.smt2"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.smt2"
    link.symlink_to(target.name)
    attempt("export", COUNTER, "--format", "smt2", "--out", str(link), expect={0})
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text(encoding="utf-8").startswith("; ruleproof export")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.smt2", "real.smt2"]


def test_a_full_device_is_an_error_and_stays_a_device() -> None:
    res = attempt("graph", "--format", "dot", "--out", "/dev/full", expect={2})
    assert "cannot write /dev/full" in res.error_line()
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_write_atomic_into_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    write_atomic(fifo, "hello\n")
    reader.join(30)
    assert got == [b"hello\n"] and stat.S_ISFIFO(fifo.lstat().st_mode)
