"""Consolidation decisions: how one session's notes become the subject's global memory.

:func:`plan_consolidation` is pure: given the session's notes, the candidate global
memories, their vectors, the time, an id factory and optionally a :class:`Judge`, it
returns a :class:`MergePlan` the service applies in one unit of work. The policy:

1. Notes that are not active are skipped; session-only and ephemeral notes are dropped
   and **expired**. With a judge, every other note also gets the LLM's second opinion (in
   the same call): a note it refuses is not promoted and its text is destroyed.
2. **Candidates**, per note, within its purpose: the globals and earlier notes sharing the
   most (rarest) terms, the nearest by meaning (the vectors of a static embedding), and
   every memory of the same single-valued attribute.
3. **Relations**, per candidate pair (older, newer):
   - equal text, nearly equal wording, the newer adding detail, or content words close in
     meaning merge; the merged fact keeps the newer wording (see :mod:`.resolution`);
   - **same attribute key**, single-valued: the newer value supersedes the older;
     multi-valued: a value leaves only by an explicit negation or removal of it, or when
     it meets a denial of the whole attribute ("Has no pets"); different keys never
     conflict;
   - **no attribute**: the judge's verdict (``same``, ``refines``, ``conflict``,
     ``unrelated``) decides when it gave one; otherwise the **slot model**
     (:mod:`.slots`) stands in for the agent: two notes it confidently puts in one
     single-valued slot, in the same scope, are one attribute and the newer supersedes;
     then the rules supersede only on a negation flip or a marked change (see
     :mod:`.rules`; a change marked by words alone replaces one value, the closest in
     meaning), and a guess meeting a statement close in meaning or a stated frame settles
     for the statement; never on shared words. Last, the **pair model** (:mod:`.pairs`)
     reads a pair still unsettled, at a lower bar when a guess meets a statement (the
     statement holds either way); anything else keeps both.
4. Conflicts supersede the older side, except that a hypothesis never supersedes a stated
   fact; a stated note meaning what a hypothesis says confirms it. Remaining notes become
   new global memories. Every handled note ends ``superseded`` by the global that holds
   its fact, or by the conflict's winner.

The judge sees every pair the rules could not settle as a duplicate, in one call; its
request grows with the notes and their few candidates, never with the global memory.

Idempotence: handled notes leave the ``active`` status and their ids appear in a global's
``derived_from``, so planning the same session again yields an empty plan. Decisions carry
ids and reason codes, never memory text.
"""

from __future__ import annotations

import heapq
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memory_service.core.consolidation.attributes import key_form, key_words
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.consolidation.judge import (
    CandidatePair,
    Judge,
    JudgeCall,
    JudgeRequest,
    NoteToCheck,
    NoteVerdict,
    Verdict,
    ask,
)
from memory_service.core.consolidation.pairs import (
    NoteView,
    PairModel,
    content_words,
    default_pair_model,
)
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
    content_text,
    looks_ephemeral,
    more_specific,
    same_value,
    terms_of,
)
from memory_service.core.consolidation.slots import SlotModel, default_slot_model
from memory_service.core.consolidation.syntax import Syntax
from memory_service.core.judgment import JudgmentModel
from memory_service.core.model import (
    Attribute,
    Cardinality,
    Durability,
    Memory,
    MemoryScope,
    MemoryStatus,
)
from memory_service.core.sentences import SentenceEncoder, default_sentence_encoder

__all__ = [
    "GLOBAL_CANDIDATES_PER_NOTE",
    "MAX_CANDIDATES_PER_NOTE",
    "VECTOR_CANDIDATES_PER_NOTE",
    "CandidateLookup",
    "CandidatePair",
    "DecidedBy",
    "Decision",
    "DecisionKind",
    "DecisionReason",
    "Judge",
    "JudgeCall",
    "JudgeRequest",
    "MergePlan",
    "NoteToCheck",
    "NoteVerdict",
    "Vector",
    "Verdict",
    "candidate_lookups",
    "candidate_terms",
    "content_text",
    "cosine",
    "plan_consolidation",
]

Vector = Sequence[float]

MAX_CANDIDATES_PER_NOTE = 8
# A guess and a statement this close in content words (the static embedding) restate or
# contradict each other: the statement holds. On the seen suites and the new dev scenarios,
# the closest guess that must stay beside a statement is 0.47 ("Likes jazz" guessed /
# "Likes classical music"); guesses the statement settles reach down to 0.51.
HYPOTHESIS_COSINE = 0.5
# Nearest by meaning, on top of the term candidates: paraphrases share no word.
VECTOR_CANDIDATES_PER_NOTE = 4
# How many globals a store offers per note: the index compares 8 of them, ranked by its own
# weights; the margin covers a store that ranks a little differently.
GLOBAL_CANDIDATES_PER_NOTE = 4 * MAX_CANDIDATES_PER_NOTE
# Prefixes of terms that file a memory under its whole normalised text and its attribute
# key. Content words never contain ":", so they cannot collide with one.
_EXACT_TERM = "text:"
_ATTRIBUTE_TERM = "attr:"


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
class CandidateLookup:
    """What to ask the store for one note: globals of ``purpose`` sharing one of ``terms``."""

    purpose: str
    terms: frozenset[str] = field(repr=False)
    text: str = field(repr=False)


def candidate_terms(memory: Memory, terms: NoteTerms | None = None) -> frozenset[str]:
    """The terms the candidate index files ``memory`` under, and looks a note up by.

    Its content words, its keywords (``kw:``), its whole normalised text (``text:``) and
    its attribute key (``attr:``), so an exact duplicate is found even when it has no
    content word, and every memory of the same attribute is found whatever its wording.
    ``terms``: the memory's :func:`terms_of`, when the caller has it already.
    """
    terms = terms or terms_of(memory.text, memory.keywords)
    extra = {_EXACT_TERM + terms.normalized}
    if memory.attribute is not None:
        extra.add(_ATTRIBUTE_TERM + memory.attribute.key)
    return terms.index_terms | extra


def _eligible(note: Memory, judgment: JudgmentModel | None) -> bool:
    return (
        note.scope is MemoryScope.SESSION
        and note.status is MemoryStatus.ACTIVE
        and note.durability is not Durability.SESSION
        and not looks_ephemeral(note.text, judgment)
    )


def candidate_lookups(
    notes: Sequence[Memory], judgment: JudgmentModel | None = None
) -> list[CandidateLookup]:
    """One lookup per note that may merge into the global memory.

    Notes the plan skips or drops (not active, session-only, ephemeral by ``judgment``,
    the model the notes were saved with) need no candidate.
    """
    return [
        CandidateLookup(note.purpose, candidate_terms(note), note.text)
        for note in notes
        if _eligible(note, judgment)
    ]


def cosine(a: Vector, b: Vector) -> float:
    """Vectors are stored unit-length, so the dot product is the cosine."""
    return sum(map(operator.mul, a, b)) if len(a) == len(b) else 0.0


class _CandidateIndex:
    """Terms, vectors and attribute keys of the memories of one purpose."""

    def __init__(self) -> None:
        self._postings: dict[str, list[str]] = defaultdict(list)
        self._vectors: dict[str, Vector] = {}
        self._by_attribute: dict[str, list[str]] = defaultdict(list)

    def add(self, memory: Memory, terms: frozenset[str], vector: Vector | None) -> None:
        for term in terms:
            self._postings[term].append(memory.id)
        if vector is not None:
            self._vectors[memory.id] = vector
        if memory.attribute is not None:
            self._by_attribute[memory.attribute.key].append(memory.id)

    def candidates(self, note: Memory, terms: frozenset[str], vector: Vector | None) -> list[str]:
        """Best-scoring by terms (rare shared terms count more, keywords and attributes
        double), then the nearest by meaning, then every memory of the note's
        single-valued attribute."""
        scores: dict[str, float] = defaultdict(float)
        for term in terms:
            posting = self._postings.get(term)
            if not posting:
                continue
            if term.startswith(_EXACT_TERM):
                weight = float("inf")
            else:
                weight = (2.0 if term.startswith(("kw:", _ATTRIBUTE_TERM)) else 1.0) / len(posting)
            for memory_id in posting:
                scores[memory_id] += weight
        best = heapq.nlargest(
            MAX_CANDIDATES_PER_NOTE, scores.items(), key=lambda item: (item[1], item[0])
        )
        found = dict.fromkeys(memory_id for memory_id, _ in best)
        if vector is not None:
            near = heapq.nlargest(
                VECTOR_CANDIDATES_PER_NOTE,
                ((cosine(vector, v), i) for i, v in self._vectors.items()),
            )
            # No similarity floor: a static embedding scores true paraphrases low ("short
            # answers" / "concise responses": 0.12), so the rank alone bounds the pairs.
            found.update(dict.fromkeys(i for _, i in near))
        attribute = note.attribute
        if attribute is not None and attribute.cardinality is Cardinality.SINGLE:
            found.update(dict.fromkeys(self._by_attribute.get(attribute.key, ())))
        return list(found)


def plan_consolidation(
    notes: Sequence[Memory],
    global_memories: Sequence[Memory],
    *,
    now: datetime,
    new_id: Callable[[], str],
    judge: Judge | None = None,
    vectors: Mapping[str, Vector] | None = None,
    meanings: Mapping[str, Vector] | None = None,
    judgment: JudgmentModel | None = None,
    slots: SlotModel | None = None,
    pairs: PairModel | None = None,
    embedder: Embedder | None = None,
    syntax: Syntax | None = None,
    sentences: SentenceEncoder | None = None,
) -> MergePlan:
    """Decide how a session's notes merge into the subject's global memory.

    ``global_memories`` are the subject's global memories, or those the store offered as
    candidates (:func:`candidate_lookups`, nearest vectors); active, unexpired ones are
    merge candidates, and any of them citing a note in ``derived_from`` marks that note as
    already merged. ``vectors`` (by memory id, unit length, of the whole text) add
    candidates by meaning; ``meanings`` (the same, of each memory's :func:`content_text`)
    let the rules merge a pair whose content words are close in meaning. The whole text
    finds candidates better (50 against 45 of 55 in ``benchmarks.consolidation_recall``);
    the content words tell a paraphrase from a second value better. ``judgment`` is the
    model the notes were saved with, for the ephemeral re-check (None: the shipped one).
    ``slots`` infers the slot of a note without an attribute from its text and its
    ``meanings`` entry (None: the shipped model; without one nothing is inferred).
    ``pairs`` reads a pair the rules leave unsettled when no judge gave a verdict
    (:mod:`.pairs`; None: the shipped model); it also reads the vectors of the content words
    of the few memories it is asked about, from ``embedder`` (the one that made ``vectors``;
    without it the model is not asked). ``syntax`` tells a note's verbs from its values, so
    two notes of one multi-valued attribute holding the same value under other verbs merge
    (without it they stay apart). ``sentences`` encodes the texts of the memories the pair
    model is asked about when it reads sentence vectors (``PairModel.sentence_dims``; None:
    the process's :func:`.sentences.default_sentence_encoder`), in one call per plan;
    a model without them encodes nothing. The judge is called at most once.
    """
    _require_one_subject([*notes, *global_memories])
    vectors = vectors or {}
    meanings = meanings or {}
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
        elif looks_ephemeral(note.text, judgment):
            kind, reason = DecisionKind.DROPPED_EPHEMERAL, DecisionReason.EPHEMERAL
        else:
            eligible.append(note)
            continue
        updated[note.id] = note.expire(at=now)
        dropped.append(Decision(kind, note.id, DecidedBy.RULES, reason))

    candidates = [
        m
        for m in global_memories
        if m.scope is MemoryScope.GLOBAL
        and m.status is MemoryStatus.ACTIVE
        and (m.expires_at is None or m.expires_at > now)
    ]
    by_id = {m.id: m for m in [*candidates, *eligible]}
    terms = {m.id: terms_of(m.text, m.keywords) for m in by_id.values()}
    found = _find_pairs(eligible, candidates, terms, vectors, meanings)
    request = _judge_request(found, by_id, eligible if judge is not None else ())
    verdicts, note_verdicts, judge_call = ask(judge, request)
    pair_ids = {frozenset((p.first_id, p.second_id)): p.pair_id for p in request.pairs}
    refused = {
        n.memory_id for n in request.notes if note_verdicts.get(n.check_id) is NoteVerdict.REFUSE
    }
    dropped += _destroy_replaced_copies(notes, refused, updated, now)

    inferred = _InferredSlots(slots or default_slot_model(), meanings)
    model = pairs or default_pair_model()
    if model.sentence_dims is not None and sentences is None:
        sentences = default_sentence_encoder()
    learned = _LearnedPairs(model, terms, vectors, meanings, inferred, embedder, sentences)
    values = _Values(syntax, terms)
    resolver = Resolver({m.id: m for m in candidates})
    # First the judge's verdicts and the rules; the pairs they leave go to the pair model,
    # whose sentence vectors (when it reads them) are encoded in one call for the plan.
    settled: list[tuple[Memory, list[tuple[_Pair, Relation | None]]]] = []
    for note in eligible:
        if note.id in refused:
            updated[note.id] = note.destroy(at=now)
            dropped.append(
                Decision(DecisionKind.REFUSED, note.id, DecidedBy.LLM, DecisionReason.LLM_REFUSED)
            )
            continue
        ruled: list[tuple[_Pair, Relation | None]] = []
        for pair in found[note.id]:
            pair_id = pair_ids.get(frozenset((pair.other_id, note.id)))
            verdict = verdicts.get(pair_id) if pair_id else None
            relation = _relation(by_id[pair.other_id], note, pair, verdict, terms, inferred)
            if relation is None and verdict is None:
                relation = values.relation(by_id[pair.other_id], note)
                if relation is None:
                    learned.will_ask(by_id[pair.other_id], note)
                    ruled.append((pair, None))
                    continue
            if relation is not None:
                ruled.append((pair, relation))
        settled.append((note, ruled))
    learned.encode_sentences()
    for note, ruled in settled:
        relations = []
        for pair, maybe in ruled:
            relation = maybe if maybe is not None else learned.relation(by_id[pair.other_id], note)
            if relation is not None:
                relations.append((pair, relation))
        resolver.resolve(note, _one_marked_change(_one_learned(relations, learned)))
    created, changed, decisions = resolver.materialise(now=now, new_id=new_id)
    updated.update({m.id: m for m in changed})
    return MergePlan(
        created=tuple(created),
        updated=tuple(updated.values()),
        decisions=(*dropped, *decisions),
        judge_call=judge_call,
    )


def _one_marked_change(relations: list[tuple[_Pair, Relation]]) -> list[Relation]:
    """A change marked by words alone ("now", "switched to") replaces one value: of the
    memories it could replace, only the closest in meaning loses. "Now cycles to work"
    replaces "Rides a bike to work", not also "Goes cycling on weekend mornings"."""
    marked = [
        (pair, relation)
        for pair, relation in relations
        if relation.reason is DecisionReason.MARKED_CHANGE
    ]
    if len(marked) < 2:
        return [relation for _, relation in relations]
    keep = max(marked, key=lambda item: item[0].meaning or 0.0)[1]
    return [
        relation
        for _, relation in relations
        if relation.reason is not DecisionReason.MARKED_CHANGE or relation is keep
    ]


def _one_learned(
    relations: list[tuple[_Pair, Relation]], learned: _LearnedPairs
) -> list[tuple[_Pair, Relation]]:
    """The pair model speaks for a note only when nothing else found a relation for it, and
    then for one memory, the one it is surest of: a fact restated or updated is one memory,
    and a look-alike second value it misreads costs a true fact each time."""
    by_model = [item for item in relations if item[1].reason is DecisionReason.LEARNED_PAIR]
    if not by_model:
        return relations
    if len(by_model) < len(relations):
        return [item for item in relations if item[1].reason is not DecisionReason.LEARNED_PAIR]
    return [max(by_model, key=lambda item: learned.rank(item[0].other_id))]


def _destroy_replaced_copies(
    notes: Sequence[Memory], refused: set[str], updated: dict[str, Memory], now: datetime
) -> list[Decision]:
    """A refused note may have replaced, at save, this session's note of the same text
    (session-only, or a guess): that copy is destroyed too, or the refused text would stay
    readable in it."""
    decisions = []
    for note in notes:
        if note.superseded_by in refused and note.scope is MemoryScope.SESSION:
            updated[note.id] = note.destroy(at=now)
            decisions.append(
                Decision(
                    DecisionKind.REFUSED,
                    note.id,
                    DecidedBy.LLM,
                    DecisionReason.LLM_REFUSED,
                    other_id=note.superseded_by,
                )
            )
    return decisions


def _require_one_subject(memories: Iterable[Memory]) -> None:
    owners = {(m.tenant_id, m.subject_id) for m in memories}
    if len(owners) > 1:
        raise ValueError("consolidation was given memories of more than one tenant or subject")


def _older_first(a: Memory, b: Memory) -> tuple[Memory, Memory]:
    """A global may be newer than a note (written by a later session already merged)."""
    return (b, a) if a.updated_at > b.updated_at else (a, b)


@dataclass(frozen=True)
class _Pair:
    """A candidate of a note: its id, the rules' relation (older first) and the cosine of
    the two notes' content words (None without an embedding)."""

    other_id: str
    rule: PairRelation
    meaning: float | None


def _classify(
    other: Memory, note: Memory, terms: Mapping[str, NoteTerms], meanings: Mapping[str, Vector]
) -> _Pair:
    older, newer = _older_first(other, note)
    a, b = meanings.get(older.id), meanings.get(newer.id)
    meaning = cosine(a, b) if a is not None and b is not None else None
    return _Pair(other.id, classify_pair(terms[older.id], terms[newer.id], meaning), meaning)


def _find_pairs(
    eligible: Sequence[Memory],
    candidates: Sequence[Memory],
    terms: Mapping[str, NoteTerms],
    vectors: Mapping[str, Vector],
    meanings: Mapping[str, Vector],
) -> dict[str, list[_Pair]]:
    """For each note, its candidates (globals and earlier notes) and the rules' relation.

    Notes join the index after being looked up, so a note meets only earlier notes.
    """
    by_id = {m.id: m for m in [*candidates, *eligible]}
    indexes: dict[str, _CandidateIndex] = defaultdict(_CandidateIndex)
    for memory in candidates:
        indexes[memory.purpose].add(
            memory, candidate_terms(memory, terms[memory.id]), vectors.get(memory.id)
        )
    pairs: dict[str, list[_Pair]] = {}
    for note in eligible:
        index = indexes[note.purpose]
        note_terms = candidate_terms(note, terms[note.id])
        vector = vectors.get(note.id)
        pairs[note.id] = [
            _classify(by_id[other_id], note, terms, meanings)
            for other_id in index.candidates(note, note_terms, vector)
        ]
        index.add(note, note_terms, vector)
    return pairs


def _same_key(older: Memory, newer: Memory) -> Cardinality | None:
    """The newer note's cardinality when both notes name the same attribute (keys compared
    by :func:`key_form`: ``pets`` and ``has_pet`` are one)."""
    if older.attribute is None or newer.attribute is None:
        return None
    if key_form(older.attribute) != key_form(newer.attribute):
        return None
    return newer.attribute.cardinality


def _needs_judge(older: Memory, newer: Memory, rule: PairRelation) -> bool:
    """Every pair the rules cannot settle alone; a single-valued attribute settles its own."""
    if rule in (PairRelation.EXACT, PairRelation.NEAR):
        return False
    return _same_key(older, newer) is not Cardinality.SINGLE


def _judge_request(
    found: Mapping[str, list[_Pair]],
    by_id: Mapping[str, Memory],
    notes_to_check: Sequence[Memory],
) -> JudgeRequest:
    pairs: list[CandidatePair] = []
    for note_id, candidates in found.items():
        note = by_id[note_id]
        for pair in candidates:
            older, newer = _older_first(by_id[pair.other_id], note)
            if _needs_judge(older, newer, pair.rule):
                pairs.append(
                    CandidatePair(
                        pair_id=f"p{len(pairs) + 1}",
                        first_id=older.id,
                        first_text=older.text,
                        second_id=newer.id,
                        second_text=newer.text,
                        first_hypothesis=older.is_hypothesis,
                        second_hypothesis=newer.is_hypothesis,
                    )
                )
    checks = tuple(
        NoteToCheck(check_id=f"n{i}", memory_id=note.id, text=note.text)
        for i, note in enumerate(notes_to_check, 1)
    )
    return JudgeRequest(pairs=tuple(pairs), notes=checks)


_MERGES_BY_RULE = {
    PairRelation.EXACT: (DecisionKind.DUPLICATE, DecisionReason.NORMALIZED_EQUAL),
    PairRelation.NEAR: (DecisionKind.NEAR_DUPLICATE, DecisionReason.LEXICAL_SIMILARITY),
    PairRelation.REFINES: (DecisionKind.REFINES, DecisionReason.ADDS_DETAIL),
    PairRelation.CLOSE: (DecisionKind.SAME_MEANING, DecisionReason.CLOSE_MEANING),
}
_MERGES_BY_VERDICT = {
    Verdict.SAME: (DecisionKind.SAME_MEANING, DecisionReason.JUDGED_SAME),
    Verdict.REFINES: (DecisionKind.REFINES, DecisionReason.JUDGED_REFINES),
}


def _relation(
    other: Memory,
    note: Memory,
    pair: _Pair,
    verdict: Verdict | None,
    terms: Mapping[str, NoteTerms],
    inferred: _InferredSlots,
) -> Relation | None:
    """The rules', the attribute's and the judge's views of one pair, merged.

    ``other`` is the candidate (a global or an earlier note, older or newer than ``note``:
    the resolver orders conflicts by time); ``pair.rule`` was classified older first.
    """
    rule = pair.rule
    other_more_specific = more_specific(terms[other.id], terms[note.id])
    if rule is PairRelation.EXACT or (rule is PairRelation.NEAR and verdict is None):
        kind, reason = _MERGES_BY_RULE[rule]
        return Relation(other.id, kind, DecidedBy.RULES, reason, other_more_specific)
    if verdict in _MERGES_BY_VERDICT:
        kind, reason = _MERGES_BY_VERDICT[verdict]
        return Relation(other.id, kind, DecidedBy.LLM, reason, other_more_specific)
    if rule is PairRelation.REFINES and verdict is None:
        kind, reason = _MERGES_BY_RULE[rule]
        return Relation(other.id, kind, DecidedBy.RULES, reason)
    if rule is PairRelation.CLOSE and verdict is None:
        kind, reason = _MERGES_BY_RULE[rule]
        return Relation(other.id, kind, DecidedBy.RULES, reason, other_more_specific)
    older, newer = _older_first(other, note)
    if other.attribute is not None and note.attribute is not None:
        cardinality = _same_key(other, note)
        if cardinality is Cardinality.SINGLE:
            return Relation(
                other.id, DecisionKind.CONFLICT, DecidedBy.ATTRIBUTE, DecisionReason.SINGLE_VALUED
            )
        if cardinality is Cardinality.MULTI and verdict in (None, Verdict.CONFLICT):
            by = DecidedBy.LLM if verdict is Verdict.CONFLICT else DecidedBy.RULES
            if rule is PairRelation.NEGATED or (
                verdict is Verdict.CONFLICT and _explicit_removal(terms[older.id], terms[newer.id])
            ):
                return Relation(other.id, DecisionKind.CONFLICT, by, DecisionReason.NEGATION)
            if verdict is Verdict.CONFLICT and older.is_hypothesis != newer.is_hypothesis:
                # The judge read a guess and a statement as contradicting: the guess yields.
                return Relation(
                    other.id, DecisionKind.CONFLICT, by, DecisionReason.HYPOTHESIS_YIELDS
                )
            if _denies_attribute(terms[older.id], terms[newer.id], newer):
                return Relation(
                    other.id, DecisionKind.CONFLICT, DecidedBy.ATTRIBUTE, DecisionReason.NEGATION
                )
            if verdict is None and _guess_meets_fact(older, newer, pair, terms, multi=True):
                return _guess_yields(other.id)
        if cardinality is None and verdict is Verdict.CONFLICT:
            # Two keys for one topic ("vehicle" / "commute_mode"): the judge read both texts.
            return Relation(
                other.id, DecisionKind.CONFLICT, DecidedBy.LLM, DecisionReason.JUDGED_CONFLICT
            )
        # Without a judge, different attributes never conflict; a multi-valued one keeps its
        # other values.
        return None
    if verdict is Verdict.CONFLICT:
        return Relation(
            other.id, DecisionKind.CONFLICT, DecidedBy.LLM, DecisionReason.JUDGED_CONFLICT
        )
    if (
        verdict is None
        and not (terms[older.id].third_party or terms[newer.id].third_party)
        and inferred.one_single_slot(older, newer)
    ):
        return Relation(
            other.id, DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.INFERRED_SLOT
        )
    if verdict is None and rule is PairRelation.NEGATED:
        return Relation(other.id, DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.NEGATION)
    if verdict is None and inferred.denies_slot(older, newer, terms[older.id], terms[newer.id]):
        return Relation(other.id, DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.NEGATION)
    if verdict is None and rule is PairRelation.REPLACED:
        return Relation(
            other.id, DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.MARKED_CHANGE
        )
    if verdict is None and _guess_meets_fact(older, newer, pair, terms):
        return _guess_yields(other.id)
    return None


class _Values:
    """Two notes of one multi-valued attribute, the same value under other verbs ("Is
    learning Japanese" / "Studies Japanese"): one value reworded, merged (the newer wording
    kept). The verbs come from the syntax port, asked once per memory and only for the pairs
    that reach it; they are kept, by memory id, for this plan alone."""

    def __init__(self, syntax: Syntax | None, terms: Mapping[str, NoteTerms]) -> None:
        self._syntax = syntax
        self._terms = terms
        self._verbs: dict[str, frozenset[str]] = {}

    def _verbs_of(self, memory: Memory, syntax: Syntax) -> frozenset[str]:
        if memory.id not in self._verbs:
            self._verbs[memory.id] = syntax.verbs(memory.text)
        return self._verbs[memory.id]

    def relation(self, other: Memory, note: Memory) -> Relation | None:
        syntax = self._syntax
        if syntax is None or _same_key(other, note) is not Cardinality.MULTI:
            return None
        older, newer = _older_first(other, note)
        if not same_value(
            self._terms[older.id],
            self._terms[newer.id],
            self._verbs_of(older, syntax),
            self._verbs_of(newer, syntax),
        ):
            return None
        return Relation(
            other.id,
            DecisionKind.SAME_MEANING,
            DecidedBy.RULES,
            DecisionReason.SAME_VALUE,
            more_specific(self._terms[other.id], self._terms[note.id]),
        )


# The pair model's labels that keep one value, the newer wording holding it.
_MERGE_LABELS = frozenset({"same", "refines"})


class _LearnedPairs:
    """The pair model's view of the pairs no judge and no rule settled (:mod:`.pairs`)."""

    _KINDS = {
        "same": DecisionKind.SAME_MEANING,
        "refines": DecisionKind.REFINES,
        "conflict": DecisionKind.CONFLICT,
    }

    def __init__(
        self,
        model: PairModel,
        terms: Mapping[str, NoteTerms],
        vectors: Mapping[str, Vector],
        meanings: Mapping[str, Vector],
        inferred: _InferredSlots,
        embedder: Embedder | None,
        sentences: SentenceEncoder | None = None,
    ) -> None:
        self._model = model
        self._terms = terms
        self._vectors = vectors
        self._meanings = meanings
        self._inferred = inferred
        self._embedder = embedder
        self._words: dict[str, Sequence[Vector] | None] = {}
        self._confidence: dict[str, float] = {}
        # Only when the model reads them; in memory for this plan alone, never stored.
        self._sentences = sentences if model.sentence_dims is not None else None
        self._sentence: dict[str, Vector] = {}
        self._wanted: dict[str, str] = {}

    def will_ask(self, other: Memory, note: Memory) -> None:
        """The rules left this pair to the model: its memories' sentence vectors are needed
        (if the model reads them and :meth:`relation` will not turn the pair away first)."""
        if self._sentences is None or self._turned_away(other, note):
            return
        for memory in (other, note):
            self._wanted.setdefault(memory.id, memory.text)

    def encode_sentences(self) -> None:
        """The sentence vectors of every memory :meth:`will_ask` named, in one encoder call."""
        todo = [(i, text) for i, text in self._wanted.items() if i not in self._sentence]
        if self._sentences is None or not todo:
            return
        encoded = self._sentences.encode([text for _, text in todo])
        self._sentence.update(zip((i for i, _ in todo), encoded, strict=True))

    def _sentence_vector(self, memory: Memory) -> Vector | None:
        """The sentence encoder's vector of the memory's text, encoded once per plan and
        only for the memories the model is asked about (None when the model reads none)."""
        if self._sentences is None:
            return None
        if memory.id not in self._sentence:
            (self._sentence[memory.id],) = self._sentences.encode([memory.text])
        return self._sentence[memory.id]

    def _turned_away(self, other: Memory, note: Memory) -> bool:
        """The pair is never read: two attributes that settle it, or someone else."""
        one_multi = _same_key(other, note) is Cardinality.MULTI
        if other.attribute is not None and note.attribute is not None and not one_multi:
            return True
        return self._terms[other.id].third_party or self._terms[note.id].third_party

    def _word_vectors(self, memory: Memory) -> Sequence[Vector] | None:
        """The vectors of the memory's content words, embedded once per plan, and only for
        the memories the model is asked about (None without an embedder)."""
        if memory.id not in self._words:
            words = content_words(memory.text)
            self._words[memory.id] = (
                None if self._embedder is None else (self._embedder.embed(words) if words else [])
            )
        return self._words[memory.id]

    def _view(self, memory: Memory) -> NoteView:
        return NoteView(
            self._terms[memory.id],
            self._vectors.get(memory.id),
            self._meanings.get(memory.id),
            self._inferred.probabilities(memory),
            self._word_vectors(memory),
            self._inferred.scope(memory),
            self._sentence_vector(memory),
        )

    def relation(self, other: Memory, note: Memory) -> Relation | None:
        """A merge or a conflict when the model is sure enough the pair holds one fact.

        Never without both vectors of the width it was trained on, never when either note
        is about someone else, never between two notes whose agent sent attributes of
        different keys (different facts) or of one single-valued key (the attribute settled
        it). Two notes of one multi-valued key are read for a merge only: a ``same`` or
        ``refines`` verdict restates one value ("Likes skiing in the trees" / "Loves tree
        runs"), a ``conflict`` is another value beside it, which only a negation or removal
        takes away.

        A guess and a statement (either order) are read at the model's lower
        ``hypothesis_threshold``, and the statement holds: an older guess is confirmed
        (``same``, ``refines``: the memory takes the statement's source and wording) or
        superseded (``conflict``); a newer guess is read as a conflict whatever the label,
        which the resolver turns into the guess yielding to the stated fact (not promoted,
        ``hypothesis_yields``): a guess never beats a statement."""
        older, newer = _older_first(other, note)
        one_multi = _same_key(other, note) is Cardinality.MULTI
        if self._turned_away(other, note):
            return None
        guess_meets_fact = older.is_hypothesis != newer.is_hypothesis
        verdict = self._model.related(
            self._view(older), self._view(newer), guess_meets_fact=guess_meets_fact
        )
        if verdict is None or (one_multi and verdict.label not in _MERGE_LABELS):
            return None
        self._confidence[other.id] = verdict.related
        kind = self._KINDS[verdict.label]
        if guess_meets_fact and newer.is_hypothesis:
            kind = DecisionKind.CONFLICT  # the resolver records it as the guess yielding
        more_specific_other = kind is not DecisionKind.CONFLICT and more_specific(
            self._terms[other.id], self._terms[note.id]
        )
        return Relation(
            other.id, kind, DecidedBy.RULES, DecisionReason.LEARNED_PAIR, more_specific_other
        )

    def rank(self, other_id: str) -> tuple[float, str]:
        """How sure the model was of a pair it called related (ties by id)."""
        return self._confidence.get(other_id, 0.0), other_id


class _InferredSlots:
    """The slot model's view of the memories of one plan, computed only for the pairs that
    reach it (a few per note), once per memory."""

    def __init__(self, model: SlotModel, vectors: Mapping[str, Vector]) -> None:
        self._model = model
        self._vectors = vectors
        self._slots: dict[str, Attribute | None] = {}
        self._probabilities: dict[str, Mapping[str, float]] = {}

    def probabilities(self, memory: Memory) -> Mapping[str, float] | None:
        """The slot model's probabilities for the note's text (None without a vector)."""
        vector = self._vectors.get(memory.id)
        if vector is None or len(vector) < self._model.vector_dims:
            return None
        if memory.id not in self._probabilities:
            self._probabilities[memory.id] = self._model.probabilities(memory.text, vector)
        return self._probabilities[memory.id]

    def scope(self, memory: Memory) -> frozenset[str]:
        """The note's scope words ("flights", "weekends"), by the slot model."""
        return self._model.scope(memory.text)

    def _slot(self, memory: Memory) -> Attribute | None:
        """The agent's attribute, else the inferred slot as one."""
        if memory.attribute is not None:
            return memory.attribute
        if memory.id not in self._slots:
            slot = self._model.infer(memory.text, self._vectors.get(memory.id))
            self._slots[memory.id] = Attribute(slot.key, slot.cardinality) if slot else None
        return self._slots[memory.id]

    def denies_slot(
        self, older: Memory, newer: Memory, older_terms: NoteTerms, newer_terms: NoteTerms
    ) -> bool:
        """One note denies a whole slot in the slot's own words ("Has no pets") and the other
        holds a value the slot model puts in it ("Adopted a rescue dog", slot ``pet``): the
        newer one wins, as a negation flip would (the agent's attributes do the same with
        :func:`_denies_attribute`). Never about someone else, never an added value."""
        if older_terms.negated == newer_terms.negated or newer_terms.additive:
            return False
        if older_terms.third_party or newer_terms.third_party:
            return False
        denial, holder = (older_terms, newer) if older_terms.negated else (newer_terms, older)
        slot = self._slot(holder)
        if slot is None or not denial.topic:
            return False
        return denial.topic <= terms_of(key_words(slot)).content

    def one_single_slot(self, older: Memory, newer: Memory) -> bool:
        """At least one side inferred, both in one single-valued slot (an agent's key
        compared by :func:`key_form`), with the same scope ("on long flights" / "on short
        flights", "at work" / "at home" are two facts)."""
        if older.attribute is not None and newer.attribute is not None:
            return False
        a, b = self._slot(older), self._slot(newer)
        return (
            a is not None
            and b is not None
            and a.cardinality is Cardinality.SINGLE
            and b.cardinality is Cardinality.SINGLE
            and key_form(a) == key_form(b)
            and self._model.one_fact(older.text, newer.text)
        )


def _guess_yields(other_id: str) -> Relation:
    """The guess side of the pair loses (the resolver lets a hypothesis lose whatever its
    age)."""
    return Relation(
        other_id, DecisionKind.CONFLICT, DecidedBy.RULES, DecisionReason.HYPOTHESIS_YIELDS
    )


def _guess_meets_fact(
    older: Memory,
    newer: Memory,
    pair: _Pair,
    terms: Mapping[str, NoteTerms],
    *,
    multi: bool = False,
) -> bool:
    """Without a judge, a guess close to a stated fact gives way to it.

    A guess and a statement giving another value to one frame ("Works in finance" guessed /
    "Works as a nurse" said, or the other way round) settle for the statement, unless either
    is about someone else. Either way round, a guess and a statement close in meaning
    (:data:`HYPOTHESIS_COSINE`) restate or contradict each other, and the statement holds
    either way ("Seems to be a cat person" / "Loves cats"). An additive word ("also",
    "aussi") keeps both: a second value. What it costs: a guess close to a statement it
    neither restates nor contradicts is dropped; a guess is never kept over a statement, so
    no stated fact is lost. Within one ``multi`` attribute, another value in the same frame
    is a second value, not a contradiction.
    """
    if older.is_hypothesis == newer.is_hypothesis:
        return False
    if terms[older.id].additive or terms[newer.id].additive:
        return False
    if pair.rule is PairRelation.SAME_FRAME:
        if multi:
            return False
        return not (terms[older.id].third_party or terms[newer.id].third_party)
    return pair.meaning is not None and pair.meaning >= HYPOTHESIS_COSINE


def _explicit_removal(older: NoteTerms, newer: NoteTerms) -> bool:
    """The newer note removes or denies something ("Quit football after a knee injury"): with
    the judge's ``conflict``, what it removes is the older value of a multi-valued attribute."""
    return newer.removal or older.negated != newer.negated


def _denies_attribute(older: NoteTerms, newer: NoteTerms, newer_note: Memory) -> bool:
    """One side denies the whole multi-valued attribute ("Has no pets" for ``pets``: its
    content words are the key's own) and the other holds a value of it ("Adopted a dog"):
    the newer one wins, as a negation flip would."""
    assert newer_note.attribute is not None
    key = terms_of(key_words(newer_note.attribute)).content
    if older.negated == newer.negated:
        return False
    denial = older if older.negated else newer
    return bool(denial.content) and denial.content <= key
