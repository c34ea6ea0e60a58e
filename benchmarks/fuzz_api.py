"""Hostile requests to a real ``hashi-asp serve``, every command and every option it serves, with
a budget: what no request may do, counted.

    python benchmarks/fuzz_api.py --minutes 10 --seed 1
    python benchmarks/fuzz_api.py --requests 500 -- --time-limit 2 --max-time-limit 5

Commands take turns, and within each command its served options (``hashi_asp.web.served``)
take turns as the one made hostile, with up to two more chosen at random: huge, negative or
zero numbers, values of the wrong type, NaN, strings with lone surrogates, addresses of a
listener on this machine, paths (a FIFO among them), deeply nested JSON, long strings, a key
given twice, and options the API does not serve (``jobs``, ``scheduler``, ``clingo``...);
integers of 310 digits and more; pictures that are bombs (a header that declares 60000x60000
pixels, a JPEG frame of 65500x65500, a WebP of 16384x16384, a 16-bit picture with alpha, an empty
data URL, a truncated one), of other formats (GIF, TIFF) and of noise; puzzles of two islands
a million cells apart, and solutions whose bridges cross a million times.  Some values are
valid, so that requests also search, generate and time out.  One request in twelve is a
hostile head instead: over 16 KiB or 100 fields, a header that decides who may ask given twice,
a foreign ``Host`` or one with more than a port after it, a WebSocket upgrade.  Each request
goes on a connection of its own, one at a time, and is checked:

- no 500 (no 5xx at all: one request at a time never makes the server busy), and every answer
  is a JSON document (an ``error`` for a 4xx); a hostile head is refused (4xx);
- no process started: the server has no child process while the request runs or after it
  (from /proc, every 10 ms), and its ended children's CPU time does not grow;
- no connection made: the server has no TCP socket but its own port's while the request runs
  or after it (from /proc, every 10 ms), and the listener whose address the requests name is
  never connected to;
- no file read: the FIFO whose path the requests name is never opened (an open for reading
  would wait for a writer, which this script checks for after each request);
- every answer within its time limit plus 1 s: the request's ``time-limit`` when it is a valid
  one, else the server's ``--time-limit``, at most its ``--max-time-limit`` (also for the
  commands without a time limit of their own, whose answers should be quicker still).

Prints the counts, and each failure of a kind the first time.  The server runs with
``--time-limit 1 --max-time-limit 3`` unless arguments after ``--`` say otherwise (they go to
``hashi-asp serve``).  Exit 0 when nothing failed (answers over their time limit are counted,
not failures), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import socket
import stat
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from serving import Server, answer  # noqa: E402  (the test suite's: a real server, its answers)

from hashi_asp.commands import declaration as units  # noqa: E402
from hashi_asp.web import api  # noqa: E402

PUZZLES = [
    "7x7m2:4a4a2a2w2k4c3a1",
    "1 . 2 . 1\n",
    (REPO / "puzzles" / "prolog-5x5.txt").read_text(),
    (REPO / "puzzles" / "coelho" / "Hs_24_200_50_10_001.has").read_text(),
    json.dumps(  # islands on every other cell, each a 4: solutions beyond counting
        {"rows": 15, "cols": 15, "islands": [[2 * r, 2 * c, 4] for r in range(8) for c in range(8)]}
    ),
]


class Raw(str):
    """JSON text written into a body as it is (a number json.dumps cannot write, NaN...)."""


def dumped(value: Any) -> str:
    return str(value) if isinstance(value, Raw) else json.dumps(value)


class Hostile:
    """Values to give an option, by family, naming the trap listener and the FIFO."""

    def __init__(self, rng: random.Random, trap: int, fifo: Path):
        self.rng = rng
        places = [f"tcp://127.0.0.1:{trap}", f"127.0.0.1:{trap}", f"http://127.0.0.1:{trap}/"]
        places += [f"localhost:{trap}", f"[::1]:{trap}", f"tls://localhost:{trap}"]
        self.families: dict[str, list[Any]] = {
            "huge": [10**30, 2**63, 1e308, 10**9, Raw("9" * 5000), 1e-320, 10_000, 100_000],
            "huge integer": [10**310, -(10**400), Raw("9" * 4000), Raw("1" + "0" * 309 + ".5")],
            "negative": [-1, -(10**9), Raw("-0.0"), -1e308, -(2**63), -0.5],
            "zero": [0, 0.0],
            "wrong type": ["10", [], {}, True, False, [1, 2], {"a": 1}, 1.5, "", " "],
            "not a number": [Raw("NaN"), Raw("Infinity"), Raw("-Infinity")],
            "surrogate": ["\ud800", "a\udfffb", "7x7m2:4a4a2a2w2k4c3a1\udc00", "\udbff"],
            "address": places,
            "path": [str(fifo), "/etc/passwd", "/dev/zero", "/proc/self/environ", "-"],
            "nested": [Raw("[" * n + "]" * n) for n in (10, 900, 5000)],
            "long": ["x" * 100_000, "7" * 999_000, "a" * 2_000_000, "?" * 5000],
            "odd choice": ["race", "RACE", " auto", "json\x00", "has;id", "../json", "tree --t 64"],
        }
        self.unserved: dict[str, list[Any]] = {  # options never served, with what they take
            "jobs": [2, 4, 64],
            "scheduler": places[:3],
            "workers": [2, 64],
            "clingo": ["-t 8", "--parallel-mode=4", f"--outf=0 {fifo}"],
            "const": [["max_bridges=3"], "max_bridges=3"],
            "variant": [["tree", "flow"], "tree -t 4"],
            "encoding": [str(fifo)],
            "add": [[str(fifo)], str(fifo)],
            "out": [str(fifo.parent)],
            "output": [str(fifo)],
            "force": [True],
            "count": [2, 1000],
            "quiet": [True],
            "format": ["text", "svg"],
            "host": ["0.0.0.0", "127.0.0.1"],
            "port": [trap],
            "db": [str(fifo)],
            "plan": [str(fifo)],
            "solution": [True],
            "\ud800": [1],
        }
        self.families["path"] += ["../../../../etc/passwd", f"file://{fifo}", "~/.ssh/id_rsa"]
        self.families["nested"] += [Raw('{"a":' * 200 + "1" + "}" * 200), {"bridges": [[[[]]]]}]
        self.families["nested"].append(Raw("[" * 100_000))  # (not closed: not JSON either)

    def value(self, option: units.Option, valid: float) -> tuple[str, Any]:
        """(family, value): one of the families, or with odds ``valid``, a value the option
        takes."""
        rng = self.rng
        if option.kind == units.PUZZLE and rng.random() < 0.2:
            return "picture", rng.choice(pictures())
        if rng.random() < valid:
            return "valid", self.valid(option)
        family = rng.choice(list(self.families))
        return family, rng.choice(self.families[family])

    def valid(self, option: units.Option) -> Any:
        rng = self.rng
        if option.kind == units.FLAG:
            return rng.random() < 0.5
        if option.kind == units.CHOICE:
            return rng.choice(list(option.choices))
        if option.kind in (units.INT, units.FLOAT, units.SECONDS):
            low = option.low if option.low is not None else 0
            high = option.high if option.high is not None else low + rng.choice([3, 50, 10_000])
            value = rng.uniform(low, high)
            value = max(value, low + 0.05) if option.low_open else value
            return round(value) if option.kind == units.INT else round(value, 2)
        if option.kind == units.PUZZLE:
            return rng.choice(PUZZLES)
        if option.kind == units.BRIDGES:
            return rng.choice([[], {"bridges": [[0, 0, 0, 2, 1]]}, "[]", {"solutions": []}])
        if option.name == "size":
            return rng.choice(["10x10", "5", "3x300", "1000x1000", "1x1"])
        return rng.choice(["easy", "medium", "hard", "0.5", "0.2-0.9", "1-0"])


_PICTURES: list[str] = []


def pictures() -> list[str]:
    """Hostile pictures as data URLs (made once, by tests/hostile_pictures.py's makers): bombs
    by their headers, 16-bit with alpha, noise, other formats, truncated and empty."""
    if _PICTURES:
        return _PICTURES
    import numpy as np
    from hostile_pictures import declared_png, encoded, jpeg_declaring, noise, url, webp_declaring

    rng = np.random.default_rng(1)
    deep = rng.integers(0, 65_535, (1200, 1200, 4), dtype=np.uint16)
    deep[..., :3] = 65_535
    speckled = (rng.random((1200, 1600)) < 0.5).astype(np.uint8) * 255
    _PICTURES.extend(
        [
            url(declared_png(60_000, 60_000)),
            url(declared_png(1, 1_000_000_000)),
            url(jpeg_declaring(65_500, 65_500), "image/jpeg"),
            url(webp_declaring(16_384, 16_384), "image/webp"),
            "data:image/png;base64,",
            url(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/gif"),
            url(b"II*\x00\x08\x00\x00\x00\x00\x00"),  # TIFF bytes, named PNG
            url(encoded(deep, ".png")),
            url(noise(1600, 1200, bits=1)),
            url(encoded(speckled, ".jpg"), "image/jpeg"),
            url(encoded(speckled, ".webp"), "image/webp"),
        ]
    )
    _PICTURES.append(_PICTURES[-3][: len(_PICTURES[-3]) // 2])  # a PNG cut in half
    return _PICTURES


def bombs() -> list[dict[str, Any]]:
    """Bodies of little text that are large work: two islands a million cells apart, and a
    solution whose bridges cross a million times on a 1000x1000 board (the islands on its
    border)."""
    row = {"rows": 1, "cols": 999_999, "islands": [[0, 0, 1], [0, 999_998, 1]]}
    inner = range(1, 999)
    islands = [[r, c, 1] for c in inner for r in (0, 999)]
    islands += [[r, c, 1] for r in inner for c in (0, 999)]
    bridges = [[0, c, 999, c, 1] for c in inner] + [[r, 0, r, 999, 1] for r in inner]
    border = json.dumps({"rows": 1000, "cols": 1000, "islands": islands})
    return [
        {"puzzle": json.dumps(row)},
        {"puzzle": border, "solution": json.dumps(bridges)},
    ]


HEADS = [
    ("X-Big: " + "a" * 60_000, 431),
    ("".join(f"X-{i}: a\r\n" for i in range(2000)).rstrip(), 431),
    ("Origin: http://127.0.0.1:{port}\r\nOrigin: http://evil.example", 400),
    ("Content-Type: text/plain", 400),
    ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13", 400),
    ("Hashi-Client: a\r\nHashi-Client: b", 400),
]
"""Hostile head lines for a request otherwise valid, and the status that refuses them."""
HOSTS = [("127.0.0.1:evil", 421), ("127.0.0.1:{port}@evil", 421), ("evil.example", 421)]


def hostile_head(rng: random.Random, port: int) -> tuple[bytes, int, str]:
    """A solve request with a hostile head: its bytes, the status that refuses it, and what
    it tries."""
    body = json.dumps({"puzzle": "1 . 1\n"}).encode()
    host, extra, status = f"127.0.0.1:{port}", "", 0
    if rng.random() < 0.3:
        host, status = rng.choice(HOSTS)
        host = host.format(port=port)
    else:
        extra, status = rng.choice(HEADS)
        extra = "\r\n" + extra.format(port=port)
    head = (
        f"POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close{extra}\r\n\r\n"
    )
    return head.encode() + body, status, (extra or host)[:40]


def base_body(rng: random.Random, command: str) -> dict[str, Any]:
    options = api.OPTIONS[command]
    body: dict[str, Any] = {}
    if "puzzle" in options:
        body["puzzle"] = rng.choice(PUZZLES)
    if command == "check":
        body["solution"] = []
    if command == "convert":
        body["to"] = rng.choice(list(options["to"].choices))
    if command == "generate":
        body["islands"] = rng.choice([2, 10, 40, 200])
    return body


def request(rng: random.Random, hostile: Hostile, command: str, target: str) -> tuple[bytes, list]:
    """A body for ``command`` with ``target`` (and up to two more options) hostile: its bytes
    and the (option, family) pairs it tried."""
    options = api.OPTIONS[command]
    pairs: list[tuple[str, Any]] = list(base_body(rng, command).items())
    chosen = [target, *rng.sample(sorted(options), rng.randint(0, 2))]
    tried = []
    for name in dict.fromkeys(chosen):  # the target hostile 3 times in 4, the others 1 in 4
        family, value = hostile.value(options[name], 0.25 if name == target else 0.75)
        pairs = [(key, old) for key, old in pairs if key != name] + [(name, value)]
        tried.append((name, family))
    if command in ("check", "render", "solve", "convert") and rng.random() < 0.05:
        bomb = rng.choice(bombs() if command in ("check", "render") else bombs()[:1])
        pairs = [(k, v) for k, v in pairs if k not in bomb] + list(bomb.items())
        tried.append(("puzzle", "a bomb of water or crossings"))
    roll = rng.random()
    if roll < 0.08:  # a key given twice, or under both spellings
        name, value = rng.choice(pairs)
        twin = name.replace("-", "_") if "-" in name and rng.random() < 0.5 else name
        pairs.append((twin, value))
        tried.append((name, "duplicate"))
    elif roll < 0.16:  # an option not served (or a key that is not Unicode)
        key = rng.choice(sorted(hostile.unserved))
        if rng.random() < 0.5:
            family, value = "what it takes", rng.choice(hostile.unserved[key])
        else:
            family, value = hostile.value(units.Option("x", units.TEXT), 0)
        pairs.append((key, value))
        tried.append((key, f"unserved ({family})"))
    text = "{" + ", ".join(f"{json.dumps(key)}: {dumped(value)}" for key, value in pairs) + "}"
    return text.encode(), tried


def time_limit(body: bytes, default: float, most: float) -> float:
    """The time limit the server gives the request: its valid ``time-limit``, or the default,
    at most ``most``."""
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        return min(default, most)
    given = document.get("time-limit", document.get("time_limit"))
    number = isinstance(given, (int, float)) and not isinstance(given, bool)
    if number and 0 < given < math.inf:  # (no float() of it: an integer of 400 digits has none)
        return float(min(given, most))
    return min(default, most)


def post(
    port: int, command: str, body: bytes, whole: bytes | None = None, client: str | None = None
) -> tuple[int, Any]:
    """The status and JSON document of the answer to one request, on a connection of its own
    (``whole``: the request's bytes, head and all, as they are); status 0 when the server hung
    up on a body over its limit before it was all sent (it says 413 and closes: what it had not
    read yet resets the connection)."""
    head = (
        f"POST /api/{command} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        + (f"Hashi-Client: {client}\r\n" if client else "")
        + "Connection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=120) as connection:
        chunks = []
        try:
            connection.sendall(whole or head.encode() + body)
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        except (BrokenPipeError, ConnectionResetError):
            if not chunks:
                return 0, None
        status, _, document = answer(b"".join(chunks))
        return status, document


class Watch:
    """What the server does while one request runs, looked at every 10 ms from a thread and
    once more at the end: its child processes (and the CPU of those ended meanwhile: one that
    lived between two looks still shows), its TCP sockets but its own port's."""

    def __init__(self, server: Server):
        self.server = server
        self.children: set[int] = set()
        self.connections: set[str] = set()
        self.done = threading.Event()

    def look(self) -> None:
        self.children.update(self.server.children())
        self.connections.update(self.server.connections())

    def __enter__(self) -> Watch:
        self.cpu = self.server.children_cpu()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()
        return self

    def watch(self) -> None:
        while not self.done.wait(0.01):
            try:
                self.look()
            except (FileNotFoundError, ProcessLookupError):  # the server ended
                return

    def __exit__(self, *exception: object) -> None:
        self.done.set()
        self.thread.join()
        if self.server.process.poll() is None:
            self.look()
            if self.server.children_cpu() > self.cpu:
                self.children.add(-1)  # (a child that ended unseen)


def answered(status: int, document: Any) -> bool:
    """Whether a 4xx answer is one the API documents: ``{"error": ...}``, or for a verdict
    that answers no question (422: ``difficulty`` of a puzzle without one solution) the
    command's own document, with its ``status``."""
    if not isinstance(document, dict):
        return False
    return "error" in document or (status == 422 and "status" in document)


def fifo_opened(fifo: Path) -> bool:
    """Whether something has the FIFO open for reading (or waits to): an open for writing
    without waiting succeeds only then.  (What it reads is nothing: the end, at once.)"""
    try:
        descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:  # ENXIO: no reader
        return False
    os.close(descriptor)
    return True


def serve_option(arguments: list[str], name: str, default: float) -> float:
    if name in arguments:
        return float(arguments[arguments.index(name) + 1])
    return default


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10, help="time budget [10]")
    parser.add_argument("--requests", type=int, help="stop after this many requests")
    parser.add_argument("--seed", type=int, default=1, help="seed of the requests [1]")
    parser.add_argument(
        "--save", type=Path, help="a folder for the bodies of failed and late requests"
    )
    parser.add_argument("serve", nargs="*", help="options for hashi-asp serve (after --)")
    arguments = parser.parse_args()
    serving = arguments.serve or ["--time-limit", "1", "--max-time-limit", "3"]
    default = serve_option(serving, "--time-limit", 10)
    most = serve_option(serving, "--max-time-limit", 60)
    bytes_most = serve_option(serving, "--max-bytes", 1_000_000)

    rng = random.Random(arguments.seed)
    folder = Path(tempfile.mkdtemp(prefix="fuzz-api-"))
    fifo = folder / "never-read"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    trap = socket.create_server(("127.0.0.1", 0))
    connected: list[str] = []

    def watch() -> None:
        while True:
            try:
                peer, address = trap.accept()
            except OSError:  # closed at the end
                return
            connected.append(f"{address[0]}:{address[1]}")
            peer.close()

    threading.Thread(target=watch, daemon=True).start()
    hostile = Hostile(rng, trap.getsockname()[1], fifo)
    server = Server(*serving)
    print(f"serve {' '.join(serving)}; load average {os.getloadavg()[0]:.2f}", flush=True)

    statuses: Counter[str] = Counter()
    by_command: Counter[str] = Counter()
    tried_options: Counter[tuple[str, str]] = Counter()
    families: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    over: list[tuple[float, float, str]] = []  # (seconds, limit, the request in short)
    turns = dict.fromkeys(api.OPTIONS, 0)
    started = time.monotonic()
    end = started + 60 * arguments.minutes
    report_at = started + 60
    sent = 0

    def fail(kind: str, detail: str) -> None:
        if not failures[kind]:
            print(f"FAILURE {kind}: {detail[:300]}", flush=True)
        failures[kind] += 1

    try:
        while time.monotonic() < end and sent < (arguments.requests or math.inf):
            for command, options in api.OPTIONS.items():
                names = list(options)
                target = names[turns[command] % len(names)]
                turns[command] += 1
                whole, refused = None, 0
                if rng.random() < 1 / 12:  # a hostile head instead of a hostile body
                    command = "solve"
                    whole, refused, what = hostile_head(rng, server.port)
                    body, tried = b"", [("head", what)]
                else:
                    body, tried = request(rng, hostile, command, target)
                limit = time_limit(body, default, most)
                began = time.monotonic()
                with Watch(server) as watched:
                    try:
                        status, document = post(server.port, command, body, whole)
                    except (OSError, ValueError) as error:  # no answer in 120 s, or not JSON
                        status, document = -1, None
                        fail("no JSON answer", f"{command} {type(error).__name__}: {error}")
                    seconds = time.monotonic() - began
                sent += 1
                by_command[command] += 1
                if status == 0 and len(body) <= bytes_most:
                    fail("hung up on a body within the limit", f"{command} {len(body)} bytes")
                statuses["413, hung up" if status == 0 else str(status)] += 1
                for name, family in tried:
                    tried_options[command, name] += 1
                    families["hostile head" if name == "head" else family] += 1
                shown = f"{command} {body[:200]!r} -> {status} {str(document)[:200]}"
                if whole is not None:
                    shown = f"head {tried[0][1]!r} -> {status} {str(document)[:200]}"
                    if status != refused:
                        fail("a hostile head not refused as documented", shown)
                if status >= 500:
                    fail(f"{status}", shown)
                elif status >= 400 and not answered(status, document):
                    fail("a 4xx without an error", shown)
                if seconds > limit + 1:
                    short = f"{command} -> {status}, a body of {len(body)} bytes: {body[:50]!r}"
                    over.append((seconds, limit, short))
                if arguments.save and (seconds > limit + 1 or status < 0 or status >= 500):
                    arguments.save.mkdir(parents=True, exist_ok=True)
                    (arguments.save / f"{sent:05d}-{command}-{status}.json").write_bytes(body)
                if server.process.poll() is not None:
                    fail("the server ended", "".join(server.err)[-2000:])
                    return 1
                if watched.children:
                    fail("a process started", f"{sorted(watched.children)} by {shown}")
                if watched.connections:
                    fail("a connection made", f"{sorted(watched.connections)} by {shown}")
                if connected:
                    fail("the listener reached", f"{connected} after {shown}")
                    connected.clear()
                if fifo_opened(fifo):
                    fail("the FIFO opened", shown)
            if time.monotonic() >= report_at:
                report_at += 60
                print(
                    f"{(time.monotonic() - started) / 60:.0f} min: {sent} requests, "
                    f"{sum(failures.values())} failures, {len(over)} over their time limit + 1 s",
                    flush=True,
                )
    finally:
        server.close()
        trap.close()
        fifo.unlink()
        folder.rmdir()
    tracebacks = sum("Traceback" in line for line in server.err)
    if tracebacks:
        fail("a traceback in the server's log", "".join(server.err)[-2000:])

    seconds = time.monotonic() - started
    print(f"\n{sent} requests in {seconds:.0f} s (seed {arguments.seed})")
    print("statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    print("commands: " + ", ".join(f"{c} {n}" for c, n in by_command.items()))
    print("values: " + ", ".join(f"{f} {n}" for f, n in families.most_common()))
    served = {(command, name) for command, options in api.OPTIONS.items() for name in options}
    least = min(tried_options[pair] for pair in served)
    print(f"served options tried: {len(served & set(tried_options))} of {len(served)}, ", end="")
    print(f"each at least {least} times")
    print(f"5xx answers: {sum(n for s, n in statuses.items() if s.startswith('5'))}")
    print(f"processes started: {failures['a process started']}")
    print(f"connections made: {failures['a connection made'] + failures['the listener reached']}")
    print(f"FIFO opened: {failures['the FIFO opened']}")
    print(f"tracebacks in the server's log: {tracebacks}")
    print(f"answers over their time limit + 1 s: {len(over)}")
    kinds = Counter(short.split(", a body")[0] for _, _, short in over)
    if kinds:
        print("  " + ", ".join(f"{kind}: {n}" for kind, n in kinds.most_common()))
    for took, limit, short in sorted(over, key=lambda late: late[1] - late[0])[:10]:
        print(f"  {took:.2f} s for a limit of {limit:g} s: {short}")
    print(f"failures: {sum(failures.values())}")
    for kind, count in failures.items():
        print(f"  {kind}: {count}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
