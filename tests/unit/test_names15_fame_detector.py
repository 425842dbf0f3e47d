"""names15 through the PII adapter: the fame probe clears a famous name the pipeline refused,
and leaves an invented name and a relative named in the same kind of frame refused."""

from __future__ import annotations

from memory_service.core.privacy.name_fame import FameReader
from tests.support.presidio import refused_as_pii, shared_detector


def test_a_famous_name_is_cleared_an_invented_one_and_a_relative_are_not() -> None:
    detector = shared_detector()
    famous = "Went to the office party dressed as Sherlock Holmes."
    assert not refused_as_pii(detector, famous)
    assert refused_as_pii(detector, "Quotes Edvard Petrussen in every speech.")
    assert refused_as_pii(detector, "Went to the office party dressed as her brother Edvard.")
    assert refused_as_pii(detector, "Collects signed shirts from his cousin Tomasz Krawczyk.")


def test_without_the_probe_the_famous_name_is_refused_as_before() -> None:
    detector = shared_detector()
    reader = detector._fame
    try:
        detector._fame = FameReader(None, frozenset())
        assert refused_as_pii(detector, "Went to the office party dressed as Sherlock Holmes.")
    finally:
        detector._fame = reader
