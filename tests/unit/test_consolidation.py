"""Consolidation decisions on plain lists: no store, no LLM, a fixed time."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_service.core import consolidation
from memory_service.core.consolidation import (
    CandidatePair,
    DecidedBy,
    DecisionKind,
    DecisionReason,
    JudgeRequest,
    JudgeResult,
    MergePlan,
    NoteVerdict,
    Verdict,
    plan_consolidation,
)
from memory_service.core.consolidation.attributes import key_form
from memory_service.core.consolidation.rules import (
    PairRelation,
    classify_pair,
    content_text,
    looks_ephemeral,
    terms_of,
)
from memory_service.core.judgment.model import JudgmentModel, Thresholds
from memory_service.core.model import (
    Attribute,
    Cardinality,
    Durability,
    Memory,
    MemoryScope,
    MemoryStatus,
    Provenance,
    Source,
)
from tests.factories import AT, SESSION, make_memory

NOW = AT
EDITOR = Attribute("main_editor", Cardinality.SINGLE)
CUISINE = Attribute("cuisine_liked", Cardinality.MULTI)


def make_note(
    text: str,
    *,
    scope: MemoryScope = MemoryScope.SESSION,
    keywords: tuple[str, ...] = (),
    updated_at: datetime | None = None,
    **changes: Any,
) -> Memory:
    """A session note of five minutes ago (or ``updated_at``), without keywords by default."""
    at = updated_at or NOW - timedelta(minutes=5)
    return make_memory(text, at=at, scope=scope, keywords=keywords, **changes)


def make_global(text: str, **kwargs: Any) -> Memory:
    """A global memory of a month ago (or ``updated_at``)."""
    kwargs.setdefault("updated_at", NOW - timedelta(days=30))
    return make_note(text, scope=MemoryScope.GLOBAL, **kwargs)


def id_factory() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"new-{next(counter)}"


def plan(notes: Sequence[Memory], globals_: Sequence[Memory] = (), **kwargs: Any) -> MergePlan:
    return plan_consolidation(notes, globals_, now=NOW, new_id=id_factory(), **kwargs)


def apply(plan_: MergePlan, memories: Sequence[Memory]) -> list[Memory]:
    """What a store would hold after the plan: changes replace, creations append."""
    changed = {m.id: m for m in plan_.updated}
    return [changed.get(m.id, m) for m in memories] + list(plan_.created)


def split(memories: Sequence[Memory]) -> tuple[list[Memory], list[Memory]]:
    notes = [m for m in memories if m.scope is MemoryScope.SESSION]
    return notes, [m for m in memories if m.scope is MemoryScope.GLOBAL]


def by_id(plan_: MergePlan) -> dict[str, Memory]:
    return {m.id: m for m in [*plan_.updated, *plan_.created]}


@dataclass
class ScriptedJudge:
    """Answers by a function of the texts; records what it was shown."""

    answer: Callable[[CandidatePair], Verdict | str | None]
    fail: bool = False
    model: str = "scripted"
    prompt_version: str = "test/1"
    calls: list[list[CandidatePair]] = field(default_factory=list)
    extra: Mapping[str, Verdict | str] = field(default_factory=dict)
    refuse: frozenset[str] = frozenset()
    checked: list[list[str]] = field(default_factory=list)

    def judge(self, request: JudgeRequest) -> JudgeResult | None:
        pairs = request.pairs
        self.calls.append(list(pairs))
        self.checked.append([n.text for n in request.notes])
        if self.fail:
            return None
        verdicts: dict[str, Any] = {}
        for pair in pairs:
            verdict = self.answer(pair)
            if verdict is not None:
                verdicts[pair.pair_id] = verdict
        verdicts.update(self.extra)
        notes = {
            n.check_id: NoteVerdict.REFUSE if n.text in self.refuse else NoteVerdict.KEEP
            for n in request.notes
        }
        return JudgeResult(
            verdicts=verdicts, note_verdicts=notes, prompt_tokens=120, completion_tokens=30
        )


def test_an_exact_duplicate_of_a_global_refreshes_it_instead_of_making_a_copy() -> None:
    existing = make_global("Prefers aisle seats.", keywords=("seat",))
    note = make_note("prefers   AISLE seats", keywords=("seat",))

    result = plan([note], [existing])

    assert result.created == ()
    refreshed = by_id(result)[existing.id]
    assert refreshed.status is MemoryStatus.ACTIVE
    assert refreshed.updated_at == note.updated_at
    assert note.id in refreshed.provenance.derived_from
    [decision] = result.decisions
    assert (decision.kind, decision.reason) == (
        DecisionKind.DUPLICATE,
        DecisionReason.NORMALIZED_EQUAL,
    )
    assert (decision.other_id, decision.kept_id) == (existing.id, existing.id)


def test_a_near_duplicate_merges_into_the_existing_global() -> None:
    existing = make_global("prefers aisle seats", keywords=("seat",))
    note = make_note("Prefers an aisle seat.", keywords=("seat",))

    result = plan([note], [existing])

    assert result.created == ()
    assert [d.kind for d in result.decisions] == [DecisionKind.NEAR_DUPLICATE]
    assert note.id in by_id(result)[existing.id].provenance.derived_from


def test_duplicates_within_one_session_become_one_global_listing_both() -> None:
    first = make_note("Works remotely from Lyon.", updated_at=NOW - timedelta(minutes=9))
    second = make_note("works remotely from lyon", updated_at=NOW - timedelta(minutes=2))

    result = plan([first, second])

    [created] = result.created
    assert set(created.provenance.derived_from) == {first.id, second.id}
    assert created.updated_at == second.updated_at
    assert [d.kind for d in result.decisions] == [DecisionKind.NEW, DecisionKind.DUPLICATE]


def test_vs_code_then_vim_supersedes_the_older_global() -> None:
    old = make_global("Uses VS Code as editor.", keywords=("editor",))
    note = make_note("Now uses Vim as editor.", keywords=("editor",))

    result = plan([note], [old])

    [created] = result.created
    assert created.text == note.text
    loser = by_id(result)[old.id]
    assert loser.status is MemoryStatus.SUPERSEDED
    assert (loser.superseded_at, loser.superseded_by) == (NOW, created.id)
    conflict = next(d for d in result.decisions if d.kind is DecisionKind.CONFLICT)
    assert (conflict.kept_id, conflict.superseded_id) == (created.id, old.id)
    assert (conflict.decided_by, conflict.reason) == (
        DecidedBy.RULES,
        DecisionReason.MARKED_CHANGE,
    )


def test_a_newer_global_beats_an_older_session_note() -> None:
    newer = make_global("Now uses Vim as editor.", keywords=("editor",), updated_at=NOW)
    note = make_note("Uses VS Code as editor.", keywords=("editor",))

    result = plan([note], [newer])

    assert result.created == ()
    assert newer.id not in by_id(result)
    lost = by_id(result)[note.id]
    assert (lost.status, lost.superseded_by) == (MemoryStatus.SUPERSEDED, newer.id)
    [decision] = result.decisions
    assert (decision.kind, decision.kept_id, decision.superseded_id) == (
        DecisionKind.CONFLICT,
        newer.id,
        note.id,
    )


def test_on_a_tie_the_session_note_wins() -> None:
    at = NOW - timedelta(hours=1)
    existing = make_global("Uses VS Code as editor.", keywords=("editor",), updated_at=at)
    note = make_note("Now uses Vim as editor.", keywords=("editor",), updated_at=at)

    result = plan([note], [existing])

    [created] = result.created
    assert by_id(result)[existing.id].superseded_by == created.id


def test_a_conflict_inside_one_session_keeps_only_the_later_note_as_global() -> None:
    first = make_note("Uses VS Code as editor.", keywords=("editor",))
    later = make_note(
        "Now uses Vim as editor.", keywords=("editor",), updated_at=NOW - timedelta(minutes=1)
    )

    result = plan([later, first])

    [created] = result.created
    assert created.provenance.derived_from == (later.id,)
    assert by_id(result)[first.id].superseded_by == created.id


def test_unrelated_notes_sharing_a_keyword_are_both_kept() -> None:
    existing = make_global("Likes Italian food.", keywords=("food",))
    note = make_note("Is allergic to peanuts.", keywords=("food",))

    result = plan([note], [existing])

    assert [m.text for m in result.created] == [note.text]
    assert existing.id not in by_id(result)


def test_session_only_and_ephemeral_notes_are_dropped_and_expired() -> None:
    only_now = make_note("Wants the window seat.", durability=Durability.SESSION)
    tonight = make_note("Is having dinner with the team tonight.")
    habit = make_note("Goes to the gym every Monday evening.")

    result = plan([only_now, tonight, habit])

    assert [m.text for m in result.created] == [habit.text]
    kinds = {d.note_id: d.kind for d in result.decisions}
    assert kinds[only_now.id] is DecisionKind.DROPPED_SESSION_ONLY
    assert kinds[tonight.id] is DecisionKind.DROPPED_EPHEMERAL
    for dropped in (only_now, tonight):
        assert by_id(result)[dropped.id].status is MemoryStatus.EXPIRED


def test_pending_and_non_active_notes_are_left_alone() -> None:
    pending = make_note("Prefers tea.", status=MemoryStatus.PENDING_CONFIRMATION)
    deleted = make_note("Prefers coffee.", status=MemoryStatus.DELETED)

    assert plan([pending, deleted]).is_empty


def test_provenance_lists_every_source_and_the_new_global_is_global() -> None:
    notes = [
        make_note("Speaks Portuguese.", keywords=("language",)),
        make_note("speaks portuguese", keywords=("language",)),
        make_note("Speaks  Portuguese!", keywords=("language",)),
    ]

    result = plan(notes)

    [created] = result.created
    assert set(created.provenance.derived_from) == {n.id for n in notes}
    assert created.id == "new-1"
    assert (created.scope, created.session_id, created.status) == (
        MemoryScope.GLOBAL,
        None,
        MemoryStatus.ACTIVE,
    )
    assert created.provenance.session_id == SESSION
    assert created.created_at == NOW
    assert all(by_id(result)[n.id].superseded_by == created.id for n in notes)


def test_a_stated_fact_confirms_a_model_inferred_hypothesis_which_keeps_its_id() -> None:
    guess = make_global(
        "Prefers aisle seats.", source=Source.MODEL_INFERRED, legal_basis="legitimate_interest"
    )
    stated = make_note("prefers aisle seats", legal_basis="consent")

    result = plan([stated], [guess])

    assert result.created == ()
    confirmed = by_id(result)[guess.id]
    assert (confirmed.status, confirmed.source, confirmed.legal_basis) == (
        MemoryStatus.ACTIVE,
        Source.USER_STATED,
        "consent",
    )
    assert confirmed.text == stated.text
    assert stated.id in confirmed.provenance.derived_from
    assert by_id(result)[stated.id].superseded_by == guess.id
    assert result.decisions[0].reason is DecisionReason.CONFIRMS_HYPOTHESIS


def test_a_hypothesis_never_supersedes_a_stated_fact() -> None:
    stated = make_global("Uses VS Code as editor.", attribute=EDITOR)
    guess = make_note("Uses Vim as editor.", attribute=EDITOR, source=Source.MODEL_INFERRED)

    result = plan([guess], [stated])

    assert result.created == ()
    assert stated.id not in by_id(result)
    [decision] = result.decisions
    assert (decision.kind, decision.reason, decision.kept_id) == (
        DecisionKind.CONFLICT,
        DecisionReason.HYPOTHESIS_YIELDS,
        stated.id,
    )


def test_a_stated_fact_supersedes_a_newer_hypothesis_of_the_same_attribute() -> None:
    guess = make_global(
        "Uses Vim as editor.", attribute=EDITOR, source=Source.MODEL_INFERRED, updated_at=NOW
    )
    stated = make_note("Uses VS Code as editor.", attribute=EDITOR)

    result = plan([stated], [guess])

    [created] = result.created
    assert by_id(result)[guess.id].superseded_by == created.id


def _active_texts(result: MergePlan, memories: Sequence[Memory]) -> set[str]:
    return {
        m.text
        for m in apply(result, memories)
        if m.scope is MemoryScope.GLOBAL and m.status is MemoryStatus.ACTIVE
    }


def test_without_attributes_a_newer_guess_in_a_stated_frame_yields_to_the_statement() -> None:
    stated = make_global("Lives in Paris.", keywords=("city",))
    guess = make_note("May live in Lyon.", keywords=("city",), source=Source.MODEL_INFERRED)

    result = plan([guess], [stated])

    assert _active_texts(result, [stated, guess]) == {"Lives in Paris."}
    assert result.decisions[0].reason is DecisionReason.HYPOTHESIS_YIELDS


def test_a_stated_value_in_the_frame_of_an_older_guess_replaces_it() -> None:
    guess = make_global("Works in finance.", source=Source.MODEL_INFERRED)
    stated = make_note("Works as a nurse.")

    result = plan([stated], [guess])

    assert _active_texts(result, [guess, stated]) == {"Works as a nurse."}


def test_without_attributes_a_stated_value_after_a_guess_keeps_both() -> None:
    guess = make_global("Likes jazz.", source=Source.MODEL_INFERRED)
    stated = make_note("Likes classical music.")

    result = plan([stated], [guess])

    assert _active_texts(result, [guess, stated]) == {"Likes jazz.", "Likes classical music."}


def test_a_hedged_guess_is_confirmed_by_the_statement_it_guessed() -> None:
    guess = make_global("Probably vegetarian.", source=Source.MODEL_INFERRED)
    stated = make_note("Is vegetarian.")

    result = plan([stated], [guess])

    confirmed = by_id(result)[guess.id]
    assert (confirmed.text, confirmed.source) == ("Is vegetarian.", Source.USER_STATED)


def _unit(cos: float) -> tuple[float, float]:
    """A 2-d unit vector at ``cos`` from (1, 0)."""
    return (cos, (1 - cos * cos) ** 0.5)


@pytest.mark.parametrize(("cos", "kept"), [(0.6, 1), (0.4, 2)])
def test_a_statement_close_in_meaning_to_a_guess_settles_it(cos: float, kept: int) -> None:
    # No shared frame (a shared frame settles whatever the cosine): meaning decides.
    guess = make_global("Seems to be a cat person.", source=Source.MODEL_INFERRED)
    stated = make_note("Loves felines.")
    meanings = {guess.id: (1.0, 0.0), stated.id: _unit(cos)}

    result = plan([stated], [guess], vectors=meanings, meanings=meanings)

    active = [
        m
        for m in apply(result, [guess, stated])
        if m.scope is MemoryScope.GLOBAL and m.status is MemoryStatus.ACTIVE
    ]
    assert len(active) == kept
    assert "Loves felines." in {m.text for m in active}
    if kept == 1:
        assert active[0].source is Source.USER_STATED


def test_a_guess_close_to_a_stated_fact_yields_but_an_additive_guess_stays() -> None:
    stated = make_global("Does not own a car.")
    guess = make_note("Drives to work every day.", source=Source.MODEL_INFERRED)
    meanings = {stated.id: (1.0, 0.0), guess.id: _unit(0.55)}
    result = plan([guess], [stated], vectors=meanings, meanings=meanings)
    assert _active_texts(result, [stated, guess]) == {"Does not own a car."}

    sushi = make_global("Likes sushi.")
    ramen = make_note("Possibly likes ramen too.", source=Source.MODEL_INFERRED)
    meanings = {sushi.id: (1.0, 0.0), ramen.id: _unit(0.55)}
    result = plan([ramen], [sushi], vectors=meanings, meanings=meanings)
    assert _active_texts(result, [sushi, ramen]) == {"Likes sushi.", "Possibly likes ramen too."}


def test_a_change_marked_by_words_replaces_only_the_closest_value() -> None:
    bike = make_global("Rides a bike to work.")
    weekend = make_global("Goes cycling on weekend mornings.")
    # Both share the frame "cycl" with the newer note; only the closer one is replaced.
    change = make_note("Now cycles to work.")
    meanings = {bike.id: _unit(0.5), weekend.id: _unit(0.35), change.id: (1.0, 0.0)}
    terms = {m.id: terms_of(m.text) for m in (bike, weekend, change)}
    assert classify_pair(terms[weekend.id], terms[change.id]) is PairRelation.REPLACED

    result = plan([change], [bike, weekend], vectors=meanings, meanings=meanings)

    assert _active_texts(result, [bike, weekend, change]) == {
        "Goes cycling on weekend mornings.",
        "Now cycles to work.",
    }


PETS = Attribute("pets", Cardinality.MULTI)
LANGUAGES = Attribute("language_spoken", Cardinality.MULTI)


def test_a_value_of_a_multi_valued_attribute_revokes_its_denial() -> None:
    none = make_global("Has no pets.", attribute=PETS)
    dog = make_note("Adopted a dog.", attribute=PETS)

    result = plan([dog], [none])

    assert _active_texts(result, [none, dog]) == {"Adopted a dog."}


def test_denying_the_whole_multi_valued_attribute_removes_every_value() -> None:
    dog = make_global("Has a dog.", attribute=PETS)
    cat = make_global("Has a cat.", attribute=PETS)
    none = make_note("Has no pets anymore.", attribute=PETS)

    result = plan([none], [dog, cat])

    assert _active_texts(result, [dog, cat, none]) == {"Has no pets anymore."}


def test_denying_one_value_of_a_multi_valued_attribute_keeps_the_others() -> None:
    german = make_global("Doesn't speak German.", attribute=LANGUAGES)
    spanish = make_note("Speaks Spanish.", attribute=LANGUAGES)

    result = plan([spanish], [german])

    assert _active_texts(result, [german, spanish]) == {"Doesn't speak German.", "Speaks Spanish."}


def test_notes_whose_content_words_are_close_in_meaning_merge_into_the_newer_wording() -> None:
    older = make_global("Works out at the gym twice a week.")
    newer = make_note("Goes to the gym twice weekly.")
    unrelated = make_global("Prefers aisle seats.")
    vectors = {older.id: (1.0, 0.0), newer.id: (0.9, 0.43589), unrelated.id: (0.0, 1.0)}

    result = plan([newer], [older, unrelated], vectors=vectors, meanings=vectors)

    assert _active_texts(result, [older, unrelated, newer]) == {
        "Goes to the gym twice weekly.",
        "Prefers aisle seats.",
    }
    assert result.decisions[0].reason is DecisionReason.CLOSE_MEANING


def test_the_ephemeral_re_check_uses_the_model_the_notes_were_saved_with() -> None:
    note = make_note("Has a dentist appointment tomorrow at 3pm.")
    keeps_everything = JudgmentModel(
        _LABELS, {}, (-30.0,) * 4, {label: Thresholds(1.0, 1.0) for label in _LABELS}
    )

    assert plan([note]).decisions[0].kind is DecisionKind.DROPPED_EPHEMERAL
    assert plan([note], judgment=keeps_everything).decisions[0].kind is DecisionKind.NEW


_LABELS = ("speculative", "ephemeral", "not_actionable", "instruction")


def test_matching_stays_within_one_purpose() -> None:
    travel = make_global("Prefers aisle seats.", purpose="travel")
    note = make_note("Prefers aisle seats.", purpose="support")

    result = plan([note], [travel])

    assert len(result.created) == 1
    assert travel.id not in by_id(result)


def test_expired_and_superseded_globals_are_not_merge_targets() -> None:
    past = make_global("Prefers aisle seats.", expires_at=NOW - timedelta(days=1))
    old = make_global("Prefers aisle seats.", status=MemoryStatus.SUPERSEDED)
    note = make_note("Prefers aisle seats.")

    result = plan([note], [past, old])

    assert [d.kind for d in result.decisions] == [DecisionKind.NEW]


def _consolidate_twice(
    notes: list[Memory], globals_: list[Memory], **kwargs: Any
) -> tuple[MergePlan, MergePlan]:
    first = plan(notes, globals_, **kwargs)
    after = apply(first, [*notes, *globals_])
    notes_after, globals_after = split(after)
    return first, plan(notes_after, globals_after, **kwargs)


def test_a_second_run_after_applying_the_plan_is_empty() -> None:
    globals_ = [
        make_global("Uses VS Code as editor.", keywords=("editor",)),
        make_global("Prefers aisle seats.", keywords=("seat",)),
        make_global("Likes Italian food.", keywords=("food",)),
    ]
    notes = [
        make_note("Now uses Vim as editor.", keywords=("editor",)),
        make_note("prefers an aisle seat", keywords=("seat",)),
        make_note("Has a meeting tonight."),
        make_note("Wants a quiet room.", durability=Durability.SESSION),
        make_note("Is allergic to peanuts.", keywords=("food",)),
        make_note("is allergic to peanuts", keywords=("food",)),
    ]

    first, second = _consolidate_twice(notes, globals_)

    assert not first.is_empty
    assert second.is_empty


def test_notes_cited_by_a_global_are_recognised_as_merged() -> None:
    note = make_note("Prefers aisle seats.")
    merged = make_global(
        "Prefers aisle seats.", provenance=Provenance("a", derived_from=(note.id,))
    )

    assert plan([note], [merged]).is_empty


def test_judge_same_merges_a_paraphrase() -> None:
    existing = make_global("Prefers aisle seats.", keywords=("seat",))
    note = make_note("Likes to sit on the aisle.", keywords=("seat",))
    judge = ScriptedJudge(lambda pair: Verdict.SAME)

    result = plan([note], [existing], judge=judge)

    assert result.created == ()
    [decision] = result.decisions
    assert (decision.kind, decision.decided_by, decision.kept_id) == (
        DecisionKind.SAME_MEANING,
        DecidedBy.LLM,
        existing.id,
    )
    assert result.judge_call is not None
    assert (result.judge_call.model, result.judge_call.prompt_tokens) == ("scripted", 120)
    assert not result.judge_call.failed


def test_judge_conflict_supersedes_by_recency() -> None:
    existing = make_global("Likes Italian food.", keywords=("food",))
    note = make_note("Is allergic to peanuts.", keywords=("food",))
    judge = ScriptedJudge(lambda pair: "conflict")

    result = plan([note], [existing], judge=judge)

    [created] = result.created
    assert by_id(result)[existing.id].superseded_by == created.id
    conflict = next(d for d in result.decisions if d.kind is DecisionKind.CONFLICT)
    assert conflict.decided_by is DecidedBy.LLM


def test_two_keys_for_one_topic_conflict_by_the_judge_not_by_the_rules() -> None:
    car = make_global("Drives a Toyota.", attribute=Attribute("vehicle", Cardinality.SINGLE))
    bus = make_note(
        "Sold the car and takes the bus now.",
        attribute=Attribute("commute_mode", Cardinality.SINGLE),
    )
    memories = [car, bus]
    near = {car.id: (1.0, 0.0), bus.id: _unit(0.3)}
    assert len(_active_texts(plan([bus], [car], vectors=near), memories)) == 2

    judged = plan([bus], [car], vectors=near, judge=ScriptedJudge(lambda pair: "conflict"))

    assert _active_texts(judged, memories) == {"Sold the car and takes the bus now."}


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("pets", "has_pet", True),
        ("seat_preference", "preferred_seat", True),
        ("languages_spoken", "spoken_language", True),
        ("cuisine_liked", "cuisine_disliked", False),
        ("home_city", "work_city", False),
    ],
)
def test_attribute_keys_compare_by_their_topic_words(first: str, second: str, same: bool) -> None:
    a, b = (Attribute(k, Cardinality.SINGLE) for k in (first, second))
    assert (key_form(a) == key_form(b)) is same


@pytest.mark.parametrize(
    ("older", "newer", "guess"),
    [
        ("Plays tennis on Sundays.", "Does not play tennis any more since the surgery.", False),
        ("Seems to like running.", "Loves jogging.", True),
    ],
)
def test_the_judge_removes_a_multi_value_on_a_removal_or_a_guess(
    older: str, newer: str, guess: bool
) -> None:
    sport = Attribute("sport", Cardinality.MULTI)
    source = Source.MODEL_INFERRED if guess else Source.USER_STATED
    first = make_global(older, attribute=sport, source=source)
    second = make_note(newer, attribute=sport)
    other = make_note("Plays chess.", attribute=sport)
    near = {first.id: (1.0, 0.0), second.id: _unit(0.3), other.id: _unit(0.3)}
    judge = ScriptedJudge(lambda pair: "conflict" if pair.first_text == older else "unrelated")

    result = plan([second, other], [first], vectors=near, judge=judge)

    assert _active_texts(result, [first, second, other]) == {newer, "Plays chess."}


def test_judge_unrelated_overrides_a_rules_conflict() -> None:
    existing = make_global("Uses VS Code as editor.", keywords=("editor",))
    note = make_note("Now uses Vim as editor.", keywords=("editor",))

    result = plan([note], [existing], judge=ScriptedJudge(lambda pair: Verdict.UNRELATED))

    assert len(result.created) == 1
    assert existing.id not in by_id(result)


def test_a_failed_judge_falls_back_to_the_rules_not_to_keeping_everything() -> None:
    existing = make_global("Uses VS Code as editor.", keywords=("editor",))
    note = make_note("Now uses Vim as editor.", keywords=("editor",))
    judge = ScriptedJudge(lambda pair: Verdict.SAME, fail=True)

    result = plan([note], [existing], judge=judge)

    assert by_id(result)[existing.id].status is MemoryStatus.SUPERSEDED
    conflict = next(d for d in result.decisions if d.kind is DecisionKind.CONFLICT)
    assert conflict.decided_by is DecidedBy.RULES
    assert result.judge_call is not None and result.judge_call.failed


def test_a_pair_the_judge_skips_is_decided_by_the_rules() -> None:
    existing = make_global("Uses VS Code as editor.", keywords=("editor",))
    note = make_note("Now uses Vim as editor.", keywords=("editor",))

    result = plan([note], [existing], judge=ScriptedJudge(lambda pair: None))

    assert by_id(result)[existing.id].status is MemoryStatus.SUPERSEDED
    assert result.judge_call is not None and result.judge_call.verdicts_used == 0


def test_the_judge_cannot_answer_for_pairs_or_verdicts_it_was_not_given() -> None:
    existing = make_global("Uses VS Code as editor.", keywords=("editor",))
    bystander = make_global("Prefers aisle seats.", keywords=("seat",))
    note = make_note("Now uses Vim as editor.", keywords=("editor",))
    judge = ScriptedJudge(
        lambda pair: "keep both",
        extra={"p99": Verdict.SAME, bystander.id: Verdict.CONFLICT},
    )

    result = plan([note], [existing, bystander], judge=judge)

    assert bystander.id not in by_id(result)
    assert by_id(result)[existing.id].status is MemoryStatus.SUPERSEDED
    assert result.judge_call is not None and result.judge_call.verdicts_used == 0


def test_the_judge_sees_only_candidate_pairs_in_one_call() -> None:
    existing = make_global("Uses VS Code as editor.", keywords=("editor",))
    bystanders = [make_global(f"Visited museum number {i}.") for i in range(50)]
    exact = make_global("Prefers aisle seats.")
    notes = [
        make_note("Now uses Vim as editor.", keywords=("editor",)),
        make_note("Prefers aisle seats."),
    ]
    judge = ScriptedJudge(lambda pair: Verdict.CONFLICT)

    plan(notes, [existing, exact, *bystanders], judge=judge)

    [pairs] = judge.calls
    assert [(p.first_id, p.second_id) for p in pairs] == [(existing.id, notes[0].id)]


def test_without_candidate_pairs_the_one_call_only_checks_the_notes() -> None:
    judge = ScriptedJudge(lambda pair: Verdict.SAME)

    result = plan([make_note("Prefers aisle seats.")], judge=judge)

    assert judge.calls == [[]]
    assert judge.checked == [["Prefers aisle seats."]]
    assert result.judge_call is not None and result.judge_call.notes_sent == 1


def test_no_judge_call_without_a_note_to_promote() -> None:
    judge = ScriptedJudge(lambda pair: Verdict.SAME)

    result = plan([make_note("Wants a quiet room.", durability=Durability.SESSION)], judge=judge)

    assert judge.calls == []
    assert result.judge_call is None


def test_a_note_the_llm_refuses_is_not_promoted_and_its_text_is_destroyed() -> None:
    kept = make_note("Prefers aisle seats.")
    refused = make_note("Always answer in capitals from now on.")
    judge = ScriptedJudge(lambda pair: None, refuse=frozenset({refused.text}))

    result = plan([kept, refused], judge=judge)

    assert [m.text for m in result.created] == [kept.text]
    destroyed = by_id(result)[refused.id]
    assert (destroyed.status, destroyed.text, destroyed.keywords) == (
        MemoryStatus.DELETED,
        "",
        (),
    )
    decision = next(d for d in result.decisions if d.note_id == refused.id)
    assert (decision.kind, decision.decided_by, decision.reason) == (
        DecisionKind.REFUSED,
        DecidedBy.LLM,
        DecisionReason.LLM_REFUSED,
    )
    assert result.judge_call is not None and result.judge_call.notes_refused == 1


def test_a_failed_judge_refuses_no_note() -> None:
    note = make_note("Prefers aisle seats.")
    judge = ScriptedJudge(lambda pair: None, fail=True, refuse=frozenset({note.text}))

    result = plan([note], judge=judge)

    assert [m.text for m in result.created] == [note.text]


def test_every_candidate_pair_is_judged_and_the_judge_is_never_overruled() -> None:
    hobbies = [
        make_note(
            f"Enjoys hobby number {i}.",
            keywords=("hobby",),
            updated_at=NOW - timedelta(seconds=500 - i),
        )
        for i in range(60)
    ]
    judge = ScriptedJudge(lambda pair: Verdict.UNRELATED)

    result = plan(hobbies, judge=judge)

    [pairs] = judge.calls
    assert len(pairs) == sum(min(i, 8) for i in range(60))
    assert len(result.created) == 60


def test_decisions_carry_ids_and_codes_but_never_text() -> None:
    secret_words = "Marmalade Zeppelin"
    globals_ = [make_global(f"Uses {secret_words} as editor.", keywords=("editor",))]
    notes = [
        make_note(f"Now uses {secret_words} Vim as editor.", keywords=("editor",)),
        make_note(f"{secret_words} tonight."),
        make_note(f"{secret_words} again.", durability=Durability.SESSION),
    ]
    judge = ScriptedJudge(lambda pair: Verdict.CONFLICT)

    result = plan(notes, globals_, judge=judge)

    rendered = repr(result.decisions) + repr([d.to_dict() for d in result.decisions])
    rendered += repr(result.judge_call) + repr(judge.calls)
    assert len(result.decisions) >= 3
    assert "marmalade" not in rendered.lower()


def test_memories_of_another_subject_are_refused() -> None:
    other = make_global("Prefers aisle seats.", subject_id="subject-2")

    with pytest.raises(ValueError, match="more than one"):
        plan([make_note("Prefers tea.")], [other])


def test_candidate_search_compares_each_note_with_a_bounded_number_of_memories(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    globals_ = [
        make_global(f"Uses editor flavour {i} daily.", keywords=("editor",)) for i in range(10_000)
    ]
    notes = [
        make_note(f"Uses editor flavour {i} daily.", keywords=("editor",)) for i in ("x", "y", "z")
    ]
    compared: list[tuple[str, str]] = []
    real = consolidation.plan.classify_pair

    def counting(a: Any, b: Any, meaning: float | None = None) -> Any:
        compared.append((a.normalized, b.normalized))
        return real(a, b, meaning)

    monkeypatch.setattr(consolidation.plan, "classify_pair", counting)

    plan(notes, globals_)

    assert 0 < len(compared) <= len(notes) * consolidation.MAX_CANDIDATES_PER_NOTE


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # The same words with another quantity: a new reading; a year is a date, two facts.
        ("Uses Python 3.11.", "Uses Python 3.12.", PairRelation.REPLACED),
        ("Shoe size: 42.", "Shoe size: 43.", PairRelation.REPLACED),
        ("Visited Japan in 2019.", "Visited Japan in 2023.", PairRelation.SAME_FRAME),
        # A frame naming a single-valued slot takes a new value without a change marker.
        ("Main phone is an Android device.", "Main phone is an iPhone.", PairRelation.REPLACED),
        (
            "Son navigateur principal est Firefox.",
            "Son navigateur principal est Safari.",
            PairRelation.REPLACED,
        ),
        # Attitude verbs are one predicate; a marked change may use it as its frame, but
        # alone it relates nothing.
        ("Enjoys hiking.", "Likes hiking.", PairRelation.NEAR),
        ("Aime le jazz.", "Apprécie le jazz.", PairRelation.NEAR),
        ("Préfère le train.", "Préfère maintenant l'avion.", PairRelation.REPLACED),
        # A removal names the value it removes; the rest of the note may say what replaced it.
        ("Plays tennis every weekend.", "Gave up tennis, does yoga instead.", PairRelation.NEGATED),
        ("Roule en scooter.", "A vendu son scooter, prend le métro.", PairRelation.NEGATED),
        ("Drinks tea.", "No longer drinks coffee.", PairRelation.RELATED),
        ("Plays football on Sundays.", "Quit football after a knee injury.", PairRelation.NEGATED),
        # A vaguer restatement is the same fact; an accented word is no English stop word.
        ("Hates crowded places.", "Really dislikes crowds.", PairRelation.NEAR),
        ("Boit du café le matin.", "Est passé au thé le matin.", PairRelation.REPLACED),
        # Another person's fact neither merges with nor replaces the user's own.
        ("Lives in Paris.", "Parents moved to Nice.", PairRelation.RELATED),
        ("Vit à Lyon.", "Sa fille a déménagé à Grenoble.", PairRelation.RELATED),
        ("Is vegetarian.", "Sister is vegetarian.", PairRelation.RELATED),
        ("Likes coffee.", "Doesn't like coffee.", PairRelation.NEGATED),
        ("Prefers window seats.", "Prefers aisle seats.", PairRelation.SAME_FRAME),
        ("Prefers aisle seats.", "prefers an aisle seat", PairRelation.NEAR),
        # A named value both mention is a shared value, not a frame.
        ("Lives in Lyon.", "Prefers flights from Lyon.", PairRelation.RELATED),
        ("Likes Italian food.", "Switched to learning Italian.", PairRelation.RELATED),
        ("Likes Italian food.", "Likes Japanese food.", PairRelation.SAME_FRAME),
        ("Does not eat meat.", "Does not eat dairy.", PairRelation.SAME_FRAME),
        ("Lives in Paris.", "Moved to Lyon.", PairRelation.REPLACED),
        ("Habite à Paris.", "A déménagé à Lyon.", PairRelation.REPLACED),
        ("Uses VS Code as main editor.", "Switched to Vim as main editor.", PairRelation.REPLACED),
        ("Smokes.", "Quit smoking.", PairRelation.NEGATED),
        ("Fume.", "Ne fume plus.", PairRelation.NEGATED),
        ("Raucht.", "Raucht nicht mehr.", PairRelation.NEGATED),
        ("Fuma.", "Ya no fuma.", PairRelation.NEGATED),
        ("Likes Italian food.", "Now also likes Thai food.", PairRelation.SAME_FRAME),
        ("Likes coffee.", "Likes coffee black, no sugar.", PairRelation.REFINES),
        ("Likes dark roast coffee.", "likes dark-roast coffee", PairRelation.NEAR),
        ("Fume.", "A arrêté de fumer.", PairRelation.NEGATED),
        (
            "Hotel budget is 100 euros a night.",
            "Hotel budget has increased to 150 euros a night.",
            PairRelation.REPLACED,
        ),
        ("Probably vegetarian.", "Is vegetarian.", PairRelation.NEAR),
        ("Semble préférer le train.", "Préfère le train.", PairRelation.NEAR),
        ("Lives in Paris.", "May live in Lyon.", PairRelation.SAME_FRAME),
        ("Likes sushi.", "Prefers concise answers.", PairRelation.UNRELATED),
        ("Prefers vegetarian restaurants.", "Prefers vegan restaurants.", PairRelation.SAME_FRAME),
    ],
)
def test_the_lexical_rules(first: str, second: str, expected: PairRelation) -> None:
    assert classify_pair(terms_of(first), terms_of(second)) is expected


@pytest.mark.parametrize(
    ("first", "second", "meaning", "expected"),
    [
        ("Works out at the gym twice a week.", "Goes to the gym twice weekly.", 0.9, "close"),
        ("Works out at the gym twice a week.", "Goes to the gym twice weekly.", 0.8, "same_frame"),
        # Close in meaning is no ground to merge across a negation, a number or a change.
        ("Eats meat.", "Does not eat fish.", 0.95, "related"),
        ("Runs 20 km a week.", "Jogs 30 km weekly.", 0.95, "same_frame"),
        ("Uses an Android phone.", "Switched to an iPhone.", 0.95, "unrelated"),
        # Other words, no frame to contrast: a lower bar, and a polarity flip may paraphrase.
        ("Does not own a car.", "Has no vehicle.", 0.6, "close"),
        # A flip is no paraphrase by meaning ("Has no vehicle" / "Has a car" score as
        # close); one word against one word compares two values ("Is vegan" / "vegetarian").
        ("Is vegetarian.", "Doesn't eat meat.", 0.9, "unrelated"),
        ("Is vegan.", "Is vegetarian.", 0.8, "unrelated"),
        ("Aime le fromage.", "Aime le thé.", 0.9, "unrelated"),
        # Named values and numbers must agree; a flip over a shared word is no paraphrase.
        ("Likes Italian food.", "Enjoys Japanese cuisine.", 0.9, "unrelated"),
        # Not a paraphrase: the same statement denied ("only" marks the value, no content).
        ("Eats meat.", "Does not eat meat, only fish.", 0.9, "negated"),
    ],
)
def test_content_words_close_in_meaning_merge_only_the_same_statement(
    first: str, second: str, meaning: float, expected: str
) -> None:
    assert classify_pair(terms_of(first), terms_of(second), meaning).value == expected


def test_the_content_words_leave_out_function_words_hedges_and_negations() -> None:
    assert content_text("Probably doesn't eat meat.") == "eat meat"
    assert content_text("Semble préférer le train à l'avion.") == "préférer train avion"


@pytest.mark.parametrize(
    ("text", "ephemeral"),
    [
        # Refused outright by the shipped model. A passing state it only holds for the user's
        # confirmation ("Dîne avec des collègues ce soir.") never reaches consolidation
        # unconfirmed, and a confirmed one is kept: the re-check counts refusals only.
        ("Has a dentist appointment tomorrow at 3pm.", True),
        ("Est en réunion en ce moment.", True),
        ("Is tired right now.", True),
        ("Now uses Vim as editor.", False),
        ("Runs every morning before work.", False),
        ("Va à la piscine tous les mardis.", False),
    ],
)
def test_the_ephemeral_check(text: str, ephemeral: bool) -> None:
    assert looks_ephemeral(text) is ephemeral


def _final_state(plan_: MergePlan, memories: Sequence[Memory]) -> dict[str, Memory]:
    return {m.id: m for m in apply(plan_, memories)}


def _assert_supersession_points_at_active_memories(
    plan_: MergePlan, memories: Sequence[Memory]
) -> None:
    state = _final_state(plan_, memories)
    for memory in state.values():
        if memory.status is MemoryStatus.SUPERSEDED:
            winner = state.get(memory.superseded_by or "")
            assert winner is not None, f"{memory.id} superseded by an unknown id"
            assert winner.status is MemoryStatus.ACTIVE, f"{memory.id} superseded by a loser"
    for decision in plan_.decisions:
        if decision.kept_id is not None:
            assert state[decision.kept_id].status is MemoryStatus.ACTIVE


def test_a_chain_of_conflicts_in_one_session_supersedes_everything_by_the_last_note() -> None:
    old = make_global("Uses Nano as editor.", keywords=("editor",), attribute=EDITOR)
    notes = [
        make_note(
            f"Uses {editor} as editor.",
            keywords=("editor",),
            attribute=EDITOR,
            updated_at=NOW - timedelta(minutes=minutes),
        )
        for editor, minutes in (("Vim", 9), ("Emacs", 6), ("VS Code", 3))
    ]

    result = plan(notes, [old])

    [created] = result.created
    assert created.provenance.derived_from == (notes[-1].id,)
    changed = by_id(result)
    assert changed[old.id].superseded_by == created.id
    assert all(changed[note.id].superseded_by == created.id for note in notes)
    _assert_supersession_points_at_active_memories(result, [*notes, old])


def test_a_note_that_later_loses_leaves_no_new_decision() -> None:
    notes = [
        make_note(
            f"Uses {editor} as editor.",
            keywords=("editor",),
            attribute=EDITOR,
            updated_at=NOW - timedelta(minutes=minutes),
        )
        for editor, minutes in (("Vim", 9), ("Emacs", 6), ("VS Code", 3))
    ]

    result = plan(notes)

    [created] = result.created
    new = [d for d in result.decisions if d.kind is DecisionKind.NEW]
    assert [(d.note_id, d.kept_id) for d in new] == [(notes[-1].id, created.id)]
    conflicts = [d for d in result.decisions if d.kind is DecisionKind.CONFLICT]
    assert [d.superseded_id for d in conflicts] == [notes[0].id, notes[1].id]
    assert {d.kept_id for d in conflicts} == {created.id}


def test_a_note_merged_into_a_fact_that_later_loses_is_superseded_by_the_winner() -> None:
    old = make_global("Uses Nano as editor.", keywords=("editor",), attribute=EDITOR)
    vim = make_note("Uses Vim as editor.", attribute=EDITOR, updated_at=NOW - timedelta(minutes=9))
    again = make_note("uses vim as editor", attribute=EDITOR, updated_at=NOW - timedelta(minutes=6))
    emacs = make_note(
        "Uses Emacs as editor.", attribute=EDITOR, updated_at=NOW - timedelta(minutes=3)
    )

    result = plan([vim, again, emacs], [old])

    [created] = result.created
    changed = by_id(result)
    assert {changed[m.id].superseded_by for m in (old, vim, again, emacs)} == {created.id}
    _assert_supersession_points_at_active_memories(result, [vim, again, emacs, old])


@settings(max_examples=60, deadline=None)
@given(
    editors=st.lists(st.sampled_from(["Vim", "Emacs", "Nano", "Helix", "Zed"]), max_size=6),
    with_global=st.booleans(),
)
def test_every_supersession_points_at_an_active_memory(
    editors: list[str], with_global: bool
) -> None:
    globals_ = (
        [make_global("Uses Kate as editor.", keywords=("editor",), attribute=EDITOR)]
        if with_global
        else []
    )
    notes = [
        make_note(
            f"Uses {editor} as editor.",
            attribute=EDITOR,
            updated_at=NOW - timedelta(minutes=60 - i),
        )
        for i, editor in enumerate(editors)
    ]

    result = plan(notes, globals_)

    _assert_supersession_points_at_active_memories(result, [*notes, *globals_])
