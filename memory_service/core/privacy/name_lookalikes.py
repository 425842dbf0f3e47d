"""Spans shaped like a name that the sentence's structure shows are something else.

The NER model and the bare-name reader call capitalised words people; durable notes written
in a CRM's shorthand are full of capitalised words that are not. Each shape below decides a
whole class by structure, never by the span's own words being a known brand:

- **a weekday or a month abbreviated**, alone or as a range ("club Thu", "Fri mornings",
  "every Oct", "Mo-Fr", "Mon-Fri"): "Jan" and "May" are given names too, so they are not
  among them;
- **a tier, plan or status** after its noun ("tier Silver", "niveau Frequent Traveller",
  "offre Duo", "programme Hertz Gold"), or a programme's name ending in a tier word that is
  nobody's surname ("Marriott Bonvoy Titanium", "Visa Debit");
- **a thing or a pet named**: a band, a company, a shop, a team, an animal, then a naming verb
  that cannot mean "phoned" ("a band called Perhaps Tomorrow", "Seine Band heißt Vielleicht
  Dienstag", "il gatto si chiama Briciola"); not after a preposition ("Kollege im Team heißt
  Nikolai Sokolov" names the colleague);
- **an appliance, a garment or a good, then its maker** with nothing between and the phrase
  ending or going on with a preposition ("chaudière Saunier Duval ;", "sacs Louis Vuitton
  dans le contrat", "boiler: Worcester Bosch"): a relative clause has a verb after the name
  ("the bag Anna bought"), a maker does not;
- **a pet named in apposition** ("Il cane, Ettore, va dal veterinario", "our cat, Mochi, is
  diabetic"): an animal noun, a comma, one name and a comma;
- **a street named after someone**, French and Spanish style, with its type word right
  before ("la place Stanislas", "rue Victor Hugo", "avenida Rosalía de Castro"): the
  address reader decides whether a house number makes it a door.

A person cue ("my neighbour", "Mrs.") is read by the callers first: such a span is a person
whatever follows. Only a yes or no leaves this module.
"""

from __future__ import annotations

import re

from memory_service.core.privacy.vocabulary import ANIMAL_NOUNS

# Weekday and month abbreviations of EN/FR/ES/DE/IT. Not those that are given names too
# ("Jan", "May", "Sam", "Jun", "Mo", "Gen", "Ott"): the two-letter German days only in a
# range ("Mo-Fr", "Di/Do").
_ABBREVIATIONS = (
    r"mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun"
    r"|lun|mer|jeu|ven|dim"
    r"|feb|apr|jul|aug|sep|sept|oct|nov|dec"
    r"|f[ée]vr?|avr|juil|d[ée]c|ene|abr|ago|dic|okt|dez|giu|lug"
)
_RANGE_ONLY = r"mo|di|mi|do|fr|sa|so|ma|me|je|ve|lu|gio|mar|sam|jan|may|jun"
_DAY_OR_RANGE = re.compile(
    rf"(?i:(?:{_ABBREVIATIONS})\.?"
    rf"|(?:{_ABBREVIATIONS}|{_RANGE_ONLY})\.?\s*[-\u2013/]\s*(?:{_ABBREVIATIONS}|{_RANGE_ONLY})\.?)"
)
# Tier words no surname or given name shares: a span ending in one is a programme's level.
_TIER_ONLY = r"platinum|titanium|premium|elite|debit|credit|infinite|platine|platino|titan"
_TIER_NOUN_BEFORE = re.compile(
    r"(?<![\w'])(?i:tier|tiers|plan|level|status|loyalty|membership|niveau|statut|formule|offre|forfait"
    r"|programme|program|programa|nivel|estatus|categor[íi]a|stufe|status|tarif|mitgliedschaft"
    r"|livello|piano|categoria|abbonamento|programma)\s*:?\s+$"
)
_ENDS_IN_TIER = re.compile(rf"\s(?i:{_TIER_ONLY})$")
# Goods a maker's name follows directly in French, Spanish, Italian (and in a label
# "boiler: Bosch"): appliances, vehicles, garments, bags, food.
_GOODS = (
    r"boiler|fridge|freezer|dishwasher|washer|dryer|oven|heat pump|car|bike|scooter"
    r"|laptop|phone|tablet|printer|router|camera|handbag|bag|shoes|boots|coat"
    r"|chaudi[èe]re|pompe [àa] chaleur|frigo|r[ée]frig[ée]rateur|cong[ée]lateur|lave-linge"
    r"|lave-vaisselle|s[èe]che-linge|plaque|voiture|moto|v[ée]lo|trottinette|ordinateur"
    r"|portable|t[ée]l[ée]phone|imprimante|t[ée]l[ée]|montre|sacs?|chaussures|baskets"
    r"|manteau|veste|lunettes|parfum|croquettes|caf[ée]|th[ée]|chocolat|vin|bi[èe]re"
    r"|caldera|nevera|frigor[íi]fico|lavadora|lavavajillas|secadora|horno|coche|bici"
    r"|patinete|port[áa]til|m[óo]vil|impresora|reloj|bolsos?|zapatillas|zapatos|abrigo"
    r"|gafas|perfume|pienso|caldaia|frigorifero|lavatrice|lavastoviglie|asciugatrice|forno"
    r"|macchina|bici|monopattino|cellulare|stampante|orologio|borse?|borsa|scarpe|cappotto"
    r"|occhiali|profumo|crocchette"
    r"|tortellini|ravioli|pasta|biscotti|cioccolat[oa]|gelato|yogurt|yaourts?|galletas"
    r"|chocolate|ketchup|pudding|levure|lievito"
    r"|heizung|therme|w[äa]rmepumpe|k[üu]hlschrank|waschmaschine|sp[üu]lmaschine|trockner"
    r"|herd|backofen|auto|fahrrad|roller|handy|drucker|tasche|schuhe|mantel|brille"
)
_GOODS_BEFORE = re.compile(rf"(?<![\w'-])(?i:{_GOODS})(?:\s*:)?\s+$")
# What may follow a maker's name: the end, punctuation, a model number, a preposition or an
# article; not a lower-case verb ("the bag Anna bought").
_MAKER_END = re.compile(
    r"(?:\s*$|\s*[.,;:!?)(\u2013\u2014-]|\s+\d|\s+[A-Z]"
    r"|\s+(?i:dans|pour|de|du|des|en|avec|sur|au|et|ou|chez|depuis|en|con|para|por|y|o|del"
    r"|in|per|con|da|di|e|o|mit|f[üu]r|und|oder|im|seit|with|for|from|and|or|since|in|on"
    r"|at|at home|model|series|range)\b)"
)
_ANIMALS = ANIMAL_NOUNS
_PET_APPOSITION = re.compile(rf"(?<![\w'-])(?i:{_ANIMALS}),\s*$")
# Pets listed after their noun in the plural and a comma or a colon, the list ending the
# clause: "Keeps two rabbits, Jean-Claude and Ingrid.", "deux chats : Tigrou et Minette".
_PET_LIST_BEFORE = re.compile(
    # (or a naming verb: "two cats called Susan and Kevin", "deux chats appelés")
    rf"(?<![\w'-])(?i:{_ANIMALS})(?i:e?s|n|x)?(?:\s*[,:]|\s+(?i:called|named|appel[ée]e?s))\s*"
    r"(?:(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*\s*(?:,|\s(?i:and|&|et|y|und|e))\s*)*$"
)
_PET_LIST_AFTER = re.compile(
    r"(?:\s*(?:,|\s(?i:and|&|et|y|und|e))\s*(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*)*\s*(?:$|[.;!?)])"
)
# A pet named right after its noun, without commas, at the start of a sentence or after an
# article or a possessive ("La chienne Lucette est épileptique", "Kater Helmut hat ...",
# "il gatto Briciola"): then the clause ends or its verb follows. Not a relative clause
# ("the dog Anna walks"): only a copula or an auxiliary may follow the name.
_PET_BEFORE = re.compile(
    r"(?:^|[.!?;:\n]\s*|(?<![\w'-])(?i:the|our|my|his|her|their|la|le|sa|son|notre|leur|el|su"
    r"|nuestro|nuestra|der|die|das|unser|unsere|sein|seine|ihr|ihre|il|lo|suo|sua|nostro"
    r"|nostra)\s+)"
    rf"(?i:{_ANIMALS})\s+$"
)
# "Pet parrot Captain Jack", "our pet rabbit Sir Hops": "pet" and the animal name the one
# after them, with a title-like word between, whatever verb follows.
_PET_KIND_BEFORE = re.compile(
    rf"(?<![\w'-])(?i:pet|pets|haustier|mascota|animale domestico)\s+(?i:{_ANIMALS})"
    r"(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*)?\s+$"
)
# The animal word as a name's first word at a sentence's start ("Horse Thunder is stabled
# ..."): not the animals that are also given names or surnames ("Cat Stevens", "Kitty",
# "Bunny", "Fish", "Lamb", "Hase", "Mops").
_PET_HEAD = re.compile(rf"(?i:{_ANIMALS})\s+(?=(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*$)")
_NAME_LIKE_ANIMALS = frozenset(
    {"cat", "kitty", "bunny", "fish", "lamb", "hase", "mops", "pet", "lab", "mare", "hen",
     "duck", "rat", "mouse", "chat", "koi", "hund", "igel", "pony", "lama", "llama"}
)  # fmt: skip
_PET_CLAUSE_GOES_ON = re.compile(
    r"\s*(?:$|[.,;:!?)(\u2013\u2014-])"
    r"|\s+(?:is|has|was|needs|gets|est|a|[ée]tait|doit|va|es|est[áa]|tiene|necesita|era|ist|hat"
    r"|war|braucht|bekommt|muss|[èe]|ha|era|deve|sta|prende)\b"
)
_STREET_TYPE_BEFORE = re.compile(
    r"(?<![\w'-])(?:(?i:la|de la|sur la|à la|a la|en la)\s+(?i:place)"
    r"|(?i:rue|avenue|boulevard|bd|quai|all[ée]e|impasse|chemin|cours|square|esplanade"
    r"|avenida|paseo|plazuela|rambla|glorieta|traves[íi]a|ronda|camino|carrer|rua|vicolo"
    r"|largo|lungomare|piazzale))\s+(?:(?i:de|del|de la|des|du|di|della|dei|degli)\s+)?$"
)


def reads_as_lookalike(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, a span shaped like a name, is a weekday or a month, a
    tier, a maker after its goods, a pet in apposition or a street after its type word."""
    span = text[start:end].strip()
    before = text[max(0, start - 40) : start]
    if weekday_or_month(text, start, end):
        return True
    if _ENDS_IN_TIER.search(span):
        return True
    if named_after_before(before):
        return True
    if _TIER_NOUN_BEFORE.search(before) or thing_named_before(before):
        return True  # "niveau Frequent Traveller", "offre Duo", "a band called Perhaps Tomorrow"
    if _GOODS_BEFORE.search(before) and _MAKER_END.match(text, end):
        return True
    if _PET_APPOSITION.search(before) and text[end : end + 1] == "," and " " not in span:
        return True
    if (
        " " not in span
        and _PET_LIST_BEFORE.search(text[max(0, start - 80) : start])
        and _PET_LIST_AFTER.match(text, end)
    ):
        return True  # "Keeps two rabbits, Jean-Claude and Ingrid."
    if _PET_BEFORE.search(before) and " " not in span and _PET_CLAUSE_GOES_ON.match(text, end):
        return True  # "La chienne Lucette est épileptique", "Kater Helmut hat"
    if pet_named_before(before):
        return True  # "Pet parrot Captain Jack loves sunflower seeds"
    head = _PET_HEAD.match(span)
    if (
        head is not None
        and head.group().split()[0].lower() not in _NAME_LIKE_ANIMALS
        and _PET_BEFORE.search(before + head.group())
        and _PET_CLAUSE_GOES_ON.match(text, end)
    ):
        return True  # "Horse Thunder is stabled at the riding club": the span holds its noun
    if _HOUSE_NUMBER_BEFORE.search(before) and _STREET_TYPE_AFTER.match(text, end):
        return True  # "221B Baker Street": a street's name; the address reader decides the door
    return _STREET_TYPE_BEFORE.search(before) is not None


# A house number before a name and an English street type after it: the name is the street's.
_HOUSE_NUMBER_BEFORE = re.compile(r"(?<![\w.,-])\d{1,5}[A-Za-z]?\s+$")
_STREET_TYPE_AFTER = re.compile(
    r"\s+(?:Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Boulevard|Square|Place|Drive|Way|Close"
    r"|Crescent|Terrace|Court|Row|Gardens|Grove|Mews)(?![\w-])"
)


# Things people name: a band, a company, a shop, a boat, a team, a pet. A naming verb right
# after one of them (a complement of up to two words between: "studio de diseño se llama")
# names the thing, not a person: "a band called Perhaps Tomorrow", "Seine Band heißt
# Vielleicht Dienstag", "il gatto si chiama Briciola".
_THINGS = (
    r"band|group|company|firm|agency|studio|shop|store|restaurant|caf[ée]|bar|bakery|boat|yacht"
    r"|podcast|channel|blog|newsletter|team|club|project|business|start-?up|brand|label|app"
    r"|game|robot|vacuum|car|van|house|cottage|farm"
    r"|groupe|entreprise|soci[ée]t[ée]|agence|boutique|magasin|bateau|[ée]quipe|cha[îi]ne"
    r"|projet|marque|jeu|maison|ferme|voiture"
    r"|grupo|empresa|agencia|estudio|tienda|barco|equipo|canal|proyecto|marca|juego|casa"
    r"|granja|coche"
    r"|firma|agentur|laden|boot|verein|kanal|projekt|marke|spiel|haus|hof"
    r"|gruppo|azienda|agenzia|negozio|barca|squadra|progetto|marchio|gioco|cascina|macchina"
    rf"|{_ANIMALS}"
)
# Naming verbs that cannot be read as "phoned": a reflexive, a passive, a participle.
_NAMING_VERB = (
    r"is called|is named|was called|was named|nomm[ée]e?|appel[ée]e|s['\u2019]appelle"
    r"|est nomm[ée]e?|llamad[oa]|se llama|de nombre|hei(?:ß|ss)t|namens|genannt|chiamat[oa]"
    r"|si chiama|di nome"
)
# A short complement between the thing and its verb: "estudio de diseño", "studio di design".
# A breed's cross or mix is the same animal: "a beagle cross called Biscuit".
_BREED_MIX = r"(?:\s+(?i:cross|mix|crossbreed|x))"
_THING_COMPLEMENT = r"(?:\s+(?:de|di|du|des|del|of|von|for|pour|para|per)\s+[^\W\d_]+)?"
# Not a thing's modifier: a preposition or an article ("a friend at the bank called Jo").
_NOT_A_MODIFIER = r"(?i:at|from|of|in|on|with|for|de|du|del|di|da|von|bei|chez|the)"
_THING_NAMED = re.compile(
    rf"(?<![\w'-])(?i:{_THINGS}){_THING_COMPLEMENT}\s+(?i:{_NAMING_VERB})\s*:?\s+$"
    # English "called" and "named" alone are also "phoned" and "appointed" ("the agency
    # called Maria"): a naming only after an indefinite article ("a band called").
    # (up to two modifiers between, "a 4-year-old beagle named", "a small rescue dog called")
    # (a count is as indefinite: "two cats called Susan and Kevin")
    rf"|(?<![\w'-])(?i:a|an|one|two|three|four|five|[2-9])\s+"
    rf"(?:(?!{_NOT_A_MODIFIER}\s)[\w'-]+\s+){{0,2}}"
    rf"(?i:{_THINGS})(?i:e?s)?{_BREED_MIX}?{_THING_COMPLEMENT}"
    r"\s+(?i:called|named)\s+$"
    # the thing's name in the possessive, the same naming: "Dog's name is Pepper", "the
    # band's name was Mango" ("My son's name is Leo": a son is no thing)
    rf"|(?<![\w'-])(?i:{_THINGS})['\u2019]s\s+(?i:name\s+is|name\s+was)\s*:?\s+$"
)


# A thing after a preposition is a person's complement ("Neuer Kollege im Team heißt"):
# the one named is the person before it.
_PREPOSITION_BEFORE = re.compile(
    r"(?:^|\s)(?i:im|in|in der|beim|bei|vom|dans|en|au|du|nel|nella|nello|del|della|at|of|on"
    r"|from|de la|des|en el|en la|de|di|von|aus)\s+(?:(?i:the|le|la|l'|el|il|lo|der|die|das"
    r"|dem|den)\s+)?$"
)


# Things named after someone other than a band or a pet: dishes, drinks, plants, ships.
_EPONYM_THINGS = (
    r"pizza|dish|cake|dessert|cocktail|sandwich|salad|sauce|drink|biscuit|cookie|rose|flower"
    r"|plant|tulip|ship|telescope|crater|asteroid|font|typeface"
)
# Whom a pet is named after or a costume portrays: a character or a public figure ("Named the
# cat after Walter White", "Il gatto si chiama come Dylan Dog", "Dressed up as Leslie Knope
# last Halloween", "déguisé en Arsène Lupin"). A relative in between is a cue the callers read
# first ("named the dog after her neighbour Anna").
_NAMED_AFTER = re.compile(
    rf"(?i:(?:named|called)\s+(?:the|my|our|his|her|their|a)\s+(?:{_THINGS})\s+after"
    rf"|(?:{_THINGS})\s+(?:si chiama|s['\u2019]appelle|se llama|hei(?:ß|ss)t)\s+(?:come|comme"
    r"|como|wie)"
    # a thing or a pet named, then whom after: "Her dog is called Frida, after", "the pizza
    # is the Margherita, named after", "a rose named in honour of"
    # (a naming verb between: "the cat stays with us, after" is a time)
    rf"|(?:{_THINGS}|{_EPONYM_THINGS})\b[^.;!?\n]{{0,40}}?\s(?:named|called)\s"
    r"[^.;!?\n]{0,30}?(?<![\w'])(?:after|in\s+honou?r\s+of)"
    r"|dressed(?:\s+up)?\s+as|went\s+as|a\s+costume\s+of|d[ée]guis[ée]e?s?\s+en"
    r"|disfrazad[oa]s?\s+de|verkleidet\s+als|vestit[oa]\s+da|travestit[oa]\s+da)\s+$"
)


def pet_named_before(before: str) -> bool:
    """Whether ``before`` ends with "pet" and an animal ("Pet parrot ", "our pet rabbit Sir ")."""
    return _PET_KIND_BEFORE.search(before[-60:]) is not None


def named_after_before(before: str) -> bool:
    """Whether ``before`` ends with a pet's naming after someone or a costume's "as"."""
    return _NAMED_AFTER.search(before[-80:]) is not None


def thing_named_before(before: str) -> bool:
    """Whether ``before`` ends with a thing or a pet and a naming verb ("a band called",
    "le chat s'appelle"): the name that follows is the thing's."""
    tail = before[-80:]
    match = _THING_NAMED.search(tail)
    if match is None:
        return False
    if re.match(r"(?i:a|an|one)\s", match.group()):
        return True  # "plays in a band called": the indefinite thing is the one named
    return _PREPOSITION_BEFORE.search(tail[: match.start()]) is None


def weekday_or_month(text: str, start: int, end: int) -> bool:
    """Whether the span is a weekday or a month abbreviated, or a range of them."""
    return _DAY_OR_RANGE.fullmatch(text[start:end].strip()) is not None


# A capitalised run right before an animal's noun is its breed ("a Cavalier King Charles
# spaniel", "two Bernese Mountain dogs"): a person is never so placed; a person's animal is
# said with a possessive ("Anna Weber's dog"), which the caller's span keeps or ends on.
_BREED_NOUN_AFTER = re.compile(rf"\s+(?i:{_ANIMALS})(?i:e?s)?(?![\w'\u2019-])")


def breed_before_animal(text: str, end: int) -> bool:
    """Whether the span ending at ``end`` is followed by an animal's noun (its breed). Not the
    animals that are also a verb, a given name or a surname ("pet", "fish", "duck", "chat",
    "Cat"): "Anna Weber pet-sits" and "Anna Weber chat" name her."""
    match = _BREED_NOUN_AFTER.match(text, end)
    if match is None:
        return False
    noun = match.group().strip().lower()
    return noun not in _NAME_LIKE_ANIMALS and noun.rstrip("s") not in _NAME_LIKE_ANIMALS
