"""Whether a span that looks like a person's name is a brand, a shop or a public figure's work.

"Charles Schwab", "Tommy Hilfiger", "Jack Daniel's" and "Agatha Christie" are read as people
by the NER model and by the first-name rule. The sentence around them tells otherwise, by
structure rather than by a list of brands:

- a **possessive that ends the phrase**: "drinks Jack Daniel's", "shops at Sainsbury's on
  Fridays". A possessive followed by a noun is a person's thing ("Jane Doe's card");
- a **product, work or membership noun right after**: "Tommy Hilfiger shirts", "Stephen King
  novels", "Marriott Bonvoy points", "Hilton Honors status";
- a **trade or consumption context right before**: "banks with", "shops at", "wears",
  "reads", "listens to", "a fan of", "novels by", "achète chez", "cliente de", "kauft bei",
  "Bücher von", "romanzi di".

A span introduced by a person cue ("my neighbour", "Mrs.") is never a brand: the caller
checks cues first. Verbs that also take a person ("drives", "collects", "supports", "conduit",
"fährt", "guida") are no context: "collects Jane from school" is a name. Where none of these
applies ("likes Tommy Hilfiger"), the span stays a name and the note is refused: a refused
preference costs the user one question, a leaked name costs a deletion request.
"""

from __future__ import annotations

import re

_NOUNS_AFTER = (
    # EN: products, works, membership
    r"novels?|books?|thrillers?|films?|movies?|songs?|albums?|records?|music|paintings?"
    r"|prints?|plays?|operas?|symphon(?:y|ies)|shirts?|jeans|suits?|shoes|sneakers|perfumes?"
    r"|editions?|pressings?|essays?|poems?|poetry|works|recordings?|documentar(?:y|ies)"
    r"|biograph(?:y|ies)|series|designs?|jackets?|coats?|boots|trainers|dresses|handbags"
    r"|polos?|clothes|clothing|wear|cars?|bikes?|phones?|laptops?"
    r"|fragrances?|watch(?:es)?|bags?|glasses|tea|coffee|whiske?y|bourbon|beer|wine|gin|vodka"
    r"|products?|stores?|shops?|outlets?|hotels?|resorts?|points|status|account|card|cards"
    r"|membership|member|rewards|loyalty|app|platform|fund|funds|brokerage|bank|collection"
    r"|range|line|brand|store card|credit card|tier|elite|gold|platinum"
    # FR
    r"|romans?|livres?|chansons?|disques?|tableaux|pi[eè]ces|chemises?|parfums?|magasins?"
    r"|documentaires?|[ée]ditions?|po[èe]mes?|essais|films?|vestes?|chaussures|v[êe]tements"
    r"|boutiques?|produits?|compte|carte|h[ôo]tels?|montres?|sacs?|th[ée]|caf[ée]"
    # ES
    r"|novelas?|libros?|pel[íi]culas?|canciones|discos?|cuadros|camisas?|perfumes?|tiendas?"
    r"|productos?|cuenta|tarjeta|relojes|bolsos?|documentales?|ediciones|poemas|ensayos"
    r"|chaquetas?|zapatos|zapatillas|ropa"
    # DE
    r"|romane?|b[üu]cher|buch|filme?|lieder|alben|bilder|hemden?|parf[üu]ms?|laden|filialen?"
    r"|produkte?|konto|karte|uhren?|taschen?|tee|kaffee|dokumentationen|dokus?|ausgaben"
    r"|gedichte|essays|jacken?|schuhe|kleidung"
    # IT
    r"|romanzi|romanzo|libri|libro|canzoni|dischi|quadri|camicie|camicia|profumi|profumo"
    r"|negozio|negozi|prodotti|conto|carta|orologi|borse|caff[èe]|documentari|edizioni|poesie"
    r"|saggi|giacche|giacca|scarpe|vestiti"
)
# Works and goods (no account or card): a name right after one of these, or after one of
# these and "of", "de", "d'", "di", "von", is its author or its maker ("first editions of
# Ernest Hemingway", "les parfums Jean Paul Gaultier", "les documentaires d'Yann …").
_WORKS_BEFORE = (
    r"novels?|books?|thrillers?|films?|movies?|songs?|albums?|records?|paintings?|prints?"
    r"|plays?|operas?|editions?|pressings?|essays?|poems?|works|recordings?"
    r"|documentar(?:y|ies)|biograph(?:y|ies)|designs?|fragrances?|perfumes?|clothes|clothing"
    r"|romans?|livres?|chansons?|disques?|tableaux|documentaires?|parfums?|v[êe]tements"
    r"|chaussures|[ée]ditions?|po[èe]mes?|essais"
    r"|novelas?|libros?|pel[íi]culas?|canciones|discos?|cuadros|documentales?|ediciones"
    r"|poemas|ensayos|ropa|zapatos|zapatillas"
    r"|romane?|b[üu]cher|filme?|lieder|alben|bilder|dokumentationen|ausgaben|gedichte"
    r"|kleidung|schuhe"
    r"|romanzi|romanzo|libri|libro|canzoni|dischi|quadri|documentari|edizioni|poesie|saggi"
    r"|vestiti|scarpe|profumi"
)
_CUES_BEFORE = (
    # EN
    r"shops? at|shopping at|buys? (?:\w+ )?(?:at|from)|orders? (?:\w+ )?from|banks? (?:with|at)"
    r"|account (?:at|with)|savings (?:with|at)|invests? (?:with|through|in)|insured (?:with|by)"
    r"|drinks?|wears?|reads?|listens to|watches|fan of|loves the (?:books|films|music) of"
    r"|(?:novels|books|films|movies|songs|music|albums|paintings|plays) (?:by|of)|stays? at"
    r"|flies|customer of|client of|member of|a [\w-]+ (?:customer|member|client) at"
    r"|uses|using|a supporter of|subscribes to|subscribed to"
    r"|(?:owns|drives|runs|rides|leases|bought|has) (?:an?|one|the|his|her|their)"
    r"(?: (?:19|20)\d{2})?"
    r"|studies|watches (?:films|movies|documentaries) (?:by|of)"
    # FR
    r"|ach[eè]te (?:\w+ )?chez|client(?:e)? (?:de|chez)|compte (?:à|a|chez)|lit|[ée]coute"
    r"|fan de|(?:romans|livres|films|chansons|disques|tableaux) de|porte|boit"
    r"|utilise|abonn[ée]e?(?: [àa]| chez)?|supporter de|roule en|regarde|collectionne"
    # ES
    r"|compra (?:\w+ )?en|cliente de|cuenta en|lee|escucha(?: a)?|fan de"
    r"|(?:novelas|libros|pel[íi]culas|canciones|discos|cuadros) de|viste|bebe"
    r"|usa|utiliza|hincha de|colecciona|suscrit[oa] a"
    # DE
    r"|kauft (?:\w+ )?bei|kunde (?:bei|von)|kundin (?:bei|von)|konto bei|liest|h[öo]rt|fan von"
    r"|(?:romane|b[üu]cher|filme|lieder|alben|bilder) von|tr[äa]gt|trinkt"
    r"|nutzt|verwendet|abonniert"
    # IT
    r"|compra (?:\w+ )?da|cliente di|conto (?:presso|da)|legge|ascolta|fan di"
    r"|(?:romanzi|libri|film|canzoni|dischi|quadri) di|indossa|beve"
    r"|usa|utilizza|tifos[oa] (?:di|della|del)|colleziona|abbonat[oa] a"
)
# A purchase, booking or banking verb, up to three words, then the preposition that names the
# seller: "invests in ETFs through", "books hotels via", "compra ropa en", "kauft Kaffee bei".
_SELLER = (
    r"(?:at|with|through|from|via|chez|avec|sur|en|con|v[íi]a|bei|[üu]ber|von|da|presso"
    r"|tramite)"
)
_COMMERCE = (
    r"(?:buys?|bought|shops?|orders?|banks?|invests?|books?|pays?|saves?|flies|fly|stays?"
    r"|subscribes?|rents?|leases?|insures?|purchases?|gets?|ach[eè]te|commande|r[ée]serve"
    r"|paie|investit|[ée]pargne|loue|voyage|compra|pide|reserva|paga|invierte|ahorra|alquila"
    r"|kauft|bestellt|bucht|zahlt|investiert|spart|mietet|fliegt|ordina|prenota|investe"
    rf"|risparmia|noleggia)(?:\s+(?!{_SELLER}\b)[\w'-]+){{0,3}}\s+{_SELLER}"
)
# An adverb may stand between the verb and the name ("lit surtout Victor Hugo", "reads
# mostly Stephen King"), and a brand coordinated with another in the same context is one too
# ("compra en Zara y Massimo Dutti", "shops at Gap and Tommy Hilfiger").
_ADVERB = (
    r"(?:[a-z]+ly|[a-zé]+ment|[a-z]+mente|surtout|souvent|toujours|mostly|often|always|also"
    r"|aussi|gern|gerne|oft|immer|auch|siempre|tambi[ée]n|sempre|spesso|anche|soprattutto"
    r"|sobre todo|vor allem|am liebsten|lieber|meistens|gern(?:e)? mal|volentieri)"
)
_CONJUNCTION = r"(?:and|&|or|y|e|ed|et|und|o|ou|oder|sowie|as well as)"
# An article or a preposition between the context and the name: Spanish "lee a", French
# partitive "porte du", "boit du", "compra en ... y en", "viste de", "the", "il".
_ARTICLE = r"(?:a|de|du|des|d'|en|the|el|la|le|les|los|las|il|lo|i|gli|die|der|den|dem|di)"
# The words of a brand or a name in a list: capitalised words, "&", particles.
_NAME_WORDS = (
    r"(?:\s+(?:(?-i:[A-ZÀ-ÖØ-Þ0-9][\w'\u2019&.-]*)|&|de|del|la|le|van|von|di|da|du|y)){1,5}"
)
# A brand already named in the same context, and the comma or conjunction after it: "Zara y
# en", "Umberto Eco ed", "Marks & Spencer and".
_LISTED = rf"(?:{_NAME_WORDS}\s*(?:,|\s+{_CONJUNCTION})(?:\s+{_ARTICLE})?)"
_CONTEXT = rf"(?:{_CUES_BEFORE}|{_COMMERCE})"
# A product noun and the preposition naming its maker or seller ("vestiti da", "ropa de").
_GOODS_FROM = (
    rf"(?:{_NOUNS_AFTER}|clothes|clothing|ropa|vestiti|v[êe]tements|kleidung|glasses|occhiali"
    r"|gafas|lunettes|brillen?)\s+(?:from|by|da|de|di|del|von|chez|bei)"
)
_NOUN_AFTER = re.compile(rf"^\s*(?:{_NOUNS_AFTER})(?!\w)", re.IGNORECASE)
_CUE_BEFORE = re.compile(
    rf"(?<![\w'])(?:{_CONTEXT}(?:\s+{_ADVERB})?(?:\s+{_ARTICLE})?{_LISTED}{{0,3}}"
    rf"|{_GOODS_FROM}{_LISTED}{{0,3}}"
    rf"|(?:{_WORKS_BEFORE})(?:\s+(?:of|by|de|d'|di|von|del|des))?{_LISTED}{{0,3}}"
    r"|[»\u201d\"]\s*(?:by|de|di|von|of|par|por))"
    r"(?:\s+|(?<='))(?:(?:the|le|la|les|el|los|il|die|der|des|i|gli)\s+)?$",
    re.IGNORECASE,
)
# A model number and a modifier may stand between a brand and its product noun ("Nike
# Pegasus 40 running shoes", "Brooks Ghost 15 shoes").
_MODEL_THEN_NOUN = re.compile(
    rf"^\s+[A-Za-z]*\d[\w-]*(?:\s+[a-z]+ing)?\s+(?:{_NOUNS_AFTER})(?!\w)", re.IGNORECASE
)
# Capitalised words right before a span ("Johnnie" before "Walker Black"): the brand may
# start there.
_CAPITALISED_BEFORE = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ][\w'\u2019&.-]*)\s+$")
_LEADING_WORD = re.compile(r"\S+\s+")
_POSSESSIVE = re.compile(r"^['\u2019]s?(?!\w)")
# After a brand in the possessive comes the end of the phrase: punctuation, a preposition
# or conjunction, an adverb of frequency ("Jack Daniel's with cola", "Sainsbury's on Fridays").
_PHRASE_END = re.compile(
    r"^['\u2019]s?\s*(?:$|[.,;:!?)\-]|(?:with|and|or|on|at|in|for|over|instead|rather|when"
    r"|every|only|mostly|neat|et|ou|y|o|und|oder|e)\b)",
    re.IGNORECASE,
)


def product_noun_after(text: str, end: int) -> bool:
    """Whether a product or work noun follows right after ``end`` ("Lady Grey tea", "Dr.
    Martens boots"): even after an honorific, such a span names a product."""
    return _NOUN_AFTER.match(text[end:]) is not None


def reads_as_brand(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, a span that looks like a name, is a brand or a work.

    The span may include a trailing possessive ("Jack Daniel's") or stop before it.
    """
    span = text[start:end]
    after = text[end:]
    if span.endswith(("'s", "\u2019s")):
        after = span[-2:] + after
    elif _POSSESSIVE.match(after) is None and (
        _NOUN_AFTER.match(after) or _MODEL_THEN_NOUN.match(after)
    ):
        return True
    if _POSSESSIVE.match(after):
        return _PHRASE_END.match(after) is not None
    return any(
        _CUE_BEFORE.search(text[max(0, begin - 80) : begin]) for begin in _starts(text, start, end)
    )


def _starts(text: str, start: int, end: int) -> list[int]:
    """Where the brand may start: at the span, up to two capitalised words before it
    ("Johnnie Walker Black"), or up to two words into it when the name reader took the
    context in ("Lit Annie Ernaux", "Viste de Pedro del Hierro")."""
    starts = [start]
    begin = start
    for _ in range(2):
        before = _CAPITALISED_BEFORE.search(text[max(0, begin - 40) : begin])
        if before is None:
            break
        begin -= len(before.group())
        starts.append(begin)
    inner = start
    for _ in range(2):
        word = _LEADING_WORD.match(text, inner, end)
        if word is None:
            break
        inner = word.end()
        starts.append(inner)
    return starts
