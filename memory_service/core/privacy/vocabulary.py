"""Word data of the privacy guards, per language (EN, FR, ES, DE, IT).

Matched on the normalised form (:mod:`memory_service.core.privacy.normalise`): lower case,
accents folded, so "contraseña" is written "contrasena" and "Schlüssel" "schlussel" here.
Each list is data, not logic: the guards decide from the *shape* of the value that follows
a cue, these words only say where a value may start.
"""

from __future__ import annotations

# Digits spelled out, as people dictate a phone or card number ("four one five", "quatre",
# "cuatro", "vier"). "oh" and "o" read as zero only inside a run of digits.
DIGIT_WORDS: dict[str, str] = {
    # EN
    "zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9", "niner": "9",
    # FR
    "zéro": "0", "un": "1", "une": "1", "deux": "2", "trois": "3", "quatre": "4",
    "cinq": "5", "sept": "7", "huit": "8", "neuf": "9",
    # ES
    "cero": "0", "uno": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5",
    "seis": "6", "siete": "7", "ocho": "8", "nueve": "9",
    # DE
    "null": "0", "eins": "1", "zwei": "2", "zwo": "2", "drei": "3", "vier": "4",
    "fünf": "5", "funf": "5", "fuenf": "5", "sechs": "6", "sieben": "7", "acht": "8", "neun": "9",
    # IT
    "due": "2", "tre": "3", "quattro": "4", "cinque": "5", "sei": "6", "sette": "7",
    "otto": "8", "nove": "9",
}  # fmt: skip

# Two-digit numbers spelled out, as French, Spanish or Italian speakers dictate a phone
# number in pairs ("zéro six, douze, quarante-huit", "ochenta y tres", "ventotto"). Words
# are matched folded (no accents). The tens take a unit after them ("forty-eight",
# "vingt et un", "ochenta y tres"); French 60 and 80 also take a teen ("soixante et onze",
# "quatre-vingt-treize"). Compounds written as one word are in NUMBER_COMPOUNDS.
TEEN_WORDS: dict[str, int] = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "dix": 10, "onze": 11, "douze": 12, "treize": 13, "quatorze": 14, "quinze": 15,
    "seize": 16,
    "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
    "dieciseis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19,
    "zehn": 10, "elf": 11, "zwolf": 12, "zwoelf": 12, "dreizehn": 13, "vierzehn": 14,
    "funfzehn": 15, "fuenfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18,
    "neunzehn": 19,
    "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13, "quattordici": 14,
    "quindici": 15, "sedici": 16, "diciassette": 17, "diciotto": 18, "diciannove": 19,
}  # fmt: skip
TENS_WORDS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
    "vingt": 20, "vingts": 20, "trente": 30, "quarante": 40, "cinquante": 50,
    "soixante": 60, "septante": 70, "huitante": 80, "octante": 80, "nonante": 90,
    "veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60,
    "setenta": 70, "ochenta": 80, "noventa": 90,
    "zwanzig": 20, "dreissig": 30, "dreißig": 30, "vierzig": 40, "funfzig": 50,
    "fuenfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80, "neunzig": 90,
    "venti": 20, "trenta": 30, "quaranta": 40, "cinquanta": 50, "sessanta": 60,
    "settanta": 70, "ottanta": 80, "novanta": 90,
}  # fmt: skip
# Words that join a ten and a unit: "vingt et un", "ochenta y tres", "forty and two".
NUMBER_JOINERS = ("et", "y", "and")
# One-word compounds (regexes over folded words): German "achtundvierzig", Spanish
# "veintiuno", Italian "quarantotto", "ventitre"; the unit part, then the ten.
NUMBER_COMPOUNDS = (
    # DE: unit "und" ten
    r"(?P<de_unit>ein|zwei|drei|vier|funf|fuenf|sechs|sieben|acht|neun)und"
    r"(?P<de_ten>zwanzig|dreissig|dreißig|vierzig|funfzig|fuenfzig|sechzig|siebzig|achtzig"
    r"|neunzig)",
    # ES: veinti + unit
    r"(?P<es_ten>veinti)(?P<es_unit>uno|un|dos|tres|cuatro|cinco|seis|siete|ocho|nueve)",
    # IT: ten (final vowel dropped before uno/otto) + unit
    r"(?P<it_ten>vent|trent|quarant|cinquant|sessant|settant|ottant|novant)[aie]?"
    r"(?P<it_unit>uno|due|tre|quattro|cinque|sei|sette|otto|nove)",
)

# Spelled-out "@" and "." in an e-mail address. Bracketed forms ("(at)", "[dot]") are
# unambiguous; the bare words are only read as "@"/"." inside an address shape.
EMAIL_AT_WORDS = ("at", "arobase", "arroba", "chez", "klammeraffe", "chiocciola", "bei")
EMAIL_DOT_WORDS = ("dot", "point", "punto", "punkt", "ponto")

# Words that introduce a credential value: the value that follows is a secret whatever it
# looks like (see :mod:`memory_service.core.privacy.secrets`). Regexes, folded lower case.
CREDENTIAL_CUES = (
    # EN
    r"pass(?:word|wd|phrase|code)s?",
    r"pwd?",
    r"pass",
    r"pins?(?: codes?| numbers?)?",
    r"(?:door|gate|alarm|access|entry|lock|safe|security|garage|building|entrance|keypad"
    r"|unlock|recovery|backup|verification|one-time|2fa|mfa|otp|wi-?fi|wifi|locker|bike"
    r"|padlock|combination)[\s-]+(?:codes?|keys?|pins?|passwords?|phrases?|numbers?)",
    r"codes?",
    r"combination|combo|lock combo",
    # a one-time code has no word of its own but its acronym ("the OTP was 916871")
    r"otps?|totp|2fa|mfa",
    # a compound written with a hyphen: "SMS-Code", "PIN-Code", "TAN-Nummer"
    r"[a-z]{2,}-codes?",
    # a box or a safe for keys is opened by its code ("Schlüsselsafe 1357", "key safe 2468")
    r"(?:key|schlussel)-?\s?(?:safe|box|kasten|tresor)|lockbox|boite a cles|caja de llaves"
    r"|cassetta (?:porta)?chiavi",
    r"(?:wi-?fi|wpa2?|network|ssid|router|licen[cs]e|product|activation|encryption|private"
    r"|secret|api)[\s-]+keys?",
    r"(?:seed|recovery|secret|mnemonic|backup)\s+(?:phrase|words)",
    r"mnemonic",
    r"secret",
    r"(?:security|secret)\s+(?:questions?|answers?)",
    r"answer to (?:the |my |his |her |their )?security question",
    r"mother'?s maiden name",
    r"credentials?",
    r"creds",
    r"log-?ins?",
    r"logon",
    r"sign-?in",
    r"user(?:name|id)?",
    r"tokens?",
    # FR
    r"mots? de passe",
    r"mdp",
    r"codes? (?:pin|secret|d'acces|d'entree|de la porte|du portail|de l'alarme|de la porte"
    r" d'entree|wifi|wi-fi|de deverrouillage|de securite)",
    r"digicode",
    r"cles?(?: wifi| wi-fi| de securite| wpa| api| de licence)?",
    r"phrases? (?:secrete|de recuperation|de recuperacion)",
    r"identifiants?",
    r"question secrete",
    r"reponse (?:secrete|a la question secrete)",
    # ES
    r"contrasenas?",
    r"claves?(?: de acceso| wifi| wi-fi| secreta)?",
    r"codigos?(?: pin| de acceso| de seguridad| de la puerta| de la alarma| secreto)?",
    r"frases? (?:semilla|de recuperacion|secreta)",
    r"usuario",
    r"pregunta de seguridad",
    r"respuesta (?:secreta|de seguridad)",
    # the shorthand of "código" / "codice" in notes taken on the phone ("cód. alarma 2580")
    r"cod\.",
    # DE
    r"passwort(?:es)?",
    r"kennwort(?:es)?",
    r"[\w-]*schlussel",
    r"[\w-]*(?:passwort|kennwort)",
    r"(?:zugangs|tur|tor|alarm|sicherheits|wlan|wifi|geheim|entsperr|pin)-?(?:code|nummer|daten)",
    r"zugangsdaten",
    # any German compound of "code" ("Wiederherstellungscodes", "Torcode", "Haustürcode");
    # the ones that name something else are in NOT_CREDENTIAL
    r"[a-z]{3,}codes?",
    r"benutzer(?:name)?",
    r"sicherheitsfrage",
    r"(?:seed|wiederherstellungs)-?phrase",
    r"geheimzahl",
    # IT
    r"parola d'ordine",
    r"parola chiave",
    r"chiave(?: wifi| wi-fi| di accesso| segreta)?",
    r"codice(?: pin| di accesso| segreto| della porta| dell'allarme| di sicurezza)?",
    r"codici(?: di backup| di recupero| di accesso)?",
    r"frase (?:di recupero|segreta|seme)",
    r"nome utente",
    r"domanda di sicurezza",
    r"risposta (?:segreta|di sicurezza)",
)

# Words that continue "password" (a compound, a verb, an adjective about it) rather than
# give it: after "password", "mot de passe", "contraseña", "Passwort", "Kennwort" any other
# single word that is no stop word is read as the password ("password sunshine"). A closed
# class: the nouns a password heads or follows in a compound, what is done to it, what it is
# like. Folded, EN/FR/ES/DE/IT.
PASSWORD_CONTINUATIONS = (
    "manager", "managers", "policy", "policies", "reset", "resets", "resetting", "change",
    "changes", "changed", "changing", "protected", "protection", "vault", "hint", "hints", "rule",
    "rules", "requirement", "requirements", "length", "strength", "field", "prompt", "prompts",
    "expiry", "expired", "expires", "expire", "expiration", "rotation", "rotated", "generator",
    "keeper", "list", "lists", "file", "files", "sharing", "shared", "share", "login", "logins",
    "again", "recovery", "recover", "update", "updates", "updated", "locked", "lock", "entry",
    "form", "box", "screen", "page", "storage", "stored", "store", "hashing", "hash", "hashes",
    "hygiene", "complexity", "authentication", "auth", "less", "based", "free", "habits",
    "fatigue", "leak", "leaks", "leaked", "breach", "breaches", "audit", "works", "worked",
    "saved", "save", "saving", "forgotten", "forgot", "required", "needed", "must", "should",
    "will", "can", "cannot", "could", "would", "needs", "strong", "weak", "new", "old", "same",
    "different", "long", "short", "secure", "unique", "complex", "simple", "default", "temporary",
    "one", "two", "three", "every", "each", "only", "twice", "daily", "weekly", "monthly",
    "yearly", "oublie", "perdu", "gestionnaire", "fort", "faible", "robuste", "nouveau", "nouvel",
    "ancien", "modifie", "securise", "temporaire", "oubliee", "olvidada", "olvidado", "segura",
    "seguro", "nueva", "nuevo", "antigua", "gestor", "cambiada", "cambio", "debil", "fuerte",
    "temporal", "unica", "vergessen", "andern", "geandert", "neues", "neu", "altes", "sicheres",
    "sicher", "starkes", "schwaches", "zurucksetzen", "verwaltung", "dimenticata", "nuova",
    "vecchia", "sicura", "forte", "debole", "cambiata", "gestore", "temporanea",
    # what is done to it, or how often: verbs, participles, quantifiers
    "sent", "send", "given", "give", "written", "write", "kept", "keep", "typed", "type",
    "entered", "enter", "shown", "told", "emailed", "texted", "stays", "goes", "used", "uses",
    "chaque", "doit", "doivent", "contient", "envoye", "ecrit", "cada", "debe", "deben",
    "tiene", "enviada", "escrita", "alle", "muss", "sollte", "wird", "hat", "enthalt",
    "ogni", "deve", "devono", "contiene", "inviata", "scritta",
    "caduco", "expiro", "abgelaufen", "scaduta", "zuruckgesetzt", "reimpostata", "restablecida",
    "reinitialise", "expire",
)  # fmt: skip

# A card's verification code (3 or 4 digits): folded regexes.
CARD_CODE_CUES = (
    r"cvv2?|cvc2?|cvn|cid|card (?:security|verification) (?:code|number)|cryptogramme(?: visuel)?"
    r"|codigo (?:cvv|cvc)|kartenprufnummer|prufziffer|codice (?:cvv|cvc)"
)

# Cues whose value is an answer, not a password: any word after "is" or ":" is the
# secret ("Security answer is Biscuit", "Nom de jeune fille de sa mère : Le Goff").
ANSWER_CUES = (
    r"(?:security|secret)\s+answers?",
    r"answer to (?:the |my |his |her |their )?security question",
    r"(?:mother'?s |father'?s )?maiden names?",
    r"memorable (?:word|answer|information)",
    r"reponses? (?:secretes?|de securite|a la question secrete)",
    r"noms? de jeune fille",
    r"respuestas? (?:secretas?|de seguridad)",
    r"apellidos? de soltera",
    r"sicherheitsantwort|geheimantwort|madchenname|geburtsname",
    r"risposta (?:segreta|di sicurezza)",
    r"cognome da (?:nubile|ragazza)",
)

# A security question named in the note: with one of these, a word of ANSWER_WORDS brings
# in the answer ("Sicherheitsfrage (erstes Haustier), Antwort: Stella"). Folded regexes.
SECURITY_QUESTION_CUES = (
    r"(?:security|secret|secure|challenge)\s+(?:questions?|q)",
    # the questions banks ask, named by their subject
    r"(?:first|childhood)\s+(?:pet|car|school|teacher|best friend)|name of (?:your |my |his |her )?"
    r"first pet|premier animal|ville natale|primera mascota|ciudad natal|erstes haustier"
    r"|geburtsstadt|primo (?:animale|cane|gatto)|citta natale",
    r"questions? (?:secretes?|de securite)",
    r"preguntas? (?:de )?(?:seguridad|secretas?)",
    r"sicherheitsfragen?|geheimfragen?|geheime fragen?",
    r"domand[ae] (?:di )?(?:sicurezza|segret[ae])",
)
ANSWER_WORDS = r"answers?|reponses?|respuestas?|antworte?n?|rispost[ae]"
# Cues of a phrase whose words are the secret ("Passphrase: le chat dort sur le toit").
PASSPHRASE_CUES = (
    r"pass-?phrases?|phrases? (?:secretes?|de passe)|frases? (?:secretas?|de contrasena"
    r"|de acceso|segret[ae])|passsatz|geheimsatz|kennsatz"
)
# Punctuation people put between a credential word and its value instead of "is": matched
# between spaces only, so "password-protected" is one word.
PUNCTUATION_MARKERS = ("-", "--", "→", "->", "=>", "⇒", "|", "»", "«", "::")

# Things opened by a code ("the alarm is disarmed with 9371", "l'alarme se désactive avec
# 2088", "Alarmanlage wird mit 5519 deaktiviert"): folded regexes, the start of a word.
LOCK_NOUNS = (
    r"alarms?|doors?|gates?|safes?|keypads?|locks?|padlocks?|lockers?|garage|shutters?"
    r"|alarmes?|portes?|portails?|coffres?(?:-forts?)?|cadenas|digicodes?|casiers?"
    r"|alarmas?|puertas?|portal(?:es)?|verjas?|caja fuerte|candados?|cerraduras?|garajes?"
    r"|taquillas?"
    r"|alarm\w*|tur\w*|tor|garagentor|tresor|schloss|vorhangeschloss|zahlenschloss|spind"
    r"|allarm[ei]|porta|portone|cancello|cassaforte|lucchetto|serratura|armadietto"
    # an anti-theft system is an alarm ("Antifurto di casa", "el antirrobo")
    r"|antifurt[oi]|antirrobos?",
    # German joins the lock to what it is in ("Kabinentresor", "Wandsafe", "Bürotresor"):
    # a compound whose last part is a lock of five letters or more (not "Motor", "Sektor")
    r"[a-z]{3,}(?:tresor|safe|schloss|alarm|alarmanlage)",
    # what holds a key and opens with a code: a key box, a room safe
    r"key ?(?:box|boxes|safes?|lock ?box)|lock ?box(?:es)?|keysafes?|boite a cles|boitier a cles"
    r"|boites? a clefs?|coffre de l'hotel|caja de (?:las )?llaves|cajetin(?: de las llaves)?"
    r"|schlussel(?:kasten|box|tresor|safe)|zimmersafe|cassetta (?:delle chiavi|portachiavi)"
    r"|portachiavi|safe",
    # the keypad a code is typed on
    r"tastenfeld|ziffernfeld|clavier|teclado|tastiera|tastierino|hoftor|haustur|wohnungstur",
)
# Combination locks (a padlock, a bike lock, a locker) and the words for their combination:
# a value after them is the combination, 3 digits are enough ("Spindcode 298", "candado de
# la taquilla es 17-24-11", "combinaison du cadenas : 530"). Folded regexes.
COMBINATION_WORDS = (
    r"combinations?|combos?|combinaisons?|combinacion(?:es)?|kombination(?:en)?"
    r"|combinazion[ei]|zahlenschloss\w*|zahlenkombination\w*"
)
PADLOCK_NOUNS = (
    r"padlocks?|bike\s?locks?|lockers?|cadenas|casiers?|antivols?|candados?|taquillas?"
    r"|vorhangeschloss\w*|fahrradschloss\w*|spind\w*|lucchett[oi]|armadiett[oi]"
    # padlocks named by their maker
    r"|master ?lock|abus|kryptonite"
)
# Verbs that open, lock or arm one (word starts, folded): the sentence must have one, so
# "Gate 12 boards with 1500 passengers" is not a code.
OPENING_VERBS = (
    r"open|unlock|disarm|arm|deactivat|activat|switch|turn|enter|typ|key|punch|reset"
    r"|ouvr|ouvert|deverrouill|desactiv|activ|compos|tap|coup|arret|abr|desbloque|quit"
    r"|activ|marc|apag|teclea|offn|geoffnet|entsperr|deaktivier|aktivier|entriegel|schalt"
    r"|eingeb|eintipp|apr|sblocc|disattiv|attiv|digit|spegn|inser"
)
# Verbs that enter a code, with their particle (folded regexes, whole words): the value they
# take is typed on something, not counted ("tapant A1942 sur le boîtier", "punch in 4471#",
# "key in 0913", "composer le 4821", "marcar 5512", "digitare 0417", "tippt 2580 ein").
ENTRY_VERBS = (
    r"(?:punch|key|tap|type)(?:s|ed|es|ing|ped|ping)?\s+in|enter(?:s|ed|ing)?|typ(?:e|es|ed|ing)"
    r"|dial(?:s|ed|led|ing|ling)?|input(?:s|ted|ting)?"
    r"|tap(?:e|es|ez|er|ant|ait|aient|ons|e)|compos(?:e|es|ez|er|ant|ait|ons|e)|saisi(?:r|s|t"
    r"|ssez|ssant)|fai(?:re|tes|s|t|sant) le"
    r"|marc(?:ar|a|as|an|ad|o|ando|ó)|tecle(?:ar|a|as|an|ad|o|ando)|introduc(?:ir|e|es|en|iendo)"
    r"|digit(?:ar|a|as|an|ando|are|ate|ando|i|o)|compo(?:rre|ni|nete|nendo)"
    r"|inser(?:ire|isci|ite|endo)|batt(?:ere|i|ete|endo)"
    r"|(?:ein)?tipp(?:en|t|e|st)|eingeb(?:en)?|eingegeben|gib(?:t|st)?|wahl(?:en|t|e)",
    # a key pressed: "press 3 5 9", "appuyer sur 4821", "pulsar 1234", "drücken", "premere"
    r"press(?:es|ed|ing)?|push(?:es|ed|ing)?|appu(?:ie|ies|yer|yez|yant)(?:\s+sur)?"
    r"|puls(?:ar|a|as|e|ando)|presion(?:ar|a|as|e|ando)|druck(?:en|t|e|st)|prem(?:ere|i|ete|endo)",
)
# Devices that only take a code: a code-shaped value in their clause is their code.
KEYPAD_DEVICES = (
    r"keypads?|key ?pads?|lock ?box(?:es)?|key ?safes?|key ?box(?:es)?|digicodes?|boitiers?"
    r"|interphones?|intercoms?|clavier(?: a code)?|teclados?|porteros? automaticos?|tastenfeld"
    r"|ziffernfeld|schlussel(?:kasten|box|tresor|safe)|codeschloss|tastierin[oi]|citofon[oi]"
    r"|alarm ?panel|keyless"
)
# Ways in that a code opens, named without a lock ("Back entrance: 7 3 1 5", "Eingang 4471").
ACCESS_NOUNS = (
    r"(?:back |side |front |rear |main )?entrances?|entry|entree|entrada|ingresso|eingang"
    r"|hintereingang|nebeneingang|portier|portero|portone|" + KEYPAD_DEVICES
)
# Openings that take their code with "with", "avec", "mit"... and no lock named ("disarm
# with 0913", "ouvre avec 4821", "se abre con 1234", "si apre con 0417", "geht mit 2580 auf").
CODE_OPENERS = (
    r"open(?:s|ed|ing)?|unlock(?:s|ed|ing)?|disarm(?:s|ed|ing)?|arm(?:s|ed|ing)?"
    r"|ouvr\w*|ouvert\w*|deverrouill\w*|desactiv\w*|desarm\w*"
    r"|abr(?:e|en|ir|io|imos|iendo)|desbloque\w*|desactiv\w*"
    r"|offn\w*|geoffnet|entsperr\w*|entriegel\w*|deaktivier\w*|entscharf\w*"
    r"|apr(?:e|ono|ire|endo|i)|sblocc\w*|disattiv\w*|disinnesc\w*"
    # an alarm is switched off with its code ("si spegne con", "se apaga con", "schaltet ab")
    r"|turn(?:s|ed)? off|switch(?:es|ed)? off|eteint|eteindre|apag\w*|spegn\w*|ausschalt\w*"
    r"|abschalt\w*|ausgeschaltet|abgeschaltet"
    # one gets in with its code: "you get in with 7731", "on rentre avec 1984B", "al cancello
    # si entra con 3319", "se entra con 4821", "kommt man mit 2580 rein"
    r"|get(?:s|ting)? in|let(?:s)?(?: \w+)? in|rentr(?:e|es|ez|ons|er|ent)"
    r"|(?:on|si|se|man) entr(?:e|a|an|ano|er)|(?:rein|herein)komm\w*"
)
# What may follow a typed code: its end, a place, the next step, never the thing counted
# ("1500 chansons", "1000 goles" count; "A1942 sur le boîtier", "0913 when you arrive" do not).
CODE_FOLLOWERS = (
    "on", "at", "in", "into", "to", "and", "then", "when", "before", "after", "for", "first",
    "sur", "au", "a", "dans", "et", "puis", "quand", "avant", "pour", "en", "al", "el", "y",
    "luego", "cuando", "antes", "para", "sul", "sulla", "nel", "e", "poi", "quando", "prima",
    "per", "am", "auf", "an", "ins", "und", "dann", "wenn", "vor", "ein", "zum", "zur", "um",
    "und", "ab", "to", "plus", "followed", "gefolgt", "suivi", "seguido", "seguito", "si",
    "se", "sich", "it", "the", "la", "le", "il", "der", "die", "das", "den", "dem",
)  # fmt: skip
# What brings in the code that opens one: "with", "using", "avec", "con", "mit".
CODE_INSTRUMENTS = (
    r"with|using|on|via|by entering|by typing|by keying in|avec|en tapant|en composant|con"
    r"|mediante|marcando|tecleando|mit|durch|per|digitando|tramite"
)
# Prepositions that open a complement between a credential word and its value, with no
# "is" or ":" ("PIN of the company card 0483", "PIN del bancomat 5521", "PIN der EC-Karte").
COMPLEMENT_PREPOSITIONS = (
    "of", "for", "on", "to", "at", "de", "du", "des", "d'", "pour", "del", "para", "por",
    "al", "der", "die", "das", "den", "dem", "fur", "furs", "zum", "zur", "vom", "von", "am",
    "di", "della", "dello", "dei", "degli", "delle", "per", "al", "alla", "dal", "do", "da",
)  # fmt: skip

# Cue words that look like credential cues but name something else: "postal code",
# "codice fiscale", "dress code". Checked on the words just before or after the cue. Not a
# "password hint": a hint's value is the password or gives it away ("Password hint is the dog's
# name plus street number: Rex221", leaks_e), so a value after it is refused (fail closed).
NOT_CREDENTIAL = (
    r"(?:postal|post|zip|country|area|dress|promo|promotional|discount|coupon|voucher|source"
    r"|qr|bar|tax|fiscal|morse|colou?r|status|error|airport|iata|language|currency|region"
    r"|sort|swift|bic|iban|product|activation|referral|booking|reservation|confirmation"
    r"|tracking|diagnostic|time|zone|model|part|article|style|sku|item|engine|trim)"
    r"\s+(?:codes?|keys?)",
    r"codes? (?:postal|promo|de reduction|fiscal|couleur|vestimentaire|source|qr|pays"
    r"|regional|d'erreur|iata)",
    r"codigos? (?:postal|promocional|de descuento|fiscal|de vestimenta|fuente|qr|de pais|de error)",
    r"codice (?:fiscale|postale|promozionale|sconto|di avviamento postale|sorgente|qr|colore"
    r"|errore)",
    r"(?:postleitzahl|[a-z]*(?:rabatt|gutschein|dress|quell|lander|fehler|post|bar|uni|zip"
    r"|qr|pseudo|byte|op|short|promo|strich|geo|area|country|zone|farb|lauf|maschinen"
    r"|programm|html|source|morse|stil|status|antwort|iata|sprach|ean|isbn|hs|ifsc|ups"
    r"|swift|bic|iban|lei|isin|pay|postal|color|colour)-?codes?)",
    r"(?:source|open-source|open source|clean|legacy|python|java|rust|go|c\+\+|the|her|his"
    r"|their|our|your|my|writing|reviews?|reviewing) code",
    r"code (?:reviews?|base|style|quality|freeze|owners?|of conduct|editor|coverage|names?)",
    r"codes? (?:source|de conduite)",
    r"(?:pass(?:words?|phrases?|codes?)?|pins?|codes?|mots? de passe|mdp|contrasenas?|passwort"
    r"|kennwort|credentials?|logins?|tokens?|keys?|cles?)\s+(?:managers?|polic(?:y|ies)|resets?"
    r"|rules|requirements|strength|length|vaults?|apps?|hygiene|rotation|expiry|changes?"
    r"|fields?|prompts?|less|based|gestionnaire|gestor|generators?|safes?|books?"
    r"|pages?|screens?|forms?|flows?|methods?|options?|settings|auth(?:entication)?)",
)

# Words that may stand between a cue and its value: "password *for the office VPN* is X".
# The assignment words mark where the value starts, in any of the five languages.
ASSIGNMENT_WORDS = (
    "is", "was", "are", "were", "remains", "stays", "=", ":", "->", "=>",
    "est", "etait", "sont", "reste", "c'est",
    "es", "era", "son", "sigue siendo",
    "ist", "lautet", "lauten", "war", "heisst", "heißt", "bleibt",
    "e", "è", "sono", "resta",
)  # fmt: skip

# Units and currencies: a number with one of these next to it is a price or a quantity.
UNITS = (
    "€", "$", "£", "¥", "%", "‰", "eur", "euro", "euros", "usd", "gbp", "chf", "jpy", "cad",
    "aud", "dollar", "dollars", "pound", "pounds", "franc", "francs", "yen", "pesos", "k",
    "km", "kms", "m", "cm", "mm", "mi", "mile", "miles", "kg", "g", "mg", "lb", "lbs", "oz",
    "l", "ml", "cl", "gal", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "kbps",
    "mbps", "gbps", "hz", "khz", "mhz", "ghz", "w", "kw", "kwh", "v", "mah", "dpi", "ppi",
    "px", "fps", "rpm", "s", "ms", "sec", "secs", "min", "mins", "h", "hr", "hrs", "hours",
    "minutes", "seconds", "days", "weeks", "months", "years", "ans", "jours", "mois",
    "semaines", "heures", "anos", "dias", "meses", "horas", "jahre", "tage", "monate",
    "stunden", "anni", "giorni", "mesi", "ore", "points", "pts", "points", "punkte", "puntos",
    "punti", "steps", "pas", "calories", "kcal", "users", "people", "employees", "seats",
    "lines", "words", "pages", "items", "units", "copies", "rows", "records", "requests",
    "tokens", "followers", "subscribers", "downloads", "views", "stars", "likes", "digits",
    "characters", "chars", "chiffres", "caracteres", "ziffern", "zeichen", "cifre",
    "caratteri", "digitos", "bytes", "bits", "x", "chf", "sek", "nok", "dkk", "pln", "czk",
    "huf", "mxn", "brl", "inr", "cny", "krw", "zar", "nzd", "sgd", "hkd", "rub", "ars", "clp",
    "cop", "iu", "mph", "kph",
)  # fmt: skip

# Nouns before a number that make it a harmless label rather than an identifier.
# Words before a year ("in 2019", "seit 1998", "born 1984"): they explain a year, not the
# digit groups that may follow it (see :mod:`memory_service.core.privacy.identifiers`).
YEAR_WORDS = (
    "since", "depuis", "desde", "seit", "dal", "in", "en", "im", "nel", "year", "annee",
    "ano", "jahr", "anno", "born", "ne", "nee", "nacido", "geboren", "nato",
)  # fmt: skip

HARMLESS_NUMBER_NOUNS = (
    "flight", "flights", "vol", "vuelo", "flug", "volo", "seat", "seats", "siege", "asiento",
    "sitz", "sitzplatz", "posto", "gate", "porte", "puerta", "room", "chambre", "habitacion",
    "zimmer", "camera", "platform", "quai", "anden", "gleis", "binario", "terminal",
    "version", "versions", "release", "v", "build", "model", "modele", "modelo", "modell",
    "modello", "size", "taille", "talla", "grosse", "taglia", "row", "rang", "fila", "reihe",
    "page", "pages", "chapter", "step", "level", "floor", "etage", "planta", "stock", "piano",
    "bus", "train", "tram", "line", "ligne", "linea", "linie", "track", "episode", "season",
    "python", "ios", "android", "windows", "macos", "ubuntu", "debian", "java", "node",
    "postgres", "postgresql", "iphone", "pixel", "galaxy", "rtx", "gtx", "ryzen", "core",
    *YEAR_WORDS,
    # a commit, a hash or a firmware image is a thing's id, not a person's
    "commit", "commits", "hash", "sha", "sha1", "sha256", "revision", "rev", "firmware",
    "checksum", "digest", "changeset",
    # a time as seconds since 1970 is a time, not someone's number
    "timestamp", "timestamps", "epoch", "unix", "horodatage", "zeitstempel",
    # a spare part's number names a product, as a model's does ("part number DA29-00020B")
    "part", "sku",
)  # fmt: skip


# Acronyms that are also common words in one of the languages ("ein", "sin", "nie", "pan",
# "tin"): cues only when written in capitals.
IDENTIFIER_ACRONYMS = ("EIN", "TIN", "SIN", "NIE", "PAN", "UID", "RUT", "PPS", "IRD", "NIN")

# Cues after which a code with digits is a personal identifier (travel, loyalty, account,
# customer and document numbers), whatever its shape. A support ticket or a case ("ticket
# #30602") is a queue's label: its number is judged by its shape alone (an e-ticket's 13
# digits still are an identifier).
IDENTIFIER_CUES = (
    # Phones: the number after the cue is one, whatever its grouping.
    r"(?:tele)?phone(?: number| no\.?| #)?|tel\.?|mobile|cell(?: ?phone)?|fax|whatsapp|sms"
    r"|telephone|portable|numero de (?:telephone|portable)|telefono|movil|celular|cellulare"
    r"|telefon(?:nummer)?|handy(?:nummer)?|mobil(?:nummer|telefon)?|rufnummer",
    # A number of something that belongs to someone ("client number", "numéro client").
    r"(?:number|numero|nummer|no\.?|n°|nr\.?|num\.?)(?: de| di| du| del| des)?\s+"
    r"(?:client|cliente|customer|kunde|membre|member|socio|adherent|compte|account|conto"
    r"|cuenta|konto|contrat|contratto|contrato|vertrag|dossier|pratica|expediente|tessera"
    r"|carte|card|tarjeta|carta|karte|passeport|pasaporte|passaporto|permis|patente|police"
    r"|poliza|polizza|police|versicherung|assure|assicurato|asegurado)",
    r"(?:frequent|frequent-)?flyer(?: number| no\.?| #)?",
    r"(?:loyalty|rewards?|member(?:ship)?|customer|client|account|acct|policy|patient"
    r"|employee|staff|student|badge|subscriber|contract|booking|reservation"
    r"|confirmation|order|invoice|claim|tracking|known traveller|known traveler|redress"
    r"|passport|visa|licen[cs]e|driver'?s licen[cs]e|driving licen[cs]e|permit|registration"
    r"|id|identity|national id|social security|tax|vat|insurance|health insurance|medicare"
    r"|medicaid|nhs|card|bank|routing|sort|meter|serial|plate|number plate|licen[cs]e plate)"
    r"\s*(?:number|no\.?|nr\.?|num\.?|#|code|id|ref(?:erence)?)",
    r"(?:ktn|ssn|nino|itin|nif|dni|nir|insee|cpf|cnp|pesel|bsn|aadhaar"
    r"|ahv|avs|cuil|cuit|curp|rfc|tfn|personnummer|steuer-?id"
    r"|steuernummer|codice fiscale|partita iva|tessera sanitaria|mrn|pnr|kundennummer"
    r"|mitgliedsnummer|versicherungsnummer|sozialversicherungsnummer|ausweisnummer"
    r"|reisepassnummer|fuhrerscheinnummer|kontonummer|personalausweis|reisepass|fuhrerschein"
    r"|kennzeichen|immatriculation|plaque|matricula|targa|numero de (?:client|membre|dossier"
    r"|securite sociale|passeport|permis|carte|compte|adherent|contrat|police|commande)"
    r"|numero de (?:cliente|socio|pasaporte|cuenta|seguridad social|tarjeta|pedido|poliza)"
    r"|numero (?:di cliente|cliente|di tessera|di passaporto|di conto|di patente|di carta"
    r"|d'ordine)|n[°o] (?:de )?(?:client|membre|adherent|dossier|passeport|permis|compte)"
    r"|carte (?:vitale|de fidelite|d'identite|grise)|tarjeta (?:de fidelidad|sanitaria)"
    # a holder's card, the holder's word after it ("carte client AH-FR-20931", "tarjeta socio")
    r"|(?:carte|tarjeta|carta|karte|card) (?:client|cliente|customer|kunde|membre|member|socio"
    r"|adherent|abonne|abonado|abbonato)"
    # identity documents, named before their number ("carta d'identità CA12345AB")
    r"|(?:national )?id card|identity card|identity document|carta d'identita"
    r"|documento (?:de identidad|d'identita|nacional de identidad)|cedula(?: de identidad)?"
    r"|ausweis|identitatskarte|carte nationale d'identite|passaporto|pasaporte|passeport"
    r"|miles (?:&|and) more|bonvoy|honors|skywards|avios|flying blue|aadvantage|mileageplus"
    r"|skymiles|executive club|nectar|payback)",
    # Any number, when nothing before it says it is harmless (see HARMLESS_NUMBER_NOUNS);
    # last, so that the longer cues above win.
    r"number|numero|nummer",
)

# Spelling alphabets: a word that stands for its first letter when a value is spelled on
# the phone ("alpha bravo seven", "Anton Berta", "Ancona Bologna"). NATO's (read in every
# language, with its common spellings), Germany's DIN 5009 and Italy's city names. Folded,
# lower case. A run of them is a spelled value only with other letters or digits around
# (see :mod:`memory_service.core.privacy.normalise`).
SPELLING_ALPHABET_WORDS = frozenset(
    {
        "alpha", "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
        "india", "juliett", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
        "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "whisky",
        "x-ray", "xray", "yankee", "zulu",
        "anton", "berta", "caesar", "casar", "dora", "emil", "friedrich", "gustav",
        "heinrich", "ida", "julius", "kaufmann", "ludwig", "martha", "nordpol", "otto",
        "paula", "quelle", "richard", "samuel", "siegfried", "theodor", "ulrich", "viktor",
        "wilhelm", "xanthippe", "ypsilon", "zacharias", "zeppelin",
        "ancona", "bologna", "como", "domodossola", "empoli", "firenze", "genova", "imola",
        "jolly", "kappa", "livorno", "milano", "napoli", "otranto", "palermo", "quarto",
        "roma", "savona", "torino", "udine", "venezia", "washington", "xeres", "york",
        "zara",
    }
)  # fmt: skip
# "B as in Bravo", "B comme Berthe", "B wie Berta", "B come Bologna", "B de Barcelona".
SPELLING_AS_IN = ("as in", "like in", "like", "comme", "wie", "come", "de", "per", "para")

# The words of a hundred, a thousand and a million, and the Spanish hundreds that are one
# word ("quinientos"), for numbers said in full ("trois cent vingt-et-un", "dos mil diez",
# "einhundertzwölf", "millenovecentottantasette"). Folded, lower case.
NUMBER_SCALES: dict[str, int] = {
    "hundred": 100, "cent": 100, "cents": 100, "cien": 100, "ciento": 100, "cientos": 100,
    "hundert": 100, "cento": 100,
    "quinientos": 500, "setecientos": 700, "novecientos": 900,
    "thousand": 1000, "mille": 1000, "mil": 1000, "tausend": 1000, "mila": 1000,
    "million": 1_000_000, "millions": 1_000_000, "millon": 1_000_000,
    "millones": 1_000_000, "millionen": 1_000_000, "milione": 1_000_000,
    "milioni": 1_000_000,
}  # fmt: skip
# What people say between the parts of a value they dictate ("Hotel Kilo, then niner four").
THEN_WORDS = ("then", "and then", "puis", "ensuite", "luego", "y luego", "despues", "dann",
              "und dann", "poi", "e poi", "quindi")  # fmt: skip

# --- secrets told rather than written (:mod:`memory_service.core.privacy.recipes`) ----------

# The word for a letter's case, before the letter ("capital B", "großes B") or after it
# ("B majuscule", "B mayúscula", "B maiuscola").
CASE_WORDS_BEFORE = (
    r"capital|upper-?case|lower-?case|small|big|grosses|großes|grosse|große|kleines|kleine"
)
CASE_WORDS_AFTER = (
    r"majuscule|minuscule|mayuscula|minuscula|maiuscola|minuscola|maiuscolo|minuscolo"
    r"|capital|upper-?case|lower-?case|in caps|en majuscule|en minuscule"
)
# Verbs of logging in or unlocking (folded, any person): the login's means follow "with".
LOGIN_VERBS = (
    r"logs? (?:in|on)(?:to)?|logged (?:in|on)|signs? (?:in|on)(?:to)?|signed in|connects?"
    r"|unlocks?|se connecte|se connectait|accede|accedait|se logue|entra|accede|inicia sesion"
    r"|se conecta|loggt sich|meldet sich|entsperrt|verbindet sich|accede|entra|si collega"
    r"|effettua l'accesso|sblocca"
)
# What a recipe is made of: a personal item, not a product ("Google", "Face ID").
RECIPE_INGREDIENTS = (
    r"names?|nicknames?|surnames?|initials?|years?|birthday|birth year|date|dates|numbers?"
    r"|words?|prenoms?|noms?|surnoms?|initiales|annees?|anniversaire|numeros?|mots?|dates?"
    r"|nombres?|apodos?|motes?|iniciales|anos?|cumpleanos|numeros?|palabras?|fechas?"
    r"|spitznamen?|namen?|initialen|jahr|jahres|geburtsjahr|geburtstag|nummer|wort|datum"
    r"|trikotnummer|hausnummer|soprannomi?|nomi?|nome|iniziali|anni|anno|compleanno"
    r"|numeri|numero|parola|data"
)
RECIPE_JOINERS = (
    r"and|plus|then|followed by|et|puis|suivi|suivie|y|mas|luego|seguido|und|dann|gefolgt"
    r"|e|poi|seguito|seguita"
)
# The subjects of the security questions banks ask, as people write them (folded).
QUESTION_SUBJECTS = (
    r"first pet(?:'s name)?|first (?:dog|cat)|name of (?:the |her |his |my |their )?first pet"
    r"|first school|primary school|favou?rite teacher(?:'s (?:sur)?name)?"
    r"|street (?:where )?(?:the user |she |he |they |i )?grew up(?: on| in)?"
    r"|childhood street|childhood best friend|(?:city|town) (?:where )?(?:[a-z]+ ){0,2}parents met"
    r"|premier animal(?: de compagnie)?|premiere ecole|rue de (?:son|mon|ton) enfance"
    r"|ville ou (?:ses|mes) parents se sont rencontres"
    r"|primera mascota|primer colegio|primera escuela|calle de su infancia"
    r"|ciudad donde (?:se conocieron|nacieron) sus padres"
    r"|erstes haustier|ersten haustiers|erste schule|ersten schule"
    r"|strasse (?:ihrer|seiner|meiner) kindheit|straße (?:ihrer|seiner|meiner) kindheit"
    r"|stadt, in der sich (?:seine|ihre|meine) eltern kennenlernten"
    r"|primo animale(?: domestico)?|primo cane|primo gatto|prima scuola"
    r"|via della sua infanzia|citta dove si sono conosciuti i (?:suoi )?genitori"
    # the place of one's or a parent's birth, asked as a question
    r"|citta natale(?: del padre| della madre)?|ville natale|ciudad natal|geburtsstadt"
    r"|(?:town|city) (?:you were|were you) born(?: in)?"
)
# Verbs of answering, and what says a note is about a security question.
ANSWER_VERBS = (
    r"answers?|answered|answering|says|said|uses|puts|gives|writes|types|replies|replied"
    r"|repond|repondu|repondre|met|donne|ecrit|contesta|contesto|contestar|responde|respondio"
    r"|responder|pone|dice|escribe|antwortet|beantwortet|beantworte|beantworten|sagt|schreibt"
    r"|nimmt|gibt|risponde|rispondere|risposto|mette|scrive"
)
SECURITY_CONTEXT = (
    r"secur|securi|seguridad|sicherheit|sicurezza|security question|question secrete"
    r"|pregunta secreta|geheimfrage|domanda segreta|when asked|quand on lui demande"
    r"|cuando le preguntan|wenn gefragt|quando gli chiedono"
)


# Hosts whose path is one person's handle: payment links and link-in-bio pages, a personal
# profile ("paypal.me/NAME", "revolut.me/NAME", "cash.app/$NAME", "venmo.com/u/NAME",
# "wise.com/pay/me/NAME", "linktr.ee/NAME", "linkedin.com/in/NAME"). Folded regexes, the
# host with the path before the handle.
PERSONAL_PAGE_HOSTS = (
    r"paypal\.me|paypal\.com/paypalme|revolut\.me|monzo\.me|bunq\.me|cash\.app/\$?"
    r"|(?:account\.)?venmo\.com/(?:u/)?|wise\.com/pay/me|lydia-app\.com/(?:collect/)?"
    r"|linktr\.ee|lnk\.bio|bio\.link|beacons\.ai|ko-fi\.com|buymeacoffee\.com|about\.me"
    r"|linkedin\.com/in|facebook\.com/profile\.php\?id=|t\.me|wa\.me|onlyfans\.com"
)
# Hosts whose pages are accounts: the first part of the path is a user name
# ("github.com/mkowalski", "instagram.com/fra.cucina", "twitch.tv/someone"). Read as a
# person's page when the path has that one part only: "github.com/python/cpython" is a project.
PROFILE_HOSTS = (
    r"github\.com|gitlab\.com|codeberg\.org|bitbucket\.org|twitter\.com|x\.com"
    r"|instagram\.com|tiktok\.com|twitch\.tv|youtube\.com|facebook\.com|fb\.com"
    r"|threads\.net|bsky\.app/profile|reddit\.com/u(?:ser)?|medium\.com|behance\.net"
    r"|dribbble\.com|soundcloud\.com|pinterest\.com|vimeo\.com|flickr\.com/people"
    r"|deviantart\.com|mastodon\.social|substack\.com/@|strava\.com/athletes"
    r"|letterboxd\.com|goodreads\.com/user/show|snapchat\.com/add|patreon\.com"
)
# Pages of the site itself under those hosts, not accounts.
PROFILE_HOST_PAGES = (
    "about", "explore", "home", "login", "signup", "search", "settings", "features",
    "pricing", "trending", "topics", "marketplace", "notifications", "watch", "results",
    "hashtag", "tags", "tag", "discover", "feed", "help", "terms", "privacy", "i", "intent",
    "share", "sponsors", "orgs", "organizations", "enterprise", "events", "jobs", "new",
)  # fmt: skip
# Payment apps whose user names are said after their name ("cash app $mikeb", "Venmo:
# jake-miller-7", "Bizum al 612..."), and the words for a payment alias ("alias: sol.playa.mate",
# "alias de Mercado Pago", "alias CBU").
PAYMENT_APPS = (
    r"cash ?app|venmo|zelle|revolut|paypal|wise|monzo|lydia|twint|mercado ?pago|nequi|yape"
)
ALIAS_CUES = r"alias(?:\s+(?:de|del|of|da|cbu|cvu|mp|mercado ?pago|la|mi|su|cuenta|pix))*"
# Words of an organisation's page: with one in the clause, a payment link is a company's or a
# charity's ("Donations go to paypal.me/RedCross", "the shop's linktr.ee/..."), not a person's.
ORGANISATION_CUES = (
    r"donat\w*|charit\w*|foundation|association|ngo|ong|nonprofit|non-profit|company|shop"
    r"|store|official|brand|business|fondation|entreprise|boutique|magasin|fundacion"
    r"|empresa|tienda|oficial|verein|stiftung|firma|laden|geschaft|fondazione|azienda"
    r"|negozio|ufficiale|spenden?|dons?|donativos?|donazion\w*|onlus"
)


# Keys of code, config and JSON whose value is a person's datum, by the kind of datum
# ("first": a name, "email", "telefono": a phone, "date_of_birth", "nachname"): folded,
# lower case, the key's parts glued ("first_name", "firstName" and "first-name" are
# "firstname"). A key ending with one of these names the field ("billing_email").
PERSONAL_FIELD_KEYS: dict[str, str] = {
    **dict.fromkeys(
        ("firstname", "lastname", "surname", "surnames", "familyname", "givenname",
         "middlename", "maidenname", "fullname", "realname", "legalname", "birthname",
         "nickname", "prenom", "nom", "nomdefamille", "nombre", "apellido", "apellidos",
         "vorname", "nachname", "familienname", "nome", "cognome", "spitzname", "surnom"),
        "name",
    ),
    **dict.fromkeys(
        ("username", "login", "userid", "handle", "pseudo", "usuario", "nomutilisateur",
         "benutzername", "nomeutente", "gamertag", "discord", "instagram", "twitter"),
        "login",
    ),
    **dict.fromkeys(
        ("email", "emailaddress", "mail", "mailaddress", "courriel", "adressemail",
         "correo", "correoelectronico"),
        "email",
    ),
    **dict.fromkeys(
        ("phone", "phonenumber", "telephone", "tel", "mobile", "mobilephone", "cell",
         "cellphone", "portable", "telefono", "movil", "celular", "telefonnummer", "telefon",
         "handy", "handynummer", "cellulare", "whatsapp"),
        "phone",
    ),
    **dict.fromkeys(
        ("address", "homeaddress", "streetaddress", "street", "adresse", "direccion",
         "domicilio", "anschrift", "strasse", "wohnadresse", "indirizzo"),
        "address",
    ),
    **dict.fromkeys(
        ("dob", "birthday", "birthdate", "dateofbirth", "datedenaissance", "naissance",
         "nacimiento", "fechadenacimiento", "fechanacimiento", "cumpleanos", "geburtsdatum",
         "geburtstag", "datadinascita", "datanascita", "nascita", "compleanno"),
        "date",
    ),
    **dict.fromkeys(
        ("iban", "ssn", "nino", "passport", "passportnumber", "taxid", "cardnumber",
         "creditcard", "ccnumber", "accountnumber", "licenseplate", "passeport",
         "immatriculation", "pasaporte", "dni", "nie", "nif", "matricula", "reisepass",
         "kennzeichen", "steuerid", "passaporto", "codicefiscale", "targa", "secu",
         "numerosecu", "personalausweis"),
        "number",
    ),
}  # fmt: skip
# Keys that name a person's field only alone or after a word of a person ("first":
# "Oksana", "user_name", "contact_name"): after another word they name a thing
# ("theme_name", "project_first", "server_user").
PERSONAL_FIELD_BARE_KEYS: dict[str, str] = {
    **dict.fromkeys(("first", "last", "name", "given", "family", "nick"), "name"),
    **dict.fromkeys(("user", "utente", "benutzer", "utilisateur"), "login"),
}
PERSON_KEY_WORDS = frozenset(
    {"user", "contact", "customer", "client", "owner", "person", "member", "account",
     "my", "his", "her", "wife", "husband", "partner", "mother", "father", "mom", "mum",
     "dad", "son", "daughter", "child", "kid", "spouse", "guest", "patient", "employee",
     "emergency", "billing", "shipping", "recipient", "sender", "display", "first", "last",
     "full", "given", "family", "middle", "maiden", "real", "legal", "birth", "nick",
     "utilisateur", "usuario", "utente", "benutzer", "kunde", "cliente", "persona",
     "personal", "private", "home", "notify", "to", "from", "cc", "reply"}
)  # fmt: skip
# Keys whose value opens something: a password, a PIN, a token, a key ("db_password",
# "apiKey", "mot_de_passe", "clave", "kennwort").
CREDENTIAL_FIELD_KEYS = frozenset(
    {
        "password", "passwd", "pwd", "pass", "passphrase", "passcode", "pin", "pincode",
        "token", "accesstoken", "authtoken", "apitoken", "refreshtoken", "bearer", "secret",
        "clientsecret", "secretkey", "apikey", "accesskey", "privatekey", "sshkey", "otp",
        "cvv", "cvc", "mnemonic", "credentials", "credential", "seedphrase",
        "motdepasse", "mdp", "codepin", "contrasena", "clave", "passwort", "kennwort",
        "geheimzahl", "parola", "paroladordine", "chiave", "codicepin",
    }
)  # fmt: skip
# Values of such a key that hold no value: empty, a placeholder, a reference to one.
PLACEHOLDER_VALUES = frozenset(
    {"", "null", "none", "nil", "true", "false", "undefined", "na", "n/a", "tbd", "todo",
     "changeme", "redacted", "hidden", "secret", "password", "example", "test", "demo",
     "admin", "root", "guest", "default", "anonymous", "user", "username", "name", "me",
     "required", "optional", "string", "str", "text", "value", "empty", "unknown", "xxx"}
)  # fmt: skip


# Animals a note may be about, in five languages: kinds and common breeds, folded or with
# their accents (regular-expression alternatives). A name right after one is a pet's (see
# :mod:`.name_lookalikes`); a health statement whose subject is one is an animal's, not a
# person's special-category data (see :mod:`.sensitive`).
ANIMAL_NOUNS = (
    r"dog|puppy|cat|kitten|horse|pony|rabbit|bunny|hamster|guinea pig|parrot|budgie|canary"
    r"|tortoise|turtle|ferret|goldfish|lizard|snake|pet"
    r"|chien|chienne|chiot|chat|chatte|chaton|cheval|lapin|hamster|perroquet|canari|tortue"
    r"|perro|perra|cachorro|gato|gata|gatito|caballo|conejo|loro|periquito|canario|tortuga"
    r"|hund|h[üu]ndin|welpe|katze|kater|k[äa]tzchen|pferd|kaninchen|hase|papagei|schildkr[öo]te"
    r"|cane|cagna|cucciolo|gatto|gatta|gattino|cavallo|coniglio|pappagallo|canarino"
    r"|tartaruga|criceto"
    # kinds and breeds a pet is named by ("a beagle named Biscuit", "our tabby is called
    # Miso"); not those that are also a person's trade or a nationality ("boxer", "pointer",
    # "shepherd", "persian")
    r"|beagle|labrador|lab|retriever|poodle|spaniel|terrier|collie|dachshund|pug|husky"
    r"|greyhound|whippet|chihuahua|corgi|schnauzer|sheepdog|bulldog|rottweiler|doberman"
    r"|dalmatian|mutt|tabby|moggy|kitty|mare|stallion|gelding|donkey|goat|lamb|piglet|hen"
    r"|chicken|duck|cockatiel|cockatoo|gecko|iguana|axolotl|rat|mouse|gerbil|chinchilla"
    r"|hedgehog|tortoiseshell|koi|fish|alpaca|llama"
    r"|matou|minou|jument|[âa]ne|ch[èe]vre|poule|cochon|furet|cobaye|teckel|caniche"
    r"|perrit[oa]|gatit[oa]|yegua|burro|cabra|gallina|cerdito|hur[óo]n|cobaya|erizo"
    r"|dackel|mops|pudel|stute|esel|ziege|huhn|meerschweinchen|wellensittich|frettchen|igel"
    r"|cagnolin[oa]|micio|micia|cavalla|asin[oa]|capra|gallina|furetto|porcellino d'india"
)
