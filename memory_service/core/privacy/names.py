"""People's names found by structure, in the five languages the service claims.

Two shapes name a person whatever the NER model says:

- **a cue, then a name**: an honorific ("Mrs. Alvarez", "Herr Müller", "Mme Dupont",
  "la señora Beltrán", "il signor Brambilla"), a relationship or role word ("my neighbour
  Jane", "daughter Emma", "su hermana Lucía", "Ihr Sohn Malte"), a naming verb ("s'appelle",
  "heißt", "si chiama", "a nombre de") or a label ("Contact:", "Ansprechpartner:"). After a
  cue the name may be in lower case ("my neighbour priya") when it is a known first name;
- **a known first name, then a capitalised word** ("Edvard Petrussen", "Ágnes Földesy"),
  with the first names of many countries from a names dictionary the adapter hands in.

A German noun is capitalised, so a capitalised word alone never counts here: it needs a cue
or a known first name before it. What a pair that looks like a name still is instead (a
brand, a work, a street named after someone) is :mod:`memory_service.core.privacy.brands`'s
call. Matching is on the original text (spans are offsets into it), case-sensitive for the
name and case-insensitive for the cue.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Container, Iterator
from dataclasses import dataclass
from enum import Enum

from memory_service.core.privacy.name_lookalikes import thing_named_before

# Words: letters with inner apostrophes or hyphens ("O'Brien", "Jean-Baptiste").
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
# Surname particles between a given name and the surname ("Merijn de Smit", "Ludwig van
# Beethoven", "Anna von Stein", "Carlos de la Fuente"), skipped when pairing.
_PARTICLE = re.compile(r"van|von|de|der|den|del|della|di|da|dos|das|du|la|le|ten|ter|zu|y")
_NAME_GAP = re.compile(
    r"[ \u00a0](?:(?:van|von|de|der|den|del|della|di|da|dos|das|du|la|le"
    r"|ten|ter|zu|y)[ \u00a0])*"
)

HONORIFICS = (
    # EN
    r"mr|mrs|ms|miss|mx|dr|prof|sir|dame|lady|lord",
    # FR
    r"m|mme|mlle|monsieur|madame|mademoiselle|ma[iî]tre|docteur|pr",
    # a family by its surname: "Fam. Weber", "Familie Schneider", "famiglia Esposito"
    r"fam|familie|famille|familia|famiglia",
    # ES
    r"sr|sra|srta|señor|señora|señorita|senor|senora|senorita|doña|dona|doctor|doctora",
    # DE
    r"herr|herrn|frau|hr|fr",
    # IT
    r"sig|sig\.ra|sigra|signor|signora|signorina|dott|dott\.ssa|dottor|dottore|dottoressa"
    r"|avv|avvocato|ing|ingegnere",
)
RELATIONS = (
    # EN
    r"wife|husband|partner|spouse|fianc[ée]e?|girlfriend|boyfriend|son|daughter|child|kid|baby"
    r"|mother|mum|mom|father|dad|brother|sister|sibling|uncle|aunt|cousin|nephew|niece"
    r"|grandson|granddaughter|grandmother|grandma|grandfather|grandpa|stepson|stepdaughter"
    r"|neighbou?r|friend|colleague|coworker|co-worker|boss|manager|assistant|landlord|landlady"
    r"|tenant|roommate|flatmate|housemate|nanny|caregiver|carer|doctor|dentist|nurse|lawyer"
    r"|attorney|accountant|notary|therapist|beneficiary|guardian|(?:brother|sister|mother"
    r"|father|son|daughter)-in-law|stepmother|stepfather|godmother|godfather|godson"
    r"|goddaughter|plumber|cleaner|babysitter|driver|tutor|coach|trainer|physio|family"
    r"|classmate|teammate|bandmate|workmate|schoolmate|buddy|bestie|mate|pal|auntie|aunty|granny",
    # FR
    r"mari|femme|[ée]poux|[ée]pouse|conjointe?|compagnon|compagne|fils|fille|enfant|b[ée]b[ée]"
    r"|m[èe]re|maman|p[èe]re|papa|fr[èe]re|s(?:œ|oe)ur|oncle|tante|cousine?|neveu|ni[èe]ce"
    r"|petit-fils|petite-fille|grand-m[èe]re|grand-p[èe]re|voisine?|amie?|copain|copine"
    r"|coll[èe]gue|patronne?|cheffe?|responsable|assistante?|propri[ée]taire|locataire"
    r"|m[ée]decin|dentiste|infirmi[èe]re?|avocate?|comptable|notaire|b[ée]n[ée]ficiaire"
    r"|beau-fr[èe]re|belle-s(?:œ|oe)ur|belle-m[èe]re|beau-p[èe]re|gendre|belle-fille|parrain"
    r"|marraine|filleule?|nounou|kin[ée]|plombier|femme de m[ée]nage|chauffeur|famille"
    r"|camarade|coloc(?:ataire)?|co[ée]quipi[eè]re?",
    # ES
    r"marido|esposo|esposa|mujer|pareja|novio|novia|hijo|hija|niño|niña|madre|mam[áa]|padre"
    r"|pap[áa]|hermano|hermana|t[íi]o|t[íi]a|primo|prima|sobrino|sobrina|nieto|nieta|abuelo"
    r"|abuela|vecino|vecina|amigo|amiga|colega|compañero|compañera|jefe|jefa|asistente"
    r"|casero|casera|m[ée]dico|m[ée]dica|abogado|abogada|contable|gestor|gestora|beneficiario"
    r"|beneficiaria|cuñado|cuñada|cunado|cunada|suegro|suegra|yerno|nuera|padrino|madrina"
    r"|ahijado|ahijada|canguro|fontanero|asistenta|chófer|chofer|entrenador|entrenadora"
    r"|familia|compañer[oa] de (?:piso|clase|equipo|trabajo|cuarto)",
    # DE
    r"mann|ehemann|ehefrau|gattin|gatte|partnerin|verlobter?|freundin|freund|sohn|tochter"
    r"|kind|mutter|mama|vater|papa|bruder|schwester|onkel|tante|cousine?|neffe|nichte|enkel"
    r"|enkelin|oma|opa|gro(?:ß|ss)mutter|gro(?:ß|ss)vater|nachbarin|nachbar|kollegin|kollege"
    r"|chefin|chef|vermieterin|vermieter|[äa]rztin|arzt|anw[äa]ltin|anwalt|steuerberater(?:in)?"
    r"|betreuerin|betreuer|schwager|schw[äa]gerin|schwiegermutter|schwiegervater"
    r"|schwiegersohn|schwiegertochter|pate|patin|patenkind|babysitter(?:in)?|putzhilfe"
    r"|fahrer(?:in)?|trainer(?:in)?|nachhilfelehrer(?:in)?|familie"
    # German compounds and the dative: "Teamkollegen", "Mitbewohnerin", "Schulfreund"
    r"|[a-zäöüß]*(?:kolleg(?:e|en|in)|freund(?:in)?|bewohner(?:in)?|sch[üu]ler(?:in)?"
    r"|kamerad(?:in)?|nachbarn)",
    # IT
    r"marito|moglie|compagno|compagna|fidanzato|fidanzata|figlio|figlia|bambino|bambina|madre"
    r"|mamma|padre|pap[àa]|fratello|sorella|zio|zia|cugino|cugina|nipote|nonno|nonna|vicino"
    r"|vicina|amico|amica|collega|capo|responsabile|assistente|padrone di casa|medico|dentista"
    r"|avvocato|avvocata|commercialista|notaio|beneficiario|beneficiaria|cognato|cognata"
    r"|suocero|suocera|genero|nuora|padrino|madrina|figlioccio|figlioccia|babysitter|badante"
    r"|idraulico|colf|autista|allenatore|allenatrice|famiglia|coinquilin[oa]"
    r"|compagn[oa] di (?:classe|squadra|stanza|banco)",
)
NAMING = (
    r"my name is|name is|named|called|his name is|her name is|goes by|known as"
    r"|in the name of|under the name(?: of)?|addressed to|to the attention of|attn\.?"
    # a booking under a name: "sous le nom (de)", "bajo el nombre (de)", "unter dem Namen",
    # "sotto il nome (di)"
    r"|sous le nom(?: de)?|bajo el nombre(?: de)?|unter dem namen|sotto il nome(?: di)?"
    # under a relative's or a role's name, then its comma: "under his brother-in-law's name,
    # marcus lindqvist"
    r"|under (?:(?:my|his|her|their|our|the)\s+)?[\w-]+['\u2019]s\s+name,?"
    r"|je m'appelle|s'appelle|appel[ée]e?|nomm[ée]e?|pr[ée]nomm[ée]e?|au nom de|à l'attention de"
    r"|me llamo|se llama|llamad[oa]|a nombre de|a la atención de"
    r"|ich hei(?:ß|ss)e|hei(?:ß|ss)t|namens|genannt|auf den namen|zu h[äa]nden(?: von)?"
    r"|mi chiamo|si chiama|chiamat[oa]|di nome|a nome di|intestat[oa] a|all'attenzione di",
)
# Closed-class words of the five languages (pronouns, auxiliaries, modals, articles,
# prepositions, conjunctions, the adverbs "now", "here", "then") that the names dictionary
# also holds as someone's first name ("will", "may", "an", "can", "sale", Italian "ora"):
# never a name in lower case after a cue, nor a surname.
_FUNCTION_WORDS_TEXT = """
a an and are as at be but by can could did do does for from had has have he her him his
i if in is it its may me might must my no nor not of on or our shall she should so than
that the their them then there they this to up us was we were what when which who will
with would you your also just only still very well
au aux avec ce ces dans de des du elle elles en est et eux il ils je la le les leur lui
ma mais me mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur
ta te tes toi ton tu un une vos votre vous
al como con del el ella ellas ellos en es esta este los las lo mas mi mis muy nos para
pero por que se sin sobre su sus tu un una uno y ya
aber als am an auch auf aus bei bin bis das dass dem den der des die doch du ein eine
einem einen einer er es hat ich ihm ihn ihr im in ist ja kann man mit nach nicht noch
nur oder sehr sein sie sind so um und uns von vor war was wer wie wir wird zu zum zur
ai alla alle anche che chi ci come con da dal dalla dei del della di e gli ha ho il in io
la le lei lo loro lui ma mi ne nel nella no non per piu qui se si sono su sua suo ti tra
tu un una uno vi
now here maintenant ici alors ahora aqui luego jetzt hier dann ora allora poi
never always jamais toujours nunca siempre nie immer mai sempre
one two three four five six deux trois quatre cinq dos tres cuatro cinco zwei drei vier
fünf due tre quattro cinque
has does goes makes takes fait va prend tiene hace va toma hat macht geht nimmt fa va prende
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())

LABELS = (
    r"name|full name|user|customer|client|contact|contact person|contact name|point of contact"
    r"|person|beneficiary|recipient|account holder|holder|owner|signatory|attendee|employee"
    r"|cardholder|guest|passenger|patient|emergency contact|next of kin"
    r"|nom|nom complet|utilisateur|utilisatrice|destinataire|titulaire|passager|patiente?"
    r"|nombre|usuario|usuaria|destinatario|titular|pasajero|paciente|contacto"
    r"|kontakt|ansprechpartner(?:in)?|empf[äa]nger(?:in)?|inhaber(?:in)?|kunde|kundin|gast"
    r"|nome|utente|destinatario|intestatario|referente|contatto|ospite|passeggero",
)

_POSSESSIVES = (
    # "the user's son", "User's son", "Client's daughter": a note's subject in the possessive
    r"my|his|her|their|our|your"
    r"|(?:the\s+)?(?:user|customer|client|caller|member|guest|patient|tenant|student)['\u2019]s"
    r"|mon|ma|mes|son|sa|ses|leur|notre"
    r"|votre|mi|mis|su|sus|nuestro|nuestra|tu|mein|meine|meinem|meinen|meiner|sein|seine"
    r"|seinem|seinen|seiner|ihr|ihre|ihrem|ihren|ihrer|unser|unsere|mio|mia|suo|sua|nostro"
    r"|nostra|il|la|lo|le|el|der|die|den|dem"
    # German nouns are capitalised: a preposition before one says it is not a title
    # ("bei Familie Wendtland", "mit Kollege Brandt")
    r"|bei|beim|mit|von|vom|an|f[üu]r|zu|zum|zur"
)


def _alternation(groups: tuple[str, ...]) -> str:
    return "|".join(f"(?:{group})" for group in groups)


# Where a neighbour lives from the user: "next door", "d'à côté", "von gegenüber", "del
# tercero", "di sopra".
_NEXT_DOOR = (
    r"(?i:next\s+door|across\s+the\s+(?:road|street|hall|landing)|upstairs|downstairs"
    r"|opposite|d['\u2019]\s?[àa]\s+c[ôo]t[ée]|d['\u2019]en\s+face|du\s+dessus|du\s+dessous"
    r"|du\s+(?:premier|deuxi[èe]me|troisi[èe]me|quatri[èe]me|cinqui[èe]me|rez)"
    r"|von\s+(?:gegen[üu]ber|nebenan|oben|unten)|nebenan|gegen[üu]ber"
    r"|del\s+(?:primero|segundo|tercero|cuarto|quinto|bajo|[áa]tico|piso)|de\s+al\s+lado"
    r"|de\s+enfrente|de\s+arriba|de\s+abajo|del\s+piano|di\s+sopra|di\s+sotto"
    r"|della\s+porta\s+accanto|accanto|di\s+fronte"
    r"|del\s+(?:primo|secondo|terzo|quarto|quinto)\s+piano)(?![\w'])"
)
# How close or how old a relation is, between a possessive and the relationship word: "his
# old mate", "my best friend", "her late husband", "my little brother".
_CLOSE_ADJECTIVES = (
    r"(?i:old|oldest|best|dear|dearest|close|good|new|former|ex|late|little|big|younger|older"
    r"|elder|twin|childhood)"
)
# An honorific with its optional dot; a relationship word with an optional possessive before
# it and a comma, "is", "named"... after it; a naming verb; a label and its colon.
_HONORIFIC = re.compile(rf"(?<![\w.])(?:{_alternation(HONORIFICS)})\.?\s+$", re.IGNORECASE)
_RELATION = re.compile(
    # an elided article's apostrophe ("l'ami") is no quote; a quote after a space is
    # ("calls her 'Nonna Pina'")
    rf"(?<!\w)(?<!\w')(?:(?P<possessive>{_POSSESSIVES})\s+(?:{_CLOSE_ADJECTIVES}\s+)?)?"
    rf"(?P<cue>{_alternation(RELATIONS)})"
    # where a neighbour lives, between the word and the name: "Le voisin du dessous,
    # jean-baptiste, a les clés", "the neighbour across the hall, Priya"
    rf"(?:\s+{_NEXT_DOOR})?"
    r"(?:\s*,|\s+(?:is|est|es|ist|[èe]|se llama|s'appelle|hei(?:ß|ss)t|si chiama|named|called))?"
    r"\s+$",
    re.IGNORECASE,
)
_NAMING = re.compile(rf"(?<![\w'])(?:{_alternation(NAMING)})\s*:?\s+$", re.IGNORECASE)
# A title that only ever stands before a person's name, so that a surname typed in lower case
# after it is one ("her brother, mr okonkwo", "madame lefebvre-morin", "frau dr. haberl", "il
# signor esposito"). Not "ms" (ms word), "m" (metres), "hr"/"fr"/"pr" (departments).
# The title itself in lower case, as the whole name is: a capitalised "Frau", "Madame" is also
# a noun ("seiner Frau", "Madame souhaite..."), "prof" a teacher.
_LOWER_CASE_TITLE = re.compile(
    r"(?<![\w.])(?:mr|mrs|miss|dr|madame|monsieur|mme|mlle|frau|herrn?|signora?|sig|sig\.ra"
    r"|señora?|senora?|dott|dottoressa|doctora?)\.?\s+$"
)
# A title as the word itself ("Frau Dr."): never the name after a cue.
# How someone is, in a CRM's shorthand after the role word ("tenant ok", "cust happy",
# "locataire dispo"): a state in lower case, not a name typed in lower case. Not the states
# that are also given names ("ravi": "a colleague called ravi").
_STATE_WORDS_TEXT = """
ok okay fine happy unhappy keen ready available unavailable flexible busy away sick ill
satisfied dispo disponible content contente absent absente malade contento contenta
disponibile pronto pronta listo lista enfermo enferma zufrieden bereit verfugbar
einverstanden krank
"""
_STATE_WORDS = frozenset(_STATE_WORDS_TEXT.split())
# "name is" and its translations: a lower-case word after it is a name, not a state.
_NAME_IS = re.compile(
    r"(?<![\w'])(?i:name|nom|pr[ée]nom|nombre|nome|vorname)\s+(?:is|est|es|ist|[èe])\s+$"
)
# A relationship word, a one-word complement, and the comma opening an apposition: "User's
# husband, kwame,", "Le chef de projet, thomas,".
_APPOSITION_BEFORE = re.compile(
    rf"(?<![\w'])(?P<cue>{_alternation(RELATIONS)})"
    r"(?:\s+(?:de|du|of|di|del|della|von|vom)\s+[^\W\d_]+)?\s*,\s*$",
    re.IGNORECASE,
)
# First-person verbs said in parentheses ("Su hija, creo, empezará", "Sua figlia, credo,").
_PARENTHETICAL_TEXT = """
creo digo pienso supongo parece credo penso direi sembra glaube meine denke guess think
suppose crois pense dirais
"""
_PARENTHETICAL = frozenset(_PARENTHETICAL_TEXT.split())
# Adverbs and discourse words by their ending ("however", "obviously", "évidemment",
# "claramente", "natürlich"): never a name in an apposition.
_ADVERB_SHAPE = re.compile(r"(?:ly|ment|mente|erweise|lich|ever|though|too|also)$")
_RELATION_WORD = re.compile(_alternation(RELATIONS), re.IGNORECASE)
# A cleric's title before a given name: "don Paolo", "abbé Pierre", "Pfarrer Huber".
# "Don" capitalised also opens a title ("Don Camillo", "Don Giovanni", "Don Simón"): only in
# lower case.
_CLERIC = re.compile(
    r"(?<![\w.])(?:don|do[ñn]a|dom|abb[ée]|suor|(?i:pfarrer(?:in)?|pastor(?:in)?|rev|reverend"
    r"|suor|abb[ée]))\.?\s+$"
)
_HONORIFIC_WORD = re.compile(rf"(?:{_alternation(HONORIFICS)})\.?", re.IGNORECASE)
# A title of two letters or more in capitals ("MX Keys", "DR Congo"): a model or a code.
# after a capitalised word inside a sentence ("Uses a Logitech MX Keys"), not at its start
# ("Called MRS Smith").
_MODEL_PREFIX = re.compile(
    r"(?<=[^\W\d_])[ \u00a0][A-ZÀ-ÖØ-Þ][^\W\d_]*[ \u00a0](?-i:[A-Z]{2,3})\.?\s+$"
)
_RELATION_OF = re.compile(
    rf"(?<![\w'])(?:{_alternation(RELATIONS)})\s+(?:de|di|von|of|van)\s+$", re.IGNORECASE
)
# A short complement between a label and its verb: "contacto en la gestoría es", "the contact
# at the bank is", "referente del progetto è": a preposition and up to three words.
_COMPLEMENT = (
    r"(?:at|in|for|of|on|from|en|de|del|de la|du|des|chez|pour|im|in der|bei|von|vom|f[üu]r"
    r"|der|al|alla|del|della|dello|di|presso|per)(?:\s+[^\s.,;:!?]+){1,3}?"
)
_LABEL = re.compile(
    rf"(?:(?:^|[\n;(,.])\s*(?:{_alternation(LABELS)})\s*:"
    rf"|(?<![\w'])(?:{_alternation(LABELS)})(?:\s+{_COMPLEMENT})?"
    r"\s+(?:is|was|est|es|ist|[èe]|heißt|heisst))\s*$",
    re.IGNORECASE,
)


# A label and its verb: after it a lower-case word describes ("user is fine"); a name
# would be capitalised.
_LABEL_IS = re.compile(
    rf"(?<![\w'])(?:{_alternation(LABELS)})\s+(?:is|was|est|es|ist|[èe])\s+$", re.IGNORECASE
)
_FAMILY_AFTER = re.compile(
    r"(?i:\bthe)\s+(?P<name>[A-ZÀ-ÖØ-Þ][\w'\u2019-]+)\s+(?i:family|household|twins|kids)\b"
)
# A family by its surname and where it lives from the user: a plural article, one capitalised
# word, then a neighbour's place ("The Hoffmanns next door", "Les Lefèvre d'à côté", "Die
# Müllers von gegenüber", "Los García del tercero", "I Bianchi del piano di sopra").
_FAMILY_NEXT_DOOR = re.compile(
    r"(?<![\w'])(?i:the|les|die|los|las|i|gli)\s+(?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]+)\s+"
    + _NEXT_DOOR
)
# A label of up to four words at a line's or a sentence's start, its colon or dash, then a
# lower-case given name, particles and a lower-case surname that end the value.
_LABELLED_LOWER_CASE = re.compile(
    r"(?:^|(?<=[\n;.!?]))\s*(?:[^\W\d_][\w'\u2019-]*\s+){0,3}[^\W\d_][\w'\u2019-]*"
    r"\s*[:\u2013\u2014]\s*"
    r"(?P<given>[a-zß-ÿ][a-zß-ÿ'\u2019-]+)(?:\s+(?P<middle>[a-zß-ÿ][a-zß-ÿ'\u2019-]+))??"
    # particles, not a lone article ("aime la randonnée" is a verb and its object)
    r"(?:\s+(?:van|von|de|der|den|del|della|di|da|dos|das|ten|ter|zu|bin|ben)"
    r"(?:\s+(?:la|las|los|le|der|den))?)*"
    r"\s+(?P<surname>[a-zß-ÿ][a-zß-ÿ'\u2019-]+)"
    r"(?=\s*(?:$|[,.;:)(\u2013\u2014]|\s-\s))"
)
# The note says the value before it was typed in lower case: "son is jack (lower case in the
# chat)", "Pone marta garcía, en minúsculas": one or two lower-case words right before are
# the name, whatever the verb before them.
_SAID_LOWER_CASE = re.compile(
    r"(?P<given>[a-zß-ÿ][a-zß-ÿ'\u2019-]+)(?:\s+(?P<surname>[a-zß-ÿ][a-zß-ÿ'\u2019-]+))?"
    r"\s*[,(\u2013\u2014]\s*(?:(?i:in|en|all|tout|todo|tutto|ganz|typed|written|écrit|escrito"
    r"|scritto|geschrieben)\s+)?(?i:lower[- ]?case|lowercase|minuscules?|min[úu]sculas?"
    r"|minuscol[oae]|kleinbuchstaben|kleingeschrieben|klein geschrieben)(?![\w-])"
)
# A name's part by its label, without a colon: "Nachname Huber", "surname Okafor", "apellido
# Ortega", "cognome Bianchi", "prénom Chloé": the value after it is a name. Not a bare "nom"
# or "name" (French "nom du fichier", "name tag"): those need a colon (LABELS).
_NAME_PART_LABEL = re.compile(
    r"(?<![\w'])(?i:surname|last\s+name|family\s+name|first\s+name|given\s+name|forename"
    r"|maiden\s+name|nachnamen?|vornamen?|familiennamen?|rufnamen?|apellidos?|nom\s+de\s+famille"
    r"|nom\s+de\s+jeune\s+fille|pr[ée]noms?|cognome|nome\s+di\s+battesimo)"
    r"\s*(?:[:=]\s*|(?:is|was|est|es|ist|[èe])\s+)?$"
)
# A word spelled out letter by letter ("s-t-e-f-a-n", "M. A. R. T. A"): after a name's label
# it is the name.
_SPELLED = re.compile(r"(?<![\w-])[^\W\d_](?:\s?[-.]\s?[^\W\d_]){2,}(?![\w-])")
# Letters apart with single spaces ("k e v i n") after a spelling word, a relationship word
# within the clause before it: "User's husband, written k e v i n in their notes".
_SPACED_LETTERS = re.compile(r"(?<![\w-])[^\W\d_](?: [^\W\d_]){2,}(?![\w-])")
_SPELLING_WORD = re.compile(
    r"(?i:written|spelled|spelt|spelling|typed|buchstabiert|geschrieben|[ée]crit|[ée]pel[ée]"
    r"|escrito|deletreado|scritto|compitato)(?:\s+(?:as|comme|como|come|als))?\s*:?\s+$"
)
# A tagging or signing verb, then one capitalised word alone in quotes: "tagged 'Noah'",
# "labelled "Emma"", "signé « Chloé »", "etiquetado 'Lucía'", "markiert „Jonas“".
_QUOTED_TAG = re.compile(
    r"(?<![\w'])(?i:tagged|tags?|labell?ed|labels?|signed|signs?(?:\s+off)?|[ée]tiquet[ée]e?s?"
    r"|sign[ée]e?s?|etiquetad[oa]s?|firmad[oa]s?|markiert|getaggt|beschriftet|unterschrieben"
    r"|etichettat[oa]|firmat[oa])"
    r"(?:\s+(?i:with|as|comme|como|come|als|avec|con|mit))?\s*:?\s*[\'\"\u2018\u201c\u00ab\u201e]\s*"
    r"(?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_]+)\s*[\'\"\u2019\u201d\u00bb\u201c]"
)
# A nickname and its full form in parentheses, or the other way round: "Pina (Giuseppina)",
# "Robert (Bob)". Two known given names so joined are one person's.
_NICKNAME_FULL = re.compile(
    r"(?<![\w'-])(?P<nick>(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]+)\s*\(\s*"
    r"(?P<full>(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]+)\s*\)"
)
# A note's first word that is a French or Spanish possessive as well as a kinship or person
# word ("Son chien s'appelle Filou", "Femme de ménage le mardi"): a lower-case word after it
# is a noun, not a name.
_AMBIGUOUS_START = re.compile(r"(?:^|[.!?;:\n]\s*)(?:Son|Mann|Kind|Mujer|Femme)\s+$")
_SHOP_PREPOSITION = re.compile(r"(?<![\w'])(?i:at|in|from|into|to)\s+$")
_INITIALS_END = re.compile(r"(?:(?<=\s)[A-Z]\.\s*)+$")

# A relationship word in apposition right after a name (and the rest of it): "Fan de Julie
# Martin, sa voisine", "the films of Lucía Gómez, su prima", "Anna Meyer (my neighbour)".
# Whatever the context before says (a reading verb, a fan), the name is a person's.
_RELATION_AFTER = re.compile(
    r"(?:[ \u00a0](?:(?:van|von|de|der|den|del|della|di|da|du|la|le)[ \u00a0])?"
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*)*"
    r"\s*[,(\u2013\u2014-]\s*(?:(?:" + _POSSESSIVES + r"|an?|une?|una?|ein|eine)\s+)?"
    rf"(?:{_alternation(RELATIONS)})(?![\w-])",
    re.IGNORECASE,
)


# Words before an apposition that are no one: an interjection that addresses someone ("Thanks,
# my friend,"), a weekday ("Monday, my boss, is off").
_INTERJECTIONS_TEXT = """
thanks thank sorry cheers hello hi hey yes no well please ok okay merci gracias danke grazie
pardon perdon monday tuesday wednesday thursday friday saturday sunday lundi mardi mercredi
jeudi vendredi samedi dimanche lunes martes miercoles jueves viernes sabado domingo montag
dienstag mittwoch donnerstag freitag samstag sonntag lunedi martedi mercoledi giovedi venerdi
sabato
"""
_INTERJECTIONS = frozenset(_INTERJECTIONS_TEXT.split())
# A name, then a relationship word in apposition, closed by a comma, a parenthesis or the
# sentence's end: "Kofi, a colleague, covers the shifts", "Ines (my neighbour) waters".
_ROLE_APPOSITION = re.compile(
    r"(?<![\w'\u2019-])(?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_]+(?:['\u2019-][^\W\d_]+)*"
    r"(?:[ \u00a0](?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_]+(?:['\u2019-][^\W\d_]+)*)?)"
    r"\s*[,(]\s*(?:(?:" + _POSSESSIVES + r"|an?|une?|una?|ein|eine)\s+)?"
    rf"(?:{_CLOSE_ADJECTIVES}\s+)?(?:{_alternation(RELATIONS)})\s*(?:[,);]|\.(?:\s|$))",
    re.IGNORECASE,
)


def relation_after(text: str, end: int) -> bool:
    """Whether a relationship word stands in apposition after the name ending at ``end``."""
    return _RELATION_AFTER.match(text, end) is not None


def person_cue_before(before: str) -> bool:
    """Whether an honorific, a relationship word, a naming verb or a label ends ``before``
    (any strength: the finder's own reading is :meth:`NameFinder.after_cues`)."""
    tail = _INITIALS_END.sub("", before)[-60:]
    return any(cue.search(tail) for cue in (_HONORIFIC, _NAMING, _LABEL, _RELATION))


def kin_before(before: str) -> bool:
    """Whether a kinship word, with or without a possessive, ends ``before`` ("Daughter ", "my
    son "): the capitalised word after it is a relative, even when a noun of works follows
    ("Daughter Emma plays football": "plays" is her verb, not a theatre's plays)."""
    relation = _RELATION.search(_INITIALS_END.sub("", before)[-60:])
    if relation is None:
        return False
    cue = relation["cue"]
    return _KINSHIP.fullmatch(cue) is not None or _AMBIGUOUS_KIN.fullmatch(cue) is not None


def kin_title_before(before: str) -> bool:
    """Whether a kinship word said as a title of address inside a sentence ends ``before``
    ("with Aunt ", "'Nonna "): the name after it may still be a work's or a brand's when a
    product noun follows ("loved Uncle Scrooge comics")."""
    tail = _INITIALS_END.sub("", before)[-60:]
    relation = _RELATION.search(tail)
    if relation is None:
        return False
    head = tail[: relation.start("cue")].rstrip()
    # at a sentence's start the kinship word is capitalised anyway: "Cousin Rangi plays"
    return (
        bool(head)
        and head[-1] not in ".!?:;\n"
        and relation["cue"][:1].isupper()
        and not relation["cue"].isupper()
        and _KIN_TITLE.fullmatch(relation["cue"]) is not None
    )


def honorific_before(before: str) -> bool:
    """Whether an honorific ends ``before`` ("Dr. ", "Mrs ", "Herr ")."""
    return _HONORIFIC.search(before[-12:]) is not None


class _Cue(Enum):
    NONE = 0
    KNOWN_NAMES = 1  # only a first name of the dictionary may follow
    ANY_NAME = 2  # any capitalised word that is not a common word, or a known first name


@dataclass(frozen=True)
class NameSpan:
    """Where a name is, in the text the caller passed. ``cue`` says a cue introduced it:
    such a span is a person whatever it looks like; a first-name pair may still be a brand."""

    start: int
    end: int
    cue: bool


def fold(word: str) -> str:
    """Lower case without accents, as the names dictionary and the stop words are kept."""
    decomposed = unicodedata.normalize("NFKD", word.replace("\u2019", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def is_capitalised(word: str) -> bool:
    """'Margaret', "O'Brien", 'Jean-Baptiste', 'Ágnes'; not 'GPT', 'iPhone' or 'Slack2'."""
    return len(word) > 1 and word[0].isupper() and any(ch.islower() for ch in word[1:3])


def is_caseless(word: str) -> bool:
    """A word of a script without capitals ("田中", "أحمد", "प्रिया", "王伟", a Hebrew name): no
    capital can say it is a name, so only its cue does."""
    return any(ch.isalpha() for ch in word) and not any(ch.isupper() or ch.islower() for ch in word)


class NameFinder:
    """Finds names by cue and by first-name pair. Build once: the word sets are large.

    ``first_names`` holds folded, lower-case first names; ``common_words`` folded words that
    are never a name after a cue or as a surname (stop words, months, weekdays).
    ``rare_first_names`` are the dictionary's rarest entries, many of them words of some
    language ("Tiene", a Spanish verb, is a first name somewhere): a capital at the start of
    a sentence is no evidence, so a sentence's first word counts only when it is not rare.
    """

    def __init__(
        self,
        *,
        first_names: Container[str],
        common_words: Container[str],
        rare_first_names: Container[str] = frozenset(),
    ) -> None:
        self._first_names = first_names
        self._common = common_words
        self._rare = rare_first_names

    def find(self, text: str) -> list[NameSpan]:
        return [
            *self.after_cues(text),
            *self.first_name_pairs(text),
            *self.families(text),
            *self.labelled_lower_case(text),
            *self.said_lower_case(text),
            *self.spelled_after_label(text),
            *self.spelled_after_relation(text),
            *self.nickname_and_full(text),
            *self.quoted_tags(text),
            *caseless_in_company(text),
            *self.named_before_role(text),
            *self.lower_case_after_relation(text),
        ]

    def lower_case_after_relation(self, text: str) -> Iterator[NameSpan]:
        """Lower-case words no dictionary knows, between a relationship word and the verb they
        are the subject of: "His roommate nguyen thi thu collects his parcels", "His partner
        ngozi picks up the bike"; or one such word after a kinship title in lower case, before
        a preposition or the clause's end: "the neighbour aunty bisi in flat 2". Adverbs,
        common words and states between are no name ("His partner usually picks up")."""
        for match in _LOWER_RUN_THEN_VERB.finditer(text):
            words = match["run"].split()
            if all(self._lower_name_word(word) for word in words):
                yield NameSpan(match.start("run"), match.end("run"), cue=True)
        for match in _KIN_TITLE_THEN_LOWER.finditer(text):
            if self._lower_name_word(match["name"]):
                yield NameSpan(match.start("name"), match.end("name"), cue=True)

    def _lower_name_word(self, word: str) -> bool:
        folded = fold(word)
        return (
            len(folded) > 1
            and folded not in self._common
            and folded not in _STATE_WORDS
            and folded not in _FREQUENCY_WORDS
            and _ADVERB_SHAPE.search(folded) is None
            and _RELATION_WORD.fullmatch(folded) is None
        )

    def named_before_role(self, text: str) -> Iterator[NameSpan]:
        """A capitalised word set off by a relationship word in apposition after it, the
        apposition closed: "Kofi, a colleague, covers...", "Ines (my neighbour) waters",
        "Jana, his sister." Any word that is not a common word or an adverb: the role says
        it is someone."""
        for match in _ROLE_APPOSITION.finditer(text):
            words = [fold(word) for word in _WORD.findall(match["name"])]
            if any(
                word in self._common
                or word in _STATE_WORDS
                or word in _INTERJECTIONS
                or _ADVERB_SHAPE.search(word)
                for word in words
            ):
                continue
            yield NameSpan(match.start("name"), match.end("name"), cue=True)

    def said_lower_case(self, text: str) -> Iterator[NameSpan]:
        """A known given name (and a surname) the note says was typed in lower case."""
        for match in _SAID_LOWER_CASE.finditer(text):
            given = fold(match["given"])
            surname = match["surname"]
            if surname is not None and (
                given not in self._first_names or given in self._common or given in self._rare
            ):
                # "Pone marta garcía": the last two words; the given name may be the second
                given, surname = fold(surname), None
                start = match.start("surname")
            else:
                start = match.start("given")
            if given in self._first_names and given not in self._common and len(given) > 2:
                end = match.end("surname") if surname is not None else match.end("given")
                if surname is not None and fold(surname) in self._common:
                    end = match.end("given")
                yield NameSpan(start, end, cue=True)

    def spelled_after_label(self, text: str) -> Iterator[NameSpan]:
        """A word spelled letter by letter after a name's label ("Vornamen s-t-e-f-a-n")."""
        for match in _SPELLED.finditer(text):
            if _NAME_PART_LABEL.search(text[max(0, match.start() - 40) : match.start()]):
                yield NameSpan(match.start(), match.end(), cue=True)

    def spelled_after_relation(self, text: str) -> Iterator[NameSpan]:
        """Letters apart after a spelling word, a relationship word before it ("husband,
        written k e v i n")."""
        for match in _SPACED_LETTERS.finditer(text):
            before = text[max(0, match.start() - 60) : match.start()]
            spelling = _SPELLING_WORD.search(before)
            if spelling is None:
                continue
            head = before[: spelling.start()]
            if re.search(rf"(?<![\w'])(?:{_alternation(RELATIONS)})(?![\w-])", head, re.IGNORECASE):
                yield NameSpan(match.start(), match.end(), cue=True)

    def nickname_and_full(self, text: str) -> Iterator[NameSpan]:
        """Two known given names, one in parentheses after the other ("Pina (Giuseppina)")."""
        for match in _NICKNAME_FULL.finditer(text):
            nick, full = fold(match["nick"]), fold(match["full"])
            if all(
                word in self._first_names and word not in self._common and word not in self._rare
                for word in (nick, full)
            ):
                yield NameSpan(match.start(), match.end(), cue=True)

    def quoted_tags(self, text: str) -> Iterator[NameSpan]:
        """A known given name alone in quotes after a tagging or signing verb: "the calendar
        tagged 'Noah'", "signs as 'Giulia'", "étiqueté « Chloé »". A tag names its owner;
        a word that is not a given name ("tagged 'Work'") is a category."""
        for match in _QUOTED_TAG.finditer(text):
            word = fold(match["name"])
            if word in self._first_names and word not in self._common and word not in self._rare:
                yield NameSpan(match.start("name"), match.end("name"), cue=True)

    def labelled_lower_case(self, text: str) -> Iterator[NameSpan]:
        """A full name typed in lower case as a label's value: a known first name, surname
        particles, a surname, and the value ends ("Client contact: rafael dos santos,",
        "Stagiaire : amélie nguyen,", "Asesor fiscal — javier de la fuente —"). Whatever the
        label's words (a role, a trade): the value's shape decides."""
        for match in _LABELLED_LOWER_CASE.finditer(text):
            given, surname = fold(match["given"]), fold(match["surname"])
            middle = fold(match["middle"] or "")
            if middle and (middle not in self._first_names or middle in self._common):
                continue  # a second given name, or nothing: "aime la randonnée" is a verb
            if (
                given in self._first_names
                and given not in self._rare  # "cena fuori", "solo testo": words first
                and given not in self._common
                and given not in _STATE_WORDS
                and surname not in self._common
                and len(surname) > 2
            ):
                yield NameSpan(match.start("given"), match.end("surname"), cue=True)

    def families(self, text: str) -> Iterator[NameSpan]:
        """A surname between "the" and "family" ("the Okoro family", "the Okoros"): English
        puts the cue after the name."""
        for pattern in (_FAMILY_AFTER, _FAMILY_NEXT_DOOR):
            for match in pattern.finditer(text):
                if pattern is _FAMILY_NEXT_DOOR and _SHOP_PREPOSITION.search(
                    text[max(0, match.start() - 12) : match.start()]
                ):
                    continue  # "coffee at the Starbucks next door": a shop, not a family
                if self._name_like(match.group("name")):
                    yield NameSpan(match.start("name"), match.end("name"), cue=True)

    def after_cues(self, text: str) -> Iterator[NameSpan]:
        """A capitalised word (or a known first name in any case) right after a cue, with the
        capitalised words that follow it (a surname, a second given name)."""
        words = list(_WORD.finditer(text))
        for index, match in enumerate(words):
            word = match.group()
            folded = fold(word)
            after_title = (
                word.islower()
                and len(word) > 2
                and folded not in self._common
                and _LOWER_CASE_TITLE.search(text[max(0, match.start() - 16) : match.start()])
                is not None
            )
            apposed = word.islower() and text[match.end() : match.end() + 2].lstrip()[:1] == ","
            caseless = is_caseless(word)
            if not (
                is_capitalised(word)
                or folded in self._first_names
                or after_title
                or apposed
                or caseless
            ):
                continue  # cheap test first: the cue regexes run on candidates only
            if _HONORIFIC_WORD.fullmatch(word):
                continue  # "mit „Frau Dr.“ anschreiben": a second title, not a name
            if word.islower() and _RELATION_WORD.fullmatch(word):
                continue  # "une prof femme pour sa fille": a second relation word, no name
            if word.islower() and folded in _STATE_WORDS and not _possessed(text[: match.start()]):
                # CRM shorthand: "tenant ok w/ mornings", "tenant fine w/ inspection"; after
                # a possessive the word is a name ("My neighbour fine waters the plants").
                continue
            title = _HONORIFIC.search(text[max(0, match.start() - 12) : match.start()])
            if word.islower() and not after_title and title and title.group()[0].isupper():
                continue  # "size M slim fit": a capitalised title has a capitalised name
            if word.islower() and _AMBIGUOUS_START.search(
                text[max(0, match.start() - 12) : match.start()]
            ):
                continue  # "Son chien s'appelle Filou": French "his", then a noun
            strength = self._cue_strength(text[: match.start()])
            if _FRENCH_SON_BEFORE.search(text[max(0, match.start() - 8) : match.start()]) and (
                _FRENCH_CLAUSE_AFTER.match(text, match.end())
            ):
                continue  # "Son Mac est trop lent": French "his", a thing, a French verb
            if word.islower() and self._kin_apposition(text, match, strength):
                # "User's husband, kwame, is...": one lower-case word between the commas of
                # a relationship word's apposition is the person's name.
                yield NameSpan(match.start(), match.end(), cue=True)
                continue
            if strength is _Cue.NONE:
                continue
            if (
                word.islower()
                and _LABEL_IS.search(text[: match.start()][-60:])
                and not _NAME_IS.search(text[: match.start()][-30:])
                and not self._lower_case_full_name(text, words, index)
            ):
                continue  # "user is fine", "client est ravi": a state, not a name
            if word.islower() and _RELATION_OF.search(text[: match.start()][-60:]):
                continue  # "un bambino di tre anni": a relative OF someone is capitalised
            if word.islower() and _ARTICLE_AFTER.match(text, match.end()):
                continue  # "il figlio guida la seconda auto", "sa fille ado le samedi": a verb
            known = folded in self._first_names and (
                folded not in self._common or self._name_follows(text, words, index)
            )
            if not (
                after_title
                # a word of a script without capitals after any cue ("Mother-in-law 田中",
                # "Neighbour प्रिया"): in a note in Latin letters, a cue then such a word is
                # how a name written in its own script stands
                or caseless
                or (
                    known
                    if strength is _Cue.KNOWN_NAMES or word.islower()
                    else (known or self._name_like(word))
                )
            ):
                continue
            end = match.end()
            for following in words[index + 1 : index + 3]:
                gap = text[end : following.start()]
                if gap.strip() or not self._name_like(following.group()):
                    break
                end = following.end()
            yield NameSpan(match.start(), end, cue=True)

    def first_name_pairs(self, text: str) -> Iterator[NameSpan]:
        """A capitalised known first name, then a capitalised word that is not a common word."""
        words = [w for w in _WORD.finditer(text) if not _PARTICLE.fullmatch(w.group())]
        for first, second in itertools.pairwise(words):
            gap = text[first.end() : second.start()]
            if not _NAME_GAP.fullmatch(gap):
                continue
            given, surname = first.group(), second.group()
            if not (is_capitalised(given) and fold(given) in self._first_names):
                continue
            head = text[: first.start()].rstrip()
            if (not head or head[-1] in ".!?;\n") and fold(given) in self._rare:
                continue
            if fold(given) in self._common or not self._name_like(surname):
                continue
            yield NameSpan(first.start(), second.end(), cue=False)

    def _cue_strength(self, before: str) -> _Cue:
        # An initial between the cue and the name ("Mr. J. Smith", "Contact: V. Tóth") is
        # part of the name: the cue is read before it.
        honorific = _HONORIFIC.search(before[-12:])
        if honorific and _MODEL_PREFIX.search(before[-40:]):
            return _Cue.NONE  # "Logitech MX Keys": a title in capitals after a maker
        if honorific and thing_named_before(before[: len(before) - len(honorific.group())]):
            return _Cue.NONE  # "Parrot is called Señor Pepe": a pet's name holds the title
        if honorific:
            return _Cue.ANY_NAME  # "cli. M. Dupont": "M." is an honorific, not an initial
        before = _INITIALS_END.sub("", before)
        tail = before[-60:]
        if _NAMING.search(tail) and thing_named_before(tail):
            return _Cue.NONE  # "a band called Perhaps Tomorrow", "der Hund heißt Bruno"
        if _CLERIC.search(tail[-16:]):
            return _Cue.KNOWN_NAMES  # "catechismo con don Paolo"
        if (
            _HONORIFIC.search(tail)
            or _NAMING.search(tail)
            or _LABEL.search(tail)
            or _NAME_PART_LABEL.search(tail)
        ):
            return _Cue.ANY_NAME
        if _RELATION_OF.search(tail):
            # "la mère de Chloé", "madre de Martina", "mamma di Sofia": a relative OF someone
            # names that someone; only a first name of the dictionary ("jefe de Ventas" is a
            # department).
            return _Cue.KNOWN_NAMES
        relation = _RELATION.search(tail)
        if relation is None:
            return _Cue.NONE
        if "," in relation.group()[relation.end("cue") - relation.start() :]:
            # "mit ihrem Vater, Termine direkt ...": after a comma a German noun starts the
            # next clause; an apposition ("my neighbour, Jane, ...") names a known name.
            return _Cue.KNOWN_NAMES
        if relation["possessive"]:
            return _Cue.ANY_NAME
        head = tail[: relation.start("cue")].rstrip()
        sentence_start = not head or head[-1] in ".!?:;\n"
        capital_start = relation["cue"][0].isupper() and sentence_start
        if capital_start and _KINSHIP.fullmatch(relation["cue"]):
            # A note's first word: "Daughter Emma ...", "Sister-in-law Aroha stays ...". A
            # kinship word names a relative, so any name-like word follows ("Aroha" is in no
            # dictionary).
            return _Cue.ANY_NAME
        copula = _COPULA_AFTER_CUE.search(relation.group()) is not None
        if copula and _AMBIGUOUS_WITHOUT_POSSESSIVE.fullmatch(relation["cue"]):
            # "Weekly tennis partner is jo", "Business partner is 王小明": "is" makes the word
            # after a role a person's name, not a product's part ("integration partner
            # Stripe"); a known given name, or a word of a script without capitals.
            return _Cue.KNOWN_NAMES
        if _AMBIGUOUS_WITHOUT_POSSESSIVE.fullmatch(relation["cue"]):
            # English "son" is French "his/her", "Mann" a surname: only "my son", "ihr Mann";
            # at the start of a note a known first name after a kinship one ("Son Kenji is
            # nine") is a person in either reading.
            kin = _AMBIGUOUS_KIN.fullmatch(relation["cue"]) is not None
            if capital_start and relation["cue"] == "Son":
                # French "Son" before a capital is a brand or a title ("Son Samsung", "Son
                # Excellence"), rare in a note; English "Son" then a capital is the son's
                # name, in a dictionary or not ("Son Tavita starts school"). Fail closed:
                # "Son Heung-min" (the footballer) is refused too.
                return _Cue.ANY_NAME
            return _Cue.KNOWN_NAMES if capital_start and kin else _Cue.NONE
        if (
            _KIN_TITLE.fullmatch(relation["cue"])
            and not relation["cue"].isupper()  # "Siemens TIA Portal": an acronym
            and relation.end("cue") == len(tail.rstrip())
        ):
            # "together with Aunt Delphine", "calls her grandmother 'Nonna Pina'", "Tía
            # Carmen": a kinship word said as a title of address, right before the name,
            # stands before a relative's name, in a dictionary or not.
            return _Cue.ANY_NAME
        if relation["cue"][0].isupper():
            # "Partner Portal", "Family Link": a capitalised role word starts a title; at the
            # start of a sentence only a known first name follows.
            return _Cue.KNOWN_NAMES if sentence_start else _Cue.NONE
        return _Cue.ANY_NAME

    def _kin_apposition(self, text: str, match: re.Match[str], strength: _Cue) -> bool:
        """Whether ``match`` is one word alone between the commas after a relationship word
        and its complement ("husband, kwame, is", "Le chef de projet, thomas, veut"): after
        a kinship word any word that is not a common word, an adverb or a parenthetical verb
        ("husband, however,", "Su hija, creo,"); after a role, a known first name."""
        if not text[match.end() :].lstrip().startswith(","):
            return False
        apposition = _APPOSITION_BEFORE.search(text[: match.start()][-60:])
        if apposition is None:
            return False
        word = fold(match.group())
        if (
            len(word) < 3
            or word in self._common
            or word in _STATE_WORDS
            or word in _PARENTHETICAL
            or _ADVERB_SHAPE.search(word) is not None
        ):
            return False
        if _KINSHIP.fullmatch(apposition["cue"]) and strength is not _Cue.NONE:
            return True
        return word in self._first_names and word not in self._rare

    def _lower_case_full_name(self, text: str, words: list[re.Match[str]], index: int) -> bool:
        """A known first name and a surname, both typed in lower case ("contact is priya
        raman"): neither word is a common one, and one space joins them."""
        word = fold(words[index].group())
        if word not in self._first_names or word in self._common or index + 1 >= len(words):
            return False
        following = words[index + 1]
        surname = following.group()
        return (
            text[words[index].end() : following.start()] == " "
            and surname.islower()
            and len(surname) > 2
            and fold(surname) not in self._common
        )

    def _name_follows(self, text: str, words: list[re.Match[str]], index: int) -> bool:
        """Whether a capitalised name-like word follows ``words[index]`` after one space."""
        if index + 1 >= len(words) or not is_capitalised(words[index].group()):
            return False
        following = words[index + 1]
        gap = text[words[index].end() : following.start()]
        return gap == " " and self._name_like(following.group())

    def _name_like(self, word: str) -> bool:
        return is_capitalised(word) and fold(word) not in self._common


# A word of a script without capitals after a preposition of company ("dinner with 田中",
# "un cadeau pour 王伟", "Abendessen mit أحمد"), not quoted nor in parentheses ("the word
# 'спасибо'", "ramen (ラーメン)"): in a note written in Latin letters, a person.
_COMPANY_BEFORE = re.compile(
    r"(?<![\w'])(?i:with|for|avec|pour|chez|con|para|mit|f[üu]r|bei|per)\s+$"
)


def caseless_in_company(text: str) -> Iterator[NameSpan]:
    """Words of a script without capitals after a preposition of company, in a note mostly
    written in Latin letters (a dish or a word learnt is quoted or follows no such word)."""
    letters = [ch for ch in text if ch.isalpha()]
    latin = sum(1 for ch in letters if ch.isascii() or "LATIN" in unicodedata.name(ch, ""))
    if not letters or latin * 2 < len(letters):
        return
    for match in _WORD.finditer(text):
        if is_caseless(match.group()) and _COMPANY_BEFORE.search(
            text[max(0, match.start() - 8) : match.start()]
        ):
            yield NameSpan(match.start(), match.end(), cue=True)


# Someone else than the user in the note: a third person after a preposition ("travelling
# with her", "avec lui", "con ella", "mit ihm", "per lei"), or a relative. Not a bare "his" or
# "her": a note may speak of its user in the third person ("based on his writing style").
_THIRD_PERSON = re.compile(
    r"(?<![\w'])(?i:with|for|to|from|and|avec|pour|chez|et|con|para|y|mit|f[üu]r|und|bei|per|e)"
    r"\s+(?i:her|him|elle|lui|ella|él|ihr|ihm|lei)(?![\w'])"
)
# A keyword: a line of one word at the end of the text the guards read (they append the
# note's keywords to its text, one a line).
# The apostrophe of an elision, where a word is split into its parts ("dell'asta", "l'hôtel").
_ELISION = re.compile(r"['\u2019]")
_KEYWORD_LINE = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")


def name_only_in_keywords(
    text: str, given_names: Container[str], common_words: Container[str]
) -> bool:
    """Whether a keyword is a given name the note's text never says, while the text speaks
    of someone: keywords ["travel", "carla"] on "Prefers quiet rooms when traveling with
    her" name the person the pronoun stands for."""
    lines = text.split("\n")
    keywords: list[str] = []
    while len(lines) > 1 and _KEYWORD_LINE.fullmatch(lines[-1].strip()):
        keywords.append(fold(lines.pop().strip()))
    if not keywords:
        return False
    body = "\n".join(lines)
    if _THIRD_PERSON.search(body) is None and not any(
        _KINSHIP.fullmatch(word.group()) for word in _WORD.finditer(body)
    ):
        return False
    # An elided article or preposition is glued to its noun ("prima dell'asta" says "asta").
    said = {
        fold(part)
        for word in _WORD.finditer(body)
        for part in (word.group(), *_ELISION.split(word.group()))
    }
    return any(
        word in given_names and word not in common_words and word not in said for word in keywords
    )


def _possessed(before: str) -> bool:
    """Whether a relationship word with a possessive ends ``before`` ("my neighbour")."""
    relation = _RELATION.search(before[-60:])
    return relation is not None and bool(relation["possessive"])


# Kinship words (not roles, not "son", "Mann" or "bébé", which are other words too): at the
# start of a note, capitalised and without a possessive, the word after one is a relative's
# name whether or not a dictionary knows it.
_KINSHIP = re.compile(
    r"wife|husband|spouse|fianc[ée]e?|daughter|mother|mum|mom|father|dad|brother|sister"
    r"|sibling|uncle|aunt|cousin|nephew|niece|grandson|granddaughter|grandmother|grandma"
    r"|grandfather|grandpa|stepson|stepdaughter|stepmother|stepfather|godson|goddaughter"
    r"|(?:brother|sister|mother|father|son|daughter)-in-law"
    r"|fille|fr[èe]re|s(?:œ|oe)ur|oncle|tante|cousine?|neveu|ni[èe]ce|petit-fils|petite-fille"
    r"|hija|hijo|hermana|hermano|t[íi]a|t[íi]o|prima|primo|sobrin[ao]|niet[ao]|abuel[ao]"
    r"|cuñad[ao]|suegr[ao]"
    r"|tochter|sohn|schwester|bruder|onkel|tante|cousine|neffe|nichte|enkel(?:in)?|schwager"
    r"|schw[äa]gerin"
    r"|figlia|figlio|sorella|fratello|zia|zio|cugin[ao]|nipote|nonn[ao]|cognat[ao]|suocer[ao]",
    re.IGNORECASE,
)
# An article or a preposition with its article right after a lower-case word: the word is a
# verb or a noun with its complement ("guida la seconda auto", "prima delle 10"), not a name.
_ARTICLE_AFTER = re.compile(
    r"\s+(?:the|a|an|le|la|les|l'|un|une|des|du|el|los|las|il|lo|gli|der|die|das|den|dem"
    r"|ein|eine|einen|del|della|delle|dello|dei|degli|al|alla|alle|nel|nella|sul|sulla)\b",
    re.IGNORECASE,
)
# Kinship words that are said as titles of address before a given name ("Aunt Delphine",
# "Uncle Bob", "Grandma Rose", "Nonna Pina", "Tante Inge", "Tía Carmen", "Zia Lucia"). Not
# "Mother", "Father", "Sister", "Brother": also religious titles and the titles of works
# ("Mother Teresa", "Sister Act"); they follow the rule of any capitalised role word.
_KIN_TITLE = re.compile(
    r"aunt|auntie|aunty|uncle|grandma|grandpa|granny|nonna|nonno|tante|onkel|t[íi]a|t[íi]o|zia|zio"
    r"|oma|opa|abuela|abuelo|oncle|cousin|cousine",
    re.IGNORECASE,
)
# "is" and its translations right after a relationship word ("partner is").
_COPULA_AFTER_CUE = re.compile(r"\s(?:is|est|es|ist|[èe])\s+$", re.IGNORECASE)
# A note's first word "Son" and a French clause after the next word: French "his/her" ("Son
# Mac est trop lent", "Son Vélib' a un pneu crevé"), not the son ("Son Tavita starts school").
_FRENCH_SON_BEFORE = re.compile(r"(?:^|[.!?;:\n]\s*)Son\s+$")
_FRENCH_CLAUSE_AFTER = re.compile(
    r"[ \u00a0]+(?:est|sont|a|ont|fait|va|ne|n'|reste|marche|tombe|doit|était|etait)(?![\w'])"
)
# Kinship words among the ambiguous ones below.
_AMBIGUOUS_KIN = re.compile(r"son|mann|kind|mujer|femme", re.IGNORECASE)
# Role words that also name a product's part or a job title ("printer driver Canon",
# "integration partner Stripe", "voice assistant Alexa"): a name only after a possessive.
_AMBIGUOUS_WITHOUT_POSSESSIVE = re.compile(
    r"son|mann|kind|capo|mujer|femme|partner|assistant|manager|boss|driver|coach|trainer|mate"
    r"|cleaner|tutor|chauffeur|fahrer|fahrerin|autista|responsable|responsabile|chef|cheffe"
    # Spanish "cousin" is Italian "first" ("primo anno", "prima volta")
    r"|primo|prima"
    # also verbs: Spanish "bebe" (drinks), "viste"; only "mi bebé" is a baby
    r"|beb[ée]|b[ée]b[ée]",
    re.IGNORECASE,
)


# A possessive and a relationship word (the roles of RELATIONS), one to three lower-case words,
# then an English verb in the third person or the past ("collects", "picks", "dropped") and a
# function word after it ("his", "up", "the"): the lower-case words are the subject's name.
_LOWER_RUN_THEN_VERB = re.compile(
    rf"(?<![\w'])(?i:{_POSSESSIVES})\s+(?:{_CLOSE_ADJECTIVES}\s+)?(?i:{_alternation(RELATIONS)})"
    r"\s+(?P<run>[a-zß-ÿ][a-zß-ÿ'\u2019-]*(?:\s+[a-zß-ÿ][a-zß-ÿ'\u2019-]*){0,2}?)"
    r"\s+(?:[a-z]+(?<!s)s|[a-z]+ed)\s+(?i:his|her|their|my|our|the|a|an|up|off|in|out|on|at"
    r"|for|from|to|with|it|them|him|every|all|each)(?![\w'])"
)
# A kinship title in lower case after an article, a possessive or a relationship word, then one
# lower-case word and a preposition, a comma or the end: "the neighbour aunty bisi in flat 2".
_KIN_TITLE_THEN_LOWER = re.compile(
    r"(?<![\w'])(?i:the|my|his|her|our|their|a|an|neighbou?r|friend)\s+"
    r"(?:aunty|auntie|aunt|uncle|granny|grandma|grandpa|nonna|nonno)\s+"
    r"(?P<name>[a-zß-ÿ][a-zß-ÿ'\u2019-]*)(?<!s)(?<!ed)(?<!ing)"
    r"(?=\s*(?:$|[,.;:!?)]|\s(?:in|at|on|from|of|next|across|down|up|who|with)\b))"
)
# Adverbs of frequency and time that stand where a name would: "His partner often picks up".
_FREQUENCY_TEXT = """
often sometimes seldom again already soon later even usually normally generally rarely always
never also still now then mostly mainly
"""
_FREQUENCY_WORDS = frozenset(_FREQUENCY_TEXT.split())
