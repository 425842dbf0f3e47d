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
   note merged into them). Every handled session note ends ``superseded`` by the global
   memory that now holds its fact, or by the conflict's winner.

Matching stays within one purpose, so a note never serves decisions it was not saved
for. Candidates come from an inverted index over keywords and content words, so the
cost grows with notes times candidates, not with the square of the global memory; the judge
sees at most :data:`MAX_JUDGE_PAIRS_PER_NOTE` pairs per note, so its tokens do not grow
with the global memory either.

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

from memory_service.core.consolidation_rules import (
    NoteTerms,
    PairRelation,
    classify_pair,
    looks_ephemeral,
    terms_of,
)
from memory_service.core.model import Durability, Memory, MemoryScope, MemoryStatus, Provenance

MAX_CANDIDATES_PER_NOTE = 8
MAX_JUDGE_PAIRS_PER_NOTE = 3


class Verdict(StrEnum):
    SAME = "same"
    CONFLICT = "conflict"
    UNRELATED = "unrelated"


class DecisionKind(StrEnum):
    DROPPED_SESSION_ONLY = "dropped_session_only"
    DROPPED_EPHEMERAL = "dropped_ephemeral"
    DUPLICATE = "duplicate"
    NEAR_DUPLICATE = "near_duplicate"
    SAME_MEANING = "same_meaning"
    CONFLICT = "conflict"
    NEW = "new"


class DecidedBy(StrEnum):
    RULES = "rules"
    LLM = "llm"


class DecisionReason(StrEnum):
    """Why a decision was taken; a closed set, so no text can slip into the history."""

    SESSION_ONLY = "session_only"
    EPHEMERAL = "ephemeral"
    NORMALIZED_EQUAL = "normalized_equal"
    LEXICAL_SIMILARITY = "lexical_similarity"
    JUDGED_SAME = "judged_same"
    CONFIRMS_HYPOTHESIS = "confirms_hypothesis"
    NEWER_WINS = "newer_wins"
    TIE_SESSION_NOTE_WINS = "tie_session_note_wins"
    NO_MATCH = "no_match"


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
class Decision:
    """One audit-ready decision about a session note: ids and codes only."""

    kind: DecisionKind
    note_id: str
    decided_by: DecidedBy
    reason: DecisionReason
    other_id: str | None = None
    kept_id: str | None = None
    superseded_id: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {
            "kind": self.kind.value,
            "note_id": self.note_id,
            "decided_by": self.decided_by.value,
            "reason": self.reason.value,
            "other_id": self.other_id,
            "kept_id": self.kept_id,
            "superseded_id": self.superseded_id,
        }


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


@dataclass(frozen=True)
class _Relation:
    """A rules-or-judge relation between a note and an earlier memory or note."""

    other_id: str
    kind: DecisionKind
    decided_by: DecidedBy
    reason: DecisionReason


@dataclass(eq=False)
class _Entity:
    """A fact being consolidated: an existing global, or a new one founded by a note."""

    base: Memory
    existing: bool
    members: list[Memory] = field(default_factory=list)
    absorbed: list[_Entity] = field(default_factory=list)
    superseded_by: _Entity | None = None
    new_id: str | None = None
    updated_at: datetime = field(init=False)
    expires_at: datetime | None = field(init=False)

    def __post_init__(self) -> None:
        self.updated_at = self.base.updated_at
        self.expires_at = self.base.expires_at

    @property
    def alive(self) -> bool:
        return self.superseded_by is None

    @property
    def materialised(self) -> bool:
        return self.existing or self.alive

    def final_id(self) -> str:
        """The id decisions cite: the global's, or the founding note's if none was made."""
        if self.existing:
            return self.base.id
        return self.new_id or self.base.id

    def merge(self, note: Memory) -> None:
        self.members.append(note)
        self.updated_at = max(self.updated_at, note.updated_at)
        self.expires_at = _later_expiry(self.expires_at, note.expires_at)

    def source_ids(self) -> list[str]:
        """Ids this fact came from, for a replacement's ``derived_from``."""
        own = [self.base.id] if self.existing else []
        return own + [m.id for m in self.members]


@dataclass(frozen=True)
class _PendingDecision:
    """A decision whose kept/superseded ids are known only once new ids are assigned."""

    kind: DecisionKind
    note_id: str
    decided_by: DecidedBy
    reason: DecisionReason
    other_id: str | None = None
    kept: _Entity | None = None
    superseded: _Entity | None = None

    def resolve(self) -> Decision:
        return Decision(
            kind=self.kind,
            note_id=self.note_id,
            decided_by=self.decided_by,
            reason=self.reason,
            other_id=self.other_id,
            kept_id=self.kept.final_id() if self.kept else None,
            superseded_id=self.superseded.final_id() if self.superseded else None,
        )


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


_VERDICT_VALUES = frozenset(v.value for v in Verdict)
_DUPLICATE_PRIORITY = {
    DecisionKind.DUPLICATE: 0,
    DecisionKind.NEAR_DUPLICATE: 1,
    DecisionKind.SAME_MEANING: 2,
}


def plan_consolidation(
    notes: Sequence[Memory],
    global_memories: Sequence[Memory],
    *,
    now: datetime,
    new_id: Callable[[], str],
    judge: Judge | None = None,
) -> MergePlan:
    """Decide how a session's notes merge into the subject's global memory.

    ``global_memories`` are the subject's global memories; active, unexpired ones are
    merge candidates, and any of them citing a note in ``derived_from`` marks that note
    as already merged. The judge is called at most once, and only with candidate pairs.
    """
    _require_one_subject([*notes, *global_memories])
    already_merged = {i for memory in global_memories for i in memory.provenance.derived_from}
    decisions: list[_PendingDecision] = []
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
        decisions.append(_PendingDecision(kind, note.id, DecidedBy.RULES, reason))

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

    resolver = _Resolver({m.id: m for m in candidates}, decisions)
    for note in eligible:
        resolver.resolve(note, relations[note.id])
    created, changed = resolver.materialise(now=now, new_id=new_id)
    updated.update({m.id: m for m in changed})
    return MergePlan(
        created=tuple(created),
        updated=tuple(updated.values()),
        decisions=tuple(d.resolve() for d in decisions),
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
        found = []
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


def _effective_relations(
    note_id: str,
    pairs: Sequence[tuple[str, PairRelation]],
    judged: Mapping[tuple[str, str], Verdict | None],
) -> list[_Relation]:
    """Merge the rules' and the judge's views: a verdict, when given, overrides the rules."""
    relations: list[_Relation] = []
    for other_id, rule in pairs:
        verdict = judged.get((other_id, note_id))
        if rule is PairRelation.EXACT:
            relations.append(
                _Relation(
                    other_id,
                    DecisionKind.DUPLICATE,
                    DecidedBy.RULES,
                    DecisionReason.NORMALIZED_EQUAL,
                )
            )
        elif rule is PairRelation.NEAR:
            relations.append(
                _Relation(
                    other_id,
                    DecisionKind.NEAR_DUPLICATE,
                    DecidedBy.RULES,
                    DecisionReason.LEXICAL_SIMILARITY,
                )
            )
        elif verdict is Verdict.SAME:
            relations.append(
                _Relation(
                    other_id, DecisionKind.SAME_MEANING, DecidedBy.LLM, DecisionReason.JUDGED_SAME
                )
            )
        elif verdict is Verdict.CONFLICT:
            relations.append(
                _Relation(other_id, DecisionKind.CONFLICT, DecidedBy.LLM, DecisionReason.NEWER_WINS)
            )
        elif verdict is None and rule is PairRelation.CONFLICT:
            relations.append(
                _Relation(
                    other_id, DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.NEWER_WINS
                )
            )
    return relations


class _Resolver:
    """Applies relations note by note, oldest first, over entities that track survivors."""

    def __init__(self, globals_by_id: Mapping[str, Memory], decisions: list[_PendingDecision]):
        self._globals = globals_by_id
        self._decisions = decisions
        self._entities: dict[str, _Entity] = {}
        self._order: list[_Entity] = []
        # Each handled note and the entity that now holds its fact (or beat it).
        self._holders: dict[str, tuple[Memory, _Entity]] = {}

    def _entity(self, memory_id: str) -> _Entity | None:
        entity = self._entities.get(memory_id)
        if entity is None and memory_id in self._globals:
            entity = _Entity(self._globals[memory_id], existing=True)
            self._entities[memory_id] = entity
            self._order.append(entity)
        return entity if entity is not None and entity.alive else None

    def _found(self, note: Memory) -> _Entity:
        entity = _Entity(note, existing=False)
        entity.merge(note)
        self._order.append(entity)
        return entity

    def resolve(self, note: Memory, relations: Sequence[_Relation]) -> None:
        conflicts = [
            (entity, r)
            for r in relations
            if r.kind is DecisionKind.CONFLICT and (entity := self._entity(r.other_id))
        ]
        newer = [(e, r) for e, r in conflicts if e.updated_at > note.updated_at]
        if newer:
            winner, relation = max(newer, key=lambda pair: pair[0].updated_at)
            loser = self._found(note)
            loser.superseded_by = winner
            self._record(note, loser, DecisionKind.CONFLICT, relation, kept=winner, lost=loser)
            return

        survivor = self._merge_duplicates(note, relations)
        for entity, relation in conflicts:
            if entity is survivor or not entity.alive:
                continue
            entity.superseded_by = survivor
            reason = (
                DecisionReason.TIE_SESSION_NOTE_WINS
                if entity.updated_at == note.updated_at
                else DecisionReason.NEWER_WINS
            )
            self._record(
                note,
                survivor,
                DecisionKind.CONFLICT,
                relation,
                kept=survivor,
                lost=entity,
                reason=reason,
            )

    def _merge_duplicates(self, note: Memory, relations: Sequence[_Relation]) -> _Entity:
        duplicates = [
            (entity, r)
            for r in relations
            if r.kind in _DUPLICATE_PRIORITY and (entity := self._entity(r.other_id))
        ]
        if not duplicates:
            survivor = self._found(note)
            self._hold(note, survivor)
            self._decisions.append(
                _PendingDecision(
                    DecisionKind.NEW,
                    note.id,
                    DecidedBy.RULES,
                    DecisionReason.NO_MATCH,
                    kept=survivor,
                )
            )
            return survivor
        target, relation = min(
            duplicates, key=lambda pair: (_DUPLICATE_PRIORITY[pair[1].kind], -_ts(pair[0]))
        )
        if target.base.is_hypothesis and not note.is_hypothesis:
            survivor = self._found(note)
            survivor.absorbed.append(target)
            target.superseded_by = survivor
            self._record(
                note,
                survivor,
                relation.kind,
                relation,
                kept=survivor,
                lost=target,
                reason=DecisionReason.CONFIRMS_HYPOTHESIS,
            )
            return survivor
        target.merge(note)
        self._record(note, target, relation.kind, relation, kept=target)
        return target

    def _hold(self, note: Memory, holder: _Entity) -> None:
        self._entities[note.id] = holder
        self._holders[note.id] = (note, holder)

    def _record(
        self,
        note: Memory,
        holder: _Entity,
        kind: DecisionKind,
        relation: _Relation,
        *,
        kept: _Entity,
        lost: _Entity | None = None,
        reason: DecisionReason | None = None,
    ) -> None:
        self._hold(note, holder)
        self._decisions.append(
            _PendingDecision(
                kind,
                note.id,
                relation.decided_by,
                reason or relation.reason,
                other_id=relation.other_id,
                kept=kept,
                superseded=lost,
            )
        )

    def materialise(
        self, *, now: datetime, new_id: Callable[[], str]
    ) -> tuple[list[Memory], list[Memory]]:
        """Assign new ids, then build the created globals and every changed memory."""
        for entity in self._order:
            if not entity.existing and entity.alive:
                entity.new_id = new_id()
        created: list[Memory] = []
        changed: list[Memory] = []
        for entity in self._order:
            if entity.existing and (entity.members or not entity.alive):
                changed.append(_updated_global(entity, now))
            elif not entity.existing and entity.alive:
                created.append(_new_global(entity, now))
        for note, holder in self._holders.values():
            home = holder if holder.materialised else holder.superseded_by
            assert home is not None  # a holder that is not materialised lost to someone
            changed.append(
                note.with_changes(
                    status=MemoryStatus.SUPERSEDED, superseded_at=now, superseded_by=home.final_id()
                )
            )
        return created, changed


def _ts(entity: _Entity) -> float:
    return entity.updated_at.timestamp()


def _later_expiry(a: datetime | None, b: datetime | None) -> datetime | None:
    """The later known expiry; None only when neither side has one."""
    known = [x for x in (a, b) if x is not None]
    return max(known) if known else None


def _dedupe(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def _updated_global(entity: _Entity, now: datetime) -> Memory:
    memory = entity.base
    provenance = memory.provenance
    if entity.members:
        derived = _dedupe([*provenance.derived_from, *(m.id for m in entity.members)])
        memory = memory.with_changes(
            updated_at=entity.updated_at,
            expires_at=entity.expires_at,
            provenance=Provenance(**{**provenance.to_dict(), "derived_from": derived}),
        )
    if entity.superseded_by is not None:
        memory = memory.with_changes(
            status=MemoryStatus.SUPERSEDED,
            superseded_at=now,
            superseded_by=entity.superseded_by.final_id(),
        )
    return memory


def _new_global(entity: _Entity, now: datetime) -> Memory:
    founder = entity.base
    derived = _dedupe(
        [*(m.id for m in entity.members), *(i for e in entity.absorbed for i in e.source_ids())]
    )
    assert entity.new_id is not None  # assigned before any global is built
    return founder.with_changes(
        id=entity.new_id,
        scope=MemoryScope.GLOBAL,
        session_id=None,
        durability=Durability.DURABLE,
        provenance=Provenance(
            actor=founder.provenance.actor,
            session_id=founder.session_id,
            turn=founder.provenance.turn,
            tool_call_id=founder.provenance.tool_call_id,
            derived_from=derived,
        ),
        created_at=now,
        updated_at=entity.updated_at,
        expires_at=entity.expires_at,
        status=MemoryStatus.ACTIVE,
        superseded_at=None,
        superseded_by=None,
    )
