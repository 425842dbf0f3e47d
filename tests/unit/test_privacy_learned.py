"""The learned backstop of the privacy guards (``core/privacy/learned.py``): the shipped file
loads, a made-up leak the rules miss is refused by it alone, made-up durable look-alikes pass,
a malformed file fails at load, and a refusal names a type, never a value.

Every note here is invented for these tests (none is an evaluation set's)."""

from __future__ import annotations

from typing import Any

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.config import ConfigurationError, Settings
from memory_service.core.judgment.features import fingerprint
from memory_service.core.judgment.model import ModelFileError
from memory_service.core.model import ReasonCode
from memory_service.core.privacy import learned
from memory_service.core.privacy.guard import check_privacy, state_refusals
from memory_service.core.privacy.learned import (
    LABELS,
    LearnedPrivacy,
    default_privacy_model,
    load_document,
    shapes_fingerprint,
    token_shapes,
)
from memory_service.core.privacy.normalise import normalise
from memory_service.evaluation import evaluate_rows
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()

# Made-up leaks of phrasings the rules do not read (checked below: the rules alone accept them).
LEAKS = [
    "Recovery sheet for the wallet reads orbit lantern crisp velvet tundra maple.",
    "The backup card for her crypto wallet says meadow copper ginger atlas frost pencil.",
    "Her national insurance number starts with QQ 12 and ends in 44 C.",
    "Dentist appointments go through his ex-wife, Marisol Quintanar-Beck.",
    "His neighbour Ottilie Brandvik feeds the cat when they travel.",
]
# Made-up durable notes with the look of a value: codes of products, dates, amounts, versions.
DURABLE = [
    "Runs a 2019 Trek Domane SL5 with 28 mm tyres.",
    "Flies out of gate B22 most Mondays on the LH 1123.",
    "Keeps the thermostat at 19.5 degrees from October to March.",
    "Prefers the 06:45 train from platform 4 to the office.",
    "Orders size 42 EU running shoes, Asics Gel-Nimbus 25.",
    "Budget for the kitchen refit is around 12,000 euros.",
    "Uses a 27-inch Dell U2723QE monitor at 60 Hz for photo editing.",
    "Book club meets on the 3rd Thursday of each month at 19:30.",
    "Wants invoices split 60/40 between the two departments.",
]


def _reasons(text: str, *, learned_on: bool = True) -> list[Any]:
    return check_privacy(text, pii=NoNer(), identifiers=LIBRARY, learned=learned_on)


def test_the_shipped_model_loads_once_with_its_two_labels() -> None:
    model = default_privacy_model()
    assert model is default_privacy_model()
    assert model.scorer.labels == LABELS
    assert all(0.0 < model.scorer.thresholds[label].refuse <= 1.0 for label in LABELS)
    assert model.scorer.metadata["features"] == fingerprint()


@pytest.mark.parametrize("text", LEAKS)
def test_a_leak_the_rules_miss_is_refused_by_the_backstop_alone(text: str) -> None:
    assert _reasons(text, learned_on=False) == []
    reasons = _reasons(text)
    assert reasons
    details = {reason.detail for reason in reasons}
    assert details <= {"LEARNED", "learned"}


@pytest.mark.parametrize("text", DURABLE)
def test_a_durable_look_alike_passes(text: str) -> None:
    assert _reasons(text) == []


def test_the_backstop_is_off_unless_the_caller_asks() -> None:
    text = LEAKS[0]
    assert check_privacy(text, pii=NoNer(), identifiers=LIBRARY) == []
    assert check_privacy(text, pii=NoNer(), identifiers=LIBRARY, learned=True)


def test_the_backstop_only_adds_a_refusal() -> None:
    # The rules' own reason is kept as it was: the backstop reads only what they accept.
    text = "Password for the office VPN is hunter2"
    assert _reasons(text) == _reasons(text, learned_on=False)


def test_a_text_of_fewer_words_than_a_note_is_left_to_the_rules() -> None:
    assert default_privacy_model().findings("mother allergy") == frozenset()


def test_a_subjects_state_is_read_by_the_rules_only() -> None:
    state = {"note": LEAKS[0]}
    assert state_refusals(state, pii=NoNer(), identifiers=LIBRARY) == []


def test_token_shapes_keep_digit_runs_and_collapse_letters() -> None:
    shapes = token_shapes(normalise("Handle is Marsh_Owl#2231, locker 4 4 1 9").note)
    assert {"t:Aa_Aa#9999", "ts:Aa_Aa#9", "tc:is>Aa_Aa#9", "tr:9 9 9 9", "tr:4"} <= shapes
    assert not any(s.startswith("t:") for s in token_shapes("Likes lunch in Lisbon"))


def _document(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": 1,
        "labels": list(LABELS),
        "bias": [0.0, 0.0],
        "thresholds": {label: {"refuse": 0.5, "confirm": 0.5} for label in LABELS},
        "metadata": {"features": fingerprint(), "token_shapes": shapes_fingerprint()},
        "weights": {"w:pin": [0.0, 1.0]},
    }
    document.update(changes)
    return document


def test_a_well_formed_document_loads() -> None:
    assert isinstance(load_document(_document()), LearnedPrivacy)


@pytest.mark.parametrize(
    "changes",
    [
        {"labels": ["pii"], "bias": [0.0]},
        {"labels": ["secret", "pii"]},
        {"weights": {"w:pin": [1.0]}},
        {"thresholds": {"pii": {"refuse": "x"}}},
        {"metadata": {"features": "0" * 16, "token_shapes": shapes_fingerprint()}},
        {"metadata": {"features": fingerprint(), "token_shapes": "0" * 16}},
        {"format": 2},
    ],
)
def test_a_malformed_document_fails_at_load(changes: dict[str, Any]) -> None:
    with pytest.raises(ModelFileError):
        load_document(_document(**changes))


def test_a_missing_or_unreadable_file_fails_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    load = default_privacy_model.__wrapped__
    monkeypatch.setattr(learned, "MODEL_FILE", "no_such_model.json.gz")
    with pytest.raises(ModelFileError):
        load()
    monkeypatch.setattr(learned, "MODEL_FILE", "__init__.py")
    with pytest.raises(ModelFileError):
        load()


def test_the_reasons_are_the_pii_and_secret_codes() -> None:
    model = default_privacy_model()
    for text in LEAKS:
        found = model.findings(normalise(text).note)
        codes = {reason.code for reason in _reasons(text)}
        assert codes == {ReasonCode(label) for label in found}


def test_the_deployment_setting_is_on_by_default_and_checked_at_start() -> None:
    assert Settings.from_env({}).privacy_backstop is True
    assert Settings.from_env({"MEMORY_SERVICE_PRIVACY_BACKSTOP": "false"}).privacy_backstop is False
    with pytest.raises(ConfigurationError, match="MEMORY_SERVICE_PRIVACY_BACKSTOP"):
        Settings.from_env({"MEMORY_SERVICE_PRIVACY_BACKSTOP": "sometimes"})


def _generated_corpora() -> list[tuple[str, list[tuple[int, dict[str, Any]]], int]]:
    from benchmarks.told_codes_corpus import generate as told_codes
    from tests.support.privacy_corpus import iter_generated
    from tests.support.value_corpus import generate as values

    # (name, rows, look-alikes the backstop refuses: 52, 2 and 32 when it shipped in session
    # 12; 46, 2 and 26 since its sentence stage, session 15)
    return [
        ("told codes", list(enumerate(told_codes(300, 4242), start=1)), 46),
        ("privacy corpus", list(iter_generated(300, 20261201)), 2),
        ("value corpus", list(enumerate(values(600, 20261206), start=1)), 26),
    ]


def test_the_backstops_cost_on_generated_look_alikes_is_pinned() -> None:
    # The generators' benign templates are built to look like values ("The code is 1500 lines
    # long"): the backstop refuses 46 of 117, 2 of 86 and 26 of 248 of them (human-written
    # durable notes: 44/315 at first sight, README). It never lets a leak through the rules
    # refused, and a model that refuses more of them fails here.
    privacy = {ReasonCode.PII.value, ReasonCode.SECRET.value}
    for name, rows, pinned in _generated_corpora():
        off = evaluate_rows(rows, pii=NoNer(), identifiers=LIBRARY, backstop=False)
        on = evaluate_rows(rows, pii=NoNer(), identifiers=LIBRARY, backstop=True)
        assert {o.line for o in on.leaks_accepted} <= {o.line for o in off.leaks_accepted}, name
        refused = [o for o in on.durable_wrongly_rejected if o.codes & privacy]
        rules_refused = [o for o in off.durable_wrongly_rejected if o.codes & privacy]
        assert len(refused) - len(rules_refused) <= pinned, name
