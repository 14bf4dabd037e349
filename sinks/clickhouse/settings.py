"""Settings of the ClickHouse sink and of ``faultline sql``.

Built once at the entry point (CLI flags, environment read there) and passed down as
frozen pydantic models; nothing in this package reads the environment.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DSN = f"chdb://{REPO_ROOT / '.data' / 'clickhouse'}"
"""The embedded default: chDB on local disk under the repository's ``.data/``."""


class RetryPolicy(BaseModel):
    """Exponential backoff for transient errors: bounded delay, unbounded attempts.

    The sink never drops a batch on a transient error: it waits ``initial_s``, then twice
    that, up to ``max_s``, until the operation lands or the sink is asked to stop.
    """

    model_config = ConfigDict(frozen=True)

    initial_s: float = Field(default=0.2, gt=0)
    max_s: float = Field(default=30.0, gt=0)
    multiplier: float = Field(default=2.0, ge=1.0)
    jitter: float = Field(default=0.1, ge=0.0, le=1.0)

    def delay(self, attempt: int) -> float:
        """The nominal delay before retry number ``attempt`` (0-based), without jitter."""
        return float(min(self.max_s, self.initial_s * self.multiplier**attempt))


class ClickHouseSettings(BaseModel):
    """Where ClickHouse is and how the sink batches into it.

    ``dsn`` is ``chdb:///absolute/path`` for the embedded engine (one process per path) or
    ``http(s)://user:pass@host:8123[/db]`` for a server; a database in an http DSN path
    overrides ``database``. ``batch_size`` events, ``batch_max_bytes`` of message values or
    ``flush_interval_s`` seconds after the first pending event, whichever comes first, trigger
    a flush. Large batches are what make the sink fast (one insert and one commit per batch,
    and ClickHouse prefers few large parts); the interval bounds the latency when traffic is low.
    """

    model_config = ConfigDict(frozen=True)

    dsn: str = DEFAULT_DSN
    database: str = Field(default="faultline", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    batch_size: int = Field(default=20_000, ge=1)
    batch_max_bytes: int = Field(default=32 * 1024 * 1024, ge=1)
    flush_interval_s: float = Field(default=1.0, gt=0)
    poll_timeout_s: float = Field(default=0.2, gt=0)
    retry: RetryPolicy = RetryPolicy()
    connect_timeout_s: float = Field(default=10.0, gt=0)
    send_receive_timeout_s: float = Field(default=300.0, gt=0)
    query_server: bool = True
    """Whether a sink that owns a chDB path serves read-only queries to ``faultline sql``."""
    query_host: str = "127.0.0.1"
    query_port: int = Field(default=0, ge=0, le=65535)
    """0 picks an ephemeral port; the port is published in :attr:`query_info_path`."""
    query_timeout_s: float = Field(default=60.0, gt=0)
    busy_wait_s: float = Field(default=10.0, ge=0)
    """How long to wait for a chDB path held by another process before giving up."""

    @field_validator("dsn")
    @classmethod
    def _known_scheme(cls, value: str) -> str:
        scheme = urlsplit(value).scheme
        if scheme not in ("chdb", "http", "https"):
            raise ValueError(f"dsn scheme must be chdb, http or https, not {scheme!r}")
        if scheme == "chdb" and not chdb_path_of(value).is_absolute():
            raise ValueError(f"chdb dsn needs an absolute path: {value!r}")
        return value

    @property
    def embedded(self) -> bool:
        """True when the DSN names an in-process chDB path."""
        return urlsplit(self.dsn).scheme == "chdb"

    @property
    def chdb_path(self) -> Path:
        """The chDB data directory; only meaningful when :attr:`embedded`."""
        return chdb_path_of(self.dsn)

    @property
    def query_info_path(self) -> Path:
        """The file, next to the chDB path, where a running sink publishes its query server."""
        path = self.chdb_path
        return path.with_name(path.name + ".query.json")

    @property
    def effective_database(self) -> str:
        """The database the tables live in: the http DSN's path if it names one, else ``database``."""
        if self.embedded:
            return self.database
        name = urlsplit(self.dsn).path.strip("/")
        return name or self.database


def chdb_path_of(dsn: str) -> Path:
    """The filesystem path of a ``chdb://`` DSN (``chdb:///abs/path`` -> ``/abs/path``)."""
    rest = dsn[len("chdb://"):] if dsn.startswith("chdb://") else dsn
    return Path(rest.split("?", 1)[0])
