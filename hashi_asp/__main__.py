"""The ``hashi-asp`` script and ``python -m hashi_asp``: the command line of :mod:`.cli`, started
without Python's cycle collector running over its start-up and ended without the interpreter's
shutdown."""

import gc
import os


def main() -> None:
    """Load the command line with the cycle collector off and freeze what loading made; run the
    command; end the process at once with its exit code.

    Loading click and the package makes tens of thousands of objects that live until the exit,
    and no garbage cycles: every collection over them is wasted work (26 while loading, and
    a full one at shutdown).  Frozen, they are left out of every collection; the collector
    runs as usual over whatever the command makes after (clingo, loaded by the command, too).

    The command ends through :func:`~hashi_asp.stopping.leave`, with its output flushed and its
    files closed, and no thread of its own left to wait for: what the interpreter's shutdown
    would still do, free every object one by one, shows nowhere.  Together the two take 13 ms
    off a 7x7 solve (78 -> 65 ms).  (In-process callers, such as tests, call
    :data:`hashi_asp.cli.main`, which exits as usual.)"""
    gc.disable()
    try:
        from .cli import main as command_line
    finally:
        gc.freeze()
        gc.enable()
    try:
        command_line(prog_name="hashi-asp")
    except SystemExit as done:
        if not isinstance(done.code, int):  # (leave() always gives a number)
            raise
        os._exit(done.code)


if __name__ == "__main__":
    main()
