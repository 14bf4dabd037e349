"""Job lifecycle from the scheduler: Slurm (``squeue --json``, prolog/epilog) and Kubernetes watches.

Each scheduler's raw job records are translated into a :class:`~producers.scheduler.lifecycle.JobView`
(pure functions), and one :class:`~producers.scheduler.lifecycle.LifecycleTracker` turns the
sequence of views into ``job_event``s, each transition once, with EVENTS.md's attempt numbering.
"""
