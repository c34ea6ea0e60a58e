"""The graph algorithms against plain oracles: which starts share a connected group, found by
searching from all of them at once, and the groups a few edges join by union-find, against the
groups found whole."""

from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_asp.graphs import connected_groups, groups_of, joined_roots

graphs = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
        st.lists(st.integers(0, n - 1), min_size=1, max_size=n),
    )
)


def neighbours(n: int, edges) -> dict[int, list[int]]:
    """Each of the nodes 0 .. n-1 and the nodes an edge joins it to."""
    near: dict[int, list[int]] = {node: [] for node in range(n)}
    for a, b in edges:
        near[a].append(b)
        near[b].append(a)
    return near


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_groups_of_the_starts_are_the_connected_groups_they_lie_in(graph):
    n, edges, starts = graph
    near = neighbours(n, edges)
    whole = connected_groups(range(n), near.__getitem__)
    where = {node: place for place, group in enumerate(whole) for node in group}
    numbers, members = groups_of(starts, near.__getitem__)
    for a, first in zip(starts, numbers):
        for b, second in zip(starts, numbers):
            assert (first == second) == (where[a] == where[b])
    # Every group but at most one is given whole, and the one left open has a start in it.
    assert set(members) <= set(numbers) and len(set(numbers) - set(members)) <= 1
    for number, group in members.items():
        assert sorted(group) == whole[where[starts[numbers.index(number)]]]


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_joined_roots_are_the_least_nodes_of_the_connected_groups(graph):
    n, edges, _ = graph
    near = neighbours(n, edges)
    whole = connected_groups(range(n), near.__getitem__)
    roots = joined_roots(edges)
    assert roots is not None
    for group in whole:
        assert all(roots.get(node, node) == group[0] for node in group)
    # Acyclic: refused exactly when the edges hold a cycle (more edges than a forest has).
    forest = n - len(whole)
    assert (joined_roots(edges, acyclic=True) is None) == (len(edges) > forest)
