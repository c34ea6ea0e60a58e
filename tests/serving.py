"""A real ``hashi-asp serve`` process for the tests that talk to it over HTTP (the API's and
the browser's): started on a free port, ready once it says so on stderr."""

from __future__ import annotations

import json
import os
import queue
import re
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from processes import cpu_seconds, terminal_signals

READY = re.compile(r"^hashi-asp: serving (http://\S+/) \(Ctrl-C stops\)$")
BOUND = 120  # seconds: the most any one wait may take, on the slowest machine


class Server:
    """``python -m hashi_asp serve --port 0 ARGS`` in a session of its own, its stderr read
    line by line in a thread; ``program``: another program that runs hashi-asp's command line
    (one that adds a command, say) instead of ``python -m hashi_asp``."""

    def __init__(self, *args: str, program: list[str] | None = None):
        self.process = subprocess.Popen(
            [*(program or [sys.executable, "-m", "hashi_asp"]), "serve", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=terminal_signals if os.name != "nt" else None,
        )
        self.lines: queue.Queue = queue.Queue()
        self.err: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.url = self._ready()
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def _read(self) -> None:
        for line in self.process.stderr:
            self.err.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def _ready(self) -> str:
        ends = time.monotonic() + BOUND
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, ends - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no readiness line in {BOUND} s: {self.err}") from None
            assert line is not None, f"the server ended: {''.join(self.err)}"
            found = READY.match(line.rstrip("\n"))
            if found:
                return found.group(1)

    @property
    def local(self) -> str:
        """The address to reach it on this machine (whatever host it listens on)."""
        return f"http://127.0.0.1:{self.port}/"

    def stop(self, signum: int) -> tuple[int, str]:
        """Send ``signum``; the exit code and all of stderr."""
        self.process.send_signal(signum)
        code = self.process.wait(timeout=BOUND)
        self.reader.join(BOUND)
        return code, "".join(self.err)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=BOUND)
        self.process.stdout.close()
        self.reader.join(BOUND)

    def cpu(self) -> float:
        """Seconds of CPU the server has used (Linux)."""
        return cpu_seconds(self.process.pid)

    def children(self) -> list[int]:
        """The processes the server has started that still exist, zombies too (Linux: the
        children of each of its threads, from /proc)."""
        found = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            try:
                found += (task / "children").read_text().split()
            except (FileNotFoundError, ProcessLookupError):  # a thread ended meanwhile
                continue
        return sorted(map(int, found))

    def children_cpu(self) -> float:
        """Seconds of CPU used by the processes the server has started, ended and waited for
        (Linux): grows when a child process ran, however soon it ended (a Python process takes
        more than the clock's tick to start)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

    def connections(self) -> list[str]:
        """The server's TCP sockets other than its own port's (Linux: its descriptors matched
        with /proc/net/tcp and tcp6): a connection it made, or a port it opened, as
        ``local -> remote`` in hexadecimal, as the kernel lists them."""
        inodes = set()
        for descriptor in Path(f"/proc/{self.process.pid}/fd").iterdir():
            try:
                target = os.readlink(descriptor)
            except FileNotFoundError:  # closed meanwhile
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
        found = []
        for table in ("tcp", "tcp6"):
            path = Path(f"/proc/{self.process.pid}/net/{table}")
            if not path.exists():
                continue
            for row in path.read_text().splitlines()[1:]:
                fields = row.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if inode in inodes and int(local.rsplit(":", 1)[1], 16) != self.port:
                    found.append(f"{local} -> {remote}")
        return found

    def wait_until_searching(self, since: float) -> None:
        """Until the server has used a third of a second of CPU more than ``since``: the one
        request sent is being worked on (an idle server uses next to none)."""
        ends = time.monotonic() + BOUND
        while self.cpu() < since + 0.3:
            assert self.process.poll() is None, "".join(self.err)
            assert time.monotonic() < ends, "the server never started on the request"
            time.sleep(0.02)

    def line(self) -> str:
        """The next line the server writes on stderr (waited for)."""
        line = self.lines.get(timeout=BOUND)
        assert line is not None, f"the server ended: {''.join(self.err)}"
        return line.rstrip("\n")

    def ask(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: bytes = b"",
        host: str | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """One request over a connection of its own, with exactly ``headers`` (and ``Host``:
        ``host``, else 127.0.0.1 with the port); the status, the headers (in lower case) and
        the JSON document of the answer."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{self.port}'}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
        with socket.create_connection(("127.0.0.1", self.port), timeout=BOUND) as connection:
            connection.sendall("\r\n".join(lines).encode() + body)
            return answer(received(connection))

    def load(self) -> dict[str, dict[str, int]]:
        """Requests running and waiting, by lane (from ``GET /api``)."""
        status, _, document = self.ask("GET", "/api")
        assert status == 200, document
        return document["load"]


def received(connection: socket.socket) -> bytes:
    """All the server sends until it closes the connection."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def answer(data: bytes) -> tuple[int, dict[str, str], Any]:
    """An HTTP answer's status, headers (names in lower case) and JSON document."""
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *fields = head.decode("latin-1").split("\r\n")
    headers = {}
    for field in fields:
        name, _, value = field.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, json.loads(body) if body else None


# ---------------------------------------------------------------------------- requests


def lattice(side: int) -> str:
    """Islands on every other cell, each a 4: solutions beyond counting in a test's time."""
    cells = [[2 * r, 2 * c, 4] for r in range(side) for c in range(side)]
    return json.dumps({"rows": 2 * side - 1, "cols": 2 * side - 1, "islands": cells})


ENDLESS = lattice(8)


def post(
    base: str, command: str, body: dict, timeout: float = BOUND, client: str | None = None
) -> tuple[int, dict]:
    """POST a command's request; its status and document.  ``client``: the Hashi-Client
    header, by which programs on one machine are told apart."""
    headers = {"Content-Type": "application/json", **({"Hashi-Client": client} if client else {})}
    request = urllib.request.Request(
        f"{base}api/{command}", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def flags(options: dict) -> list[str]:
    """The command-line arguments for a request's options."""
    args = []
    for name, value in options.items():
        if value is True:
            args.append(f"--{name}")
        elif value is False:
            args.append(f"--no-{name}")
        else:
            shown = value if isinstance(value, str) else json.dumps(value)
            args += [f"--{name}", shown]
    return args


def send_raw(port: int, command: str, body: dict, client: str | None = None) -> socket.socket:
    """A request sent over a socket left open: its answer waits there until read."""
    data = json.dumps(body).encode()
    named = f"Hashi-Client: {client}\r\n" if client else ""
    head = (
        f"POST /api/{command} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"{named}Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    connection = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    connection.sendall(head.encode() + data)
    return connection


def answered(connection: socket.socket) -> bool:
    readable, _, _ = select.select([connection], [], [], 0)
    return bool(readable)
