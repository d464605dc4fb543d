"""What differs between the engines pbm stores in (SQLite, PostgreSQL), in one place: how a
connection is set up, how a writing transaction begins, what an operator hears of a fault."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, event

from pbm.files import secure_database


def prepare(engine: Engine) -> None:
    """Tune a new engine for a mail server. PostgreSQL needs little: its default (READ
    COMMITTED, a transaction begun by the first statement, row locks where a query asks for
    them) is what pbm wants."""
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "begin", _postgresql_begin)


# A transaction of a connection with this execution option commits without waiting for the
# disk: a power loss may undo it, never a crash of pbm, and the next durable commit makes it
# durable too (both engines write one log in order). Only for a record whose loss recovery
# makes good: the courier's record of mail it wrote into the Maildir, whose file names
# recovery finds (pbm/mail/delivery.py).
LAZY_COMMIT = "pbm_lazy_commit"


def _sqlite_begin(conn: Any) -> None:
    options = conn.get_execution_options()
    # Decided at every BEGIN: a pooled connection a lazy commit used goes to the writer next.
    lazy = bool(options.get(LAZY_COMMIT))
    if conn.info.get(LAZY_COMMIT, False) != lazy:
        # NORMAL, in WAL mode: the commit is not fsync'd (the WAL is, at the next FULL one).
        conn.exec_driver_sql(f"PRAGMA synchronous={'NORMAL' if lazy else 'FULL'}")
        conn.info[LAZY_COMMIT] = lazy
    # pysqlite's own transaction handling defers BEGIN; we issue it ourselves so that a
    # transaction that will write takes the lock at its start (no upgrade deadlocks).
    # Readers (a courier looking for due mail, listings) take no lock at all.
    if options.get("pbm_read_only"):
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _postgresql_begin(conn: Any) -> None:
    if conn.get_execution_options().get(LAZY_COMMIT):
        # For this transaction only: the setting ends with it.
        conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # let the "begin" listener issue BEGIN
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # FULL: a mail is acknowledged with 250 only after its commit, so the commit must
    # survive a power loss too (NORMAL in WAL mode could drop the last transactions).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    # It holds players' mail with their passwords: the file, its WAL and SHM, owner only.
    files = [row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"]
    cursor.close()
    if files and files[0]:
        secure_database(files[0])


def unusable(engine: Engine, reason: str) -> str:
    """What an operator needs to hear about a database fault (`reason`, the driver's words)
    that is not the mail's fault."""
    if engine.dialect.name == "postgresql":
        return _postgresql_unusable(engine, reason)
    return _sqlite_unusable(engine.url.database or "(in memory)", reason)


def _sqlite_unusable(where: str, reason: str) -> str:
    if "locked" in reason or "busy" in reason:
        return f"the database {where} is locked by another process (waited 10 s): {reason}"
    if "readonly" in reason or "read-only" in reason:
        return f"the database {where} is read-only for this user: {reason}"
    if "unable to open" in reason:
        return (f"the database {where} cannot be opened (is it a file, and may this user "
                f"read and write it and its folder?): {reason}")
    if "not a database" in reason or "malformed" in reason:
        return f"the database {where} is damaged or not a SQLite database: {reason}"
    return f"the database {where} cannot be used: {reason}"


def _postgresql_unusable(engine: Engine, reason: str) -> str:
    url = engine.url
    server = f"{url.host or 'the local socket'}" + (f":{url.port}" if url.port else "")
    where = f"the database {url.database} on {server}"
    # The driver's first line says it all; the rest repeats the host for each address tried.
    said = reason.strip().splitlines()[0] if reason.strip() else reason
    if "Connection refused" in reason or "No such file or directory" in reason \
            or "could not translate host name" in reason or "timeout expired" in reason:
        return (f"no PostgreSQL server answers at {server} (is it running, and are the host "
                f"and port in database.url right?): {said}")
    if "password authentication failed" in reason or "role" in reason \
            and "does not exist" in reason or "no pg_hba.conf entry" in reason:
        return (f"PostgreSQL at {server} refuses user {url.username} (check the user and "
                f"password in database.url, and pg_hba.conf): {said}")
    if "database" in reason and "does not exist" in reason:
        return (f"{where} does not exist: create it (createdb -O {url.username} "
                f"{url.database}), then run `pbm db upgrade`: {said}")
    if "lock timeout" in reason or "deadlock detected" in reason:
        return f"{where} is busy (a lock was not had in time): {said}"
    if "permission denied" in reason:
        return f"{where} may not be changed by user {url.username}: {said}"
    return f"{where} cannot be used: {said}"
