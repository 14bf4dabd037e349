"""The classify detector: ``log_line`` events -> folded, escalated ``fault`` events.

State key: the message key of the input topic (``job_id`` on ``telemetry.log``, ``node_id``
on ``telemetry.kernel``). Within one state key, classified lines are folded into bursts
keyed by (node, GPU - PCI address or index, rule, Xid, job):

- the first line of a burst is published at once as a ``fault`` with ``count`` 1
  (detection latency matters: decisions act on it);
- repeats increment the burst's count, which counts reports, not lines: a line less than
  ``report_s`` after the line that began the burst's current report belongs to that report (a
  machine check prints its CPU/Bank, TSC/ADDR/MISC and decoder lines at once; an Xid's
  companion lines come with it), so the policy's lemon threshold, mcelog's 10 errors a day,
  counts errors; each time the count reaches a power of two (2, 4, 8,
  ...) the SAME ``fault_id`` is published again with the count so far and ``last_seen``: a
  burst that never falls quiet (a corrected error every 30 s all day) still shows its rate
  downstream (the policy's lemon-node count), at O(log n) events per burst;
- a burst closes when its key has been silent for more than ``quiet_s``: at the first later
  ``log_line`` of the same state key, at :meth:`ClassifyDetector.flush`, or when the
  open-burst cap forces out the least recently seen one. On closing, the SAME ``fault_id``
  is published again with the final ``count`` and ``last_seen`` - only if it folded lines
  since its last publication (a single-line burst's first event is already final).

Escalation: a job-blamed Xid (13/31/43/69 class) on one node whose burst is the
``escalation_bursts``-th within ``escalation_horizon_s`` is blamed on the node.

Pure: no I/O, no wall clock, unless no classifier is passed (then the knowledge base file is
read once, at construction).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from schemas import Event, Fault, LogLine, derived_id
from streams.classify.classifier import Classifier
from streams.classify.model import Blame, Classification
from streams.classify.settings import ClassifySettings

END_OF_INPUT = datetime.max.replace(tzinfo=UTC)
"""Pass as ``now`` to :meth:`ClassifyDetector.flush` at the end of a replay to close every burst."""


@dataclass(slots=True)
class Burst:
    """An open burst: its announced fault, how many lines it folded, and its latest line's time."""

    fault: Fault
    count: int
    last_seen: datetime
    issued: int = 1
    """The count of the burst's latest publication."""
    report_at: datetime | None = None
    """When the burst's current report began (its first line's time; ``None``: the burst's
    first line)."""


@dataclass(slots=True)
class ClassifyState:
    """Per-state-key memory: open bursts (insertion ordered) and recent job-blamed Xid bursts."""

    bursts: dict[str, Burst] = field(default_factory=dict)
    history: dict[str, list[datetime]] = field(default_factory=dict)
    sweep_after: datetime | None = None
    """No burst can be quiet long enough to close before this time (``None``: no bursts)."""


class ClassifyDetector:
    """The :class:`~streams.core.detector.Detector` of the classify stage (see module docstring)."""

    name = "classify"

    def __init__(self, settings: ClassifySettings | None = None, classifier: Classifier | None = None) -> None:
        self._settings = settings or ClassifySettings()
        self._classifier = classifier or _load_classifier(self._settings)
        self._quiet = timedelta(seconds=self._settings.quiet_s)
        self._horizon = timedelta(seconds=self._settings.escalation_horizon_s)

    @property
    def classifier(self) -> Classifier:
        """The classifier lines go through."""
        return self._classifier

    def initial(self) -> ClassifyState:
        """No open bursts, no history."""
        return ClassifyState()

    def step(self, state: ClassifyState, event: Event) -> tuple[ClassifyState, list[Event]]:
        """Fold one ``log_line``; other event kinds are ignored. Mutates and returns ``state``."""
        if not isinstance(event, LogLine):
            return state, []
        outputs: list[Event] = self._expire(state, event.event_time)
        found = self._classifier.classify(event.line, event.source)
        if found is None:
            return state, outputs
        key = burst_key(event, found)
        burst = state.bursts.get(key)
        if burst is not None:
            burst.last_seen = max(burst.last_seen, event.event_time)
            if self._same_report(burst, event.event_time):
                return state, outputs
            burst.count += 1
            burst.report_at = event.event_time
            if burst.count & (burst.count - 1) == 0:  # a power of two: the count so far goes out
                outputs.append(_reissue(burst))
            return state, outputs
        outputs.append(self._open(state, key, event, found))
        outputs += self._enforce_cap(state)
        return state, outputs

    def _same_report(self, burst: Burst, when: datetime) -> bool:
        """Whether a line at ``when`` belongs to the burst's current report."""
        began = burst.report_at or burst.fault.first_seen
        return abs((when - began).total_seconds()) < self._settings.report_s

    def flush(self, state: ClassifyState, now: datetime) -> tuple[ClassifyState, list[Event]]:
        """Close bursts silent for more than ``quiet_s`` as of event time ``now``.

        Streaming shells pass the partition watermark; replay passes :data:`END_OF_INPUT`
        to close everything. Idempotent: closed bursts are dropped, so a second call with
        the same ``now`` emits nothing.
        """
        return state, self._close_quiet(state, now)

    def dump(self, state: ClassifyState) -> dict[str, Any]:
        """JSON-ready state: bursts with their announced fault, and the escalation history."""
        return {
            "bursts": [
                {"key": k, "fault": b.fault.to_wire(), "count": b.count, "last_seen": b.last_seen.isoformat(),
                 "issued": b.issued, "report_at": b.report_at.isoformat() if b.report_at else None}
                for k, b in state.bursts.items()
            ],
            "history": {k: [t.isoformat() for t in times] for k, times in state.history.items()},
        }

    def load(self, data: dict[str, Any]) -> ClassifyState:
        """The state :meth:`dump` saved."""
        state = ClassifyState()
        for item in data.get("bursts", []):
            fault = Fault.model_validate(item["fault"])
            report = item.get("report_at")  # "issued" and "report_at" are absent from older states
            state.bursts[item["key"]] = Burst(fault, int(item["count"]), datetime.fromisoformat(item["last_seen"]),
                                              int(item.get("issued", 1)),
                                              datetime.fromisoformat(report) if report else None)
        for key, times in data.get("history", {}).items():
            state.history[key] = [datetime.fromisoformat(t) for t in times]
        state.sweep_after = _sweep_after(state, self._quiet)
        return state

    def _expire(self, state: ClassifyState, now: datetime) -> list[Event]:
        # Cheap test first: during a flood this runs once per line.
        if state.sweep_after is None or now <= state.sweep_after:
            return []
        return self._close_quiet(state, now)

    def _close_quiet(self, state: ClassifyState, now: datetime) -> list[Event]:
        quiet = [k for k, b in state.bursts.items() if now - b.last_seen > self._quiet]
        outputs: list[Event] = [out for k in quiet if (out := _close(state.bursts.pop(k))) is not None]
        state.sweep_after = _sweep_after(state, self._quiet)
        return outputs

    def _enforce_cap(self, state: ClassifyState) -> list[Event]:
        outputs: list[Event] = []
        while len(state.bursts) > self._settings.max_open_bursts:
            stalest = min(state.bursts, key=lambda k: state.bursts[k].last_seen)
            closed = _close(state.bursts.pop(stalest))
            if closed is not None:
                outputs.append(closed)
        return outputs

    def _open(self, state: ClassifyState, key: str, line: LogLine, found: Classification) -> Fault:
        first_seen = line.event_time
        blame, note = self._escalate(state, line, found)
        fault_id = derived_id(
            "fault", line.job_id or line.node_id, line.node_id, gpu_locator(found),
            found.rule_id, found.xid, line.job_id, first_seen,
        )
        evidence = line.line[: self._settings.evidence_max_chars] + note
        fault = Fault(
            event_id=fault_id, event_time=first_seen, cluster=line.cluster, fault_id=fault_id,
            node_id=line.node_id, job_id=line.job_id, rank=line.rank, category=found.category,
            family=found.family, level=found.level, blame=blame, explicit=True, xid=found.xid,
            rule_id=found.rule_id, evidence=evidence, first_seen=first_seen, count=1,
            last_seen=first_seen, gpu_index=found.gpu_index, gpu_pci=found.pci, action=found.action,
        )
        state.bursts[key] = Burst(fault, 1, first_seen)
        if state.sweep_after is None or first_seen + self._quiet < state.sweep_after:
            state.sweep_after = first_seen + self._quiet
        return fault

    def _escalate(self, state: ClassifyState, line: LogLine, found: Classification) -> tuple[Blame, str]:
        """The blame of a new burst, and a note for the evidence when it was raised to ``node``."""
        if found.xid is None or found.blame != "job" or line.node_id is None:
            return found.blame, ""
        recent = self._record(state, f"{line.node_id}|{found.xid}", line.event_time)
        if len(recent) < self._settings.escalation_bursts:
            return found.blame, ""
        horizon = self._settings.escalation_horizon_s
        return "node", f" [escalated to node: burst {len(recent)} of Xid {found.xid} on {line.node_id} within {horizon:g}s]"

    def _record(self, state: ClassifyState, key: str, when: datetime) -> list[datetime]:
        """This burst and the earlier ones of ``key`` within the horizon, oldest first.

        Only the last ``escalation_bursts - 1`` are kept: that is all the next decision needs.
        """
        recent = [t for t in state.history.get(key, []) if when - t <= self._horizon] + [when]
        state.history[key] = recent[-(self._settings.escalation_bursts - 1) :]
        self._cap_history(state)
        return recent

    def _cap_history(self, state: ClassifyState) -> None:
        while len(state.history) > self._settings.max_escalation_keys:
            stalest = min(state.history, key=lambda k: state.history[k][-1])
            del state.history[stalest]


def burst_key(line: LogLine, found: Classification) -> str:
    """The folding key: node, GPU locator, rule, Xid and job (unit separator joined)."""
    parts = (line.node_id, gpu_locator(found), found.rule_id, found.xid, line.job_id)
    return "\x1f".join("" if p is None else str(p) for p in parts)


def gpu_locator(found: Classification) -> str | None:
    """The PCI address if the line named one, else ``gpu<index>``, else ``None``."""
    if found.pci:
        return found.pci
    return f"gpu{found.gpu_index}" if found.gpu_index is not None else None


def _close(burst: Burst) -> Fault | None:
    """The re-issued fault with the final count, or ``None`` when nothing was folded since the
    burst's last publication."""
    return None if burst.count <= burst.issued else _reissue(burst)


def _reissue(burst: Burst) -> Fault:
    """The burst's fault again (same id) with its count and ``last_seen`` so far."""
    burst.issued = burst.count
    return burst.fault.model_copy(
        update={"count": burst.count, "last_seen": burst.last_seen, "event_time": burst.last_seen}
    )


def _sweep_after(state: ClassifyState, quiet: timedelta) -> datetime | None:
    if not state.bursts:
        return None
    return min(b.last_seen for b in state.bursts.values()) + quiet


def _load_classifier(settings: ClassifySettings) -> Classifier:
    # Imported here so the pure core does not import the YAML loader unless asked to.
    from streams.classify.kb import load_kb
    from streams.classify.learned import load_learned

    learned = load_learned(settings.learned_path) if settings.learned else None
    return Classifier(load_kb(settings.kb_path), learned)
