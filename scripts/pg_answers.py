"""Exit 0 when a PostgreSQL server answers at the given URL (used by `make test`)."""

import sys

import psycopg

try:
    psycopg.connect(sys.argv[1].replace("postgres://", "postgresql://"), connect_timeout=3).close()
except Exception as exc:
    print(f"PostgreSQL at {sys.argv[1]}: {exc}", file=sys.stderr)
    sys.exit(1)
