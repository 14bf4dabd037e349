"""The decision oracle of the decision fleets (brief D2), written from the public contract only.

Sources: /work/shared/design/TAXONOMY.md ("Recommended action and corrected errors",
"Incidents", "Restart policy"), EVENTS.md (``decision``) and the NVIDIA Xid catalog's
resolution buckets. Nothing here was taken from the policy code or its tests.

A :class:`Situation` says, for one job of a fleet, which decisions the contract REQUIRES
(:class:`Need`) and which it FORBIDS; :func:`score` compares the pipeline's decisions with it.

Forbidden (a violation, counted):
- ``destructive_on_healthy``: ``replace_nodes``, ``drain_reboot_nodes``, ``restart_in_place``,
  ``stop_job`` or ``resubmit_job`` on a job the contract gives no cause to touch (healthy jobs,
  look-alikes, corrected/contained errors only: "they never take a node away on their own").
- ``wrong_node``: a node action naming a node that is not the situation's culprit (a cascade
  peer, a healthy node, a replaced node).
- ``node_action_not_in_policy``: a node action in a situation whose row names no node action
  (fabric-wide fault, hang with no single source, the job's own code).
- ``stop_without_repeat``: ``stop_job`` without "the same job-blamed root cause in two
  consecutive attempts".
- ``resubmit_without_failed_restart``: ``resubmit_job`` outside "a restart_in_place did not bring
  the job back to progress".
- ``checkpoint_unhonourable``: ``checkpoint_now`` "for a hang, a lost GPU or a job that already
  failed".
- ``wrong_scope``: a required node action with another ``block_scope`` than its row says
  (explicit node faults: ``cluster``; implicit, hang source or slow node: ``task``).

Missing (a violation, counted): a :class:`Need` no decision of the job satisfies, unless a guard
refused it and the job got the fallback the contract promises ("restart_in_place, or
resubmit_job after a failed restart, plus notify"): that is reported as ``guarded``.

- ``cascade_drove_decision`` (added in the second commit, after the first run): an explicit-fault
  decision whose reason category is a cascade category ("typical consequences on other ranks
  (``nccl_error``, ``nccl_timeout``, ``torch_elastic``, ``process_exit_nonzero``, ``process_killed``,
  CUDA errors on peers) are its cascade and never drive a decision alone"), except in a fabric
  fault (``cascade_is_evidence``: NCCL errors on many nodes are the fabric row's own evidence).

Added by brief D3 (round 3, written blind): ``action_forbidden_by_row`` (forbidden: an action the
situation's row rules out although a culprit exists, e.g. replacing a lemon node, which is only
drained), ``refusal_without_fallback`` (missing: a guard refused a required node action and the
job did not get "the strongest job-wide action that removes no node ... plus notify"; a refusal
with the fallback but no ``notify`` is no longer ``guarded``), and the doubts
``destructive_on_unlisted_evidence`` (a destructive decision on evidence the contract does not
list, e.g. a non-fatal NVLink error) and ``job_guard_not_scaled`` / ``job_guard_absent`` (the
per-job guard against "at most N nodes (or P%, scaled to the job's size)").

Reported, not counted: ``doubt`` (the contract is ambiguous; see D2_findings.md), ``extra`` (a decision the contract neither requires nor forbids, e.g.
``notify`` anywhere, ``restart_in_place`` after a job failed of an explicit node fault).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]
NODE_ACTIONS = frozenset({"replace_nodes", "drain_reboot_nodes"})
JOB_DESTRUCTIVE = frozenset({"restart_in_place", "stop_job", "resubmit_job"})
CASCADE = frozenset({"nccl_error", "nccl_timeout", "nccl_remote_peer", "torch_elastic", "process_exit_nonzero",
                     "process_killed"})


@dataclass(frozen=True)
class Need:
    """A decision the contract requires: ``action`` naming ``nodes`` (all of them) with
    ``scope`` (None: any), in ``attempt`` (None: any), and the contract row it comes from."""

    action: str
    rule: str
    nodes: frozenset[str] = frozenset()
    scope: str | None = None
    attempt: int | None = None


@dataclass
class Situation:
    """What the contract allows and requires for one job of a fleet.

    ``healthy``: no cause to touch the job at all. ``culprits``: the only nodes a node action
    may name (empty: no node action is in the policy row). ``stop_attempts`` /
    ``resubmit_attempts``: attempts in which ``stop_job`` / ``resubmit_job`` are allowed.
    ``no_checkpoint``: event-time intervals ``[start, end)`` in which a ``checkpoint_now`` cannot be
    honoured (a hang, a lost GPU, a failed attempt until the next one runs); ``checkpoint_doubt``:
    intervals in which it is a doubt (a fatal Xid other than 79 whose rank dies within seconds,
    before the job is reported failed).
    """

    name: str
    job_id: str
    variant: str
    nodes: int
    healthy: bool = False
    culprits: frozenset[str] = frozenset()
    needs: list[Need] = field(default_factory=list)
    stop_attempts: frozenset[int] = frozenset()
    resubmit_attempts: frozenset[int] = frozenset()
    no_checkpoint: list[tuple[str, str]] = field(default_factory=list)
    checkpoint_doubt: list[tuple[str, str]] = field(default_factory=list)
    cascade_is_evidence: bool = False
    """NCCL errors on many nodes are the fabric row's own evidence (a switch fault)."""
    forbid: frozenset[str] = frozenset()
    """Actions the situation's row rules out although a culprit exists (brief D3: a lemon node gets
    ``drain_reboot_nodes`` + ``notify``, nothing that takes it from the running job)."""
    destructive_doubt: bool = False
    """The contract names no cause to touch this job, but the evidence is not one of its listed
    corrected errors either: a destructive decision is a ``doubt``, not a violation."""
    broken: bool = True
    """False when the job itself is fine (a lemon node under a running job): a refused node action
    then owes only ``notify`` ('a refusal never leaves a *broken* job alone'); a job-wide fallback
    would be destructive."""
    guard_scale: tuple[int, int] | None = None
    """(nodes in the job, nodes the job loses in the hour) when the situation probes the per-job
    guard ('at most N nodes (or P%, scaled to the job's size) ... per job per hour'); N and P are
    configurable, so what the guard did is reported as a ``doubt`` only."""
    events: list[str] = field(default_factory=list)
    """Summaries of the injected events that should drive (or must not drive) a decision."""

    def to_dict(self) -> Json:
        """A JSON-ready view."""
        return {"name": self.name, "job_id": self.job_id, "variant": self.variant, "nodes": self.nodes,
                "healthy": self.healthy, "culprits": sorted(self.culprits),
                "needs": [{"action": n.action, "nodes": sorted(n.nodes), "scope": n.scope, "attempt": n.attempt,
                           "rule": n.rule} for n in self.needs],
                "stop_attempts": sorted(self.stop_attempts), "resubmit_attempts": sorted(self.resubmit_attempts),
                "no_checkpoint": self.no_checkpoint, "checkpoint_doubt": self.checkpoint_doubt, "events": self.events,
                "forbid": sorted(self.forbid), "destructive_doubt": self.destructive_doubt, "broken": self.broken, "guard_scale": self.guard_scale}


@dataclass(frozen=True)
class Finding:
    """One verdict on one job: ``kind`` is ``forbidden``, ``missing``, ``guarded``, ``doubt`` or ``extra``."""

    kind: str
    cause: str
    situation: str
    job_id: str
    detail: str
    decision: Json | None = None


def _refused(d: Json) -> bool:
    guard = d.get("guard")
    return bool(guard and guard.get("refused"))


def _summary(d: Json) -> str:
    return (f"{d['action']} nodes={d.get('nodes')} scope={d.get('block_scope')} attempt={d.get('attempt')} "
            f"rule={d.get('policy_rule')} at={d.get('issued_at')} reason={(d.get('reason') or {}).get('summary')}")


def _forbidden(s: Situation, d: Json) -> tuple[str, str] | None:
    """(cause, detail) when decision ``d`` is forbidden for ``s``; None when allowed."""
    action = d["action"]
    if action in s.forbid:
        return "action_forbidden_by_row", f"{action}: the situation's row rules it out ({sorted(s.forbid)})"
    if s.healthy and (action in NODE_ACTIONS or action in JOB_DESTRUCTIVE):
        return "destructive_on_healthy", "TAXONOMY: corrected/contained errors 'never take a node away on their own'; no policy row applies"
    if action in NODE_ACTIONS:
        if not s.culprits:
            return "node_action_not_in_policy", "the situation's policy row names no node action"
        wrong = sorted(set(d.get("nodes") or []) - s.culprits)
        if wrong:
            return "wrong_node", f"names {wrong}; only {sorted(s.culprits)} are at fault"
    if action == "stop_job" and d.get("attempt") not in s.stop_attempts:
        return "stop_without_repeat", "'the same job-blamed root cause in two consecutive attempts' -> stop_job"
    if action == "resubmit_job" and d.get("attempt") not in s.resubmit_attempts:
        return "resubmit_without_failed_restart", "'a restart_in_place did not bring the job back to progress' -> resubmit_job"
    if action == "checkpoint_now" and _within(d["issued_at"], s.no_checkpoint):
        return "checkpoint_unhonourable", "checkpoint_now: 'never for a hang, a lost GPU or a job that already failed'"
    reason = d.get("reason") or {}
    if not s.cascade_is_evidence and reason.get("kind") == "explicit_fault" and reason.get("category") in CASCADE:
        return "cascade_drove_decision", "cascade faults 'never drive a decision alone' (TAXONOMY.md, Incidents)"
    return None


def _within(t: str, spans: list[tuple[str, str]]) -> bool:
    return any(a <= t < b for a, b in spans)


def _doubt(s: Situation, d: Json) -> str | None:
    if d["action"] == "checkpoint_now" and _within(d["issued_at"], s.checkpoint_doubt):
        return "checkpoint_on_fatal_xid"
    if s.destructive_doubt and (d["action"] in NODE_ACTIONS or d["action"] in JOB_DESTRUCTIVE):
        return "destructive_on_unlisted_evidence"
    return None


def _satisfies(d: Json, need: Need) -> bool:
    if d["action"] != need.action or (need.attempt is not None and d.get("attempt") != need.attempt):
        return False
    return need.nodes <= set(d.get("nodes") or [])


def _need_verdict(s: Situation, need: Need, decisions: Sequence[Json]) -> Finding | None:
    label = f"{need.action} {sorted(need.nodes)} attempt={need.attempt}"
    done = [d for d in decisions if _satisfies(d, need) and not _refused(d)]
    if done:
        if need.scope and all(d.get("block_scope") != need.scope for d in done):
            return Finding("forbidden", "wrong_scope", s.name, s.job_id,
                           f"{label}: block_scope {done[0].get('block_scope')}, the row says {need.scope} ({need.rule})",
                           done[0])
        return None
    refused = [d for d in decisions if _satisfies(d, need) and _refused(d)]
    done_actions = {d["action"] for d in decisions if not _refused(d)}
    fallback = done_actions & {"restart_in_place", "resubmit_job"}
    if refused and "notify" in done_actions and (fallback or not s.broken):
        return Finding("guarded", "guard_refused_with_fallback", s.name, s.job_id,
                       f"{label} refused by {refused[0].get('guard')}; fallback {sorted(fallback)} + notify", refused[0])
    if refused:
        return Finding("missing", "refusal_without_fallback", s.name, s.job_id,
                       f"{label} refused by {refused[0].get('guard')}; got {sorted(done_actions)}: a refusal owes "
                       "'the strongest job-wide action that removes no node (restart_in_place, or resubmit_job after a "
                       "failed restart) plus notify'", refused[0])
    return Finding("missing", f"missing_{need.action}", s.name, s.job_id, f"{label} required: {need.rule}")


def score(s: Situation, decisions: Sequence[Json]) -> list[Finding]:
    """Every verdict on the job of ``s`` given its decisions (in output order)."""
    findings: list[Finding] = []
    for d in decisions:
        bad = None if _refused(d) else _forbidden(s, d)
        doubt = None if bad is not None or _refused(d) else _doubt(s, d)
        if doubt is not None:
            findings.append(Finding("doubt", doubt, s.name, s.job_id, _summary(d), d))
        elif bad is not None:
            findings.append(Finding("forbidden", bad[0], s.name, s.job_id, f"{_summary(d)} :: {bad[1]}", d))
        elif not _refused(d) and not any(_satisfies(d, n) for n in s.needs) and d["action"] != "notify":
            findings.append(Finding("extra", f"extra_{d['action']}", s.name, s.job_id, _summary(d), d))
    findings += [f for f in (_need_verdict(s, n, decisions) for n in s.needs) if f is not None]
    findings += _order(s, decisions)
    findings += _guard_scale(s, decisions)
    return findings


def _guard_scale(s: Situation, decisions: Sequence[Json]) -> list[Finding]:
    """Doubts on the per-job guard: a big job (>= 16 nodes) refused for losing at most 2 nodes
    (<= 12.5 %: the limit does not scale with the job), or a small job that lost half its nodes
    or more in the hour without any refusal (no per-job limit at all)."""
    if s.guard_scale is None:
        return []
    size, lost = s.guard_scale
    job_refusals = [d for d in decisions if _refused(d) and d["action"] in NODE_ACTIONS
                    and "job" in str((d.get("guard") or {}).get("rule", ""))]
    blocked = {n for d in decisions if d["action"] == "replace_nodes" and not _refused(d) for n in d.get("nodes") or []}
    if size >= 16 and lost <= 2 and job_refusals:
        return [Finding("doubt", "job_guard_not_scaled", s.name, s.job_id,
                        f"{size}-node job lost {lost} nodes; refused {_summary(job_refusals[0])}", job_refusals[0])]
    if size <= 4 and len(blocked) * 2 >= size and len(blocked) >= 2 and not any(_refused(d) for d in decisions):
        return [Finding("doubt", "job_guard_absent", s.name, s.job_id,
                        f"{size}-node job: {sorted(blocked)} blocked within the hour, nothing refused")]
    return []


def _order(s: Situation, decisions: Sequence[Json]) -> list[Finding]:
    """'checkpoint_now first (triggered checkpoint), then the action below': a checkpoint_now
    issued after the node action of the same attempt is out of order."""
    out = []
    for i, d in enumerate(decisions):
        if d["action"] != "checkpoint_now":
            continue
        before = [e for e in decisions[:i] if e["action"] in NODE_ACTIONS and e.get("attempt") == d.get("attempt")
                  and e["issued_at"] < d["issued_at"]]
        if before:
            out.append(Finding("forbidden", "checkpoint_after_action", s.name, s.job_id,
                               f"checkpoint_now at {d['issued_at']} after {before[0]['action']} at {before[0]['issued_at']}", d))
    return out
