"""Generated training notes for the name model: private people vs public names, 5 languages.

    python tools/names_corpus.py [--seed 17] [--out data/names/generated.jsonl]

Private people are Faker names of many locales (full name, given name alone, surname alone,
possessive) in everyday contexts, including contexts a public name also takes ("listens to
Ana talk", "buys eggs from Jonas"); public names (figures, brands, places, works, fictional
characters, card products) in the contexts people write them in. The rows have the format of
the hand-written corpora (``data/names/corpus/*.jsonl``): ``text``, ``lang``, ``spans``
(``span``, ``kind``), ``label``. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from faker import Faker

LOCALES = (
    "en_US", "en_GB", "fr_FR", "es_ES", "de_DE", "it_IT", "pl_PL", "nl_NL", "pt_BR", "pt_PT",
    "tr_TR", "sv_SE", "cs_CZ", "hu_HU", "fi_FI", "da_DK", "no_NO", "ro_RO", "hr_HR", "en_IE",
    "es_MX", "fr_CA", "de_AT", "it_CH", "en_NZ", "en_IN", "sk_SK", "sl_SI", "lt_LT", "et_EE",
)  # fmt: skip

PRIVATE = {
    "en": (
        "Had lunch with {n} on Friday.", "{n} will pick up the keys tomorrow.",
        "Send the signed contract to {n} before noon.", "Carpools with {n} on Tuesdays.",
        "Owes {n} 40 euros for the concert tickets.", "Shares the flat with {n}.",
        "Meeting {n} at the station at 6.", "Call {n} about the roof repair.",
        "Plays tennis with {n} every Sunday.", "Asked {n} to water the plants in August.",
        "Invited {n} for dinner next week.", "Got the dentist recommendation from {n}.",
        "Hired {n} to paint the fence.", "{n} approves the travel expenses.",
        "Travels to Lyon with {n} twice a year.", "Cc {n} on every project email.",
        "Visits {n} in hospital on weekends.", "Reports to {n} since March.",
        "Trusts {n} with the spare key.", "Buys eggs from {n} down the road.",
        "Listens to {n} talk about football for hours.", "Takes piano lessons from {n}.",
        "Is a big fan of {n}'s lasagne.", "Watches films with {n} on Saturdays.",
        "Reads bedtime stories with {n}.", "Books the cleaner through {n}.",
        "Drives {n} to school on Mondays.", "Lent the camping gear to {n}.",
        "{n} is handling the insurance claim.", "Wedding of {n} is on 12 June.",
        "Prefers to be called back by {n}, not the call centre.", "Jogs with {n} before work.",
        "Picked {n} as emergency contact.", "Splits the rent with {n}.",
        "{n} does the accounts for the shop.", "Studies Spanish with {n} online.",
        "Wears the scarf {n} knitted.", "Stays with {n} when in Leeds.",
        "Follows {n}'s advice on investments.", "Wants to sound like {n} on the phone.",
    ),
    "fr": (
        "Déjeune avec {n} le vendredi.", "{n} passera prendre les clés demain.",
        "Envoyer le contrat signé à {n} avant midi.", "Fait du covoiturage avec {n}.",
        "Doit 40 euros à {n} pour les billets.", "Partage l'appartement avec {n}.",
        "Rendez-vous avec {n} à la gare à 18 h.", "Appeler {n} pour la toiture.",
        "Joue au tennis avec {n} le dimanche.", "A prêté sa tente à {n}.",
        "{n} s'occupe des notes de frais.", "Travaille avec {n} sur le dossier.",
        "Achète ses œufs chez {n}, le voisin.", "Prend des cours de piano avec {n}.",
        "Adore la tarte de {n}.", "Dépose {n} à l'école le lundi.",
        "Dort chez {n} quand il va à Lille.", "Écoute {n} parler de foot pendant des heures.",
        "Regarde des films avec {n} le samedi.", "{n} gère la déclaration de sinistre.",
    ),
    "es": (
        "Come con {n} los viernes.", "{n} recogerá las llaves mañana.",
        "Enviar el contrato firmado a {n} antes del mediodía.", "Comparte piso con {n}.",
        "Le debe 40 euros a {n}.", "Juega al pádel con {n} los domingos.",
        "Llamar a {n} por lo del tejado.", "{n} lleva la contabilidad de la tienda.",
        "Viaja a Sevilla con {n} en verano.", "Compra los huevos a {n}, el vecino.",
        "Da clases de guitarra con {n}.", "Le encanta la tortilla de {n}.",
        "Lleva a {n} al colegio los lunes.", "Se queda en casa de {n} cuando va a Bilbao.",
        "Ve películas con {n} los sábados.", "{n} gestiona el parte del seguro.",
    ),
    "de": (
        "Isst freitags mit {n} zu Mittag.", "{n} holt morgen die Schlüssel ab.",
        "Den unterschriebenen Vertrag an {n} schicken.", "Fährt mit {n} zur Arbeit.",
        "Schuldet {n} 40 Euro für die Karten.", "Teilt die Wohnung mit {n}.",
        "Spielt sonntags Tennis mit {n}.", "{n} kümmert sich um die Abrechnung.",
        "Trifft {n} um 18 Uhr am Bahnhof.", "Kauft die Eier bei {n} nebenan.",
        "Nimmt Klavierstunden bei {n}.", "Liebt den Kuchen von {n}.",
        "Bringt {n} montags zur Schule.", "Übernachtet bei {n}, wenn er in Köln ist.",
        "Schaut samstags Filme mit {n}.", "{n} bearbeitet den Versicherungsfall.",
    ),
    "it": (
        "Pranza con {n} il venerdì.", "{n} passa a prendere le chiavi domani.",
        "Mandare il contratto firmato a {n} entro mezzogiorno.", "Divide la casa con {n}.",
        "Deve 40 euro a {n} per i biglietti.", "Gioca a tennis con {n} la domenica.",
        "Chiamare {n} per il tetto.", "{n} gestisce le note spese.",
        "Va a Torino con {n} due volte l'anno.", "Compra le uova da {n}, il vicino.",
        "Prende lezioni di piano da {n}.", "Adora la torta di {n}.",
        "Accompagna {n} a scuola il lunedì.", "Dorme da {n} quando va a Genova.",
        "Guarda film con {n} il sabato.", "{n} segue la pratica dell'assicurazione.",
    ),
}  # fmt: skip

PUBLIC_NAMES = {
    "public_figure": (
        "Margaret Atwood", "Serena Williams", "Stephen King", "Agatha Christie", "Roger Federer",
        "Taylor Swift", "Victor Hugo", "Annie Ernaux", "Gabriel García Márquez", "Isabel Allende",
        "Thomas Mann", "Umberto Eco", "Elena Ferrante", "Rafael Nadal", "Lionel Messi",
        "Barack Obama", "Angela Merkel", "David Bowie", "Ed Sheeran", "Zinedine Zidane",
        "Jane Austen", "Haruki Murakami", "Kylian Mbappé", "Simone Biles", "Andrea Bocelli",
        "Yotam Ottolenghi", "Jamie Oliver", "Marie Curie", "Frida Kahlo", "Leonard Cohen",
        "Dua Lipa", "Billie Eilish", "Michelle Obama", "Greta Thunberg", "Novak Djokovic",
        "Fernando Alonso", "Carlos Ruiz Zafón", "Patrick Modiano", "Ludwig van Beethoven",
        "Lewis Hamilton", "Cristiano Ronaldo", "Mo Salah", "Brené Brown", "Paulo Coelho",
    ),
    "brand": (
        "Louis Vuitton", "Tommy Hilfiger", "Ben & Jerry's", "Dr. Oetker", "Jack Daniel's",
        "Charles Schwab", "Marriott Bonvoy", "Hilton Honors", "Ralph Lauren", "Calvin Klein",
        "Yves Saint Laurent", "Hugo Boss", "Carolina Herrera", "Massimo Dutti", "Tesla",
        "Ted Baker", "Paul Smith", "Marks & Spencer", "Sainsbury's", "McDonald's", "Wendy's",
        "Jean Paul Gaultier", "Christian Dior", "Giorgio Armani", "Estée Lauder",
        "Johnnie Walker", "Yves Rocher", "Leroy Merlin", "Mercedes Benz", "Harley Davidson",
        "Adidas", "Ferrero Rocher", "Lindt", "Häagen-Dazs", "Mont Blanc", "Aston Martin",
        "Alfa Romeo", "Land Rover", "Victoria's Secret", "Trader Joe's", "Kiehl's",
    ),
    "card": (
        "Visa Platinum", "Visa Infinite", "Chase Sapphire Reserve", "Amex Gold",
        "Mastercard World Elite", "Amex Platinum", "Capital One Venture", "Visa Premier",
        "Revolut Metal", "Citi Prestige", "Barclaycard Avios", "Diners Club",
    ),
    "place": (
        "Bologna", "Florence", "Lisbon", "Sevilla", "Hamilton", "Victoria", "Santiago",
        "San Sebastián", "Saint-Malo", "Charlotte", "Madison", "Florence Nightingale Ward",
        "Montréal", "Aix-en-Provence", "Saint Louis", "São Paulo", "Adelaide", "Alexandria",
        "Georgetown", "Santa Monica", "Jackson Hole", "Virginia Beach", "Mont Saint-Michel",
    ),
    "work": (
        "Harry Potter", "Anna Karenina", "Madame Bovary", "Don Quijote", "Emma", "Jane Eyre",
        "Billy Elliot", "Forrest Gump", "Amélie", "Lady Bird", "Annie Hall", "Oliver Twist",
        "Tom Sawyer", "Jerry Maguire", "Erin Brockovich", "Julie & Julia", "Ted Lasso",
    ),
    "fictional": (
        "Sherlock Holmes", "Mickey Mouse", "Peppa Pig", "James Bond", "Hercule Poirot",
        "Winnie the Pooh", "Harry Potter", "Paddington", "Asterix", "Tintin", "Lara Croft",
        "Indiana Jones", "Mary Poppins", "Bridget Jones", "Peter Pan",
    ),
}  # fmt: skip

PUBLIC = {
    "public_figure": {
        "en": (
            "Big {n} fan.",
            "Huge {n} fan, wants to train like that.",
            "Is rereading {n}.",
            "Favourite author is {n}.",
            "Loves the books of {n}.",
            "Has tickets for {n} in May.",
            "Follows {n}'s matches closely.",
            "Quotes {n} in every speech.",
            "Wants to read everything by {n}.",
            "Went to see {n} live in 2019.",
            "Prefers {n}'s early novels.",
            "Collects signed {n} first editions.",
            "Is reading the new {n} novel.",
            "Listens to {n} while running.",
            "Cooks from the {n} cookbook.",
            "Inspired by {n} to take up tennis.",
        ),
        "fr": (
            "Grand fan de {n}.",
            "Relit {n} chaque été.",
            "Son auteur préféré est {n}.",
            "Adore les romans de {n}.",
            "A vu {n} en concert en 2019.",
            "Écoute {n} en courant.",
            "Suit tous les matchs de {n}.",
            "Lit le dernier {n}.",
        ),
        "es": (
            "Gran fan de {n}.",
            "Relee a {n} cada verano.",
            "Su autora favorita es {n}.",
            "Le encantan las novelas de {n}.",
            "Vio a {n} en concierto en 2019.",
            "Escucha a {n} cuando corre.",
            "Sigue todos los partidos de {n}.",
        ),
        "de": (
            "Großer {n}-Fan.",
            "Liest jeden Sommer {n}.",
            "Lieblingsautorin ist {n}.",
            "Mag die Romane von {n}.",
            "Hat {n} 2019 live gesehen.",
            "Hört beim Laufen {n}.",
            "Verfolgt jedes Spiel von {n}.",
        ),
        "it": (
            "Grande fan di {n}.",
            "Rilegge {n} ogni estate.",
            "L'autrice preferita è {n}.",
            "Adora i romanzi di {n}.",
            "Ha visto {n} in concerto nel 2019.",
            "Ascolta {n} mentre corre.",
            "Segue tutte le partite di {n}.",
        ),
    },
    "brand": {
        "en": (
            "Only buys {n} shirts.",
            "Cheat-day treat is {n} cookie dough.",
            "Wants to insure the {n} bags.",
            "Shops at {n} on Fridays.",
            "Drinks {n} neat.",
            "Prefers {n} over the supermarket brand.",
            "Invests through {n}.",
            "Collects {n} points on every stay.",
            "Wears {n} at work.",
            "Eats {n} pudding after training.",
            "Gift ideas: anything from {n}.",
            "Saving up for a {n}.",
            "Allergic to the {n} perfume.",
        ),
        "fr": (
            "N'achète que des chemises {n}.",
            "Veut assurer ses sacs {n}.",
            "Fait ses courses chez {n}.",
            "Porte du {n} au bureau.",
            "Mange un pudding {n} après le sport.",
            "Cumule des points {n}.",
            "Économise pour une {n}.",
        ),
        "es": (
            "Solo compra camisas de {n}.",
            "Quiere asegurar los bolsos {n}.",
            "Compra en {n} los viernes.",
            "Viste de {n} en el trabajo.",
            "Toma un postre {n} después de entrenar.",
            "Ahorra para un {n}.",
        ),
        "de": (
            "Kauft nur Hemden von {n}.",
            "Will die {n}-Taschen versichern.",
            "Kauft freitags bei {n} ein.",
            "Trägt im Büro {n}.",
            "Isst nach dem Training gern {n} Pudding.",
            "Spart auf einen {n}.",
        ),
        "it": (
            "Compra solo camicie {n}.",
            "Vuole assicurare le borse {n}.",
            "Fa la spesa da {n} il venerdì.",
            "Indossa {n} in ufficio.",
            "Mangia un budino {n} dopo l'allenamento.",
            "Risparmia per una {n}.",
        ),
    },
    "card": {
        "en": (
            "Pays for rentals with a {n} card.",
            "Has a {n} for the lounge access.",
            "Uses the {n} for travel insurance.",
            "Books flights with her {n}.",
        ),
        "fr": ("Possède une {n} et l'utilise pour la location.", "Paie avec sa carte {n}."),
        "es": ("Tiene la tarjeta {n} de su banco.", "Paga los vuelos con la {n}."),
        "de": ("Hat eine {n} für die Lounges.", "Zahlt Flüge mit der {n}."),
        "it": ("Ha una carta {n} per i viaggi.", "Paga i voli con la {n}."),
    },
    "place": {
        "en": (
            "Moved to {n} last year.",
            "Lives in {n} now.",
            "Flying to {n} in May.",
            "Prefers hotels in central {n}.",
            "Grew up near {n}.",
        ),
        "fr": ("Habite à {n} depuis 2020.", "Part à {n} en mai.", "A grandi près de {n}."),
        "es": ("Vive en {n} desde 2020.", "Vuela a {n} en mayo.", "Creció cerca de {n}."),
        "de": ("Wohnt seit 2020 in {n}.", "Fliegt im Mai nach {n}.", "Ist bei {n} aufgewachsen."),
        "it": (
            "Ora vive a {n} e lavora in zona.",
            "Vola a {n} a maggio.",
            "È cresciuta vicino a {n}.",
        ),
    },
    "work": {
        "en": (
            "Favourite film is {n}.",
            "Rewatches {n} every Christmas.",
            "Read {n} twice.",
            "Wants the {n} box set.",
        ),
        "fr": ("Son film préféré est {n}.", "Revoit {n} chaque Noël.", "A lu {n} deux fois."),
        "es": ("Su película favorita es {n}.", "Ha leído {n} dos veces."),
        "de": ("Lieblingsfilm ist {n}.", "Hat {n} zweimal gelesen."),
        "it": ("Il suo film preferito è {n}.", "Ha letto {n} due volte."),
    },
    "fictional": {
        "en": ("Dressed as {n} for Halloween.", "The kids love {n} cartoons.", "Has a {n} mug."),
        "fr": ("S'est déguisé en {n} pour Halloween.", "Les enfants adorent {n}."),
        "es": ("Se disfrazó de {n} en carnaval.", "A los niños les encanta {n}."),
        "de": ("Hat sich als {n} verkleidet.", "Die Kinder lieben {n}."),
        "it": ("Si è vestito da {n} a carnevale.", "I bambini adorano {n}."),
    },
}


# Contexts the old hand-written brand rules listed (a verb or a noun before, a product noun
# after), composed with public names; and the same verbs with a person as their object, so
# the model learns the verb is no evidence alone ("drives Jane to school").
PUBLIC_BEFORE = {
    "en": (
        "shops at",
        "banks with",
        "drinks",
        "wears",
        "reads",
        "listens to",
        "is a fan of",
        "books by",
        "novels by",
        "films by",
        "stays at",
        "flies",
        "is a customer of",
        "subscribes to",
        "uses",
        "buys clothes at",
        "invests through",
        "collects",
        "orders from",
        "is reading",
        "grew up on",
        "rewatches",
        "quotes",
    ),
    "fr": (
        "achète chez",
        "est cliente de",
        "lit",
        "écoute",
        "fan de",
        "les romans de",
        "porte du",
        "boit du",
        "utilise",
        "est abonné à",
        "regarde",
        "collectionne",
        "relit",
    ),
    "es": (
        "compra en",
        "es cliente de",
        "lee a",
        "escucha a",
        "fan de",
        "las novelas de",
        "viste de",
        "bebe",
        "usa",
        "colecciona",
        "está suscrito a",
        "relee a",
    ),
    "de": (
        "kauft bei",
        "ist Kunde bei",
        "liest",
        "hört",
        "Fan von",
        "Romane von",
        "trägt",
        "trinkt",
        "nutzt",
        "sammelt",
        "hat ein Konto bei",
    ),
    "it": (
        "compra da",
        "è cliente di",
        "legge",
        "ascolta",
        "fan di",
        "i romanzi di",
        "indossa",
        "beve",
        "usa",
        "colleziona",
        "è abbonato a",
    ),
}
PUBLIC_AFTER = {
    "en": ("novels", "books", "songs", "shirts", "shoes", "perfume", "points", "card", "tea"),
    "fr": ("romans", "chansons", "chemises", "chaussures", "parfum", "points", "carte"),
    "es": ("novelas", "canciones", "camisas", "zapatillas", "perfume", "puntos", "tarjeta"),
    "de": ("Romane", "Lieder", "Hemden", "Schuhe", "Parfüm", "Punkte", "Karte"),
    "it": ("romanzi", "canzoni", "camicie", "scarpe", "profumo", "punti", "carta"),
}
PERSON_OBJECT = {
    "en": (
        "drives {n} to school",
        "collects {n} from the station",
        "reads to {n} at night",
        "listens to {n} practise",
        "supports {n} through the move",
        "shops with {n}",
        "banks the cheque for {n}",
        "buys lunch for {n}",
        "stays at {n}'s place",
        "is a fan of {n}'s cooking",
        "uses {n} as a reference",
        "orders pizza with {n}",
    ),
    "fr": (
        "conduit {n} à l'école",
        "va chercher {n} à la gare",
        "lit des histoires à {n}",
        "écoute {n} jouer du piano",
        "fait les courses avec {n}",
        "dort chez {n}",
    ),
    "es": (
        "lleva a {n} al colegio",
        "recoge a {n} en la estación",
        "lee cuentos a {n}",
        "escucha a {n} tocar el piano",
        "hace la compra con {n}",
        "duerme en casa de {n}",
    ),
    "de": (
        "bringt {n} zur Schule",
        "holt {n} vom Bahnhof ab",
        "liest {n} abends vor",
        "hört {n} beim Üben zu",
        "kauft mit {n} ein",
        "übernachtet bei {n}",
    ),
    "it": (
        "porta {n} a scuola",
        "va a prendere {n} in stazione",
        "legge fiabe a {n}",
        "ascolta {n} suonare il piano",
        "fa la spesa con {n}",
        "dorme da {n}",
    ),
}
OPENERS = {
    "en": ("", "Usually ", "Always ", "Still "),
    "fr": ("", "D'habitude ", "Toujours "),
    "es": ("", "Normalmente ", "Siempre "),
    "de": ("", "Meistens ", "Immer noch "),
    "it": ("", "Di solito ", "Sempre "),
}
TAILS = {
    "en": ("", " on Fridays", " when travelling", ", no exceptions", " since 2019"),
    "fr": ("", " le vendredi", " en voyage", " depuis 2019"),
    "es": ("", " los viernes", " cuando viaja", " desde 2019"),
    "de": ("", " freitags", " auf Reisen", " seit 2019"),
    "it": ("", " il venerdì", " in viaggio", " dal 2019"),
}
PUBLIC_POOL = tuple(
    name for kind in ("public_figure", "brand", "card") for name in PUBLIC_NAMES[kind]
)


def _sentence(opener: str, body: str, tail: str) -> str:
    text = f"{opener}{body}{tail}."
    return text[0].upper() + text[1:]


def composed_rows(rng: random.Random, fakers: dict[str, Faker]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for lang, cues in PUBLIC_BEFORE.items():
        for cue in cues:
            for _ in range(3):
                name = rng.choice(PUBLIC_POOL)
                text = _sentence(
                    rng.choice(OPENERS[lang]), f"{cue} {name}", rng.choice(TAILS[lang])
                )
                rows.append(_row(text, lang, name, "brand", group=f"before:{cue}"))
        for noun in PUBLIC_AFTER[lang]:
            for cue in rng.sample(PUBLIC_BEFORE[lang], 3):
                name = rng.choice(PUBLIC_NAMES["brand"] + PUBLIC_NAMES["public_figure"])
                body = f"{cue} {name} {noun}" if lang == "en" else f"{cue} {noun} {name}"
                text = _sentence(rng.choice(OPENERS[lang]), body, rng.choice(TAILS[lang]))
                rows.append(_row(text, lang, name, "brand", group=f"after:{noun}"))
        for template in PERSON_OBJECT[lang]:
            for _ in range(4):
                name, span = private_name(fakers[rng.choice(LOCALES)], rng)
                body = template.format(n=name)
                text = _sentence(rng.choice(OPENERS[lang]), body, rng.choice(TAILS[lang]))
                rows.append(_row(text, lang, span, "private_person", group=template))
    return rows


def private_name(fake: Faker, rng: random.Random) -> tuple[str, str]:
    """A private person's name as notes write it, and the span to mark (without "'s")."""
    first, last = fake.first_name(), fake.last_name()
    form = rng.random()
    if form < 0.45:
        return f"{first} {last}", f"{first} {last}"
    if form < 0.8:
        return first, first
    return last, last


def generated_rows(seed: int, per_template: int = 6) -> list[dict[str, object]]:
    rng = random.Random(seed)
    fakers = {locale: Faker(locale) for locale in LOCALES}
    for index, fake in enumerate(fakers.values()):
        fake.seed_instance(seed * 1000 + index)
    rows: list[dict[str, object]] = []
    for lang, templates in PRIVATE.items():
        for template in templates:
            for _ in range(per_template):
                fake = fakers[rng.choice(LOCALES)]
                name, span = private_name(fake, rng)
                text = template.format(n=name)
                rows.append(_row(text, lang, span, "private_person", group=template))
    for kind, by_lang in PUBLIC.items():
        names = PUBLIC_NAMES[kind]
        for lang, templates in by_lang.items():
            for template in templates:
                for name in rng.sample(names, min(len(names), per_template)):
                    span = name[:-2] if name.endswith("'s") and "{n}'s" not in template else name
                    rows.append(_row(template.format(n=name), lang, span, kind, group=template))
    return rows + composed_rows(rng, fakers)


def _row(text: str, lang: str, span: str, kind: str, group: str) -> dict[str, object]:
    kind = "brand" if kind == "card" else kind
    label = "pii" if kind == "private_person" else "ok"
    spans = [{"span": span, "kind": kind}]
    return {"text": text, "lang": lang, "spans": spans, "label": label, "group": group}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = generated_rows(args.seed)
    out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
