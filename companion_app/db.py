"""The SQLite store: one connection per request, WAL so readers never wait for a writer, explicit writes.

Connections run in autocommit mode and every write goes through `write()`, which takes the write lock up
front (`BEGIN IMMEDIATE`): two phones posting at once then queue on the busy timeout instead of failing
when a read lock cannot be upgraded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from flask import Flask, current_app, g

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 10_000


class SchemaMismatch(RuntimeError):
    """The database file was written by a newer TableSight than this one."""


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection with the pragmas every user of the store needs."""
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


def get_db() -> sqlite3.Connection:
    """This request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    connection: sqlite3.Connection = g.db
    return connection


def close_db(_error: BaseException | None = None) -> None:
    connection: sqlite3.Connection | None = g.pop("db", None)
    if connection is not None:
        connection.close()


@contextmanager
def write() -> Iterator[sqlite3.Connection]:
    """One write transaction on this request's connection, holding the write lock from its start."""
    connection = get_db()
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def init_db(path: str | Path) -> None:
    """Create the file in WAL mode and apply the schema, or check that an existing file's schema matches."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = connect(path)
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise SchemaMismatch(
                f"database {path} has schema version {version}; this TableSight knows up to {SCHEMA_VERSION}"
            )
        if version < SCHEMA_VERSION:
            schema = resources.files("companion_app").joinpath("schema.sql").read_text("utf-8")
            connection.executescript(schema)
    finally:
        connection.close()


def init_app(app: Flask) -> None:
    init_db(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
