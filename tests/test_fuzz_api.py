"""The hostile requests of ``benchmarks/fuzz_api.py``, in short: a few hundred against a real
server, every class among them (huge integers, picture bombs, noise and other formats, bombs
of water and crossings, hostile heads), each answered as documented (a JSON 4xx, never a 5xx
or a traceback, no process started, no connection made, no file read).  The long run is
``python benchmarks/fuzz_api.py --minutes 10``."""

import subprocess
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_api.py"


def test_hostile_requests_of_every_class_are_answered_as_documented():
    run = subprocess.run(
        [sys.executable, str(FUZZ), "--requests", "300", "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    tried = run.stdout.split("values: ", 1)[1].split("\n", 1)[0]
    for family in ("huge integer", "picture", "hostile head", "a bomb of water or crossings"):
        assert f"{family} " in tried, (family, tried)
    assert "5xx answers: 0" in run.stdout and "failures: 0" in run.stdout
