"""Consolidation: how one session's notes become the subject's global memory.

A stage per module: :mod:`.rules` (what words alone can tell about two notes),
:mod:`.judge` (the one LLM call's contract: prompt, schema, parser), :mod:`.resolution`
(who merges into or supersedes whom) and :mod:`.plan` (candidates, relations and the merge
plan the service applies in one unit of work).
"""

from memory_service.core.consolidation.judge import JudgeResult
from memory_service.core.consolidation.plan import *  # noqa: F403
from memory_service.core.consolidation.plan import __all__ as _plan_all

__all__ = [*_plan_all, "JudgeResult"]
