"""Alembic migrations for memory-service: the only thing that creates or changes the schema."""
