"""Street addresses with a number, and postal boxes, in the formats of EN/FR/ES/DE/IT countries.

A street alone ("lives on Hauptstraße", "near Via Roma") names a place, like a city; with a
house number it finds a door, so only a street *with its number* counts. The shapes:

- English: number, name, street type ("4417 Birchwood Lane", "221B Baker Street");
- French: number (bis/ter), street type, name ("12 rue des Lilas", "8 bis avenue Jean Jaurès");
- Spanish and Italian: street type, name, number ("Calle Mayor 3", "Avenida de la
  Constitución 12", "Via Roma 10", "Corso Vittorio Emanuele II 101");
- German: a street-type compound, then the number ("Hauptstraße 5", "Kastanienweg 4a",
  "Lindenallee 17"), or a separate type word ("Straße des 17. Juni 31", "Am Markt 3");
- a postcode and a capitalised place after a street or a box ("10115 Berlin", "69007 Lyon"),
  and postcodes specific enough on their own (a full UK postcode, "City, ST 12345");
- postal boxes: PO Box, PSC and Unit/Box with APO/FPO/DPO, BP / boîte postale, Apartado de
  Correos, Postfach, Casella Postale.

Only the kind of value leaves this module (``STREET_ADDRESS`` or ``POSTAL_BOX``).
"""

from __future__ import annotations

import re

STREET_ADDRESS = "STREET_ADDRESS"
POSTAL_BOX = "POSTAL_BOX"

_NAME_WORD = r"[A-ZÀ-ÖØ-Þ][\w'\u2019.-]*"
_NUMBER = r"\d{1,5}[a-zA-Z]?(?:\s?(?:bis|ter))?"
# A house number must not be a quantity: "via Slack 2 times", "Plaza 3 nights".
_NOT_QUANTITY = (
    r"(?![\w,.]?\s*(?:times|x\b|%|am\b|pm\b|h\b|min|nights?|days?|weeks?|months?|years?|hours?"
    r"|euros?|€|\$|km|mi\b|veces|fois|volte|mal\b|tage|notti|noches|nuits))"
)

# After a Spanish or Italian house number comes the end, punctuation, a postcode, a floor
# ("3º") or a place after a preposition, not a counted noun ("Via Slack, 2 reminders").
_NOT_A_COUNT = r"(?![ \t]+(?!(?:a|in|en|de|di|del|della|y|e|piso|planta|scala|int)\b)[a-z])"

_ENGLISH = (
    rf"\b\d{{1,5}}[A-Za-z]?,?\s+(?:{_NAME_WORD}\s+){{1,4}}"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Square"
    r"|Sq|Terrace|Way|Close|Crescent|Parkway|Pkwy|Highway|Hwy|Row|Mews|Gardens|Circle|Cir"
    r"|Trail|Walk|Hill|Grove|Park)\b"
)
_FRENCH = (
    r"(?i:\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|av\.|boulevard|bd|place|impasse"
    r"|all[ée]e|chemin|quai|route|cours|square|passage|esplanade|promenade|voie|cit[ée]"
    r"|faubourg|rond-point|sentier|lotissement|r[ée]sidence)\s+\S+)"
)
_ROMANCE_TYPES = (
    r"Rua|Alameda|Travessa|Pra[çc]a|Rodovia|Estrada|Calle|C/|C\.|Avenida|Avda\.?|Av\.|Paseo|Pº|Plaza|Pza\.|Carrera|Camino|Ronda|Traves[íi]a"
    r"|Glorieta|Carretera|Rambla|Via|Viale|V\.le|Piazza|P\.za|Piazzale|Corso|C\.so|Largo"
    r"|Vicolo|Strada|Lungomare|Lungotevere|Contrada|Borgo|Salita|calle|avenida|paseo|plaza"
    r"|viale|piazza|corso|largo|vicolo|c/|c\."
    # lower-case "via" is English too ("via Slack 2 times"): a street only before an article
    r"|via(?=\s+(?:dei|della|delle|dello|del|degli|di)\s)"
    # or in an address's full shape: a name, a number, a comma and a town (or a postcode)
    # ("via Roma 15, Torino"); "via Slack 2, then" has no capitalised town after the comma.
    r"|via(?=\s+[A-ZÀ-ÖØ-Þ][\w'\u2019.-]*\s+\d{1,4}[a-z]?\s*,\s*(?:\d{5}\s+)?[A-ZÀ-ÖØ-Þ])"
)
_ROMANCE = (
    rf"\b(?:{_ROMANCE_TYPES})\s+(?:(?:de|del|de la|de los|de las|dei|della|delle|degli|di)\s+)?"
    rf"(?:{_NAME_WORD}\s+){{0,3}}(?:{_NAME_WORD}|[IVX]+),?\s+(?:n\.?\s?[º°o]?\s?)?\d{{1,4}}"
    rf"[a-zA-Z]?\b(?![:.]\d){_NOT_QUANTITY}{_NOT_A_COUNT}"
)
# German compounds on a street type that name a seat, a parking space or a platform, never a
# street: "Sitzplatz 15K", "Stellplatz 12", "Bahnsteig 4".
_NOT_A_STREET = (
    r"(?!(?:Sitz|Park|Stell|Arbeits|Bahn|Flug|Camping|Zelt|Spiel|Sport|Tennis|Golf|Bus"
    r"|Liege|Steh|Tiefgaragen|Garagen)(?:platz|steig|pl[äa]tze)\b)"
)
_GERMAN = (
    rf"\b{_NOT_A_STREET}[A-ZÄÖÜ][a-zäöüß-]*(?:[A-ZÄÖÜ][a-zäöüß]*-)*"
    r"(?i:stra(?:ß|ss)e|str\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee"
    r"|pfad|steig|markt|graben|wall|zeile|straat|laan|plein|gracht|kade|dijk|singel)"
    r"\s+\d{1,4}\s?[a-zA-Z]?\b"
    rf"{_NOT_QUANTITY}"
    r"|\b(?:Stra(?:ß|ss)e|Platz|Am|An der|Auf dem|Im|In der|Zum|Zur)\s+(?:[\wäöüß.]+\s+){1,3}"
    rf"\d{{1,4}}\s?[a-zA-Z]?\s*,\s*\d{{4,5}}\s+{_NAME_WORD}"
)
_POSTCODE_AFTER_NUMBER = (
    rf"\b\d{{1,4}}[a-zA-Z]?\s*,\s*(?:\d{{4,5}}|[A-Z]{{1,2}}-\d{{4,5}})\s+{_NAME_WORD}"
)

# Postcodes whose shape is specific enough to find a handful of doors: a full UK postcode
# ("WR9 4YQ", "SW1A 1AA"), a US "City, ST 12345", a Dutch "1033 EY", a Brazilian CEP after a
# comma ("72837-832 Ramos"), and a street-type word then a five-digit postcode and a place
# ("rue Morel, 65361 Rousset").
_POSTCODES = (
    r"\b(?:[A-Z]{1,2}\d[A-Z\d]?|GIR) ?\d[ABD-HJLNP-UW-Z]{2}\b"
    r"|,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,3},?\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?\b"
    r"|,\s*\d{4}\s?[A-Z]{2}\s*,?\s+[A-Z][a-z]"
    r"|,\s*\d{5}-\d{3}\s+[A-Z][a-z]"
    r"|,\s*\d{5},?\s+[A-Z][\w' ]{1,40}\s\([A-Z]{2}\)"
    r"|(?i:\b(?:rue|avenue|boulevard|chemin|all[ée]e|impasse|place|quai|route|calle|avenida"
    r"|via|viale|piazza|corso|rua|stra(?:ß|ss)e|weg|road|street|lane)\b)[^,\n\d]{1,40},\s*\d{5}"
    rf"\s+{_NAME_WORD}"
    # a German street in one word ("Schillerstraße"), whatever stands for its number (words:
    # "Schillerstraße dreiundzwanzig, 80336 München"), then a postcode and a town
    r"|\b[A-ZÄÖÜ][a-zäöüß-]*(?:stra(?:ß|ss)e|weg|allee|gasse|platz|ring|damm)\b"
    rf"(?:\s+[^\W\d_]+){{0,3}}\s*,\s*\d{{5}}\s+{_NAME_WORD}"
)

_POSTAL_BOX = (
    r"(?i:\b(?:p\.?\s?o\.?\s?box|post\s+office\s+box|postfach|casella\s+postale|c\.?\s?p\.?\s"
    r"(?=\d)|apartado(?:\s+de\s+correos)?|apdo\.?|bo[îi]te\s+postale|b\.?\s?p\.?|psc)"
    r"\s*:?\s*\d[\d ]{0,9}\b)"
    r"|(?i:\bunit\s+\d{3,5}\s*,?\s*box\s+\d{2,5})"
    # the box's number a few words after its noun ("Apartado de correos de la asociación: el
    # 304", "PO box for the business is box 112", "Casella postale: la numero 210")
    r"|(?i:\b(?:p\.?\s?o\.?\s?box|post\s+office\s+box|postfach|casella\s+postale"
    r"|apartado\s+de\s+correos|bo[îi]te\s+postale)\b[^\d.!?;\n]{1,50}?\b\d{1,6}\b"
    rf"{_NOT_QUANTITY})"
    r"|\b(?:APO|FPO|DPO)\s+(?:AA|AE|AP)\s+\d{5}\b"
    # a box with its number, then the post office that holds it ("Keeps box 4471 at the Main
    # Street post office")
    r"|(?i:\bbox\s+(?:no\.?\s*|#\s*)?\d{1,6}\b[^\d.!?;\n]{0,40}?\bpost\s+office\b)"
    # a rural route (US, Canada) and its box: "Rural Route 3, Box 112", "RR 2 Box 45", "HC 68
    # Box 23"; the route spelled out needs no box ("Rural Route 3" is the delivery address)
    r"|(?i:\brural\s+route\s*(?:no\.?|#)?\s*\d{1,4}\b)"
    r"|(?i:\b(?:r\.?\s?r\.?|h\.?\s?c\.?|star\s+route)\s*#?\s*\d{1,4}\s*,?\s*box\s+\d{1,5}\b)"
)

# A house's number said apart from its street: "at number 9", "au numéro 9 bis", "la del
# número 31", "Haus Nummer 7", "al civico 18", "au 12", with a street named in the same note
# ("la rue des Tilleuls", "calle Mayor", "Lindenstraße", "via Garibaldi", "Harbour Row").
_HOUSE_NUMBER = re.compile(
    r"(?i:(?<![\w-])(?:number|numero|no\."
    r"|nummer|hausnummer|civico|n°|au)\s+\d{1,4}(?:\s?(?:bis|ter))?(?![\w,.]?\d))"
    rf"{_NOT_QUANTITY}"
)
# A house number by its label, whatever the value's shape ("Hausnummer dreiundzwanzig",
# "house number twelve"): the label says a door's number follows.
_HOUSE_NUMBER_LABEL = re.compile(
    r"(?i:(?<![\w-])(?:house\s+number|hausnummer|num[ée]ro\s+de\s+(?:maison|rue)"
    r"|n[úu]mero\s+de\s+(?:casa|portal)|numero\s+civico)\s*:?\s+[^\W_]+)"
)
_STREET_NAMED = re.compile(
    r"(?i:(?<![\w-])(?:rue|impasse|chemin|avenue|boulevard|all[ée]e|calle|avenida|paseo|plaza"
    r"|via|viale|vicolo|piazza|corso|stra(?:ß|ss)e))\s+(?:(?:des|du|de la|de l'|de|del|della"
    rf"|dei|degli|di)\s+)?{_NAME_WORD}"
    r"|\b[A-ZÄÖÜ][a-zäöüß]+(?:stra(?:ß|ss)e|weg|allee|gasse|platz)\b"
    rf"|\b{_NAME_WORD}\s+(?:Street|Road|Lane|Row|Avenue|Close|Crescent|Drive|Terrace|Way"
    # the English abbreviations too ("onto Maple Ave; ... number 212")
    r"|Ave|Rd|Blvd|Boulevard|Ln|Court|Ct|Place|Mews|Gardens|Grove|Parkway|Pkwy)\b"
)

# A street by its structure: a street-type word, the street's name in any words (a person's
# name included: "calle Rosalía de Castro 21", "via Giuseppe Verdi 12", "rue Victor Hugo, 8",
# "Karl Marx Straße 12"), then a house number. Whatever the words are, the type word and the
# number make it a door. The name holds a capitalised word (a bare "Route 66" or "quai 3" is
# a road or a platform, "Avenue Q" has no number); lower-case words inside it are particles.
_TYPE_FIRST = (
    # ES, PT
    r"calle|c/|avenida|avda\.?|paseo|plaza|camino|carrera|ronda|traves[íi]a|carretera|rambla"
    r"|glorieta|urbanizaci[óo]n|urb\.|pasaje|callej[óo]n|cuesta|ca[ñn]ada|bajada|subida"
    r"|carrer|avinguda|passeig|pla[çc]a|r[úu]a"
    r"|rua|travessa|pra[çc]a|alameda|estrada|av(?=\s)|(?-i:R)\.|trav\.|estr\."
    # IT
    r"|via|viale|v\.le|piazza|p\.za|piazzale|corso|c\.so|largo|vicolo|strada|lungomare"
    r"|lungotevere|contrada|borgo|salita|rotonda|traversa|fondamenta|stradone"
    r"|circonvallazione"
    # FR
    r"|rue|avenue|av\.|boulevard|bd|bld|place|impasse|all[ée]e|chemin|quai|route|square"
    r"|passage|esplanade|promenade|faubourg|sentier"
    # DE, separate words
    r"|stra(?:ß|ss)e|str\.|gasse|platz|allee"
)
# Particles in lower case only, one between two words: a capitalised "De", "La" is one of the
# name's words, so each word of the name is read one way (no backtracking over a long run).
_STREET_PARTICLE = (
    r"de|del|de la|de las|de los|des|du|de l'|d'|l'|la|le|les|di|da|dal|della|delle|dei"
    r"|dell'|dall'|degl'|sull'|all'|degli|dello|e|et|y|von|vom|der|den|zum|zur|am|an der|van"
    r"|dos|das|do|sainte?|san|santa|sant'|st\."
)
_PARTICLE_GAP = rf"(?:\s+|\s+(?:{_STREET_PARTICLE})(?:\s+|(?<=')))"
_STREET_WORD = r"(?:[A-ZÀ-ÖØ-Þ][\w'\u2019.-]*|\d{1,2}\.?(?=\s+[A-ZÀ-ÖØ-Þ]))"
# A number said with its sign or word: "n° 12", "nº 3", "no. 7", "Nr. 4", "número 21".
_NUMBER_SIGN = r"(?i:n\.?\s?[º°o]\.?|no\.|nr\.?|num\.?|núm\.?|n[úu]mero|num[ée]ro|numero|nummer)"
# The number is a house's, not a time, a range, a score or a count of something capitalised
# ("Weg Richtung Berlin 3 Stunden"): after it a clause ends, or a postcode or a place follows.
_NUMBER_ENDS = r"(?![:.,]\d|[-/]\d|\s*[-\u2013]\s*\d|[ \t]+[A-ZÀ-ÖØ-Þ][a-zà-ÿß])"
# What follows an Italian house number in directions to a door: a doorbell, a floor, a
# staircase, a flat ("citofono Rossi", "secondo piano", "scala B", "interno 4").
_DOOR_AFTER = (
    r"\s*,?\s*(?:(?i:al|il|primo|secondo|terzo|quarto|quinto|sesto|ultimo)\s+)?(?i:citofono|campanello|piano|scala|interno|int\.|portone"
    r"|cancello)\b"
)
_BY_STRUCTURE = (
    # English "via" in lower case before one word and a number is a channel ("updates via
    # Windows 11"): the Italian street has a particle, two words or a town after it.
    # A doorbell or a floor after the number is a door's too ("via Garibaldi 41, citofono
    # secondo piano", "via Garibaldi 27, secondo piano").
    r"(?!via\s+[^\W\d_][\w.-]*\s*,?\s*\d{1,4}\b(?!\s*,\s*(?:\d{5}\s+)?[A-ZÀ-ÖØ-Þ]"
    rf"|{_DOOR_AFTER}))"
    rf"(?<![\w/])(?i:{_TYPE_FIRST}){_PARTICLE_GAP}{_STREET_WORD}"
    rf"(?:{_PARTICLE_GAP}{_STREET_WORD}){{0,5}}"
    rf"(?:\s*,\s*|\s+)(?:{_NUMBER_SIGN}\s*)?\d{{1,4}}(?:\s?(?:bis|ter)|[a-wyzA-WYZ])?\b"
    rf"{_NUMBER_ENDS}{_NOT_QUANTITY}{_NOT_A_COUNT}"
    # "Karl Marx Straße 12", "Rosalía de Castro Straße 3": the type word after the name
    r"|(?<![\w-])(?:[A-ZÄÖÜ][\w'.-]*\s+){1,4}(?:Stra(?:ß|ss)e|Str\.|Weg|Allee|Gasse|Platz"
    rf"|Ring|Damm)\s+\d{{1,4}}\s?[a-wyzA-WYZ]?\b{_NUMBER_ENDS}{_NOT_QUANTITY}{_NOT_A_COUNT}"
)

# A Japanese block address: the block numbers (chōme-banchi-gō, "2-14-7"), the district, then
# a ward, city or town with its suffix ("Kitazawa, Setagaya-ku", "3-5 Nishiki, Naka-ku"): the
# suffix says it is an address whatever the numbers look like.
_JAPANESE_BLOCK = (
    r"(?<![\w-])\d{1,2}(?:-\d{1,3}){1,2}\s+(?:[A-Z][a-z]+(?:[- ](?:cho|machi|chome))?\s*,?\s*)"
    r"(?:\d{1,2}[- ]?(?:chome|ch[oō]me)\s*,?\s*)?[A-Z][a-z]+-(?:ku|shi|cho|machi|gun|mura)\b"
)

_STREETS = re.compile(
    "|".join(
        f"(?:{pattern})"
        for pattern in (
            _ENGLISH,
            _FRENCH,
            _ROMANCE,
            _GERMAN,
            _POSTCODE_AFTER_NUMBER,
            _POSTCODES,
            _BY_STRUCTURE,
            _JAPANESE_BLOCK,
        )
    )
)
_BOXES = re.compile(_POSTAL_BOX)


# A path or a URL, whose words are joined by "_", "+" or "%20": "~/labels/14_Calle_Mayor_3B
# _Madrid.pdf", "maps.example.com/?q=88+Kingsley+Road+Leeds".
_JOINED_LOCATOR = re.compile(r"\S*[/=]\S*(?:[_+]|%20)\S*")
_JOINER = re.compile(r"[_+]|%20")


def address_kinds(text: str) -> frozenset[str]:
    """``STREET_ADDRESS`` and/or ``POSTAL_BOX`` when the text holds one; never the value. An
    address in a path or a URL is read with its joiners as spaces."""
    spaced = _JOINED_LOCATOR.sub(lambda match: _JOINER.sub(" ", match.group()), text)
    kinds = set(_address_kinds(text))
    if spaced != text:
        kinds |= _address_kinds(spaced)
    return frozenset(kinds)


# An English article and a capitalised word (a maker) before a German street's shape in one
# word and its number: "a Tesla Powerwall 3" is a model, not "Ostwall 3".
_MAKER_BEFORE = re.compile(r"(?<![\w'])(?:a|an|the)\s+[A-Z][\w-]*\s+$")
_ONE_WORD_AND_NUMBER = re.compile(r"[A-ZÄÖÜ][a-zäöüß-]+\s+\d{1,4}\s?[a-zA-Z]?")


def _street(text: str) -> bool:
    return any(
        not (
            _ONE_WORD_AND_NUMBER.fullmatch(match.group())
            and _MAKER_BEFORE.search(text[max(0, match.start() - 40) : match.start()])
        )
        for match in _STREETS.finditer(text)
    )


# A public place's own address: its name with a landmark noun last ("the Sherlock Holmes
# Museum", "the Eiffel Tower") or first ("la Sagrada Família", "il Museo Egizio"), then "at",
# "en", "à" or a comma, up to two place names ("Champ de Mars,"), and the address. The door is
# the landmark's, not a person's. A house's name ("the White House", "la Casa Batlló", "Villa
# Rosa") is also a home's: only after a verb of visiting or liking in the same clause ("tour
# the White House", "Le encanta la Casa Batlló"). A word of residence or delivery before the
# landmark in its clause ("lives at the Old Church Museum, 5 Mill Lane", "send it to") keeps
# the address unless "near" the landmark: that costs a landmark named by where someone lives.
_LANDMARK_NOUNS = (
    r"museum|gallery|tower|cathedral|palace|castle|abbey|basilica|temple|stadium|arena|theatre"
    r"|theater|opera|monument|memorial|zoo|aquarium|observatory|library|bridge|mosque|synagogue"
    r"|mus[ée]e|museo|torre|tour|catedral|cath[ée]drale|cattedrale|bas[íi]lica|palacio|palais"
    r"|palazzo|castillo|ch[âa]teau|castello|schloss|dom|duomo|teatro|th[ée][âa]tre|estadio"
    r"|stade|stadio|mezquita|sagrada"
    # venues a customer visits: shops, consulates, stations (session 14: "Shops at Powell's
    # Books, 1005 W Burnside St", "beim US-Generalkonsulat Frankfurt, Gießener Straße 30")
    r"|books|bookshop|bookstore|librairie|librer[íi]a|libreria|buchhandlung|company|store"
    r"|shop|market|march[ée]|mercado|mercato|embassy|consulate|ambassade|consulat|embajada"
    r"|consulado|ambasciata|consolato|[\w-]*botschaft|[\w-]*konsulat|caf[ée]|restaurant"
    r"|hotel|h[ôo]tel|cinema|cin[ée]ma|kino|station|gare|bahnhof|airport|a[ée]roport"
    r"|aeropuerto|aeroporto|flughafen"
)
_HOUSE_NOUNS = r"house|casa|villa|maison|haus|manor|hall"
_LANDMARK_WORD = r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019.-]*"
_LANDMARK = re.compile(
    r"(?i:(?P<house_last>(?:" + _LANDMARK_WORD + r"\s+){1,4}(?:" + _HOUSE_NOUNS + r"))"
    r"|(?P<house_first>(?:" + _HOUSE_NOUNS + r")(?:\s+" + _LANDMARK_WORD + r"){1,3})"
    r"|(?:"
    + _LANDMARK_WORD
    + r"\s+(?:(?:and|&|of|the|de|du|des)\s+)?){1,4}(?:"
    + _LANDMARK_NOUNS
    + r")"
    r"|(?:"
    + _LANDMARK_NOUNS
    + r")(?:\s+(?:de|del|di|du|des|d'|della)?\s*"
    + _LANDMARK_WORD
    + r"){1,3})(?![\w-])"
)
_LANDMARK_GAP = re.compile(
    r"(?:\s*,\s*(?:(?i:at|on|en|à|a|in|di|im|am|sur|su|auf)\s+)?"
    r"|\s+(?i:at|on|en|à|a|in|di|im|am|sur|su|auf)\s+)"
    r"(?:"
    + _LANDMARK_WORD
    + r"(?:\s+(?:(?i:de|du|des|del|di|la|le|von)\s+)?"
    + _LANDMARK_WORD
    + r")*\s*,\s*){0,2}$"
)
_VISITING_BEFORE = re.compile(
    r"(?<![\w'])(?i:tours?|touring|visits?|visiting|see|seeing|loves?|likes?|admires?"
    r"|favou?rite|visita[rn]?|encanta|visiter|visite|adore|aime|besuchen|besucht|liebt"
    r"|visitare|ama|adora)(?![\w'])"
)
_RESIDENCE_BEFORE = re.compile(
    r"(?<![\w'])(?i:lives?|living|home|flat|apartment|stays?|staying|address|deliver\w*|send"
    r"|ship|post|mail|habite|domicile|adresse|livr\w*|vive|vivo|direcci[óo]n|env[íi]\w*|wohnt"
    r"|adresse|liefer\w*|abita|indirizzo|consegn\w*)(?![\w'])"
)
_NEAR_BEFORE = re.compile(
    r"(?<![\w'])(?i:near|next\s+to|opposite|close\s+to|by|pr[èe]s\s+de|cerca\s+de|junto\s+a"
    r"|in\s+der\s+n[äa]he|neben|vicino\s+a)\s+(?:(?i:the|le|la|el|il|der|die|das)\s+)?$"
)


def _without_landmark_addresses(text: str) -> str:
    """``text`` with each landmark and its own address blanked (see above)."""
    for landmark in _LANDMARK.finditer(text):
        clause = re.split(r"[.;!?\n]", text[: landmark.start()])[-1]
        house = landmark["house_last"] or landmark["house_first"]
        if house and not _VISITING_BEFORE.search(clause):
            continue
        if _RESIDENCE_BEFORE.search(clause) and not _NEAR_BEFORE.search(clause):
            continue
        for street in _STREETS.finditer(text, landmark.end()):
            if street.start() - landmark.end() > 60:
                break
            if _LANDMARK_GAP.match(text[landmark.end() : street.start()]):
                blank = " " * (street.end() - landmark.start())
                return _without_landmark_addresses(
                    text[: landmark.start()] + blank + text[street.end() :]
                )
            break
    return text


# A named place glossed with its address in parentheses right after its name ("Likes Station F
# (5 Parvis Alan Turing, Paris)", "vicino al Colosseo (Piazza del Colosseo, 1)"): the address
# is the place's, as a landmark's is, with the same word of residence or delivery test. A
# person's name glossed so ("send to Anna Weber (5 Elm Street)") keeps its address by that
# test, and the name is refused by the name readers whatever the address.
_GLOSSED_PLACE = re.compile(
    r"(?<![\w'\u2019-])(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019.-]*\s*\((?P<inner>[^()\n]{3,80})\)"
)


def _without_glossed_addresses(text: str) -> str:
    for place in _GLOSSED_PLACE.finditer(text):
        clause = re.split(r"[.;!?\n]", text[: place.start()])[-1]
        if _RESIDENCE_BEFORE.search(clause) and not _NEAR_BEFORE.search(clause):
            continue
        if any(ch.isdigit() for ch in place.group("inner")):
            start, end = place.span("inner")
            text = text[:start] + " " * (end - start) + text[end:]
    return text


def without_public_places(text: str) -> str:
    """``text`` with the addresses of landmarks, venues and glossed places blanked (see
    above): what every address reader reads, so that a place's own address is judged the same
    way by the word readers here and by the format readers (:mod:`.address_formats`)."""
    return _without_glossed_addresses(_without_landmark_addresses(text))


def _address_kinds(text: str) -> frozenset[str]:
    kinds = set()
    text = without_public_places(text)
    if _street(text) or (
        (_house_number(text) or _HOUSE_NUMBER_LABEL.search(text)) and _STREET_NAMED.search(text)
    ):
        kinds.add(STREET_ADDRESS)
    if _BOXES.search(text):
        kinds.add(POSTAL_BOX)
    return frozenset(kinds)


# Numbers that belong to a vehicle, a seat or a room, not to a house ("bus number 12").
_NOT_A_HOUSE = frozenset(
    {"bus", "line", "gate", "room", "platform", "flight", "train", "seat", "tram", "track",
     "ligne", "vol", "linea", "linie", "volo", "vuelo", "zimmer", "chambre", "camera",
     "habitacion", "quai", "gleis", "binario", "anden", "jersey", "shirt", "maglia", "trikot"}
)  # fmt: skip


def _house_number(text: str) -> bool:
    for match in _HOUSE_NUMBER.finditer(text):
        before = re.findall(r"[^\W\d_]+", text[max(0, match.start() - 24) : match.start()])
        if not (before and before[-1].lower() in _NOT_A_HOUSE):
            return True
    return False
