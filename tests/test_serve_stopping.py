"""How ``hashi-asp serve`` stops: Ctrl-C or SIGTERM, idle, at once after starting, during a
long search, and during a request's grounding, which cannot be interrupted.  The requests at
work get what their searches had found (503), or a 503 error when there was nothing yet; the
server exits 130 or 143 without a traceback.  Real processes; every wait is for an event."""

import signal
from pathlib import Path

import pytest
from serving import ENDLESS, READY, answer, post, received, send_raw

EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORD = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}
WALK = "7x7m2:4a4a2a2w2k4c3a1"
ON_LINUX = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


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


@ON_LINUX
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


@ON_LINUX
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_search_stopped_with_the_server_answers_what_it_found(start, signum):
    """The count's document, as the command line prints it on a signal: what it counted,
    not exhausted, with the status of the signal (503)."""
    server = start("--max-time-limit", "3600")
    assert post(server.url, "solve", {"puzzle": WALK})[0] == 200
    idle = server.cpu()
    long = send_raw(server.port, "count", {"puzzle": ENDLESS, "time-limit": 3600})
    try:
        server.wait_until_searching(idle)
        code, err = server.stop(signum)
        status, _, document = answer(received(long))
    finally:
        long.close()
    assert code == EXIT[signum] and "Traceback" not in err, err
    assert status == 503 and document["exhausted"] is False and document["count"] >= 0


@ON_LINUX
def test_sigterm_while_a_request_grounds_answers_503_at_once(start):
    """A unique 10 000-island puzzle to make, with 30 s to do it: SIGTERM once the server is
    at work on it (building the layout, or grounding the repair, which clingo cannot stop).
    The client gets a JSON 503 and the server ends within its bound, not after the grounding."""
    server = start("--max-time-limit", "60")
    assert post(server.url, "solve", {"puzzle": WALK})[0] == 200
    idle = server.cpu()
    request = {"islands": 10000, "unique": True, "time-limit": 30}
    making = send_raw(server.port, "generate", request)
    try:
        server.wait_until_searching(idle)
        code, err = server.stop(signal.SIGTERM)
        status, headers, document = answer(received(making))
    finally:
        making.close()
    assert code == 143 and "Traceback" not in err and "CancelledError" not in err, err
    assert status == 503 and headers["content-type"] == "application/json", document
    assert set(document) == {"error"} and document["error"].startswith("terminated")
