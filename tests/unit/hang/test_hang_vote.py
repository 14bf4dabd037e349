"""The vote: K of 4, one verdict per episode, deterministic ids, attempts."""

from __future__ import annotations

from hang_kit import Episode, Job, at, lifecycle, run, stream, verdicts, votes

from schemas import derived_id
from streams.hang import HangSettings

JOB = Job()


def test_healthy_job_votes_every_eval_and_never_hangs() -> None:
    out = run(stream(JOB, 900))
    vs = votes(out)
    assert len(vs) >= (900 - 15) // 5 - 2
    assert all(not v.hang and v.votes == 0 for v in vs)
    ends = [v.window_end for v in vs]
    assert all((b - a).total_seconds() == 5 for a, b in zip(ends, ends[1:], strict=False))
    assert not verdicts(out)


def test_hang_gives_one_verdict_within_a_minute_with_onset() -> None:
    out = run(stream(JOB, 1200, (Episode("hang", 400, sources=(2,)),)))
    (verdict,) = verdicts(out)
    assert (verdict.detected_at - at(400)).total_seconds() <= 60
    assert abs((verdict.onset_time - at(400)).total_seconds()) <= 5
    assert verdict.event_id == verdict.verdict_id
    assert verdict.verdict_id == derived_id("hang_verdict", JOB.job_id, 0, verdict.onset_time)
    assert sum(1 for v in votes(out) if v.hang) > 100  # votes keep saying hang, verdict once


def test_vote_ids_are_deterministic_and_unique() -> None:
    events = stream(JOB, 600, (Episode("hang", 300, sources=(2,)),))
    first, second = run(events), run(events)
    assert [e.event_id for e in first] == [e.event_id for e in second]
    assert len({e.event_id for e in first}) == len(first)
    vote = votes(first)[0]
    assert vote.event_id == derived_id("hang_vote", JOB.job_id, 0, vote.window_end)


def test_k_controls_the_vote() -> None:
    events = stream(JOB, 700, (Episode("hang", 300, sources=(2,)),))
    (two,) = verdicts(run(events, HangSettings(k=2)))
    (four,) = verdicts(run(events, HangSettings(k=4)))
    assert four.detected_at > two.detected_at  # waits for the 45 s log silence too
    assert all(getattr(four.signals, n) for n in ("log_silent", "metrics_idle", "stacks_frozen"))
    never = run(events, HangSettings(k=4, log_silence_s=10_000))
    assert not verdicts(never)  # log silence can never vote: at most 3 of 4


def test_progress_closes_the_episode_and_a_second_hang_gets_a_new_verdict() -> None:
    eps = (Episode("hang", 300, 450, sources=(2,)), Episode("hang", 700, sources=(6,)))
    found = verdicts(run(stream(JOB, 1000, eps)))
    assert len(found) == 2
    assert found[0].verdict_id != found[1].verdict_id
    assert found[1].source_nodes == (JOB.node(6),)


def test_new_attempt_resets_and_allows_a_new_verdict() -> None:
    first = stream(JOB, 600, (Episode("hang", 300, sources=(2,)),))
    job1 = Job(attempt=1)
    restart = [lifecycle(job1, "restarting", 600)]
    second = [e for e in stream(job1, 1300, (Episode("hang", 1000, sources=(3,)),), start_s=600)
              if not (e.KIND == "job_event" and e.event_time == at(600))]
    found = verdicts(run(first + restart + second))
    assert [v.attempt for v in found] == [0, 1]
    assert found[1].source_ranks == (3,)


def test_terminal_job_is_not_voted_on() -> None:
    events = stream(JOB, 300) + [lifecycle(JOB, "finished", 300)]
    events += [e for e in stream(JOB, 900) if e.event_time > at(300) and e.KIND == "gpu_sample"]
    out = run(sorted(events, key=lambda e: e.event_time))
    assert max(v.window_end for v in votes(out)) <= at(305)
    assert not verdicts(out)
