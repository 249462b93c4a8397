"""The database's Alembic migrations, run by :func:`unokit.server.store.upgrade` at every start."""
