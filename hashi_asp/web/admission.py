"""Which requests of ``hashi-asp serve`` run now, which wait for a thread and which are refused at
once: two lanes of work, a bounded queue in all and per client, turns by client.

- **Lanes.** A request is *small* when its work is (:class:`Work`): a puzzle of at most
  :data:`SMALL_ISLANDS` islands and :data:`SMALL_WATER` cells of water between them, read from
  text, with no more than the server's default time limit; any other request is *large*, and so
  is every picture, whose reading alone takes seconds.  Large requests may take every thread
  but one, which stays for small ones: a page's live verdict and a three-island solve are
  answered while long counts and photos hold the other threads.
- **Clients.** A client is the peer's address with the ``Hashi-Client`` header, when sent.
  Every program on this machine has the address 127.0.0.1, so the header is what tells two
  apart (the page sends an id of its own); it is a way to share fairly, not a proof of who
  asks.  A client may have at most ``per_client`` requests of each lane running or waiting.
- **The queue.** At most ``queue`` requests wait in all.  A request over either bound is refused
  at once (:class:`Busy`, answered 503 with ``Retry-After``), never left to expire in the queue.
  When a thread frees, the small lane goes first; within a lane, clients take turns (the
  longest-waiting client's oldest request, then the next client's).  A request still waiting
  after ``max_wait`` seconds is refused too, and says that it never ran.
- **Time.** A request's time limit starts when it starts (:meth:`Admission.slot` hands the
  thread over; the caller starts the clock), not when it arrives.

Everything here runs on the server's event loop, one coroutine at a time: no locks.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass, field

import anyio

SMALL, LARGE = "small", "large"
SMALL_ISLANDS = 100
"""The most islands a small request may be about: a search of 100 islands (a 16x16 Coelho
puzzle) takes 12 ms, unless it counts; the page's puzzles up to 15x15 have fewer."""
SMALL_WATER = 4_000
"""The most cells of water between neighbouring islands a small request may be about: what the
geometry walks and a search grounds over besides the islands.  Two islands at the ends of a row
of 4 000 cells take 12 ms to solve, as 100 islands do; of a million cells, 4.5 s and 850 MB."""


@dataclass(frozen=True)
class Work:
    """What a request's work grows with, known before it is admitted: its puzzle's islands,
    the water between them (:func:`hashi_asp.puzzle.water_between`, with the cells of the
    bridges a solution to check draws), and whether it is a picture to read first."""

    islands: int = 0
    water: int = 0
    picture: bool = False

    @property
    def small(self) -> bool:
        return not self.picture and self.islands <= SMALL_ISLANDS and self.water <= SMALL_WATER


def lane(work: Work, seconds: float, default_seconds: float) -> str:
    """The lane of a request of ``work`` with a time limit of ``seconds`` on a server whose
    default is ``default_seconds``."""
    return SMALL if work.small and seconds <= default_seconds else LARGE


class Busy(Exception):
    """A request refused before it ran, and the seconds after which to try again."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class _Ticket:
    """A request waiting for a thread; ``end`` is set when it is given one."""

    seconds: float
    given: anyio.Event = field(default_factory=anyio.Event)
    end: float | None = None


class Admission:
    """The threads of a server (``workers`` of them) and the requests waiting for them."""

    def __init__(self, workers: int, queue: int, per_client: int, max_wait: float):
        self.workers = workers
        self.large_workers = max(1, workers - 1)
        self.queue = queue
        self.per_client = per_client
        self.max_wait = max_wait
        # When each running request reaches its time limit (time.monotonic()), by lane.
        self.running: dict[str, list[float]] = {SMALL: [], LARGE: []}
        # By lane, the waiting requests of each client, clients in their turn's order.
        self.waiting: dict[str, dict[Hashable, deque[_Ticket]]] = {SMALL: {}, LARGE: {}}
        self.held: Counter[tuple[str, Hashable]] = Counter()  # running or waiting, per client
        self.stopping = False

    def load(self) -> dict[str, dict[str, int]]:
        """Requests running and waiting, by lane."""
        return {
            name: {"running": len(self.running[name]), "waiting": self._waiting(name)}
            for name in (SMALL, LARGE)
        }

    @contextlib.asynccontextmanager
    async def slot(self, lane: str, client: Hashable, seconds: float) -> AsyncIterator[None]:
        """A thread for one request of ``lane`` from ``client`` with a time limit of
        ``seconds``, held for the block; :class:`Busy` if it is refused or cannot start within
        ``max_wait`` seconds."""
        if self.stopping:
            raise Busy("the server is stopping", 1)
        mine = (lane, client)
        if self.held[mine] >= self.per_client:
            raise Busy(
                f"this client has {self.held[mine]} {lane} requests running or waiting, the most "
                "one client may: wait for their answers",
                self._retry_after(lane),
            )
        now = self._room(lane) and not self._waiting(lane)  # (none of the lane waits before it)
        if not now and self._waiting() >= self.queue:
            raise Busy(
                f"the server is busy: {self._waiting()} requests are waiting already",
                self._retry_after(lane),
            )
        self.held[mine] += 1
        try:
            if now:
                end = self._start(lane, seconds)
            else:
                end = await self._wait(lane, client, seconds)
            try:
                yield
            finally:
                self._finish(lane, end)
        finally:
            self.held[mine] -= 1
            if not self.held[mine]:
                del self.held[mine]

    def hold(self, lane: str) -> float:
        """Count one more thread of ``lane`` busy, for work a request left running in a thread
        of its own (grounding that cannot be interrupted, past the request's deadline): the
        request has its answer, but the core is not free until :meth:`release`."""
        return self._start(lane, 0.0)

    def release(self, lane: str, held: float) -> None:
        self._finish(lane, held)

    def stop(self) -> None:
        """Refuse every request from now on, those waiting too (the server is stopping)."""
        self.stopping = True
        for clients in self.waiting.values():
            for tickets in clients.values():
                for ticket in tickets:
                    ticket.given.set()  # without an end: refused

    # ------------------------------------------------------------------------ inside

    def _waiting(self, lane: str | None = None) -> int:
        lanes = [lane] if lane else [SMALL, LARGE]
        return sum(len(tickets) for name in lanes for tickets in self.waiting[name].values())

    def _room(self, lane: str) -> bool:
        busy = len(self.running[SMALL]) + len(self.running[LARGE])
        large = len(self.running[LARGE])
        return busy < self.workers and (lane == SMALL or large < self.large_workers)

    def _start(self, lane: str, seconds: float) -> float:
        end = time.monotonic() + seconds
        self.running[lane].append(end)
        return end

    def _finish(self, lane: str, end: float) -> None:
        self.running[lane].remove(end)
        self._hand_over()

    async def _wait(self, lane: str, client: Hashable, seconds: float) -> float:
        ticket = _Ticket(seconds)
        self.waiting[lane].setdefault(client, deque()).append(ticket)
        try:
            with anyio.move_on_after(self.max_wait):
                await ticket.given.wait()
        except BaseException:  # the client went away (or the server stops) while it waited
            if ticket.end is not None:
                self._finish(lane, ticket.end)
            else:
                self._leave(lane, client, ticket)
            raise
        if ticket.end is None:
            self._leave(lane, client, ticket)
            if self.stopping:
                raise Busy("the server is stopping: the request never ran", 1)
            raise Busy(
                f"not started within {self.max_wait:g} s, every thread being busy: the request "
                "never ran",
                self._retry_after(lane),
            )
        return ticket.end

    def _leave(self, lane: str, client: Hashable, ticket: _Ticket) -> None:
        tickets = self.waiting[lane].get(client)
        if tickets is not None and ticket in tickets:
            tickets.remove(ticket)
            if not tickets:
                del self.waiting[lane][client]

    def _hand_over(self) -> None:
        """Give the free threads to the requests waiting: small ones first, clients in turn."""
        if self.stopping:
            return
        for name in (SMALL, LARGE):
            clients = self.waiting[name]
            while clients and self._room(name):
                client = next(iter(clients))
                tickets = clients.pop(client)
                ticket = tickets.popleft()
                if tickets:  # the client's next request waits for its next turn
                    clients[client] = tickets
                ticket.end = self._start(name, ticket.seconds)
                ticket.given.set()

    def _retry_after(self, lane: str) -> int:
        """Seconds until a running request of ``lane`` (else of any lane) reaches its limit."""
        ends = self.running[lane] or self.running[SMALL] + self.running[LARGE]
        if not ends:
            return 1
        return max(1, math.ceil(min(ends) - time.monotonic()))
