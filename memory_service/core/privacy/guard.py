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
from typing import Protocol

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.model import Reason, ReasonCode
from memory_service.core.ports import IdentifierDetector
from memory_service.core.privacy.identifiers import candidate_codes, identifier_types
from memory_service.core.privacy.normalise import normalise
from memory_service.core.privacy.secrets import format_kinds, secret_kinds

# What the library detector may report that is a secret rather than personal data.
SECRET_TYPES = frozenset({"SEED_PHRASE"})
_ENTITY_TYPE = re.compile(r"[A-Z][A-Z0-9_]{0,39}")


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
) -> list[Reason]:
    """A ``pii`` and a ``secret`` reason for whatever the note holds (text and keywords)."""
    scan = "\n".join((text, *keywords)) if keywords else text
    views = normalise(text, keywords)
    entity_types = set(pii.entity_types(scan))
    entity_types |= identifier_types(views.note)
    library = identifiers.identifier_types(views.note, candidate_codes(views.note))
    kinds = set(secret_kinds(fold(scan), lexicons))
    kinds |= secret_kinds(views.note, lexicons)
    kinds |= format_kinds(views.glued)
    kinds |= library & SECRET_TYPES
    entity_types |= library - SECRET_TYPES
    reasons = []
    if entity_types:
        reasons.append(Reason(ReasonCode.PII, _types_detail(entity_types)))
    if kinds:
        reasons.append(Reason(ReasonCode.SECRET, ", ".join(sorted(kinds))))
    return reasons


def check_pii(text: str, pii: PiiDetector) -> list[Reason]:
    """Personal data the NER-based detector finds in ``text`` as written, by entity type."""
    found = pii.entity_types(text)
    return [Reason(ReasonCode.PII, _types_detail(found))] if found else []


def _types_detail(found: set[str] | frozenset[str]) -> str:
    """Anything that is not a plain type name is reported as ``PII``, so a misbehaving
    detector cannot put a value into a detail."""
    return ", ".join(sorted({t if _ENTITY_TYPE.fullmatch(t) else "PII" for t in found}))
