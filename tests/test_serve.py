"""``hashi-asp serve`` as a real process over real HTTP: the page, the API, many requests at
once with one long search among them, a client that goes away, and how the server stops.

Every wait is for an event (the readiness line on stderr, an answer, the server's CPU time
growing while it searches), each with a generous bound; nothing depends on how fast the
machine is.  Each server is killed and waited for whatever a test does.
"""

import json
import os
import select
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import pytest
from conftest import PUZZLES
from serving import BOUND, ENDLESS, READY, answer, answered, post, received, send_raw

from hashi_asp import check, notations

WALK = "7x7m2:4a4a2a2w2k4c3a1"  # ten islands, one solution
JSON = {"Content-Type": "application/json"}
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORD = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def valid(puzzle: str, solution: dict) -> bool:
    board = notations.parse(puzzle, source="<text>")
    [bridges] = notations.parse_solutions(json.dumps(solution), "answer")
    return check(board, bridges) == []


# ---------------------------------------------------------------------------- the page and the API


def test_the_page_and_the_api_over_http(server):
    with urllib.request.urlopen(server.url, timeout=BOUND) as response:
        page = response.read().decode()
        headers = response.headers
    assert response.status == 200 and headers["Content-Type"].startswith("text/html")
    assert "<html" in page.lower()
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, document = post(server.url, "solve", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})
    assert status == 200 and document["status"] == "solved"
    assert valid("7x7m2:4a4a2a2w2k4c3a1", document["solutions"][0])
    status, document = post(server.url, "solve", {"puzzle": "2 . x\n"})
    assert status == 400 and document["error"].startswith("<text>:1:5: unexpected character")


def short_requests() -> list[tuple[str, dict, set]]:
    """Fifty requests of mixed sizes: (command, body, the statuses a right answer has)."""
    ids = [
        line.strip()
        for path in sorted((PUZZLES / "tatham").glob("7x7*.txt"))
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    kinds = [("solve", {"solved"}), ("unique", {"unique"}), ("steps", {"solved"})]
    kinds.append(("hint", {"unique"}))
    games = [ids[n % len(ids)] for n in range(38)]  # each twice at most, asked differently
    requests = [(kinds[n % 4][0], {"puzzle": g}, kinds[n % 4][1]) for n, g in enumerate(games)]
    coelho = sorted((PUZZLES / "coelho").glob("*.has"))
    for path in coelho[::5][:10]:  # 100 to 400 islands
        requests.append(("solve", {"puzzle": path.read_text()}, {"solved"}))
    for path in coelho[:2]:
        requests.append(("unique", {"puzzle": path.read_text()}, {"unique", "multiple"}))
    assert len(requests) == 50
    return requests


def test_fifty_requests_at_once_all_answered_right_while_a_long_search_runs(start):
    """From ten programs (five requests each, within the bounds per client), none waiting
    longer than a slow machine might take."""
    server = start("--max-wait", str(BOUND))
    warm = post(server.url, "solve", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})  # modules loaded
    assert warm[0] == 200
    long = None
    try:
        if os.path.exists(f"/proc/{server.process.pid}/stat"):
            idle = server.cpu()
            long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 60})
            server.wait_until_searching(idle)
        else:
            long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 60})

        def timed(command, body, client):
            began = time.perf_counter()
            answer = post(server.url, command, body, client=client)
            return answer, time.perf_counter() - began

        requests = short_requests()
        latencies = []
        with ThreadPoolExecutor(max_workers=len(requests)) as pool:
            futures = {
                pool.submit(timed, command, body, f"program {n % 10}"): n
                for n, (command, body, _) in enumerate(requests)
            }
            for future in as_completed(futures):
                command, body, statuses = requests[futures[future]]
                (status, document), seconds = future.result()
                latencies.append(seconds)
                assert status == 200, (command, document)
                assert document["status"] in statuses, (command, body, document["status"])
                solutions = document.get("solutions") or [document.get("solution")]
                for solution in filter(None, solutions):
                    assert valid(body["puzzle"], solution), (command, body)
                if command == "hint":
                    assert document["exhausted"] is True and not document["undecided"]
        # Every short request was answered while the long search had not yet answered.
        assert not answered(long), "the long search ended before the short ones"
    finally:
        if long is not None:
            long.close()  # the client goes away: the server cancels the long search
    p50, p95 = (
        statistics.quantiles(latencies, n=100)[49],
        statistics.quantiles(latencies, n=100)[94],
    )
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    print(
        f"\n50 requests beside a long search: p50 {p50:.3f} s, p95 {p95:.3f} s, "
        f"max {max(latencies):.3f} s; load average {load[0]}, {os.cpu_count()} cores"
    )


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_client_that_goes_away_frees_the_worker_for_the_next_request(start):
    """One worker, taken by a search of an hour's time limit; the next request waits for it.
    When the first client hangs up, its search is cancelled and the next one is answered."""
    server = start("--workers", "1", "--max-time-limit", "3600")
    assert post(server.url, "solve", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})[0] == 200
    idle = server.cpu()
    long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 3600})
    try:
        server.wait_until_searching(idle)
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(post, server.url, "unique", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})
            assert not waiting.done()  # the one worker is busy for up to an hour
            long.close()
            status, document = waiting.result(timeout=BOUND)
    finally:
        long.close()
    assert status == 200 and document["status"] == "unique"
    assert server.process.poll() is None


def test_a_port_in_use_is_one_line_and_exit_2():
    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "hashi_asp", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=BOUND,
        )
    finally:
        taken.close()
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"hashi-asp: cannot listen on 127.0.0.1 port {port}: ")
    assert result.stderr.count("\n") == 1, result.stderr


def test_another_host_than_this_machine_is_warned_of(start):
    server = start("--host", "0.0.0.0")
    assert server.err[0] == "hashi-asp: warning: 0.0.0.0 may let other machines use this server\n"
    assert server.url.startswith("http://0.0.0.0:")
    assert post(server.local, "solve", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})[0] == 200
    assert server.stop(signal.SIGTERM)[0] == 143


def test_this_machine_is_not_warned_of(start):
    server = start("--host", "127.0.0.1")
    assert len(server.err) == 1 and READY.match(server.err[0].rstrip("\n"))
    assert server.url.startswith("http://127.0.0.1:")


def test_without_the_web_extra_serve_says_how_to_get_it(monkeypatch):
    from click.testing import CliRunner

    from hashi_asp.cli import main

    # As if Starlette were not installed: every module of it unimportable, and the workbench's
    # modules not yet imported
    # (uvicorn too: were the check to let the command through, it fails rather than serves.)
    for name in [name for name in sys.modules if name.split(".")[0] in ("starlette", "uvicorn")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    for name in [name for name in sys.modules if name.startswith("hashi_asp.web")]:
        monkeypatch.delitem(sys.modules, name)
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "hashi-asp: serve needs the web extra (starlette is not installed): "
        "pip install 'hashi-asp[web]'"
    ]


# ---------------------------------------------------------------------------- who may ask


def solve_body(puzzle: str = WALK) -> bytes:
    return json.dumps({"puzzle": puzzle}).encode()


def test_only_this_machines_names_are_served(server):
    """DNS rebinding: a page of another site whose name now resolves to 127.0.0.1 sends its own
    name as Host.  Only the loopback names are answered, with or without the port."""
    port = server.port
    for host in (
        "127.0.0.1",
        f"127.0.0.1:{port}",
        "localhost",
        f"LocalHost:{port}",
        f"[::1]:{port}",
    ):
        status, _, document = server.ask("POST", "/api/solve", JSON, solve_body(), host=host)
        assert status == 200 and document["status"] == "solved", (host, document)
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "localhost."):
        for method, path, body in (("POST", "/api/solve", solve_body()), ("GET", "/", b"")):
            status, headers, document = server.ask(method, path, JSON, body, host=host)
            assert status == 421 and headers["content-type"] == "application/json", (host, path)
            assert document["error"].startswith(f"host {host!r} is not served here")


def test_a_page_of_another_site_is_refused(server):
    """A foreign Origin is refused on any request; a POST that is not application/json (a form,
    text/plain: what another site's page may send without asking first) never starts a
    search."""
    own = f"http://127.0.0.1:{server.port}"
    status, _, document = server.ask("POST", "/api/solve", {**JSON, "Origin": own}, solve_body())
    assert status == 200 and document["status"] == "solved"
    for origin in ("http://evil.example", "null", f"https://127.0.0.1:{server.port}"):
        for method, path, body in (("POST", "/api/solve", solve_body()), ("GET", "/api", b"")):
            headers = {**JSON, "Origin": origin}
            status, _, document = server.ask(method, path, headers, body)
            assert status == 403 and document["error"].startswith(f"requests from {origin}")
    endless = json.dumps({"puzzle": ENDLESS, "time-limit": 3600}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        headers = {"Content-Type": kind} if kind else {}
        status, _, document = server.ask("POST", "/api/count", headers, endless)
        assert status == 415 and "Content-Type: application/json" in document["error"], kind
    status, _, document = server.ask("POST", "/api/solve", {}, b"puzzle=7x7m2%3A4a4a2a2w2k4c3a1")
    assert status == 415
    assert server.load()["large"] == {"running": 0, "waiting": 0}  # no search started
    # The charset may be given.
    utf8 = {"Content-Type": "application/json; charset=utf-8"}
    assert server.ask("POST", "/api/solve", utf8, solve_body())[0] == 200


def test_names_given_with_host_and_allow_host_are_served(start):
    server = start("--host", "localhost", "--allow-host", "hashi.example")
    port = server.port
    for host in (f"hashi.example:{port}", "HASHI.example", f"localhost:{port}"):
        assert server.ask("GET", "/api", host=host)[0] == 200, host
    assert server.ask("GET", "/api", host=f"other.example:{port}")[0] == 421
    # The page's own origin under that name
    origin = {"Origin": f"http://hashi.example:{port}", **JSON}
    status, _, _ = server.ask("POST", "/api/solve", origin, solve_body(), f"hashi.example:{port}")
    assert status == 200


# ---------------------------------------------------------------------------- fair shares


def waiting_for(condition, what: str) -> None:
    """Until ``condition()`` holds (looked at every few milliseconds), at most BOUND seconds."""
    ends = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < ends, f"never saw {what}"
        time.sleep(0.02)


def test_many_long_requests_from_one_client_leave_room_for_small_ones(start):
    """40 long counts from one program: as many as it may have wait or run, the rest refused at
    once with 503 and Retry-After (not left to expire in a queue); meanwhile another program's
    small requests are answered, and the long ones are still searching."""
    server = start("--workers", "2", "--per-client", "4", "--max-wait", "3600")
    server.ask("POST", "/api/solve", JSON, solve_body())  # modules loaded
    long = json.dumps({"puzzle": ENDLESS, "time-limit": 60}).encode()
    sockets = [send_raw(server.port, "count", json.loads(long), client="batch") for _ in range(40)]
    try:
        refused: list[tuple[int, dict, dict]] = []
        ends = time.monotonic() + BOUND
        pending = list(sockets)
        while len(refused) < 36:
            assert time.monotonic() < ends, f"{len(refused)} of 40 answered"
            readable, _, _ = select.select(pending, [], [], max(0.0, ends - time.monotonic()))
            for connection in readable:
                refused.append(answer(received(connection)))
                pending.remove(connection)
        assert len(pending) == 4 and not any(answered(c) for c in pending)
        for status, headers, document in refused:
            assert status == 503 and int(headers["retry-after"]) >= 1
            assert "this client has 4 large requests running or waiting" in document["error"]
        assert server.load()["large"] == {"running": 1, "waiting": 3}
        # Another program's small requests, while the long ones run and wait.
        for command, body in [("solve", {"puzzle": WALK}), ("unique", {"puzzle": WALK})] * 3:
            status, document = post(server.url, command, body, client="page")
            assert status == 200 and document["status"] in ("solved", "unique"), document
            assert valid(WALK, document.get("solution") or document["solutions"][0])
        assert not any(answered(c) for c in pending)
        assert server.load()["large"] == {"running": 1, "waiting": 3}
    finally:
        for connection in sockets:
            connection.close()
    # Gone clients: their searches stop and their places in the queue go.
    waiting_for(lambda: server.load()["large"] == {"running": 0, "waiting": 0}, "an idle server")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_requests_time_limit_starts_when_its_search_does(start):
    """A solve with half a second's limit waits a second for the one thread: then it runs, for
    its half second, and solves."""
    server = start("--workers", "1", "--max-time-limit", "3600")
    assert post(server.url, "solve", {"puzzle": WALK})[0] == 200
    idle = server.cpu()
    long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 3600})
    try:
        server.wait_until_searching(idle)
        with ThreadPoolExecutor(1) as pool:
            body = {"puzzle": WALK, "time-limit": 0.5}
            waiting = pool.submit(post, server.url, "solve", body, BOUND, "other")
            waiting_for(lambda: server.load()["small"]["waiting"] == 1, "the solve waiting")
            time.sleep(1)  # (the time that passes is what is tested: longer than its limit)
            assert not waiting.done()
            long.close()
            status, document = waiting.result(timeout=BOUND)
    finally:
        long.close()
    assert status == 200 and document["status"] == "solved" and not document["timed_out"]
    assert valid(WALK, document["solutions"][0])


def test_a_request_that_finds_no_thread_in_time_says_it_never_ran(start):
    server = start("--workers", "1", "--max-wait", "0.5", "--max-time-limit", "3600")
    long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 3600})
    try:
        waiting_for(lambda: server.load()["large"]["running"] == 1, "the long search")
        status, headers, document = server.ask("POST", "/api/solve", JSON, solve_body())
    finally:
        long.close()
    assert status == 503 and int(headers["retry-after"]) >= 1
    assert document["error"].startswith("not started within 0.5 s")
    assert "never ran" in document["error"]


def test_the_queue_in_all_is_bounded(start):
    server = start("--workers", "1", "--queue", "2", "--max-wait", "3600")
    long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 60}, client="a")
    waiting = [send_raw(server.port, "solve", {"puzzle": WALK}, client=c) for c in "bc"]
    try:
        waiting_for(lambda: server.load()["small"]["waiting"] == 2, "two requests waiting")
        status, headers, document = server.ask("POST", "/api/solve", {**JSON}, solve_body())
        assert status == 503 and int(headers["retry-after"]) >= 1
        assert document["error"] == "the server is busy: 2 requests are waiting already"
        long.close()  # the thread frees: the two waiting are answered, in turn
        for connection in waiting:
            status, _, document = answer(received(connection))
            assert status == 200 and document["status"] == "solved"
    finally:
        for connection in (long, *waiting):
            connection.close()


# ---------------------------------------------------------------------- what a request may cost


def test_deeply_nested_json_is_400_without_a_traceback(start):
    server = start()
    deep = b"[" * 100_000
    status, _, document = server.ask("POST", "/api/solve", JSON, deep)
    assert status == 400 and "nested too deeply" in document["error"]
    for body in ({"puzzle": "[" * 100_000}, {"puzzle": WALK, "given": "[" * 100_000}):
        status, _, document = server.ask("POST", "/api/hint", JSON, json.dumps(body).encode())
        assert status == 400 and "recursion" in document["error"], document
    code, err = server.stop(signal.SIGTERM)
    assert code == 143 and "Traceback" not in err and "Exception" not in err, err


def tatham_blank(side: int) -> str:
    """A Tatham ID of a ``side`` x ``side`` board with two islands: a few bytes a cell."""
    empty = side * side - 2
    return (
        f"{side}x{side}m2:1" + "z" * (empty // 26) + "_abcdefghijklmnopqrstuvwxyz"[empty % 26] + "1"
    )


def test_what_a_request_may_produce_is_bounded(start):
    """A small request for a large answer: refused (413) before the work where its size is
    known (the grid's cells, the solutions asked for), else when the answer is over the limit."""
    server = start("--max-cells", "10000", "--max-answer-bytes", "20000")
    for body in (
        {"puzzle": tatham_blank(3000), "to": "txt"},  # 346 kB asking for 27 MB
        {"puzzle": tatham_blank(101), "to": "has"},
    ):
        status, _, document = server.ask("POST", "/api/convert", JSON, json.dumps(body).encode())
        side = int(body["puzzle"].split("x")[0])
        assert status == 413, document
        assert document["error"] == (
            f"puzzle is {side}x{side}, {side * side} cells; this server takes at most 10000"
        )
    made = json.dumps({"islands": 10, "size": "5000x5000"}).encode()
    status, _, document = server.ask("POST", "/api/generate", JSON, made)
    assert status == 413 and document["error"].startswith("size is 5000x5000, 25000000 cells")
    many = json.dumps({"puzzle": ENDLESS, "models": 1000}).encode()
    status, _, document = server.ask("POST", "/api/solve", JSON, many)
    assert status == 413 and document["error"].startswith("option 'models': 1000 solutions of 64")
    assert document["error"].endswith("ask for at most 13")
    assert post(server.url, "solve", {"puzzle": ENDLESS, "models": 2})[0] == 200
    # Known only once made: a 90x90 grid as pzprv3, six bytes a cell.
    wide = json.dumps({"puzzle": tatham_blank(90), "to": "pzprv3"}).encode()
    status, _, document = server.ask("POST", "/api/convert", JSON, wide)
    assert status == 413 and document["error"].startswith("the answer is ")
    assert document["error"].endswith("bytes, over this server's limit of 20000")
    fits = json.dumps({"puzzle": tatham_blank(90), "to": "tatham"}).encode()
    assert server.ask("POST", "/api/convert", JSON, fits)[0] == 200


# ---------------------------------------------------------------------------- slow clients


def closed_by_the_server(connection: socket.socket) -> bytes:
    """What the server sent before it closed the connection (waited for, at most BOUND)."""
    connection.settimeout(BOUND)
    return received(connection)


def test_a_body_that_never_comes_is_answered_408_and_closed(start):
    server = start("--client-timeout", "0.5")
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND)
    with connection:
        head = "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        connection.sendall(f'{head}Content-Length: 100\r\n\r\n{{"puz'.encode())
        status, headers, document = answer(closed_by_the_server(connection))
    assert status == 408 and headers["connection"] == "close"
    assert document["error"] == "the request body did not arrive within 0.5 s (5 bytes came)"


def test_idle_and_slow_connections_are_closed_after_the_client_timeout(start):
    server = start("--client-timeout", "0.5")
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(20)]
    slow = socket.create_connection(("127.0.0.1", server.port))
    slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and no more of its head
    answered_once = socket.create_connection(("127.0.0.1", server.port))
    answered_once.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # kept alive
    try:
        for connection in (*idle, slow):
            assert closed_by_the_server(connection) == b""
        assert closed_by_the_server(answered_once).startswith(b"HTTP/1.1 200 OK")
    finally:
        for connection in (*idle, slow, answered_once):
            connection.close()
    assert server.ask("GET", "/api")[0] == 200


def test_connections_over_the_bound_are_refused(start):
    server = start("--max-connections", "4", "--client-timeout", str(BOUND))
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(4)]
    try:
        extra = socket.create_connection(("127.0.0.1", server.port))
        status, headers, document = answer(closed_by_the_server(extra))
        assert status == 503 and headers["retry-after"] == "1"
        assert (
            document["error"]
            == "the server has 4 connections open, the most it keeps: try again later"
        )
    finally:
        for connection in idle:
            connection.close()

    def served() -> bool:  # once the server has seen the four go
        return server.ask("GET", "/api")[0] == 200

    waiting_for(served, "a connection served")


def test_a_client_that_leaves_mid_body_is_one_line(start):
    server = start()
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        head = "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        connection.sendall(f'{head}Content-Length: 100\r\n\r\n{{"puz'.encode())
        port = connection.getsockname()[1]
    line = server.line()
    assert line == f"hashi-asp: 127.0.0.1:{port} went away while sending POST /api/solve"
    assert server.ask("GET", "/api")[0] == 200
    code, err = server.stop(signal.SIGTERM)
    assert code == 143 and err.splitlines()[1:] == [line, "hashi-asp: terminated"], err


# ---------------------------------------------------------------------------- errors


def test_every_not_found_is_a_json_error(server):
    for path in ("/static/nope.js", "/static/", "/nowhere", "/api/solve/extra"):
        status, headers, document = server.ask("GET", path)
        assert status == 404 and headers["content-type"] == "application/json", path
        assert document == {"error": f"GET {path}: Not Found"}
    with urllib.request.urlopen(f"{server.url}static/app.js", timeout=BOUND) as response:
        assert response.status == 200 and "javascript" in response.headers["Content-Type"]
