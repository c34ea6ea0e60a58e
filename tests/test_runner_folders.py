"""A runner's folder for the files variants bring, in the temporary directory: made for the
first variant that brings files (not for a runner that never sees one), and gone however the
runner ends: at its end, killed at work, or with the client of a study killed.  A janitor
process removes it when the runner is killed; it holds nothing but the pipe it waits on."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import processes
import pytest
from conftest import PIGEONS, PROGRAMS, PROLOG
from studies import descendants, rows, running, study
from studies import processes as table

from hashi_asp.study.runs import Task
from hashi_asp.study.variants import parse
from hashi_asp.workers import runners
from hashi_asp.workers.runners import Runner

PAIRS = PROGRAMS / "pairs.lp"

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="the process table is read from Linux's /proc"
)


@pytest.fixture
def temporary(tmp_path, monkeypatch) -> Path:
    """A temporary directory of the test's own (TMPDIR), for this process and those it starts."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR afresh
    return folder


def left(temporary: Path) -> list[Path]:
    return sorted(temporary.glob("hashi-asp-runner-*"))


def task(variant: str, options: str, time_limit: float | None = None) -> Task:
    return Task(str(PROLOG), PROLOG.read_text(), parse(variant, options), time_limit=time_limit)


def janitors(folder: Path) -> set[int]:
    """The janitor of ``folder`` (the shell named for it) and what it runs (``cat``)."""
    named = {pid for pid, (_, command, _) in table().items() if str(folder) in command}
    return named.union(*(descendants(pid) for pid in named))


def holders(pipe: str) -> set[int]:
    """The processes that hold ``pipe`` (``pipe:[inode]``) open."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            held = [os.readlink(f"/proc/{entry}/fd/{fd}") for fd in os.listdir(f"/proc/{entry}/fd")]
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if pipe in held:
            found.add(int(entry))
    return found


def test_a_runner_makes_its_folder_for_the_first_variant_with_files_and_removes_it(temporary):
    runner = Runner()
    try:
        plain = runner.run(task("plain", "--connectivity tree"))
        assert plain.status == "solved", plain.message
        assert runner.process.poll() is None and not left(temporary)  # no files, no folder
        added = runner.run(task("pairs", f"--add {PAIRS}"))
        assert added.status == "solved", added.message
        (folder,) = left(temporary)  # the runner lives on with it, for the next such variant
        digest = parse("pairs", f"--add {PAIRS}").digest
        assert (folder / digest / "0/pairs.lp").read_text() == PAIRS.read_text()
        assert janitors(folder), "the folder has its janitor"
    finally:
        runner.close()
    assert not left(temporary)  # removed by the runner itself as it ends
    processes.wait_for(lambda: not janitors(folder), "the janitor ended with the runner")


def test_a_runner_killed_at_work_leaves_no_folder_and_its_janitor_holds_only_its_pipe(temporary):
    runner = Runner()
    try:
        runner.send(task("slow", f"--add {PIGEONS}", time_limit=600))
        processes.wait_for(
            lambda: left(temporary) and runner.process.pid in running(), "the runner at work"
        )
        (folder,) = left(temporary)
        processes.wait_for(lambda: len(janitors(folder)) == 2, "the janitor waiting (sh, cat)")
        pipes = set()
        for pid in janitors(folder):
            fds = {fd: os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
            assert fds.pop("0").startswith("pipe:"), fds
            assert set(fds.values()) == {os.devnull}, fds  # none of the runner's, nor its parent's
            pipes.add(os.readlink(f"/proc/{pid}/fd/0"))
        (pipe,) = pipes
        # The one other holder of the janitor's pipe is the runner: its end closes with it.
        assert holders(pipe) == janitors(folder) | {runner.process.pid}
        os.kill(runner.process.pid, signal.SIGKILL)
        processes.wait_for(lambda: not left(temporary), "the killed runner's folder removed")
        processes.wait_for(lambda: not janitors(folder), "the janitor ended")
    finally:
        runner.close(kill=True)


def test_a_study_whose_client_is_killed_leaves_no_folder(temporary, tmp_path):
    """The runner ends with its parent, the client (Linux's PR_SET_PDEATHSIG): a SIGKILL, so
    the folder is its janitor's to remove."""
    database = tmp_path / "killed.db"
    variants = ["--variant", f"slow=--add {PIGEONS}"]
    process = processes.start("study", "run", database, PROLOG, *variants, "--jobs", "1")
    try:
        processes.wait_for(
            lambda: left(temporary) and process.pid in running().values(), "the slow run at work"
        )
        mine = descendants(process.pid)
        process.kill()
        process.communicate(timeout=120)
    finally:
        process.kill()
    processes.wait_for(lambda: not left(temporary), "the killed study's folder removed")
    processes.wait_for(lambda: not mine & set(table()), "the runner and its janitor ended")


def test_a_finished_study_leaves_no_folder(temporary, tmp_path):
    database = tmp_path / "done.db"
    variants = ["--variant", "plain=", "--variant", f"pairs=--add {PAIRS}"]
    variants += ["--variant", f"broken=--add {PROGRAMS / 'syntax_error.lp'}"]
    done = study(database, PROLOG, *variants, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    statuses = {row["variant"]: row["status"] for row in rows(database)}
    assert statuses == {"plain": "solved", "pairs": "solved", "broken": "error"}
    assert not left(temporary)


def test_without_a_shell_for_the_janitor_the_runner_removes_its_folder_as_before(
    temporary, monkeypatch
):
    def no_shell(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", "/bin/sh")

    monkeypatch.setattr(runners.subprocess, "Popen", no_shell)
    before = sorted(os.listdir("/proc/self/fd"))
    folder = runners._Folder()
    made = folder.made()
    assert made.is_dir() and made.parent == temporary and folder.watched is None
    assert sorted(os.listdir("/proc/self/fd")) == before  # the pipe closed, both ends
    folder.remove()
    assert not left(temporary)
