"""The privacy guards of a note or a stored value: personal data and secrets, as reasons.

:func:`check_privacy` reads the note three ways: as written (for the NER-based
:class:`PiiDetector`), and normalised (:mod:`memory_service.core.privacy.normalise`) for the
shape readers (:mod:`memory_service.core.privacy.identifiers`,
:mod:`memory_service.core.privacy.secrets`) and the library detector
(:class:`memory_service.core.ports.IdentifierDetector`). Any finding refuses the note: a
``pii`` reason naming entity types, a ``secret`` reason naming kinds, never a value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.model import Reason, ReasonCode
from memory_service.core.ports import IdentifierDetector
from memory_service.core.privacy.address_formats import address_format_kinds
from memory_service.core.privacy.addresses import address_kinds, without_public_places
from memory_service.core.privacy.identifiers import candidate_codes, identifier_types
from memory_service.core.privacy.learned import (
    PII,
    PII_TYPE,
    SECRET,
    SECRET_KIND,
    default_privacy_model,
)
from memory_service.core.privacy.locators import locator_types
from memory_service.core.privacy.name_cues import cued_name_types
from memory_service.core.privacy.normalise import normalise
from memory_service.core.privacy.secrets import COMPOSED_PASSWORD, format_kinds, secret_kinds

# What the library detector may report that is a secret rather than personal data.
SECRET_TYPES = frozenset({"SEED_PHRASE"})
# Types read from a value's shape alone, which a secret's value may have too ("Tulip#2290" is
# a password after "password is", a gamer tag elsewhere).
SHAPE_ONLY_TYPES = frozenset({"ID_NUMBER", "GAMER_TAG"})
# Locators whose rule wants the value to end its clause, read on the text alone as well; the
# others keep the keywords' context ("curso" explains "QUI102").
CLAUSE_END_TYPES = frozenset({"GAMER_TAG"})
_ENTITY_TYPE = re.compile(r"[A-Z][A-Z0-9_]{0,39}")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


class PiiDetector(Protocol):
    """Finds personal data. Returns entity types such as ``EMAIL_ADDRESS``, never values."""

    def entity_types(self, text: str) -> frozenset[str]: ...


def check_privacy(
    text: str,
    keywords: tuple[str, ...] = (),
    *,
    pii: PiiDetector,
    identifiers: IdentifierDetector,
    lexicons: Lexicons = DEFAULT_LEXICONS,
    learned: bool = False,
) -> list[Reason]:
    """A ``pii`` and a ``secret`` reason for whatever the note holds (text and keywords).

    ``learned``: when the rules find nothing, the learned backstop (:mod:`.learned`) reads the
    normalised note and may refuse it (``pii`` type ``LEARNED``, ``secret`` kind ``learned``);
    it never removes a rule's reason. Off unless asked, so a caller of the rules alone says
    nothing; the service asks as ``MEMORY_SERVICE_PRIVACY_BACKSTOP`` says (on by default; see
    data/privacy/REPORT.md for what it closes and what it costs). Never for a subject's state
    (:func:`state_refusals`)."""
    scan = "\n".join((text, *keywords)) if keywords else text
    views = normalise(text, keywords)
    entity_types = set(pii.entity_types(scan))
    entity_types |= identifier_types(views.note)
    if keywords:
        # A value that must end its clause ("Gamertag: xXShadowFoxXx", "app password abcd
        # efgh ijkl mnop") ends the text, not the note the keywords extend: the text alone is
        # read too.
        entity_types |= locator_types(views.text) & CLAUSE_END_TYPES
    entity_types |= cued_name_types(scan)
    entity_types |= address_format_kinds(without_public_places(scan))
    # Street addresses and postal boxes said in words ("seventeen Harbour Row", "box one
    # hundred and twelve") are read on the normalised note too.
    entity_types |= address_kinds(views.note)
    library = identifiers.identifier_types(views.note, candidate_codes(views.note))
    kinds = set(secret_kinds(fold(scan), lexicons))
    # With keywords the note ends with them, joined by spaces: a plain word there is a label.
    kinds |= secret_kinds(views.note, lexicons, plain_words=not keywords)
    if keywords:
        kinds |= secret_kinds(views.text, lexicons)
    kinds |= format_kinds(views.glued)
    kinds |= library & SECRET_TYPES
    entity_types |= library - SECRET_TYPES
    if kinds == {COMPOSED_PASSWORD} and "GAMER_TAG" in entity_types:
        # "PSN: Wolfie_1987", "Riot ID: Faker#KR1": the shape of a composed password after a
        # platform's cue is the player's tag, personal data.
        kinds = set()
    if kinds and entity_types <= SHAPE_ONLY_TYPES:
        # The code the shape reader saw is the secret's value ("hunter2", a key): the note
        # is refused as a secret; calling it an identifier as well would say nothing more.
        entity_types = set()
    if learned and not entity_types and not kinds:
        found = default_privacy_model().findings(views.note)
        entity_types = {PII_TYPE} if PII in found else set()
        kinds = {SECRET_KIND} if SECRET in found else set()
    reasons = []
    if entity_types:
        reasons.append(Reason(ReasonCode.PII, _types_detail(entity_types)))
    if kinds:
        reasons.append(Reason(ReasonCode.SECRET, ", ".join(sorted(kinds))))
    return reasons


def _types_detail(found: set[str] | frozenset[str]) -> str:
    """Anything that is not a plain type name is reported as ``PII``, so a misbehaving
    detector cannot put a value into a detail."""
    return ", ".join(sorted({t if _ENTITY_TYPE.fullmatch(t) else "PII" for t in found}))


class _NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


def state_refusals(
    state: Mapping[str, Any], *, pii: PiiDetector, identifiers: IdentifierDetector
) -> list[tuple[str, tuple[ReasonCode, ...]]]:
    """Each key path of a subject's state whose key or value the privacy guards refuse,
    with the reason codes; the paths are built from keys that passed the guards themselves
    (a refused key is named by its parent path and ``<key>``), never from values.

    The NER detector reads every text of the state at once (one call, the slow part); only
    when it finds something is it asked again per text, to name the path.
    """
    texts = list(_state_texts(state, "", _NoPii(), identifiers))
    ner_found = bool(texts) and bool(pii.entity_types("\n".join(text for _, text in texts)))
    per_text: PiiDetector = pii if ner_found else _NoPii()
    if ner_found:
        # Name a path only by keys the NER lets through too: a person's name as a key
        # ("jane_doe") must not come back in the error.
        texts = list(_state_texts(state, "", pii, identifiers))
    refusals: dict[str, set[ReasonCode]] = {}
    for path, text in texts:
        reasons = check_privacy(text, pii=per_text, identifiers=identifiers, learned=False)
        if reasons:
            refusals.setdefault(path, set()).update(reason.code for reason in reasons)
    return [(path, tuple(sorted(codes))) for path, codes in refusals.items()]


def _state_texts(
    value: object, path: str, pii: PiiDetector, identifiers: IdentifierDetector
) -> Iterator[tuple[str, str]]:
    """(path, text) for every key and every string or number of the state. A key appears in
    a path only when it is a plain name (``home_airport``) the shape guards accept."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            key_text = str(key)
            plain = _PLAIN_KEY.fullmatch(key_text) and not check_privacy(
                key_text, pii=pii, identifiers=identifiers, learned=False
            )
            name = key_text if plain else "<key>"
            child = f"{path}.{name}" if path else name
            yield f"{child} (key)", key_text
            yield from _state_texts(item, child, pii, identifiers)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _state_texts(item, f"{path}[{index}]", pii, identifiers)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield path, str(value)
