"""Graph algorithms, each a small function of its own over plain nodes and edges (as networkx
writes them): the connected groups of a graph, the cut edges of a multigraph (its bridges
in the graph sense: edges whose removal splits a group in two), whether an edge lies on a
cycle, which of many starts share a group, and the groups a few edges join (union-find).

Islands and pairs of neighbours are the usual nodes and edges, but nothing here knows the
puzzle: callers pass the nodes, and the neighbours or the edges, they mean.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

Node = TypeVar("Node", bound=Hashable)
Edge = TypeVar("Edge", bound=Hashable)


def connected_groups(
    nodes: Iterable[Node], neighbours: Callable[[Node], Iterable[Node]]
) -> list[list[Node]]:
    """The connected groups of a graph, each sorted, in the order of their first node in
    ``nodes`` (depth first, so that the same input always gives the same groups)."""
    groups: list[list[Node]] = []
    seen: set[Node] = set()
    for start in nodes:
        if start in seen:
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            node = stack.pop()
            group.append(node)
            for other in neighbours(node):
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        groups.append(sorted(group))  # type: ignore[type-var]
    return groups


def cut_edges(
    nodes: Iterable[Node], edges: Callable[[Node], Iterable[tuple[Node, Edge]]]
) -> list[Edge]:
    """The cut edges of a multigraph: the edges whose removal leaves their group in two parts.
    ``edges(node)`` gives each edge at ``node`` as (the node at its other end, the edge's name);
    two edges between the same nodes are never cut edges.  Tarjan's low-link numbers over an
    iterative depth-first search (no recursion limit on big graphs), in the order of the
    edges found."""
    order: dict[Node, int] = {}
    low: dict[Node, int] = {}
    cuts: list[Edge] = []
    for start in nodes:
        if start in order:
            continue
        order[start] = low[start] = len(order)
        stack: list[tuple[Node, Edge | None, Iterable]] = [(start, None, iter(edges(start)))]
        while stack:
            node, via, onward = stack[-1]
            advanced = False
            for other, edge in onward:
                if edge == via:
                    continue
                if other in order:
                    low[node] = min(low[node], order[other])
                else:
                    order[other] = low[other] = len(order)
                    stack.append((other, edge, iter(edges(other))))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[node])
                    if low[node] > order[parent]:
                        cuts.append(via)  # type: ignore[arg-type]
    return cuts


def connected_without(
    start: Node, goal: Node, edges: Callable[[Node], Iterable[tuple[Node, Edge]]], skipped: Edge
) -> bool:
    """Whether ``start`` and ``goal`` stay joined without the edge ``skipped`` (``edges`` as for
    :func:`cut_edges`): the edge lies on a cycle.  Breadth first, as cycles are mostly short."""
    seen, todo = {start}, deque([start])
    while todo:
        node = todo.popleft()
        if node == goal:
            return True
        for other, edge in edges(node):
            if edge != skipped and other not in seen:
                seen.add(other)
                todo.append(other)
    return False


def groups_of(
    starts: Sequence[Node], neighbours: Callable[[Node], Iterable[Node]]
) -> tuple[list[int], dict[int, list[Node]]]:
    """Which of ``starts`` lie in the same connected group: each start's group (a number), and
    the members of every group but at most one.  It searches from every start at once, a node
    at a time from each search in turn, joins two searches where they meet, and stops when at
    most one is still growing: a search that runs out has found its whole group, and the last
    one need not be walked to its end.  On a large graph whose starts lie close together that
    is a few hundred nodes instead of all of them.  The group left open, if any, is the one
    number without members."""
    owner: dict[Node, int] = {}
    leader = list(range(len(starts)))  # the searches joined so far (union-find)

    def lead(search: int) -> int:
        while leader[search] != search:
            leader[search] = leader[leader[search]]
            search = leader[search]
        return search

    growing: dict[int, deque[Node]] = {}  # by the leader of each search still growing
    for search, start in enumerate(starts):
        if start in owner:
            leader[search] = lead(owner[start])
        else:
            owner[start] = search
            growing[search] = deque([start])
    while len(growing) > 1:
        for search in list(growing):
            todo = growing.get(search)
            if todo is None:
                continue  # joined to another in this turn
            node = todo.popleft()
            for other in neighbours(node):
                found = owner.get(other)
                if found is None:
                    owner[other] = search
                    todo.append(other)
                elif (met := lead(found)) != search:
                    # (the search met is still growing: one that ran out would have
                    # reached this node)
                    leader[met] = search
                    todo.extend(growing.pop(met))
            if not todo:
                del growing[search]
    group = [lead(search) for search in range(len(starts))]
    members: dict[int, list[Node]] = {number: [] for number in set(group) - set(growing)}
    for node, search in owner.items():
        number = lead(search)
        if number in members:
            members[number].append(node)
    return group, members


def joined_roots(
    edges: Iterable[tuple[int, int]], *, acyclic: bool = False
) -> dict[int, int] | None:
    """The groups that ``edges`` join, their nodes numbered, by union-find: each node joined to
    a smaller one, mapped to the least node of its group (a node not in the mapping is the
    least of its own).  With ``acyclic``, None as soon as an edge joins two nodes already joined
    (it closes a cycle).  For the few edges of a small question, asked many times: no graph is
    built."""
    parent: dict[int, int] = {}
    for a, b in edges:
        ra, rb = _root(parent, a), _root(parent, b)
        if ra == rb:
            if acyclic:
                return None
            continue
        parent[max(ra, rb)] = min(ra, rb)
    return {node: _root(parent, node) for node in parent}


def _root(parent: dict[int, int], node: int) -> int:
    """The least node of ``node``'s group, following ``parent``."""
    while node in parent:
        node = parent[node]
    return node
