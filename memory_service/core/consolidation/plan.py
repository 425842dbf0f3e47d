"""Consolidation decisions: how one session's notes become the subject's global memory.

:func:`plan_consolidation` is pure: given the session's notes, the subject's global
memories, the time, an id factory and optionally a :class:`Judge`, it returns a
:class:`MergePlan` that the service applies in one unit of work. The policy:

1. Notes that are not active (pending confirmation, already handled) are skipped
   silently; session-only and ephemeral notes are dropped and **expired** (they have no
   use once the session is over, so they should not linger as active data).
2. A note equal to a memory after :func:`~memory_service.core.text.normalize_text`
   (``duplicate``), lexically close to one (``near_duplicate``) or judged to mean the
   same (``same_meaning``) is merged into it. Merging into an existing global keeps that
   global and its id (what earlier contexts and manifests cite stays valid): its
   ``updated_at`` becomes the newer of the two and the note joins its
   ``provenance.derived_from``; no copy is made. The exception is a stated fact repeating
   a model-inferred hypothesis: the fact replaces the hypothesis (``confirms_hypothesis``).
3. Two memories of one slot with different values conflict; the newest ``updated_at``
   wins, a tie goes to the session note, and the loser is ``superseded`` (when and by
   what), never deleted. Detection is the judge's when it gave a verdict for the pair,
   the lexical rules' otherwise; recency is never the judge's business.
4. Remaining notes become new global memories (fresh ids, ``derived_from`` listing every
   note merged into them, text, keywords, purpose, source and legal basis of the founding
   note, ``updated_at`` of the newest member). A merge keeps the later known expiry.
   Every handled session note ends ``superseded`` by the global memory that now holds
   its fact, or by the conflict's winner.

Matching stays within one purpose, so a note never serves decisions it was not saved
for. Candidates come from an inverted index over keywords and content words, so the
cost grows with notes times candidates, not with the square of the global memory; the judge
sees at most :data:`MAX_JUDGE_PAIRS_PER_NOTE` pairs per note, so its tokens do not grow
with the global memory either.

The caller need not load the whole global memory: a global the index could offer a note
shares one of its :func:`candidate_terms`, so a store that files globals under those terms
answers :func:`candidate_lookups` with the few globals worth loading, at most
:data:`GLOBAL_CANDIDATES_PER_NOTE` per note.

Idempotence: handled notes leave the ``active`` status and their ids appear in a global's
``derived_from``, so planning the same session again after applying a plan yields an
empty plan. Decisions carry ids and reason codes, never memory text.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from memory_service.core.consolidation.resolution import (
    DecidedBy,
    Decision,
    DecisionKind,
    DecisionReason,
    Relation,
    Resolver,
)
from memory_service.core.consolidation.rules import (
    NoteTerms,
    PairRelation,
    classify_pair,
    looks_ephemeral,
    terms_of,
)
from memory_service.core.model import Durability, Memory, MemoryScope, MemoryStatus

__all__ = [
    "GLOBAL_CANDIDATES_PER_NOTE",
    "MAX_CANDIDATES_PER_NOTE",
    "MAX_JUDGE_PAIRS_PER_NOTE",
    "CandidateLookup",
    "CandidatePair",
    "DecidedBy",
    "Decision",
    "DecisionKind",
    "DecisionReason",
    "Judge",
    "JudgeCall",
    "JudgeResult",
    "MergePlan",
    "Verdict",
    "candidate_lookups",
    "candidate_terms",
    "plan_consolidation",
]

MAX_CANDIDATES_PER_NOTE = 8
MAX_JUDGE_PAIRS_PER_NOTE = 3
# How many globals a store offers per note: the index compares 8 of them, ranked by its own
# weights; the margin covers a store that ranks a little differently.
GLOBAL_CANDIDATES_PER_NOTE = 4 * MAX_CANDIDATES_PER_NOTE
# Prefix of the term that files a memory under its whole normalised text. Content words
# never contain ":", so it cannot collide with one (nor with a "kw:" keyword term).
_EXACT_TERM = "text:"


class Verdict(StrEnum):
    SAME = "same"
    CONFLICT = "conflict"
    UNRELATED = "unrelated"


@dataclass(frozen=True)
class CandidatePair:
    """One pair for the judge: two ids and their texts, nothing else of either memory."""

    pair_id: str
    first_id: str
    first_text: str = field(repr=False)
    second_id: str
    second_text: str = field(repr=False)


@dataclass(frozen=True)
class JudgeResult:
    """Verdicts by ``pair_id``; a pair left out is decided by the rules."""

    verdicts: Mapping[str, Verdict]
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Judge(Protocol):
    """Decides same-meaning and conflict for candidate pairs (an LLM, in practice).

    It sees only the pairs, answers per ``pair_id`` among those given, and returns None
    when it failed as a whole; the core then decides by its rules, never "keep everything".
    """

    @property
    def model(self) -> str: ...

    @property
    def prompt_version(self) -> str: ...

    def judge(self, pairs: Sequence[CandidatePair]) -> JudgeResult | None: ...


@dataclass(frozen=True)
class JudgeCall:
    """What the one judge call of a run cost and yielded, for the audit record."""

    model: str
    prompt_version: str
    pairs_sent: int
    verdicts_used: int
    prompt_tokens: int
    completion_tokens: int
    failed: bool


@dataclass(frozen=True)
class MergePlan:
    """What to write: new global memories, changed memories, and the decisions taken."""

    created: tuple[Memory, ...] = ()
    updated: tuple[Memory, ...] = ()
    decisions: tuple[Decision, ...] = ()
    judge_call: JudgeCall | None = None

    @property
    def is_empty(self) -> bool:
        return not (self.created or self.updated or self.decisions)


class _CandidateIndex:
    """Keyword and content-word postings for one purpose, with an exact-text lookup."""

    def __init__(self) -> None:
        self._postings: dict[str, list[str]] = defaultdict(list)
        self._exact: dict[str, list[str]] = defaultdict(list)

    def add(self, memory_id: str, terms: NoteTerms) -> None:
        for term in terms.index_terms:
            self._postings[term].append(memory_id)
        self._exact[terms.normalized].append(memory_id)

    def candidates(self, terms: NoteTerms, limit: int) -> list[str]:
        """Best-scoring ids first: rare shared terms count more, shared keywords double."""
        scores: dict[str, float] = defaultdict(float)
        for memory_id in self._exact.get(terms.normalized, ()):
            scores[memory_id] = float("inf")
        for term in terms.index_terms:
            posting = self._postings.get(term)
            if not posting:
                continue
            weight = (2.0 if term.startswith("kw:") else 1.0) / len(posting)
            for memory_id in posting:
                scores[memory_id] += weight
        best = heapq.nlargest(limit, scores.items(), key=lambda item: (item[1], item[0]))
        return [memory_id for memory_id, _ in best]


@dataclass(frozen=True)
class CandidateLookup:
    """What to ask the store for one note: globals of ``purpose`` sharing one of ``terms``."""

    purpose: str
    terms: frozenset[str] = field(repr=False)


def candidate_terms(memory: Memory) -> frozenset[str]:
    """The terms the candidate index files ``memory`` under, and looks a note up by.

    Its content words, its keywords (``kw:``) and its whole normalised text (``text:``),
    so an exact duplicate is found even when it has no content word. Any global the index
    could offer a note shares at least one of these with it.
    """
    terms = terms_of(memory.text, memory.keywords)
    return terms.index_terms | {_EXACT_TERM + terms.normalized}


def candidate_lookups(notes: Sequence[Memory]) -> list[CandidateLookup]:
    """One lookup per note that may merge into the global memory.

    Notes the plan skips or drops (not active, session-only, ephemeral) need no candidate.
    """
    return [
        CandidateLookup(note.purpose, candidate_terms(note))
        for note in notes
        if note.scope is MemoryScope.SESSION
        and note.status is MemoryStatus.ACTIVE
        and note.durability is not Durability.SESSION
        and not looks_ephemeral(note.text)
    ]


_VERDICT_VALUES = frozenset(v.value for v in Verdict)


def plan_consolidation(
    notes: Sequence[Memory],
    global_memories: Sequence[Memory],
    *,
    now: datetime,
    new_id: Callable[[], str],
    judge: Judge | None = None,
) -> MergePlan:
    """Decide how a session's notes merge into the subject's global memory.

    ``global_memories`` are the subject's global memories, or those of them that answer
    :func:`candidate_lookups` (the plan is the same wherever the candidate index would pick
    the same few per note); active, unexpired ones are merge candidates, and any of them
    citing a note in ``derived_from`` marks that note as already merged. The judge is
    called at most once, and only with candidate pairs.
    """
    _require_one_subject([*notes, *global_memories])
    already_merged = {i for memory in global_memories for i in memory.provenance.derived_from}
    dropped: list[Decision] = []
    updated: dict[str, Memory] = {}
    eligible: list[Memory] = []
    for note in sorted(notes, key=lambda m: (m.updated_at, m.created_at, m.id)):
        if (
            note.scope is not MemoryScope.SESSION
            or note.status is not MemoryStatus.ACTIVE
            or note.id in already_merged
        ):
            continue
        if note.durability is Durability.SESSION:
            kind, reason = DecisionKind.DROPPED_SESSION_ONLY, DecisionReason.SESSION_ONLY
        elif looks_ephemeral(note.text):
            kind, reason = DecisionKind.DROPPED_EPHEMERAL, DecisionReason.EPHEMERAL
        else:
            eligible.append(note)
            continue
        updated[note.id] = note.with_changes(status=MemoryStatus.EXPIRED, expires_at=now)
        dropped.append(Decision(kind, note.id, DecidedBy.RULES, reason))

    candidates = [
        m
        for m in global_memories
        if m.scope is MemoryScope.GLOBAL
        and m.status is MemoryStatus.ACTIVE
        and (m.expires_at is None or m.expires_at > now)
    ]
    rule_pairs = _find_rule_pairs(eligible, candidates)
    judge_pairs = _judge_candidates(rule_pairs, {m.id: m for m in [*candidates, *eligible]})
    verdicts, judge_call = _ask_judge(judge, judge_pairs)
    judged = {(p.first_id, p.second_id): verdicts.get(p.pair_id) for p in judge_pairs}
    relations = {
        note_id: _effective_relations(note_id, pairs, judged)
        for note_id, pairs in rule_pairs.items()
    }

    resolver = Resolver({m.id: m for m in candidates})
    for note in eligible:
        resolver.resolve(note, relations[note.id])
    created, changed, decisions = resolver.materialise(now=now, new_id=new_id)
    updated.update({m.id: m for m in changed})
    return MergePlan(
        created=tuple(created),
        updated=tuple(updated.values()),
        decisions=(*dropped, *decisions),
        judge_call=judge_call,
    )


def _require_one_subject(memories: Iterable[Memory]) -> None:
    owners = {(m.tenant_id, m.subject_id) for m in memories}
    if len(owners) > 1:
        raise ValueError("consolidation was given memories of more than one tenant or subject")


def _find_rule_pairs(
    eligible: Sequence[Memory], candidates: Sequence[Memory]
) -> dict[str, list[tuple[str, PairRelation]]]:
    """For each note, its candidates (globals and earlier notes) and the rules' relation.

    Notes join the index after being looked up, so a note meets only earlier notes.
    """
    indexes: dict[str, _CandidateIndex] = defaultdict(_CandidateIndex)
    terms: dict[str, NoteTerms] = {}
    for memory in candidates:
        terms[memory.id] = terms_of(memory.text, memory.keywords)
        indexes[memory.purpose].add(memory.id, terms[memory.id])
    pairs: dict[str, list[tuple[str, PairRelation]]] = {}
    for note in eligible:
        note_terms = terms_of(note.text, note.keywords)
        index = indexes[note.purpose]
        found: list[tuple[str, PairRelation]] = []
        for other_id in index.candidates(note_terms, MAX_CANDIDATES_PER_NOTE):
            relation = classify_pair(terms[other_id], note_terms)
            if relation is not PairRelation.UNRELATED:
                found.append((other_id, relation))
        pairs[note.id] = found
        terms[note.id] = note_terms
        index.add(note.id, note_terms)
    return pairs


def _judge_candidates(
    rule_pairs: Mapping[str, list[tuple[str, PairRelation]]], by_id: Mapping[str, Memory]
) -> list[CandidatePair]:
    """The pairs worth a judge's look: not already certain duplicates, a few per note."""
    pairs: list[CandidatePair] = []
    for note_id, found in rule_pairs.items():
        uncertain = [
            other_id
            for other_id, relation in found
            if relation in (PairRelation.CONFLICT, PairRelation.RELATED)
        ]
        for other_id in uncertain[:MAX_JUDGE_PAIRS_PER_NOTE]:
            pairs.append(
                CandidatePair(
                    pair_id=f"p{len(pairs) + 1}",
                    first_id=other_id,
                    first_text=by_id[other_id].text,
                    second_id=note_id,
                    second_text=by_id[note_id].text,
                )
            )
    return pairs


def _ask_judge(
    judge: Judge | None, pairs: Sequence[CandidatePair]
) -> tuple[dict[str, Verdict], JudgeCall | None]:
    """One call for the whole session; only verdicts for pair ids we gave are kept."""
    if judge is None or not pairs:
        return {}, None
    result = judge.judge(pairs)
    given = {p.pair_id for p in pairs}
    verdicts: dict[str, Verdict] = {}
    if result is not None:
        for pair_id, verdict in result.verdicts.items():
            if pair_id in given and verdict in _VERDICT_VALUES:
                verdicts[pair_id] = Verdict(verdict)
    call = JudgeCall(
        model=judge.model,
        prompt_version=judge.prompt_version,
        pairs_sent=len(pairs),
        verdicts_used=len(verdicts),
        prompt_tokens=result.prompt_tokens if result else 0,
        completion_tokens=result.completion_tokens if result else 0,
        failed=result is None,
    )
    return verdicts, call


_RULE_RELATIONS = {
    PairRelation.EXACT: (
        DecisionKind.DUPLICATE,
        DecidedBy.RULES,
        DecisionReason.NORMALIZED_EQUAL,
    ),
    PairRelation.NEAR: (
        DecisionKind.NEAR_DUPLICATE,
        DecidedBy.RULES,
        DecisionReason.LEXICAL_SIMILARITY,
    ),
    PairRelation.CONFLICT: (DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.NEWER_WINS),
}
_JUDGED_RELATIONS = {
    Verdict.SAME: (DecisionKind.SAME_MEANING, DecidedBy.LLM, DecisionReason.JUDGED_SAME),
    Verdict.CONFLICT: (DecisionKind.CONFLICT, DecidedBy.LLM, DecisionReason.NEWER_WINS),
}


def _effective_relations(
    note_id: str,
    pairs: Sequence[tuple[str, PairRelation]],
    judged: Mapping[tuple[str, str], Verdict | None],
) -> list[Relation]:
    """Merge the rules' and the judge's views: a verdict, when given, overrides the rules.

    Exact and near duplicates are never sent to the judge; a pair it judged unrelated, or
    that only the judge could have related, yields no relation.
    """
    relations: list[Relation] = []
    for other_id, rule in pairs:
        verdict = judged.get((other_id, note_id))
        spec = _RULE_RELATIONS.get(rule) if verdict is None else _JUDGED_RELATIONS.get(verdict)
        if spec is not None:
            relations.append(Relation(other_id, *spec))
    return relations
