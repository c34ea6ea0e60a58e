"""Where output goes: the files the commands write (one way to write one, one rule for
replacing one), and standard output when it cannot be written.  Real processes, real devices,
FIFOs and symbolic links: what a user's shell would hand the command."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import processes
import pytest
from conftest import PUZZLES, run

from hashi_asp import read
from hashi_asp.errors import HashiError
from hashi_asp.files import write_output

PROLOG = PUZZLES / "prolog-5x5.txt"
MANY = PUZZLES / "coelho" / "Hs_16_100_50_10_001.has"  # about 20 000 solutions
AS_HAS = read(PROLOG)  # what `convert PROLOG --to has` writes, read back below
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
full_device = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
as_root = pytest.mark.skipif(not ROOT, reason="making a device node needs root")


def one_line(stderr: str, *parts: str) -> None:
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    assert stderr.startswith("hashi-asp: ") and all(part in stderr for part in parts), stderr


def device(path: Path, minor: int) -> Path:
    """A character device of the memory driver made at ``path``: minor 3 is null, 7 full."""
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return path


# ---------------------------------------------------------------------------- what -o names


@full_device
def test_a_full_device_stays_a_device_and_the_write_is_one_error():
    completed = processes.run("convert", PROLOG, "--to", "has", "-o", "/dev/full")
    assert completed.returncode == 2
    one_line(completed.stderr, "/dev/full: cannot write: No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@as_root
def test_devices_are_written_into_never_replaced(tmp_path):
    full, null = device(tmp_path / "full", 7), device(tmp_path / "null", 3)
    completed = processes.run("convert", PROLOG, "--to", "has", "-o", full)
    assert completed.returncode == 2
    one_line(completed.stderr, f"{full}: cannot write: No space left on device")
    # Writing into a device replaces no file: no --force needed, for bench too.
    for args in (
        ["convert", PROLOG, "--to", "json", "-o", null],
        ["bench", PROLOG, "--csv", null, "--json", null],
    ):
        completed = processes.run(*args)
        assert completed.returncode == 0, completed.stderr
    assert stat.S_ISCHR(full.lstat().st_mode) and stat.S_ISCHR(null.lstat().st_mode)
    assert sorted(os.listdir(tmp_path)) == ["full", "null"]  # no temporary file left


def test_a_fifo_is_written_into_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "puzzle.has"
    os.mkfifo(fifo)
    # The reader, a process of its own, opens the FIFO as the command writes into it.
    reader = subprocess.Popen(
        [sys.executable, "-c", f"import sys; sys.stdout.write(open({str(fifo)!r}).read())"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        completed = processes.run("convert", PROLOG, "--to", "has", "-o", fifo, timeout=60)
        received = reader.communicate(timeout=60)[0]
    finally:
        reader.kill()
    assert completed.returncode == 0, completed.stderr
    assert read(received, notation="has") == AS_HAS
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and os.listdir(tmp_path) == ["puzzle.has"]


def test_a_symbolic_link_stays_a_link_and_its_file_gets_the_content(tmp_path):
    (tmp_path / "kept").mkdir()
    target, link = tmp_path / "kept" / "puzzle.has", tmp_path / "link.has"
    target.write_text("old")
    target.chmod(0o640)
    link.symlink_to(Path("kept") / "puzzle.has")  # relative, as links often are
    refused = run("convert", PROLOG, "--to", "has", "-o", link)  # it leads to a file
    assert refused.exit_code == 2 and target.read_text() == "old"
    assert refused.stderr == f"hashi-asp: {link}: file exists (use --force to replace it)\n"
    assert run("convert", PROLOG, "--to", "has", "-o", link, "--force").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(Path("kept") / "puzzle.has")
    assert read(target) == AS_HAS and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["kept", "link.has", "puzzle.has"]
    # A link to nothing yet: the file is made where it leads.
    dangling = tmp_path / "new.svg"
    dangling.symlink_to(tmp_path / "kept" / "picture.svg")
    assert run("render", PROLOG, "-o", dangling).exit_code == 0
    assert dangling.is_symlink() and "<svg" in (tmp_path / "kept" / "picture.svg").read_text()


def test_what_is_not_a_file_is_refused_before_any_work(tmp_path):
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(tmp_path / "socket"))
    (tmp_path / "folder").mkdir()
    (tmp_path / "to-folder.has").symlink_to(tmp_path / "folder")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    try:
        for name, reason in [
            ("socket", "it is a socket; files, character devices and FIFOs are written"),
            ("to-folder.has", "is a directory"),  # (said by click, for -o)
            ("loop", "too many levels of symbolic links"),
            ("missing/puzzle.has", "no folder"),
        ]:
            result = run("convert", PROLOG, "--to", "has", "-o", tmp_path / name, "--force")
            assert result.exit_code == 2
            one_line(result.stderr, str(tmp_path / name), reason)
    finally:
        listening.close()
    assert stat.S_ISSOCK((tmp_path / "socket").lstat().st_mode)
    with pytest.raises(HashiError, match="cannot write: it is a directory"):
        write_output(tmp_path / "to-folder.has", b"2 . 2\n", force=True)
    assert list((tmp_path / "folder").iterdir()) == []


@as_root
def test_a_block_device_is_refused(tmp_path):
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 200))  # a loop device's numbers
    result = run("convert", PROLOG, "--to", "has", "-o", disk, "--force")
    assert result.exit_code == 2
    one_line(result.stderr, "cannot write: it is a block device;")
    assert stat.S_ISBLK(disk.lstat().st_mode)


def test_standard_output_by_name_is_written_into(tmp_path):
    """/dev/stdout leads to what the shell opened: a pipe here, a file there (after what the
    shell's redirection has written, with no --force: nothing is replaced)."""
    completed = processes.run("convert", PROLOG, "--to", "has", "-o", "/dev/stdout")
    assert completed.returncode == 0, completed.stderr
    assert read(completed.stdout, notation="has") == AS_HAS
    kept = tmp_path / "out.has"
    kept.write_text("")
    with kept.open("a") as out:
        command = [processes.script(), "convert", PROLOG, "--to", "has", "-o", "/dev/stdout"]
        assert subprocess.run(command, stdout=out, timeout=120).returncode == 0
    assert read(kept) == AS_HAS and kept.is_file() and not kept.is_symlink()


def test_the_puzzle_read_is_never_written_by_any_name(tmp_path):
    """Not through a link to it, nor as /dev/stdin when it is standard input: not even with
    --force."""
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_bytes(PROLOG.read_bytes())
    (tmp_path / "link.txt").symlink_to(puzzle)
    refused = run("convert", tmp_path / "link.txt", "--to", "has", "-o", puzzle, "--force")
    assert refused.exit_code == 2 and "is the puzzle being read" in refused.stderr
    with puzzle.open() as given:
        command = [processes.script(), "convert", "-", "--to", "has", "-o", "/dev/stdin"]
        completed = subprocess.run(
            [*command, "--force"], stdin=given, capture_output=True, text=True, timeout=120
        )
    assert completed.returncode == 2
    one_line(completed.stderr, "/dev/stdin: is the puzzle being read")
    assert puzzle.read_bytes() == PROLOG.read_bytes()


# ---------------------------------------------------------------------------- --force


@pytest.mark.parametrize(
    "args",
    [
        # Each would fail (or take long) if it got that far: the refusal comes first.
        ["render", PROLOG, "missing.json", "-o", "{out}.svg"],
        ["convert", '{"islands": [[0, 0, null], [0, 2, 1]]}', "--to", "has", "-o", "{out}.has"],
        ["bench", MANY, "--unique", "--csv", "{out}.csv"],
        ["bench", MANY, "--unique", "--json", "{out}.json"],
    ],
)
def test_an_existing_file_is_replaced_only_with_force(tmp_path, args):
    out = tmp_path / "mine"
    filled = [str(arg).replace("{out}", str(out)) for arg in args]
    written = Path(next(arg for arg in filled if arg.startswith(str(out))))
    written.write_text("mine")
    result = run(*filled)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"hashi-asp: {written}: file exists (use --force to replace it)\n"
    assert written.read_text() == "mine" and os.listdir(tmp_path) == [written.name]


def test_force_replaces_the_file_whole(tmp_path):
    picture, rows = tmp_path / "a.svg", tmp_path / "rows.json"
    picture.write_text("mine")
    rows.write_text("mine")
    assert run("render", PROLOG, "-o", picture, "--force").exit_code == 0
    assert picture.read_text().startswith("<svg")
    assert run("bench", PROLOG, "--json", rows, "--force").exit_code == 0
    assert json.loads(rows.read_text())[0]["status"] == "solved"
    assert sorted(os.listdir(tmp_path)) == ["a.svg", "rows.json"]


def test_steps_writes_into_a_fifo_in_its_folder_without_force(tmp_path):
    """A FIFO with a file's name in --out replaces no file: written into, as with -o."""
    out = tmp_path / "walk"
    out.mkdir()
    os.mkfifo(out / "step-001.svg")
    reader = subprocess.Popen(
        [sys.executable, "-c", f"print(len(open({str(out / 'step-001.svg')!r}).read()))"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        args = ("steps", PUZZLES / "nyt-2022-04-03.json", "--format", "svg", "--out", out, "-n", 1)
        completed = processes.run(*args, timeout=60)
        received = reader.communicate(timeout=60)[0]
    finally:
        reader.kill()
    assert completed.returncode == 0, completed.stderr
    assert int(received) > 100 and stat.S_ISFIFO((out / "step-001.svg").lstat().st_mode)


# ---------------------------------------------------------------------------- standard output


def to_full(*args, input: str | None = None) -> subprocess.CompletedProcess:
    """The installed command with standard output on /dev/full, as `> /dev/full` gives it."""
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [processes.script(), *map(str, args)],
            stdout=full,
            stderr=subprocess.PIPE,
            input=input,
            text=True,
            timeout=300,
        )


@full_device
@pytest.mark.parametrize(
    "args, input",
    [
        (["solve", PROLOG], None),
        (["solve", PROLOG, "--format", "svg"], None),
        (["solve", PROLOG, "--format", "facts"], None),
        (["solve", "-"], "1.2\n"),  # the reasons for "no solution" are lost too: not exit 1
        (["facts", PROLOG], None),
        (["generate", "-n", 10, "--format", "json", "-q"], None),
        (["solve", MANY, "-n", 0, "--format", "facts", "--time-limit", 60], None),  # megabytes
        (["convert", PUZZLES / "coelho" / "Hs_24_200_50_10_001.has", "--to", "json"], None),
        (["--help"], None),
    ],
)
def test_a_full_standard_output_is_one_line_and_exit_2(args, input):
    completed = to_full(*args, input=input)
    assert completed.returncode == 2
    assert completed.stderr == "hashi-asp: cannot write standard output: No space left on device\n"


@full_device
def test_output_lost_at_the_final_flush_is_not_success(tmp_path):
    """An output still in the buffer when the command ends: the flush at the exit fails, and
    says so (a command whose output is lost has not succeeded)."""
    program = textwrap.dedent(
        """
        import sys
        import click
        from hashi_asp.cli import Group

        @click.group(cls=Group)
        def tool():
            pass

        @tool.command()
        def quiet():
            sys.stdout.write("written without a flush\\n")

        tool(["quiet"], prog_name="hashi-asp")
        """
    )
    with open("/dev/full", "w") as full:
        completed = subprocess.run(
            [sys.executable, "-c", program], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert completed.returncode == 2
    assert completed.stderr == "hashi-asp: cannot write standard output: No space left on device\n"


# ---------------------------------------------------------------------------- standard error


@full_device
@pytest.mark.parametrize(
    "args, code",
    [
        (["solve", "missing.txt"], 2),  # the error's code, not 1 ("no solution")
        (["solve", "--no-such-option"], 2),
        (["solve", "-"], 1),  # read from standard input: "1.2", which has no solution
        (["solve", PROLOG, "--time-limit", "0"], 2),
        (["solve", PROLOG], 0),
        (["check", PROLOG, '{"bridges": []}'], 1),
    ],
)
def test_a_full_standard_error_leaves_the_exit_code_as_it_was(args, code):
    """With `2> /dev/full` what is said on standard error is lost, but the exit code is the one
    the command ends with when it can say it: never the 1 of an error raised while saying it."""
    said = processes.run(*args, input="1.2\n")
    assert said.returncode == code and "Traceback" not in said.stderr, said.stderr
    with open("/dev/full", "w") as full:
        completed = subprocess.run(
            [processes.script(), *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=full,
            input="1.2\n",
            text=True,
            timeout=300,
        )
    assert completed.returncode == code
    assert completed.stdout == said.stdout


def test_a_closed_pipe_ends_the_command_quietly():
    process = processes.start("solve", MANY, "-n", 0)
    first = process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    stderr = process.stderr.read()
    process.wait(timeout=120)
    process.stderr.close()
    assert first == "Solution 1:\n"
    assert stderr == "" and process.returncode == 0


@pytest.fixture
def read_files(tmp_path, monkeypatch):
    """In a folder of its own: a puzzle, a folder of puzzles, bridges, a rules file and a study
    database, each with a name that leads to it from where a command writes (a symbolic link,
    a hard link)."""
    monkeypatch.chdir(tmp_path)
    files = {name: tmp_path / name for name in ("puzzle.txt", "solution.json", "extra.lp")}
    files["puzzle.txt"].write_bytes(PROLOG.read_bytes())
    files["solution.json"].write_text('{"bridges": []}\n')
    files["extra.lp"].write_text("")
    (tmp_path / "set").mkdir()
    files["set/one.has"] = tmp_path / "set" / "one.has"
    files["set/one.has"].write_bytes(MANY.read_bytes())
    files["victim.db"] = tmp_path / "victim.db"
    assert run("study", "run", "victim.db", "puzzle.txt", "--jobs", "1").exit_code == 0
    os.symlink(files["victim.db"], "figure.svg")
    os.link(files["solution.json"], "picture.svg")
    os.symlink(files["set/one.has"], "rows.csv")
    os.link(files["extra.lp"], "rows.json")
    (tmp_path / "steps").mkdir()
    os.symlink(files["puzzle.txt"], tmp_path / "steps" / "step-001.svg")
    return files


@pytest.mark.parametrize(
    "args, message",
    [
        (["study", "plot", "victim.db", "--cactus", "figure.svg", "--force"], "victim.db (DB)"),
        (["render", "puzzle.txt", "solution.json", "-o", "picture.svg", "--force"], "(SOLUTION)"),
        (["convert", "puzzle.txt", "--to", "has", "-o", "set/../puzzle.txt", "--force"], "puzzle"),
        (["bench", "set", "--csv", "rows.csv", "--force"], "is set/one.has (PATHS)"),
        (["bench", "set", "--add", "extra.lp", "--json", "rows.json", "--force"], "(--add)"),
        (["steps", "puzzle.txt", "--format", "svg", "--out", "steps", "--force"], "the puzzle"),
        (["study", "run", "extra.lp", "puzzle.txt", "--variant", "a=--add extra.lp"], "variant a"),
    ],
)
def test_no_command_writes_over_a_file_it_reads_by_any_name(read_files, args, message):
    """Every file a command reads (its puzzle, bridges, files, the puzzle files under PATHS, a
    study's database and its variants' files), reached by a symbolic link, a hard link or
    another relative path, is refused as an output: not even --force replaces it."""
    before = {name: path.read_bytes() for name, path in read_files.items()}
    result = run(*args)
    assert result.exit_code == 2, result.stderr
    one_line(result.stderr, message, " being read; choose another output file")
    assert {name: path.read_bytes() for name, path in read_files.items()} == before
    assert os.path.islink("figure.svg") and os.path.islink("steps/step-001.svg")
