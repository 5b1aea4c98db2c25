"""Writing files: atomically, with the mode the umask gives, errors as :class:`InputError`.

One writer for every file ruleproof produces (traces, graphs, pictures).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from .errors import InputError, clip

__all__ = ["file_mode", "is_stream", "write_atomic"]


def file_mode() -> int:
    """The mode a new regular file gets under the process umask (``0o666 & ~umask``)."""
    old = os.umask(0o022)
    os.umask(old)
    return 0o666 & ~old


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically: never half-written, not even after ``kill -9``.

    On Linux the data goes to an unnamed file (``O_TMPFILE``) in the target
    directory, which gets a name only once complete; where that is not
    possible, to a hidden temporary file named with the writer's process id
    (a ``kill -9`` can leave it behind, never under the final name; the next
    write of that file removes it).  Either is then moved over ``path`` (``os.replace``).
    The file gets the mode the umask gives a new file (an existing file
    keeps its mode).  Any failure (missing or read-only directory, a full
    disk, a path that is a directory) is an :class:`InputError` naming the
    path; nothing is left behind.  A device or a pipe (``/dev/stdout``) is
    written into (:func:`is_stream`); a symbolic link stays, the file it
    names is replaced.
    """
    p = Path(path)
    if str(path) == "" or p.name in ("", ".", ".."):
        raise InputError(f"not a file name: '{clip(str(path))}'")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if p.is_dir():
            raise InputError(f"cannot write {clip(str(p))}: it is a directory")
        if is_stream(p):
            _into_stream(p, raw)
            return
        st = p.stat() if p.exists() else None
        if p.is_symlink():  # the link stays; the file it points to is replaced
            p = Path(os.path.realpath(p))
        mode = st.st_mode & 0o777 if st is not None else file_mode()
        if not _via_unnamed(p, raw, mode):
            _via_hidden(p, raw, mode)
    except OSError as exc:
        raise InputError(f"cannot write {clip(str(p))}: {exc.strerror or exc}") from None


def is_stream(path: str | Path) -> bool:
    """Is ``path`` an existing file that is not a regular file (a device, a pipe, a socket), or a name under
    ``/dev`` or ``/proc`` (``/dev/stdout`` is a link to whatever the standard output is)?

    Such a file is written into, never replaced: replacing it would put a regular file where
    ``/dev/stdout`` or ``/dev/null`` was (for root, for every process on the machine).
    """
    p = Path(path)
    try:
        st = p.stat()
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(st.st_mode) or str(p.absolute()).startswith(("/dev/", "/proc/"))


def _into_stream(p: Path, raw: bytes) -> None:
    """Write into a device or a pipe (there is no rename to make atomic)."""
    with open(p, "wb") as fh:
        fh.write(raw)


_UNNAMED = {"usable": hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd")}
"""Whether unnamed files can be named in this process (cleared after the first failure)."""


def _via_unnamed(p: Path, raw: bytes, mode: int) -> bool:
    """Write through an unnamed file (Linux ``O_TMPFILE``); False where that is not available."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not _UNNAMED["usable"]:
        return False
    try:
        fd = os.open(str(p.parent), flag | os.O_WRONLY, mode)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            return False  # the file system has no unnamed files
        raise
    tmp = str(p.parent / f"{_prefix(p)}{fd}.tmp")
    with os.fdopen(fd, "wb") as fh:
        fh.write(raw)
        fh.flush()
        os.fsync(fh.fileno())
        try:
            os.link(f"/proc/self/fd/{fh.fileno()}", tmp, follow_symlinks=True)
        except OSError:
            _UNNAMED["usable"] = False  # no way to name it here (a sandboxed /proc, ...)
            return False
    try:
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        _unlink(tmp)
        raise
    return True


def _prefix(p: Path, pid: int | None = None) -> str:
    """The name prefix of this process's temporary files for ``p`` (hidden, with the writer's process id)."""
    return f".{p.name[:64]}.ruleproof-{os.getpid() if pid is None else pid}-"


def _remove_stale(p: Path) -> None:
    """Remove temporary files for ``p`` left by writers that no longer run (``kill -9`` mid-write)."""
    head = f".{p.name[:64]}.ruleproof-"
    try:
        names = [n for n in os.listdir(p.parent) if n.startswith(head) and n.endswith(".tmp")]
    except OSError:
        return
    for n in names:
        pid = n[len(head):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        _unlink(str(p.parent / n))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (owned by another user)
    return True


def _via_hidden(p: Path, raw: bytes, mode: int) -> None:
    """Write through a hidden temporary file in the target directory."""
    _remove_stale(p)
    fd, tmp = tempfile.mkstemp(prefix=_prefix(p), suffix=".tmp", dir=str(p.parent))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        _unlink(tmp)
        raise


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
