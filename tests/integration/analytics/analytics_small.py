"""A small fleet history whose every figure can be checked by hand (see the expected values).

Job ``A`` (cluster c1, 8 GPUs), 2026-11-20 22:00 -> 2026-11-21 04:30 (6.5 h):
  attempt 0: queue 22:00-23:00, init 23:00-23:30, productive 23:30-01:30 (crosses midnight),
             detection 01:30-01:40 (cause: hang verdict V1 on node n1),
             scheduling 01:40-02:00 (cause: decision D1, replace_nodes n1, reason hang)
  attempt 1: init 02:00-02:10, recompute 02:10-02:30, productive 02:30-04:00, idle 04:00-04:30
Job ``B`` (cluster c2, 16 GPUs), 2026-11-21 10:00 -> 18:05:
  attempt 0: queue 10:00-10:30, init 10:30-11:00, productive 11:00-13:00, checkpoint 13:00-13:06,
             productive 13:06-14:00, detection 14:00-14:01 (cause: fault F1, node n9, blame node),
             scheduling 14:01-14:30 (cause: decision D2, replace_nodes n9)
  attempt 1: scheduling 14:30-15:00 (resubmitted), init 15:00-15:15, recompute 15:15-16:09,
             productive 16:09-18:00, detection 18:00-18:05 (cause: incident I1, cuda_oom, blame job)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from schemas import EttInterval, Event
from tests.bench.ett_history import decision, fault, incident, interval, verdict

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _t(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC)


def _job_a() -> list[Event]:
    def iv(attempt: int, kind: str, start: datetime, end: datetime, cause: str | None = None) -> Event:
        return interval("A", attempt, kind, start, end, gpus=8, cluster="c1", cause_id=cause)
    return [
        iv(0, "scheduling", _t(20, 22), _t(20, 23)),
        iv(0, "initialization", _t(20, 23), _t(20, 23, 30)),
        iv(0, "productive", _t(20, 23, 30), _t(21, 1, 30)),
        iv(0, "detection", _t(21, 1, 30), _t(21, 1, 40), "V1"),
        iv(0, "scheduling", _t(21, 1, 40), _t(21, 2), "D1"),
        iv(1, "initialization", _t(21, 2), _t(21, 2, 10)),
        iv(1, "recompute", _t(21, 2, 10), _t(21, 2, 30)),
        iv(1, "productive", _t(21, 2, 30), _t(21, 4)),
        iv(1, "idle", _t(21, 4), _t(21, 4, 30)),
        verdict("V1", job="A", attempt=0, onset=_t(21, 1, 30), detected=_t(21, 1, 40), nodes=("n1",), cluster="c1"),
        decision("D1", job="A", attempt=0, at=_t(21, 1, 40), action="replace_nodes", nodes=("n1",),
                 reason_kind="hang", category=None, causes=("V1",), cluster="c1"),
    ]


def _job_b() -> list[Event]:
    def iv(attempt: int, kind: str, start: datetime, end: datetime, cause: str | None = None) -> Event:
        return interval("B", attempt, kind, start, end, gpus=16, cluster="c2", cause_id=cause)
    return [
        iv(0, "scheduling", _t(21, 10), _t(21, 10, 30)),
        iv(0, "initialization", _t(21, 10, 30), _t(21, 11)),
        iv(0, "productive", _t(21, 11), _t(21, 13)),
        iv(0, "checkpoint", _t(21, 13), _t(21, 13, 6)),
        iv(0, "productive", _t(21, 13, 6), _t(21, 14)),
        iv(0, "detection", _t(21, 14), _t(21, 14, 1), "F1"),
        iv(0, "scheduling", _t(21, 14, 1), _t(21, 14, 30), "D2"),
        iv(1, "scheduling", _t(21, 14, 30), _t(21, 15)),
        iv(1, "initialization", _t(21, 15), _t(21, 15, 15)),
        iv(1, "recompute", _t(21, 15, 15), _t(21, 16, 9)),
        iv(1, "productive", _t(21, 16, 9), _t(21, 18)),
        iv(1, "detection", _t(21, 18), _t(21, 18, 5), "I1"),
        fault("F1", job="B", attempt=0, node="n9", category="gpu_fallen_off_bus", blame="node", at=_t(21, 14),
              cluster="c2"),
        decision("D2", job="B", attempt=0, at=_t(21, 14, 1), action="replace_nodes", nodes=("n9",),
                 reason_kind="explicit_fault", category="gpu_fallen_off_bus", causes=("F1",), cluster="c2"),
        incident("I1", job="B", attempt=1, root=None, category="cuda_oom", blame="job", nodes=(),
                 at=_t(21, 18), cluster="c2"),
    ]


def small_history() -> list[Event]:
    """The rows of jobs A and B (intervals and the causes they name)."""
    return _job_a() + _job_b()


def split_on_grid(events: list[Event], minutes: int = 15) -> list[Event]:
    """``events`` with every interval cut at multiples of ``minutes`` of epoch time, as the ETT stage
    emits them (``split_every_s``); sums, and so every figure but interval counts, must not change."""
    out: list[Event] = []
    for event in events:
        if not isinstance(event, EttInterval):
            out.append(event)
            continue
        start = event.start
        while start < event.end:
            grid = timedelta(minutes=minutes)
            cut = min(event.end, EPOCH + ((start - EPOCH) // grid + 1) * grid)
            out.append(interval(event.job_id, event.attempt, event.kind, start, cut, gpus=event.gpus or 0,
                                cluster=event.cluster, cause_id=event.cause_id))
            start = cut
    return out
