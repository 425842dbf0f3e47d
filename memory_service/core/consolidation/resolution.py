"""Resolution of a consolidation run: who merges into whom, who supersedes whom.

Given each note's relations (from the rules, the attributes or the judge, see
:mod:`memory_service.core.consolidation.plan`), :class:`Resolver` walks the notes oldest
first over *entities*: an existing global memory, or a new one founded by a note.

- A merge (duplicate, near duplicate, same meaning, refinement) extends an entity and keeps
  the **newer wording**, except that a hypothesis never rewords a stated fact and a vaguer
  restatement never replaces a more detailed one. An existing global keeps its id.
- A stated note meaning what a hypothesis says **confirms** it: the global keeps its id
  and takes the note's source, legal basis and wording.
- A conflict supersedes the older side (a tie goes to the session note), except that a
  **hypothesis never supersedes a stated fact**: it loses whatever its age.

New ids are assigned only at the end, so a note that founds a fact and then loses it within
the same run never produces a global that is born superseded. A winner may lose in turn
(Nano, then Vim, then Emacs in one session): every loser, and every decision's kept id,
then cites the end of that chain, so a ``superseded_by`` always names an active memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from memory_service.core.model import Memory


class DecisionKind(StrEnum):
    DROPPED_SESSION_ONLY = "dropped_session_only"
    DROPPED_EPHEMERAL = "dropped_ephemeral"
    REFUSED = "refused"
    DUPLICATE = "duplicate"
    NEAR_DUPLICATE = "near_duplicate"
    SAME_MEANING = "same_meaning"
    REFINES = "refines"
    CONFLICT = "conflict"
    NEW = "new"


class DecidedBy(StrEnum):
    RULES = "rules"
    ATTRIBUTE = "attribute"
    LLM = "llm"


class DecisionReason(StrEnum):
    """Why a decision was taken; a closed set, so no text can slip into the history."""

    SESSION_ONLY = "session_only"
    EPHEMERAL = "ephemeral"
    LLM_REFUSED = "llm_refused"
    NORMALIZED_EQUAL = "normalized_equal"
    LEXICAL_SIMILARITY = "lexical_similarity"
    CLOSE_MEANING = "close_meaning"
    ADDS_DETAIL = "adds_detail"
    JUDGED_SAME = "judged_same"
    JUDGED_REFINES = "judged_refines"
    CONFIRMS_HYPOTHESIS = "confirms_hypothesis"
    NEGATION = "negation"
    MARKED_CHANGE = "marked_change"
    SINGLE_VALUED = "single_valued"
    # Both notes fill one single-valued slot the slot model inferred, in one scope.
    INFERRED_SLOT = "inferred_slot"
    # The pair model (core/consolidation/pairs.py) read the two notes as one fact.
    LEARNED_PAIR = "learned_pair"
    # One multi-valued attribute, the same value under another verb (the syntax port).
    SAME_VALUE = "same_value"
    JUDGED_CONFLICT = "judged_conflict"
    HYPOTHESIS_YIELDS = "hypothesis_yields"
    NO_MATCH = "no_match"


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
class Relation:
    """A relation between a note and an earlier memory or note, and who found it.

    ``other_more_specific``: the earlier memory's wording holds more detail, so a merge
    keeps it rather than the newer, vaguer restatement.
    """

    other_id: str
    kind: DecisionKind
    decided_by: DecidedBy
    reason: DecisionReason
    other_more_specific: bool = False


MERGE_KINDS = frozenset(
    {
        DecisionKind.DUPLICATE,
        DecisionKind.NEAR_DUPLICATE,
        DecisionKind.SAME_MEANING,
        DecisionKind.REFINES,
    }
)
_MERGE_PRIORITY = {
    DecisionKind.DUPLICATE: 0,
    DecisionKind.REFINES: 1,
    DecisionKind.NEAR_DUPLICATE: 2,
    DecisionKind.SAME_MEANING: 3,
}


@dataclass(eq=False)
class _Entity:
    """A fact being consolidated: an existing global, or a new one founded by a note."""

    base: Memory
    existing: bool
    members: list[Memory] = field(default_factory=list)
    superseded_by: _Entity | None = None
    new_id: str | None = None
    # The memory whose wording (text, keywords, attribute) the fact ends with.
    wording: Memory = field(init=False)
    confirmed_by: Memory | None = None
    updated_at: datetime = field(init=False)
    expires_at: datetime | None = field(init=False)

    def __post_init__(self) -> None:
        self.wording = self.base
        self.updated_at = self.base.updated_at
        self.expires_at = self.base.expires_at

    @property
    def alive(self) -> bool:
        return self.superseded_by is None

    @property
    def is_hypothesis(self) -> bool:
        return self.base.is_hypothesis and self.confirmed_by is None

    def final_id(self) -> str:
        """This entity's id: the global's, or the founding note's if none was made."""
        if self.existing:
            return self.base.id
        return self.new_id or self.base.id

    def survivor(self) -> _Entity:
        """The entity that holds this fact at the end of the run: itself while alive, else
        the end of its supersession chain (a winner may lose in turn to a later note)."""
        entity = self
        while entity.superseded_by is not None:
            entity = entity.superseded_by
        return entity

    def merge(self, note: Memory, *, reword: bool) -> None:
        self.members.append(note)
        self.updated_at = max(self.updated_at, note.updated_at)
        self.expires_at = _later_expiry(self.expires_at, note.expires_at)
        if reword:
            self.wording = note


@dataclass(frozen=True)
class _PendingDecision:
    """A decision whose kept/superseded ids are known only once new ids are assigned."""

    decision: Decision
    kept: _Entity | None = None
    superseded: _Entity | None = None

    def resolve(self) -> Decision:
        return replace(
            self.decision,
            kept_id=self.kept.survivor().final_id() if self.kept else None,
            superseded_id=self.superseded.final_id() if self.superseded else None,
        )


class Resolver:
    """Applies relations note by note, oldest first, over entities that track survivors."""

    def __init__(self, globals_by_id: Mapping[str, Memory]) -> None:
        self._globals = globals_by_id
        self._decisions: list[_PendingDecision] = []
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
        entity.merge(note, reword=True)
        self._order.append(entity)
        return entity

    def resolve(self, note: Memory, relations: Sequence[Relation]) -> None:
        conflicts = [
            (entity, r)
            for r in relations
            if r.kind is DecisionKind.CONFLICT and (entity := self._entity(r.other_id))
        ]
        stronger = [(e, r) for e, r in conflicts if _beats(e, note)]
        if stronger:
            winner, relation = max(stronger, key=lambda pair: pair[0].updated_at)
            loser = self._found(note)
            loser.superseded_by = winner
            reason = (
                DecisionReason.HYPOTHESIS_YIELDS
                if note.is_hypothesis and not winner.is_hypothesis
                else None
            )
            self._record(
                note, loser, DecisionKind.CONFLICT, relation, kept=winner, lost=loser, reason=reason
            )
            return

        survivor = self._merge(note, relations)
        for entity, relation in conflicts:
            if entity is survivor or not entity.alive:
                continue
            entity.superseded_by = survivor
            self._record(
                note, survivor, DecisionKind.CONFLICT, relation, kept=survivor, lost=entity
            )

    def _merge(self, note: Memory, relations: Sequence[Relation]) -> _Entity:
        merges = [
            (entity, r)
            for r in relations
            if r.kind in MERGE_KINDS and (entity := self._entity(r.other_id))
        ]
        if not merges:
            survivor = self._found(note)
            self._hold(note, survivor)
            self._decisions.append(
                _PendingDecision(
                    Decision(DecisionKind.NEW, note.id, DecidedBy.RULES, DecisionReason.NO_MATCH),
                    kept=survivor,
                )
            )
            return survivor
        target, relation = min(
            merges, key=lambda pair: (_MERGE_PRIORITY[pair[1].kind], -_ts(pair[0]))
        )
        if target.is_hypothesis and not note.is_hypothesis:
            target.merge(note, reword=True)
            target.confirmed_by = note
            self._record(
                note,
                target,
                relation.kind,
                relation,
                kept=target,
                reason=DecisionReason.CONFIRMS_HYPOTHESIS,
            )
            return target
        reword = (
            relation.kind is not DecisionKind.DUPLICATE  # equal text: nothing to reword
            and note.updated_at >= target.updated_at
            and not (note.is_hypothesis and not target.is_hypothesis)
            and not relation.other_more_specific
        )
        target.merge(note, reword=reword)
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
        relation: Relation,
        *,
        kept: _Entity,
        lost: _Entity | None = None,
        reason: DecisionReason | None = None,
    ) -> None:
        self._hold(note, holder)
        self._decisions.append(
            _PendingDecision(
                Decision(
                    kind,
                    note.id,
                    relation.decided_by,
                    reason or relation.reason,
                    other_id=relation.other_id,
                ),
                kept=kept,
                superseded=lost,
            )
        )

    def materialise(
        self, *, now: datetime, new_id: Callable[[], str]
    ) -> tuple[list[Memory], list[Memory], list[Decision]]:
        """Assign new ids, then build the created globals, the changed memories, decisions."""
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
            changed.append(note.supersede(by=holder.survivor().final_id(), at=now))
        # A note that founded a fact which lost later in the run created nothing.
        decisions = [
            d.resolve()
            for d in self._decisions
            if not (d.decision.kind is DecisionKind.NEW and d.kept is not None and not d.kept.alive)
        ]
        return created, changed, decisions


def _beats(entity: _Entity, note: Memory) -> bool:
    """Whether an existing side of a conflict wins over the note."""
    if entity.is_hypothesis != note.is_hypothesis:
        return note.is_hypothesis  # a stated fact beats a hypothesis, whatever its age
    return entity.updated_at > note.updated_at


def _ts(entity: _Entity) -> float:
    return entity.updated_at.timestamp()


def _later_expiry(a: datetime | None, b: datetime | None) -> datetime | None:
    """The later known expiry; None only when neither side has one."""
    known = [x for x in (a, b) if x is not None]
    return max(known) if known else None


def _dedupe(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def _worded(memory: Memory, entity: _Entity) -> Memory:
    """``memory`` with the entity's final wording, source and legal basis."""
    if entity.confirmed_by is not None:
        memory = memory.confirm(entity.confirmed_by)
    wording = entity.wording
    return memory.reword(
        text=wording.text,
        keywords=wording.keywords,
        attribute=wording.attribute or memory.attribute,
    )


def _updated_global(entity: _Entity, now: datetime) -> Memory:
    memory = entity.base
    provenance = memory.provenance
    if entity.members:
        derived = _dedupe([*provenance.derived_from, *(m.id for m in entity.members)])
        memory = _worded(memory, entity).absorb(
            derived_from=derived, updated_at=entity.updated_at, expires_at=entity.expires_at
        )
    if entity.superseded_by is not None:
        memory = memory.supersede(by=entity.survivor().final_id(), at=now)
    return memory


def _new_global(entity: _Entity, now: datetime) -> Memory:
    founder = entity.base
    derived = _dedupe(m.id for m in entity.members)
    assert entity.new_id is not None  # assigned before any global is built
    return _worded(founder, entity).promote(
        new_id=entity.new_id,
        derived_from=derived,
        at=now,
        updated_at=entity.updated_at,
        expires_at=entity.expires_at,
    )
