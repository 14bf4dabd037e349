"""``squeue --json`` job records in the shape Slurm prints them (22.05 and the 23.02+ dialect)."""

from __future__ import annotations

from typing import Any

T0 = 1_795_439_306  # epoch seconds


def record(job_id: int, state: str | list[str], *, nodes: str = "", tasks: int = 1, restart_cnt: int = 0,
           submit: int = T0, start: int = 0, end: int = 0, reason: str = "None", exit_code: Any = 0,
           name: str = "train", user: str = "alice", partition: str = "debug") -> dict[str, Any]:
    """A 22.05 record (plain ints, a string state)."""
    return {"account": "", "job_id": job_id, "name": name, "user_name": user, "partition": partition,
            "job_state": state, "state_reason": reason, "nodes": nodes, "node_count": 0, "tasks": tasks,
            "tasks_per_node": 0, "restart_cnt": restart_cnt, "submit_time": submit, "start_time": start,
            "end_time": end, "exit_code": exit_code, "requeue": True, "cluster": "faultline"}


def record_v23(job_id: int, states: list[str], *, nodes: str = "", tasks: int = 1, restart_cnt: int = 0,
               start: int = 0, end: int = 0) -> dict[str, Any]:
    """A 23.02+ record: state flags as a list, numbers as {set, infinite, number}."""
    def num(n: int) -> dict[str, Any]:
        return {"set": n != 0, "infinite": False, "number": n}
    return {"job_id": job_id, "name": "train", "user_name": "alice", "partition": "debug", "job_state": states,
            "state_reason": "None", "nodes": nodes, "tasks": num(tasks), "restart_cnt": restart_cnt,
            "submit_time": num(T0), "start_time": num(start), "end_time": num(end),
            "exit_code": {"status": ["SUCCESS"], "return_code": num(0)}}
