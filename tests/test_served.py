"""What the JSON API serves, and what a request may give: one reviewed list of the options
served (hashi_asp/web/served.py), none that names a file, starts a process, reaches another
machine or hands clingo its own options; and, against the real ``hashi-asp serve`` process, the
refusals of what a request may not give (those options, a key given twice, a string that is not
Unicode text, a number Python does not read), each a 400 before any work, never a 500."""

from __future__ import annotations

import json
import re
import signal
import socket

import pytest
from serving import Server

from hashi_asp.web import api

WALK = "7x7m2:4a4a2a2w2k4c3a1"  # ten islands, one solution
JSON = {"Content-Type": "application/json"}


def post(server: Server, command: str, body: dict) -> tuple[int, dict]:
    """A command's request as JSON: the status and document of its answer."""
    status, _, document = server.ask("POST", f"/api/{command}", JSON, json.dumps(body).encode())
    return status, document


# ---------------------------------------------------------------------------- the reviewed list


READING = {"puzzle", "notation", "max-bridges", "no-loops"}
SEARCHING = READING | {"connectivity", "time-limit"}
REVIEWED = {
    "solve": SEARCHING | {"models", "stats"},
    "check": READING | {"solution", "time-limit"},
    "render": READING | {"solution", "cell-size", "time-limit"},
    "convert": READING | {"to"},
    "unique": SEARCHING | {"difficulty", "propose"},
    "fix": READING | {"keep", "free", "to", "alternatives", "difficulty", "time-limit"},
    "count": SEARCHING | {"check"},
    "hint": SEARCHING | {"given"},
    "steps": READING | {"given", "steps", "brief", "time-limit"},
    "difficulty": READING | {"time-limit"},
    "generate": {"islands", "size", "alpha", "beta", "seed", "format", "unique", "difficulty"}
    | {"max-bridges", "no-loops", "attempts", "time-limit"},
}
"""What the API serves, reviewed: an option a command declares later is not served until it is
added to hashi_asp/web/served.py, and here."""
STARTING_PROCESSES = {"jobs", "scheduler", "workers", "host", "port", "allow-host", "race"}
FILE_WORDS = re.compile(r"file|folder|path|dir|output|^out$|^db$|csv|^json$|force")
CLINGOS_OWN = {"clingo", "const", "variant", "encoding", "add"}
"""Strings clingo reads as it likes (its options, constants, variants of them, programs)."""


def test_the_api_serves_the_reviewed_options_and_none_that_reach_files_processes_or_clingo():
    from hashi_asp.commands import declaration as units

    assert {name: set(options) for name, options in api.OPTIONS.items()} == REVIEWED
    assert set(api.UNITS) == set(REVIEWED)
    for command, options in api.OPTIONS.items():
        for name, option in options.items():
            where = f"{command} {name}"
            assert option.kind not in units.NAMING_FILES, where
            assert not FILE_WORDS.search(name), where
            assert name not in STARTING_PROCESSES | CLINGOS_OWN, where
            assert option.key not in {"solver_options", "constants", "variants", "additions"}
            assert "race" not in option.choices, where
            assert option == api.UNITS[command].option(name) or option.name == "connectivity"
    declared = api.UNITS["solve"].option("connectivity")
    assert "race" in declared.choices  # the command line's, not the API's
    assert list(api.OPTIONS["solve"]["connectivity"].choices) == [
        choice for choice in declared.choices if choice != "race"
    ]


def test_an_option_a_command_declares_later_is_not_served():
    from dataclasses import replace

    from hashi_asp.commands.declaration import INT, TEXT, Option
    from hashi_asp.web import served

    solve = api.UNITS["solve"]
    grown = replace(
        solve, options=(*solve.options, Option("threads", INT, low=1), Option("peer", TEXT))
    )
    assert [option.name for option in served.options(grown)] == list(api.OPTIONS["solve"])
    shrunk = replace(solve, options=tuple(o for o in solve.options if o.name != "models"))
    with pytest.raises(LookupError, match="models"):
        served.options(shrunk)


# ---------------------------------------------------------------------------- what is refused


def test_no_request_starts_a_process_or_reaches_another_machine(server):
    """Options that would start processes, name another machine, reach a file or hand clingo
    its own options are refused (400) before any work: the server starts no process and opens
    no connection (a listener on this machine, named as a Dask scheduler, is never reached)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    scheduler = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    refused = [
        ("generate", {"islands": 10, "jobs": 64}, "no option 'jobs'"),
        ("generate", {"islands": 10, "scheduler": scheduler}, "no option 'scheduler'"),
        ("generate", {"islands": 10, "out": "/tmp", "count": 5}, "no option"),
        ("solve", {"puzzle": WALK, "connectivity": "race"}, "expected one of auto, "),
        ("count", {"puzzle": WALK, "variant": ["tree", "flow"]}, "no option 'variant'"),
        ("solve", {"puzzle": WALK, "clingo": "--parallel-mode=64"}, "no option 'clingo'"),
        ("solve", {"puzzle": WALK, "const": ["max_bridges=3"]}, "no option 'const'"),
        ("solve", {"puzzle": WALK, "encoding": "/etc/passwd"}, "no option 'encoding'"),
        ("unique", {"puzzle": WALK, "add": ["/etc/passwd"]}, "no option 'add'"),
    ]
    ended = server.children_cpu()  # (grows with any child process that ran, however short)
    try:
        for command, body, said in refused:
            status, document = post(server, command, body)
            assert status == 400 and said in document["error"], (command, body, document)
            assert server.children() == [] and server.connections() == []
        for command in ("bench", "study", "serve", "facts"):
            status, document = post(server, command, {"puzzle": WALK})
            assert status == 404 and document["error"].startswith(f"no such command {command!r}")
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()
    status, document = post(server, "generate", {"islands": 10, "seed": 3})
    assert status == 200 and document["islands"] == 10
    assert server.children() == [] and server.connections() == []
    assert server.children_cpu() == ended


def surrogate_bodies() -> list[tuple[str, dict, str]]:
    """(command, body, the place its error names): each command's every option that takes a
    string given a lone surrogate, the rest of the body valid."""
    from hashi_asp.commands.declaration import BRIDGES, CHOICE, PUZZLE, TEXT
    from hashi_asp.web import api

    bodies = []
    for command, options in api.OPTIONS.items():
        base = {"puzzle": WALK} if "puzzle" in options else {"islands": 10}
        if command == "check":
            base["solution"] = []
        if command == "convert":
            base["to"] = "json"
        for name, option in options.items():
            if option.kind in (TEXT, PUZZLE, BRIDGES, CHOICE):
                bodies.append((command, {**base, name: "ok \ud800"}, f'the string at "{name}"'))
        bodies.append((command, {**base, "x\udfff": 1}, 'the key "x\\udfff"'))
    bodies.append(("hint", {"puzzle": WALK, "given": {"bridges": ["\udc80"]}}, '"given"'))
    return bodies


def test_a_string_that_is_not_unicode_is_400_naming_its_key(start):
    """A lone surrogate, which JSON's \\ud800 escape can write in any string of a body, in
    every option that takes a string, a key, or deep in bridges: 400 saying where, for every
    command, and never a traceback."""
    server = start()
    for command, body, place in surrogate_bodies():
        data = json.dumps(body).encode()  # (json writes the surrogate as its escape)
        assert b"\\u" in data
        status, _, document = server.ask("POST", f"/api/{command}", JSON, data)
        assert status == 400, (command, body, document)
        assert document["error"].startswith("body: ") and place in document["error"], document
        assert "lone surrogate" in document["error"]
    pair = json.dumps({"puzzle": WALK, "x": "\U0001f600"}).encode()  # a pair: one character
    status, _, document = server.ask("POST", "/api/solve", JSON, pair)
    assert status == 400 and document["error"].startswith("solve: no option 'x'"), document
    code, err = server.stop(signal.SIGTERM)
    assert code == 143 and "Traceback" not in err, err


def test_a_number_too_long_for_python_is_400(server):
    """Python reads no integer of more than 4300 digits: in the body, or in a size."""
    body = b'{"puzzle": "3x3:1a1", "models": ' + b"9" * 5000 + b"}"
    status, _, document = server.ask("POST", "/api/solve", JSON, body)
    assert status == 400 and document["error"].startswith("body is not JSON this server reads")
    status, document = post(server, "generate", {"islands": 10, "size": "7" * 5000})
    assert status == 400, document
    assert (
        document["error"]
        == "size '777777777777777777777777777777777777'...: a side of more than 9 digits"
    )


def test_a_key_given_twice_is_400_naming_it(server):
    """As the command line refuses a JSON puzzle that repeats a key: json would keep the last
    value and drop the first, so one of the two would never be read."""
    twice = f'{{"puzzle": "{WALK}", "models": 2, "puzzle": "2 . 1\\n"}}'.encode()
    status, _, document = server.ask("POST", "/api/solve", JSON, twice)
    assert status == 400, document
    assert document["error"] == 'body:1:50: duplicate key "puzzle" (first at line 1, column 2)'
    nested = b'{"puzzle": "3x3:1a1", "solution": {"bridges": [], "bridges": [[0, 0, 0, 2, 1]]}}'
    status, _, document = server.ask("POST", "/api/check", JSON, nested)
    assert status == 400 and 'duplicate key "bridges"' in document["error"], document
    for first, second in (("time-limit", "time_limit"), ("max_bridges", "max-bridges")):
        body = json.dumps({"puzzle": WALK, first: 5, second: 1}).encode()
        status, _, document = server.ask("POST", "/api/unique", JSON, body)
        assert status == 400, document
        name = first.replace("_", "-")
        assert document["error"] == (
            f"unique: option {name!r} given twice (as {first!r} and {second!r})"
        )
