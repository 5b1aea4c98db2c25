"""``--scheduler``: malformed addresses and listeners that are not Dask schedulers are bad input, not hangs.

The review's attempts 1.35, 1.36, 7.11 (a traceback and exit 1) and 11.04,
11.05 (no exit in 120 s) re-run as tests.
"""

from __future__ import annotations

import socket
import threading
from typing import Iterator

import pytest
from hostile_helpers import COUNTER, attempt


@pytest.mark.parametrize("address", ["nonsense://x", "", "tcp://", "tcp://host", "tcp://host:port", "::::"])
@pytest.mark.parametrize("json_mode", [False, True])
def test_malformed_addresses(address: str, json_mode: bool) -> None:
    extra = ["--json"] if json_mode else []
    line = attempt("check", COUNTER, "--scheduler", address, *extra, expect={2}).error_line()
    assert "--scheduler takes a Dask scheduler address" in line


def _listener(answer: bytes | None) -> Iterator[int]:
    """A local TCP listener that accepts and then says ``answer`` (None: nothing, ever)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    conns: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            conns.append(c)
            if answer is not None:
                try:
                    c.sendall(answer)
                except OSError:
                    pass

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        t.join(2)
        for c in conns:
            c.close()
        srv.close()


@pytest.fixture()
def silent() -> Iterator[int]:
    yield from _listener(None)


@pytest.fixture()
def http() -> Iterator[int]:
    yield from _listener(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def test_a_silent_listener_is_not_a_scheduler(silent: int) -> None:
    """11.05: a socket that accepts and never answers."""
    line = attempt("check", COUNTER, "--scheduler", f"tcp://127.0.0.1:{silent}", expect={2}).error_line()
    assert line.startswith(f"error: cannot connect to the Dask scheduler at tcp://127.0.0.1:{silent}")


def test_an_http_server_is_not_a_scheduler(http: int) -> None:
    """11.04: ``python -m http.server`` at the address."""
    res = attempt("check", COUNTER, "--scheduler", f"tcp://127.0.0.1:{http}", "--json", expect={2})
    assert "cannot connect to the Dask scheduler" in res.json["error"]


def test_nothing_listening() -> None:
    """1.34 (held; it now fails within the connect timeout)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = attempt("mutants", COUNTER, "--scheduler", f"tcp://127.0.0.1:{port}", expect={2}).error_line()
    assert "cannot connect to the Dask scheduler" in line
