"""Privacy guards: values that identify a person or open something.

Kept apart from the judgment guards in :mod:`memory_service.core.guards` (speculative,
ephemeral, not actionable, instruction), so each can change without the other. Standard
library only; the libraries that know national id formats, phone plans and seed-phrase word
lists sit behind :class:`memory_service.core.ports.IdentifierDetector`.
"""
