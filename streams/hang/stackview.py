"""The ranks' stacks by similarity: the waiter group, the ranks that differ, and I/O evidence.

No list of communication frame names: in a hang the large group of ranks blocked at the
same point (identical stack, repeated ``frozen_samples`` times) are the waiters, wherever
they block (a collective call, ``synchronize``, ``.item()``, ``Work.wait``, a barrier, any
framework's frames); the fresh ranks whose stack differs from that group's are the source
candidates. I/O frames (``HangSettings.io_markers``) only serve to recognise a checkpoint.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from statistics import median

from streams.hang.settings import HangSettings
from streams.hang.state import JobState, StackRun, seconds


@dataclass(frozen=True)
class StackView:
    """Stacks at one evaluation: ``reporting`` fresh ranks; ``group`` the largest set of
    ranks frozen in one identical stack (empty if none is frozen); ``others`` the reporting
    ranks whose stack differs from the group's. A rank already in the group's stack but not
    frozen in it long enough (a waiter that arrived later) is in neither: its stack does not
    differ, and naming it would blame a waiter."""

    reporting: dict[int, StackRun]
    group: tuple[int, ...]
    others: tuple[int, ...]

    @property
    def group_sig(self) -> str | None:
        """The waiter group's stack, or None without a group."""
        return self.reporting[self.group[0]].sig if self.group else None

    @property
    def group_io(self) -> bool:
        """Whether the frozen group itself does checkpoint I/O (a synchronous all-rank save)."""
        return bool(self.group) and self.reporting[self.group[0]].io

    @property
    def others_io(self) -> bool:
        """Whether every rank outside the group does checkpoint I/O (a rank-0 writer)."""
        return bool(self.others) and all(self.reporting[r].io for r in self.others)

    @property
    def writing(self) -> bool:
        """Before any group has been frozen long enough to count: whether some ranks' latest
        stacks do checkpoint I/O and all the others' latest stacks are one and the same (a
        writer while the rest wait in one place). Slow stack sampling (one sample in 10 s
        takes a minute to freeze a group) must not leave a save unrecognised for that long."""
        if self.group:
            return False
        writers = [r for r, run in self.reporting.items() if run.io]
        waiting = {run.sig for run in self.reporting.values() if not run.io}
        return bool(writers) and len(waiting) <= 1

    def frozen_since(self) -> int | None:
        """When the group's identical stacks began (the latest start among its members)."""
        return max((self.reporting[r].start_us for r in self.group), default=None)


def step_floor_us(state: JobState, s: HangSettings) -> int:
    """``step_factor`` x the job's median step time, in microseconds (0 without steps)."""
    steps = state.run.step_ms
    return int(s.step_factor * median(steps) * 1000) if steps else 0


def stack_view(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int]) -> StackView:
    """Group the fresh stacks of the ranks not in ``excluded`` (ranks on silent nodes)."""
    fresh_after = now_us - seconds(s.stale_s)
    reporting = {r: run for r, run in state.run.stacks.items()
                 if r not in excluded and run.length > 0 and run.sig and run.last_us >= fresh_after}
    floor = step_floor_us(state, s)
    frozen = {r: run for r, run in reporting.items()
              if run.length >= s.frozen_samples and run.last_us - run.start_us >= floor}
    if not frozen:
        return StackView(reporting, (), tuple(sorted(reporting)))
    counts = Counter(run.sig for run in frozen.values())
    lowest = {sig: min(r for r, run in frozen.items() if run.sig == sig) for sig in counts}
    sig = max(counts, key=lambda k: (counts[k], -lowest[k]))  # ties: deterministic, not dict order
    group = tuple(sorted(r for r, run in frozen.items() if run.sig == sig))
    return StackView(reporting, group, tuple(sorted(r for r, run in reporting.items() if run.sig != sig)))
