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
from serving import BOUND, READY, Server

from hashi_asp import check, notations

EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORD = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def lattice(side: int) -> str:
    """Islands on every other cell, each a 4: solutions beyond counting in a test's time."""
    cells = [[2 * r, 2 * c, 4] for r in range(side) for c in range(side)]
    return json.dumps({"rows": 2 * side - 1, "cols": 2 * side - 1, "islands": cells})


ENDLESS = lattice(8)


@pytest.fixture
def start():
    """Start servers; each is killed and waited for at the end, whatever happened."""
    servers = []

    def starting(*args: str) -> Server:
        server = Server(*args)
        servers.append(server)
        return server

    try:
        yield starting
    finally:
        for server in servers:
            server.close()


@pytest.fixture(scope="module")
def server():
    running = Server()
    try:
        yield running
    finally:
        running.close()


def post(base: str, command: str, body: dict, timeout: float = BOUND) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{base}api/{command}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def send_raw(port: int, command: str, body: dict) -> socket.socket:
    """A request sent over a socket left open: its answer waits there until read."""
    data = json.dumps(body).encode()
    head = (
        f"POST /api/{command} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    connection = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    connection.sendall(head.encode() + data)
    return connection


def answered(connection: socket.socket) -> bool:
    readable, _, _ = select.select([connection], [], [], 0)
    return bool(readable)


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


def test_fifty_requests_at_once_all_answered_right_while_a_long_search_runs(server):
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

        def timed(command, body):
            began = time.perf_counter()
            answer = post(server.url, command, body)
            return answer, time.perf_counter() - began

        requests = short_requests()
        latencies = []
        with ThreadPoolExecutor(max_workers=len(requests)) as pool:
            futures = {
                pool.submit(timed, command, body): n
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


# ---------------------------------------------------------------------------- stopping


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_server_with_its_exit_code(start, signum):
    server = start()
    assert post(server.url, "unique", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})[0] == 200
    code, err = server.stop(signum)
    assert code == EXIT[signum]
    assert err.splitlines() == [err.splitlines()[0], f"hashi-asp: {WORD[signum]}"], err
    assert READY.match(err.splitlines()[0])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_as_soon_as_the_server_says_it_is_ready(start, signum):
    """Ctrl-C at once after the readiness line: the same clean stop, nothing else on stderr."""
    server = start()
    code, err = server.stop(signum)
    assert code == EXIT[signum]
    assert err.splitlines()[1:] == [f"hashi-asp: {WORD[signum]}"], err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_during_a_long_search_stops_the_server_cleanly(start):
    server = start("--max-time-limit", "3600")
    assert post(server.url, "solve", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"})[0] == 200
    idle = server.cpu()
    long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 3600})
    try:
        server.wait_until_searching(idle)
        code, err = server.stop(signal.SIGINT)
    finally:
        long.close()
    assert code == 130 and "Traceback" not in err
    assert err.splitlines()[-1] == "hashi-asp: interrupted", err


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
