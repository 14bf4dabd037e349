"""Chaos suite (``make chaos``): faults injected into a running pipeline on a real broker.

Each scenario streams a small simulated fleet (8 nodes x 8 GPUs, 2 jobs, a hang, a slow node
and an Xid 79 burst) through real processes (``faultline worker``, ``sink``, ``actuate``),
breaks something mid-stream (kill -9, broker restart, rebalance, fuzzed input) and compares
the derived events with ``faultline replay`` of the same input. ``python -m tests.chaos``
prints one table row per scenario; ``--scenario NAME`` runs one.
"""
