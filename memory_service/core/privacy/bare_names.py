"""A given name standing alone, without a cue and without a surname, in EN/FR/ES/DE/IT notes.

:mod:`memory_service.core.privacy.names` finds a name after a cue ("my neighbour Jane") or a
known first name with a surname ("Edvard Petrussen"). People are just as often named by a
given name alone: "Thomas is a very sympathetic person", "Laura, can I speak to your boss?",
"shouted at Ignacy", "between him and Martino's kid", "They had 6: Jaromír, Evelína, Aleš".
This module finds such a word by its place in the sentence. The word must be a first name
the names dictionary does not call rare (its rare entries are often words of some language:
"Tiene", "Arlo", "Anki"), and neither a common word nor a product name of the lexicons:

- **inside an English sentence** it is a name, unless the sentence's structure makes it
  something else: a determiner, a place preposition or a number before it ("the Rose
  garden", "flies to Florence", "two Hue bulbs"), another capitalised word beside it (a pair
  or a title is the names module's call, and its brand and place filters apply there), or a
  public name by its context (the name model, handed in: "shops at Wendy's");
- **at the start of a sentence** (where any word is capitalised) **and in the other
  languages** (German capitalises every noun; in French, Spanish and Italian a capitalised
  word after a lowercase noun is a model: "la caméra Arlo"), only as a subject or an
  address: followed by a comma ("Laura, can I..."), a possessive ("Emma's school"), "and"
  with another capitalised word, or a verb of the closed class people are the subject of
  ("is", "was", "lives", "hat", "est", "vive", "è"...);
- **a pair or a title before a verb and its particle** ("Joakim Mikkelsen points out"),
  which the names module reads as a brand ("Marriott points").

A German noun, a month, a weekday or a language is not a name: the common words (stop
words, months, weekdays, languages) are never read as one. What cannot
be told apart from a name is refused: a refused preference costs one question to the user,
a leaked name a deletion request. Only ``PERSON`` leaves this module, never the word.

The core holds no names dictionary: :func:`build_finder` takes the names from the caller
(the PII adapter, built by ``bootstrap``, reads the ``gender-guesser`` data file and runs the
finder inside its ``entity_types``), so the core imports no adapter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons
from memory_service.core.privacy.names import (
    FUNCTION_WORDS,
    RELATIONS,
    is_capitalised,
    is_caseless,
)

PERSON = "PERSON"
PublicName = Callable[[str, int, int], bool]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words: letters with inner apostrophes or hyphens ("O'Brien", "Paul-Heinz").
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
_POSSESSIVE_END = re.compile(r"['\u2019]s?$")
# What ends a sentence, or starts a new unit a capital does not prove anything in.
_SENTENCE_END = frozenset('.!?:;\n"“”«»()[]*-\u2013\u2014\u2022')
_WEEKDAYS = _words(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs"
    " fri sat sun lundi mardi mercredi jeudi"
    " vendredi samedi dimanche lunes martes miercoles jueves viernes sabado domingo montag"
    " dienstag mittwoch donnerstag freitag samstag sonnabend sonntag lunedi martedi mercoledi"
    " giovedi venerdi sabato"
)
# Languages and nationalities, capitalised in English ("prefers German", "in English").
LANGUAGES_AND_NATIONALITIES = _words(
    "english german french spanish italian portuguese dutch polish russian chinese japanese"
    " korean arabic greek turkish swedish norwegian danish finnish hungarian czech romanian"
    " british american european irish scottish welsh swiss austrian belgian canadian"
    " australian indian mexican brazilian catalan basque latin hebrew hindi thai"
)
# Numbers spelled out: a capitalised word after one is a model or a unit ("two Hue bulbs").
_NUMBER_WORDS = _words("one two three four five six seven eight nine ten twelve")
# Words that mark a note's language, so the rule for names inside a sentence is kept to
# English: in German every noun is capitalised, and in French, Spanish and Italian a
# capitalised word after a lowercase noun is a model or a brand ("la caméra Arlo").
_ENGLISH_MARKERS = _words(
    "the and of to with is are was has have for on at his her their but not from by this"
    " that it be you my we an"
)
_OTHER_MARKERS = _words(
    "le la les des du et est une avec pour dans sur pas au aux ce cette qui que elle sa ses"
    " chez depuis el los las del y es con para por una que su sus muy pero tiene der die das"
    " den dem und ist nicht mit für auf ein eine einen im am zum zur von bei nach er jeden"
    " immer il lo gli della delle dei è per che non sono ha nel nella al alla di sempre"
)
# A noun, not a name, comes after these: articles, demonstratives, possessives; and a place
# after a place preposition ("flies to Lisbon", "à Lille", "nach Italien", "di Roma").
_NOT_BEFORE_A_NAME = (
    _words(
        "the a an this that these those my your his its our their der die das dem den des ein eine"
        " einen einem einer eines mein meine dein deine sein seine unser unsere le la les l un une"
        " ce cet cette ces mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs el los"
        " las lo una uno unos unas mi mis tu tus su sus nuestro nuestra il gli i questo questa"
        " quel quella mio mia tuo tua suo sua nostro nostra"
        " to from in into near via through around across towards toward outside inside"
        " a au aux de d des du en dans vers depuis pres sur desde hacia nach aus zu im am di da"
        " dal dalla per verso"
    )
    | _NUMBER_WORDS
)
# The verbs a person is the subject of right after a sentence-initial name, EN/FR/ES/DE/IT.
_SUBJECT_VERB = re.compile(
    r"\s+(?:is|was|has|had|will|would|can|could|should|may|might|must|does|did|isn't|wasn't"
    r"|doesn't|didn't|can't|won't|lives|lived|works|worked|says|said|asked|asks|told|tells"
    r"|shouted|likes|liked|loves|loved|wants|wanted|needs|needed|went|goes|came|comes|began"
    r"|started|called|calls|wrote|writes|thinks|thought|knows|knew|gave|gives|got|gets|made"
    r"|makes|took|takes|moved|met|married|studies|studied|plays|played|lost|won|left|joined"
    r"|prefers|preferred|sent|paid|bought|visited|visits|and\s+(?-i:[A-ZÀ-ÖØ-Þ]))\b"
    # ("a", French "has", is left out: it is also the Spanish and Italian "to".)
    r"|\s+(?:est|était|avait|habite|travaille|aime|veut|dit|vit|es|era|tiene|tenía|vive"
    r"|trabaja|quiere|dice|ist|war|hat|hatte|wohnt|arbeitet|mag|sagt|lebt|è|ha|aveva|abita"
    r"|lavora|vuole)\s"
    r"|\s*,|['\u2019]s\s",
    re.IGNORECASE,
)
_PAIR_SEPARATORS = frozenset({"/", "\u2013", "\u2014"})
# A word after the name that reads as a verb with its particle ("Miah points out"), not as
# the product noun the brand rules look for ("Marriott points").
_VERB_PARTICLE_AFTER = re.compile(r"\s+[a-z]+s\s+(?:out|up|that)\b")


# A lower-case run of up to four words opening a sentence, then a copula and a person's role
# ("ali hassan al-rashid is the landlord", "sam is my flatmate"): a name written without
# capitals, named by the role it is said to be.
_LOWER_RUN_THEN_ROLE = re.compile(
    r"(?P<run>[a-zà-öø-ÿ][a-zà-öø-ÿ'\u2019-]*(?:\s+[a-zà-öø-ÿ][a-zà-öø-ÿ'\u2019-]*){0,3})"
    r"\s+(?:is|was|est|es|ist|è)\s+(?:the|my|our|his|her|their|le|la|mon|ma|el|mi|der|die"
    r"|mein|meine|il|lo|mio|mia)\s+"
    rf"(?:{'|'.join(RELATIONS)})(?![\w-])"
)

# A relation, up to four words of its complement, then a lower-case word between commas
# ("il cugino dell'utente, davide, gestisce", "her flatmate, priya, pays the bills"): a name
# in apposition, written without its capital (issue 10, session 14).
_RELATION_THEN_LOWER_APPOSITION = re.compile(
    rf"(?<![\w-])(?:{'|'.join(RELATIONS)})(?![\w-])(?:[\s'\u2019]+[^\W\d_]+){{0,4}}?\s*,\s*"
    r"(?P<name>[a-zà-öø-ÿ][a-zà-öø-ÿ'\u2019-]+)\s*,",
    re.IGNORECASE,
)

# An initial, then a double-barrelled surname ("Reports to D. Mbeki-Castellanos", "J.
# Smith-Jones"): no given name to look up, the shape alone says a person. Not after a
# capitalised word, where the letter ends a title ("Plan A. Coca-Cola").
_INITIAL_THEN_DOUBLE_SURNAME = re.compile(
    r"(?<![\w.])"
    r"[A-ZÀ-ÖØ-Þ]\.\s?(?:[A-ZÀ-ÖØ-Þ]\.\s?)?"
    r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)+(?![\w-])"
)

_INITIAL_FINDER = _INITIAL_THEN_DOUBLE_SURNAME.finditer
# The word before an initial that makes the letter the end of a title: a capitalised word.
_CAPITALISED_WORD_END = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019]*\s+$")


def _initial_opens_name(text: str, start: int) -> bool:
    """Whether the initial at ``start`` opens a name: a capitalised word right before it
    (not ending a sentence) makes the letter part of a title ("Plan A. Coca-Cola")."""
    return _CAPITALISED_WORD_END.search(text[max(0, start - 40) : start]) is None


def _caseless_subject(text: str, words: list[re.Match[str]]) -> bool:
    """A word of a script without capitals opening a sentence of a note in Latin letters,
    then a verb people are the subject of: "田中 likes green tea", "أحمد prefers aisle
    seats". No capital says it is a name; its place and its verb do (a dish the note is
    about is refused too: "寿司 is the usual lunch")."""
    for match in words:
        if not is_caseless(match.group()):
            continue
        before = text[: match.start()].rstrip()
        if (not before or before[-1] in _SENTENCE_END) and _SUBJECT_VERB.match(text, match.end()):
            return True
    return False


@dataclass(frozen=True)
class BareNameFinder:
    """Finds a lone given name; build once (the dictionary is large), call per note.

    ``first_names`` are the dictionary's names above its rare frequency classes (the rare
    entries are often words of some language: "Tiene", "Arlo", "Anki"), lower case, with
    and without accents, as the names adapter gives them (:func:`build_finder`).
    """

    first_names: Container[str]
    common_words: Container[str]
    products: Container[str]
    # Whether ``text[start:end]`` is a public name (a figure, a brand, a work, a place) by its
    # context: the name model (:mod:`.name_model`), handed in by the adapter.
    public: PublicName

    def person_types(self, text: str) -> frozenset[str]:
        """``PERSON`` when a given name stands alone in ``text``; never the name."""
        words = list(_WORD.finditer(text))
        if (
            _caseless_subject(text, words)
            or self._lower_name_then_role(text)
            or self._lower_name_in_apposition(text)
            or any(_initial_opens_name(text, m.start()) for m in _INITIAL_FINDER(text))
        ):
            return frozenset({PERSON})
        english: bool | None = None
        for index, match in enumerate(words):
            word = _POSSESSIVE_END.sub("", match.group())
            if not is_capitalised(word) or not self._known(word):
                continue
            start, end = match.start(), match.start() + len(word)
            before = text[:start].rstrip()
            previous = _fold(words[index - 1].group()) if index else ""
            if self._in_capitalised_run(text, words, index):
                if self._run_then_verb(text, words, index):
                    return frozenset({PERSON})
                continue
            if (
                (previous in _NOT_BEFORE_A_NAME and before.endswith(words[index - 1].group()))
                or before[-1:].isdigit()
                # A path, a time zone or a pair of places: "Europe/Paris", "Paris/London",
                # a route "Paris\u2013Nice" (a dash glued to both: a hyphenated name is one word).
                or _PAIR_SEPARATORS & {text[start - 1 : start], text[match.end() : match.end() + 1]}
            ):
                continue
            if english is None:
                english = _reads_english(words)
            sentence_start = not before or before[-1] in _SENTENCE_END
            if (sentence_start or not english) and not _SUBJECT_VERB.match(text, end):
                continue
            if not self._brand(text, start, end):
                return frozenset({PERSON})
        return frozenset()

    def _lower_name_then_role(self, text: str) -> bool:
        """A sentence opening with a lower-case given name (alone or with more lower-case
        words), then a copula and a person's role: "ali hassan al-rashid is the landlord"."""
        for match in _LOWER_RUN_THEN_ROLE.finditer(text):
            before = text[: match.start()].rstrip()
            if before and before[-1] not in _SENTENCE_END:
                continue
            first = match["run"].split()[0]
            if self._known(first):
                return True
        return False

    def _lower_name_in_apposition(self, text: str) -> bool:
        """A relation, then a lower-case given name between commas (see the pattern)."""
        return any(
            self._known(match["name"]) and match["name"].islower()
            for match in _RELATION_THEN_LOWER_APPOSITION.finditer(text)
        )

    def _known(self, word: str) -> bool:
        """A first name of the finder (each part of "Paul-Heinz"), not a common word or a
        product name."""
        return word not in self.products and all(
            _fold(part) not in self.common_words
            and (part.lower() in self.first_names or _fold(part) in self.first_names)
            for part in word.split("-")
        )

    def _in_capitalised_run(self, text: str, words: list[re.Match[str]], index: int) -> bool:
        """Whether a capitalised or upper-case word stands right beside this one, one space
        apart. A
        sentence's first word is capitalised anyway ("Borrowed Laura's bike"): it counts
        only when it is a first name itself."""
        for other in (index - 1, index + 1):
            if not 0 <= other < len(words):
                continue
            left, right = sorted((words[index], words[other]), key=lambda m: m.start())
            neighbour = words[other].group()
            # An upper-case neighbour counts too: "Paris CDG", "Laura Ashley UK".
            capital = is_capitalised(neighbour) or (len(neighbour) > 1 and neighbour.isupper())
            if text[left.end() : right.start()] != " " or not capital:
                continue
            head = text[: words[other].start()].rstrip()
            starts = other < index and (not head or head[-1] in _SENTENCE_END)
            if starts and not self._known(_POSSESSIVE_END.sub("", neighbour)):
                continue
            return True
        return False

    def _run_then_verb(self, text: str, words: list[re.Match[str]], index: int) -> bool:
        """Whether the capitalised run holding this name is the subject of a verb with its
        particle ("Joakim Mikkelsen points out"): the names module's pair rule reads "points"
        as a product noun ("Marriott points") and lets such a pair through."""
        last = index
        while last + 1 < len(words) and text[words[last].end() : words[last + 1].start()] == " ":
            if not is_capitalised(words[last + 1].group()):
                break
            last += 1
        end = words[last].end()
        return bool(_VERB_PARTICLE_AFTER.match(text, end)) and not self.public(
            text[:end], words[index].start(), end
        )

    def _brand(self, text: str, start: int, end: int) -> bool:
        # "Miah points out": judged without the verb that looks like a product noun.
        if _VERB_PARTICLE_AFTER.match(text, end):
            return self.public(text[:end], start, end)
        return self.public(text, start, end)


def noun_or_place_before(word: str) -> bool:
    """Whether a capitalised word after ``word`` is a noun or a place rather than a name: an
    article, a possessive, a place preposition or a number word ("the Rose garden", "da
    Roma", "am Gang", "un Seat")."""
    return _fold(word) in _NOT_BEFORE_A_NAME


def _reads_english(words: list[re.Match[str]]) -> bool:
    """Whether the note's function words are more English than French, Spanish, German or
    Italian ones (a note without any reads as English)."""
    folded = [word.group().lower() for word in words]
    english = sum(word in _ENGLISH_MARKERS for word in folded)
    return english >= sum(word in _OTHER_MARKERS for word in folded)


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.replace("\u2019", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def build_finder(
    first_names: Iterable[str], public: PublicName, lexicons: Lexicons = DEFAULT_LEXICONS
) -> BareNameFinder:
    """The finder over ``first_names`` (the caller's dictionary, lower case: the adapter
    that reads one hands it in) and the lexicons' own first names, with the lexicons'
    common words (stop words, whole month names), weekdays, languages and function words
    never read as a name, and their product names let through."""
    months = {_fold(month) for month in lexicons.months if len(month) > 3}
    return BareNameFinder(
        first_names=frozenset(first_names) | {_fold(name) for name in lexicons.first_names},
        common_words=lexicons.stopwords
        | months
        | _WEEKDAYS
        | LANGUAGES_AND_NATIONALITIES
        | FUNCTION_WORDS,
        products=frozenset(lexicons.product_names),
        public=public,
    )
