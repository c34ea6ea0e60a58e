"""Running the installed command as a process: for what only a real process shows (signals,
exit codes after os._exit, standard input from /dev/zero)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def script() -> Path:
    path = Path(sys.executable).parent / ("hashi-asp.exe" if os.name == "nt" else "hashi-asp")
    assert path.exists(), "install the project first (see README): hashi-asp is not on this venv"
    return path


def run(*args, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [script(), *map(str, args)], capture_output=True, text=True, timeout=timeout, **kwargs
    )


def start(*args, **kwargs) -> subprocess.Popen:
    """The command in a process group of its own, as a terminal starts it (Ctrl-C there
    reaches the whole group), with Ctrl-C not ignored: a shell starts a background job with
    SIGINT ignored, the command keeps an ignored signal ignored (as nohup expects), and the
    tests may well run in such a job."""
    return subprocess.Popen(
        [script(), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=terminal_signals if os.name != "nt" else None,
        **kwargs,
    )


def terminal_signals() -> None:
    """Ctrl-C at its default (ending the process), as a terminal starts a command."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_until_working(process: subprocess.Popen, settle: float = 0.5, timeout: float = 60) -> None:
    """Wait until the command is past its imports and has clingo working: a second thread
    (grounding, or clingo's search) shows on Linux in /proc; elsewhere, wait a while."""
    tasks = Path(f"/proc/{process.pid}/task")
    if not tasks.exists():
        time.sleep(5)
        return
    started = time.monotonic()
    while len(os.listdir(tasks)) < 2:
        assert process.poll() is None, "the command ended before it started working"
        assert time.monotonic() - started < timeout, "the command never started working"
        time.sleep(0.05)
    time.sleep(settle)


def session(leader: int) -> dict[int, int]:
    """The processes of the session ``leader`` started (one started by :func:`start`), but the
    leader: each with its number of threads (Linux, from /proc)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == leader:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            threads = len(os.listdir(f"/proc/{entry}/task"))
        except OSError:  # ended meanwhile
            continue
        fields = stat.rpartition(")")[2].split()
        if fields[0] != "Z" and int(fields[3]) == leader:  # state, ..., session
            found[int(entry)] = threads
    return found


def cpu_seconds(pid: int) -> float:
    """Seconds of CPU the process has used, all its threads (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_work(process: subprocess.Popen, seconds: float, timeout: float = 120) -> None:
    """Wait until the command has used ``seconds`` of CPU: an amount of work done, whatever
    else the machine is doing."""
    wait_until_working(process, settle=0, timeout=timeout)
    started = time.monotonic()
    while cpu_seconds(process.pid) < seconds:
        assert process.poll() is None, "the command ended before it had done the work"
        assert time.monotonic() - started < timeout, f"the command never used {seconds} s of CPU"
        time.sleep(0.05)


def wait_for(condition, what: str, timeout: float = 60) -> None:
    """Wait until ``condition()`` holds (looking every 50 ms), failing after ``timeout``."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, f"never: {what}"
        time.sleep(0.05)
