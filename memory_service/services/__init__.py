"""Use cases: open a unit of work for the caller's tenant, call the core, commit."""
