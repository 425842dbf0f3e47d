"""One revision per schema change, applied by ``memory-service migrate``."""
