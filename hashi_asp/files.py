"""Reading and writing whole files safely: input read up to a size limit and decoded with a
precise error; output written so that a failure or a signal never leaves half a file behind,
nothing but a file is ever replaced, and a file only when the user says so; standard output
whose writes fail says so instead of ending as if all was well, and standard error whose writes
fail leaves the exit code as it was."""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .errors import HashiError, PuzzleError
from .status import Status
from .stopping import deferred

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input any reader accepts (64 MiB): room for a 10 000 000-cell grid in every notation
(the largest, a pzprv3 file with its lines, takes about 60 MB), while a JSON document, which is
parsed whole, stays around 1 GB of memory at worst."""


# ---------------------------------------------------------------------------- reading


def read_text(path: str | os.PathLike, *, regular: bool = False, what: str = "puzzle file") -> str:
    """The UTF-8 text of a file, with one-line errors for everything that can go wrong.
    ``regular``: only a regular file, for what is read again and again or sent elsewhere (a
    study's instances and rule files): a FIFO or a device is refused without waiting for a
    writer or reading on.  ``what`` names the file in the message for a directory."""
    return decode(read_data(path, regular=regular, what=what), str(path))


def read_data(
    path: str | os.PathLike, *, regular: bool = False, what: str = "puzzle file"
) -> bytes:
    """The bytes of a file (text, or a picture), up to :data:`MAX_FILE_BYTES`, with the errors
    of :func:`read_text`."""
    path = Path(path)
    try:
        if path.is_dir():
            raise PuzzleError(f"is a directory, not a {what}", str(path))
        # Opened without waiting: a FIFO with no writer would hold the open itself.
        flags = os.O_RDONLY | (os.O_NONBLOCK if regular else 0)
        with open(os.open(path, flags), "rb") as stream:
            found = os.fstat(stream.fileno())
            if regular and not stat.S_ISREG(found.st_mode):
                raise PuzzleError("not a regular file", str(path))
            if found.st_size > MAX_FILE_BYTES:
                raise PuzzleError(
                    f"file is {found.st_size} bytes; the limit is {MAX_FILE_BYTES} (64 MiB)",
                    str(path),
                )
            return read_stream_data(stream, str(path))
    except FileNotFoundError:
        raise PuzzleError("no such file", str(path)) from None
    except OSError as error:
        raise PuzzleError(f"cannot read file: {error.strerror or error}", str(path)) from None
    except ValueError:  # a NUL character in the path
        raise PuzzleError(
            "cannot read file: the path contains a NUL character", str(path)
        ) from None


def read_stream_data(stream: BinaryIO, source: str) -> bytes:
    """The bytes of a binary stream, refused beyond :data:`MAX_FILE_BYTES` without reading more
    than that."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise PuzzleError(f"input is over the limit of {MAX_FILE_BYTES} bytes (64 MiB)", source)
    return data


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


PUZZLE_SUFFIXES = {".has", ".txt", ".json"}
"""What a folder of puzzles is searched for."""


def puzzle_files(paths: Iterable[str], base: str | os.PathLike = ".") -> list[str]:
    """The puzzle files under ``paths`` (files, folders searched with their subfolders for
    :data:`PUZZLE_SUFFIXES`, globs), relative to ``base``, each named by its path as given,
    sorted within each path; a path that names nothing is a :class:`PuzzleError`."""
    import glob

    base = Path(base)
    names: list[str] = []
    for given in paths:
        place = base / given
        if any(mark in given for mark in "*?["):
            matches = sorted(glob.glob(str(place), recursive=True))
            absolute = Path(given).is_absolute()
            found = [m if absolute else os.path.relpath(m, base) for m in matches]
            found = [name for name in found if (base / name).is_file()]
            if not found:
                raise PuzzleError("no file matches", given)
        elif place.is_dir():
            found = sorted(
                str(Path(given) / path.relative_to(place))
                for path in place.rglob("*")
                if path.suffix in PUZZLE_SUFFIXES and path.is_file()
            )
        elif place.exists():
            found = [given]
        else:
            raise PuzzleError("no such file or directory", given)
        names.extend(found)
    return list(dict.fromkeys(names))


# ---------------------------------------------------------------------------- writing files

LINKS_FOLLOWED = 40
"""Most symbolic links followed on the way to a file: as many as Linux follows to open one."""

_DESCRIPTORS = re.compile(r"/proc/[^/]+(?:/task/[^/]+)?/fd")
"""The folder of a process's open files: /dev/stdout and /dev/fd/N lead there."""


class FileExists(HashiError):
    """A file the command would write is there already, or it cannot be written there."""

    status = Status.BAD_INPUT


def not_the_input(path: str | os.PathLike, reads: Iterable[tuple[str, str]]) -> None:
    """Refuse to write ``path`` when it is a file being read, by whatever name (a symbolic or a
    hard link, another relative path: the same file of the same device), so that nothing the
    user gave is overwritten.  ``reads``: each file read (``-``: the file standard input comes
    from), with what it is, for the message (``the puzzle``)."""
    try:
        written = os.stat(path)
    except (OSError, ValueError):  # nothing there yet
        return
    if not stat.S_ISREG(written.st_mode):  # a device or a FIFO is written into, not replaced
        return
    for source, what in reads:
        try:
            read = os.fstat(sys.stdin.fileno()) if source == "-" else os.stat(source)
        except (OSError, ValueError, AttributeError):  # not a file (a puzzle's text), or gone
            continue
        if (written.st_dev, written.st_ino) == (read.st_dev, read.st_ino):
            raise FileExists(f"{path}: is {what} being read; choose another output file")


def prepare_output(
    path: str | os.PathLike, *, force: bool = False, reads: Iterable[tuple[str, str]] = ()
) -> None:
    """Refuse, before any time is spent, what :func:`write_output` would refuse at the end: a
    file being read (``reads``, as :func:`not_the_input` takes them), an existing file (unless
    ``force``), a directory, a block device or a socket, a missing folder."""
    not_the_input(path, reads)
    place, kind = _destination(path)
    if kind == "file" and not force:
        raise FileExists(f"{path}: file exists (use --force to replace it)")
    if kind == "new" and not place.parent.is_dir():
        raise FileExists(f"{path}: cannot write: no folder {place.parent}")


def prepare_folder(
    folder: Path, names: list[str], *, force: bool = False, reads: Iterable[tuple[str, str]] = ()
) -> None:
    """Create ``folder`` if missing; refuse, before any time is spent, if a file to be written
    there is one being read (``reads``) or already exists (unless ``force``), or what cannot be
    written has its name."""
    if folder.is_dir():
        for name in names:
            prepare_output(folder / name, force=force, reads=reads)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FileExists(f"{folder}: cannot create folder: {error.strerror or error}") from None


def write_output(path: str | os.PathLike, data: bytes, *, force: bool = False) -> None:
    """Write ``data`` to the file ``path`` names: the one way every command writes a file.

    - Nothing there yet, or a regular file: ``data`` goes to a temporary file beside it that is
      then renamed, so the file appears whole or not at all and an existing one stays intact
      until the end.  An existing file is replaced only with ``force``; otherwise
      :class:`FileExists` (checked at the moment of the rename, where the file system has hard
      links).
    - A symbolic link: the same, at the file it leads to; the link stays a link.
    - A character device or a FIFO (/dev/null, a terminal, a named pipe), or a path to an open
      file of the process (/dev/stdout, /dev/fd/N): written into, as a shell's ``>`` would, and
      never replaced, so no ``force`` is needed.  A FIFO waits for its reader.
    - A directory, a block device or a socket: refused.

    Other failures raise :class:`HashiError` with the reason.
    """
    place, kind = _destination(path)
    if kind in ("device", "descriptor"):
        # Not under deferred(): opening a FIFO waits for its reader, and Ctrl-C must end that
        # wait; and there is no temporary file to clean up.
        _write_into(path, place, data, append=kind == "descriptor")
        return
    if kind == "file" and not force:
        raise FileExists(f"{path}: file exists (use --force to replace it)")
    # Ctrl-C or SIGTERM during the write waits until the file is in place (or the temporary one
    # removed): an interruption never leaves half a file or a stray temporary file.
    with deferred():
        _replace(path, place, data, force=force)


def _destination(path: str | os.PathLike) -> tuple[Path, str]:
    """Where a write to ``path`` lands, following symbolic links one at a time, and what is
    there: ``new`` (nothing yet), ``file``, ``device`` (a character device or a FIFO), or
    ``descriptor`` (an open file of the process, reached through /proc).  Anything else is
    refused here."""
    place = Path(path)
    try:
        for _ in range(LINKS_FOLLOWED):
            folder = os.path.realpath(place.parent)
            if _DESCRIPTORS.fullmatch(folder):
                return place, "descriptor"
            place = Path(folder, place.name)
            try:
                mode = place.lstat().st_mode
            except FileNotFoundError:
                return place, "new"
            if stat.S_ISLNK(mode):
                place = Path(folder, os.readlink(place))  # (an absolute target replaces folder)
            elif stat.S_ISREG(mode):
                return place, "file"
            elif stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
                return place, "device"
            else:
                what = (
                    "a directory" if stat.S_ISDIR(mode)
                    else "a block device" if stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode)
                    else "a special file"
                )  # fmt: skip
                shown = "" if place == Path(path).absolute() else f" ({place})"
                raise HashiError(
                    f"{path}: cannot write: it is {what}{shown}; "
                    "files, character devices and FIFOs are written"
                )
    except OSError as error:
        raise _cannot(path, error) from None
    except ValueError:  # a NUL character in the path
        raise HashiError(f"{path}: cannot write: the path contains a NUL character") from None
    raise HashiError(f"{path}: cannot write: too many levels of symbolic links")


def _write_into(path: str | os.PathLike, place: Path, data: bytes, *, append: bool) -> None:
    """Write into what is at ``place`` without replacing it (a device, a FIFO, an open file,
    where the write goes after what the shell's redirection has written)."""
    flags = os.O_WRONLY | os.O_NOCTTY | (os.O_APPEND if append else 0)
    try:
        with open(os.open(place, flags), "wb") as out:
            out.write(data)
    except OSError as error:
        raise _cannot(path, error) from None


def _replace(path: str | os.PathLike, place: Path, data: bytes, *, force: bool) -> None:
    """Write ``data`` to a temporary file beside ``place``, then rename it to ``place``."""
    import tempfile  # (imported here: it costs every command's start-up otherwise)

    try:
        handle, temporary = tempfile.mkstemp(
            dir=place.parent, prefix=f".{place.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise _cannot(path, error) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        # mkstemp makes the file private; give it the mode a plain open() would have.
        existing = place.exists()
        os.chmod(temporary, place.stat().st_mode & 0o7777 if existing else 0o666 & ~_umask())
        if force:
            os.replace(temporary, place)
        else:
            try:
                os.link(temporary, place)  # fails if something is there, atomically
            except FileExistsError:
                raise FileExists(f"{path}: file exists (use --force to replace it)") from None
            except OSError:  # no hard links here: check, then rename
                if os.path.lexists(place):
                    raise FileExists(f"{path}: file exists (use --force to replace it)") from None
                os.replace(temporary, place)
    except OSError as error:
        raise _cannot(path, error) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _cannot(path: str | os.PathLike, error: OSError) -> HashiError:
    return HashiError(f"{path}: cannot write: {error.strerror or error}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---------------------------------------------------------------------------- standard output


class OutputLost(HashiError):
    """Standard output could not be written (a full disk, /dev/full, an I/O error): what the
    command printed is lost, which no exit code of a result may hide."""

    status = Status.BAD_INPUT


class _StandardOutput(io.FileIO):
    """File descriptor 1, whose write errors become :class:`OutputLost`, once: after that, what
    is still written is dropped (it cannot arrive, and the loss has been said).  A closed pipe
    stays a ``BrokenPipeError``, which ends a command quietly."""

    lost = False

    def write(self, data: Any) -> int:
        if self.lost:
            return len(data)
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            self.lost = True
            raise OutputLost(f"cannot write standard output: {error.strerror or error}") from None


@contextlib.contextmanager
def guarded_standard_output() -> Iterator[None]:
    """Within the block, the process's standard output reports a failed write as
    :class:`OutputLost`, wherever the write happens (``click.echo``, a flush at the end).  A
    stand-in for it (a test's captured output) is left alone."""
    stream = sys.stdout
    if stream is not sys.__stdout__ or not isinstance(stream, io.TextIOWrapper):
        yield
        return
    try:
        stream.flush()
        descriptor = stream.fileno()
    except (OSError, ValueError):
        yield
        return
    raw = _StandardOutput(descriptor, "w", closefd=False)
    sys.stdout = _over(raw, stream)
    try:
        yield
    finally:
        with contextlib.suppress(OSError, HashiError):
            sys.stdout.flush()
        raw.lost = True  # what a closed pipe left in the buffer goes nowhere, quietly
        sys.stdout = stream


class _StandardError(io.FileIO):
    """File descriptor 2, whose failed writes are dropped: a message that cannot be written
    anywhere is lost, and nothing more can be said about it."""

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except OSError:
            return len(data)


@contextlib.contextmanager
def guarded_standard_error() -> Iterator[None]:
    """Within the block, a write to the process's standard error that fails (a full disk,
    /dev/full, a reader gone) is dropped, so that the exit code stays the one of what happened:
    an error raised while saying another would end the command with 1, which means "no
    solution".  A stand-in for it (a test's captured output) is left alone."""
    stream = sys.stderr
    if stream is not sys.__stderr__ or not isinstance(stream, io.TextIOWrapper):
        yield
        return
    try:
        stream.flush()
        descriptor = stream.fileno()
    except (OSError, ValueError):
        yield
        return
    guarded = sys.stderr = _over(_StandardError(descriptor, "w", closefd=False), stream)
    try:
        yield
    finally:
        sys.stderr = stream
        if guarded.closed:  # closed within, to say nothing more (a reader gone): so is stderr
            stream.close()
        else:
            guarded.flush()  # (its writes never fail)


def _over(raw: io.FileIO, stream: io.TextIOWrapper) -> io.TextIOWrapper:
    """A text stream over ``raw`` that encodes and buffers as ``stream`` does."""
    return io.TextIOWrapper(
        io.BufferedWriter(raw),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )
