"""Alembic's environment: runs the migrations on the connection the server passes in
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` when run from Alembic's
command line. Importing this module outside Alembic (as pytest's doctest collection does)
does nothing."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    config = getattr(context, "config", None)
    if config is None:  # imported, not run by Alembic
        return
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _migrate(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set sqlalchemy.url, or pass a connection in config.attributes")
    engine = create_engine(url)
    with engine.begin() as conn:
        _migrate(conn)
    engine.dispose()


_main()
