"""The situations of the decision fleets (briefs D2, D3): one job each, with the contract's verdict.

Every builder takes a :class:`Slot` (where and how big the job is, its seeded generator) and
returns the job's events (:class:`~tests.bench.fleet_jobs.JobRun`) and its
:class:`~tests.bench.fleet_oracle.Situation`. The expectations quote TAXONOMY.md's restart
policy table. Those of the first commit were written before reading the policy code (brief D2,
blindness rules); ``preempted``, ``user_nonconsecutive``, ``cascade_then_user`` and ``nic_counters``
were added after reading it, their expectations still taken from the contract text only.
Times are seconds after the job's simulated start; every run lasts ``DURATION_S``.

The families live in their own modules: ``healthy`` (healthy jobs and look-alikes), ``hardware``
(node and network faults), ``jobs`` (the job's own errors and restarts), ``hangs`` (hangs and slow
nodes); ``base`` holds what they share. Round 3 (brief D3, written blind): ``node_faults`` and
``host_and_stalls``, with ``round3_base``.
"""

from __future__ import annotations

from tests.bench.fleet_situations.base import Builder, Slot
from tests.bench.fleet_situations.hangs import hang_single, hang_spread, slow
from tests.bench.fleet_situations.hardware import fabric, hw_fault, nic_counters, nic_local, two_hw
from tests.bench.fleet_situations.healthy import (
    corrected,
    healthy,
    lookalike_eval,
    lookalike_mixed,
    lookalike_pipeline,
    preempted,
)
from tests.bench.fleet_situations.host_and_stalls import (
    checkpoint_futile,
    checkpoint_opportunity,
    hang_async_checkpoint,
    hang_one_node,
    host_oom,
    lockup,
    lockup_benign,
    node_storm,
    storage_checkpoint,
)
from tests.bench.fleet_situations.jobs import (
    cascade_then_user,
    failed_restart,
    oom,
    user_different,
    user_nonconsecutive,
    user_once,
    user_repeat,
)
from tests.bench.fleet_situations.node_faults import (
    engine_xid_once,
    flapping,
    gsp,
    hca,
    lemon,
    nvlink,
    nvlink_nonfatal,
    skewed_clock,
    xid154,
)

__all__ = ["ROUND3", "SITUATIONS", "SUPPLEMENT", "Builder", "Slot"]

SITUATIONS: dict[str, tuple[Builder, int]] = {
    "healthy": (healthy, 1), "lookalike_eval": (lookalike_eval, 1), "lookalike_pipeline": (lookalike_pipeline, 4),
    "lookalike_mixed": (lookalike_mixed, 6), "corrected": (corrected, 1), "hw_fault": (hw_fault, 2),
    "nic_local": (nic_local, 2), "fabric": (fabric, 4), "user_once": (user_once, 1), "user_repeat": (user_repeat, 1),
    "user_different": (user_different, 1), "oom": (oom, 1), "two_hw": (two_hw, 3),
    "failed_restart": (failed_restart, 1), "hang_single": (hang_single, 2), "hang_spread": (hang_spread, 1),
    "slow_node": (slow, 4), "cascade_then_user": (cascade_then_user, 2),
    "user_nonconsecutive": (user_nonconsecutive, 1), "preempted": (preempted, 1),
}
"""Situation name -> (builder, the fewest nodes it needs): one job each in every fleet."""

SUPPLEMENT: dict[str, tuple[Builder, int]] = {"nic_counters": (nic_counters, 2), "fabric": (fabric, 4)}
"""Situations of the supplementary run (``--only``), added after the main run: port counters as
the only evidence of a port fault, and the fabric fault it must be told from."""
"""Situation name -> (builder, the fewest nodes it needs)."""

ROUND3: dict[str, tuple[Builder, int]] = {
    "lemon_node": (lemon, 1), "xid154": (xid154, 1), "gsp": (gsp, 1), "nvlink": (nvlink, 1),
    "nvlink_nonfatal": (nvlink_nonfatal, 1), "hca": (hca, 2), "flapping": (flapping, 2),
    "engine_xid_once": (engine_xid_once, 1), "skewed_clock": (skewed_clock, 2),
    "storage_checkpoint": (storage_checkpoint, 1), "host_oom": (host_oom, 1), "lockup": (lockup, 2),
    "lockup_benign": (lockup_benign, 1), "hang_one_node": (hang_one_node, 1),
    "hang_async_checkpoint": (hang_async_checkpoint, 2), "checkpoint_opportunity": (checkpoint_opportunity, 1),
    "checkpoint_futile": (checkpoint_futile, 2), "node_storm": (node_storm, 1),
}
"""Round 3 (brief D3, ``--round3``): written blind from the contract, before reading the policy."""
