"""``serve``: the workbench in the browser and the JSON API, on this machine."""

from __future__ import annotations

from ..puzzle import PuzzleError
from ..status import Status
from .unit import FLAG, FLOAT, INT, TEXT, Command, Given, Option, Outcome


def serve(given: Given) -> Outcome:
    try:
        from ..web import api, app
    except ImportError as missing:
        package = (missing.name or "starlette").split(".")[0]
        needed = f"{package} is not installed"
        extra = "pip install 'hashi-asp[web]'"
        raise PuzzleError(f"serve needs the web extra ({needed}): {extra}") from None
    host = given.host
    if host not in ("127.0.0.1", "localhost", "::1"):
        given.hooks.note(f"hashi-asp: warning: {host} may let other machines use this server\n")
    limits = api.Limits(
        given.max_bytes,
        given.max_islands,
        time_limit=given.time_limit,
        max_time_limit=given.max_time_limit,
    )

    def ready(url: str) -> None:
        given.hooks.note(f"hashi-asp: serving {url} (Ctrl-C stops)\n")

    app.serve(
        host,
        given.port,
        open_browser=given.open_browser,
        limits=limits,
        workers=given.workers,
        on_ready=ready,
    )
    return Outcome(Status.OK)


COMMAND = Command(
    "serve",
    """Serve the workbench: a page to load, edit, play, explain, generate and export puzzles,
    and the JSON API under /api/ (POST /api/COMMAND with {"puzzle": ..., options}: the
    command's --format json document).  Listens on 127.0.0.1 (this machine only) unless --host
    says otherwise.  Needs the web extra: pip install 'hashi-asp[web]'.  Ctrl-C stops it.""",
    (
        Option("host", TEXT, "Address to listen on.  [default: 127.0.0.1]", default="127.0.0.1"),
        Option("port", INT, "Port (0: any) [8000].", default=8000, low=0, high=65535),
        Option("open", FLAG, "Open the page in the browser.", default=False, dest="open_browser"),
        Option("workers", INT, "Threads for the work [2 per core].", low=1),
        Option("time-limit", FLOAT, "Per request [10 s].", default=10, low=0.1, high=3600),
        Option("max-time-limit", FLOAT, "Most a request asks.", default=60, low=0.1, high=3600),
        Option("max-islands", INT, "[10 000].", default=10_000, low=2),
        Option("max-bytes", INT, "Per request.", default=1_000_000, low=1024),
    ),
    serve,
    served=False,
)
