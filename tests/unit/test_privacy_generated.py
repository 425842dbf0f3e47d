"""The generated privacy set at a fixed seed: a regression set for the privacy guards.

300 notes from :mod:`tests.support.privacy_corpus` (identifiers and secrets in their surface
forms, benign look-alikes, EN/FR/ES/DE/IT). The NER detector is left out (names are not in
this set; its own tests cover it), so this runs in seconds. A fresh seed each run is
``python -m benchmarks.privacy_guards --seed random``.
"""

from __future__ import annotations

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.model import ReasonCode
from memory_service.evaluation import evaluate_rows
from tests.support.no_ner import NoNer
from tests.support.privacy_corpus import iter_generated

SEED = 20261201
NOTES = 300
PRIVACY_CODES = frozenset({ReasonCode.PII.value, ReasonCode.SECRET.value})


def test_no_generated_identifier_or_secret_is_accepted_and_no_look_alike_is_refused() -> None:
    report = evaluate_rows(
        iter_generated(NOTES, SEED),
        pii=NoNer(),
        identifiers=LibraryIdentifierDetector(),
        backstop=False,  # the rules' decisions; the backstop's cost: test_privacy_learned
    )

    wrongly_refused = [o for o in report.durable_wrongly_rejected if o.codes & PRIVACY_CODES]
    assert len(report.leak_notes) > NOTES // 2
    assert [o.line for o in report.leaks_accepted] == []
    assert [o.line for o in wrongly_refused] == []
