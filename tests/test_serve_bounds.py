"""What one hostile request may cost ``hashi-asp serve``, bounded before the work: a head too
large, headers that decide who may ask given twice, a foreign protocol, host names with
something after the port, work that is large by its water cells or its crossings though its
islands are few, and pictures, whose reading is work admitted and timed like a search.

The server is a real process over real HTTP; the weighing of requests is also tested on its
own (:meth:`hashi_asp.web.api.Request.work`), as it decides the lanes.
"""

import json
import socket

import pytest
from serving import BOUND, answer, post, received

from hashi_asp import notations
from hashi_asp.checking import check
from hashi_asp.stopping import Deadline, Stopped
from hashi_asp.web import api
from hashi_asp.web.admission import LARGE, SMALL, SMALL_WATER, Work, lane
from hashi_asp.web.clients import HEAD_BYTES, HEAD_FIELDS, host_name


def raw(port: int, head: str, body: bytes = b"") -> tuple[int, dict, object]:
    """Send ``head`` (its lines, without the blank line that ends it) and ``body`` as they
    are; the answer's status, headers and document."""
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as connection:
        connection.sendall(head.encode("latin-1") + b"\r\n\r\n" + body)
        connection.settimeout(BOUND)
        return answer(received(connection))


def solve_head(port: int, extra: str = "", length: int = 0) -> str:
    return (
        f"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\nConnection: close{extra}"
    )


BODY = json.dumps({"puzzle": "1 . 1\n"}).encode()


def test_a_head_over_its_bounds_is_431(server):
    port = server.port
    status, _, document = raw(port, solve_head(port, "\r\nX-Big: " + "a" * 60_000, len(BODY)), BODY)
    assert status == 431 and f"at most {HEAD_BYTES} bytes" in document["error"]
    many = "".join(f"\r\nX-{i}: a" for i in range(2000))
    status, _, document = raw(port, solve_head(port, many, len(BODY)), BODY)
    assert status == 431 and f"in {HEAD_FIELDS} fields" in document["error"]
    status, _, document = raw(port, solve_head(port, "\r\nX-Fine: " + "a" * 1000, len(BODY)), BODY)
    assert status == 200 and document["status"] == "solved"


def test_a_header_that_decides_who_may_ask_is_given_once(server):
    port = server.port
    own = f"http://127.0.0.1:{port}"
    for extra, said in (
        (f"\r\nOrigin: {own}\r\nOrigin: http://evil.example", "header Origin given 2 times"),
        ("\r\nContent-Type: text/plain", "header Content-Type given 2 times"),
        (f"\r\nHost: 127.0.0.1:{port}", "malformed HTTP request"),  # (h11's own refusal)
    ):
        status, headers, document = raw(port, solve_head(port, extra, len(BODY)), BODY)
        assert status == 400 and headers["content-type"] == "application/json", extra
        assert document["error"].startswith(said)


def test_a_websocket_upgrade_is_a_json_error(server):
    head = (
        f"GET /api HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13"
    )
    status, headers, document = raw(server.port, head)
    assert status == 400 and headers["content-type"] == "application/json"
    assert document["error"] == "this server speaks HTTP/1.1 only: no upgrade to websocket"
    assert "Unsupported upgrade" not in "".join(server.err)


def test_a_host_with_anything_but_a_port_after_it_is_not_served(server):
    for host in ("127.0.0.1:evil", f"127.0.0.1:{server.port}@evil", "127.0.0.1:80:80", "[::1]x"):
        head = f"GET /api HTTP/1.1\r\nHost: {host}\r\nConnection: close"
        status, _, document = raw(server.port, head)
        assert status == 421 and document["error"].startswith(f"host {host!r}"), host
    assert host_name("LocalHost:8000") == "localhost" and host_name("[::1]:80") == "::1"
    assert host_name("127.0.0.1:evil") is None and host_name("a@b") is None


def test_a_byte_order_mark_before_the_puzzle_is_dropped_as_on_the_command_line(server):
    status, document = post(server.url, "solve", {"puzzle": "\ufeff1 . 1\n"})
    assert status == 200 and document["status"] == "solved"


# ---------------------------------------------------------------------------- weighing work


def border_bomb(side: int) -> tuple[str, str]:
    """Islands on the border of a ``side`` x ``side`` board, each 1, and a solution of bridges
    across it, down every column and along every row: (side - 2) ** 2 crossings."""
    inner = range(1, side - 1)
    islands = [[r, c, 1] for c in inner for r in (0, side - 1)]
    islands += [[r, c, 1] for r in inner for c in (0, side - 1)]
    bridges = [[0, c, side - 1, c, 1] for c in inner] + [[r, 0, r, side - 1, 1] for r in inner]
    return json.dumps({"rows": side, "cols": side, "islands": islands}), json.dumps(bridges)


def weighed(command: str, body: dict) -> Work:
    return api.read_request(command, body, api.Limits()).work()


def test_work_is_weighed_by_water_and_crossings_not_islands_alone():
    row = json.dumps({"rows": 1, "cols": 999_999, "islands": [[0, 0, 1], [0, 999_998, 1]]})
    assert weighed("solve", {"puzzle": row}) == Work(2, 999_997)
    assert lane(weighed("solve", {"puzzle": row}), 10, 10) == LARGE
    assert lane(weighed("solve", {"puzzle": "1 . 1\n"}), 10, 10) == SMALL
    puzzle, bridges = border_bomb(60)
    work = weighed("check", {"puzzle": puzzle, "solution": bridges})
    assert work.islands == 4 * 58 and work.water > 2 * 58 * 58 > SMALL_WATER
    assert lane(weighed("render", {"puzzle": puzzle}), 10, 10) == LARGE  # (232 islands)
    picture = "data:image/png;base64,iVBORw0KGgo="
    assert weighed("solve", {"puzzle": picture}) == Work(picture=True)
    assert lane(Work(picture=True), 1, 10) == LARGE


def test_a_solution_that_crosses_a_million_times_lists_a_hundred_and_counts_the_rest(server):
    puzzle, bridges = border_bomb(1000)
    status, document = post(server.url, "check", {"puzzle": puzzle, "solution": bridges})
    assert status == 200 and not document["valid"]
    violations = document["solutions"][0]["violations"]
    crossings = [v for v in violations if v["rule"] == "crossing"]
    assert len(crossings) == 101
    assert crossings[-1]["message"] == f"crossing: {998 * 998 - 100} more not listed"


def test_the_checker_lists_at_most_so_many_of_a_rule_and_stops_at_its_deadline():
    puzzle, bridges = border_bomb(12)
    board = notations.parse(puzzle, source="bomb")
    [solution] = notations.parse_solutions(bridges, "bridges")
    every = check(board, solution)
    assert sum(v.rule == "crossing" for v in every) == 10 * 10
    listed = check(board, solution, most=3)
    assert [v for v in listed if v.rule == "crossing"][:3] == every[:3]
    assert listed[-1].message == "crossing: 97 more not listed"
    ended = Deadline(1.0)
    ended.stop()
    with pytest.raises(Stopped):
        check(board, solution, deadline=ended)


def test_a_picture_is_read_within_the_requests_time_limit():
    """Its reading is the work: done once admitted, and stopped by the request's deadline
    (here ended before it starts) as a search is."""
    request = api.read_request(
        "solve", {"puzzle": "data:image/png;base64,iVBORw0KGgo="}, api.Limits()
    )
    request.deadline.stop()
    with pytest.raises(api.RequestError) as refused:
        request.prepared()
    assert refused.value.http == 408 and "while reading the picture" in str(refused.value)
