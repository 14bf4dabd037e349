"""The peers' median change computed in level order equals the one of the listed peers."""

from __future__ import annotations

import random

from streams.slow.peers import median_without, shared_changes
from streams.slow.robust import median
from streams.slow.scoring import peer_groups


def _by_listing(changes: dict[str, float], levels: dict[str, float], band: float, least: int,
                whole_job: bool) -> dict[str, float]:
    """The definition: list each node's peers (:func:`peer_groups`, or the whole job), take
    the median of those with a change."""
    groups = {n: [m for m in levels if m != n] for n in levels} if whole_job else peer_groups(levels, band, least)
    out = {}
    for node in changes:
        peers = [changes[m] for m in groups[node] if m in changes]
        out[node] = median(peers) if peers else 1.0
    return out


def test_median_without_leaves_one_occurrence_out() -> None:
    assert median_without([1.0, 2.0, 2.0, 7.0], 2.0) == median([1.0, 2.0, 7.0])
    assert median_without([1.0, 3.0, 4.0], 1.0) == median([3.0, 4.0])
    assert median_without([5.0], 5.0) is None


def test_sliding_peers_match_the_listed_peers_on_random_jobs() -> None:
    rng = random.Random(16)
    for trial in range(400):
        nodes = [f"n{i}" for i in range(rng.randrange(1, 40))]
        pool = [rng.choice([-2.0, 0.0, 100.0, 101.0, 150.0]) for _ in range(3)]
        levels = {n: rng.choice(pool) * rng.choice([1.0, 1.0, 1.05, 1.2]) for n in nodes}
        warm = [n for n in nodes if rng.random() < 0.8]
        changes = {n: rng.choice([1.0, 1.0, 0.9, 1.3, round(rng.uniform(0.5, 2.0), 2)]) for n in warm}
        band, least = rng.choice([0.05, 0.1, 0.3]), rng.randrange(0, 5)
        for whole_job in (False, True):
            expected = _by_listing(changes, levels, band, least, whole_job)
            assert shared_changes(changes, levels, band, least, whole_job, 1.0) == expected, trial
