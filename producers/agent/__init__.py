"""``faultline agent``: the per-node daemon that reads GPUs (NVML), RDMA ports (sysfs), the
kernel log (/dev/kmsg or journald), training logs and stacks (py-spy), and sends v1
telemetry events to Kafka through an on-disk spool (see docs/agent.md)."""
