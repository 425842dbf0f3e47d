"""Fame of a name: whether the sentence encoder knows a span as a public name.

The name model (:mod:`.name_model`) reads a span's shape and its context words; a writer it
never saw puts public figures, brands and places in frames it does not know, and it keeps
them as private people (issue 10). The sentence encoder (:mod:`memory_service.core.sentences`,
multilingual-e5-small, trained on web text including Wikipedia) has seen "Haruki Murakami",
"Sainsbury's" and "Goethestraße" many times and an invented "Edvard Petrussen" never: a
logistic regression over the encoder's vector of the span alone (``passage:`` form, no
context) tells them apart on writers it was not trained on (``tools/train_fame.py``,
leave-one-corpus-file-out; README "names15").

The probe may only CLEAR a span the rest of the pipeline refuses as a person, never refuse
one, and it is not asked when the structure marks a private person (:func:`may_clear`: a
person cue or a possessive relation before, a relation in apposition after, a possessive
before a lower-case noun, a contact detail in the note, or a single word that is a given
name of the dictionary: "Capucine", "Hamilton from the gym"). If the encoder cannot be
loaded, or is another encoder than the one the probe was trained on, nothing is cleared
(fail closed). The span's text goes to the encoder only; it is never logged or stored.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memory_service.core.lexicons import fold
from memory_service.core.model_files import read_model_document
from memory_service.core.privacy.name_model import (
    _POSSESSIVE_NOUN,
    ROUTE_BEFORE,
    STREET_LAST,
    name_unit,
)
from memory_service.core.privacy.names import FUNCTION_WORDS, person_cue_before, relation_after
from memory_service.core.sentences import (
    SentenceEncoder,
    SentenceEncoderError,
    default_sentence_encoder,
)

MODEL_FILE = "name_fame_model.json.gz"
FORMAT_VERSION = 1
FEATURES = "e5-span-passage-1"

_EDGE = " \t\n\"'\u2018\u2019\u201c\u201d\u00ab\u00bb()[]{}.,;:!?"
# A contact detail anywhere in the note: an e-mail address or a run of seven digits and
# more (with spaces, dots or dashes): the name beside it is someone reachable.
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+|(?<!\d)\+?\d(?:[\s./-]?\d){6,}")


def span_text(text: str, start: int, end: int) -> str:
    """What the encoder reads of a span: its name unit without the quotes and punctuation
    around it (the same in training, ``tools/train_fame.py``)."""
    start, end = name_unit(text, start, end)
    return text[start:end].strip(_EDGE)


# A possessive determiner and one or two lower-case words right before the span: "her
# hairdresser Thanh Pham", "mon vieux prof Bernard", "su entrenador Luis": someone of the
# writer's circle, whether or not the role is in the relationship lists.
_POSSESSOR_BEFORE = re.compile(
    r"(?<![\w'])(?i:my|his|her|their|our|your|mon|ma|mes|son|sa|ses|notre|nos|votre|leur"
    r"|mi|mis|su|sus|tu|tus|nuestr[oa]s?|mein(?:e[mnrs]?)?|sein(?:e[mnrs]?)?|ihr(?:e[mnrs]?)?"
    r"|unser(?:e[mnrs]?)?|mio|mia|miei|mie|suo|sua|suoi|sue|tuo|tua|loro)"
    r"(?P<role>(?:\s+[^\W\d_A-ZÀ-ÖØ-Þ][\w'\u2019-]*){1,2})\s+$"
)
# Longer runs are not asked: a name has at most three words besides its particles
# ("Gabriel García Márquez", "Charles de Gaulle"); a longer span is mostly a NER span run
# over the words before a name.
_MAX_WORDS = 3
_PARTICLES = frozenset(
    {"de", "da", "di", "do", "du", "del", "della", "des", "la", "le", "van", "von", "der", "den"}
    | {"af", "av", "zu", "y", "e", "&", "and", "et", "und", "bin", "ibn", "al", "el", "ten", "ter"}
)
# A name asked for or a client's label right before the span: "Cust. name Gareth Pellow",
# "Customer: ...", "Nom : ...", "reserved for ...".
_LABEL_BEFORE = re.compile(
    r"(?<![\w'])(?i:(?:full\s+|last\s+|first\s+|sur)?name|nom|nombre|nome|namen?|called|named"
    r"|appel[ée]e?s?|llamad[oa]s?|chiamat[oa]|hei(?:ß|ss)t|cust\.?|customer|client[e]?|kunde|kundin"
    r"|guest|patient|tenant|caller|contact|attn\.?|booked\s+for|reserved\s+for|under)"
    r"\s*(?:[:=#-]|is|est|es|è|ist)?\s*$"
)
# A colon or a dash right before the span: a label's value ("Référente paie : Capucine
# Delorme", "Contact - ..."), whatever the label says.
_COLON_BEFORE = re.compile(r"[:\u2013\u2014=-]\s*$")
# Somewhere in the note, a possessive, a lower-case role and a capitalised word: "à son
# jumeau Stan", "her hairdresser Thanh": a private person is named in the note, and a
# famous-looking span in it may have been refused for the right reason by the wrong span.
_POSSESSOR_NAMES = re.compile(
    r"(?<![\w'])(?i:my|his|her|their|our|your|mon|ma|son|sa|notre|votre|leur|mi|su|tu"
    r"|mein(?:e[mnrs]?)?|sein(?:e[mnrs]?)?|ihr(?:e[mnrs]?)?|unser(?:e[mnrs]?)?|mio|mia|suo|sua)"
    r"(?P<role>(?:\s+[^\W\d_A-ZÀ-ÖØ-Þ][\w'\u2019-]*){1,2})\s+[A-ZÀ-ÖØ-Þ][^\W\d_]+"
)
# A capitalised word of the note, and a kinship compound or "chez" right before it: "wife
# (Victoria)", "Zwillingsbruder Stan", "Loge chez Kiki".
_CAPITALISED = re.compile(r"(?<![\w'\u2019-])[A-ZÀ-ÖØ-Þ][^\W\d_]+")
_OTHER_CUE = re.compile(
    r"(?i:(?:bruder|schwester|mutter|vater|sohn|tochter|cousine?|onkel|tante|zwilling)\s*"
    r"|(?<![\w'])chez\s+|(?<![\w'])(?:twin|jumelle?|gemell[oa]|gemel[oa])\s+)$"
)
# "chez" and a word that is not a pronoun or an article: someone's home, in any case
# ("Loge chez chloé").
_CHEZ_SOMEONE = re.compile(
    r"(?<![\w'])(?i:chez)\s+(?!(?i:moi|toi|soi|lui|elle|eux|elles|nous|vous|le|la|les|l'"
    r"|un|une|des|mon|ma|mes|ton|ta|tes|son|sa|ses|notre|nos|votre|vos|leur|leurs)(?![\w']))"
    r"[^\W\d_]"
)
# A possessive inside the name's run: "Thanh Pham's Opel Corsa" is someone's car.
_INNER_POSSESSIVE = re.compile(r"['\u2019]s?\s+\S")


class FameModelError(ValueError):
    """The fame probe's file is missing, malformed or of another encoder."""


def may_clear(text: str, start: int, end: int, given: Container[str]) -> bool:
    """Whether the structure leaves the span to the probe: no person cue or possessive
    relation before it (nor a possessive and a lower-case role: "her hairdresser"), no
    relation in apposition after it, no label of a name or a client before it ("Cust.
    name"), no possessive and role or other person cue before a capitalised word anywhere
    in the note ("à son jumeau Stan", "wife (Victoria)", "chez Kiki"), no possessive before
    a lower-case noun ("Ana Pérez's cooking") or inside the name's run ("Thanh Pham's
    Opel"), no street lived on ("Larkspur Road"), no e-mail or phone number in the note,
    and not a single word that is a known given name."""
    start, end = name_unit(text, start, end)
    span = text[start:end].strip(_EDGE)
    if not span or person_cue_before(text[:start]) or relation_after(text, end):
        return False
    if _POSSESSIVE_NOUN.match(text, end) or _POSSESSIVE_NOUN.match(text, end - 2):
        return False
    if STREET_LAST.search(span) and not ROUTE_BEFORE.search(text[max(0, start - 20) : start]):
        return False
    if _CONTACT.search(text) or _INNER_POSSESSIVE.search(span):
        return False
    if _LABEL_BEFORE.search(text[max(0, start - 40) : start]) or _COLON_BEFORE.search(
        text[max(0, start - 8) : start]
    ):
        return False
    if _private_person_elsewhere(text, start, end):
        return False
    for other in _POSSESSOR_NAMES.finditer(text):
        if not FUNCTION_WORDS & set(other["role"].lower().split()):
            return False
    possessor = _POSSESSOR_BEFORE.search(text[max(0, start - 60) : start])
    if possessor is not None and not FUNCTION_WORDS & set(possessor["role"].lower().split()):
        return False
    words = span.split()
    if sum(word.lower() not in _PARTICLES for word in words) > _MAX_WORDS:
        return False  # "Großer Fan von Hans-Peter Lindqvist": a span the NER model overran
    if len(words) == 1:
        word = re.sub(r"['\u2019]s?$", "", words[0])
        if fold(word).lower() in given:
            return False
    return True


def _private_person_elsewhere(text: str, start: int, end: int) -> bool:
    """Whether another capitalised word of the note is named by a cue ("wife (Victoria)",
    "Zwillingsbruder Stan", "chez Kiki"): the pipeline may have refused the note for the
    famous name while missing its private person, so the probe clears nothing in it."""
    if _CHEZ_SOMEONE.search(text[:start] + " " * (end - start) + text[end:]):
        return True
    for word in _CAPITALISED.finditer(text):
        if start <= word.start() < end:
            continue
        before = text[max(0, word.start() - 60) : word.start()]
        if person_cue_before(before.rstrip("( ") + " ") or _OTHER_CUE.search(before):
            return True
    return False


@dataclass(frozen=True)
class FameProbe:
    """A logistic regression over the encoder's unit vector of a span: at or above the
    threshold the span is a public name."""

    weights: tuple[float, ...]
    bias: float
    threshold: float
    encoder: str
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def score(self, vector: Sequence[float]) -> float:
        """The decision value (log-odds that the span is public)."""
        if len(vector) != len(self.weights):
            raise FameModelError("the vector and the probe differ in dimensions")
        return self.bias + math.fsum(w * x for w, x in zip(self.weights, vector, strict=True))

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> FameProbe:
        if document.get("format") != FORMAT_VERSION:
            raise FameModelError("unknown fame probe format")
        try:
            weights = tuple(float(w) for w in document["weights"])
            bias, threshold = float(document["bias"]), float(document["threshold"])
            encoder = str(document["encoder"])
            metadata = dict(document.get("metadata") or {})
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FameModelError("malformed fame probe file") from exc
        if metadata.get("features") != FEATURES:
            raise FameModelError("the fame probe was trained on other features: retrain it")
        return cls(weights, bias, threshold, encoder, metadata)

    def to_document(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "encoder": self.encoder,
            "bias": self.bias,
            "threshold": self.threshold,
            "metadata": dict(self.metadata),
            "weights": list(self.weights),
        }


def load_fame_probe() -> FameProbe:
    """The probe shipped with the package."""
    document = read_model_document(__package__, MODEL_FILE, FameModelError, "fame")
    return FameProbe.from_document(document)


class FameReader:
    """Asks the encoder about the spans the pipeline would refuse as people, one at a time
    and only after :func:`may_clear`; ``asked`` counts the encoder calls (the save path's
    cost). Any failure to load the encoder clears nothing, for the process's life."""

    def __init__(
        self,
        probe: FameProbe | None,
        given: Container[str],
        encoder: Callable[[], SentenceEncoder] = default_sentence_encoder,
    ) -> None:
        self._probe = probe
        self._given = given
        self._encoder_factory = encoder
        self._encoder: SentenceEncoder | None = None
        self._broken = probe is None
        self.asked = 0

    def _load(self) -> SentenceEncoder | None:
        if self._broken or self._probe is None:
            return None
        if self._encoder is None:
            try:
                encoder = self._encoder_factory()
            except SentenceEncoderError:
                self._broken = True
                return None
            if encoder.model != self._probe.encoder:
                self._broken = True
                return None
            self._encoder = encoder
        return self._encoder

    def warm(self) -> bool:
        """Load the encoder now (at start, ~0.3 s) rather than on the first note that needs
        it; whether it is usable."""
        return self._load() is not None

    def famous(self, text: str, start: int, end: int) -> bool:
        """Whether the span, left to the probe by the structure, reads as a public name."""
        if self._probe is None or not may_clear(text, start, end, self._given):
            return False
        encoder = self._load()
        if encoder is None:
            return False
        self.asked += 1
        try:
            (vector,) = encoder.encode([span_text(text, start, end)])
            return self._probe.score(vector) >= self._probe.threshold
        except (SentenceEncoderError, FameModelError, ValueError, RuntimeError, OSError):
            return False
