"""The JSON API of ``hashi-asp serve`` (hashi_asp/web), in process through Starlette's
TestClient: each command's document is the command line's ``--format json`` document for the
same puzzle and options, and every mistake in a request is a JSON error with a 4xx status."""

import json
import re
import string
import threading
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from conftest import PUZZLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import flags
from starlette.testclient import TestClient

from hashi_asp import check, commands, notations, solving
from hashi_asp.cli import main
from hashi_asp.status import Status
from hashi_asp.web import api
from hashi_asp.web.app import PAGE_FILES, PAGE_MODULES, STATIC, create_app

WALK = "7x7m2:4a4a2a2w2k4c3a1"  # the walkthrough's puzzle: unique
PROLOG = (PUZZLES / "prolog-5x5.txt").read_text()  # two solutions
SEVEN = (PUZZLES / "seven-by-seven-24.json").read_text()
NYT = (PUZZLES / "nyt-2022-04-03.json").read_text()
UNSOLVABLE = '{"rows":1,"cols":3,"islands":[[0,0,1],[0,2,2]]}'
LOOPLESS = "7x7m2L:d4a33a2b1j3a4i2a4b3g1"  # a Tatham ID without loops: unique
SINGLES = "7x7m1:2b3a1i1a3b2h1a2a2g12d2a"  # a Tatham ID with single bridges only: unique
# Islands on every other cell of an 11x11 board, each a 4: solutions by the thousand.
LATTICE = json.dumps(
    {"rows": 11, "cols": 11, "islands": [[2 * r, 2 * c, 4] for r in range(6) for c in range(6)]}
)
TIMINGS = ("seconds", "stats")  # what differs from run to run


def local(app, **options) -> TestClient:
    """A client of ``app`` as a program on this machine is: it asks for 127.0.0.1 and sends
    JSON (the server refuses other host names and bodies)."""
    headers = {"Content-Type": "application/json"}
    return TestClient(app, base_url="http://127.0.0.1", headers=headers, **options)


@pytest.fixture(scope="module")
def client():
    with local(create_app(api.Limits(), workers=2)) as client:
        yield client


def post(client, command, body):
    response = client.post(f"/api/{command}", json=body)
    assert response.status_code < 500 and "Traceback" not in response.text, response.text
    return response.status_code, response.json()


def cli(command, puzzle, *args):
    """The command line's exit code, JSON document (None if it printed none) and error line."""
    result = CliRunner().invoke(main, [command, puzzle, *args, "--format", "json"])
    document = json.loads(result.stdout) if result.stdout.strip() else None
    return result.exit_code, document, result.stderr


def untimed(document):
    return {key: value for key, value in document.items() if key not in TIMINGS}


# Of two fixes with the same fewest edits, which one a proposal meets first depends on how far
# each of its searches got within its time (on a loaded machine, another of the same size).
WHICH_FIX = {"kind", "cell", "number", "old", "edits", "puzzle", "solution"}


def as_proposed(document):
    """``document`` with a fix of the fewest edits told by its size alone."""
    fix = document.get("fix")
    if not isinstance(fix, dict) or fix.get("fewest") is not True or fix.get("status") != "fixed":
        return document
    told = {key: value for key, value in fix.items() if key not in WHICH_FIX}
    return {**document, "fix": {**told, "edits": len(fix["edits"])}}


def same_as_the_cli(client, command, puzzle, options, args):
    status, document = post(client, command, {"puzzle": puzzle, **options})
    code, expected, err = cli(command, puzzle, *args)
    if expected is None:  # the command line gave an error: the API gives the same one
        assert (status, document) == (
            next(s.http for s in Status if s.exit_code == code and s.http >= 400),
            {"error": err.removeprefix("hashi-asp: ").strip()},
        )
    else:  # the same document, with the HTTP status of the command line's exit code
        assert status in {s.http for s in Status if s.exit_code == code}, document
        assert as_proposed(untimed(document)) == as_proposed(untimed(expected))
    return document


# ---------------------------------------------------------------------------- the same documents

PUZZLE_CASES = [
    pytest.param(WALK, {}, id="unique"),
    pytest.param(PROLOG, {}, id="multiple"),
    pytest.param(SEVEN, {}, id="seven"),
    pytest.param(UNSOLVABLE, {}, id="unsolvable"),
    pytest.param(LOOPLESS, {}, id="tatham-no-loops"),
    pytest.param(SINGLES, {}, id="tatham-max-bridges-1"),
    pytest.param(PROLOG, {"max-bridges": 1}, id="max-bridges-option"),
    pytest.param(PROLOG, {"no-loops": True}, id="no-loops-option"),
    pytest.param(NYT, {"max-bridges": 3}, id="max-bridges-3"),
]


@pytest.mark.parametrize("puzzle, rules", PUZZLE_CASES)
@pytest.mark.parametrize(
    "command, options",
    [
        ("solve", {}),
        ("solve", {"models": 3, "stats": True}),
        ("unique", {}),
        ("unique", {"difficulty": True}),
        ("count", {}),
        ("count", {"check": False}),
        ("hint", {}),
        ("steps", {}),
        ("steps", {"steps": 2}),
        ("difficulty", {}),
    ],
)
def test_each_search_gives_the_document_of_the_command_line(
    client, command, options, puzzle, rules
):
    every = {**rules, **options}
    document = same_as_the_cli(client, command, puzzle, every, flags(every))
    if command == "solve" and "stats" in options and "error" not in document:
        assert {"choices", "conflicts"} <= set(document["stats"])


@pytest.mark.parametrize("puzzle", [WALK, SEVEN, LOOPLESS])
def test_hint_and_steps_from_bridges_given_match_the_command_line(client, puzzle):
    _, solved = post(client, "solve", {"puzzle": puzzle})
    bridges = solved["solutions"][0]["bridges"]
    given = {"bridges": [[*bridge[:4], 1] for bridge in bridges[:3]]}  # lower bounds
    for command, options in [
        ("hint", {"given": given}),
        ("steps", {"given": given}),
        ("steps", {"given": given, "steps": 1}),
    ]:
        document = same_as_the_cli(client, command, puzzle, options, flags(options))
        assert document["status"] in ("unique", "multiple", "solved", "unfinished", "stuck")
    # Bridges that no solution extends: the hint names drawn bridges that cannot all stay.
    wrong = {"bridges": [[*bridge[:4], 2] for bridge in bridges if bridge[4] == 1][:2]}
    if wrong["bridges"]:
        options = {"given": wrong}
        document = same_as_the_cli(client, "hint", puzzle, options, flags(options))
        assert document["status"] == "unsolvable"
        # Next step gives no step built on them: mistaken, as on the command line.
        options = {"given": wrong, "steps": 1}
        document = same_as_the_cli(client, "steps", puzzle, options, flags(options))
        assert (document["status"], document["steps"]) == ("mistaken", [])


def test_next_step_is_read_off_the_walkthrough_the_server_keeps(client):
    from hashi_asp import read
    from hashi_asp.commands.steps import kept_walkthroughs

    _, whole = post(client, "steps", {"puzzle": SEVEN})
    state: dict = {"bridges": [], "ruled_out": [], "narrowed": []}
    shown, states = [], []
    for _ in range(len(whole["steps"]) + 1):
        states.append(json.loads(json.dumps(state)))
        status, document = post(client, "steps", {"puzzle": SEVEN, "given": state, "steps": 1})
        assert status == 200, document
        shown += document["steps"]
        if document["status"] != "unfinished":
            break
        (step,) = document["steps"]
        r1, c1, r2, c2 = step["pair"]
        if step["bridges"][0]:
            state["bridges"] = [b for b in state["bridges"] if b[:4] != step["pair"]]
            state["bridges"].append([r1, c1, r2, c2, step["bridges"][0]])
        state["narrowed"].append([r1, c1, r2, c2, step["bridges"]])
    assert document["status"] == whole["status"] and shown == whole["steps"]
    kept = kept_walkthroughs().held(read(SEVEN))
    assert kept is not None and len(kept.found) == len(whole["steps"])
    # An undo: the state before the third press gets the third step again, nothing walked.
    _, again = post(client, "steps", {"puzzle": SEVEN, "given": states[2], "steps": 1})
    assert again["steps"] == whole["steps"][2:3] and len(kept.found) == len(whole["steps"])


def test_check_matches_the_command_line_for_valid_and_broken_solutions(client):
    _, solved = post(client, "solve", {"puzzle": PROLOG, "models": 2})
    solutions = solved["solutions"]
    broken = {"bridges": [[0, 0, 0, 2, 2]]}
    for puzzle, solution in [
        (PROLOG, solutions[0]),
        (PROLOG, solved),  # every solution of a solve document is checked
        (PROLOG, broken),
        (UNSOLVABLE, {"bridges": [[0, 0, 0, 2, 1]]}),
    ]:
        status, document = post(client, "check", {"puzzle": puzzle, "solution": solution})
        code, expected, _ = cli("check", puzzle, json.dumps(solution))
        assert status == 200 and document == expected
        assert document["valid"] is (code == 0)
    # The solution may come as the text `check` reads, too.
    text = json.dumps(solutions[1])
    assert post(client, "check", {"puzzle": PROLOG, "solution": text})[1]["valid"] is True


# ------------------------------------------------------------------ convert, render, generate


@pytest.mark.parametrize("puzzle", [WALK, PROLOG, SEVEN, LOOPLESS, NYT])
@pytest.mark.parametrize("notation", ["json", "tatham", "has", "txt", "pzprv3", "puzzlink"])
def test_convert_writes_text_that_reads_back_as_the_same_puzzle(client, puzzle, notation):
    status, document = post(client, "convert", {"puzzle": puzzle, "to": notation})
    result = CliRunner().invoke(main, ["convert", puzzle, "--to", notation])
    if result.exit_code != 0:  # a notation that cannot hold the puzzle: the same refusal
        assert status == 400
        assert document == {"error": result.stderr.removeprefix("hashi-asp: ").strip()}
        return
    assert status == 200 and document["text"] == result.stdout
    original = notations.parse(puzzle, source="<text>")
    again = notations.parse(document["text"], notation=notation, source="<text>")
    assert again.to_json() == original.to_json() == document["puzzle"]


def test_render_names_every_island_and_the_bridges_of_the_solution(client):
    _, solved = post(client, "solve", {"puzzle": SEVEN})
    solution = solved["solutions"][0]
    status, document = post(client, "render", {"puzzle": SEVEN, "solution": solution})
    assert status == 200 and document["violations"] == []
    picture = ElementTree.fromstring(document["svg"])
    groups = [element.attrib for element in picture.iter() if "class" in element.attrib]
    islands = {(int(g["data-row"]), int(g["data-col"])) for g in groups if g["class"] == "island"}
    assert islands == {(r, c) for r, c, _ in document["puzzle"]["islands"]}
    bridges = sorted(
        [int(g[key]) for key in ("data-r1", "data-c1", "data-r2", "data-c2", "data-count")]
        for g in groups
        if g["class"] == "bridge"
    )
    assert bridges == sorted(solution["bridges"])
    # A solution that breaks rules is drawn all the same, with its violations listed.
    broken = {"bridges": [solution["bridges"][0]]}
    status, document = post(client, "render", {"puzzle": SEVEN, "solution": broken})
    assert status == 200 and document["violations"]
    assert document["svg"].count('class="bridge"') == 1
    # Without a solution: the islands, no bridges; the cell size sets the picture's size.
    _, bare = post(client, "render", {"puzzle": SEVEN, "cell-size": 10})
    _, large = post(client, "render", {"puzzle": SEVEN, "cell-size": 20})
    assert 'class="bridge"' not in bare["svg"]
    width = lambda svg: float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))  # noqa: E731
    assert width(large["svg"]) > width(bare["svg"])


def test_generate_makes_what_was_asked_the_same_for_the_same_seed(client):
    body = {"islands": 14, "unique": True, "seed": 7}
    status, first = post(client, "generate", body)
    assert status == 200, first
    assert first["islands"] == len(first["puzzle"]["islands"]) == 14 and first["unique"] is True
    assert post(client, "generate", body)[1] == first
    _, verdict = post(client, "unique", {"puzzle": first["text"]})
    assert verdict["status"] == "unique"
    _, other = post(client, "generate", {**body, "seed": 8})
    assert other["puzzle"] != first["puzzle"]
    # The notation asked for, and the rules, which the JSON text records.
    rules = {"format": "json", "max-bridges": 1, "no-loops": True}
    status, variant = post(client, "generate", {**body, **rules})
    assert status == 200 and variant["notation"] == "json"
    read = notations.parse(variant["text"], source="<text>")
    assert read.to_json() == variant["puzzle"]
    assert (read.rules.max_bridges, read.rules.no_loops) == (1, True)
    # A notation that cannot hold what was made says so.
    status, refused = post(client, "generate", {**body, "format": "has", "no-loops": True})
    assert status == 400 and "cannot" in refused["error"]


# ---------------------------------------------------------------------------- mistakes


@pytest.mark.parametrize(
    "puzzle",
    [
        "5 5\n2 . 1 . .\n",  # fewer rows than the header says
        "2 . x\n",
        "9 . 1\n",
        "2 . 1\n\0",
        '{"rows": 2}',
        "[1, 2]",
        "7x7m2:4a4a2a2w2k4c3a",  # one cell short
    ],
)
def test_a_malformed_puzzle_is_the_command_lines_message(client, puzzle):
    status, document = post(client, "solve", {"puzzle": puzzle})
    code, _, err = cli("solve", puzzle)
    assert code == 2 and err.startswith("hashi-asp: ") and err.count("\n") == 1
    assert (status, document) == (400, {"error": err.removeprefix("hashi-asp: ").strip()})


@pytest.mark.parametrize(
    "command, body, status, words",
    [
        ("nope", {"puzzle": WALK}, 404, "no such command 'nope'"),
        ("solve", {"puzzle": WALK, "colour": "red"}, 400, "no option 'colour'"),
        ("solve", {"puzzle": WALK, "models": "2"}, 400, "option 'models'"),
        ("solve", {"puzzle": WALK, "models": 1.5}, 400, "option 'models'"),
        ("solve", {"puzzle": WALK, "models": 0}, 400, "option 'models'"),
        ("solve", {"puzzle": WALK, "models": 1001}, 400, "option 'models'"),
        ("solve", {"puzzle": WALK, "no-loops": "yes"}, 400, "option 'no-loops'"),
        ("solve", {"puzzle": WALK, "max-bridges": 0}, 400, "option 'max-bridges'"),
        ("solve", {"puzzle": WALK, "time-limit": -1}, 400, "option 'time-limit'"),
        ("solve", {"puzzle": WALK, "connectivity": "magic"}, 400, "option 'connectivity'"),
        ("solve", {"puzzle": 12}, 400, "option 'puzzle'"),
        ("solve", {"puzzle": WALK, "notation": "morse"}, 400, "option 'notation'"),
        ("solve", {}, 400, "option 'puzzle' is required"),
        ("solve", {"puzzle": None}, 400, "option 'puzzle' is required"),
        ("solve", {"puzzle": ""}, 400, "<text>: empty input"),
        ("solve", [WALK], 400, "JSON object"),
        ("check", {"puzzle": WALK}, 400, "option 'solution' is required"),
        ("check", {"puzzle": WALK, "solution": "{bad"}, 400, "solution:1:2: invalid JSON"),
        ("check", {"puzzle": WALK, "solution": {"bridges": 3}}, 400, "solution"),
        ("render", {"puzzle": WALK, "solution": [[0, 0]]}, 400, "solution"),
        ("convert", {"puzzle": WALK, "to": "morse"}, 400, "option 'to'"),
        ("hint", {"puzzle": WALK, "given": [{"bridges": []}, {"bridges": []}]}, 400, "given"),
        ("hint", {"puzzle": WALK, "given": {"bridges": [[0, 0]]}}, 400, "given:1:14: bridge 0"),
        ("steps", {"puzzle": WALK, "given": "nothing"}, 400, "given"),
        ("render", {"puzzle": WALK, "cell-size": 1}, 400, "option 'cell-size'"),
        ("generate", {}, 400, "option 'islands' is required"),
        ("generate", {"islands": 1}, 400, "option 'islands'"),
        ("generate", {"islands": 10, "difficulty": "bogus"}, 400, "difficulty 'bogus'"),
        ("generate", {"islands": 10, "puzzle": WALK}, 400, "no option 'puzzle'"),
    ],
)
def test_a_mistaken_request_is_a_json_error_naming_it(client, command, body, status, words):
    got, document = post(client, command, body)
    assert got == status and set(document) == {"error"}
    assert words in document["error"]


def test_options_may_be_spelled_with_underscores(client):
    _, dashed = post(client, "solve", {"puzzle": PROLOG, "max-bridges": 1})
    _, underscored = post(client, "solve", {"puzzle": PROLOG, "max_bridges": 1})
    assert dashed == underscored and dashed["status"] == "unsolvable"


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "empty body"),
        (b"  \n", "empty body"),
        (b'{"puzzle": ', "body is not JSON"),
        (b"puzzle=7x7", "body is not JSON"),
        (b'{"puzzle": "\xff"}', "not UTF-8"),
        (b'{"models": ' + b"1" * 5000 + b"}", "body is not JSON this server reads: Exceeds"),
    ],
)
def test_a_body_that_is_not_json_is_400(client, content, words):
    response = client.post("/api/solve", content=content)
    assert response.status_code == 400 and words in response.json()["error"]


def test_a_body_over_the_limit_is_413_declared_or_streamed():
    body = json.dumps({"puzzle": PROLOG + " " * 2000}).encode()
    with local(create_app(api.Limits(body_bytes=1024), workers=1)) as small:
        declared = small.post("/api/solve", content=body)
        streamed = small.post("/api/solve", content=iter([body[:600], body[600:]]))
        fits = small.post("/api/solve", json={"puzzle": PROLOG})
    assert declared.status_code == 413 and "limit is 1024" in declared.json()["error"]
    assert streamed.request.headers.get("transfer-encoding") == "chunked"
    assert streamed.status_code == 413 and "limit of 1024" in streamed.json()["error"]
    assert fits.status_code == 200 and fits.json()["status"] == "solved"


def test_too_many_islands_is_413():
    with local(create_app(api.Limits(islands=5), workers=1)) as small:
        puzzle = small.post("/api/solve", json={"puzzle": PROLOG})  # 7 islands
        made = small.post("/api/generate", json={"islands": 6})
        fits = small.post("/api/generate", json={"islands": 5})
        listing = small.get("/api")
    assert puzzle.status_code == 413 and "has 7 islands" in puzzle.json()["error"]
    assert made.status_code == 413 and "at most 5 islands" in made.json()["error"]
    assert fits.status_code == 200 and fits.json()["islands"] == 5
    idle = {"running": 0, "waiting": 0}
    assert listing.json() == {
        "commands": list(api.COMMANDS),
        "limits": vars(api.Limits(islands=5)),
        "load": {"small": idle, "large": idle},
    }


def test_wrong_methods_and_paths_are_json_errors_under_api(client):
    wrong = client.get("/api/solve")
    assert wrong.status_code == 405
    assert wrong.json() == {"error": "GET /api/solve: Method Not Allowed"}
    missing = client.post("/api/solve/extra", json={"puzzle": WALK})
    assert missing.status_code == 404 and "error" in missing.json()
    assert client.get("/nowhere").status_code == 404


def test_the_page_comes_with_its_security_headers(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert (
        "default-src 'self'"
        in client.post("/api/solve", json={}).headers["content-security-policy"]
    )


def test_the_page_is_its_listed_files_each_with_its_type(client):
    """/static/ serves the page's files, those PAGE_FILES lists (every file of the folder), each
    with its type, module scripts as JavaScript, also to a request with the page's own Origin
    (a browser fetches a module script in CORS mode); any other name is not found."""
    folder = {path.name for path in STATIC.iterdir()}
    assert folder == set(PAGE_FILES)
    for name, kind in PAGE_FILES.items():
        served = client.get(f"/static/{name}", headers={"Origin": "http://127.0.0.1"})
        assert served.status_code == 200, name
        assert served.headers["content-type"] == f"{kind}; charset=utf-8", name
        assert served.content == (STATIC / name).read_bytes(), name
    tag = client.get("/static/board.js").headers["etag"]  # a browser's cache asks again
    assert client.get("/static/board.js", headers={"If-None-Match": tag}).status_code == 304
    for path in ("/static/nope.js", "/static/", "/static/../app.py", "/static/BOARD.JS"):
        assert client.get(path).status_code == 404, path
    assert (
        client.get("/static/board.js", headers={"Origin": "http://evil.example"}).status_code == 403
    )


IMPORT = re.compile(r'^import\s*\{[^}]*\}\s*from\s*"\./([\w.]+)";', re.M)


def test_the_page_is_one_module_that_imports_the_others_without_a_circle():
    """index.html loads one script, the entry module, and preloads the others; each module
    imports only modules of the page's list, by explicit names, and no circle of imports
    runs through them (each can be read bottom up, from board.js)."""
    page = (STATIC / "index.html").read_text()
    scripts = re.findall(r"<script\b[^>]*>", page)
    entry = f"{PAGE_MODULES[0]}.js"
    assert scripts == [f'<script type="module" src="/static/{entry}">']
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([\w.]+)">', page)
    modules = [f"{name}.js" for name in PAGE_MODULES]
    assert sorted(preloaded) == sorted(modules[1:])
    imports = {name: IMPORT.findall((STATIC / name).read_text()) for name in modules}
    for name in modules:  # (each import of the form read here)
        statements = re.findall(r"^import\b", (STATIC / name).read_text(), re.M)
        assert len(statements) == len(imports[name]), name
    assert all(set(found) <= set(modules) for found in imports.values()), imports
    order: list[str] = []  # each module after those it imports
    while len(order) < len(modules):
        ready = [m for m in modules if m not in order and set(imports[m]) <= set(order)]
        assert ready, f"a circle of imports among {sorted(set(modules) - set(order))}"
        order += ready
    assert order[-1] == entry and order[0] == "board.js"
    reached, todo = set(), [entry]
    while todo:
        name = todo.pop()
        reached.add(name)
        todo += [m for m in imports[name] if m not in reached]
    assert reached == set(modules)
    # Nothing of the page is global but its hook for tests and tools, set by the entry.
    set_on_window = {
        m: re.findall(r"\bwindow\.(\w+)\s*=[^=]", (STATIC / m).read_text()) for m in modules
    }
    assert set_on_window == {m: ["hashi"] if m == entry else [] for m in modules}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 500) | st.floats(-1, 100) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
OPTION_NAMES = sorted({name for options in api.OPTIONS.values() for name in options})
PUZZLE_TEXT = st.sampled_from([WALK, PROLOG, UNSOLVABLE, "2 . 1\n", "{", "3x3:a"]) | st.text(
    max_size=40
)
BODIES = (
    st.dictionaries(
        st.sampled_from(OPTION_NAMES) | st.text(max_size=6),
        JSON | PUZZLE_TEXT,
        max_size=5,
    ).map(lambda body: json.dumps(body).encode())
    | st.fixed_dictionaries({"puzzle": PUZZLE_TEXT}, optional={"islands": st.integers(-1, 40)}).map(
        lambda body: json.dumps(body).encode()
    )
    | JSON.map(lambda body: json.dumps(body).encode())
    | st.binary(max_size=40)
)


@pytest.fixture(scope="module")
def hurried():
    """A server whose every request ends within half a second."""
    limits = api.Limits(islands=40, time_limit=0.5, max_time_limit=0.5)
    with local(create_app(limits, workers=2), raise_server_exceptions=False) as client:
        yield client


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    command=st.sampled_from([*api.COMMANDS, "nope", ""])
    | st.text(string.ascii_letters + "-_.%", max_size=8),
    content=BODIES,
)
def test_no_request_is_a_fault(hurried, command, content):
    response = hurried.post(f"/api/{command}", content=content)
    assert response.status_code < 500, response.text
    assert "Traceback" not in response.text
    document = response.json()
    assert isinstance(document, dict)
    if response.status_code in (200, 422):  # an answer, or a question without one: a document
        assert document and "error" not in document
        if command in commands.TASKS:  # a command with a verdict says it
            assert document["status"]
    else:
        assert set(document) == {"error"} and document["error"]


# ---------------------------------------------------------------------------- time limits


def test_a_search_cut_short_by_its_time_limit_answers_with_what_it_found(client):
    status, document = post(client, "count", {"puzzle": LATTICE, "time-limit": 0.2})
    assert status == 200
    assert document["timed_out"] is True and document["exhausted"] is False
    status, document = post(client, "solve", {"puzzle": LATTICE, "models": 1000, "time-limit": 0.2})
    assert status == 200 and document["timed_out"] is True
    assert 1 <= document["count"] < 1000
    board = notations.parse(LATTICE, source="<text>")
    solutions = [notations.parse_solutions(json.dumps(s), "s")[0] for s in document["solutions"]]
    assert all(check(board, solution) == [] for solution in solutions)


def test_a_request_gets_at_most_the_servers_time_limit():
    limits = api.Limits(time_limit=0.3, max_time_limit=0.3)
    with local(create_app(limits, workers=1)) as strict:
        response = strict.post("/api/count", json={"puzzle": LATTICE, "time-limit": 1000})
    assert response.status_code == 200 and response.json()["timed_out"] is True
    request = api.read_request("count", {"puzzle": LATTICE, "time-limit": 1000}, limits)
    assert request.deadline.seconds == 0.3


def test_generating_past_the_time_limit_is_an_error_saying_so(client):
    # Unique puzzles (a puzzle with several solutions is discarded at once) repaired and rated
    # for a score that is seldom met: seconds of work.
    body = {"islands": 60, "unique": True, "difficulty": "0.99-1", "time-limit": 0.3}
    status, document = post(client, "generate", body)
    assert status == 408 and document["error"].startswith("time limit of 0.3 s reached")


def test_a_cancelled_request_stops_its_search_and_answers_what_it_found(monkeypatch):
    """What the server does when a client goes away: the request's deadline is cancelled while
    the search runs (once it has found a solution), and the search stops at once."""
    found = threading.Event()
    counting = solving.count

    def count(*args, **kwargs):
        kwargs["on_solution"] = lambda n: found.set()
        return counting(*args, **kwargs)

    monkeypatch.setattr(solving, "count", count)
    request = api.read_request("count", {"puzzle": LATTICE, "time-limit": 60}, api.Limits())
    answers = []
    worker = threading.Thread(target=lambda: answers.append(api.answer(request)[0]), daemon=True)
    worker.start()
    assert found.wait(60), "the search found no solution"
    assert not answers  # still counting: thousands of solutions in a minute's limit
    request.deadline.stop()
    worker.join(60)
    assert not worker.is_alive(), "the stopped search went on"
    [document] = answers
    assert document["exhausted"] is False
    assert document["count"] >= 1 and document["status"] in ("solved", "multiple")


# ---------------------------------------------------------------------------- turns


def test_waiting_requests_start_small_ones_first_then_clients_in_turn():
    """One thread, held by client a; then a waits with two more large requests, b with one, c
    with a small one.  When the thread frees: c's small one, then a, b, a (not a, a, b)."""
    import anyio

    from hashi_asp.web import admission

    started = []

    async def run():
        turns = admission.Admission(workers=1, queue=10, per_client=5, max_wait=60)
        held = anyio.Event()

        async def request(lane, client, name, until=None):
            async with turns.slot(lane, client, 10):
                started.append(name)
                if until:
                    await until.wait()

        async def waiting(count):
            while sum(lane["waiting"] for lane in turns.load().values()) < count:
                await anyio.sleep(0)

        async with anyio.create_task_group() as group:
            group.start_soon(request, admission.LARGE, "a", "a1", held)
            while not started:
                await anyio.sleep(0)
            for n, (lane, client, name) in enumerate(
                [
                    (admission.LARGE, "a", "a2"),
                    (admission.LARGE, "a", "a3"),
                    (admission.LARGE, "b", "b1"),
                    (admission.SMALL, "c", "c1"),
                ]
            ):
                group.start_soon(request, lane, client, name)
                await waiting(n + 1)
            held.set()
        assert turns.load() == {lane: {"running": 0, "waiting": 0} for lane in ("small", "large")}

    anyio.run(run)
    assert started == ["a1", "c1", "a2", "b1", "a3"]


def test_the_lanes_weigh_islands_water_and_pictures():
    from hashi_asp.web.admission import LARGE, SMALL, Work, lane

    assert lane(Work(100, 4000), 10, 10) == lane(Work(3, 0), 2, 10) == SMALL
    assert lane(Work(101, 0), 10, 10) == lane(Work(3, 4001), 1, 10) == LARGE
    assert lane(Work(3, 0), 10.5, 10) == lane(Work(picture=True), 1, 10) == LARGE


def test_fix_over_the_api_keeps_a_solution_given_and_refuses_a_wrong_one(client):
    from hashi_asp import read, unique

    text = PROLOG
    second = unique(read(text)).solutions[1]
    status, document = post(client, "fix", {"puzzle": text})
    assert status == 200 and document["status"] == "fixed" and document["fewest"] is True
    status, kept = post(client, "fix", {"puzzle": text, "keep": second.to_json()})
    assert status == 200 and kept["kept"] == second.to_json()
    assert unique(read(json.dumps(kept["puzzle"]))).status == "unique"
    wrong = {"bridges": [list(b) for b in second.bridges[1:]]}
    status, refused = post(client, "fix", {"puzzle": text, "keep": wrong})
    assert status == 400 and "does not solve the puzzle" in json.dumps(refused)
