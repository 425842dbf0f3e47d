"""Street addresses in the formats of Central and Northern Europe and Turkey, and any street
with a number after an address cue.

:mod:`memory_service.core.privacy.addresses` knows the English, French, Spanish, Italian and
German orders. People also live at "Výtvarná 39, 039 55 Jamník", "Dunaújvárosi út 213.,
H-2309 Keresztvár", "3 Betleheminbulevardi", "Christensensvingen 823" or "7 Vulčeva ulica".
The shapes with a house number (a street alone names a place, like a city):

- **a street-type word** of Hungarian, Czech, Slovak, Polish, Croatian, Slovenian, Estonian,
  Turkish or Portuguese, before or after the name, and the number on either side ("Ózdi tér
  100.", "ul. Kwiatowa 12", "Vodnikova cesta 4", "7 Vulčeva ulica", "Gül Sokak 5");
- **a compound ending in a street type** of Finnish, Swedish, Danish, Norwegian, Dutch or
  German, with the number on either side ("Kimmonkatu 9", "823 Christensensvingen", "22
  Bentehof", "129 Juri-Röhricht-Allee");
- **a house number, then a postcode and a place** in any European shape ("Wolkrova 461, 046
  64 Kurimka", "79/19, 02-931 Kwidzyn", "213., H-2309 Keresztvár", "9, 5907JO, Hasselt");
- **a number, a street of two capitalised words or more, a comma and a place** ("312 Ergül
  Valley, Ergülhaven", "62 Piazza Salvi, Riomagno");
- **a number, a street and an apartment or suite** ("115 Mílovská, Suite 762");
- **a US state and ZIP after a place** written in any alphabet ("Port İzgü, KS 78820");
- **an address cue, then a number and a capitalised word** or a capitalised word and a
  number ("lives at 577 Alžbetínska", "is at 9 Plynární", "his address: 122. Ceglédi").

A **room in a hall of residence** finds a door as well as a street and a number: a student
hall named in any of EN/FR/ES/DE/IT ("Fairfax Hall", "résidence universitaire", "colegio
mayor", "Studentenwohnheim", "residenza universitaria") and a room or flat with its number
in the same sentence ("Block C, room 214", "chambre 312", "habitación A27", "Zimmer 1104").

Two places find a door without a number: the **corner of two streets** ("the corner of
Kossuth utca and Ady St.", as precise as coordinates) and **the street someone lives on**
("lives on the north side of Industrigatan").

Only ``STREET_ADDRESS`` leaves this module, never the address.
"""

from __future__ import annotations

import re

STREET_ADDRESS = "STREET_ADDRESS"

# A capital of any Latin alphabet (Latin-1 and Latin Extended-A: "Ş", "İ", "Ł", "Ž", "Ő").
_CAP = r"[A-ZÀ-ÖØ-ÞĀ-ž]"
_CAP_WORD = rf"{_CAP}[^\W\d_]*(?:['\u2019\-.][^\W\d_]+)*\.?"
_HOUSE_NUMBER = r"\d{1,5}[a-zA-Z]?(?:/\d{1,4}[a-zA-Z]?)?\.?"
# The number must not be a quantity ("Vodnikova cesta 2 times"), a time or a price.
_NOT_A_QUANTITY = (
    r"(?![.,]?\d)(?!\s*(?:x\b|%|h\b|am\b|pm\b|min|km|kg|€|\$|times|nights?|days?|hours?"
    r"|weeks?|years?|months?))"
)
_TYPE_WORDS = (
    # HU
    r"utca|u\.|út|útja|tér|tere|körút|krt\.|köz|sor|sétány|rakpart|dűlő"
    # CS, SK
    r"|ulice|náměstí|nám\.|třída|tř\.|nábřeží|námestie|trieda|nábrežie"
    # PL
    r"|ulica|ul\.|aleja|al\.|aleje|plac|pl\.|osiedle|os\.|rondo"
    # HR, SL
    r"|cesta|trg|put|obala|šetalište|prilaz|ulice|nabrežje"
    # ET
    r"|tänav|tn\.|maantee|mnt\.|puiestee|pst\.|põik|väljak"
    # TR
    r"|sokak|soka\u011f\u0131|sk\.|sok\.|cadde|caddesi|cad\.|cd\.|bulvar\u0131|blv\.|mahallesi|mah\.|yolu"
    # PT
    r"|rua|avenida|travessa|largo|alameda|estrada|rodovia"
)
_TYPE = rf"(?i:(?<![\w.])(?:{_TYPE_WORDS})(?![\w]))"
# Compound street names: "Kimmonkatu", "Backgatan", "Sigurdsvej", "Svendsenalléen", with the
# number on either side.
_SUFFIXES = (
    # FI
    r"katu|tie|kuja|polku|bulevardi|väylä|rinne|kaari|ranta|tori|aukio|raitti|kaarre|mäki"
    # SV
    r"|gatan|gata|vägen|väg|gränd|torget|stigen|backen|allén|leden|slingan"
    # DA, NO
    r"|vej|vejen|gade|gaden|stræde|allé|alléen|plads|pladsen|torv|torvet|vænget|veien|vegen|gaten"
    r"|svingen|stien|bakken|haugen|plassen|tunet|jordet|løkka|kroken|grenda|tjernet"
    # NL (the others, with the number after, are the five-country module's)
    r"|dreef|steeg"
)
# German and Dutch compounds with the number after them are the five-country module's, which
# tells a street from a seat ("Sitzplatz 14K"); here only the English order, number first.
_NUMBER_FIRST_SUFFIXES = (
    r"straat|laan|weg|plein|gracht|kade|dijk|singel|hof|straße|strasse|gasse|allee|damm|ufer"
    r"|platz|chaussee"
)
_COMPOUND = rf"{_CAP}[^\W\d_]{{2,}}(?:-[^\W\d_]+)*-?(?i:{_SUFFIXES})\b"
_NUMBER_FIRST_COMPOUND = (
    rf"{_CAP}[^\W\d_]{{2,}}(?:-[^\W\d_]+)*-?(?i:{_SUFFIXES}|{_NUMBER_FIRST_SUFFIXES})\b"
)
_STREET = (
    # type word first: "ul. Kwiatowa 12", "Rua das Flores 8"
    rf"{_TYPE}\s+(?:{_CAP_WORD}\s+){{0,3}}{_CAP_WORD},?\s+{_HOUSE_NUMBER}{_NOT_A_QUANTITY}"
    # name then type word, number after: "Vodnikova cesta 4", "Dózsa györgy út 23."
    rf"|{_CAP_WORD}\s+(?:[^\W\d_]+\s+){{0,2}}{_TYPE}\s+{_HOUSE_NUMBER}{_NOT_A_QUANTITY}"
    # number first: "7 Vulčeva ulica", "122. Ceglédi utca"
    rf"|(?<![\d.,])\d{{1,5}}[a-zA-Z]?\.?,?\s+(?:{_CAP_WORD}\s+){{1,3}}{_TYPE}"
    # compound with the number on either side
    rf"|{_COMPOUND},?\s+{_HOUSE_NUMBER}{_NOT_A_QUANTITY}"
    rf"|(?<![\d.,])\d{{1,5}}[a-zA-Z]?\.?,?\s+{_NUMBER_FIRST_COMPOUND}"
)
_POSTCODE = r"\d{3}\s\d{2}|\d{2}-\d{3}|[A-Z]{1,2}-\d{4,5}|\d{4}\s?[A-Z]{2}|\d{5}-?\d{3}|\d{4,5}"
_NUMBER_POSTCODE_PLACE = (
    rf"(?<![\d.,:/-])\d{{1,5}}[a-zA-Z]?(?:/\d{{1,4}}[a-zA-Z]?)?\.?\s*,\s*(?:{_POSTCODE}),?\s+"
    rf"{_CAP}[^\W\d_]+"
)
# "312 Ergül Valley, Ergülhaven", "62 Piazza Salvi, Riomagno": a number, a street of two
# capitalised words or more, then a place after a comma.
_NUMBER_STREET_PLACE = (
    rf"(?<![\d.,:/-])\d{{1,5}}[a-zA-Z]?\s+(?:{_CAP}[^\W\d_]+\s+){{1,3}}{_CAP}[^\W\d_]+,\s+"
    rf"{_CAP}[^\W\d_]{{2,}}"
)
# "115 Mílovská, Suite 762", "0c Hudourniška pot, Apt. 12": a number, a street, then the unit.
_NUMBER_STREET_UNIT = (
    rf"(?<![\d.,:/-])\d{{1,5}}[a-zA-Z]?\s+(?:{_CAP_WORD}\s+){{0,3}}[^\W\d_]+,?\s+"
    r"(?i:suite|ste\.?|apt\.?|apartment|unit|flat|floor|fl\.)\s*#?\d{1,5}\b"
)
_US_STATE_ZIP = (
    rf",\s*{_CAP}[^\W\d_]+(?:\s[^\W\d_]+){{0,3}},?\s+[A-Z]{{2}}\s+\d{{5}}(?:-\d{{4}})?\b"
)
_CUE = (
    r"address(?:\s+is)?\s*:|address\s+is|lives?\s+(?:at|in|on)|lived\s+(?:at|in|on)"
    r"|located\s+at|(?:is|are)\s+at|meet\s+(?:me\s+|you\s+|us\s+)?at|moved\s+to"
    r"|adresse\s*:|habite\s+(?:au|à|a)?|dirección\s*:|vive\s+en|adresse|wohnt\s+in"
    r"|anschrift\s*:|indirizzo\s*:|abita\s+in"
)
_AFTER_CUE = (
    rf"(?i:(?<![\w])(?:{_CUE}))\s+(?:the\s+)?"
    rf"(?:\d{{1,5}}[a-zA-Z]?\.?,?\s+{_CAP}[^\W\d_]{{2,}}"
    rf"|{_CAP}[^\W\d_]{{2,}}(?:\s+{_CAP_WORD}){{0,2}}\s+{_HOUSE_NUMBER}{_NOT_A_QUANTITY})"
)
# A street without a number still finds a door in two places: the corner of two streets (a
# point, as precise as coordinates) and the street someone lives on.
_ENGLISH_TYPE = (
    r"(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Dr|Drive|Way|Pl|Place|Sq|Square"
    r"|Ct|Court|Terrace|Crescent|Close|Hwy|Highway|street|road|avenue)\b\.?"
)
_NAMED_STREET = (
    rf"(?:(?:{_CAP_WORD}\s+){{1,3}}(?:{_ENGLISH_TYPE}|{_TYPE}(?:\s+{_ENGLISH_TYPE})?)"
    rf"|{_NUMBER_FIRST_COMPOUND}|{_TYPE}\s+(?:{_CAP_WORD}\s+){{0,2}}{_CAP_WORD})"
)
_LOCATED_STREET = (
    rf"(?i:\b(?:corner|intersection|junction)\s+of)\s+(?:the\s+)?{_NAMED_STREET}\s+"
    rf"(?:and|&)\s+{_CAP}"
    rf"|(?i:\b(?:lives?|lived|living|resides?|resided)\s+(?:on|in|at))\s+"
    rf"(?:(?-i:[a-z]+)\s+){{0,5}}{_NAMED_STREET}"
)
# A hall of residence: the kind of building students live in, then (in the same sentence) a
# room, a flat or a bedroom with its number.
_HALL = (
    r"(?i:halls?\s+of\s+residence|student\s+(?:hall|village|residence|house|accommodation)s?"
    r"|r[ée]sidences?\s+(?:universitaires?|[ée]tudiantes?|du\s+crous)|cit[ée]\s+(?:u|universitaire)"
    r"|residencias?\s+(?:de\s+estudiantes|universitarias?)|colegios?\s+mayor(?:es)?"
    r"|(?:studenten|studierenden)?wohnheim\w*|residenz[ae]\s+universitari[ae]|studentato"
    r"|collegio(?:\s+universitario)?)"
    rf"|{_CAP}[^\W\d_]+\s+(?:Hall|Court|House)\b"
)
_ROOM = (
    r"(?i:\b(?:room|rm\.?|flat|bedroom|chambre|studio|logement|habitaci[óo]n|hab\.?|zimmer"
    r"|apartment|wohnung|stanza|camera|alloggio)\s+[A-Z]?\d{1,4}[A-Z]?\b)"
    r"|\b(?i:flat)\s+[A-Z]\d{1,4}"
)
_HALL_ROOM = rf"(?:{_HALL})[^.!?\n]{{0,60}}?(?:{_ROOM})|(?:{_ROOM})[^.!?\n]{{0,60}}?(?:{_HALL})"
_ADDRESS = re.compile(
    "|".join(
        f"(?:{p})"
        for p in (
            _STREET,
            _NUMBER_POSTCODE_PLACE,
            _NUMBER_STREET_PLACE,
            _NUMBER_STREET_UNIT,
            _US_STATE_ZIP,
            _AFTER_CUE,
            _LOCATED_STREET,
            _HALL_ROOM,
        )
    )
)


def address_format_kinds(text: str) -> frozenset[str]:
    """``STREET_ADDRESS`` when the text holds one of the shapes above; never the address."""
    return frozenset({STREET_ADDRESS}) if _ADDRESS.search(text) else frozenset()
