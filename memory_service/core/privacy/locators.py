"""Values with a syntax of their own: e-mail addresses, social handles, IP and MAC addresses,
GPS coordinates, licence plates and gamer tags (entity types ``EMAIL_ADDRESS``,
``SOCIAL_HANDLE``, ``IP_ADDRESS``, ``MAC_ADDRESS``, ``GPS_COORDINATES``, ``LICENSE_PLATE``,
``GAMER_TAG``).

Read on the normalised note (:mod:`memory_service.core.privacy.normalise`), so a spelled or
fullwidth address is already plain here. Private, loopback and link-local IP addresses name
a server, not a person, and pass; "@here", "@channel" and "@everyone" are not handles; a
plate shape whose letters are a currency or a unit ("1040 CHF") is a price.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from memory_service.core.lexicons import DEFAULT_LEXICONS
from memory_service.core.privacy.plates import plate_in
from memory_service.core.privacy.vocabulary import (
    ALIAS_CUES,
    CREDENTIAL_FIELD_KEYS,
    HARMLESS_NUMBER_NOUNS,
    ORGANISATION_CUES,
    PAYMENT_APPS,
    PERSON_KEY_WORDS,
    PERSONAL_FIELD_BARE_KEYS,
    PERSONAL_FIELD_KEYS,
    PERSONAL_PAGE_HOSTS,
    PLACEHOLDER_VALUES,
    PROFILE_HOST_PAGES,
    PROFILE_HOSTS,
    UNITS,
)

_UNITS = frozenset(UNITS)
_HARMLESS_NOUNS = frozenset(HARMLESS_NUMBER_NOUNS) | {"issue", "ticket", "pr", "bug", "case"}
_INTERNAL_NETWORKS = tuple(
    ipaddress.ip_network(net)
    for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "100.64.0.0/10")
)

_EMAIL = re.compile(
    r"(?<![\w.+-])[a-z0-9][a-z0-9._%+-]{0,63}@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}(?![\w])",
    re.I,
)
_URL_USERINFO = re.compile(r"[a-z][a-z0-9+.-]*://[^\s/@]*@", re.I)
_HANDLE = re.compile(r"(?<![\w@.])@([a-z0-9_](?:[a-z0-9_.]{0,28}[a-z0-9_])?)(?![\w@])", re.I)
# A gamer tag with its discriminator, "#" and 4 or 5 digits glued to the name
# ("Shadowfox#4821", "NightOwl#21934": Discord, Battle.net). A label before a spaced "#"
# ("ticket #4521") is not one; a noun that numbers a thing ("issue#1234") neither.
_TAGGED_NAME = re.compile(r"(?<![\w@#./-])([A-Za-z][A-Za-z0-9_.-]{1,31})#\d{4,5}(?![\w#])")
# A user name after the network or game platform it belongs to ("PSN: Wolfie_1987", "Xbox
# gamertag: xXSniperXx", "Riot ID: Faker#KR1", "Discord, luna.moth"): one token that ends
# the clause and has the shape of a user name, not of a word: a digit after letters, an
# underscore or a dot inside, capitals inside, or a "#" tag.
_PLATFORM = (
    r"discord|steam|psn|playstation(?:\s+network)?|xbox(?:\s+live)?|gamertag|battle\.?net"
    r"|riot|epic(?:\s+games)?|twitch|instagram|insta|tiktok|snapchat|snap|twitter|telegram"
    r"|threads|mastodon|bluesky|reddit|github|gitlab|kick|nintendo|roblox|minecraft|origin"
    r"|uplay|ubisoft|ea|lichess|chess\.com|skype|wechat|line|kik|signal|youtube|facebook"
    r"|linkedin|pinterest|tumblr|bluesky|bereal|vk|soundcloud|spotify|strava|duolingo"
    r"|letterboxd|goodreads|vinted|ebay|itch\.io|osu|faceit|valorant|fortnite|league"
)
_ACCOUNT_WORDS = (
    r"name|handle|tag|gamertag|user\s?name|username|account|pseudo|usuario|nombre|nome"
    r"|nick(?:name)?|como|come|als|as|heisst|heißt|si chiama|se llama|s'appelle"
)
_PLATFORM_HANDLE = re.compile(
    rf"(?<![\w.])(?i:{_PLATFORM})(?:\s+(?i:id|tag|gamertag|username|user\s?name|name|handle"
    r"|pseudo|usuario|nome\s+utente|nick(?:name)?|account|compte|cuenta|konto))?"
    r"(?:\s+(?i:is|est|es|ist|lautet|e|è))?\s*[:,=]?\s+(?i:@)?"
    r"(?P<name>[A-Za-z0-9][A-Za-z0-9_.#-]{2,31})\s*(?:$|[.;!?\n)(]|,\s)"
)
# A user name said as a person's name on a platform: the platform ("on Steam", "sur Insta",
# "auf X"), who ("the user", "she", "mi hermano") and a verb that names ("is", "goes by",
# "s'appelle", "se llama", "heißt", "si chiama"), then one token that ends the clause ("On
# Steam the user is grimblewick", "On X she is maxmustermann_88 (no at-sign)"); or the same
# with the platform after the token ("She goes by pixelfox on Discord").
_ON = r"on|sur|en|auf|bei|su|in|im|di|sobre"
_WHO = (
    r"the [^\W\d]+|user|she|he|they|i|we|il|elle|ils|elles|je|on|el usuario|ella|el"
    r"|ellos|yo|er|sie|ich|wir|lui|lei|loro|io|l'utente|l'utilisateur|der nutzer|die nutzerin"
    r"|(?:my|his|her|their|mon|ma|son|sa|leur|mi|su|mein\w*|sein\w*|ihr\w*|il mio|la mia|il suo"
    r"|la sua|mio|mia|suo|sua)\s+[^\W\d]+"
)
_NAMING = (
    r"(?P<naming>goes by|is known as|is called|est connue? comme|es conocid[oa] como"
    r"|ist bekannt als|e conosciut[oa] come|calls (?:him|her|them)sel(?:f|ves)|posts as"
    r"|plays as|streams as|shows up as|appears as|logs in as|signs in as|se fait appeler"
    r"|s'appelle|joue sous le nom de|poste sous le nom de|se llama|aparece como|juega como"
    r"|publica como|firma como|heisst|heißt|nennt sich|spielt als|postet als|si chiama"
    r"|si fa chiamare|gioca come|pubblica come|compare come|as|als|como|come|comme)"
    r"|(?P<being>is|was|est|es|ist|e|era|war|etait|c'est|c'etait)"
)
_HANDLE_TOKEN = r"(?i:@)?(?P<name>[A-Za-z0-9][A-Za-z0-9_.#-]{2,31})"
_HANDLE_END = r"\s*(?:$|[.;!?\n)(]|,\s)"
_PLATFORM_OR_X = rf"(?:(?i:{_PLATFORM})|X)"
_ON_PLATFORM_NAMED = re.compile(
    rf"(?<![\w.])(?i:{_ON})\s+{_PLATFORM_OR_X}(?![\w]|\.\w)\s*,?\s+(?i:(?:{_WHO}),?\s+)?"
    rf"(?i:{_NAMING})\s+(?i:(?:{_WHO})\s+)?{_HANDLE_TOKEN}{_HANDLE_END}"
)
# The same with the clause going on after the token ("Sells on eBay as gilt_and_grain_uk and
# wants ..."): only a token shaped like a user name (see :func:`_user_name`) is one there.
_ON_PLATFORM_NAMED_ON = re.compile(
    rf"(?<![\w.])(?i:{_ON})\s+{_PLATFORM_OR_X}(?![\w]|\.\w)\s*,?\s+(?i:(?:{_WHO}),?\s+)?"
    rf"(?i:{_NAMING})\s+(?i:(?:{_WHO})\s+)?{_HANDLE_TOKEN}(?![\w#-])"
)
_NAMED_ON_PLATFORM = re.compile(
    rf"(?<![\w.])(?i:{_NAMING})\s+{_HANDLE_TOKEN}\s+(?i:{_ON})\s+{_PLATFORM_OR_X}(?![\w]|\.\w)"
)
# Words said of a person on a platform that are no name: a state ("is active", "est
# banni"), a role ("is admin"); and the endings of adjectives and participles ("inactive",
# "famous", "connected", "bekannt", "conocido").
_STATE_WORDS = frozenset(
    {"online", "offline", "active", "inactive", "banned", "new", "pro", "premium", "free",
     "private", "public", "quiet", "silent", "anonymous", "live", "busy", "away", "invisible",
     "verified", "famous", "popular", "admin", "mod", "moderator", "member", "streamer",
     "player", "gamer", "there", "here", "everywhere", "nobody", "someone", "hooked", "fine",
     "huge", "big", "small", "good", "bad", "great", "top", "level", "ranked", "blocked",
     "muted", "friends", "actif", "inactif", "banni", "connecte", "activo", "inactivo",
     "aktiv", "inaktiv", "gesperrt", "attivo", "bannato", "nuevo", "nouveau", "neu", "nuovo",
     "everyone", "anyone", "always", "never", "often", "mostly", "too", "also", "still",
     "nice", "cute", "rare", "late", "sure", "alone", "awesome", "mature", "rude",
     "home", "done", "gone", "bored", "timide", "discrete", "celebre", "libre",
     "solo", "sola", "muy", "molto", "sehr", "tres", "trop", "der", "die", "das", "ein",
     "eine", "un", "une", "una", "uno", "il", "lo", "la", "le", "el", "secret", "secrete",
     "unknown", "inconnu", "same", "different", "long", "short", "simple", "easy", "hard",
     "funny", "weird", "old", "cool", "taken", "changed", "forgotten", "secreto", "geheim",
     "segreto", "lang", "kurz", "corto", "lungo", "court"}
)  # fmt: skip
_PREDICATE_ENDING = re.compile(
    r"(?:ive|ous|ful|less|able|ible|al|ic|ed|ing|ly|ent|ant|ary|ish|ile|ual|eux|euse|ique"
    r"|if|ifs|ee|ees|ado|ada|ido|ida|ivo|iva|oso|osa|ig|lich|isch|bar|los|voll|end"
    r"|iert|ato|ata|ito|ita|ale|ente|ante|est|ist|ier|iere|ieren)$"
)
MIN_NAMED_CHARS = 4
# The platform's name with whose it is between it and the colon ("pseudo Twitch du joueur :
# LeRoiDuClutch", "discord del jugador: elmanco_420 (…)", "Steam of my nephew: Kx_Wolf").
_OWNED_PLATFORM_HANDLE = re.compile(
    rf"(?<![\w.])(?i:{_PLATFORM})(?:\s+(?i:du|de|del|della|dello|des|of|von|vom|der|di|da|d'"
    r"|la|le|el|il|my|his|her|their|mon|ma|son|sa|mi|su|mein\w*|sein\w*|ihr\w*|suo|sua|mio"
    r"|mia)){1,2}\s*[^\W\d]+\s*:\s+(?i:@)?"
    r"(?P<name>[A-Za-z0-9][A-Za-z0-9_.#-]{2,31})\s*(?:$|[.;!?\n)]|,\s|\()"
)
# A name in quotes after a platform and a word that names the account ("Mastodon account
# ..., name is 'quietbyte'", "Gamer tag on Steam is 'the pale ferryman'", "En Twitch
# retransmite como «la abuela gamer»"): whatever its shape, the quotes say it is the name.
_QUOTED_HANDLE = re.compile(
    rf"(?<![\w.])(?:(?i:{_PLATFORM})[^.;!?\n]{{0,40}}?(?<![\w])(?i:{_ACCOUNT_WORDS})"
    rf"|(?i:{_ACCOUNT_WORDS})[^.;!?\n]{{0,20}}?(?<![\w])(?i:{_PLATFORM}))(?![\w])"
    r"[^.;!?\n\"'\u00ab\u201c]{0,30}[\"'\u00ab\u201c]\s*[^\s\"'\u00bb\u201d][^\"'\u00bb\u201d\n]{1,30}"
    r"[\"'\u00bb\u201d]"
)
_GROUP_MENTIONS = frozenset({"here", "channel", "everyone", "all", "team", "home"})
# A username without its "@": parts joined by underscores, upper and lower case both present
# ("ZanzaraNera_it", "Dark_Knight99", "xX_Sniper_Xx"), as gamer tags and account names are
# written. Not snake_case words or settings ("main_editor", "snake_case": no capital) nor
# constants ("MAX_RETRIES": no lower case).
_BARE_HANDLE = re.compile(r"(?<![\w@./-])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+(?![\w@/-])")
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
_IPV6 = re.compile(r"(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])", re.I)
# Six pairs joined by one separator (":", "-", ".", "_", a space), or three groups of four
# joined by dots (Cisco's "001a.2b3c.4d5e"); pairs with a space hold a letter, so six numbers
# of two digits are not read as one.
_MAC = re.compile(
    r"(?<![\w:.-])(?:[0-9a-f]{2}(?:([:._ -])[0-9a-f]{2})(?:\1[0-9a-f]{2}){4}"
    r"|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})(?![\w:-]|\.\w)",
    re.I,
)
_GPS_DECIMAL = re.compile(
    r"(?<![\w.])(-?\d{1,2}\.\d{3,})\s*°?\s*([NS])?\s*[,;/ ]\s*"
    # a sentence's full stop may end the pair ("bei 48.1374, 11.5755.")
    r"(-?\d{1,3}\.\d{3,})\s*°?\s*([EWO])?(?![\w]|\.\d)",
    re.I,
)
# Degrees, minutes and (optionally) seconds, with their signs ("46°33'12\"N", or the prime
# signs U+2032 and U+2033, which NFKC writes as two U+2032) or their words ("50 deg 47 min
# 31 sec N", "46 Grad 33 Minuten Nord"), then a hemisphere.
_DMS_DEGREES = r"(?:\s*[°º]|\s+(?i:deg|degs|degrees?|degres?|grad|grados?|gradi)\b)"
_DMS_MINUTES = r"(?:\s*['\u2032\u2019]|\s+(?i:min|mins|minutes?|minuten|minuti|minutos)\b)"
_DMS_SECONDS = (
    r"(?:\s*(?:\"|\u2033|\u2032\u2032|''|\u201d)|\s+(?i:sec|secs|seconds?|secondes?|sekunden"
    r"|secondi|segundos)\b)"
)
_DMS_HEMISPHERE = (
    r"(?:[NSEWO]\b|(?i:north|south|east|west|nord|sud|norte|sur|ost|est|ouest|oeste|este|ovest"
    r"|west)\b)"
)
_GPS_DMS = re.compile(
    rf"(?<![\w.])\d{{1,3}}{_DMS_DEGREES}\s*\d{{1,2}}(?:[.,]\d+)?{_DMS_MINUTES}"
    rf"(?:\s*\d{{1,2}}(?:[.,]\d+)?{_DMS_SECONDS}?)?\s*{_DMS_HEMISPHERE}"
)
_PLATES = re.compile(
    r"(?<![\w-])(?:"
    r"[A-Z]{2}-\d{3}-[A-Z]{2}"  # FR (SIV)
    r"|[A-Z]{2}\d{2} ?[A-Z]{3}|[a-z]{2}\d{2} ?[a-z]{3}"  # UK, in capitals or lower case
    # DE: a district of one to three letters (one-letter districts are these 18), one or two
    # letters, a number that never starts with 0 ("SAA-C03", "X-T5" are exams and cameras)
    r"|(?:[A-HK-NPRSVWZ]|[A-Z]{2,3})-[A-Z]{1,2}[ -]?[1-9]\d{0,3}[EH]?"
    r"|(?i:[a-z]{1,3}-[a-z]{1,2}-[1-9]\d{0,3})"  # DE with two dashes, any case
    r"|(?i:[a-z]{2}-\d{3}-[a-z]{2})"  # FR (SIV), any case
    r"|(?i:\d{2,4}-[a-z]{2,3}-\d{2})"  # FR (FNI, before 2009), any case
    r"|[A-Z]{1,2}-\d{3,6}-[A-Z]{1,3}"  # AT ("W-12345-X", as a said "minus" is written back)
    r"|[A-Z]{2} ?\d{3} ?[A-Z]{2}|[a-z]{2}\d{3}[a-z]{2}"  # IT, lower case only glued
    r"|(?i:\d{4} ?-?[BCDFGHJKLMNPRSTVWXYZ]{3})"  # ES, any case
    # ES before 2000: the province's code, four digits, one or two letters
    r"|(?:A|AB|AL|AV|B|BA|BI|BU|C|CA|CC|CE|CO|CR|CS|CU|GC|GE|GI|GR|GU|H|HU|IB|PM|J|L|LE|LO"
    r"|LU|M|MA|ML|MU|NA|O|OU|OR|P|PO|S|SA|SE|SG|SO|SS|T|TE|TF|TO|V|VA|VI|Z|ZA) \d{4} [A-Z]{1,2}"
    r")(?![\w-])"
)
_PLATE_CUE = re.compile(
    r"(?:licen[cs]e plate|number plate|plate number|plate|registration(?: number)?"
    r"|reg(?:istration)? no\.?|immatriculation|plaque(?: d'immatriculation)?|matricula"
    r"|kennzeichen|nummernschild|targa)\s*(?:is|est|es|ist|lautet|e|:|#|no\.?)?\s*"
    r"([A-Za-z0-9][A-Za-z0-9 .-]{2,10}[A-Za-z0-9])",
    re.I,
)


# A handle in the path of a personal page's host ("paypal.me/lukeharmonymusic").
_PERSONAL_PAGE = re.compile(
    rf"(?<![\w.-])(?:https?://)?(?:www\.)?(?i:{PERSONAL_PAGE_HOSTS})/?"
    r"(?P<handle>[A-Za-z0-9][A-Za-z0-9_.+-]{1,40})",
)
# An account's page on a host whose paths are user names, with that one part in its path
# ("github.com/mkowalski-dev", "instagram.com/fra.cucina.veg", "tiktok.com/@sole").
_PROFILE_PAGE = re.compile(
    rf"(?<![\w.-])(?:https?://)?(?:www\.|m\.)?(?i:{PROFILE_HOSTS})/@?"
    r"(?P<handle>[A-Za-z0-9][A-Za-z0-9_.-]{1,40}?)\.?(?![\w/-]|\.\w|/\w)",
)
_SITE_PAGES = frozenset(PROFILE_HOST_PAGES)
# A payment app's user name said after it: "$cashtag", or a handle-shaped word after a colon.
_APP_CASHTAG = re.compile(
    rf"(?<![\w-])(?i:{PAYMENT_APPS})(?![\w-])[^.!?;\n]{{0,30}}?(?<![\w$])\$[A-Za-z][A-Za-z0-9_]{{1,19}}"
    r"(?![\w])"
)
# A payment alias: two to four words or numbers joined by dots after "alias" ("alias de
# Mercado Pago sol.rio.tinta", "Alias CBU: casa.verde.mate").
_PAYMENT_ALIAS = re.compile(
    rf"(?<![\w-])(?i:{ALIAS_CUES})(?:\s+(?:[^\W\d]+\s+){{0,3}}?)?\s*(?:[:=]|is|es|e|ist|est)?\s*"
    r"(?P<alias>[a-z0-9-]{1,20}(?:\.[a-z0-9-]{1,20}){1,3})(?![\w.@/]|\.\w)",
    re.I,
)
# A clause about paying: a two-word alias is a payment alias there ("alias CBU casa.verde"),
# elsewhere a shell's or a mail alias ("git alias co.checkout").
_PAYING = re.compile(
    rf"(?<![\w-])(?:{PAYMENT_APPS}|cbu|cvu|pix|pag\w*|pay\w*|paid|cobr\w*|transfer\w*)(?![\w-])",
    re.I,
)
_PAGE_HINT = re.compile(r"[/$]|alias", re.I)
MIN_ALIAS_CHARS = 6  # a Mercado Pago or CBU alias has 6 to 20 characters
_ORGANISATION = re.compile(rf"(?<![\w-])(?:{ORGANISATION_CUES})(?![\w-])", re.I)
_CLAUSE_END = re.compile(r"[.!?;](?:\s|$)|\n")


def personal_page(text: str) -> bool:
    """A person's payment or profile handle given by its URL's shape, a payment app's cashtag,
    or a payment alias (:data:`PERSONAL_PAGE_HOSTS`, :data:`ALIAS_CUES`); a clause that says
    the page is an organisation's (a charity, a shop, a company) names no person."""
    if not _PAGE_HINT.search(text):
        return False
    for part in _CLAUSE_END.split(text):
        if _ORGANISATION.search(part):
            continue
        if _PERSONAL_PAGE.search(part) or _APP_CASHTAG.search(part):
            return True
        if any(m["handle"].lower() not in _SITE_PAGES for m in _PROFILE_PAGE.finditer(part)):
            return True
        paying = _PAYING.search(part) is not None
        if any(
            not _HOSTNAME_TLD.search(m["alias"])
            and (paying or m["alias"].count(".") >= 2)
            and len(m["alias"]) >= MIN_ALIAS_CHARS
            for m in _PAYMENT_ALIAS.finditer(part)
        ):
            return True
    return False


# An alias ending with a web domain's suffix is a site ("alias: example.com"), not a payment
# alias.
_HOSTNAME_TLD = re.compile(r"\.(?:com|net|org|io|de|fr|es|it|ar|uk|co|app|me|dev)$", re.I)


def locator_types(text: str) -> frozenset[str]:
    """Entity types of the values with a syntax of their own in the normalised ``text``."""
    found: set[str] = set()
    without_urls = _URL_USERINFO.sub(" ", text)
    if _EMAIL.search(without_urls) or told_email(without_urls):
        found.add("EMAIL_ADDRESS")
    if (
        _has_handle(without_urls)
        or _QUOTED_HANDLE.search(without_urls)
        or _lower_handle(without_urls)
    ):
        found.add("SOCIAL_HANDLE")
    if _has_gamer_tag(without_urls):
        found.add("GAMER_TAG")
    if personal_page(text):
        found.add("SOCIAL_HANDLE")
    if _has_public_ip(text):
        found.add("IP_ADDRESS")
    if any(
        match[1] not in (" ", ".", "_") or re.search(r"[a-f]", match.group(), re.I)
        for match in _MAC.finditer(text)
    ):
        found.add("MAC_ADDRESS")
    if _has_gps(text):
        found.add("GPS_COORDINATES")
    if (
        _has_plate(text)
        or plate_in(text)
        or any(any(ch.isdigit() for ch in m.group(1)) for m in _PLATE_CUE.finditer(text))
    ):
        found.add("LICENSE_PLATE")
    if any(kind != CREDENTIAL for kind, _ in keyed_values(text)):
        found.add("KEYED_PERSONAL_VALUE")
    return frozenset(found)


# An address told rather than written. Letters spaced one by one ("m a r c o . r e n z i @
# gmail . com") are joined, then the spaces around "@" and a dot between words dropped.
_SPACED_LETTERS = re.compile(r"(?<![\w.@])[a-z0-9](?: [a-z0-9]){2,}(?![\w@])", re.I)
_SPACED_AT = re.compile(r"(?<=\w) ?@ ?(?=\w)")
_SPACED_DOT = re.compile(r"(?<=\w) \. (?=\w)")
# A mail provider named without its domain's suffix ("jane_w at outlook, the dot com one",
# "kate_h 1990 at hotmail"), or an address with a comma before its "at" ("r.patel, at
# acme.co.uk"): the local part holds a dot, an underscore or a digit, as a user's does.
_MAIL_PROVIDERS = (
    r"gmail|googlemail|outlook|hotmail|live|msn|yahoo|icloud|aol|gmx|protonmail|proton"
    r"|orange|wanadoo|laposte|free|sfr|libero|virgilio|tiscali|alice|t-online|web\.de"
    r"|yandex|zoho|fastmail|posteo|mailbox"
)
_LOCAL_PART = r"(?P<local>[a-z0-9][a-z0-9._+-]*[a-z0-9])(?:\s+(?P<digits>\d{1,4}))?"
_PROVIDER_EMAIL = re.compile(
    rf"(?<![\w.@]){_LOCAL_PART},?\s+(?:at|@|arobase|arroba|chez|bei|chiocciola)\s+"
    rf"(?:(?:{_MAIL_PROVIDERS})(?![\w@-])|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{{2,12}}(?![\w@]))",
    re.I,
)


# A mailbox's name right after its noun, then its provider ("the shared inbox thesmithsfour on
# gmail", "l'adresse dupont75 sur hotmail"): the noun says the word is a local part.
_MAILBOX_ON_PROVIDER = re.compile(
    r"(?<![\w])(?:inbox|mailbox|e-?mail(?: address)?|address|adresse|boite(?: mail)?|correo"
    r"|direccion|indirizzo|casella|postfach)\s+[a-z][\w.-]{3,}\s+(?:on|at|sur|chez|en|bei|auf|su)\s+"
    rf"(?:{_MAIL_PROVIDERS})(?![\w@-])",
    re.I,
)


def told_email(text: str) -> bool:
    """An e-mail address spelled with spaces, or told by its provider without a suffix."""
    if _MAILBOX_ON_PROVIDER.search(text):
        return True
    joined = _SPACED_LETTERS.sub(lambda m: m.group().replace(" ", ""), text)
    joined = _SPACED_DOT.sub(".", _SPACED_AT.sub("@", joined))
    if joined != text and _EMAIL.search(joined):
        return True
    return any(
        re.search(r"[a-z]", match["local"], re.I) and re.search(r"[._\d]", match["local"])
        for match in _PROVIDER_EMAIL.finditer(text)
        if not _VERSION_LIKE.fullmatch(match["local"])
    )


_VERSION_LIKE = re.compile(r"v?\d+(?:\.\d+)*(?:\.?[a-z]{1,2})?", re.I)


def without_emails(text: str) -> str:
    """The text with URL credentials and e-mail addresses blanked: their digits are not codes."""
    return _EMAIL.sub(" ", _URL_USERINFO.sub(" ", text))


# Capitals, dashed digits, capitals ("W-12345-X"): no unit is written after a dash there.
_DASHED_BOTH_SIDES = re.compile(r"[A-Z]{1,2}-\d{3,6}-[A-Z]{1,3}")
# A year after a word of time, a space, a word of three lower-case consonants: "since 2019
# kyc" (the note's keyword after its text), not a Spanish plate; "La sua auto 2013 hck" is
# one (a plate's digits are a year's shape one time in fifty).
_YEAR_THEN_WORD = re.compile(
    r"(?<![\w])(?i:since|in|from|until|depuis|en|desde|seit|im|ab|dal|nel) (?:19|20)\d{2} [a-z]{3}$"
)


def _has_plate(text: str) -> bool:
    """A plate shape, unless its letters after the digits are a currency or a unit ("1040
    CHF", "C 1000 IU") or a year after a word of time is followed by a lower-case word
    ("since 2019 kyc");
    letters glued to the digits of a plate that opens with letters are no unit ("GA483LB")."""
    return any(
        not _YEAR_THEN_WORD.search(text, max(0, match.start() - 8), match.end())
        and (
            _DASHED_BOTH_SIDES.fullmatch(match.group())
            or not any(
                group.lower() in _UNITS
                for group in re.findall(
                    r"(?<=\d)[ -]?([A-Za-z]+)"
                    if match.group()[0].isdigit()
                    else r"(?<=\d)[ -]([A-Za-z]+)",
                    match.group(),
                )
            )
        )
        for match in _PLATES.finditer(text)
    )


def _has_handle(text: str) -> bool:
    return any(
        match.group(1).lower() not in _GROUP_MENTIONS and not match.group(1).isdigit()
        for match in _HANDLE.finditer(text)
    ) or any(_bare_handle(word) for word in _BARE_HANDLE.findall(text))


def _has_gamer_tag(text: str) -> bool:
    return (
        any(
            name.lower() not in _HARMLESS_NOUNS and not name.isupper()
            for name in _TAGGED_NAME.findall(text)
        )
        or any(
            _user_name(match["name"])
            for pattern in (_PLATFORM_HANDLE, _OWNED_PLATFORM_HANDLE)
            for match in pattern.finditer(text)
        )
        or any(
            _named_handle(match)
            for pattern in (_ON_PLATFORM_NAMED, _NAMED_ON_PLATFORM)
            for match in pattern.finditer(text)
        )
        or any(_user_name(match["name"]) for match in _ON_PLATFORM_NAMED_ON.finditer(text))
        or any(
            _user_name(match["name"])
            or (match["account"] is not None and _given_name_token(match["name"], only_names=False))
            for match in _ACCOUNT_NAMED.finditer(text)
        )
    )


def _named_handle(match: re.Match[str]) -> bool:
    """The token a naming verb gives on a platform is a user name: any token after a verb
    that only names ("goes by", "se llama"), after "is" one shaped like a user name or a
    word that no state, role or adjective is ("is grimblewick", not "is inactive")."""
    return _given_name_token(match["name"], only_names=match["naming"] is not None)


def _given_name_token(token: str, *, only_names: bool) -> bool:
    name = token.rstrip(".")
    lower = name.lower()
    if lower in DEFAULT_LEXICONS.stopwords or lower in _STATE_WORDS or name.isdigit():
        return False
    if _user_name(name):
        return True
    if len(name) < MIN_NAMED_CHARS or not name.isalpha():
        return False
    if only_names:
        return True
    # after "is", a capital starts a noun ("ist sie Moderatorin"); a handle is written small
    return name.islower() and _PREDICATE_ENDING.search(lower) is None


# An account's name given after the noun for it, with no platform ("Her username everywhere
# is grimblewick", "Mon pseudo partout, c'est brumeduvent", "Sein Benutzername lautet
# nachtfalke"): the token that ends the clause is the name, read as after "is".
_ACCOUNT_NOUNS = (
    r"(?P<account>user ?names?|user-names?|gamer ?tags?|screen ?names?|pseudos?"
    r"|nom d'utilisateur|nombres? de usuario|benutzername|nutzername|spielername|nome utente)"
    # nouns of other things too ("the door handle is loose"): a user name's shape only
    r"|handles?|nicks?|nicknames?|identifiant|usuario"
)
_ACCOUNT_NAMED = re.compile(
    rf"(?<![\w])(?i:{_ACCOUNT_NOUNS})(?:\s+[^\W\d]+){{0,2}}?\s*,?"
    r"(?:\s*[:=]|\s+(?i:is|was|est|es|ist|lautet|e|è|era|war|etait|c'est))\s+"
    rf"{_HANDLE_TOKEN}{_HANDLE_END}"
)


# A user name on any platform, listed or not: a lower-case token with a dot, an underscore or
# digits after letters inside, named as a profile or an account ("Her Rover profile is
# nhat.minh.pdx", "en Wallapop con el usuario ferbici_sevilla"), or given after "as" once a
# platform is named by its capitalised name ("Posts his designs on Thingiverse as
# kayode_makes", "Verkauft Teile auf Kleinanzeigen als schrauber_kowalski_hh").
_PROFILE_NOUNS = (
    r"profiles?|profil|perfil|profilo|accounts?|compte|cuenta|konto|user|usuario|utente"
    r"|utilisateur|nutzer|benutzer|username|user ?name|pseudo|nom d'utilisateur"
    r"|nombre de usuario|nutzername|benutzername|nome utente"
)
_LOWER_HANDLE = r"@?(?P<name>[a-z][a-z0-9]*(?:[._][a-z0-9]+)+|[a-z]{2,}\d{1,4})"
_PROFILE_NAMED = re.compile(
    rf"(?<![\w])(?i:{_PROFILE_NOUNS})(?:(?:\s+[^\W\d]+){{0,2}}?(?:\s*[:=]|\s+(?i:is|was|est|es"
    r"|ist|lautet|e|è|era|named|called|nomme|llamado|namens|chiamato)))?"
    rf"\s+{_LOWER_HANDLE}{_HANDLE_END}"
)
_CAPITALISED_PLATFORM = r"[A-Z][\w.-]*[a-z][\w.-]*(?:\s+[A-Z][\w.-]*)?"
_AS_ON_PLATFORM = re.compile(
    rf"(?<![\w.])(?i:{_ON})\s+{_CAPITALISED_PLATFORM}\s+(?:(?i:as|als|como|come|comme"
    r"|sous le nom(?: de)?|unter dem namen|con il nome|con el nombre)\s+)"
    rf"{_LOWER_HANDLE}{_HANDLE_END}"
)


def _lower_handle(text: str) -> bool:
    return any(
        not _HOSTNAME_TLD.search(match["name"]) and not _VERSION_LIKE.fullmatch(match["name"])
        for pattern in (_PROFILE_NAMED, _AS_ON_PLATFORM)
        for match in pattern.finditer(text)
    )


def _user_name(token: str) -> bool:
    """A token shaped like a user name, not a word, a number or a quantity."""
    name = token.rstrip(".")
    letters = sum(ch.isalpha() for ch in name)
    if letters < 2 or name.isupper() or name.isdigit():
        return False
    if re.fullmatch(r"\d+(?:[.,]\d+)?[a-z%]+", name, re.I):
        return False  # "3h", "60fps"
    return (
        re.search(r"[A-Za-z]\d", name) is not None
        or any(ch in "_.#" for ch in name[1:-1])
        or any(ch.isupper() for ch in name[1:])
    )


# A part of a handle: letters, then at most three digits ("Knight99"). Digits among letters
# or four in a row ("9fQ2xA7m", "2024") make a key or a password: the secret guard's, not this.
_HANDLE_PART = re.compile(r"[A-Za-z]*\d{0,3}")


def _bare_handle(word: str) -> bool:
    return (
        any(ch.isupper() for ch in word)
        and any(ch.islower() for ch in word)
        and all(_HANDLE_PART.fullmatch(part) for part in word.split("_"))
    )


# A version or build number written as four dotted groups ("app build 4.12.0.188",
# "firmware version 10.2.0.14"): right after its word, a version, not a host's address.
_VERSION_WORD_BEFORE = re.compile(
    r"(?i:\b(?:build|version|versions|release|firmware|versi[óo]n|versione|v)\s*:?\s*)$"
)


def version_before(text: str, start: int) -> bool:
    """Whether the dotted value at ``start`` follows a word of version or build."""
    return _VERSION_WORD_BEFORE.search(text, 0, start) is not None


def _has_public_ip(text: str) -> bool:
    for match in (*_IPV4.finditer(text), *_IPV6.finditer(text)):
        if version_before(text, match.start()):
            continue
        try:
            address = ipaddress.ip_address(match.group())
        except ValueError:
            continue
        internal = any(address in network for network in _INTERNAL_NETWORKS)
        if not (internal or address.is_loopback or address.is_link_local or address.is_unspecified):
            return True
    return False


# Coordinates with their hemispheres in words: "46.2 north, 11.4 east", "47.3 Nord, 11.1 Ost".
_GPS_HEMISPHERES = re.compile(
    # the decimals may come digit by digit, as said ("51.5 0 7 north")
    r"(?<![\w.])\d{1,2}(?:\.\d+(?: \d)*)?\s*°?\s*(?:north|south|nord|sud|norte|sur|n|s)(?![\w])"
    r"[\s,;/]+(?:and\s+|et\s+|y\s+|und\s+|e\s+)?\d{1,3}(?:\.\d+(?: \d)*)?\s*°?\s*"
    r"(?:east|west|est|ouest|ost|west|este|oeste|ovest|e|w|o)(?![\w])",
    re.I,
)


def _has_gps(text: str) -> bool:
    if _GPS_DMS.search(text):
        return True
    hemispheres = _GPS_HEMISPHERES.search(text)
    if hemispheres is not None and "." in hemispheres.group():
        return True
    for match in _GPS_DECIMAL.finditer(text):
        latitude, longitude = float(match.group(1)), float(match.group(3))
        if abs(latitude) <= 90 and abs(longitude) <= 180:
            return True
    return False


# --- values given under a key: code, config, JSON, YAML, a query string -----------------

CREDENTIAL = "credential"
# A key, quoted or bare ("first", 'email', user.email, firstName, mot_de_passe), its
# assignment (":", "=", ":=", "=>") and its value, quoted or one bare token. A bare key
# before a colon and a bare value is prose's "Email: ..." as often as YAML: it is read as a
# key only in code's shape (a key with "_", "." or an inner capital, inside braces, or at
# the start of a line of several).
_KEY_VALUE = re.compile(
    r"""(?:(?P<qk>["'])(?P<quoted_key>[A-Za-z][\w .-]{0,40})(?P=qk)"""
    r"|(?<![\w.$@/-])(?P<bare_key>[A-Za-z][\w.-]{0,40}))"
    r"\s*(?P<op>:=|=>|=|:)(?![=/])\s*"
    # the value is looked at, not taken: a bare value may be the next key ("settings:
    # smtp_pass: ...")
    r"""(?=(?P<qv>["'\u201c\u00ab])(?P<quoted>[^"'\u201d\u00bb\n]{0,80})["'\u201d\u00bb]"""
    r"|(?P<bare>[^\s\"',;&?{}\[\])(]{1,80}))"
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_KEY_PARTS = re.compile(r"[_.\s-]+")
# A value that refers to one instead of holding it: a variable, an environment lookup, a
# template, a mask.
_REFERENCE = re.compile(
    r"^(?:[$%{<\[]|\*{2,}|x{3,}$|\.{3}|(?:os|process|env|config|settings|self|this)\b"
    r"|[A-Z][A-Z0-9_]{2,}$|.*\(\s*\)?$)",
)
_NAME_VALUE = re.compile(r"[^\W\d_]{2,}(?:[ '.-]{1,2}[^\W\d_]+){0,3}\.?")
MIN_PHONE_DIGITS = 6
MIN_CREDENTIAL_CHARS = 3
MIN_NUMBER_CHARS = 4
MAX_KEY_PARTS = 5  # a key of more words is prose


# A value between a key's tags: ``<firstName>Oksana</firstName>``.
_TAGGED_VALUE = re.compile(r"<(?P<key>[A-Za-z][\w.:-]{0,40})>(?P<value>[^<>\n]{1,80})</(?P=key)>")


def keyed_values(text: str) -> Iterator[tuple[str, str]]:
    """The kind of each personal or credential value given under its key in ``text``
    ("name", "login", "email", "phone", "address", "date", "number" or
    :data:`CREDENTIAL`) with the value; the value is for the caller's shape test only,
    never reported."""
    if "</" in text:
        for match in _TAGGED_VALUE.finditer(text):
            kind = _key_kind(match["key"])
            if kind is not None and _holds(
                kind,
                match["value"],
                bare_key_alone=match["key"].lower() in PERSONAL_FIELD_BARE_KEYS,
            ):
                yield kind, match["value"]
    if not any(op in text for op in (":", "=")):
        return
    for match in _KEY_VALUE.finditer(text):
        key = match["quoted_key"] or match["bare_key"]
        kind = _key_kind(key)
        if kind is None:
            continue
        quoted = match["quoted"] is not None
        value = (match["quoted"] if quoted else match["bare"]).strip()
        if not quoted and match["bare_key"] and not _code_shaped(text, match, key):
            continue
        if _holds(kind, value, bare_key_alone=key.lower() in PERSONAL_FIELD_BARE_KEYS):
            yield kind, value


def _key_kind(key: str) -> str | None:
    parts = [part.lower() for part in _KEY_PARTS.split(_CAMEL.sub("_", key)) if part]
    if not parts or len(parts) > MAX_KEY_PARTS:
        return None
    glued = "".join(parts)
    for length in range(len(parts)):
        tail = "".join(parts[length:])
        if tail in CREDENTIAL_FIELD_KEYS:
            return CREDENTIAL
        if tail in PERSONAL_FIELD_KEYS:
            return PERSONAL_FIELD_KEYS[tail]
    last = parts[-1]
    if last in PERSONAL_FIELD_BARE_KEYS and (
        len(parts) == 1 or parts[-2] in PERSON_KEY_WORDS or glued in PERSONAL_FIELD_KEYS
    ):
        return PERSONAL_FIELD_BARE_KEYS[last]
    return None


def _code_shaped(text: str, match: re.Match[str], key: str) -> bool:
    """A bare key and a bare value are code's: "=" between them, a key written as code
    names (``first_name``, ``user.email``, ``firstName``), braces around, or a line of its
    own among several."""
    if match["op"] != ":":
        return True
    if re.search(r"[_.]|[a-z][A-Z]", key):
        return True
    before = text[: match.start()]
    if before.count("{") > before.count("}"):
        return True
    line_start = before.rfind("\n")
    return "\n" in text and not before[line_start + 1 :].strip(" -")


def _holds(kind: str, value: str, *, bare_key_alone: bool) -> bool:
    """Whether ``value`` holds a datum of ``kind``, not a placeholder or a reference."""
    plain = value.strip().rstrip(".")
    if plain.lower() in PLACEHOLDER_VALUES or _REFERENCE.match(plain):
        return False
    digits = sum(ch.isdigit() for ch in plain)
    letters = sum(ch.isalpha() for ch in plain)
    if kind == CREDENTIAL:
        return len(plain) >= MIN_CREDENTIAL_CHARS
    if kind == "name":
        if not _NAME_VALUE.fullmatch(plain):
            return False
        # "name": "vim" names a thing; a person's name is written with its capital
        return not bare_key_alone or plain[0].isupper()
    if kind == "login":
        return len(plain) >= MIN_CREDENTIAL_CHARS and " " not in plain and letters > 0
    if kind == "email":
        return letters > 0 and bool(re.search(r"[@._\d]", plain))
    if kind == "phone":
        return digits >= MIN_PHONE_DIGITS
    if kind == "address":
        words = plain.split()
        return letters > 0 and (digits > 0 or len(words) > 1)
    if kind == "date":
        return digits > 0
    return digits > 0 and len(re.sub(r"\W", "", plain)) >= MIN_NUMBER_CHARS
