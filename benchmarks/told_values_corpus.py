"""Generated notes for the told-value classes of holdout9 (branch leaks4), with look-alikes.

Families (the note's ``note`` field is ``family/form``, never printed with its text unless
``--misses`` asks for the synthetic misses):

- ``entered_code``: a code typed or said with a verb instead of "is" ("tapant A1942 sur le
  boîtier", "punch in 4471#", "geht mit 2580 auf"), or in the clause of a keypad device;
- ``answered_with``: a security question's answer given with a verb ("beantwortet die
  Sicherheitsfrage mit X") or after the quoted question and a colon or an arrow;
- ``said_plate``: a licence plate said with words between its groups ("W minus 12345 X",
  "B Strich KL 4411"), its digits in figures or in words;
- ``payment_handle``: a person's payment or profile page by its URL's shape, a payment app's
  cashtag, a payment alias after "alias";
- ``benign/...``: counts after the same verbs, answers outside a security question, "minus"
  in a grade or a sum, an organisation's payment page, a shell alias, a keypad's model.

Run through ``python -m benchmarks.privacy_guards --corpus told --seed N``.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

from faker import Faker

from tests.support.privacy_corpus import LOCALES, SPELLED, Maker, generate_rows


def _code(rng: random.Random) -> tuple[str, str]:
    form = rng.choice(("digits", "letter_digits", "digits_letter", "hash", "star"))
    digits = "".join(rng.choice(string.digits) for _ in range(rng.choice((4, 4, 5, 6, 8))))
    while digits[:2] in ("19", "20") and len(digits) == 4:
        digits = "".join(rng.choice(string.digits) for _ in range(4))
    letter = rng.choice(string.ascii_uppercase)
    value = {
        "digits": digits,
        "letter_digits": letter + digits[:4],
        "digits_letter": digits[:4] + letter,
        "hash": digits + "#",
        "star": "*" + digits[:4],
    }[form]
    return value, form


_ENTERED = {
    "en": [
        "To get into the building, punch in {c} at the side door.",
        "Key in {c} on the {d} and wait for the beep.",
        "Type {c} on the {d} by the garage.",
        "Disarm with {c} when you arrive, then lock up.",
        "The {d} at grandma's: enter {c} and pull the handle.",
        "For the bike shed you dial {c} then push.",
        "Unlock the side gate with {c}, it sticks a bit.",
        "{d} by the porch, {c} opens it.",
    ],
    "fr": [
        "On entre chez la nounou en tapant {c} sur le {d}.",
        "Il faut composer le {c} au {d} puis pousser.",
        "Pour le local poubelles, taper {c} et tirer la porte.",
        "Le portail s'ouvre avec {c} depuis la rue.",
        "Saisir {c} sur le {d} avant 22h.",
        "On désactive l'alarme avec {c} en entrant.",
        "Faire le {c} au {d}, deuxième porte à gauche.",
    ],
    "es": [
        "Para entrar al garaje hay que marcar {c} en el {d}.",
        "Se abre con {c} y luego se empuja fuerte.",
        "Teclear {c} en el {d} del portal.",
        "La alarma se desactiva con {c} al llegar.",
        "Marcando {c} en el {d} se abre el portón.",
        "Introduce {c} en el {d} y espera la luz verde.",
    ],
    "de": [
        "Hintertür vom Laden geht mit {c} auf.",
        "Am {d} {c} eintippen, dann drücken.",
        "Er tippt {c} ein und die Tür summt.",
        "Die Alarmanlage entschärft man mit {c} beim Reinkommen.",
        "Zum Keller: {c} am {d} eingeben und warten.",
        "Das Hoftor macht man mit {c} auf.",
    ],
    "it": [
        "Per entrare basta digitare {c} sul {d}.",
        "Il cancello si apre con {c} e poi si spinge.",
        "Comporre {c} sul {d} del condominio.",
        "L'allarme si disattiva con {c} appena entri.",
        "Inserire {c} nel {d} e aspettare il bip.",
        "Digitando {c} sul {d} si sblocca il portone.",
    ],
}
_DEVICES = {
    "en": ["keypad", "lockbox", "key safe", "intercom", "keypad panel"],
    "fr": ["boîtier", "digicode", "clavier", "interphone"],
    "es": ["teclado", "portero automático", "teclado numérico"],
    "de": ["Tastenfeld", "Schlüsselkasten", "Ziffernfeld", "Codeschloss"],
    "it": ["tastierino", "citofono", "tastierino numerico"],
}


def _entered_code(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    value, form = _code(rng)
    text = rng.choice(_ENTERED[lang]).format(c=value, d=rng.choice(_DEVICES[lang]))
    return text, f"entered_code/{form}"


_QUESTIONS = {
    "en": ["first pet", "mother's maiden name", "childhood best friend", "first school"],
    "fr": ["nom de jeune fille de ma mère", "premier animal", "ville natale", "première école"],
    "es": ["primera mascota", "apellido de soltera de mi madre", "ciudad natal"],
    "de": ["erstes Haustier", "Geburtsname der Mutter", "Lieblingsfilm", "Geburtsstadt"],
    "it": ["primo animale", "cognome da nubile della madre", "città natale"],
}
_ANSWERED = {
    "en": [
        "Answers the security question with {a}.",
        "For the bank's security question she always answers with '{a}'.",
        '"{q}" -> {a}',
        "Security question '{q}': {a}",
    ],
    "fr": [
        "Il répond à la question secrète par {a}.",
        "« {q} » : {a}",
        "Question de sécurité « {q} » → {a}",
        "À la question secrète elle répond toujours {a}.",
    ],
    "es": [
        "Contesta la pregunta de seguridad con {a}.",
        "«{q}»: {a}",
        "En la pregunta secreta responde siempre {a}.",
    ],
    "de": [
        "Sicherheitsfrage {q} beantwortet er mit {a}.",
        "Sie beantwortet die Sicherheitsfrage immer mit „{a}“.",
        "„{q}“: {a}",
    ],
    "it": [
        "Risponde alla domanda di sicurezza con {a}.",
        "«{q}»: {a}",
        "Alla domanda segreta risponde sempre {a}.",
    ],
}


def _answered_with(rng: random.Random, lang: str, faker: Callable[[str], Faker]) -> tuple[str, str]:
    fake = faker(rng.choice(LOCALES[lang]))
    answer = rng.choice((fake.first_name(), fake.last_name(), fake.city()))
    template = rng.choice(_ANSWERED[lang])
    form = "quoted" if "{q}" in template else "verb"
    return template.format(q=rng.choice(_QUESTIONS[lang]), a=answer), f"answered_with/{form}"


_DASH_WORDS = {
    "en": ["minus", "dash", "hyphen"],
    "fr": ["tiret", "moins"],
    "es": ["guion", "menos"],
    "de": ["minus", "Strich", "Bindestrich"],
    "it": ["trattino", "meno"],
}
_PLATE_TEMPLATES = {
    "en": ["Her car is {p}.", "The van's plate: {p}", "Number plate of the hire car, {p}."],
    "fr": ["La plaque de la voiture : {p}.", "Sa voiture, c'est {p}."],
    "es": ["La matrícula del coche es {p}.", "Matrícula de la furgoneta: {p}."],
    "de": ["Kennzeichen des Unfallwagens: {p}.", "Ihr Auto hat {p}."],
    "it": ["La targa della macchina è {p}.", "Targa del furgone: {p}."],
}


def _said_plate(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    dash = rng.choice(_DASH_WORDS[lang])
    letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.choice((1, 2))))
    tail = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.choice((1, 2))))
    number = "".join(rng.choice(string.digits) for _ in range(rng.choice((3, 4, 5))))
    form = rng.choice(("figures", "words"))
    if form == "words":
        words = [SPELLED[lang][int(d)] for d in number]
        number = " ".join(words)
    plate = f"{letters} {dash} {number} {rng.choice((dash, ''))} {tail}".replace("  ", " ")
    return rng.choice(_PLATE_TEMPLATES[lang]).format(p=plate), f"said_plate/{form}"


_PAGES = (
    "paypal.me/{h}",
    "revolut.me/{h}",
    "cash.app/${h}",
    "wise.com/pay/me/{h}",
    "linktr.ee/{h}",
    "venmo.com/u/{h}",
    "monzo.me/{h}",
    "linkedin.com/in/{h}",
    "https://paypal.me/{h}",
)
_PAGE_TEMPLATES = {
    "en": ["Small gig fees get paid via {u}.", "Pay her back at {u}", "All his links: {u}"],
    "fr": ["Pour le covoiturage, rembourser sur {u}.", "Tous ses liens sont sur {u}"],
    "es": ["Le pagan las clases por {u}.", "Para la vaquita, {u}"],
    "de": ["Auslagen zurück an {u}", "Nachhilfe bezahlt man über {u}."],
    "it": ["Per la cena si paga su {u}.", "Rimborsi a {u}"],
}
_ALIAS_TEMPLATES = (
    "Le pagan por el alias de Mercado Pago {a}.",
    "Mi alias es {a} para transferencias.",
    "Alias CBU: {a}",
    "Transferile al alias {a}, está a su nombre.",
)


def _payment_handle(
    rng: random.Random, lang: str, faker: Callable[[str], Faker]
) -> tuple[str, str]:
    fake = faker(rng.choice(LOCALES[lang]))
    if lang == "es" and rng.random() < 0.5:
        words = [w.lower() for w in fake.words(3) if w.isalpha()] or ["sol", "rio", "mate"]
        while len(words) < 3:
            words.append(rng.choice(("mate", "sol", "rio", "luna")))
        alias = ".".join(words[:3])
        return rng.choice(_ALIAS_TEMPLATES).format(a=alias), "payment_handle/alias"
    handle = fake.user_name()
    page = rng.choice(_PAGES)
    text = rng.choice(_PAGE_TEMPLATES[lang]).format(u=page.format(h=handle))
    return text, f"payment_handle/{page.split('.')[0].split('/')[-1]}"


LEAKS: dict[str, tuple[str, Maker]] = {
    "entered_code": ("secret", _entered_code),
    "answered_with": ("secret", _answered_with),
    "said_plate": ("pii", _said_plate),
    "payment_handle": ("pii", _payment_handle),
}

_BENIGN = {
    "counts": {
        "en": [
            "She entered {n} calories in the app yesterday.",
            "Types {n} words before breakfast.",
            "The museum opens with {n} visitors on Sundays.",
            "Dialled {n} leads last quarter.",
        ],
        "fr": ["Il a composé {n} chansons dans sa vie.", "Elle a tapé {n} pages de thèse."],
        "es": ["Marcó {n} goles en su carrera.", "Tecleó {n} palabras en una hora."],
        "de": ["Sie tippt {n} Wörter pro Stunde.", "Er gibt {n} Euro für Bücher aus."],
        "it": ["Ha digitato {n} pagine di tesi.", "Il museo apre con {n} visitatori."],
    },
    "answers": {
        "en": ["Answers every email with Thanks.", 'The book "First Pet Care": good read.'],
        "fr": ["Répond aux clients avec Calme.", "Son livre « Premier animal » : bof."],
        "es": ["Responde a los clientes con Paciencia.", "Contesta los mensajes con Emojis."],
        "de": ["Beantwortet Mails immer mit Humor.", "Antwortet auf Kritik mit Geduld."],
        "it": ["Risponde ai clienti con Calma.", "Risponde alle mail con Emoji."],
    },
    "minus": {
        "en": ["Got an A minus on the {n} essay? No, a B minus.", "Score was 5 minus 3, fine."],
        "fr": ["Il fait moins 5 dehors, B moins en maths.", "Note finale : A moins."],
        "es": ["Sacó un B menos en el examen.", "Hace menos 3 grados."],
        "de": ["Note 2 minus in Mathe.", "Draußen minus 4 Grad."],
        "it": ["Voto sette meno in latino.", "Fuori ci sono meno 2 gradi."],
    },
    "org_page": {
        "en": ["Donations go to paypal.me/{o}.", "The shop's links are on linktr.ee/{o}."],
        "fr": ["Les dons pour l'association passent par paypal.me/{o}."],
        "es": ["Donativos para la fundación en paypal.me/{o}."],
        "de": ["Spenden an den Verein über paypal.me/{o}."],
        "it": ["Donazioni alla onlus su paypal.me/{o}."],
    },
    "shell_alias": {
        "en": ["Uses the git alias co.checkout daily.", "Shell alias is gs.status."],
        "fr": ["Son alias git est st.status."],
        "es": ["Usa el alias de git co.checkout."],
        "de": ["Git-Alias ist br.branch."],
        "it": ["Usa l'alias git ci.commit."],
    },
    "keypad_model": {
        "en": ["The intercom is a Comelit {n}.", "Keypad backlight turns off after {n} ms."],
        "fr": ["Le boîtier {n}G est en panne.", "Le digicode a été changé en {y}."],
        "es": ["El teclado se instaló en {y}.", "El portero automático costó {n} euros."],
        "de": ["Das Tastenfeld wurde {y} erneuert.", "Der Schlüsselkasten kostet {n} Euro."],
        "it": ["Il citofono è stato cambiato nel {y}.", "Il tastierino costa {n} euro."],
    },
}


def _benign(rng: random.Random, lang: str, _: Callable[[str], Faker]) -> tuple[str, str]:
    family = rng.choice(tuple(_BENIGN))
    template = rng.choice(_BENIGN[family][lang])
    text = template.format(
        n=rng.choice((120, 350, 1200, 1500, 2400, 3000)),
        y=rng.choice((2015, 2019, 2022)),
        o=rng.choice(("RedCross", "Emmaus", "CaritasWien", "FoodBankLeeds")),
    )
    return text, f"benign/{family}"


def generate(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` rows, about 60 % leaks (every family alike), 40 % benign, every language."""
    return generate_rows(count, seed, LEAKS, _benign)
