"""The shape of a note's sentence: who the fact comes from, and whether it is drawn from evidence.

Features the judgment model reads beside :func:`.features.features` (the special-categories model
does not read them, so a change here retrains only the judgment model). The words and character
grams of :mod:`.features` drop punctuation and see no order beyond a word pair, and two mistakes
of the shipped model come from exactly that (session 9, the shipped model on writer w20):

- **A conclusion drawn from evidence, with no hedge word**: "Buys nappies every week -> has a
  baby", "Tips 30% on every ride. Well-off.", "Croquettes en sac de 12 kg, donc un grand chien",
  "Bestellt um 3 Uhr nachts, arbeitet also nachts" (72 of 100 guesses saved). What marks them is
  the shape: two parts, the second a conclusion, joined by an arrow or an equals sign, by a
  connective of consequence, or by a break after a source put first ("Vu le montant des
  pourboires, …"); and the first part a habit or a count (evidence seen, not a thing said).
- **A fact the user stated, read as chatter**: "Said they have a Great Dane", "A dit qu'elle court
  trois fois par semaine", "Dijo que corre tres veces por semana", "Hat uns erzählt, dass sie ein
  Baby hat", "Grundschullehrerin - hat sie im Chat erwähnt" (refused as ``not_actionable``: the
  speech verb is chatter's). What separates them from "Said hello" is a clause after the verb (a
  complementizer or a subject), an attribution to the user's own words, or the user's first person
  quoted.

After the break, the tail says which of the two it is: a consequence for the agent (a
fact and its use: "Works night shifts, so calls are best after 2pm", ``then_action``) or a
conclusion about the person (``then_attr``; with a habit or a count before it,
``evidence_then``).

Each shape gives ``sh:<name>``, and each with the cue classes of the note (``shx:<shape>+<class>``),
so the linear model can weigh "an arrow after a habit" apart from "an arrow in an update"
("Switched from iPhone -> Android"). Closed classes of grammar and punctuation, not topics.
"""

from __future__ import annotations

import hashlib
import re

from memory_service.core.judgment.cues import cue_classes
from memory_service.core.judgment.features import fold, folded_tokens

# An arrow or an equals sign between two parts ("A -> B", "A => B", "A = B", "A ⇒ B").
_ARROW = re.compile(r"(?:->|=>|-->|[\u2192\u21d2\u27f6\u27f9]|\s=|=\s)")
_BEFORE = re.compile(r"\S[^\n]*$")
_AFTER = re.compile(r"\s*\S")


def _arrow_end(folded: str) -> int | None:
    """Where the part after the first arrow between two parts starts, or ``None``."""
    for arrow in _ARROW.finditer(folded):
        after = _AFTER.match(folded, arrow.end())
        if after and _BEFORE.search(folded, 0, arrow.start()):
            return after.end() - 1
    return None


# A connective of consequence after a break, or a consequence adverb after the verb ("arbeitet
# also nachts", "lavora quindi di notte").
_CONSEQUENCE = re.compile(
    r"[,;:.\u2013\u2014-]\s*(?:and\s+)?(?:so|hence|therefore|thus|which means|meaning|donc|du coup"
    r"|c'est donc|ce qui veut dire|alors|asi que|por tanto|por lo tanto|luego|o sea|lo que indica"
    r"|also|folglich|daher|deshalb|demnach|somit|quindi|dunque|percio|per cui|il che significa"
    r"|ergo)\b"
    r"|\b\w+\s+(?:also|folglich|daher|demnach|somit|quindi|dunque|donc|therefore)\s+\w"
)
# A source put first, then a break and the conclusion: "Given the…, …", "From the…, …",
# "Vu le…, …", "Visto el…, …", "Anhand des…: …", "Dem Tonfall nach …", "Dato il…, …".
_SOURCE_FIRST = re.compile(
    r"^\W*(?:given|from|based on|judging (?:by|from)|going by|looking at|vu|vue|vus|vues|au vu d"
    r"|a voir|a en juger|compte tenu d|d'apres|visto|vista|vistos|vistas|dado|dada|a juzgar"
    r"|segun|teniendo en cuenta|anhand|aufgrund|dem \w+ nach|laut|gemessen an"
    r"|dato|data|visto|vista|a giudicare|in base a|considerando|stando a)\b"
    r"[^,:;.\u2013\u2014]{2,60}[,:;\u2013\u2014]"
)
# Evidence after the fact: ", since …", ", vu que …", ", ya que …", ", weil …", ", visto che …";
# or the evidence first: "Since he only answers at night, …", "Da er nur nachts antwortet, …".
_EVIDENCE_CLAUSE = re.compile(
    r"[,;]\s*(?:since|because|as|given that|seeing that|vu que|puisque|comme|etant donne"
    r"|ya que|puesto que|dado que|como|weil|da|nachdem|visto che|dato che|poiche|siccome)\b"
    r"|^\W*(?:since|as|puisque|comme|como|ya que|da|weil|siccome|poiche|visto che|dato che)\s"
    r"[^,]{3,80},"
)
# Two parts of which the second is short: "Tips 30% on every ride. Well-off.", "…: vegan
# household.", "…; famille nombreuse.", "... - kommt aus der Schweiz."
_SHORT_TAIL = re.compile(
    r"(?:[.;:!?]|\s[\u2013\u2014-])\s+((?:[^\W\d_][\w'-]*\s*,?\s*){1,3})[.!]?\s*$", re.UNICODE
)

# A verb of saying that reports content (not asking, greeting or thanking) ...
_SAY = (
    r"(?:said|says|say|told|tells|mentioned|mentions|explained|explains|stated|states|confirmed"
    r"|confirms|wrote|writes|shared|informed|let us know|let me know|indicated|noted"
    r"|a dit|dit|disait|a explique|explique|a mentionne|mentionne|a precise|precise|a confirme"
    r"|confirme|a ecrit|ecrit|a raconte|raconte|a indique|indique|nous a dit|m'a dit"
    r"|dijo|dice|decia|conto|cuenta|nos conto|me conto|comento|comenta|explico|explica|menciono"
    r"|menciona|confirmo|confirma|escribio|escribe|indico|indica|aclaro|aclara"
    r"|sagte|sagt|hat gesagt|erzahlte|erzahlt|hat erzahlt|erwahnte|erwahnt|hat erwahnt|erklarte"
    r"|erklart|bestatigte|bestatigt|schrieb|schreibt|meinte|meint|berichtete|berichtet|gab an"
    r"|ha detto|dice|diceva|disse|ha raccontato|racconta|raccontato|ha spiegato|spiega"
    r"|ha menzionato|menziona|ha confermato|conferma|ha scritto|scrive|ha precisato|precisa"
    r"|ha indicato)"
)
_CLAUSE_START = (
    r"(?:that|:|que|qu'|dass|,\s*dass|che|ch'|he|she|they|i|we|his|her|their|il|elle|ils"
    r"|elles|sa|son|ses|on|el|ella|ellos|su|sus|er|sie|es|sein|seine|ihr|ihre|lui|lei|loro|suo|sua"
    r"|suoi)"
)
_SAY_WORD = re.compile(rf"\b{_SAY}\b")
# ... followed by a clause ("said that…", "said they have…", "a dit qu'elle…", "dijo que…",
# "hat uns erzählt, dass…", "ha detto che…"), with at most an object pronoun between.
_SAID_CLAUSE = re.compile(
    rf"\b{_SAY}\s*,?\s+(?:(?:us|me|the agent|the assistant|nous|me|m'|nos|me|le|uns|mir|dem agenten"
    rf"|ci|mi|ce)\s*)?,?\s*{_CLAUSE_START}(?:\b|\s|$)"
)
# The fact attributed to the user after it: "…, she said", "…, she said so", "selon ses propres
# mots", "d'après elle", "según él mismo", "in her own words", "nach eigenen Angaben", "a suo
# dire", "hat sie im Chat erwähnt", "elle l'a mentionné", "(user stated)".
_ATTRIBUTED = re.compile(
    r"(?:[,;(\u2013\u2014-]\s*|\s)(?:as\s+)?(?:he|she|they|the user|user|customer|il|elle|el"
    r"|ella|er|sie|lui|lei)\s+(?:said|says|told us|mentioned|explained|wrote|confirmed"
    r"|l'a dit|l'a mentionne|l'a precise|l'a ecrit|dit|lo dijo|lo menciono|dice|sagte|sagt"
    r"|hat (?:es )?(?:im chat )?(?:erwahnt|gesagt|erzahlt)|ha detto|lo ha detto|l'ha detto)\b"
    r"|\bhat (?:sie|er|es|uns) (?:(?:im|am|beim) \w+ )?(?:erwahnt|gesagt|erzahlt)\b"
    r"|\b(?:in (?:his|her|their) own words|(?:according to|per) (?:him|her|them|the user|user)"
    r"|(?:stated|confirmed|said) (?:in (?:the )?chat|explicitly|by (?:him|her|them|the user))"
    r"|self-reported|user-stated|stated by the user|as stated|selon (?:ses|leurs) propres mots"
    r"|selon (?:lui|elle)|d'apres (?:lui|elle)|de (?:son|sa) propre aveu|segun (?:el|ella)"
    r"|segun sus (?:propias )?palabras|en sus propias palabras|nach eigenen angaben"
    r"|nach (?:seinen|ihren) worten|laut eigener aussage|laut (?:ihm|ihr)|eigenen angaben"
    r"|a suo dire|a detta sua|secondo (?:lui|lei)|per sua ammissione|con parole sue)\b"
    r"|^\W*(?:told us|told me|says|said|states|nous a dit|nos dijo|nos conto|hat uns erzahlt"
    r"|ci ha detto)\s*:"
)
# The user's first person quoted: « J'emmène mes enfants… », "Hago surf todos los domingos".
_QUOTED = re.compile(
    r"[\"\u201c\u00ab\u201e]([^\"\u201d\u00bb\u201c]{6,200})[\"\u201d\u00bb\u201c]"
)
_FIRST_PERSON_WORDS = (
    "i i'm i've my me je j'ai j'emmene moi mon ma mes yo mi mis me ich mein meine mir mich io mio"
    " mia miei ho sono"
)
_FIRST_PERSON = frozenset(_FIRST_PERSON_WORDS.split())


def _quoted_first_person(text: str) -> bool:
    """The user's words quoted: a first person, or four words or more and a verb of saying
    ("\"Hago surf todos los domingos\", escribió en su perfil")."""
    for quoted in _QUOTED.findall(text):
        words = folded_tokens(fold(quoted))
        if len(words) >= 3 and (_FIRST_PERSON & set(words) or words[0].startswith("j'")):
            return True
        if len(words) >= 4 and _SAY_WORD.search(fold(_QUOTED.sub(" ", text))):
            return True
    return False


_EVIDENCE_CLASSES = frozenset({"habit", "weekday", "inference"})
# Classes of a consequence for the agent: an obligation, a wish, the agent's talk, a check.
_ACTION = frozenset(
    {"oblige", "pref", "pref_clause", "comm", "ask", "ask_first", "permit", "lift", "policy"}
    | {"you", "agent", "check", "system_obj"}
)
# A tail that opens on a prohibition: "no meat in suggestions", "pas d'appels", "keine Anrufe".
_PROHIBITION = re.compile(
    r"\W*(?:no|not|never|don't|do not|pas d|pas de|jamais|ni|sin|nada de|nunca|kein|keine|nie"
    r"|niente|nessun|nessuna|mai|non)\b"
)
_NUMBER = re.compile(r"\d")


def shape_classes(text: str) -> set[str]:
    """The shapes of one note (see the module's docstring)."""
    return _shapes(text)[0]


def _shapes(text: str) -> tuple[set[str], set[str]]:
    """The shapes of one note and its cue classes (:func:`.cues.cue_classes`)."""
    folded = fold(text)
    words = folded_tokens(folded)
    classes = cue_classes(folded, words)
    found: set[str] = set()
    arrow = _arrow_end(folded)
    if arrow is not None:
        found.add("arrow")
    if _CONSEQUENCE.search(folded):
        found.add("consequence")
    if _SOURCE_FIRST.search(folded):
        found.add("source_first")
    if _EVIDENCE_CLAUSE.search(folded):
        found.add("evidence_clause")
    if _SHORT_TAIL.search(folded) and len(words) > 4:
        found.add("short_tail")
    if _SAID_CLAUSE.search(folded) or _ATTRIBUTED.search(folded) or _quoted_first_person(text):
        found.add("stated")
    tail = _tail(folded, arrow)
    if tail is not None:
        # What follows the break: something for the agent to do ("…, so calls are best after
        # 2pm", "Vegetarian, so no meat in suggestions": a fact and its use, durable) or a
        # conclusion about the person ("… -> has a baby", "… Well-off.": a guess).
        tail_words = folded_tokens(tail)
        if cue_classes(tail, tail_words) & _ACTION or _PROHIBITION.match(tail):
            found.add("then_action")
        else:
            found.add("then_attr")
            if classes & _EVIDENCE_CLASSES or _NUMBER.search(folded):
                found.add("evidence_then")
    return found, classes


def _tail(folded: str, arrow: int | None) -> str | None:
    """The part after the first break of an arrow (``arrow``: where it ends), a connective of
    consequence or a short tail, or ``None``."""
    starts = [] if arrow is None else [arrow]
    if consequence := _CONSEQUENCE.search(folded):
        starts.append(consequence.end())
    if short := _SHORT_TAIL.search(folded):
        starts.append(short.start(1))
    return folded[min(starts) :].strip() if starts else None


def shape_features(text: str) -> frozenset[str]:
    """``sh:`` per shape and ``shx:`` per shape and cue class of the note."""
    shapes, classes = _shapes(text)
    out = {f"sh:{name}" for name in shapes}
    out.update(f"shx:{shape}+{name}" for shape in shapes for name in classes)
    return frozenset(out)


_PROBES = (
    "Buys nappies every week -> has a baby.",
    "Tips 30% on every ride. Well-off.",
    "Vu le montant des pourboires, client aisé; donc généreux.",
    "Da er nur nachts antwortet, Schichtarbeiter.",
    "Dijo que corre tres veces por semana.",
    "« J'emmène mes enfants à l'école tous les matins. »",
    "Travaille de nuit, selon ses propres mots.",
    "Works night shifts, so calls are best after 2pm.",
)


def shapes_fingerprint() -> str:
    """What :func:`shape_features` makes of fixed probes, hashed (see
    :func:`.features.fingerprint`)."""
    digest = hashlib.sha256()
    for probe in _PROBES:
        digest.update("\x1f".join(sorted(shape_features(probe))).encode("utf-8") + b"\x1e")
    return digest.hexdigest()[:16]
