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

from memory_service.core.privacy.name_lookalikes import (
    breed_before_animal,
    reads_as_lookalike,
    weekday_or_month,
)
from memory_service.core.privacy.name_model import ROUTE_BEFORE, STREET_LAST, name_unit
from memory_service.core.privacy.names import (
    FUNCTION_WORDS,
    kin_before,
    person_cue_before,
    relation_after,
)

_NOUNS_AFTER = (
    # EN: products, works, membership
    r"novels?|books?|thrillers?|films?|movies?|songs?|albums?|records?|music|paintings?"
    r"|prints?|plays?|operas?|symphon(?:y|ies)|shirts?|jeans|suits?|shoes|sneakers|perfumes?"
    r"|editions?|pressings?|essays?|poems?|poetry|works|recordings?|documentar(?:y|ies)"
    r"|biograph(?:y|ies)|series|designs?|jackets?|coats?|boots|trainers|dresses|handbags"
    r"|polos?|clothes|clothing|wear|cars?|bikes?|phones?|laptops?"
    # goods a maker's name stands before ("Paul Smith socks", "Vera Wang gowns", "David
    # Austin roses", "a GivEnergy battery", "Leki trekking poles", "Chunky Monkey flavour")
    r"|socks|gowns?|roses|tulips|bulbs|seeds|batter(?:y|ies)|inverters?|panels|poles"
    r"|flavou?rs?|roasts?|blends?"
    # pet food by its maker ("Royal Canin Medium Adult kibble", "Hill's cat food")
    r"|kibble|(?:dog|cat|pet)\s+food|litter"
    # a named holiday camp ("the Young Explorers camp"), eyewear ("Ray-Ban Wayfarer frames")
    r"|camps?|frames|lenses|sunglasses|eyewear"
    # what a collector buys of an artist or a maker ("Clarice Cliff ceramics", "Art Deco
    # bronzes", "Mucha posters")
    r"|ceramics|pottery|porcelain|glassware|bronzes|sculptures?|etchings?|engravings?"
    r"|lithographs?|posters?|figurines|furniture|silverware|tapestr(?:y|ies)"
    r"|fragrances?|watch(?:es)?|bags?|glasses|tea|coffee|whiske?y|bourbon|beer|wine|gin|vodka"
    r"|products?|stores?|shops?|outlets?|hotels?|resorts?|points|status|account|card|cards"
    r"|membership|member|rewards|loyalty|app|platform|fund|funds|brokerage|bank|collection"
    r"|range|line|brand|store card|credit card|tier|elite|gold|platinum|fan|fans"
    r"|plan|plans|subscription|package|bundle|level"
    # a hotel's or a carrier's room and fare types: "the Deluxe King room type", "Junior
    # Suite"
    r"|room type|room|rooms|suite|suites|fare|fares|cabin"
    # what a public figure publishes or performs: "David Attenborough docs", "Taylor Swift
    # concerts", "Sherlock Holmes stories"
    r"|docs|stories|shows|videos|podcasts?|concerts?|tours?|speeches|interviews|lectures"
    r"|sketch(?:e)?s|lyrics|comics|cookbooks?|recipes|biopics?|memoirs|quotes"
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
    # (not "plays": "Plays Anna Meyer in the final" is a verb and an opponent; "plays by"
    # and "plays of" are contexts of their own)
    r"|operas?|editions?|pressings?|essays?|poems?|works|recordings?"
    r"|documentar(?:y|ies)|biograph(?:y|ies)|designs?|fragrances?|perfumes?|clothes|clothing"
    r"|romans?|livres?|chansons?|disques?|tableaux|documentaires?|parfums?|v[êe]tements"
    r"|chaussures|[ée]ditions?|po[èe]mes?|essais"
    r"|novelas?|libros?|pel[íi]culas?|canciones|discos?|cuadros|documentales?|ediciones"
    r"|poemas|ensayos|ropa|zapatos|zapatillas"
    r"|romane?|b[üu]cher|filme?|lieder|alben|bilder|dokumentationen|ausgaben|gedichte"
    r"|kleidung|schuhe"
    r"|romanzi|romanzo|libri|libro|canzoni|dischi|quadri|documentari|edizioni|poesie|saggi"
    r"|vestiti|scarpe|profumi"
    # genres, and what a cook, a streamer or a host publishes: "Krimis von Nele Neuhaus",
    # "i gialli di Andrea Camilleri", "las recetas de Karlos Arguiñano", "les podcasts de"
    r"|crime novels|recipes|cookbooks|podcasts?|videos|comics|manga"
    r"|polars?|policiers|bd|bandes dessin[ée]es|recettes|vid[ée]os|[ée]missions|chroniques"
    r"|recetas|v[íi]deos|programas|c[óo]mics|novela negra|novelas negras"
    r"|krimis?|thriller|rezepte[n]?|kochb[üu]cher[n]?|gem[äa]lde[n]?|sendungen"
    r"|gialli|giallo|ricette|video|puntate|trasmissioni|fumetti"
    # what a public figure says or performs in public: "les déclarations de Christine
    # Lagarde", "Fan des sketchs de Florence Foresti", "los discursos de", "die Reden von"
    r"|speeches|interviews|lectures|talks|concerts|sketches|stand-up|statements"
    r"|d[ée]clarations|discours|sketch(?:e)?s|spectacles|conf[ée]rences|concerts|interviews"
    r"|discursos|declaraciones|entrevistas|conciertos|mon[óo]logos|espect[áa]culos"
    r"|reden|interviews|konzerte|auftritte|vortr[äa]ge|discorsi|dichiarazioni|interviste"
    r"|concerti|spettacoli|monologhi"
    # what a collector buys of an artist or a maker: "etchings by", "affiches de Mucha",
    # "stampe di Piranesi", "grabados de Goya", "Stiche von Dürer"
    r"|ceramics|pottery|porcelain|bronzes|sculptures?|etchings?|engravings?|lithographs?"
    r"|posters?|figurines|affiches|estampes|gravures|lithographies|c[ée]ramiques"
    r"|carteles|grabados|litograf[íi]as|esculturas|cer[áa]micas|plakate|drucke|stiche"
    r"|radierungen|skulpturen|stampe|incisioni|litografie|manifesti|sculture|ceramiche"
    r"|theories|philosophy|th[ée]ories|philosophie|teor[íi]as|filosof[íi]a|theorien|teorie"
)
# An adverb may stand between the verb and the name ("lit surtout Victor Hugo", "reads
# mostly Stephen King"), and a brand coordinated with another in the same context is one too
# ("compra en Zara y Massimo Dutti", "shops at Gap and Tommy Hilfiger").
_ADVERB = (
    r"(?:[a-z]+ly|[a-zé]+ment|[a-z]+mente|surtout|souvent|toujours|mostly|often|always|also"
    r"|aussi|gern|gerne|oft|immer|auch|siempre|tambi[ée]n|sempre|spesso|anche|soprattutto"
    r"|sobre todo|vor allem|am liebsten|lieber|meistens|gern(?:e)? mal|volentieri"
    # how much of an author: "Lit tout Amélie Nothomb", "Lee todo lo de", "Legge tutto di"
    r"|a lot of|lots of|everything by|all of|beaucoup|tout|mucho|todo(?: lo)?|viel|alles"
    r"|molto|tutto|only|just|seulement|juste|s[óo]lo|nur|solo"
    r"|solamente|soltanto)"
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
    # a work's character, fictional by the noun: "loves the character Amos Burton", "mag die
    # Figur Pia Kirchhoff", "le personnage de", "il personaggio di", "el personaje de"
    r"|characters?|personnages?(?: de)?|personajes?(?: de)?|personagg(?:io|i)(?: di)?"
    r"|figur|romanfigur|serienfigur|kommissar(?:in)?"
    # an event attended: "Attends PyCon US every May"
    r"|attends|attended|attending"
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
    # reading in the infinitive, the gerund or again: "le encanta leer a", "está leyendo a",
    # "relit", "rereads", "releyó a"
    r"|reading|to read|lire|lisant|le(?:er|yendo)|leggere|leggendo|re-?reads|re-?reading"
    r"|reli[ts]|relee|reley[óo]|rilegge"
    # a fan and a word about the fan: "fan inconditionnel de", "grande fan d'"
    r"|fan(?:\s+[\w-]+)?\s+(?:of|de|d'|von|vom|di|del)"
    # playing a game: "plays Baldur's Gate", "joue surtout à Elden Ring", "spielt Elden Ring"
    # (Spanish and Italian "a" is an article below; French "à" is not: "porte à Marie")
    # (not English "plays": "plays Anna Meyer in the final" is an opponent)
    rf"|replays|replaying|finished|jou(?:e|es|ent|ait|ais|é)(?:\s+{_ADVERB})?"
    r"\s+(?:à|au|aux)|juega|jugar|jugando|spielt|spielte|zockt|gioca|giocare|giocando"
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
# A work then its author after the same context: "Lit Arsène Lupin de Maurice Leblanc".
_BY = r"(?:by|de|d'|di|von|del|des)"
_LISTED = rf"(?:{_NAME_WORDS}\s*(?:,|\s+{_CONJUNCTION}|\s+{_BY})(?:\s+(?:{_ARTICLE}|{_BY}|vom))?)"
_CONTEXT = rf"(?:{_CUES_BEFORE}|{_COMMERCE})"
# A product noun and the preposition naming its maker or seller ("vestiti da", "ropa de").
_GOODS_FROM = (
    rf"(?:{_NOUNS_AFTER}|clothes|clothing|ropa|vestiti|v[êe]tements|kleidung|glasses|occhiali"
    r"|gafas|lunettes|brillen?)\s+(?:from|by|da|de|di|del|von|chez|bei)"
)
# Groceries and toiletries a maker's name stands before ("Heinz ketchup", "Dr. Oetker
# Backpulver"), and German compounds ending in one ("Gesichtscreme", "High-Protein-Pudding").
_GROCERIES = (
    r"ketchup|mayo(?:nnaise)?|mustard|sauce|soup|cereal|cereals|biscuits|cookies|crisps|chips"
    r"|yogh?urt|ice cream|chocolate|cake|cakes|pasta|noodles|pudding|baking powder|shampoo"
    r"|soap|cream|lotion|toothpaste|deodorant|moutarde|biscuits|c[ée]r[ée]ales|yaourts?"
    r"|glace|levure|savon|cr[èe]me|dentifrice|galletas|salsa|mostaza|champ[úu]|jab[óo]n"
    r"|crema|yogur|helado|biscotti|merendine|gelato|lievito|sapone|dentifricio|sugo"
    r"|tortellini|ravioli|senf|kekse|joghurt|eis|backpulver|seife|zahnpasta|nudeln"
)
_GERMAN_COMPOUND_GOODS = (
    r"(?-i:[A-ZÄÖÜ])[\w-]*(?:creme|pudding|pulver|shampoo|seife|schokolade|kaffee|tee|bier"
    r"|saft|joghurt|m[üu]sli|nudeln|so(?:ß|ss)e|ketchup|senf|kekse|eis|tabletten|pflaster"
    r"|duschgel|lotion|zahnpasta|mischung)"
)
_NOUN_AFTER = re.compile(
    # a gloss in parentheses may close first ("村上春樹 (Haruki Murakami) novels"), a use
    # in "-ing" stand before the noun ("Leki trekking poles")
    rf"^\)?\s*(?:(?-i:[a-z]+ing)\s+)?(?:{_NOUNS_AFTER}|{_GROCERIES}|{_GERMAN_COMPOUND_GOODS})"
    r"(?!\w)",
    re.IGNORECASE,
)
# A genre of music or books, then a focusing word, then its artists or authors: "Likes jazz,
# especially Bill Evans", "Aime le jazz manouche, surtout Django Reinhardt", "Lee novela
# negra, sobre todo Dolores Redondo". The focusing word is needed: "rock climbing: Anna
# Meyer belays" names a partner.
_GENRES = (
    r"jazz|blues|rock|pop|rap|hip-hop|soul|funk|metal|punk|reggae|folk|country|opera|op[ée]ra"
    r"|classical(?: music)?|chanson(?: fran[çc]aise)?|musique|m[úu]sica|musik|musica|flamenco"
    r"|salsa|tango|fado|k-pop|techno|schlager|crime fiction|sci-fi|fantasy|thrillers|poetry"
    r"|polars?|po[ée]sie|novela negra|krimis?|gialli|fumetti|comics|manga"
    # kinds of goods whose origins or makers follow ("Ethiopian coffees, especially
    # Yirgacheffe")
    r"|coffees|teas|wines|beers|whiske?ys|whiskies|cheeses|chocolates"
)
_FOCUS = (
    r"especially|particularly|in particular|above all|mostly|mainly|surtout|notamment"
    r"|en particulier|sobre todo|especialmente|en particular|vor allem|besonders|insbesondere"
    r"|soprattutto|specialmente|in particolare|principalmente"
)
# A brand named after its kind, then a focusing word and its line: "Preferred hotel chain is
# Hyatt, especially Park Hyatt", "Airline: Lufthansa, mostly Lufthansa City".
_BRAND_KIND = (
    r"(?:hotel\s+)?chain|brand|airline|carrier|label|make|maker|marque|cha[îi]ne|compagnie"
    r"|marca|cadena|aerol[íi]nea|marke|kette|fluggesellschaft|marchio|catena|compagnia"
)
_BRANDED = rf"(?:{_BRAND_KIND})\s*(?::|(?:is|est|es|ist|[èe])\s)?\s*(?-i:[A-ZÀ-ÖØ-Þ])[\w&'\u2019-]*"
_GENRE_THEN_FOCUS = (
    rf"(?:{_GENRES}|{_BRANDED})(?:\s+[^\W\d_]+)?\s*[,:\u2013\u2014]?\s+(?:{_FOCUS})"
    rf"(?:\s+{_ARTICLE})?{_LISTED}{{0,3}}"
)
_CUE_BEFORE = re.compile(
    rf"(?<![\w'])(?:{_CONTEXT}(?:\s+{_ADVERB})?(?:\s+{_ARTICLE})?{_LISTED}{{0,3}}"
    rf"|{_GENRE_THEN_FOCUS}"
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
# (a firm's two names joined by "&" are one: "Ben & Jerry's Cherry Garcia")
_CAPITALISED_BEFORE = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ][\w'\u2019&.-]*)(?:\s+&)?\s+$")
_LEADING_WORD = re.compile(r"\S+\s+")
_POSSESSIVE = re.compile(r"^['\u2019]s?(?!\w)")
# After a brand in the possessive comes the end of the phrase: punctuation, a preposition
# or conjunction, an adverb of frequency ("Jack Daniel's with cola", "Sainsbury's on Fridays").
_PHRASE_END = re.compile(
    r"^['\u2019]s?\s*(?:$|[.,;:!?)\-]|(?:with|and|or|on|at|in|for|over|instead|rather|when"
    r"|every|only|mostly|neat|et|ou|y|o|und|oder|e)\b)",
    re.IGNORECASE,
)


# A street type as a name's last word after a word of route ("along Abbey Road"): a street,
# not a surname. Not "Lane", "Hill", "Park", "Way": surnames too (fail closed: "Penny Lane" is
# refused).
# A sports club's name ends with its club word ("Manchester United", "Bristol Rovers",
# "Tottenham Hotspur", "Queens Park Rangers").
_CLUB_LAST = re.compile(
    r"\s(?:United|City|Rovers|Rangers|Athletic|Wanderers|Albion|Hotspur|Villa|Argyle|FC|AFC)$"
)


# Dishes named after someone: a food noun, then one capitalised word that ends the phrase
# ("crêpes Suzette.", "pizza Margherita cada viernes", "Eggs Benedict whenever", "Beef
# Wellington like"). A verb after the word makes it a cook ("the pasta Giulia makes"), so
# only punctuation, a function word or a preposition may follow.
_FOOD = (
    r"pizzas?|pizze|eggs?|beef|chicken|veal|pork|lamb|salmon|sole|peach(?:es)?|pears?"
    r"|cr[êe]pes?|cakes?|tarts?|pies?|salad|sauce|soup|steak|pasta|spaghetti|risotto|cocktails?"
    r"|sandwich(?:es)?|tartes?|g[âa]teaux?|poulet|salade|soupe|p[êe]ches?|poires?|filets?"
    r"|b(?:œ|oe)uf|(?:œ|oe)ufs|huevos|tartas?|pollo|salsa|ensalada|sopa|filete|solomillo"
    r"|pastel|torten?|kuchen|eier|so(?:ß|ss)e|salat|suppe|schnitzel|torta|insalata|zuppa"
    r"|filetto|uova|pesche|bistecca|ravioli|tagliatelle|gnocchi|coupe|melba"
)
_FOOD_BEFORE = re.compile(rf"(?<![\w'])(?:{_FOOD})\s$", re.IGNORECASE)
_FOOD_FIRST = re.compile(rf"(?:{_FOOD})\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*$", re.IGNORECASE)
_DISH_END = re.compile(
    r"\s*(?:$|[.,;:!?)\-]|(?:with|and|or|on|at|in|for|from|whenever|every|each|like|as"
    r"|au|aux|à|en|de|du|pour|avec|et|ou|selon|comme|chaque|cada|con|para|por|y|o|como|según"
    r"|jeden|jede|mit|und|oder|zum|als|am|im|nach|wie|ogni|per|e|da|al|alla|alle|come"
    r"|secondo|tutti|todos|tous|toujours|always|often|siempre|sempre|immer)\b)",
    re.IGNORECASE,
)
# A title or a product line with its number: "Baldur's Gate 3 on PC", "Final Fantasy VII",
# "Elden Ring 2 et": a capitalised run (or a possessive then capitalised words) and a number
# of one or two digits or a Roman numeral that ends the phrase. A person's name before a
# number is followed by its unit ("paid Anna Meyer 50 euros", "met Emma Roth 3 times").
_TITLE_NUMBER_AFTER = re.compile(
    r"(?P<poss>['\u2019]s)?(?P<more>(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*){0,3})"
    r"\s+(?:\d{1,2}|(?-i:[IVX]{1,4}))(?=\s*(?:$|[.,;:!?)\]]|(?:on|sur|auf|en|su|in|and|et"
    r"|und|y|e|or|ou|oder|o|with|avec|mit|con|for|pour|f[üu]r|per|para|to|sous|unter)\b))",
    re.IGNORECASE,
)
# A public figure named by the role of their fame, as the user's favourite: "Lieblingsspieler:
# Alexander Zverev", "favourite author is", "autora favorita:", "scrittore preferito è". Roles
# a private person also holds (teacher, coach, chef, doctor) are not among them.
_PUBLIC_ROLES_EN = (
    r"author|writer|novelist|poet|singer|band|group|artist|musician|rapper|composer|painter"
    r"|actor|actress|director|filmmaker|player|athlete|footballer|cyclist|racing driver"
    r"|streamer|youtuber|podcaster|comedian|philosopher|scientist|tennis player|f1 driver"
    r"|golfer"
    # and things, never a person: "Favourite store is Zara"
    r"|store|shop|brand|label|restaurant|team|club|game|show|series|film|movie|book|album"
    r"|song|app|airline|hotel|chain|character|fictional character|hero|heroine|villain"
    # and goods: "Favourite coffee is Peet's dark roast"
    r"|coffee|tea|beer|wine|whiske?y|chocolate|ice cream|perfume|trainers|jeans"
)
_FAVOURITE_BEFORE = re.compile(
    # a work's title may stand before the role: "Favourite Harry Potter character is"
    # and a lower-case modifier of the role: "Favourite book series is", "favourite jazz singer"
    rf"(?<![\w'])(?:(?:favou?rite|fave|all-time)(?-i:\s+[A-ZÀ-ÖØ-Þ][\w'\u2019&-]*){{0,4}}"
    rf"(?-i:\s[a-z]+)? (?:{_PUBLIC_ROLES_EN})s?"
    r"|lieblings(?:autor|schriftsteller|s[äa]nger|band|k[üu]nstler|musiker|rapper|komponist"
    r"|maler|schauspieler|regisseur|spieler|sportler|fu(?:ß|ss)baller|fahrer|streamer|youtuber"
    r"|podcaster|komiker|philosoph|figur|charakter|held)(?:in|innen)?"
    r"|(?:auteure?|autrice|[ée]crivaine?|chanteur|chanteuse|groupe|artiste|musicien(?:ne)?"
    r"|rappeur|rappeuse|compositeur|compositrice|peintre|acteur|actrice|r[ée]alisat(?:eur|rice)"
    r"|joueur|joueuse|pilote|sporti(?:f|ve)|footballeur|streameur|streameuse|youtubeur"
    r"|youtubeuse|humoriste|philosophe|personnage|h[ée]ros|h[ée]ro[ïi]ne)"
    r" (?:pr[ée]f[ée]r[ée]e?|favori(?:te)?)"
    r"|(?:autora?|escritora?|cantante|grupo|artista|m[úu]sico|m[úu]sica|rapera?|compositora?"
    r"|pintora?|actor|actriz|directora?|jugadora?|piloto|deportista|futbolista|ciclista"
    r"|streamer|youtuber|humorista|fil[óo]sof[oa]|personaje|h[ée]roe|hero[íi]na)"
    r" (?:favorit[oa]|preferid[oa])"
    r"|(?:autore|autrice|scrittore|scrittrice|cantante|gruppo|band|artista|musicista|rapper"
    r"|compositore|compositrice|pittore|pittrice|attore|attrice|regista|giocatore|giocatrice"
    r"|pilota|atleta|calciatore|calciatrice|ciclista|streamer|youtuber|comico|filosof[oa]"
    r"|personaggio|eroe|eroina)"
    r" (?:preferit[oa]|del cuore|di sempre)|idolo(?: di sempre)?)"
    r"(?:\s+(?:ever|of all time|de tous les temps|de todos los tiempos|aller zeiten))?"
    r"(?:\s*:|\s+(?:is|was|are|est|c'est|es|ist|war|è|sono|sind|son))?\s+$",
    re.IGNORECASE,
)

# The same role said after the name, first in its clause: "Seve Ballesteros is their favourite
# golfer" ("Anna is their favourite teacher": a role a private person holds, not among them).
_FAVOURITE_AFTER = re.compile(
    r"\s+(?i:is|was)\s+(?i:their|his|her|my|our|the\s+user's|the\s+customer's)\s+"
    rf"(?i:favou?rite|all-time\s+favou?rite)\s+(?i:{_PUBLIC_ROLES_EN})(?![\w-])"
)
_CLAUSE_FIRST = re.compile(r"(?:^|[.;:!?\n]\s*)$")


def favourite_after(text: str, start: int, end: int) -> bool:
    """Whether a name first in its clause is then said to be the user's favourite public role."""
    begin = min(start, name_unit(text, start, end)[0])
    return (
        _CLAUSE_FIRST.search(text[max(0, begin - 4) : begin]) is not None
        and _FAVOURITE_AFTER.match(text, max(end, name_unit(text, start, end)[1])) is not None
    )


# Places named after someone, the place noun first in French, Spanish, German and Italian
# ("aéroport Charles de Gaulle", "aeropuerto Adolfo Suárez", "Flughafen Franz Josef Strauß",
# "Museum Ludwig", "Teatro alla Scala"), after the name in English ("Lincoln Center", "Charles
# de Gaulle airport": :data:`_NOUNS_AFTER`). English nouns that also come before a person
# ("the park Emma likes", "via Anna") are not among them.
_PLACE_BEFORE = re.compile(
    r"(?<!\w)(?:a[ée]roport|aeropuerto|aeroporto|flughafen|mus[ée]e|museo|museum|plaza"
    r"|piazza|platz|calle|avenida|viale|corso|stra(?:ß|ss)e|gare|estaci[óo]n|stazione|bahnhof"
    r"|stade|estadio|stadio|stadion|teatro|th[ée][âa]tre|theater|lyc[ée]e|liceo|colegio"
    r"|coll[èe]ge|[ée]cole|escuela|scuola|universidad|universit[ée]|universit[àa]|h[ôo]pital"
    r"|ospedale|krankenhaus|klinikum|parc|parque|parco|pont|puente|ponte|br[üu]cke|fondation"
    r"|fundaci[óo]n|fondazione|stiftung|institut|instituto|istituto|premio|prix|preis|coppa"
    r"|copa|torneo|tournoi|memorial|mémorial"
    # a town's district: "Abita a Bologna, zona Santo Stefano", "quartier Saint-Michel"
    r"|zona|quartiere|quartier|barrio|distrito|bezirk|stadtteil|viertel|district)"
    # no preposition between: "la escuela de Lucía" is her school
    r"\s+$",
    re.IGNORECASE,
)

# In English the place noun comes after the whole name, particles included ("Charles de
# Gaulle airport"; a reader may have taken only "Charles").
_REST_OF_NAME = re.compile(
    r"(?:\s+(?:(?:de|da|du|van|von|di|del|der|la|le)\s+)?(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*)*"
)
_PLACE_NOUN_AFTER = re.compile(
    r"\s+(?:airport|chapel|museum|gallery|stadium|arena|institute|foundation|prize|award"
    r"|trophy|memorial|cathedral)(?!\w)",
    re.IGNORECASE,
)

# A fictional character named before its role: "Perceval est son personnage préféré", "Ellie
# es su personaje favorito", "Homer is his favourite character".
_CHARACTER_AFTER = re.compile(
    r"\s+(?:is|was|est|es|ist|è)\s+(?:(?:my|his|her|their|our|son|sa|leur|su|sein|seine|ihr"
    r"|ihre|il suo|la sua|il mio|la mia|mi)\s+)?"
    r"(?:(?:favou?rite|all-time favou?rite|pr[ée]f[ée]r[ée]e?|favorit[oa]|preferit[oa]|liebste"
    r"|lieblings)\s*)?"
    r"(?:character|personnage|personaje|personaggio|figur|lieblingsfigur)"
    r"(?:\s+(?:favou?rite|pr[ée]f[ée]r[ée]e?|favorit[oa]|preferit[oa]|preferid[oa]))?(?!\w)",
    re.IGNORECASE,
)

# A saint's name opens a place, a church, a race or a brand ("San Donato Milanese", "Santa Cruz
# de Tenerife", "San Pellegrino", "Saint James") when it starts its capitalised run. Not
# after another capitalised word: "Lucía San Martín" is a person with a compound surname.
# Not "Santo" (an Italian given name: "Santo Bellini") nor "Santos" (a surname).
_SAINT = re.compile(
    r"(?-i:San|Santa|Sant['\u2019]|Saint|Sainte|Sankt|St\.|Ste\.|S[ãa]o)[ \u00a0-]"
    r"(?-i:[A-ZÀ-ÖØ-Þ])"
)


def _saint_place(text: str, start: int, end: int) -> bool:
    """Whether the span's capitalised run starts with a saint's name."""
    for begin in _starts(text, start, end):
        if _SAINT.match(text, begin) and not _CAPITALISED_BEFORE.search(
            text[max(0, begin - 40) : begin]
        ):
            return True
    return False


def _dish(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a dish's name: one capitalised word after a food noun,
    or a food noun and one capitalised word, ending its phrase."""
    span = text[start:end].rstrip()
    if not _DISH_END.match(text, start + len(span)):
        return False
    if len(span.split()) == 1 and _FOOD_BEFORE.search(text[max(0, start - 20) : start]):
        return True
    return _FOOD_FIRST.fullmatch(span) is not None


def _title_with_number(text: str, start: int, end: int) -> bool:
    """Whether a number of a title or a product line follows the span ("Baldur's Gate 3")."""
    match = _TITLE_NUMBER_AFTER.match(text, end)
    if match is None:
        return False
    return bool(match["poss"] or match["more"]) or len(text[start:end].split()) > 1


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
    if weekday_or_month(text, start, end):
        return True  # "every Oct, tenant ok": an apposition after a month names no one
    if relation_after(text, end):
        return False  # "Fan de Julie Martin, sa voisine": a person whatever came before
    if STREET_LAST.search(span) and ROUTE_BEFORE.search(text[max(0, start - 20) : start]):
        return True  # "Likes walking along Abbey Road": a street, no house number
    if _CLUB_LAST.search(span):
        return True  # "Supports Manchester United": a club
    if _ERA_AFTER.match(text, end) or _ERA_END.search(span):
        return True  # "Bill Evans-era piano trios", "a Wes Anderson-style poster"
    if (
        reads_as_lookalike(text, start, end)
        or _dish(text, start, end)
        or _title_with_number(text, start, end)
        or _CHARACTER_AFTER.match(text, end)
        or _saint_place(text, start, end)
    ):
        return True
    if _partitive(text, start, end):
        return True
    if any(
        _FAVOURITE_BEFORE.search(text[max(0, begin - 60) : begin])
        or _PLACE_BEFORE.search(text[max(0, begin - 30) : begin])
        for begin in _starts(text, start, end)
    ):
        return True
    rest = _REST_OF_NAME.match(text, end)
    if rest is not None and _PLACE_NOUN_AFTER.match(text, rest.end()):
        return True
    if (
        _WORKS_REFERRED_BACK.match(text, end)
        and _full_name(text, start, end)
        and not person_cue_before(text[max(0, start - 80) : start])
        and not _COMPANY_BEFORE.search(text[max(0, start - 12) : start])
    ):
        return True  # "Admire Victor Hugo et lit ses romans": a figure and their works
    if legend_figure(text, start, end):
        return True  # "verify the family story that they descend from Robert the Bruce"
    if product_line_named(text, start, end):
        return True  # "Colour formula is Wella Koleston 7/1", "gamme Kérastase Blond Absolu"
    if model_coded(text, start, end):
        return True  # "a Sky-Watcher Flextube 250P Dobsonian", "Sony WH-1000XM5 headphones"
    if favourite_after(text, start, end):
        return True  # "Seve Ballesteros is their favourite golfer"
    if (
        breed_before_animal(text, name_unit(text, start, end)[1])
        and not span.endswith(("'s", "\u2019s", "'", "\u2019"))
        and not person_cue_before(text[max(0, start - 80) : start])
    ):
        return True  # "a young Cavalier King Charles spaniel"; not "walks Anna's dog"
    if admired_figure(text, start, end):
        return True  # "Admires Marie Curie and enjoys books about women in science"
    if the_before_full_name(text, start, end):
        return True  # "At the Marriott Marquis always asks for room 1204"
    if authored_work(text, start, end):
        return True  # "Favourite song is '867-5309/Jenny' by Tommy Tutone"
    if _JOINED_MAKER_AFTER.match(after):
        return True  # "Ben" in "Ben & Jerry's ice cream"
    if span.endswith(("'s", "\u2019s")):
        after = span[-2:] + after
    elif (
        _POSSESSIVE.match(after) is None
        and (_NOUN_AFTER.match(after) or _MODEL_THEN_NOUN.match(after))
        and not kin_before(text[max(0, start - 80) : start])
    ):
        return True
    if _POSSESSIVE.match(after):
        if _MAKER_GOODS.match(after) and (
            _model_number_then_goods(after) or _JOINED_MAKER_BEFORE.search(text[:start])
        ):
            return True  # "Levi's 501 jeans", "Ben & Jerry's ice cream"
        # the NER model may take the surname alone ("Lionel Messi's matches": "Messi")
        begin = min(_starts(text, start, end))
        if _full_name(text, begin, end) and not any(
            person_cue_before(text[max(0, at - 80) : at]) for at in {start, begin}
        ):
            if _POSSESSIVE_PUBLISHED.match(after):
                return True  # "Jo Nesbø's Harry Hole novels", "Serena Williams's matches"
            if _POSSESSIVE_WORK.match(after) and any(
                _TAKING_IN_BEFORE.search(text[max(0, at - 40) : at]) for at in {start, begin}
            ):
                return True  # "Loves Frida Kahlo's paintings", not "Collects Anna Wood's"
        return _PHRASE_END.match(after) is not None
    return any(
        _CUE_BEFORE.search(text[max(0, begin - 80) : begin]) for begin in _starts(text, start, end)
    )


# French partitive "du" before a name is a brand bought, worn or drunk, never a person:
# "porte du Louis Vuitton", "Offre du Hermès,". The word before "du" is in lower case (a
# capitalised one makes "du" a surname particle: "Joachim du Bellay"), or it starts the
# sentence and the name ends its phrase.
_PARTITIVE = re.compile(r"(?:^|(?<=[.!?;:,\n])\s*|\s)(?P<word>[^\W\d_]+)\s+du\s+$")
_PHRASE_CLOSES = re.compile(r"\s*(?:$|[.,;:!?)])")


# A work by or of its creator after a full name in the possessive, with up to two modifiers
# between ("Frida Kahlo's paintings", "Mary Berry's classic recipes", "Jannik Sinner's
# matches", "Marie Kondo's folding method", "Warren Buffett's approach"). A relative's name
# stands there with a relationship word, which the callers read first ("her cousin Lorenzo's
# band"); a private person's things are no works ("Jane Doe's card", "Emma Schmidt's kids").
# A first name alone is not enough: "Emma's matches" may be a daughter's.
_PUBLISHED_WORKS = (
    r"novels|books|poems|poetry|essays|songs|albums|records|lyrics|music|films|movies|shows"
    r"|series|documentaries|docs|plays|operas|symphonies|cookbooks?|videos|podcasts?"
    r"|matches|games|races|fights|concerts|tours|speeches|lectures|talks|interviews|columns"
    r"|stand-up|comedy|comics|method|approach|philosophy|theories|teachings|career|memoirs"
    r"|biography|quotes|thrillers|mysteries|crime novels|detective novels"
)
# What a private person also makes and keeps, for a friend or a relative as for an artist
# ("Anna Wood's paintings", "a friend's photos"): a work only after a verb of taking in a
# public work ("loves Tove Jansson's illustrations", "cooks from Yotam Ottolenghi's
# recipes"); not after owning, collecting or keeping, which a private maker's works take too.
_PRIVATE_ABLE_WORKS = (
    r"paintings|portraits|sculptures|illustrations|drawings|cartoons|etchings|prints"
    r"|designs|collections?|style|ideas|work|works|art|artworks|photographs|photos"
    r"|stories|sketches|recipes|film"
)
_WORK_MODIFIERS = r"(?:\s+(?-i:[a-z][\w-]*)){0,2}?"
# A published kind may follow a title's capitalised words ("Jo Nesbø's Harry Hole novels").
_TITLE_MODIFIERS = r"(?:\s+(?:(?-i:[a-z][\w-]*)|(?-i:[A-ZÀ-ÖØ-Þ][\w'\u2019-]*))){0,3}?"
_POSSESSIVE_PUBLISHED = re.compile(
    rf"['\u2019]s?{_TITLE_MODIFIERS}\s+(?:{_PUBLISHED_WORKS})(?![\w-])"
)
_POSSESSIVE_WORK = re.compile(rf"['\u2019]s?{_WORK_MODIFIERS}\s+(?:{_PRIVATE_ABLE_WORKS})(?![\w-])")
_TAKING_IN_BEFORE = re.compile(
    r"(?<![\w'])(?i:loves?|adores?|admires?|likes?|enjoys?|reads?|re-reads?|studies|studied"
    r"|follows?|watches|listens to|cooks? from|bakes? from|copies|imitates|inspired by"
    r"|influenced by|fan of|a fan of|big fan of|obsessed with|into|visits? exhibitions of)"
    r"(?:\s+(?:all|every|most|some|the|of))*\s+$"
)
# A full name, then in the same sentence "and", a few words and the name's works in the third
# person's possessive: "Admire Victor Hugo et lit ses romans", "Sigue a Rafa Nadal y quiere
# alertas de sus partidos", "Bewundert Albert Einstein und liest seine Bücher", "Reads Jo
# Nesbø and all his thrillers". A figure the user follows through what they publish or play;
# a relative's name has its relationship word before it, which decides first.
_PUBLISHED_WORKS_FR_ES_DE_IT = (
    r"romans|livres|films|chansons|albums|disques|matchs|courses|concerts|spectacles|tableaux"
    r"|po[èe]mes|vid[ée]os|podcasts|discours|essais"
    r"|novelas|libros|pel[íi]culas|canciones|discos|partidos|carreras|conciertos|cuadros"
    r"|poemas|v[íi]deos|ensayos"
    r"|romane|b[üu]cher|filme|lieder|alben|spiele|rennen|konzerte|bilder|gedichte|videos"
    r"|romanzi|libri|film|canzoni|dischi|partite|gare|concerti|quadri|poesie|video|saggi"
)
_WORKS_REFERRED_BACK = re.compile(
    r"\s*,?\s+(?i:and|et|y|e|und)(?:\s+[^\W\d_][\w'\u2019-]*){0,4}?"
    r"\s+(?i:his|her|their|all\s+(?:his|her|their)|ses|leurs|tous\s+ses|sus|todos\s+sus"
    r"|seine|seinen|ihre|ihren|alle\s+(?:seine|ihre)|i\s+suoi|le\s+sue|suoi|sue)"
    r"(?:\s+(?-i:[a-z][\w-]*)){0,2}?"
    rf"\s+(?i:{_PUBLISHED_WORKS}|{_PUBLISHED_WORKS_FR_ES_DE_IT})(?![\w-])"
)
# Someone met, not followed: "had coffee with Anna Berg and read her poems".
_COMPANY_BEFORE = re.compile(r"(?<![\w'])(?i:with|avec|chez|con|mit|bei)\s+$")
_FULL_NAME = re.compile(
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*(?:\s+(?:(?:van|von|de|da|di|del|der|du|la|le)\s+)?"
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*)+"
)
# A name as a style or a period: "Bill Evans-era", "Wes Anderson-style", "Hitchcock-esque".
_ERA = r"era|style|esque|inspired|themed|mania|vibes?"
_ERA_AFTER = re.compile(rf"-(?:{_ERA})(?![\w-])", re.IGNORECASE)
_ERA_END = re.compile(rf"-(?:{_ERA})$", re.IGNORECASE)


# A maker's name in the possessive, then its goods: "Levi's 501 jeans", "Ben & Jerry's ice
# cream". A person's things are said so too ("Laura's jacket"): only a model number before
# the noun, or two names joined by "&" (a firm's name), make it a maker's.
_MAKER_GOODS = re.compile(
    # a model: letters and a digit, or three digits ("501"); not a count ("2 jackets")
    r"^['\u2019]s?(?P<model>\s+(?:[A-Za-z]+\d[\w-]*|\d{3,}[\w-]*))?"
    rf"{_WORK_MODIFIERS}\s+(?:{_NOUNS_AFTER}|{_GROCERIES})(?!\w)",
    re.IGNORECASE,
)
_JOINED_MAKER_AFTER = re.compile(
    r"^\s+&\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w-]*(?:['\u2019]s?)?(?:\s+[A-Za-z]*\d[\w-]*)?"
    rf"{_WORK_MODIFIERS}\s+(?:{_NOUNS_AFTER}|{_GROCERIES})(?!\w)",
    re.IGNORECASE,
)
_JOINED_MAKER_BEFORE = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*\s+&\s+$")


def _model_number_then_goods(after: str) -> bool:
    match = _MAKER_GOODS.match(after)
    return match is not None and match["model"] is not None


def _full_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (a possessive aside) is two capitalised words or more."""
    span = re.sub(r"['\u2019]s?$", "", text[start:end].strip())
    return _FULL_NAME.fullmatch(span) is not None


def _partitive(text: str, start: int, end: int) -> bool:
    match = _PARTITIVE.search(text[max(0, start - 40) : start])
    if match is None:
        return False
    word = match["word"]
    if word.islower():
        return True
    head = text[: max(0, start - 40) + match.start("word")].rstrip()
    return (not head or head[-1] in ".!?;\n") and _PHRASE_CLOSES.match(text, end) is not None


def _starts(text: str, start: int, end: int) -> list[int]:
    """Where the brand may start: at the span, up to two capitalised words before it
    ("Johnnie Walker Black"), or up to two words into it when the name reader took the
    context in ("Lit Annie Ernaux", "Viste de Pedro del Hierro"). Not three: "Großer Fan von
    Hans-Peter Lindqvist" (a private person in names_e) is refused with "Boris Becker"."""
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


# The role a full name plays in its clause: the object of admiration, fandom, reading or
# listening, right after the clause's verb ("Admires Marie Curie and enjoys books about",
# "Es fan de Rafa Nadal", "Ama Leonardo da Vinci e va", "Bewundert Franziska van Almsick",
# "because she loves Miles Davis"). A note's user admires a private person through a
# relationship word ("admires her coach Ana Pérez"), which the callers read first; a name in
# this role without one is a public figure. It fails closed where the role does not hold the
# name alone: a single word ("Grande fan di Chiara-Maria", "Passionné par Napoléon"), a name
# in lower case, a platform after it ("Follows Nguyen Thi Lan on Twitch": a creator who may be
# private), a relative clause after it, a possessive before a lower-case noun ("Loves Ana
# Pérez's cooking": a person's thing). The cost: a private person admired by full name alone
# ("Admires Ana Pérez") passes; no seen note or corpus note is so written.
_CLAUSE_START = (
    r"(?:^|(?<=[.;:!?\n,(\u2013\u2014])\s*|(?<![\w'])(?:and|but|because|so|et|mais|car|parce que"
    r"|y|pero|porque|e|ma|perch[ée]|und|aber|weil|denn)\s+)"
)
_SUBJECT = (
    r"(?:(?:she|he|they|(?:the\s+)?(?:user|customer|client|kids|children)|elle|il|ils"
    r"|le\s+client|la\s+cliente|les\s+enfants|los\s+ni[ñn]os|die\s+kinder|i\s+bambini"
    r"|l['\u2019]utilisat(?:eur|rice)|ella|[ée]l|el\s+cliente|la\s+clienta|el\s+usuario"
    r"|la\s+usuaria|sie|er|der\s+kunde|die\s+kundin|lei|lui|il\s+cliente|l['\u2019]utente)\s+)?"
)
_DEGREE = (
    r"(?:(?:really|still|also|always|truly|deeply|greatly|absolutely|genuinely|vraiment|aussi"
    r"|toujours|beaucoup|muy|mucho|tambi[ée]n|siempre|realmente|sehr|auch|immer|wirklich"
    r"|molto|anche|sempre|davvero)\s+){0,2}"
)
# A fan's noun with its copula and its size: "is a big fan of", "es muy aficionado a", "ist
# großer Fan von", "è un grande appassionato di", "est passionné par".
_FAN = (
    r"(?:(?:is|'s|est|es|ist|[èe])\s+)?(?:(?:a|an|un|une|una|ein|eine|muy|tr[èe]s|very|big|huge"
    r"|great|massive|lifelong|grand|grande|gran|gro(?:ß|ss)er|gro(?:ß|ss)e|riesiger)\s+){0,3}"
    r"(?:fan|aficionad[oa]|admirador(?:a)?|seguidor(?:a)?|passionn[ée]e?|appassionat[oa]"
    r"|tifos[oa]|ammirat(?:ore|rice)|admirer|devotee|begeistert"
    # the admirer's and the reader's nouns of the verbs below ("Grand admirateur de", "Grand
    # lecteur d'", "un grande estimatore di")
    r"|admirat(?:eur|rice)|lect(?:eur|rice)|lector(?:a)?|lettor(?:e|rice)|estimat(?:ore|rice))"
    # and the faithful one's adjective after the noun ("Lectrice fidèle de")
    r"(?:\s+(?:fid[èe]le|assidue?|fedele|fiel))?"
    r"\s+(?:of|de|del|a|al|di|von|vom|par|d['\u2019])"
)
_ADMIRING = (
    # (not mere liking, "likes", "aime", "mag", "le gusta": "Likes Tommy Hilfiger" is said
    # of a friend too, and stays refused)
    r"(?:admires?|adores?|loves?|idoli[sz]es?|worships?|reveres?|follows?|reads?"
    r"|re-?reads?|listens\s+to|supports?|obsessed\s+with|inspired\s+by"
    r"|admire|adore|lit|relit|[ée]coute|suit|soutient|v[ée]n[èe]re"
    r"|admirent|adorent|admiran(?:\s+a)?|adoran(?:\s+a)?|aman\s+a|bewundern|lieben"
    r"|ammirano|adorano|amano"
    r"|admira(?:\s+a)?|adora(?:\s+a)?|ama(?:\s+a)?|sigue\s+a|lee\s+a|(?:est[áa]\s+)?leyendo\s+a"
    r"|escucha\s+a|(?:le|les)\s+(?:encanta|encantan|fascina|fascinan)"
    r"|bewundert|verehrt|liebt|liest|h[öo]rt(?:\s+gern)?|folgt"
    r"|ama|adora|ammira|legge|ascolta|segue|tifa\s+per"
    rf"|{_FAN})"
)
# A degree said after the verb, the preposition of its object repeated ("Admira muchísimo a").
_DEGREE_AFTER = (
    r"(?:\s+(?:much[íi]simo|molt[íi]ssimo|tanto|beaucoup|énormément|sehr|so\s+much|a\s+lot)"
    r"(?:\s+(?:a|al))?)?"
)
# A full name already listed in the same role: "Reads Jo Nesbø and Henning Mankell"; the
# preposition repeated after the conjunction ("Admira a Seve Ballesteros y a Jon Rahm").
_ADMIRED_LISTED = (
    r"(?:(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*(?:\s+(?:(?:van|von|de|da|di|del|der|du|la|le)\s+)?"
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*)*\s*(?:,|\s(?:and|et|y|e|und|&))"
    r"(?:\s+(?:a|al|de|di|d['\u2019]))?(?:\s+|(?<=['\u2019]))){0,3}"
)
_ADMIRED_BEFORE = re.compile(
    rf"{_CLAUSE_START}{_SUBJECT}{_DEGREE}{_ADMIRING}{_DEGREE_AFTER}(?:\s+|(?<=['\u2019]))"
    rf"{_ADMIRED_LISTED}$",
    re.IGNORECASE,
)
# What makes the name someone met or kept in touch with: a platform or a place after it
# ("on Twitch", "at the gym", "su Instagram"), a relative clause ("who lives next door").
_MET_AFTER = re.compile(
    r"(?:['\u2019]s)?\s*,?\s*(?:(?i:at|bei|chez|au|with|avec|con|mit)\s+\S"
    r"|(?i:on|sur|en|su|auf|via|from|in|na|de)\s+(?:(?i:the|le|la|el|il|der|die|das)\s+)?"
    r"(?-i:[A-ZÀ-ÖØ-Þ])|(?i:who|whom|qui|que|quien|quienes|der|die|che|dont|whose)\b)"
)
# A possessive before a word spelled as a maker spells it ("Adrian Bowyer's RepRap project",
# "Elon Musk's SpaceX launches"): a public venture; any other possessive may be a person's.
_WORD_CHAR = re.compile(r"[^\W_]")
_POSSESSIVE_VENTURE = re.compile(r"['\u2019]s?\s+(?:[A-Z][a-z]+[A-Z]|[A-Z]{2,})[\w-]*")


def admired_figure(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a full name in the role of a public figure: the object
    of admiring, following, reading or listening, first in its clause (see above)."""
    # The finders may hold only a given name ("Franziska" of "Franziska van Almsick") or take
    # the verb in ("Ist Fan von Helene Fischer"): the name runs to its unit's end, and may
    # begin at any word of the span.
    end = max(end, name_unit(text, start, end)[1])
    inner = [match.start() for match in re.finditer(r"(?<!\S)\S", text[start:end])]
    for begin in sorted({*_starts(text, start, end), *(start + at for at in inner)}):
        if not _full_name(text, begin, end):
            continue
        window = max(0, begin - 120)
        role = _ADMIRED_BEFORE.search(text[window:begin])
        if role is None:
            continue
        if person_cue_before(text[max(0, begin - 80) : begin]):
            return False
        stop = end - 2 if text[start:end].endswith(("'s", "\u2019s")) else end
        after = text[stop:]
        if _MET_AFTER.match(after):
            return False
        if not _WORD_CHAR.search(text[: window + role.start()]) and not _WORD_CHAR.search(
            after.lstrip("'\u2019s")
        ):
            # The note is the role and the name alone ("Muy fan de Nerea Etxeberria.",
            # "Großer Fan von Hans-Peter Lindqvist.", private people in names_e): nothing
            # followed through the name, nothing the preference is for; refused.
            return False
        return not (_POSSESSIVE.match(after) and not _POSSESSIVE_VENTURE.match(after))
    return False


# A work, then its author: a quoted title or a published kind right before "by" ("'867-5309/
# Jenny' by Tommy Tutone", "the novel Beloved by Toni Morrison"). What a private person also
# makes (paintings, photos, cakes) and the agents of a passive ("led by", "coached by") are
# not among them.
_AUTHORED_BEFORE = re.compile(
    r"(?:['\"\u2019\u201d\u00bb]|(?<![\w'])(?i:song|album|track|single|record|novel|book|film"
    r"|movie|symphony|opera|poem|podcast|series|comic|memoir|play|musical|thriller)s?"
    r"(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'\u2019-]*){0,4})\s+(?i:by)\s+$"
)


def authored_work(text: str, start: int, end: int) -> bool:
    """Whether a full name is a work's author, right after the work and "by"."""
    return (
        _full_name(text, start, end)
        and _AUTHORED_BEFORE.search(text[max(0, start - 80) : start]) is not None
        and not person_cue_before(text[max(0, start - 80) : start])
        and not _MET_AFTER.match(text, end)
    )


# A title only a person bears, after a verb of eating, drinking or wearing: the title is a
# brand's ("Drinks Dr Pepper", "Isst nach dem Training gern Dr. Oetker", "Wears Dr. Martens").
# No one is eaten or worn; a person met over a meal comes with a preposition ("Eats lunch
# with Dr. Shah"), which stops it.
_CONSUMED_TITLE_BEFORE = re.compile(
    r"(?<![\w'])(?i:drinks?|eats?|wears?|boit|mange|porte|bebe|come|viste|trinkt|isst|tr[äa]gt"
    r"|beve|mangia|indossa)"
    r"(?:\s+(?!(?i:with|avec|con|mit|bei|for|f[üu]r|para|pour|per|at|chez|by|von|de|di|da)\b)"
    r"[\w'\u2019-]+){0,4}?\s+(?i:dr|dr\.)\s*$"
)


def consumed_title(before: str) -> bool:
    """Whether ``before`` ends with a verb of eating, drinking or wearing and a "Dr" title."""
    return _CONSUMED_TITLE_BEFORE.search(before[-80:]) is not None


# "The" right before a full name: a hotel, a card, a race, a university, a landmark ("At the
# Marriott Marquis", "Shares the Capital One Venture X", "the Monaco Grand Prix"). A person's
# full name takes no article; a family does, with its noun after ("the Okoro family", "the
# Okoros"), which stays a person's, and so does a single word ("the Hoffmanns").
_THE_BEFORE = re.compile(r"(?<![\w'])(?i:the)\s+$")
_FAMILY_AFTER = re.compile(
    r"(?:['\u2019]s?)?\s+(?i:family|families|household|twins|kids|children|couple|clan|brothers"
    r"|sisters|boys|girls)(?![\w'])"
)


def the_before_full_name(text: str, start: int, end: int) -> bool:
    """Whether a full name has "the" right before it and no family noun after it, nor any
    lower-case noun: "The Ivan Golubev version recorded..." is a person's version (a word of
    a closed class or an adverb may follow: "At the Marriott Marquis always asks")."""
    following = _LOWER_WORD_AFTER.match(text, end)
    if following is not None and not (
        following["word"] in FUNCTION_WORDS or following["word"].endswith("ly")
    ):
        return False
    return (
        _full_name(text, start, end)
        and _THE_BEFORE.search(text[max(0, start - 8) : start]) is not None
        and _FAMILY_AFTER.match(text, end) is None
        and not person_cue_before(text[max(0, start - 80) : start])
    )


_LOWER_WORD_AFTER = re.compile(r"(?:['\u2019]s)?\s+(?P<word>(?-i:[a-zß-ÿ])[\w'\u2019-]*)")


# A claimed descent or kinship inside a family legend that the note means to verify: "Wants
# to verify the family story that they descend from Robert the Bruce", "Une légende familiale
# la rattache à Jean de La Fontaine ; veut la faire vérifier", "ob die Familienüberlieferung
# einer Verwandtschaft mit Martin Luther stimmt", "la leggenda di famiglia che li lega a
# Giuseppe Verdi". A legend handed down about an ancestor names a historical figure; a living
# relative is named with a relationship word ("my uncle John Smith"), which decides first, and
# is no legend to verify. All three are needed: the legend noun, the link right before the
# name, and a verb of checking in the note. The cost: a private ancestor so named passes.
_LEGEND = re.compile(
    r"(?<![\w'])(?i:family\s+(?:story|legend|lore|myth|tradition|tale)"
    r"|(?:l[ée]gende|histoire|tradition|rumeur)\s+familiale|Familien(?:[üu]berlieferung"
    r"|legende|sage|geschichte|tradition|mythos)"
    r"|(?:leggenda|storia|tradizione)\s+(?:di\s+famiglia|familiare)"
    r"|(?:leyenda|historia|tradici[óo]n)\s+(?:familiar|de\s+familia))"
)
_DESCENT_BEFORE = re.compile(
    r"(?<![\w'])(?i:descend(?:s|ed|ing)?\s+from|(?:is|are|were|was|being)\s+related\s+to"
    r"|kin(?:ship)?\s+(?:to|with)|descendants?\s+of|rattach(?:e|ent)\s+[àa]|descend(?:ent)?\s+de"
    r"|parent[ée]s?\s+(?:avec|[àa])|Verwandtschaft\s+mit|verwandt\s+mit|Abstammung\s+von"
    r"|abstamm(?:en|t)\s+von|leg(?:a|ano)\s+a|discend(?:e|ono|ere)\s+da|imparentat[oaie]\s+con"
    r"|desciend(?:e|en)\s+de|emparentad[oa]s?\s+con)"
    r"(?:\s+(?i:the|le|la|l['\u2019]|der|dem|den|il|lo|el))?\s+$"
)
_CHECKING = re.compile(
    r"(?<![\w'])(?i:verify|verified|check|confirm|prove|find\s+out|v[ée]rifi\w*|confirm\w*"
    r"|pr[üu]f\w*|[üu]berpr[üu]f\w*|nachweis\w*|stimmt|verific\w*|comprob\w*|accert\w*)(?!\w)"
)


def legend_figure(text: str, start: int, end: int) -> bool:
    """Whether a name is the ancestor a family legend claims, in a note meant to verify it."""
    unit_start = min(start, name_unit(text, start, end)[0])
    for begin in sorted({start, unit_start}):
        window = text[max(0, begin - 120) : begin]
        window = re.split(r"[.!?\n]", window)[-1]
        link = _DESCENT_BEFORE.search(window)
        if link is None or person_cue_before(window):
            continue
        if _LEGEND.search(window[: link.start()]) is None:
            continue
        if _POSSESSIVE.match(text[end:]) or _MET_AFTER.match(text[end:]):
            continue
        if _CHECKING.search(text) is not None:
            return True
    return False


# A maker and its product line after a noun of a formula or a product range, or after a verb
# of wearing and a plural article: "Colour formula is Wella Koleston 7/1", "gamme Kérastase
# Blond Absolu", "Porte des Ray-Ban Clubmaster". No person is a formula or a range, and none
# is worn in the plural; two capitalised words at least (a maker and its line), no
# possessive after. A person a line is named for is no case: "a shade called Anna" has its
# naming verb, which decides first.
_LINE_NOUN_BEFORE = re.compile(
    r"(?<![\w'])(?i:(?:colou?r\s+|hair\s+|dye\s+)?formula|product\s+line|range|gamme|formule"
    r"|gama|f[óo]rmula|l[íi]nea\s+de\s+productos|Produktlinie|Pflegeserie|Formel|Rezeptur"
    r"|gamma|linea\s+di\s+prodotti)"
    r"(?:\s*:|\s+(?i:is|est|es|ist|[èe]|was))?\s+$"
)
_WORN_PLURAL_BEFORE = re.compile(
    r"(?<![\w'])(?i:porte|portent|met|ach[eè]te|ach[eè]tent|indossa|indossano|porta|portano"
    r"|lleva|llevan|usa|usan|compra|compran)\s+(?i:des|dei|degli|delle|unos|unas)\s+$"
)


def product_line_named(text: str, start: int, end: int) -> bool:
    """Whether a name-like span is a maker's product line after a formula or range noun, or
    worn in the plural (see above)."""
    if _POSSESSIVE.match(text[end:]) or relation_after(text, end):
        return False
    if model_coded(text, start, end):
        return True
    unit_start, unit_end = name_unit(text, start, end)
    for begin in sorted({start, unit_start}):
        before = text[max(0, begin - 40) : begin]
        if not (_LINE_NOUN_BEFORE.search(before) or _WORN_PLURAL_BEFORE.search(before)):
            continue
        if person_cue_before(text[max(0, begin - 80) : begin]):
            continue
        run = text[begin : max(end, unit_end)]
        capitalised = [w for w in run.split() if w[:1].isupper()]
        if len(capitalised) >= 2:
            return True
    return False


# A maker's model code in a name's run: one word of capital letters and digits ("Flextube
# 250P", "Evostar 80ED", "WH-1000XM5", "IQ8", "A4"). No person's name holds one. A bare
# number ("Sun Odyssey 349", "Anna Weber 31"), a time or an ordinal ("5pm", "2nd": lower
# case) and a decimal or a date ("12.05") are no code.
_MODEL_CODE = re.compile(
    r"(?<![\w'\u2019.-])(?:[A-Z]+-?\d[\dA-Z]*|\d+-?[A-Z][\dA-Z]*|[A-Z]+-\d+[A-Z]+\d*)"
    r"(?![\w'\u2019.-])"
    # a ratio of two numbers of three or four digits, never a date nor a file number of a
    # year ("Sky-Watcher 200/1000"; not "12/05/2024", "120/2024")
    r"|\d{3,4}/(?!(?:19|20)\d\d(?!\d))\d{3,4}"
)
# A number then a rating's unit, in the run ("Pure-R 430 Wp", "Vario 2000 W").
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_RATING = re.compile(r"(?:k?Wp?|mAh|Ah)[.,;:!?)]?")

_POSTCODE_REST = re.compile(r"\d[A-Z]{2}")


def model_coded(text: str, start: int, end: int) -> bool:
    """Whether the span's name run holds a model code (see above) after a capitalised word of
    the run, with no person cue before it and no relation or possessive after it."""
    unit_start, unit_end = name_unit(text, start, end)
    begin, stop = min(start, unit_start), max(end, unit_end)
    # (with what is glued to the run's end: "200" of "200/1000")
    glued = text[stop:].split(None, 1)[0] if text[stop : stop + 1].strip() else ""
    words = (text[begin:stop] + glued).split()
    codes = [
        i
        for i, word in enumerate(words)
        if _MODEL_CODE.fullmatch(word.rstrip(".,;:!?)"))
        or (_NUMBER.fullmatch(word) and i + 1 < len(words) and _RATING.fullmatch(words[i + 1]))
    ]
    after = [*words[1:], text[stop:].split(maxsplit=1)[0] if text[stop:].split() else ""]
    if any(_POSTCODE_REST.fullmatch(after[i].strip(".,;:!?)")) for i in codes):
        return False  # "Bristol BS6 7PL": an outward code, then the inward one
    if not codes or not any(w[:1].isupper() and w[1:2].islower() for w in words[: codes[0]]):
        return False
    if person_cue_before(text[max(0, begin - 80) : begin]) or relation_after(text, stop):
        return False
    return _POSSESSIVE.match(text, stop) is None
