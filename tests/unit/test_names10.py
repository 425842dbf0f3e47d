"""names10: the classes of issue 10, round 3 (holdout15, leaks_g)."""

from __future__ import annotations

from memory_service.core.privacy.names import name_only_in_keywords

_GIVEN = frozenset({"asta", "carla"})


def test_keyword_said_after_an_elided_article_is_not_a_hidden_name() -> None:
    # holdout15:70 ("prima" is Spanish "cousin"; "asta" a given name said as "dell'asta")
    text = (
        "Colleziona stampe di Piranesi e chiede sempre il riferimento di catalogo prima "
        "dell'asta.\nstampe\nasta"
    )
    assert not name_only_in_keywords(text, _GIVEN, frozenset())


def test_keyword_never_said_is_still_a_hidden_name() -> None:
    text = "Prefers quiet rooms when traveling with her.\ntravel\ncarla"
    assert name_only_in_keywords(text, _GIVEN, frozenset())
