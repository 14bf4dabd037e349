"""What the detector remembers about one node of a job across windows.

Per metric: the node's baseline (its positions among the job in recent *normal* windows, at most
``baseline_windows``) and its recent verdicts (the last ``span`` evaluated windows, each as
window start and suspect flag). Per node: the open episode, if any. A window in which a node
is suspect, or in which the node has an open episode, never feeds its baseline: an emerging
straggler must not teach the detector that slow is normal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Episode:
    """An open slow-node episode: its id, start (epoch seconds), metric and quiet-window count."""

    outlier_id: str
    start: float
    metric: str
    quiet: int = 0


@dataclass
class NodeTrack:
    """Baselines, recent verdicts and the open episode of one node."""

    baselines: dict[str, list[float]] = field(default_factory=dict)
    levels: dict[str, list[float]] = field(default_factory=dict)
    verdicts: dict[str, list[tuple[float, bool]]] = field(default_factory=dict)
    episode: Episode | None = None
    suspect_now: set[str] = field(default_factory=set)
    scores: dict[str, float] = field(default_factory=dict)

    def history(self, metric: str) -> list[float]:
        """The node's recent normal positions of ``metric`` (oldest first)."""
        return self.baselines.get(metric, [])

    def level(self, metric: str) -> list[float]:
        """The node's recent raw values of ``metric`` in normal windows (oldest first)."""
        return self.levels.get(metric, [])

    def learn(self, metric: str, dev: float, value: float, keep: int) -> None:
        """Add a normal window's deviation and raw value to the baselines (newest ``keep``).

        Values are kept to 4 significant digits (far finer than any threshold) so the saved
        state stays small and ``load(dump(state))`` holds exactly the same numbers."""
        for store, item in ((self.baselines, dev), (self.levels, value)):
            hist = store.setdefault(metric, [])
            hist.append(float(f"{item:.4g}"))
            del hist[:-keep]

    def record(self, metric: str, start: float, suspect: bool, span: int) -> None:
        """Remember this window's verdict for ``metric``, keeping the last ``span``."""
        verdicts = self.verdicts.setdefault(metric, [])
        verdicts.append((start, suspect))
        del verdicts[:-span]
        if suspect:
            self.suspect_now.add(metric)

    def suspect_count(self, metric: str) -> int:
        """How many of the remembered windows of ``metric`` were suspect."""
        return sum(1 for _, s in self.verdicts.get(metric, []) if s)

    def first_suspect(self, metric: str) -> float:
        """Start of the earliest remembered suspect window of ``metric`` (episode start)."""
        return min(t for t, s in self.verdicts.get(metric, []) if s)

    def streak(self, metric: str) -> int:
        """Windows from the earliest remembered suspect one to the newest (``windows`` field)."""
        verdicts = self.verdicts.get(metric, [])
        first = self.first_suspect(metric)
        return sum(1 for t, _ in verdicts if t >= first)

    def restarted(self) -> NodeTrack:
        """The same node after a restart in place: levels and baselines, nothing else."""
        return NodeTrack(baselines={m: list(v) for m, v in self.baselines.items()},
                         levels={m: list(v) for m, v in self.levels.items()})

    def forget_verdicts(self) -> None:
        """Drop recent verdicts (an episode ended: the next one starts from scratch)."""
        self.verdicts.clear()

    def dump(self) -> dict[str, Any]:
        """JSON-ready form; ``suspect_now`` and ``scores`` are per-window scratch, not saved."""
        ep = self.episode
        return {
            "baselines": {m: list(v) for m, v in self.baselines.items()},
            "levels": {m: list(v) for m, v in self.levels.items()},
            "verdicts": {m: [[t, s] for t, s in v] for m, v in self.verdicts.items()},
            "episode": None if ep is None else [ep.outlier_id, ep.start, ep.metric, ep.quiet],
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> NodeTrack:
        """Inverse of :meth:`dump`."""
        ep = data["episode"]
        return cls(
            baselines={m: [float(x) for x in v] for m, v in data["baselines"].items()},
            levels={m: [float(x) for x in v] for m, v in data["levels"].items()},
            verdicts={m: [(float(t), bool(s)) for t, s in v] for m, v in data["verdicts"].items()},
            episode=None if ep is None else Episode(
                str(ep[0]), float(ep[1]), str(ep[2]), int(ep[3])
            ),
        )
