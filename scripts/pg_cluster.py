"""A throwaway PostgreSQL cluster for tests, benchmarks and trying the bot: ``python -m scripts.pg_cluster``.

:class:`TempCluster` runs ``initdb`` in a temporary directory and starts ``postgres`` on loopback at a
free port (its unix socket stays inside that directory), with trust authentication: it is for this
machine's own tests and measurements, never for production. ``stop()`` shuts the server down and
deletes the directory.

PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user (which
Debian's ``postgresql`` package creates), or ``nobody`` without it, through ``runuser``.

The binaries are looked up in ``$PG_BIN``, then on ``PATH``, then in Debian's
``/usr/lib/postgresql/<version>/bin`` (newest first); :func:`find_pg_bin` returns ``None`` when there
are none, so callers can say what to install.

Run as a script it starts a cluster, prints its URL and keeps it until Ctrl-C, e.g. to try
``DATABASE_URL=… make run`` without installing a server for good.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["DEFAULT_SETTINGS", "FAST_SETTINGS", "PostgresUnavailableError", "TempCluster", "find_pg_bin"]

SUPERUSER = "postgres"
#: Server settings for every throwaway cluster: loopback only, enough connections for several bots.
DEFAULT_SETTINGS: dict[str, str] = {"max_connections": "200", "shared_buffers": "64MB"}
#: Settings for unit tests, where durability is worthless: no fsync at all.
FAST_SETTINGS: dict[str, str] = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class PostgresUnavailableError(RuntimeError):
    """No PostgreSQL server binaries were found, or the server did not start."""


def find_pg_bin() -> Path | None:
    """Return the directory holding ``initdb``, ``pg_ctl`` and ``postgres``, or ``None``."""
    candidates: list[Path] = []
    if os.environ.get("PG_BIN"):
        candidates.append(Path(os.environ["PG_BIN"]))
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [entry for entry in debian.iterdir() if entry.name.replace(".", "").isdigit()]
        for entry in sorted(versions, key=lambda path: float(path.name), reverse=True):
            candidates.append(entry / "bin")
    for directory in candidates:
        if all((directory / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return directory
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _server_user() -> str | None:
    """Return the user to run the server as when we are root (``None``: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in (SUPERUSER, "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise PostgresUnavailableError("running as root and neither a 'postgres' nor a 'nobody' user exists")


class TempCluster:
    """One PostgreSQL server in a temporary directory; use as a context manager or call start/stop."""

    def __init__(self, *, settings: dict[str, str] | None = None, pg_bin: Path | None = None) -> None:
        """Prepare a cluster with extra server ``settings`` (``-c name=value``); nothing runs yet."""
        self.settings = {**DEFAULT_SETTINGS, **(settings or {})}
        self.pg_bin = pg_bin
        self.port = 0
        self.directory: Path | None = None
        self._user: str | None = None

    @property
    def data(self) -> Path:
        """Return the data directory (inside the temporary directory)."""
        if self.directory is None:
            raise PostgresUnavailableError("the cluster is not started")
        return self.directory / "data"

    def url(self, database: str = "postgres") -> str:
        """Return the ``postgresql://`` URL of ``database`` on this cluster."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, argv: Sequence[str], *, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        command = list(argv) if self._user is None else ["runuser", "-u", self._user, "--", *argv]
        # Run inside the cluster's directory: the server user may not be allowed into ours.
        return subprocess.run(  # noqa: S603 - our own PostgreSQL binaries with fixed arguments
            command, check=True, capture_output=True, text=True, timeout=timeout, cwd=self.directory
        )

    def start(self) -> TempCluster:
        """Create the cluster and start the server; return ``self``.

        Raises:
            PostgresUnavailableError: No binaries, or initdb or the server failed (with their output).
        """
        pg_bin = self.pg_bin or find_pg_bin()
        if pg_bin is None:
            raise PostgresUnavailableError(
                "PostgreSQL server binaries not found (set PG_BIN, or install Debian's 'postgresql' package)"
            )
        self.pg_bin = pg_bin
        self._user = _server_user()
        self.directory = Path(tempfile.mkdtemp(prefix="bot-pg-"))
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.directory, entry.pw_uid, entry.pw_gid)
        self.directory.chmod(0o700)
        self.port = _free_port()
        options = " ".join(f"-c {name}={value}" for name, value in self.settings.items())
        options += f" -c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.directory}"
        try:
            self._run(
                [
                    str(pg_bin / "initdb"),
                    "-D",
                    str(self.data),
                    "-U",
                    SUPERUSER,
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--locale=C",
                    "--no-sync",
                ]
            )
            self._run(
                [
                    str(pg_bin / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-l",
                    str(self.directory / "server.log"),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
            detail = getattr(error, "stderr", "") or ""
            log = self.directory / "server.log"
            if log.exists():
                detail += "\n" + log.read_text(errors="replace")[-2000:]
            self.stop()
            raise PostgresUnavailableError(f"could not start PostgreSQL: {error}\n{detail}") from error
        return self

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its directory; stopping twice is harmless."""
        if self.directory is None:
            return
        if self.pg_bin is not None and (self.data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError):
                self._run([str(self.pg_bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"], timeout=60)
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None

    def __enter__(self) -> TempCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def temp_cluster(*, fast: bool = False) -> Iterator[TempCluster]:
    """Run a throwaway cluster while inside (``fast``: without fsync, for tests)."""
    cluster = TempCluster(settings=FAST_SETTINGS if fast else None)
    with cluster:
        yield cluster


def main(argv: Sequence[str] | None = None) -> int:
    """Start a cluster, print its URL, and keep it until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m scripts.pg_cluster", description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="no fsync (tests only: a crash loses data)")
    args = parser.parse_args(argv)
    with temp_cluster(fast=args.fast) as cluster:
        print(f"DATABASE_URL={cluster.url()}", flush=True)
        print("Ctrl-C stops the server and deletes its data.", flush=True)
        signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop cleanly on SIGTERM too
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
