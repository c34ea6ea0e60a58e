"""``serve``: the workbench in the browser and the JSON API, on this machine."""

from __future__ import annotations

from ..commands.declaration import FLAG, FLOAT, INT, TEXT, Command, Given, Option, Outcome
from ..errors import PuzzleError
from ..status import Status


def serve(given: Given) -> Outcome:
    try:
        from . import app
    except ImportError as missing:
        package = (missing.name or "starlette").split(".")[0]
        needed = f"{package} is not installed"
        extra = "pip install 'hashi-asp[web]'"
        raise PuzzleError(f"serve needs the web extra ({needed}): {extra}") from None
    host = given.host
    if host not in ("127.0.0.1", "localhost", "::1"):
        given.hooks.note(f"hashi-asp: warning: {host} may let other machines use this server\n")
    place = ("host", "hosts", "port", "open_browser")  # where it listens; the rest: settings
    settings = {key: value for key, value in given.values.items() if key not in place}
    limits, capacity = app.settings(**settings)

    def ready(url: str) -> None:
        given.hooks.note(f"hashi-asp: serving {url} (Ctrl-C stops)\n")

    options = {"limits": limits, "capacity": capacity, "hosts": given.hosts, "on_ready": ready}
    app.serve(host, given.port, open_browser=given.open_browser, **options)
    return Outcome(Status.OK)


COMMAND = Command(
    "serve",
    """Serve the workbench: a page to load, edit, play, explain, generate and export puzzles,
    and the JSON API under /api/ (POST /api/COMMAND with {"puzzle": ..., options}: the
    command's --format json document).  Listens on 127.0.0.1 (this machine only) unless --host
    says otherwise, and answers to no host name but the loopback ones, --host and --allow-host.
    Needs the web extra: pip install 'hashi-asp[web]'.  Ctrl-C stops it.""",
    (
        Option("host", TEXT, "Address to listen on.  [default: 127.0.0.1]", default="127.0.0.1"),
        Option("allow-host", TEXT, "Another host name to answer to.", multiple=True, dest="hosts"),
        Option("port", INT, "Port (0: any) [8000].", default=8000, low=0, high=65535),
        Option("open", FLAG, "Open the page in the browser.", default=False, dest="open_browser"),
        Option("workers", INT, "Threads for the work [2 per core].", low=1),
        Option("time-limit", FLOAT, "Per request [10 s].", default=10, low=0.1, high=3600),
        Option("max-time-limit", FLOAT, "Most a request asks.", default=60, low=0.1, high=3600),
        Option("max-islands", INT, "[10 000].", default=10_000, low=2),
        Option("max-cells", INT, "Grid [1 000 000].", default=10**6, low=4),
        Option("max-bytes", INT, "Per request.", default=1_000_000, low=1024),
        Option("max-answer-bytes", INT, "[10 MB].", default=10**7, low=1024),
        Option("queue", INT, "Requests waiting [64].", default=64, low=0),
        Option("per-client", INT, "Per lane [16].", default=16, low=1),
        Option("max-wait", FLOAT, "For a thread [30 s].", default=30, low=0, high=3600),
        Option("max-connections", INT, "Open [256].", default=256, low=1),
        Option("client-timeout", FLOAT, "Head, body [10 s].", default=10, low=0.1, high=3600),
    ),
    serve,
)
