"""Consolidation: how one session's notes become the subject's global memory.

A stage per module: :mod:`.rules` (what words alone can tell about two notes),
:mod:`.resolution` (who merges into or supersedes whom) and :mod:`.plan` (the merge plan
the service applies in one unit of work).
"""

from memory_service.core.consolidation.plan import *  # noqa: F403
from memory_service.core.consolidation.plan import __all__ as __all__
