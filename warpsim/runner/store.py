"""The result store of a sweep: one Parquet file per finished job, queried with DuckDB.

Follows: ARCHITECTURE.md §6 (records to Parquet, queried with DuckDB) and §7 (a killed sweep
resumes and loses no finished result).

Layout of a result folder ``DIR``:

- ``DIR/records-*.parquet``: one file per batch of records (the runner writes one per finished
  job). A file is written under a hidden temporary name, flushed to disk, then renamed with
  ``os.replace``, so a file is either complete or absent: a kill never leaves half a record.
- ``DIR/sweep.json``: the sweep description and its job list (written the same way).
- ``DIR/.lock``: held (``flock``) by the one sweep writing ``DIR``; released by the kernel when
  that process dies, so a killed sweep never blocks its resume.
- ``DIR/records-*.parquet.unreadable``: a record file that cannot be read (damaged on disk or by
  hand), moved aside by the next writer (a resumed sweep runs its jobs again). Readers skip an
  unreadable file with a warning naming it, so one bad file never hides the others.

In DuckDB the view ``results_all`` holds every record ever written (files may differ in columns:
they are read with ``union_by_name``) and ``results`` holds one record per ``job_id``: the
successful one if any, else the latest attempt.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from warpsim.errors import ConfigError, WarpsimError

__all__ = [
    "MANIFEST",
    "ResultStore",
    "connect",
    "load_results",
    "query_results",
]

MANIFEST = "sweep.json"
"""Name of the sweep description file inside a result folder."""

_log = logging.getLogger(__name__)
_T = TypeVar("_T")

_PREFIX = "records-"
_UNREADABLE = ".unreadable"
_COMPACTED = "-compacted-"
_SOURCES_KEY = b"warpsim_compacted_from"


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a directory; the rename is still atomic
    finally:
        os.close(fd)


def _atomic_write(path: Path, write: Any) -> None:
    """Call ``write(tmp_path)``, fsync, then ``os.replace`` onto ``path``."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    _fsync_dir(path.parent)


class ResultStore:
    """A folder of Parquet result records.

    Parameters
    ----------
    directory
        The result folder (created when absent).

    Examples
    --------
    >>> store = ResultStore(tmp)                       # doctest: +SKIP
    >>> store.append([{"job_id": "a1", "status": "ok", "gpu_sim_insn": 1024}])
    >>> store.query("SELECT job_id, gpu_sim_insn FROM results")
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._lock_fd: int | None = None
        self._warned: set[str] = set()
        self._damaged: set[str] = set()
        """Files whose footer reads but whose data does not (found by :meth:`_reading`)."""

    # -- writing -------------------------------------------------------------------------------

    def lock(self) -> None:
        """Take the folder's writer lock.

        Raises
        ------
        WarpsimError
            When another live process holds it (two sweeps must not write one folder).
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.directory / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            raise WarpsimError(
                f"another sweep is writing {self.directory}\n  hint: wait for it, or use "
                "another --out folder") from exc
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd
        for stale in self.directory.glob(f".{_PREFIX}*.tmp"):
            stale.unlink()  # left by a killed writer: never renamed, so never a record
        every, bad = _split_readable(sorted(self.directory.glob(f"{_PREFIX}*.parquet")))
        for path, reason in bad.items():
            self._set_aside(path, reason)
        for name in self._superseded(every):
            (self.directory / name).unlink(missing_ok=True)  # left by a killed compaction

    def _unreadable(self, path: Path, reason: str) -> None:
        """A record file that cannot be read: the writer moves it aside, a reader warns once."""
        if self._lock_fd is not None:
            self._set_aside(path, reason)
        elif path.name not in self._warned:
            self._warned.add(path.name)
            _log.warning("skipping the unreadable record file %s (%s); `warpsim sweep "
                         "--resume` moves it aside and runs its jobs again", path, reason)

    def _set_aside(self, path: Path, reason: str) -> None:
        """Rename an unreadable record file to ``NAME.unreadable`` (the writer only)."""
        aside = path.with_name(path.name + _UNREADABLE)
        os.replace(path, aside)
        self._warned.add(path.name)
        _log.warning("moved the unreadable record file %s aside to %s (%s); its jobs count as "
                     "not run", path, aside.name, reason)

    def unlock(self) -> None:
        """Release the writer lock (also released when the process dies)."""
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> ResultStore:
        self.lock()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unlock()

    def append(self, records: Iterable[Mapping[str, Any]]) -> Path | None:
        """Write ``records`` as one new Parquet file, atomically; returns its path.

        Records of one call may differ in columns (missing values become nulls).
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = [dict(r) for r in records]
        if not rows:
            return None
        self.directory.mkdir(parents=True, exist_ok=True)
        columns: dict[str, None] = {}
        for row in rows:
            columns.update(dict.fromkeys(row))
        table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        path = self.directory / f"{_PREFIX}{stamp}-{os.getpid()}-{uuid.uuid4().hex[:8]}.parquet"
        _atomic_write(path, lambda tmp: pq.write_table(table, tmp))
        return path

    def write_manifest(self, manifest: Mapping[str, Any]) -> Path:
        """Write ``sweep.json`` atomically."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / MANIFEST
        text = json.dumps(manifest, indent=1, sort_keys=True, default=str)
        _atomic_write(path, lambda tmp: tmp.write_text(text))
        return path

    # -- reading -------------------------------------------------------------------------------

    def files(self) -> list[Path]:
        """The record files to read, oldest first (files a compaction superseded excluded).

        A file that cannot be read as Parquet is left out with a warning naming it (once per
        store object).
        """
        if not self.directory.is_dir():
            return []
        every, bad = _split_readable(sorted(self.directory.glob(f"{_PREFIX}*.parquet")))
        every = [f for f in every if f.name not in self._damaged]
        for path, reason in bad.items():
            self._unreadable(path, reason)
        gone = self._superseded(every)
        return [f for f in every if f.name not in gone]

    def is_result_folder(self) -> bool:
        """Whether the folder holds a sweep description or record files (readable or not)."""
        return self.directory.is_dir() and ((self.directory / MANIFEST).exists() or any(
            self.directory.glob(f"{_PREFIX}*.parquet*")))

    @staticmethod
    def _superseded(files: list[Path]) -> set[str]:
        """Names merged into a compacted file (present only if a compaction was killed);
        ``files`` are readable ones."""
        import pyarrow.parquet as pq

        gone: set[str] = set()
        for f in files:
            if _COMPACTED in f.name:
                meta = pq.read_schema(f).metadata or {}
                gone.update(json.loads(meta.get(_SOURCES_KEY, b"[]")))
        return gone

    def compact(self) -> Path | None:
        """Merge every record file into one, crash-safely; returns the new file.

        The merged file lists the files it replaces in its Parquet metadata and is renamed into
        place before they are deleted; readers ignore listed files, so a kill at any point
        neither loses nor duplicates a record (leftovers are deleted at the next lock). Takes
        the writer lock unless this store holds it.
        """
        import pyarrow.parquet as pq

        if self._lock_fd is None:
            with self:
                return self.compact()
        if len(self.files()) < 2:
            return None

        def read() -> tuple[list[Path], Any]:
            files = self.files()
            with self.connect() as con:
                rel = con.sql("SELECT * FROM results_all")
                return files, (rel.to_arrow_table() if hasattr(rel, "to_arrow_table")
                               else rel.arrow())

        files, table = self._reading(read)
        meta = dict(table.schema.metadata or {})
        meta[_SOURCES_KEY] = json.dumps([f.name for f in files]).encode()
        table = table.replace_schema_metadata(meta)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        path = self.directory / f"{_PREFIX}{stamp}{_COMPACTED}{uuid.uuid4().hex[:8]}.parquet"
        _atomic_write(path, lambda tmp: pq.write_table(table, tmp))
        for f in files:
            f.unlink()
        _fsync_dir(self.directory)
        return path

    def manifest(self) -> dict[str, Any] | None:
        """The folder's ``sweep.json``, or None when it has none."""
        path = self.directory / MANIFEST
        return json.loads(path.read_text()) if path.exists() else None

    def finished(self) -> dict[str, str]:
        """``job_id -> status`` of the recorded jobs (``"ok"`` wins over ``"failed"``)."""
        out: dict[str, str] = {}
        if not self.files():
            return out
        def read() -> list[Any]:
            with self.connect() as con:
                return con.execute("SELECT job_id, status FROM results").fetchall()

        for job_id, status in self._reading(read):
            out[str(job_id)] = str(status)
        return out

    @contextlib.contextmanager
    def connect(self) -> Iterator[Any]:
        """A DuckDB connection with the views ``results`` and ``results_all``."""
        con = connect(self.directory, files=self.files())
        try:
            yield con
        finally:
            con.close()

    def query(self, sql: str, *, polars: bool = False) -> Any:
        """Run ``sql`` over the views; a pandas DataFrame (polars with ``polars=True``)."""
        def read() -> Any:
            with self.connect() as con:
                return _run(con, sql, polars)

        return self._reading(read)

    def _reading(self, read: Callable[[], _T]) -> _T:
        """``read()``; when DuckDB fails on data (not on the query), read each record file
        whole to find damaged ones (a footer that reads, a page that does not), leave them out
        with a warning (the writer also moves them aside) and ``read()`` again."""
        import duckdb
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return read()
        except (duckdb.Error, ConfigError) as exc:
            cause = exc.__cause__ if isinstance(exc, ConfigError) else exc
            if not isinstance(cause, duckdb.Error) or isinstance(cause, _query_errors()):
                raise
            found = False
            for f in self.files():
                try:
                    pq.read_table(f)
                except (OSError, ValueError, pa.ArrowException) as err:
                    found = True
                    self._damaged.add(f.name)
                    self._unreadable(f, str(err).splitlines()[0] if str(err) else
                                     type(err).__name__)
            if not found:
                raise
            return read()

    def load(self, *, all_attempts: bool = False, polars: bool = False) -> Any:
        """Every record as a DataFrame (one per job unless ``all_attempts``)."""
        view = "results_all" if all_attempts else "results"
        return self.query(f"SELECT * FROM {view} ORDER BY finished_at", polars=polars)


def _query_errors() -> tuple[type[Exception], ...]:
    import duckdb

    return (duckdb.ParserException, duckdb.BinderException, duckdb.CatalogException)


def _split_readable(files: list[Path]) -> tuple[list[Path], dict[Path, str]]:
    """(the files whose Parquet footer reads, {unreadable file: why})."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    good: list[Path] = []
    bad: dict[Path, str] = {}
    for f in files:
        try:
            pq.read_metadata(f)
        except (OSError, ValueError, pa.ArrowException) as exc:
            bad[f] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        else:
            good.append(f)
    return good, bad


def _run(con: Any, sql: str, polars: bool = False) -> Any:
    import duckdb

    if polars:
        try:
            import polars as _pl  # noqa: F401  (DuckDB's .pl() needs it)
        except ImportError as exc:
            raise ConfigError("polars", True, "an installed polars",
                              hint="pip install polars, or use the pandas frame") from exc
    try:
        result = con.execute(sql)
        return result.pl() if polars else result.df()
    except duckdb.Error as exc:
        raise ConfigError("sql", sql, "a DuckDB query over the tables results / results_all",
                          hint=str(exc).splitlines()[0]) from exc


_EMPTY_TYPES = {"seed": "BIGINT", "pid": "BIGINT", "verified": "BOOLEAN",
                "functional_cached": "BOOLEAN", "wall_s": "DOUBLE",
                "sim_rate_insn_per_s": "DOUBLE"}
"""Column types of the (empty) table of a folder without records; the rest are text."""


def connect(directory: str | Path, *, files: list[Path] | None = None) -> Any:
    """An in-memory DuckDB connection whose views ``results`` / ``results_all`` read
    ``directory``'s records.

    Parameters
    ----------
    directory
        A result folder written by a sweep.
    files
        The record files to read (default: every ``records-*.parquet`` in the folder).
    """
    import duckdb

    from warpsim.runner.jobs import METADATA_COLUMNS

    if files is None:
        files = ResultStore(directory).files()
    con = duckdb.connect(":memory:")
    if files:
        listing = "[" + ", ".join(_sql_str(str(f)) for f in files) + "]"
        con.execute(f"CREATE VIEW results_all AS SELECT * FROM read_parquet({listing}, "
                    "union_by_name = true)")
    else:
        cols = ", ".join(f'"{c}" {_EMPTY_TYPES.get(c, "VARCHAR")}' for c in METADATA_COLUMNS)
        con.execute(f"CREATE TABLE results_all ({cols})")
    con.execute(
        "CREATE VIEW results AS SELECT * EXCLUDE (_attempt_rank) FROM ("
        " SELECT *, row_number() OVER (PARTITION BY job_id ORDER BY (status = 'ok') DESC,"
        " finished_at DESC) AS _attempt_rank FROM results_all) WHERE _attempt_rank = 1")
    return con


def load_results(directory: str | Path, *, all_attempts: bool = False,
                 polars: bool = False) -> Any:
    """The records of a result folder as a pandas DataFrame.

    Parameters
    ----------
    directory
        A result folder written by ``warpsim sweep``.
    all_attempts
        Keep every attempt of a retried job instead of one record per ``job_id``.
    polars
        Return a polars DataFrame (polars must be installed) instead of pandas.

    Returns
    -------
    pandas.DataFrame
        One row per record; counters and ``energy_*_pj`` as columns (missing values NaN/None).
    """
    return ResultStore(directory).load(all_attempts=all_attempts, polars=polars)


def query_results(directory: str | Path, sql: str, *, polars: bool = False) -> Any:
    """Run a DuckDB ``sql`` query over a result folder (tables ``results``, ``results_all``)
    and return a pandas DataFrame (a polars one with ``polars=True``).

    Raises
    ------
    ConfigError
        When DuckDB rejects the query (its message is the hint).
    """
    return ResultStore(directory).query(sql, polars=polars)
