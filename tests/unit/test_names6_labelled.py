"""names6: a full name typed in lower case as a label's value (fresh examples)."""

from memory_service.core.privacy.names import NameFinder

FINDER = NameFinder(
    first_names=frozenset({"tobias", "marisol", "giulia", "anna", "maria", "will"}),
    common_words=frozenset({"will", "the", "and"}),
)


def _found(text: str) -> list[str]:
    return [text[span.start : span.end] for span in FINDER.labelled_lower_case(text)]


def test_lower_case_full_names_after_a_label() -> None:
    assert _found("Site manager: tobias ter horst, on call weekends.") == ["tobias ter horst"]
    assert _found("Referente — marisol de la vega — risponde il lunedì.") == ["marisol de la vega"]
    assert _found("Hausärztin: anna maria keller.") == ["anna maria keller"]


def test_not_a_name_value() -> None:
    assert _found("Diet: mostly vegetarian, no pork.") == []
    assert _found("Note: will call back tomorrow.") == []  # "will" is a common word
    assert _found("Contact: Giulia Rossi.") == []  # capitalised: the cue readers' job
