"""The pure core: domain model, guards, consolidation decisions and rendering.

Nothing here imports HTTP, SQL, Celery, Presidio or OpenAI; adapters implement
the Protocols in :mod:`memory_service.core.ports` and are handed in.
"""
