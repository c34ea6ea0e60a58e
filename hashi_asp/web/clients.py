"""What ``hashi-asp serve`` takes from the clients that reach it, before any request is worked on.

- :class:`Guard` (ASGI middleware): the host names the server answers to, the origins and the
  content type it accepts.  A web page the user visits can send requests to the server on this
  machine; these checks refuse them.  A page of another site that makes its name resolve to
  127.0.0.1 (DNS rebinding) sends its own name as ``Host``: 421.  A request a page sends to
  another site carries that page's ``Origin``: 403.  A cross-site form or ``text/plain`` POST
  needs no CORS preflight: the API takes only ``Content-Type: application/json`` (415), which
  a page of another site cannot send without one.
  It also keeps each head within its bounds (431), and refuses a header that decides who may
  ask (``Host``, ``Origin``, ``Content-Type``...) given twice, and a request to upgrade to
  WebSocket or another protocol (400): the server speaks plain HTTP/1.1.
- :func:`connection`: uvicorn's HTTP/1.1 protocol (h11), with what it leaves out for clients
  that are slow on purpose: a time limit for a request's head (a connection that sends nothing,
  or a head byte by byte, is closed), a bound on open connections (503 beyond it), and its
  answer to a malformed head as JSON; no request is handed to a WebSocket library.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK = ("127.0.0.1", "localhost", "::1")
HEAD_BYTES = 16 * 1024
"""The most bytes of a request's head (its target and headers): h11's bound on a head that
arrives in pieces, kept too for one that arrives whole.  The page's requests take under 1 KiB."""
HEAD_FIELDS = 100
"""The most header fields of a request (a browser sends about 15)."""
ONCE = ("host", "origin", "content-type", "content-length", "hashi-client")
"""Headers a request may give once at most: of two, which one decides would be a guess, and a
check of one could be passed by the other."""
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?", re.ASCII)


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header, without its port, in lower case: ``localhost:8000`` and
    ``localhost`` give ``localhost``, ``[::1]:8000`` gives ``::1``; None for a header that is
    not a host name or address with an optional port (``127.0.0.1:evil``,
    ``127.0.0.1:8766@evil``)."""
    found = _HOST.fullmatch(host.strip().lower())
    if found is None:
        return None
    return found.group(1).strip("[]")


class Guard:
    """Refuses, with a JSON error, any request whose head is over :data:`HEAD_BYTES` or
    :data:`HEAD_FIELDS` (431), that gives a header of :data:`ONCE` twice or asks for another
    protocol (400), whose ``Host`` is not a loopback name or one of ``hosts`` (421), whose
    ``Origin`` is not the server's own (403), or that POSTs anything but ``application/json``
    (415)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = (), headers: Any = None):
        self.app = app
        names = [*LOOPBACK, *(host_name(f"[{h}]" if ":" in h else h) or h for h in hosts)]
        self.names = list(dict.fromkeys(names))
        self.headers = headers or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refusal(scope) if scope["type"] == "http" else None
        if refused:
            message, status = refused
            response = JSONResponse(
                {"error": message}, status, headers={**self.headers, "Connection": "close"}
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[str, int] | None:
        """Why the request is refused, with its status; None if it is not."""
        raw = scope["headers"]
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        size += sum(len(name) + len(value) + 4 for name, value in raw)
        if size > HEAD_BYTES or len(raw) > HEAD_FIELDS:
            return (
                f"the request's head is {size} bytes in {len(raw)} fields; this server reads "
                f"at most {HEAD_BYTES} bytes in {HEAD_FIELDS} fields",
                431,
            )
        headers = Headers(scope=scope)
        for name in ONCE:
            if len(headers.getlist(name)) > 1:
                return f"header {name.title()} given {len(headers.getlist(name))} times", 400
        if "upgrade" in headers:
            return f"this server speaks HTTP/1.1 only: no upgrade to {headers['upgrade']}", 400
        host = headers.get("host", "")
        if host_name(host) not in self.names:
            shown = ", ".join(f"[{n}]" if ":" in n else n for n in self.names)
            said = f"host {host!r}" if host else "a request without a Host header"
            return f"{said} is not served here; this server answers to {shown}", 421
        origin = headers.get("origin")
        own = f"{scope.get('scheme', 'http')}://{host}"
        if origin is not None and origin.lower() != own.lower():
            return (
                f"requests from {origin} are refused: this server answers requests from its own "
                f"page ({own}) and from programs that send no Origin",
                403,
            )
        if scope["method"] == "POST":
            kind = headers.get("content-type", "")
            if kind.partition(";")[0].strip().lower() != "application/json":
                return (
                    f"the API takes a JSON body sent as Content-Type: application/json, not "
                    f"{kind or 'a body without a Content-Type'}",
                    415,
                )
        return None


def _raw(status: str, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer with a JSON error, that closes the connection."""
    body = json.dumps({"error": message}).encode()
    head = [
        f"HTTP/1.1 {status}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *([f"retry-after: {retry_after}"] if retry_after else []),
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def connection(head_timeout: float, most: int) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol, each connection closed when a request's head has not all
    arrived ``head_timeout`` seconds after the connection opened (or after its last answer), and
    answered 503 and closed when ``most`` connections are open already."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Connection(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            if len(self.connections) > most:
                self.transport.write(
                    _raw(
                        "503 Service Unavailable",
                        f"the server has {most} connections open, "
                        "the most it keeps: try again later",
                        retry_after=1,
                    )
                )
                self.transport.close()
                return
            self._wait_for_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._answering():
                self._stop_waiting()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self._answering() and not self.transport.is_closing():
                self._wait_for_head()  # (uvicorn's keep-alive closes an idle one sooner)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _should_upgrade_to_ws(self) -> bool:
            return False  # every request is HTTP: Guard refuses one asking for another protocol

        def _unsupported_upgrade_warning(self) -> None:
            pass  # (Guard's answer says it, to the client that asked)

        def send_400_response(self, msg: str) -> None:
            self.transport.write(_raw("400 Bad Request", f"malformed HTTP request: {msg}"))
            self.transport.close()

        def _answering(self) -> bool:
            """Whether a request's head has arrived and its answer is not yet complete."""
            return self.cycle is not None and not self.cycle.response_complete

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self.head_timer = self.loop.call_later(head_timeout, self._head_late)

        def _stop_waiting(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_late(self) -> None:
            self.head_timer = None
            if not self._answering() and not self.transport.is_closing():
                self.transport.close()

    return Connection
