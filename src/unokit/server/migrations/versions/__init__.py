"""One file per schema revision (Alembic reads them by path; this file makes them a package)."""
