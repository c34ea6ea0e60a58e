"""``hashi-asp serve``: the workbench page and the JSON API of :mod:`.api` as a Starlette app,
run by uvicorn (``pip install 'hashi-asp[web]'``).

- ``GET /`` is the page (``static/index.html`` with its script and style: no build step, nothing
  fetched from elsewhere, which the Content-Security-Policy header enforces);
- ``GET /api`` lists the commands and the server's limits;
- ``POST /api/<command>`` answers with the command's JSON document, or ``{"error": ...}`` and
  a 4xx status (a 500 only for a fault in the program, never for what a request says).

Each answer is worked out in a thread of a bounded pool, off the event loop, so a long search
never holds up other requests; clingo lets go of Python's lock while it grounds and searches.
Every request has a deadline from the moment it arrives (its ``time-limit``, at most the
server's), and a client that goes away cancels it: the search stops at its next look at the
clock, as at a time limit.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..notations.json import dumps
from ..puzzle import HashiError
from . import api

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


def default_workers() -> int:
    """Threads answering requests: two per core (searches mostly wait on clingo, which runs
    outside Python's lock; more threads than that only share the same cores)."""
    return 2 * len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 4


def create_app(limits: api.Limits = api.Limits(), workers: int | None = None) -> Starlette:
    """The workbench app: the page, its files and the API, with ``limits`` per request and
    ``workers`` threads for the work (default :func:`default_workers`)."""
    pool = anyio.CapacityLimiter(workers or default_workers())
    running: set[Any] = set()  # the deadlines of the requests being answered

    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), headers=HEADERS)

    async def listing(request: Request) -> Response:
        return JSONResponse(
            {"commands": list(api.COMMANDS), "limits": limits.__dict__}, headers=HEADERS
        )

    async def command(request: Request) -> Response:
        try:
            body = await _body(request, limits.body_bytes)
            wanted = api.read_request(request.path_params["command"], body, limits)
        except api.RequestError as error:
            return _error(str(error), error.http)
        running.add(wanted.deadline)
        try:
            text, status = await _answered(request, wanted, pool)
        finally:
            running.discard(wanted.deadline)
        return Response(text, status, media_type="application/json", headers=HEADERS)

    async def not_found(request: Request, error: Exception) -> Response:
        status = getattr(error, "status_code", 404)
        detail = getattr(error, "detail", "not found")
        if request.url.path.startswith("/api"):
            return _error(f"{request.method} {request.url.path}: {detail}", status)
        return Response(str(detail), status_code=status, media_type="text/plain")

    async def fault(request: Request, error: Exception) -> Response:
        return _error(f"internal error: {type(error).__name__}: {error}", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        for deadline in list(running):  # at shutdown, the searches still running stop now
            deadline.cancel()

    routes = [
        Route("/", page),
        Route("/api", listing),
        Route("/api/{command}", command, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    handlers: dict[Any, Callable] = {HTTPException: not_found, Exception: fault}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.running = running
    return app


def _error(message: str, status: int) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers=HEADERS)


async def _body(request: Request, limit: int) -> Any:
    """The request's JSON body, read up to ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise api.RequestError(f"request body is {declared} bytes; the limit is {limit}", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise api.RequestError(f"request body is over the limit of {limit} bytes", 413)
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data.strip():
        raise api.RequestError('empty body: send a JSON object, such as {"puzzle": "..."}')
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise api.RequestError(f"body is not UTF-8 (byte {error.start})") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise api.RequestError(f"body is not JSON: {error.msg} ({where})") from None


async def _answered(
    request: Request, wanted: api.Request, pool: anyio.CapacityLimiter
) -> tuple[str, int]:
    """The answer as JSON text with its status, worked out in the pool; a client that
    disconnects first cancels the request's deadline, which stops its search."""

    def work() -> tuple[str, int]:
        try:
            return dumps(api.answer(wanted)), 200
        except api.RequestError as error:  # (raised from here, it would come wrapped in a group)
            return dumps({"error": str(error)}), error.http

    async def watch() -> None:
        while True:
            message = await request.receive()
            if message["type"] == "http.disconnect":
                wanted.deadline.cancel()
                return

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        try:
            answered = await anyio.to_thread.run_sync(work, limiter=pool)
        finally:
            group.cancel_scope.cancel()
    return answered


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
    workers: int | None = None,
    on_ready: Callable[[str], None] = print,
) -> None:
    """Serve the workbench until Ctrl-C or SIGTERM: ``on_ready`` gets the page's address once
    the server has started (connections made from then on are answered, never fail)."""
    import uvicorn

    sock = listening(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    url = f"http://{shown}:{bound_port}/"
    application = create_app(limits, workers)
    config = uvicorn.Config(
        application, log_level="warning", timeout_graceful_shutdown=3, lifespan="on"
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            # Said once uvicorn handles Ctrl-C: a signal from then on is a clean stop.
            on_ready(url)
            if open_browser:
                import webbrowser

                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

        async def shutdown(self, sockets: Any = None) -> None:
            # The searches still running stop now, before uvicorn waits for their answers
            # (the lifespan's shutdown comes only after that wait).
            for deadline in list(application.state.running):
                deadline.cancel()
            await super().shutdown(sockets=sockets)

    Server(config).run(sockets=[sock])
