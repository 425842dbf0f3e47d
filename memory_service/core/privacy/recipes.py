"""Secrets told rather than written: a password given by its parts, a login's recipe, the
answer to a security question stated as a fact.

A value need not appear whole to be a secret. People tell an agent "capital B, then irch,
then 2022", "logs in with the cat's name and her daughter's birth year", "her first pet was
called Biscuit" or "for 'first school' she always puts Jules-Ferry". Each has a shape:

- a single letter with the word for its case ("capital B", "B majuscule", "großes B") next to
  a digit or a credential word: a value spelled out part by part;
- a verb of logging in, then "with" and two or more parts joined by "and", "plus", "then",
  one of them quoted or a personal item (a name, a year, a number): a password's recipe;
- the subject of a classic security question (first pet, the street one grew up on, the city
  one's parents met in, the first school, a maiden name) and a name after "was called", ":"
  or "is": its answer; or a verb of answering ("always says", "répond", "contesta",
  "antwortet mit") and a capitalised or quoted word, in a note about a security question.

Matched on the folded text (accents removed, lower case kept as written). Only whether one of
these holds leaves the module, never the text.
"""

from __future__ import annotations

import re

from memory_service.core.privacy.vocabulary import (
    ANSWER_CUES,
    ANSWER_VERBS,
    CASE_WORDS_AFTER,
    CASE_WORDS_BEFORE,
    DIGIT_WORDS,
    LOGIN_VERBS,
    QUESTION_SUBJECTS,
    RECIPE_INGREDIENTS,
    RECIPE_JOINERS,
    SECURITY_CONTEXT,
    SECURITY_QUESTION_CUES,
)

_CASE_LETTER = re.compile(
    rf"(?<![\w-])(?:(?:{CASE_WORDS_BEFORE})\s+[A-Za-z](?![\w'-])"
    rf"|(?<![\w'-])[A-Za-z]\s+(?:{CASE_WORDS_AFTER})(?![\w-]))",
    re.I,
)
_CREDENTIAL_HINT = re.compile(
    r"pass|login|log in|logs in|mot de passe|contrasena|clave|kennwort|codice|code|pin(?!\w)"
    r"|cle|schlussel|chiave|wifi|wi-fi|wlan|router",
    re.I,
)


def spelled_by_parts(folded_text: str) -> bool:
    """A letter with its case said ("capital B", "B mayúscula") in a note that has a digit or
    names a credential: a value given part by part. "Writes DeSouza with a capital S" has
    neither."""
    if _CASE_LETTER.search(folded_text) is None:
        return False
    return any(ch.isdigit() for ch in folded_text) or bool(_CREDENTIAL_HINT.search(folded_text))


_INSTRUMENT = r"(?:with|using|avec|en utilisant|con|mit|usando)"
_LOGIN_RECIPE = re.compile(
    rf"(?<![\w-])(?:{LOGIN_VERBS})(?![\w-])[^.!?;\n]{{0,60}}?(?<![\w-]){_INSTRUMENT}(?![\w-])"
    r"(?P<recipe>[^.!?;\n]{3,160})",
    re.I,
)
_QUOTED = re.compile(
    r"[\"'\u00ab\u201c\u2018]\s*[^\s\"'\u00bb\u201d\u2019]{2,40}\s*[\"'\u00bb\u201d\u2019]"
)
_INGREDIENT = re.compile(rf"(?<![\w-])(?:{RECIPE_INGREDIENTS})(?![\w-])", re.I)
_JOINER = re.compile(rf"(?<![\w-])(?:{RECIPE_JOINERS})(?![\w-])|,", re.I)


def login_recipe(folded_text: str) -> bool:
    """A verb of logging in, "with", then two parts joined ("and", "plus", "then", a comma),
    one of them quoted or a personal item: "signs into the app with the kid's nickname,
    'bugsy', plus the street number". "Logs in with Google and Face ID" names no item."""
    for match in _LOGIN_RECIPE.finditer(folded_text):
        recipe = match["recipe"]
        if not _JOINER.search(recipe):
            continue
        if _QUOTED.search(recipe) or _INGREDIENT.search(recipe):
            return True
    return False


_SUBJECT = re.compile(rf"(?<![\w-])(?:{QUESTION_SUBJECTS})(?![\w-])", re.I)
# After the subject: "was called", "named", ":", "is", "s'appelait", "hieß", then the name.
_NAMED = re.compile(
    r"^[^.!?;\n]{0,40}?(?:(?<![\w-])(?:was called|called|named|was|is|s'appelait|s'appelle"
    r"|se llamaba|se llama|era|es|hiess|hieß|heisst|war|ist|si chiamava|si chiama|e|est"
    r"|etait)(?![\w-])|:\s*(?:[a-z]+\s+)?)\s*(?:(?:a|an|the|un|une|una|uno|ein|eine|le|la"
    r"|el|il)\s+"
    r"(?:[^\W\d]+\s+){0,2}(?:named|called|nomme|nommee|llamad[oa]|namens|chiamat[oa])\s+)?"
    # the name, or a street's abbreviation and its name ("C. Matias Zabala", "St. Albans Rd")
    r"[\"'\u00ab\u201c]?(?P<value>[A-Z][\w'-]+|[A-Z][a-z]{0,3}\.\s*[A-Z][\w'-]+)",
)
_ANSWER = re.compile(
    rf"(?<![\w-])(?:{ANSWER_VERBS})(?![\w-])(?:\s+(?:always|toujours|siempre|immer|sempre"
    r"|she|he|it|sie|er|mit|with|avec|con|as|comme|como|come|too|aussi|tambien|auch|anche)"
    r"(?![\w'-]))*\s*:?\s*[\"'\u00ab\u201c]?(?P<value>(?-i:[A-Z])[\w'-]+)",
    re.I,
)
_SECURITY = re.compile(rf"(?<![\w-])(?:{SECURITY_CONTEXT})", re.I)
# A verb of answering, the question between, then "with" and the answer ("beantwortet die
# Sicherheitsfrage mit Hasenfuss", "answers the security question with 'Rex'", "répond à la
# question secrète par Minou").
_ANSWERED_WITH = re.compile(
    rf"(?<![\w-])(?:{ANSWER_VERBS})(?![\w-])[^.!?;\n]{{0,50}}?(?<![\w-])"
    r"(?:with|by|avec|par|con|mit|using|en disant|diciendo|dicendo)\s+"
    r"(?:(?:the word|le mot|la palabra|das wort|la parola)\s+)?"
    r"(?:[\"'\u00ab\u201c\u2018]\s*[^\s\"'\u00bb\u201d\u2019]|(?-i:[A-Z])[\w'-]+)",
    re.I,
)
_ANY_QUOTE = re.compile("[\"'\u00ab\u201c\u2018\u201e]")
_QUESTION_CUE = re.compile(rf"(?<![\w-])(?:{'|'.join(SECURITY_QUESTION_CUES)})", re.I)
_ANSWER_CUE = re.compile(rf"(?<![\w-])(?:{'|'.join(ANSWER_CUES)})", re.I)
# A question quoted, then ":", "=" or an arrow and its answer (« nom de jeune fille de ma
# mère » : Lefebvre, "'first pet' -> Biscuit"): the quotes name the question, what follows
# the mark answers it.
_QUOTED_QUESTION = re.compile(
    r"[\"'\u00ab\u201c\u2018\u201e](?P<question>[^\"\u00bb\u201d\u2019\n]{3,80})"
    r"[\"'\u00bb\u201d\u2019\u201c]\s*(?:[:=]|->|\u2192|=>|\u2014|--)\s*"
    r"[\"'\u00ab\u201c]?(?P<value>[^\s\"'\u00bb\u201d]{2,}(?:\s[^\s.,;!?]+)?)"
    # an answer is a word or two and ends its clause ("...: good for beginners" is a comment)
    r"[\"'\u00bb\u201d]?\s*(?:$|[.,;!?)\n])"
)


# An answer given to what a bank, a support line or a site asks, the question described
# instead of named ("When the bank asks about mum's family name before marriage, it's
# Whitcombe", "Quand la banque demande …, c'est Moreau"): the one capitalised word that ends
# the sentence after "it's" answers a check of identity.
_VERIFIER_ASKS = re.compile(
    r"(?<![\w-])(?:when(?:ever)?|if|quand|lorsque|si|cuando|wenn|falls|quando|se)\s+"
    r"(?:(?:the|la|le|l'|el|die|der|das|il|lo|his|her|their|sa|son|su|seine|ihre|sua)\s*)?"
    r"(?:bank\w*|banque|banco|banca|hotline|helpline|support|assistance|assistenza|insurer"
    r"|assurance|aseguradora|versicherung|operator|operateur|operador|operatore|site|website"
    r"|sitio|app|portal|portail|kundendienst|kundenservice|servicio|service)\s+(?:\w+\s+)?"
    r"(?:asks?|asked|demande|pregunta|fragt|chiede)(?![\w-])[^.!?;\n]{0,80}?,\s*"
    r"(?:it'?s|it is|c'est|es|ist es|ist's|e|sagt (?:er|sie|man)|dice|dit)\s+"
    r"[\"'\u00ab\u201c\u201e]?(?-i:[A-Z])[\w'-]+[\"'\u00bb\u201d]?\s*(?:[.!]\s*|$)(?:$|\n)",
    re.I,
)


def security_answer_told(folded_text: str) -> bool:
    """The answer to a classic security question: a question's subject and a name after
    it ("first pet was called Biscuit", "Street where the user grew up was Maple
    Crescent"), or a verb of answering and a capitalised or quoted word in a note about a
    security question or naming one's subject ("Para «ciudad donde nacieron sus padres»
    siempre contesta Cáceres"); "Writes 'Many thanks' in every email" names neither."""
    if _VERIFIER_ASKS.search(folded_text):
        return True
    for subject in _SUBJECT.finditer(folded_text):
        named = _NAMED.match(folded_text[subject.end() :])
        if named is not None:
            return True
    # A security context from the note's text, not from a keyword alone ("Uses Bitwarden as
    # password manager" with the keyword "security" answers no question).
    context = any(
        _SECURITY.search(part) or _SUBJECT.search(part)
        for part in re.split(r"[.!?]\s+(?=\S+$)", folded_text)[:1]
    )
    if context and (_ANSWER.search(folded_text) or _ANSWERED_WITH.search(folded_text)):
        return True
    if not _ANY_QUOTE.search(folded_text):
        return False
    return any(_quoted_answer(match) for match in _QUOTED_QUESTION.finditer(folded_text))


def _quoted_answer(match: re.Match[str]) -> bool:
    """A quoted security question or answer cue, then its answer; a quoted subject alone
    (a title: "First Pet Care": good read) only with a capitalised answer after it."""
    question = match["question"]
    if _ANSWER_CUE.search(question) or _SECURITY.search(question):
        return True
    named = _QUESTION_CUE.search(question) or _SUBJECT.search(question)
    return bool(named) and match["value"][:1].isupper()


# --- a value concluded after its description ------------------------------------------------

_CONCLUSION = re.compile(
    r"(?<![\w-])(?:so|i\.e\.|that is|which gives|donc|soit|c'est-a-dire|o sea|es decir|osea"
    r"|also|d\.h\.|das heisst|cioe|quindi|ossia|vale a dire|followed by|suivie? de|seguido de"
    r"|seguita? da|gefolgt von)(?![\w-])[\s,:]*"
    r"(?P<value>[^.!?;\n]{1,40})",
    re.I,
)
_DIGIT_WORD = re.compile(rf"(?<![\w-])(?:{'|'.join(sorted(DIGIT_WORDS, key=len, reverse=True))}"
                         r"|[a-z]*(?:zehn|zig|ssig|ante|anta|enta|inte|ici|ty|teen))(?![\w-])",
                         re.I)  # fmt: skip


def concluded_value(folded_text: str, cued: bool) -> bool:
    """In a note that names a credential or a lock (``cued``), a value after "so", "donc", "o
    sea", "also", "cioè"... once its description is done ("the house number doubled, so 42
    42", "Name der Katze plus die Hausnummer, also Minka neunzehn"): two digits or more, or a
    capitalised word with a number word."""
    if not cued:
        return False
    for match in _CONCLUSION.finditer(folded_text):
        words = match["value"].split()[:MAX_CONCLUDED_WORDS]
        if not words or not (words[0][:1].isupper() or words[0][:1].isdigit()):
            continue  # "so the agent must...", "quindi preferisce ... dopo le 20"
        head = " ".join(words)
        if sum(ch.isdigit() for ch in head) >= MIN_CONCLUDED_DIGITS or _DIGIT_WORD.search(head):
            return True
    return False


MAX_CONCLUDED_WORDS = 3


MIN_CONCLUDED_DIGITS = 2

# A Roman numeral of a year ("MMXIX", "MCMLXXX"), or three numerals keyed in a row
# ("C-IV-II-IX"): in a note about a credential or a lock, the code written in numerals.
_ROMAN_YEAR = re.compile(
    r"(?<![\w-])M{1,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})(?![\w-])"
)
_ROMAN_KEYED = re.compile(r"(?<![\w-])(?:[CLXVI]{1,4})(?:[ .-](?:[CLXVI]{1,4})){2,}(?![\w-])")
MIN_ROMAN_CHARS = 4


def roman_code(folded_text: str, cued: bool) -> bool:
    """A year or keyed digits in Roman numerals in a note that names a credential or a lock."""
    if not cued:
        return False
    years = [m.group() for m in _ROMAN_YEAR.finditer(folded_text)]
    if any(len(year) >= MIN_ROMAN_CHARS for year in years):
        return True
    return any(
        any(ch != "I" for ch in match.group() if ch.isalpha())
        for match in _ROMAN_KEYED.finditer(folded_text)
    )


# The first words of a recovery phrase: after a seed cue, three or more single words quoted
# or listed with commas to the end of the clause ("Recovery words ... begin with 'orbit
# lantern velvet'", "empiezan por «tigre, ancla, nube»", "fangen an mit Apfel, Brücke, Sonne").
_SEED_CUE = re.compile(
    r"(?<![\w-])(?:recovery (?:words?|phrase)|seed(?: phrase| words)?|mnemonic|backup phrase"
    r"|phrase de recuperation|mots de recuperation|phrase secrete|palabras de recuperacion"
    r"|frase (?:semilla|de recuperacion)|semilla|recovery-worter|wiederherstellungsworter"
    r"|wiederherstellungsphrase|seed-phrase|parole di recupero|frase di recupero"
    r"|seed-worter)(?![\w-])",
    re.I,
)
_LISTED_WORDS = re.compile(
    r"[\"'\u00ab\u201c\u2018]\s*(?P<quoted>[^\W\d_]{3,10}(?:[\s,]+[^\W\d_]{3,10}){2,11})\s*"
    r"[\"'\u00bb\u201d\u2019]"
    r"|(?P<listed>[^\W\d_]{3,10}(?:,\s*[^\W\d_]{3,10}){2,11})\s*(?:[.;!?\n]|$)"
)


def seed_words_begun(folded_text: str, stopwords: frozenset[str]) -> bool:
    for cue in _SEED_CUE.finditer(folded_text):
        clause = re.split(r"[.;!?\n]", folded_text[cue.end() :], maxsplit=1)[0] + "."
        for match in _LISTED_WORDS.finditer(clause):
            words = re.findall(r"[^\W\d_]+", (match["quoted"] or match["listed"]).lower())
            if not any(word in stopwords for word in words):
                return True
    return False
