"""``hashi-asp serve``: the workbench page and the JSON API of :mod:`.api` as a Starlette app,
run by uvicorn (``pip install 'hashi-asp[web]'``).

- ``GET /`` is the page (``static/index.html`` with its script modules and style, the files of
  :data:`PAGE_FILES` under ``/static/``, and no other: no build step, nothing fetched from
  elsewhere, which the Content-Security-Policy header enforces);
- ``GET /api`` lists the commands, the server's limits and its load;
- ``POST /api/<command>`` answers with the command's JSON document, or ``{"error": ...}`` and
  a 4xx status (503 when the server is too busy; a 500 only for a fault in the program, never
  for what a request says).

Before any work, :class:`.clients.Guard` refuses requests from other sites (foreign ``Host``
or ``Origin``, a body that is not JSON), and the body must arrive within the client time limit.
Each answer is then worked out in a thread of a bounded pool, off the event loop, so a long
search never holds up other requests; clingo lets go of Python's lock while it grounds and
searches.  :mod:`.admission` decides which requests run, wait or are refused; a request's time
limit (its ``time-limit``, at most the server's) starts when its work does, and a client that
goes away stops it: the search stops at its next look at the clock, as at a time limit.  The
answer comes at the deadline whatever clingo is doing (:mod:`hashi_asp.stopping`); grounding
that cannot be interrupted goes on in a thread of its own, and the request's place among the
server's threads stays taken until it ends, so that such work cannot pile up.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..cores import cores
from ..errors import HashiError
from ..notations.json import dumps
from ..status import Stop
from ..stopping import POLL_SECONDS
from . import admission, api, clients, memory

STATIC = resources.files("hashi_asp.web") / "static"
HEADERS = {
    # The page loads nothing but its own files; pictures made for download are data: or blob:.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
        "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
PAGE_MODULES = (
    "controls",  # the entry, which index.html loads; it imports the others
    "board",
    "rules",
    "api",
    "words",
    "fixes",
    "analysis",
    "player",
    "reading",
    "app",
    "opening",
    "pictures",
)
PAGE_FILES = {
    "index.html": "text/html",
    "style.css": "text/css",
    **{f"{name}.js": "text/javascript" for name in PAGE_MODULES},
}
"""The files of the page that ``/static/`` serves, with their types: nothing else."""
CLIENT_HEADER = "hashi-client"
"""The header with which a program (the page too) tells itself apart from the others on the
same machine, for the bounds per client of :mod:`.admission`."""
log = logging.getLogger("hashi_asp.web")
SWITCH_SECONDS = 0.001
"""How often Python's lock may change threads in a server (:func:`sys.setswitchinterval`)."""


def default_workers() -> int:
    """Threads answering requests: two per core (searches mostly wait on clingo, which runs
    outside Python's lock; more threads than that only share the same cores)."""
    return 2 * cores()


@dataclass(frozen=True)
class Capacity:
    """What the server takes on at once, and how long it waits for its clients."""

    workers: int | None = None  # threads for the work (default: default_workers())
    queue: int = 64  # requests waiting for a thread, in all
    per_client: int = 16  # requests of a lane one client may have running or waiting
    max_wait: float = 30.0  # seconds a request may wait for a thread
    connections: int = 256  # connections open at once
    client_timeout: float = 10.0  # seconds for a request's head, and again for its body


def settings(
    *,
    workers: int | None,
    time_limit: float,
    max_time_limit: float,
    max_islands: int,
    max_cells: int,
    max_bytes: int,
    max_answer_bytes: int,
    queue: int,
    per_client: int,
    max_wait: float,
    max_connections: int,
    client_timeout: float,
) -> tuple[api.Limits, Capacity]:
    """The limits per request and the capacity of a server, by the names of ``serve``'s
    options."""
    limits = api.Limits(
        body_bytes=max_bytes,
        islands=max_islands,
        time_limit=time_limit,
        max_time_limit=max_time_limit,
        cells=max_cells,
        answer_bytes=max_answer_bytes,
    )
    capacity = Capacity(workers, queue, per_client, max_wait, max_connections, client_timeout)
    return limits, capacity


def create_app(
    limits: api.Limits = api.Limits(),
    workers: int | None = None,
    capacity: Capacity = Capacity(),
    hosts: Iterable[str] = (),
) -> Starlette:
    """The workbench app: the page, its files and the API, with ``limits`` per request, and
    ``capacity`` (its ``workers`` threads for the work, or ``workers``), answering to the
    loopback names and ``hosts``."""
    answering = _Answering(limits, capacity, workers or capacity.workers or default_workers())
    routes = [
        Route("/", _page),
        Route("/api", answering.listing),
        Route("/api/{command}", answering.command, methods=["POST"]),
        Mount("/static", PageFiles(directory=str(STATIC)), name="static"),
    ]
    handlers: dict[Any, Callable] = {HTTPException: _not_found, Exception: _fault}
    guard = Middleware(clients.Guard, hosts=list(hosts), headers=HEADERS)
    app = Starlette(
        routes=routes, middleware=[guard], exception_handlers=handlers, lifespan=answering.lifespan
    )
    app.state.running = answering.running
    app.state.stop = answering.stop
    return app


class PageFiles(StaticFiles):
    """The page's files under ``/static/``: those :data:`PAGE_FILES` lists, each with its type
    (a module script must come as JavaScript, whatever the system's table of types says); any
    other name is not found."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        if path not in PAGE_FILES:
            return "", None
        return super().lookup_path(path)

    def file_response(
        self, full_path: Any, stat_result: os.stat_result, scope: Any, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        kind = PAGE_FILES[os.path.basename(full_path)]
        if "content-type" in response.headers:  # (not in an answer that it has not changed)
            response.headers["content-type"] = f"{kind}; charset=utf-8"
        return response


async def _page(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"), headers=HEADERS)


async def _not_found(request: Request, error: Exception) -> Response:
    status = getattr(error, "status_code", 404)
    detail = getattr(error, "detail", "not found")
    return _error(f"{request.method} {request.url.path}: {detail}", status)


async def _fault(request: Request, error: Exception) -> Response:
    while len(getattr(error, "exceptions", ())) == 1:  # raised in a task group: its error
        error = error.exceptions[0]  # type: ignore[attr-defined]
    return _error(f"internal error: {type(error).__name__}: {error}", 500)


class _Answering:
    """What the API's requests share: the server's limits and capacity, the threads that work
    (``pool``) and that weigh puzzle texts (``reading``), the turns of :mod:`.admission`, and
    the deadlines of the requests being answered (``running``)."""

    def __init__(self, limits: api.Limits, capacity: Capacity, workers: int):
        self.limits = limits
        self.capacity = capacity
        self.pool = anyio.CapacityLimiter(workers)
        self.reading = anyio.CapacityLimiter(workers)
        self.turns = admission.Admission(
            workers, capacity.queue, capacity.per_client, capacity.max_wait
        )
        self.running: set[Any] = set()

    async def listing(self, request: Request) -> Response:
        """``GET /api``: the commands, the limits, the load."""
        load = self.turns.load()
        document = {"commands": list(api.COMMANDS), "limits": vars(self.limits), "load": load}
        return JSONResponse(document, headers=HEADERS)

    async def command(self, request: Request) -> Response:
        """``POST /api/<command>``: the request read and weighed, then answered in its turn."""
        read = await self._read(request)
        if isinstance(read, Response):
            return read
        wanted, work = read
        seconds = wanted.deadline.seconds or 0.0
        lane = admission.lane(work, seconds, self.limits.time_limit)
        client = (request.client.host if request.client else "", request.headers.get(CLIENT_HEADER))
        answered, after = await self._answered(request, wanted, lane, client, seconds)
        return _response(answered, after)

    async def _read(self, request: Request) -> tuple[api.Request, admission.Work] | Response:
        """The request and the work it is about; or the error to answer with."""
        try:
            body = await _body(request, self.limits.body_bytes, self.capacity.client_timeout)
        except api.RequestError as error:  # the rest of the body may never come: hang up
            return _error(str(error), error.http, Connection="close")
        except ClientDisconnect:
            peer = f"{request.client.host}:{request.client.port}" if request.client else "a client"
            log.warning(f"{peer} went away while sending {request.method} {request.url.path}")
            return _error("the client went away", 400)
        try:
            wanted = api.read_request(request.path_params["command"], body, self.limits)
            if wanted.picture:  # weighed unread: reading it is the work, done once admitted
                work = wanted.work()
            else:
                work = await anyio.to_thread.run_sync(wanted.work, limiter=self.reading)
        except api.RequestError as error:
            return _error(str(error), error.http)
        return wanted, work

    async def _answered(
        self,
        request: Request,
        wanted: api.Request,
        lane: str,
        client: tuple[str, str | None],
        seconds: float,
    ) -> tuple[tuple[bytes, int] | admission.Busy | None, BackgroundTask | None]:
        """The answer once the request's turn came and its work was done in a thread (None if
        the client went away; :class:`.admission.Busy` if it had no turn), and what is left to
        do once it is sent: free the thread that work left running still takes."""
        answered: tuple[bytes, int] | admission.Busy | None = None
        left: list[threading.Event] = []
        held: tuple[str, float] | None = None
        async with anyio.create_task_group() as group:
            group.start_soon(_watch, request, wanted, group.cancel_scope)
            try:
                async with self.turns.slot(lane, client, seconds):
                    wanted.start()  # the time limit counts from here, not from the arrival
                    if group.cancel_scope.cancel_called:  # gone as a thread came free
                        wanted.deadline.stop()
                    self.running.add(wanted.deadline)
                    try:
                        answered = await anyio.to_thread.run_sync(
                            _work, wanted, lane, limiter=self.pool
                        )
                    finally:
                        self.running.discard(wanted.deadline)
                        left = wanted.deadline.left_running()
                        if left:  # its thread is not free until that work ends
                            held = (lane, self.turns.hold(lane))
            except admission.Busy as busy:
                answered = busy
            finally:
                group.cancel_scope.cancel()
        after = None if held is None else BackgroundTask(_release_after, left, self.turns, held)
        return answered, after

    def stop(self, why: Stop = Stop.TERMINATED) -> None:
        """The searches still running stop now (their requests get what was found, as at a
        time limit, answered 503); the requests waiting are refused."""
        self.turns.stop()
        for deadline in list(self.running):
            deadline.stop(why)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        yield
        self.stop()


def _response(
    answered: tuple[bytes, int] | admission.Busy | None, after: BackgroundTask | None
) -> Response:
    """The HTTP answer to a request answered: its JSON with its status, 503 with
    ``Retry-After`` for a request that had no turn, 400 for a client that went away."""
    if isinstance(answered, admission.Busy):
        headers = {**HEADERS, "Retry-After": str(answered.retry_after)}
        return JSONResponse({"error": str(answered)}, 503, headers=headers)
    if answered is None:  # the client went away: nobody reads this
        return JSONResponse(
            {"error": "the client went away"}, 400, headers=HEADERS, background=after
        )
    data, status = answered
    return Response(data, status, media_type="application/json", headers=HEADERS, background=after)


def _error(message: str, status: int, **headers: str) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers={**HEADERS, **headers})


async def _body(request: Request, limit: int, seconds: float) -> Any:
    """The request's JSON body (:func:`.api.read_body`), read up to ``limit`` bytes within
    ``seconds``."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise api.RequestError(f"request body is {declared} bytes; the limit is {limit}", 413)
    chunks, size = [], 0
    with anyio.move_on_after(seconds) as late:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise api.RequestError(f"request body is over the limit of {limit} bytes", 413)
            chunks.append(chunk)
    if late.cancelled_caught:
        raise api.RequestError(
            f"the request body did not arrive within {seconds:g} s ({size} bytes came)", 408
        )
    data = b"".join(chunks)
    if not data.strip():
        raise api.RequestError('empty body: send a JSON object, such as {"puzzle": "..."}')
    return api.read_body(data)


def _work(wanted: api.Request, lane: str) -> tuple[bytes, int]:
    """The answer as JSON with its status (in a worker thread); 413 for an answer over the
    server's limit of bytes.  After a large request, its memory is handed back."""
    try:
        return _answer(wanted)
    finally:
        if lane == admission.LARGE:
            memory.give_back()


def _answer(wanted: api.Request) -> tuple[bytes, int]:
    try:
        document, status = api.answer(wanted)
        data = dumps(document).encode("utf-8")
    except api.RequestError as error:  # (raised from here, it would come wrapped in a group)
        return dumps({"error": str(error)}).encode("utf-8"), error.http
    if len(data) > wanted.limits.answer_bytes:
        message = (
            f"the answer is {len(data)} bytes, over this server's limit of "
            f"{wanted.limits.answer_bytes}"
        )
        return dumps({"error": message}).encode("utf-8"), 413
    return data, status


async def _watch(request: Request, wanted: api.Request, scope: anyio.CancelScope) -> None:
    """Until the client disconnects; then its request stops waiting, or its search stops."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            wanted.deadline.stop()
            scope.cancel()
            return


async def _release_after(
    left: list[threading.Event], turns: admission.Admission, held: tuple[str, float]
) -> None:
    """Once the work a request left running has ended (its answer is sent), its thread is
    free again; a server that is stopping waits for none of it (the process ends with it)."""
    try:
        while not turns.stopping and not all(done.is_set() for done in left):
            await anyio.sleep(POLL_SECONDS)
    finally:
        turns.release(*held)
    memory.give_back()  # (what the work left running freed)


# ---------------------------------------------------------------------------- serving


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (0: any free port) and listening, or a one-line
    error."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        reason = getattr(error, "strerror", None) or error
        raise HashiError(f"cannot listen on {host} port {port}: {reason}") from None
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    limits: api.Limits = api.Limits(),
    capacity: Capacity = Capacity(),
    hosts: Iterable[str] = (),
    on_ready: Callable[[str], None] = print,
) -> None:
    """Serve the workbench until Ctrl-C or SIGTERM, answering to the loopback names, ``host``
    and ``hosts``: ``on_ready`` gets the page's address once the server has started
    (connections made from then on are answered, never fail)."""
    import uvicorn

    # Python's lock changes hands every 5 ms by default: with three threads checking large
    # solutions in Python, the event loop waited that long for each step of a small request
    # (a three-island solve beside four of them: 0.92 s; every 1 ms: 0.24 s).
    sys.setswitchinterval(SWITCH_SECONDS)
    memory.map_large_blocks()
    sock = listening(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    url = f"http://{shown}:{bound_port}/"
    application = create_app(limits, capacity=capacity, hosts=[host, *hosts])
    if not log.handlers:  # one line on stderr per event worth saying, as the command line's
        said = logging.StreamHandler()
        said.setFormatter(logging.Formatter("hashi-asp: %(message)s"))
        log.addHandler(said)
        log.propagate = False
    config = uvicorn.Config(
        application,
        http=clients.connection(capacity.client_timeout, capacity.connections),
        proxy_headers=False,  # no proxy in front: a client's headers do not change its address
        log_level="warning",
        timeout_graceful_shutdown=3,
        lifespan="on",
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            # Said once uvicorn handles Ctrl-C: a signal from then on is a clean stop.
            on_ready(url)
            if open_browser:
                import webbrowser

                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.stop = Stop.TERMINATED if sig == signal.SIGTERM else Stop.INTERRUPTED
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: Any = None) -> None:
            # The searches still running stop now, before uvicorn waits for their answers
            # (the lifespan's shutdown comes only after that wait).
            application.state.stop(getattr(self, "stop", Stop.TERMINATED))
            await super().shutdown(sockets=sockets)

    Server(config).run(sockets=[sock])
