"""Whether a span that looks like a person's name names a private person: a learned decision.

The structural layers (:mod:`.names`, :mod:`.bare_names`, the NER model behind the PII
adapter) find spans shaped like a name: "Margaret Atwood", "Louis Vuitton", "Visa
Platinum", "Bologna", "Edvard Petrussen". Which of them is a private person cannot be read
from the span: it is read from the sentence around it. A list of context words ("novels
after", "shops at before") grew one example at a time; this model learns the contexts
instead, from hand-written and generated notes (``tools/train_names.py``).

What the model reads (:func:`span_features`) is the span's **context with the span masked**
(the words either side, by position and as a bag, their first four and last three letters)
and the span's **shape** (a possessive, a dictionary given name first or later, a rare one, a
digit, an ampersand, an upper-case word, a lower-case span, where in the sentence), never the
span's own words: "Vuitton" is not learned, "sacs … dans le contrat" is. Neither the number of
words nor a missing dictionary name is read: they kept people from countries the dictionary
knows little of.

A name cue ("my neighbour", "Mrs.") is decided before the model (such a span is a person
whatever its context). The model keeps a span only when it is confident: its threshold was
chosen on out-of-fold scores of the training and dev splits to let at most 1 private name in
100 through (fail closed: a refused preference costs one question, a leaked name a deletion
request). The weights ship in ``name_model.json.gz`` and are read once per process; a missing
or malformed file stops the service at start, never a note. Standard library only; the
given-name dictionary is handed in by the caller (the adapter that reads it), so the core
imports no adapter.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from typing import Any

from memory_service.core.model_files import read_model_document
from memory_service.core.privacy.names import HONORIFICS, RELATIONS, relation_after

MODEL_FILE = "name_model.json.gz"
FORMAT_VERSION = 1
# Changes whenever :func:`span_features` changes: a model trained on other features is
# refused at start.
FEATURES = "names-ctx-9"
_WINDOW = 4

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_TOKEN = re.compile(r"\d+|[^\W\d_]+(?:'[^\W\d_]+)*|[^\w\s]")
_NAME_WORD = re.compile(r"[^\W\d_][\w'\u2019.-]*|&|\d+")
# Words that join the parts of a name or a brand ("Ludwig van Beethoven", "Ben & Jerry's").
_JOINERS = frozenset({"&", "van", "von", "de", "der", "den", "del", "della", "di", "da", "du"})
_SENTENCE_END = frozenset(".!?;:\n")
_STARTS = frozenset({"<s>", ".", "!", "?", ";", ":", "-", "("})


class NameModelError(ValueError):
    """The shipped name model is missing or malformed: raised at start, never per note."""


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _capitalised(word: str) -> bool:
    return word[:1].isupper() or word[:1].isdigit() or word == "&"


def name_unit(text: str, start: int, end: int) -> tuple[int, int]:
    """The capitalised run a span belongs to, on its line: a finder may take only part of it
    ("Chase Sapphire" of "Chase Sapphire Reserve"), lower-case words after it ("Visa
    Platinum de su banco") or a title before it ("Mme"); the model is trained and run on the
    same unit."""
    words = [m for m in _NAME_WORD.finditer(text, start, end) if _capitalised(m.group())]
    # A title or a kinship word the finder took in ("Mme Colette Brassard", "Opa Alois") is
    # the context, not the name.
    while len(words) > 1 and _CUE_WORD.fullmatch(words[0].group().rstrip(".")):
        words = words[1:]
    if not words:
        return start, end
    start, end = words[0].start(), words[0].end()
    for word in words[1:]:
        if text[end : word.start()].strip() and not _joined(text[end : word.start()]):
            break
        end = word.end()
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    # Left: capitalised words one space apart (an NER span may start inside a name: "Tarhan
    # Bilge" of "Onuker Dölensoy Tarhan Bilge"), up to a title or kinship word, a sentence's
    # first word or punctuation.
    while True:
        previous = _PREVIOUS_WORD.search(text, line_start, start)
        if previous is None or not _capitalised(previous["word"]):
            break
        if _CUE_WORD.fullmatch(previous["word"].rstrip(".")):
            break
        head = text[line_start : previous.start("word")].rstrip()
        if not head or head[-1] in _SENTENCE_END:
            break
        start = previous.start("word")
    # Right: capitalised words, numbers and joiners ("Model 3", "& Jerry's").
    while True:
        following = re.match(
            r"( (?:(?:van|von|de|del|di|da|du|&) )?)([^\W_][\w'\u2019.-]*)", text[end:line_end]
        )
        if following is None or not _capitalised(following.group(2)):
            break
        end += following.end()
    return start, end


_CUE_WORD = re.compile(
    "|".join(f"(?:{group})" for group in (*HONORIFICS, *RELATIONS)), re.IGNORECASE
)


# A possessive and a lower-case word after it ("Jane's cooking"; not "Jack Daniel's with").
_POSSESSIVE_NOUN = re.compile(
    r"['\u2019]s?\s+(?!(?:with|and|or|on|at|in|for|over|instead|when|every|only|mostly)\b)"
    r"[^\W\d_A-ZÀ-ÖØ-Þ][^\W\d_]*"
)
# A street named like a person ("Larkspur Road"): public only when walked or driven along
# ("walking along Abbey Road"), never when lived or grown up on ("Grew up on Larkspur Road",
# a security answer): the model does not clear it from its context alone.
STREET_LAST = re.compile(r"\s(?:Road|Street|Avenue|Boulevard|Square)$")
ROUTE_BEFORE = re.compile(r"(?<![\w'])(?i:along|down|up|across|past|through|via)\s+(?:the\s+)?$")
# Without a particle between: "Kuchen von Gieß" is a German noun, then a name.
_PREVIOUS_WORD = re.compile(r"(?P<word>[^\W\d_][\w'\u2019-]*) $")


def _joined(gap: str) -> bool:
    return gap.strip().lower() in _JOINERS


def _context_tokens(text: str) -> list[str]:
    return [_fold(token) for token in _TOKEN.findall(text)]


def _token_shape(token: str) -> str:
    """How a word beside the span is written, not which word it is: a maker's product line
    ("macOS Sonoma", "iPhone", "eBay"), an upper-case code ("PS5", "FC"), a number or a
    version ("Quest 3", "Sonoma 14.4"), a capitalised or a lower-case word, punctuation."""
    if not token:
        return "none"
    if token[0].isdigit():
        return "num"
    if not token[0].isalpha():
        return "punct"
    if token[0].islower() and any(ch.isupper() for ch in token[1:]):
        return "mixed"
    if (len(token) > 1 and token.isupper()) or any(ch.isdigit() for ch in token):
        return "code"
    return "cap" if token[0].isupper() else "low"


def span_features(
    text: str, start: int, end: int, given: Container[str], rare: Container[str] = frozenset()
) -> list[str]:
    """The features of ``text[start:end]`` in its note: context (span masked) and shape."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    span = text[start:end]
    after_text = text[end:line_end]
    possessive = bool(re.match(r"['\u2019]s?\b", after_text)) or span.endswith(("'s", "\u2019s"))
    if after_text[:2] in ("'s", "\u2019s"):
        after_text = after_text[2:]
    raw_before = _TOKEN.findall(text[line_start:start])
    raw_after = _TOKEN.findall(after_text)
    before = [_fold(token) for token in raw_before[-_WINDOW:]]
    after = [_fold(token) for token in raw_after[:_WINDOW]]
    left = ["<s>"] * (_WINDOW - len(before)) + before
    right = after + ["</s>"] * (_WINDOW - len(after))
    found = [f"l1:{left[-1]}", f"l2:{left[-2]}", f"r1:{right[0]}", f"r2:{right[1]}"]
    found += [f"l12:{left[-2]} {left[-1]}", f"r12:{right[0]} {right[1]}"]
    found += [f"lr:{left[-1]} _ {right[0]}"]
    found += [f"lb:{word}" for word in set(before)]
    found += [f"rb:{word}" for word in set(after)]
    found += [f"lp:{word[:4]}" for word in set(before) if len(word) > 4]
    found += [f"rp:{word[:4]}" for word in set(after) if len(word) > 4]
    # How the words next to the span end: a verb's person and tense, a plural noun, in any
    # of the five languages ("achète", "reads", "novels", "Romane").
    found += [f"l1s:{left[-1][-3:]}", f"r1s:{right[0][-3:]}", f"l2s:{left[-2][-3:]}"]
    left_shape = _token_shape(raw_before[-1] if raw_before else "")
    right_shape = _token_shape(raw_after[0] if raw_after else "")
    found += [f"l1sh:{left_shape}", f"r1sh:{right_shape}", f"sh:{left_shape} _ {right_shape}"]
    if any(token[0].isdigit() for token in raw_after[:2]):
        found.append("r:num")  # a model or a version follows: "Quest 3", "Gate 3 sur PS5"
    if possessive:
        # "Jack Daniel's" ends its phrase; "Jane's cooking" is a person's thing.
        found.append("poss:noun" if right_shape == "low" else "poss:end")
    found += _shape(span, given, rare, possessive, sentence_start=left[-1] in _STARTS)
    return found


def _shape(
    span: str,
    given: Container[str],
    rare: Container[str],
    possessive: bool,
    *,
    sentence_start: bool,
) -> list[str]:
    words = [
        w for w in _NAME_WORD.findall(span.replace("\u2019", "'")) if w.lower() not in _JOINERS
    ]
    words = [w[:-2] if w.endswith("'s") else w for w in words] or [span]
    folded = [_fold(w).strip(".") for w in words]
    known = [w in given for w in folded]
    # Neither the number of words nor a missing dictionary name is evidence: the corpora's
    # brands are often two words without a given name, and so are people from countries the
    # dictionary knows little of ("Serma İhsanoğlu Şensoy"): as features they kept such people.
    shape = []
    if possessive:
        shape.append("poss")
    if sentence_start:
        shape.append("start")
    if known[0]:
        shape.append("given:first")
        if folded[0] in rare:
            shape.append("given:rare")
    elif any(known):
        shape.append("given:later")
    if any(ch.isdigit() for ch in span):
        shape.append("digit")
    if "&" in span:
        shape.append("amp")
    if any(len(w) > 1 and w.isupper() for w in words):
        shape.append("upper")
    if span.islower():
        shape.append("lower")
    if "-" in span:
        shape.append("hyphen")
    if "." in span:
        shape.append("dot")
    return shape


@dataclass(frozen=True)
class NameModel:
    """A logistic regression: the probability that a name-like span is public (a public
    figure, a brand, a work, a place, a fictional character) rather than a private person."""

    weights: Mapping[str, float]
    bias: float
    # At or above it the span is kept as public; chosen on dev (fail closed).
    threshold: float
    given: Container[str] = field(default=frozenset(), repr=False)
    rare: Container[str] = field(default=frozenset(), repr=False)
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def public_score(self, text: str, start: int, end: int) -> float:
        """The probability that the span is public; 0 for a span in the possessive before a
        lower-case noun ("a fan of Rajata's lasagne", "Mary Berry's recipes"): a person's
        thing and a public figure's work read the same, so such a span is never cleared."""
        start, end = name_unit(text, start, end)
        if _POSSESSIVE_NOUN.match(text, end) or _POSSESSIVE_NOUN.match(text, end - 2):
            return 0.0
        if relation_after(text, end):
            return 0.0  # "Reads Anna Meyer, her neighbour": a person named by the relation
        if STREET_LAST.search(text[start:end]) and not ROUTE_BEFORE.search(
            text[max(0, start - 20) : start]
        ):
            return 0.0  # "Grew up on Larkspur Road": a street lived on, part of an address
        found = {f for f in span_features(text, start, end, self.given, self.rare)}
        z = self.bias + sum(self.weights.get(f, 0.0) for f in found)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def is_public(self, text: str, start: int, end: int) -> bool:
        """Whether the span is confidently not a private person."""
        return self.public_score(text, start, end) >= self.threshold

    def with_names(self, given: Container[str], rare: Container[str]) -> NameModel:
        return NameModel(self.weights, self.bias, self.threshold, given, rare, self.metadata)

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> NameModel:
        if document.get("format") != FORMAT_VERSION:
            raise NameModelError("unknown name model format")
        try:
            weights = {str(k): float(v) for k, v in document["weights"].items()}
            bias, threshold = float(document["bias"]), float(document["threshold"])
            metadata = dict(document.get("metadata") or {})
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise NameModelError("malformed name model file") from exc
        if metadata.get("features") != FEATURES:
            raise NameModelError("the name model was trained on other features: retrain it")
        return cls(weights, bias, threshold, metadata=metadata)

    def to_document(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "bias": self.bias,
            "threshold": self.threshold,
            "metadata": dict(self.metadata),
            "weights": dict(sorted(self.weights.items())),
        }


def load_name_model(given: Container[str], rare: Container[str] = frozenset()) -> NameModel:
    """The model shipped with the package, over the caller's given-name dictionary. Read it
    once (the PII adapter does, in its constructor)."""
    document = read_model_document(__package__, MODEL_FILE, NameModelError, "name")
    return NameModel.from_document(document).with_names(given, rare)
