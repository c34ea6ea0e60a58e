"""Writing output files so that a failure never leaves half a file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .interruption import deferred
from .puzzle import HashiError


def write_atomically(path: str | os.PathLike, data: bytes, *, replace: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename: the
    file appears whole or not at all, and an existing file stays intact until the end.

    With ``replace=False`` an existing ``path`` raises :class:`FileExistsError` (checked at the
    moment of the rename, where the file system allows hard links), so callers can say how to
    override it; other failures raise :class:`HashiError` with the reason.
    """
    path = Path(path)
    # Ctrl-C or SIGTERM during the write waits until the file is in place (or the temporary one
    # removed): an interruption never leaves half a file or a stray temporary file.
    with deferred():
        _write(path, data, replace)


def _write(path: Path, data: bytes, replace: bool) -> None:
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise HashiError(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        # mkstemp makes the file private; give it the mode a plain open() would have.
        os.chmod(temporary, path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask())
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)             # fails if path exists, atomically
            except FileExistsError:
                raise
            except OSError:                          # no hard links here: check, then rename
                if path.exists():
                    raise FileExistsError(path) from None
                os.replace(temporary, path)
    except FileExistsError:
        raise
    except OSError as error:
        raise HashiError(f"{path}: cannot write: {error.strerror or error}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
