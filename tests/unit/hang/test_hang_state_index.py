"""The node -> ranks index of a job's placement follows the placement wherever it comes from:
a new placement (restart onto other nodes), a state loaded from its dump, a fresh state."""

from __future__ import annotations

from streams.hang.state import JobState, dump_state, load_state


def test_ranks_of_a_node_follow_the_placement_when_it_is_replaced() -> None:
    state = JobState(placement={0: "a", 1: "a", 2: "b", 3: "b"})
    assert state.ranks_of("a") == (0, 1) and state.places("b") and not state.places("c")
    state.placement = {0: "c", 1: "b", 2: "c", 3: "b"}  # restarted without node a
    assert state.ranks_of("a") == () and not state.places("a")
    assert state.ranks_of("c") == (0, 2) and state.ranks_of("b") == (1, 3)


def test_ranks_are_in_rank_order_whatever_the_placement_order() -> None:
    state = JobState(placement={5: "n", 1: "n", 3: "m", 0: "n"})
    assert state.ranks_of("n") == (0, 1, 5) and state.ranks_of("m") == (3,)


def test_a_loaded_state_answers_like_the_one_dumped_and_compares_equal() -> None:
    state = JobState(job_id="j", placement={0: "a", 1: "b"})
    assert state.ranks_of("b") == (1,)  # the index is built: it must not leak into the dump or equality
    loaded = load_state(dump_state(state))
    assert loaded == state and dump_state(loaded) == dump_state(state)
    assert loaded.ranks_of("b") == (1,) and not JobState().places("a")
