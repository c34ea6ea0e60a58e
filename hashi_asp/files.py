"""Reading and writing whole files safely: input read up to a size limit and decoded with a
precise error; output written so that a failure or a signal never leaves half a file behind."""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

from .puzzle import HashiError, PuzzleError
from .status import Status
from .stopping import deferred

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input any reader accepts (64 MiB): room for a 10 000 000-cell grid in every notation
(the largest, a pzprv3 file with its lines, takes about 60 MB), while a JSON document, which is
parsed whole, stays around 1 GB of memory at worst."""


# ---------------------------------------------------------------------------- reading


def read_text(path: str | os.PathLike) -> str:
    """The UTF-8 text of a file, with one-line errors for everything that can go wrong."""
    path = Path(path)
    try:
        if path.is_dir():
            raise PuzzleError("is a directory, not a puzzle file", str(path))
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PuzzleError(
                f"file is {size} bytes; the limit is {MAX_FILE_BYTES} (64 MiB)", str(path)
            )
        with path.open("rb") as stream:
            return read_stream(stream, str(path))
    except FileNotFoundError:
        raise PuzzleError("no such file", str(path)) from None
    except OSError as error:
        raise PuzzleError(f"cannot read file: {error.strerror or error}", str(path)) from None
    except ValueError:  # a NUL character in the path
        raise PuzzleError(
            "cannot read file: the path contains a NUL character", str(path)
        ) from None


def read_stream(stream: BinaryIO, source: str) -> str:
    """The UTF-8 text of a binary stream (standard input, or a file whose size the file system
    does not tell, such as /dev/zero), refused beyond :data:`MAX_FILE_BYTES` without reading
    more than that."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise PuzzleError(f"input is over the limit of {MAX_FILE_BYTES} bytes (64 MiB)", source)
    return decode(data, source)


def decode(data: bytes, source: str) -> str:
    """Bytes as UTF-8 text (a BOM is dropped); other encodings get a clear error."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PuzzleError("file is UTF-16; save it as UTF-8", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8", "replace")  # the text up to the byte
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise PuzzleError(
            f"not UTF-8 text (byte 0x{data[error.start]:02x})", source, line, column
        ) from None


# ---------------------------------------------------------------------------- writing


def not_the_input(path: str | os.PathLike, source: str | os.PathLike) -> None:
    """Refuse to write ``path`` when it is the file ``source`` was read from: nothing the user
    gave is overwritten."""
    if os.path.exists(path) and os.path.exists(source) and os.path.samefile(path, source):
        raise HashiError(f"{path}: is the puzzle being read; choose another output file")


def prepare_folder(folder: Path, names: list[str], *, force: bool = False) -> None:
    """Create ``folder`` if missing; refuse, before any time is spent, if a file to be written
    there already exists (unless ``force``)."""
    existing = [name for name in names if (folder / name).exists()]
    if existing and not force:
        raise FileExists(f"{folder / existing[0]}: file exists (use --force to replace it)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FileExists(f"{folder}: cannot create folder: {error.strerror or error}") from None


class FileExists(HashiError):
    """A file the command would write is there already, or its folder cannot be made."""

    status = Status.BAD_INPUT


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
    import tempfile  # (imported here: it costs every command's start-up otherwise)

    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
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
                os.link(temporary, path)  # fails if path exists, atomically
            except FileExistsError:
                raise
            except OSError:  # no hard links here: check, then rename
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
