"""One protocol for stopping, in the process that asked: work that cannot be interrupted is left
behind at the deadline, and the caller (the library, the command line run by click's runner)
gets its answer or :class:`~hashi_asp.stopping.Stopped` and goes on; Ctrl-C in a program
without the command line's handlers is a stop like a time limit, which hands back what was
found.

Grounding is held at a gate the test opens (``clingo.Control.ground`` waits for it), so that
the work left behind is still running when the caller has its answer, whatever the machine's
speed; every wait is for an event.
"""

import signal
import threading

import clingo
import pytest
from click.testing import CliRunner
from conftest import MANY, PROLOG

from hashi_asp import Deadline, Stop, Stopped, read, solve, stopping
from hashi_asp.asp import control
from hashi_asp.cli import main

BOUND = 120  # seconds: the most any wait here may take


@pytest.fixture
def held(monkeypatch):
    """clingo's grounding held until the test sets the event this yields (set at the end
    whatever happens, so that no grounding outlives the test)."""
    gate = threading.Event()
    grounding = threading.Event()

    class Held(clingo.Control):
        def ground(self, *args, **kwargs):
            grounding.set()
            gate.wait()
            return super().ground(*args, **kwargs)

    monkeypatch.setattr(control.clingo, "Control", Held)
    try:
        yield gate
    finally:
        gate.set()


def test_the_library_gets_stopped_at_the_deadline_and_goes_on(held):
    deadline = Deadline(0.3)
    with pytest.raises(Stopped, match=r"time limit of 0\.3 s reached while clingo was grounding"):
        solve(read(PROLOG), time_limit=deadline)
    left = deadline.left_running()
    assert left and stopping.abandoned()  # the grounding is still at the gate
    held.set()
    assert all(done.wait(BOUND) for done in left)
    assert not deadline.left_running()
    assert solve(read(PROLOG), models=0).count == 2  # this process goes on as before


def test_the_command_line_in_process_gives_its_exit_code_and_the_caller_goes_on(held):
    runner = CliRunner()
    stopped = runner.invoke(main, ["solve", str(PROLOG), "--time-limit", "0.3"])
    assert stopped.exit_code == 3, stopped.output
    assert "time limit of 0.3 s reached while clingo was grounding" in stopped.stderr
    assert stopping.abandoned()
    held.set()
    again = runner.invoke(main, ["solve", str(PROLOG), "-n", "0", "--format", "json"])
    assert again.exit_code == 0, again.output
    assert '"count": 2' in again.stdout


def test_ctrl_c_in_a_library_search_hands_back_what_was_found():
    """Python's own Ctrl-C (no handlers of the command line) during an enumeration: the search
    stops as at a time limit, keeps the solutions found, and says why."""

    def interrupt(solution) -> None:
        if not interrupted:
            interrupted.append(solution)
            signal.raise_signal(signal.SIGINT)  # KeyboardInterrupt here, in the main thread

    interrupted: list = []
    deadline = Deadline()
    # Python's own handler, whatever the suite was started with (a shell starts a background
    # job with SIGINT ignored).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = solve(read(MANY), 0, time_limit=deadline, on_solution=interrupt)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.stopped is Stop.INTERRUPTED and deadline.stopped is Stop.INTERRUPTED
    assert not result.exhausted and result.count == len(result.solutions) >= 1
    assert interrupted[0] in result.solutions


def test_a_stop_ends_every_part_and_says_why():
    whole = Deadline(1000)
    part, step = whole.part(0.5), whole.at_most(10)
    whole.stop(Stop.TERMINATED)
    assert part.stopped is step.stopped is Stop.TERMINATED
    assert str(part.reached("grounding")) == "terminated"
    assert part.reached("grounding").status.exit_code == 143
    whole.stop(Stop.INTERRUPTED)  # the first reason is kept
    assert whole.stopped is Stop.TERMINATED
    late = Deadline(0)
    assert late.stopped is Stop.TIME and late.reached("x").status.exit_code == 3


def test_a_long_python_loop_looks_at_its_deadline():
    deadline = Deadline()
    seen = []
    with pytest.raises(Stopped):
        for item in deadline.looking(range(10_000), "counting", every=10):
            seen.append(item)
            if item == 25:
                deadline.stop()
    assert seen == list(range(30))  # stopped at the next look, not at the end


@pytest.mark.parametrize("question", ["settle", "count", "models"])
def test_a_question_asked_without_polling_is_stopped_at_its_deadline(question):
    """The synchronous questions of the walkthrough's checker and the fix's single edits: one
    that clingo cannot answer (13 pigeons in 12 holes) raises Stopped at its deadline instead
    of holding its caller until clingo is done."""
    from conftest import PIGEONS

    from hashi_asp.asp.interface import Program

    grounded = control.ground(read(PROLOG), Program(additions=[PIGEONS]), models=0)
    ask = {
        "settle": lambda deadline: grounded.settle([], deadline),
        "count": lambda deadline: grounded.count([], 2, deadline),
        "models": lambda deadline: grounded.models([], 2, deadline),
    }[question]
    raised: list[BaseException] = []

    def asking() -> None:
        try:
            ask(Deadline(0.5))
        except BaseException as error:  # what it raised is the answer
            raised.append(error)

    thread = threading.Thread(target=asking, daemon=True)
    thread.start()
    thread.join(120)  # a bound on the wait for an answer, not a measure of speed
    assert not thread.is_alive(), "the question went on past its deadline"
    assert len(raised) == 1 and isinstance(raised[0], Stopped) and raised[0].why is Stop.TIME
