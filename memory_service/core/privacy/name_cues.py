"""Surnames and names after cues the names module does not read, in EN/FR/ES/DE/IT.

A surname alone is in no dictionary, so only its cue can say it is one. Four cues do,
whatever the word they introduce:

- **the name asked for or given**: "last name? Nurmi", "surname: Okafor", "Nachname ist
  Brandt", "What's your family name? It's Kovač";
- **a reporting verb after a quote or an exclamation**: '..." says Leiva', '! said Eva';
- **a naming verb and its object**: "they named him Mihkel", "she calls her Bibi";
- **a word addressed at the start of a request**: "Sondre, can I speak to your boss?";
- **a booking under a full name, a person added to an account in a role**: "it's under
  Heloísa Jesus", "add Ülle Ader as a beneficiary";
- **the subject of a verb only a person does**, in the past tense: "Norberg flew to Oslo",
  "Kajdas began writing as a teenager", "Öberg is a 68 year old man";
- **a giver after a gift**: "a gift from Sander", "un cadeau de la part de Chloé";
- **an academic or professional title** of Central and Northern Europe and Turkey, with
  its dot: "MUDr. Novák", "Ing. Horváth", "Mgr. Svoboda", "dhr. De Vries", "Uz. Demir".

The word must be capitalised and not a function word, month or stop word. Only ``PERSON``
leaves this module, never the name.
"""

from __future__ import annotations

import re

from memory_service.core.lexicons import DEFAULT_LEXICONS, fold
from memory_service.core.privacy.names import FUNCTION_WORDS

PERSON = "PERSON"

# A capital of any Latin alphabet (Latin-1 and Latin Extended-A: "Ş", "Ł", "Ž").
_NAME_SHAPE = r"[A-ZÀ-ÖØ-ÞĀ-ž][^\W\d_]+(?:['\u2019\-][^\W\d_]+)*"
_NAME = rf"(?P<name>{_NAME_SHAPE})"
_ASKED = (
    r"(?:last|family|maiden|middle|first|given|full|your|his|her|their)\s+name|surname"
    r"|nom\s+de\s+famille|pr[ée]nom|apellidos?|nachname|familienname|vorname|cognome"
)
# Between the cue and the name: a question mark or a colon (a few lower-case words may close
# the question first: "surname for the booking? Okafor"), "is", or "It's" opening the answer.
_ANSWER = (
    r"(?:(?:\s+(?-i:[a-z][\w']*)){0,4}\s*[?:]\s*|\s+(?:is|was|est|es|ist|lautet|è)\s+"
    r"|[?.!]?\s+(?:it['\u2019]?s|it\s+is|c['\u2019]est|es|ist)\s+)"
)
_REPORTING = (
    r"says|said|asks|asked|replied|replies|adds|added|explains|explained|shouted|shouts"
    r"|whispered|exclaimed|writes|wrote|dit|dice|sagt|disse"
)
_NAMING = r"(?:named|called|calls|call|nicknamed|christened|bapti[sz]ed)\s+(?:him|her|them|me|us)"
_TITLES = (
    r"MUDr|MVDr|MDDr|JUDr|PhDr|RNDr|PaedDr|PharmDr|ThDr|Mgr|Ing|Bc|Doc|Dipl\.-Ing|Uzm|Uz|Sn"
    r"|Dra|dhr|mevr|drs|ir|mw|dr|doc|prof"
)
# A word addressed at the start of a request: "Sondre, can I speak to your boss?"
_VOCATIVE = (
    r"(?:^\s*|(?<=[.!?\n])\s*)(?=[^\W\d_]+,\s+(?:can|could|would|will|may)\s+(?:I|you|we)\b)"
)
# A sentence's subject before a verb only a person does (past tense: a note's own present
# tense drops its subject, "Never flies Ryanair"): "Norberg flew to Borås", "Öberg is a 68
# year old man", "Kajdas began writing as a teenager", "Adal is a very kind person".
_PERSON_VERB = (
    r"(?:flew|grew\s+up|was\s+born|graduated|shouted|whispered|laughed|began\s+writing"
    r"|is\s+an?\s+\d{1,3}[- ]years?[- ]old"
    r"|(?:is|was)\s+an?\s+(?:[a-z]+\s+){0,3}(?:person|man|woman|girl|boy|guy|lady|gentleman"
    r"|teenager))\b"
)
_SUBJECT = rf"(?:^\s*|(?<=[.!?\n])\s*)(?={_NAME_SHAPE}\s+{_PERSON_VERB})"
# Words that open a request or a sentence without naming anyone ("Sorry, can you...",
# "Customer graduated...").
_DISCOURSE_TEXT = """
also please sorry honestly ok okay well now today tomorrow tonight hi hello hey thanks yes no
btw note reminder team everyone everybody guys folks sir madam doctor mum mom dad again then
so first finally quick question anyway user customer client patient member guest applicant
student caller owner tenant someone nobody everyone
"""
_DISCOURSE_WORDS = frozenset(_DISCOURSE_TEXT.split())
# A booking or an account under a full name, and a person added to an account in a role:
# "it's under Heloísa Jesus", "add Ülle Ader as a beneficiary".
_UNDER = r"(?:booked|reserved|registered|listed|it['\u2019]?s)\s+under\s+(?:the\s+name\s+)?"
_ADDED = (
    rf"\b[Aa]dd\s+(?={_NAME_SHAPE}(?:\s+{_NAME_SHAPE}){{0,3}}\s+as\s+(?:an?\s+|my\s+|the\s+)?"
    r"(?:beneficiary|authori[sz]ed\s+user|joint\s+(?:holder|owner)|co-?signer|dependant"
    r"|dependent|named\s+driver|guardian|executor|nominee|next\s+of\s+kin)\b)"
)
# A sign-off, its comma, then the name that signs: "signed 'Best, Giulia'", "Cheers, Tavita",
# "Cordialement, Kerhervé", "Un abrazo, Iker", "Viele Grüße, Jannik", "Cordiali saluti, Brando".
_SIGN_OFF = (
    r"(?:best(?:\s+wishes|\s+regards)?|kind\s+regards|warm\s+regards|regards|cheers|thanks"
    r"|many\s+thanks|love|xoxo|cordialement|bien\s+[àa]\s+vous|bises|bisous|amiti[ée]s"
    r"|saludos|un\s+saludo|un\s+abrazo|besos|atentamente|(?:viele|liebe|beste|herzliche)\s+gr[üu](?:ß|ss)e"
    r"|gr[üu](?:ß|ss)e|lg|vg|mfg|ciao|saluti|cordiali\s+saluti|distinti\s+saluti|un\s+abbraccio"
    r"|baci)"
)
# A table or a booking under a name, quoted or not: "Books tables under 'Hendricks, party of
# 4'", "reservations under Okafor".
_BOOKED_UNDER = (
    r"\b(?:book|books|booked|booking|bookings|reserve|reserves|reserved|reservation"
    r"|reservations|table|tables)\b[^.;!?\n]{0,40}?\bunder\s+(?:the\s+name\s+(?:of\s+)?)?"
    r"[\'\"\u2018\u201c]?"
)
# A giver: "Got the Michael Kors wallet as a gift from Sander", "un cadeau de la part de
# Chloé". Not "un cadeau de Noël", "regalo di Natale", "Geschenk von Oma": a bare "de", "di",
# "von" also names the occasion or a relative's title. "A gift card from Amazon" is a card;
# "a gift from Santa" is refused (its cost).
_GIFT_FROM = (
    r"\b(?:(?:gift|present)\s+from|(?:cadeau|regalo)\s+de\s+(?:la\s+)?parte?\s+de"
    r"|regalo\s+da\s+parte\s+di)\s+"
)
_CUED_NAME = re.compile(
    rf"(?:(?i:\b(?:{_ASKED}){_ANSWER}"
    rf"|[,!?\"\u201d\u00bb]\s*(?:{_REPORTING})\s+"
    rf"|\b{_NAMING}\s+)"
    rf"|(?<![\w.])(?:{_TITLES})\.\s*|{_VOCATIVE}|{_SUBJECT}|{_ADDED}"
    rf"|(?i:{_UNDER})(?={_NAME_SHAPE}\s+{_NAME_SHAPE})"
    rf"|(?<!\w)(?i:{_SIGN_OFF})\s*,\s+|(?i:{_BOOKED_UNDER})|(?i:{_GIFT_FROM}))"
    rf"{_NAME}"
)


def cued_name_types(text: str) -> frozenset[str]:
    """``PERSON`` when a capitalised word follows one of the cues above; never the word."""
    for match in _CUED_NAME.finditer(text):
        word = fold(match["name"]).lower()
        if not (
            word in FUNCTION_WORDS or word in DEFAULT_LEXICONS.stopwords or word in _DISCOURSE_WORDS
        ):
            return frozenset({PERSON})
    return frozenset()
