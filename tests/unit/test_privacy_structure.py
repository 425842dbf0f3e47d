"""Names, addresses and brands found by structure (core, no model): EN/FR/ES/DE/IT."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.addresses import POSTAL_BOX, STREET_ADDRESS, address_kinds
from memory_service.core.privacy.brands import product_noun_after, reads_as_brand
from memory_service.core.privacy.names import FUNCTION_WORDS, NameFinder

FIRST_NAMES = frozenset(
    {"jane", "emma", "priya", "edvard", "agnes", "lucia", "malte", "charles", "thomas", "max"}
    | {"fine"}  # a first name somewhere, and an English adjective
)
FINDER = NameFinder(first_names=FIRST_NAMES, common_words=FUNCTION_WORDS | {"june"})


def _names(text: str) -> set[str]:
    return {text[span.start : span.end] for span in FINDER.find(text)}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Mrs. Alvarez prefers morning calls.", "Alvarez"),
        ("My neighbour Jane keeps the spare key.", "Jane"),
        ("Pick-ups are done by daughter Emma.", "Emma"),
        ("Invoices go to Herr Müller.", "Müller"),
        ("Le dossier est suivi par Mme Dupont.", "Dupont"),
        ("Los paquetes los recoge su hermana Lucía.", "Lucía"),
        ("Sein Enkel Malte repariert den Router.", "Malte"),
        ("Le chiavi le ha il signor Cattaneo.", "Cattaneo"),
        ("my neighbour priya waters the plants", "priya"),
        ("I want to add Edvard Petrussen as a beneficiary", "Edvard Petrussen"),
        ("User: Ágnes Földesy", "Ágnes Földesy"),
        ("La reserva está a nombre de Ximena Olabarrieta", "Ximena Olabarrieta"),
        ("Das Konto läuft auf den Namen Dragana Hadžić.", "Dragana Hadžić"),
    ],
)
def test_a_name_after_a_cue_or_a_known_first_name_is_found(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nimmt lieber den Zug der Bahn als das Flugzeug.",
        "Bekommt Angebote lieber als PDF per Post.",
        "Partner Portal access is managed by IT.",
        "My friend will call back.",
        "Son Mac est trop lent pour le montage.",
        "Liest gern Bücher am Wochenende.",
        "Prefers the June release of the report.",
    ],
)
def test_capitalised_nouns_and_titles_are_not_names(text: str) -> None:
    assert _names(text) == set()


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Has a retirement account with Charles Schwab.", "Charles Schwab"),
        ("Invests in ETFs through Charles Schwab.", "Charles Schwab"),
        ("Drinks Jack Daniel's with cola.", "Jack Daniel's"),
        ("Wears Tommy Hilfiger shirts.", "Tommy Hilfiger"),
        ("Reads Agatha Christie on holiday.", "Agatha Christie"),
        ("Collects Marriott Bonvoy points.", "Marriott Bonvoy"),
        ("Achète ses parfums chez Yves Rocher.", "Yves Rocher"),
        ("Liest Bücher von Thomas Mann.", "Thomas Mann"),
        ("Legge i romanzi di Umberto Eco.", "Umberto Eco"),
        ("Shops at Gap and Tommy Hilfiger for work clothes.", "Tommy Hilfiger"),
        ("Lit souvent Jules Verne et Alexandre Dumas.", "Alexandre Dumas"),
        ("Reads mostly Stephen King.", "Stephen King"),
    ],
)
def test_a_name_in_a_brand_or_work_context_reads_as_a_brand(text: str, span: str) -> None:
    start = text.index(span)
    assert reads_as_brand(text, start, start + len(span))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Uses Jane Doe's card for groceries.", "Jane Doe"),
        ("Meets with Jane Smith every week.", "Jane Smith"),
        ("Likes Tommy Hilfiger.", "Tommy Hilfiger"),  # cannot be told apart: refused
        ("Pays rent to Jane Smith monthly.", "Jane Smith"),
        ("Reads to Emma Stone every night.", "Emma Stone"),
        ("Shops at Lidl with Jane Smith.", "Jane Smith"),
        ("Buys shoes at Zalando and asks Jane Smith first.", "Jane Smith"),
    ],
)
def test_a_name_without_a_brand_context_stays_a_name(text: str, span: str) -> None:
    start = text.index(span)
    assert not reads_as_brand(text, start, start + len(span))


def test_a_product_noun_after_an_honorific_names_a_product() -> None:
    text = "Only buys the vegan Dr. Martens line."
    assert product_noun_after(text, text.index("Martens") + len("Martens"))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Ship to 4417 Birchwood Lane, Apt 3B, Tulsa", STREET_ADDRESS),
        ("Lives at 221B Baker Street", STREET_ADDRESS),
        ("Livrer au 12 rue des Lilas", STREET_ADDRESS),
        ("Livrer au 3 ter boulevard Gambetta, 31000 Toulouse", STREET_ADDRESS),
        ("Enviar a Calle Mayor 3", STREET_ADDRESS),
        ("Vive en Paseo de Gracia 92, Barcelona", STREET_ADDRESS),
        ("Wohnt in der Hauptstraße 5, 10115 Berlin", STREET_ADDRESS),
        ("Lieferadresse: Birkenweg 12b", STREET_ADDRESS),
        ("Abita in Via Roma 10", STREET_ADDRESS),
        ("Abita in Corso Umberto I 45, Napoli", STREET_ADDRESS),
        ("Mail to P.O. Box 880, Austin", POSTAL_BOX),
        ("PSC 802, Box 74, APO AE 09499", POSTAL_BOX),
        ("Please return to Unit 4719 Box 7394 DPO AP 70942", POSTAL_BOX),
        ("Adresse postale : BP 77, Nouméa", POSTAL_BOX),
        ("Apartado de Correos 55, Cádiz", POSTAL_BOX),
        ("Post bitte an Postfach 12 34", POSTAL_BOX),
        ("Casella postale 12, Bari", POSTAL_BOX),
    ],
)
def test_a_street_with_its_number_or_a_postal_box_is_an_address(text: str, kind: str) -> None:
    assert kind in address_kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Lives near Via Roma and walks to work.",
        "Sends files via Dropbox 3 times a week.",
        "Via Slack, 2 reminders at most.",
        "Runs Ubuntu 22.04 on a ThinkPad.",
        "Stays at the Plaza Hotel 2 nights a month.",
        "Wohnt in der Hauptstraße.",
        "Size M shirts, 32 waist.",
        "BP stations on the motorway are preferred.",
        "Bought 12000 Euro (EU) bonds in 2020.",
    ],
)
def test_a_street_without_a_number_versions_and_counts_are_not_addresses(text: str) -> None:
    assert address_kinds(text) == frozenset()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I want to add Edvard de Vries as a beneficiary.", "Edvard de Vries"),
        ("Contact person: Malte Brennecke", "Malte Brennecke"),
        ("Contact person: V. Tóth Mónika", "Tóth Mónika"),
        ("Invoices go to Mr. J. Okonkwo.", "Okonkwo"),
        ("The account holder is Nachiket Soni.", "Nachiket Soni"),
    ],
)
def test_particles_and_contact_labels_keep_the_name_whole(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ship to 3301 Jenkins Gateway, North Gregorystad, NC 75496.",
        "Address: Flat 6, Davies Road, Potterton, WR9 4YQ.",
        "Livrer rue Morel, 65361 Rousset.",
        "Adres: Mirthelaan 1, 1033 EY, Papekop.",
        "Recapito: Vicolo Stretto, 6, 24055, Cologno al Serio (BG)",
        "Dirección: C. de la Paz 8, Ávila",
    ],
)
def test_postcodes_specific_enough_to_find_a_door_are_addresses(text: str) -> None:
    assert STREET_ADDRESS in address_kinds(text)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        # a list governed by one context, the preposition repeated or not
        ("Lee a Rosa Montero y a Javier Marías.", "Javier Marías"),
        ("Compra zapatos en Camper y en Pablosky.", "Pablosky"),
        ("Legge Dacia Maraini ed Elsa Morante.", "Elsa Morante"),
        ("Shops at Marks & Spencer and Karen Millen.", "Karen Millen"),
        # French partitive: a thing, never a person
        ("Boit du Jean Fillioux après le dîner.", "Jean Fillioux"),
        ("Porte du Christian Dior pour sortir.", "Christian Dior"),
        # works and goods before the name, with or without "of"/"de"
        ("Collects early editions of Virginia Woolf.", "Virginia Woolf"),
        ("Aime les documentaires d'Agnès Varda.", "Agnès Varda"),
        ("Préfère les parfums Marc Jacobs.", "Marc Jacobs"),
        ("Son livre préféré est « Bonjour tristesse » de Françoise Sagan.", "Françoise Sagan"),
        # usage, support and subscription verbs
        ("Team uses Linear Cloud for tickets.", "Linear Cloud"),
        ("Has been a supporter of Aston Villa since childhood.", "Aston Villa"),
        ("Abonnée Canal Plus depuis des années.", "Canal Plus"),
        # an adverb between the verb and the name
        ("Hört am liebsten Udo Lindenberg.", "Udo Lindenberg"),
        # the reader took the verb or a capitalised word in
        ("Lit Marie NDiaye.", "Lit Marie NDiaye"),
        ("Drinks Johnnie Walker Red at weddings.", "Walker Red"),
        # a model number before the product noun
        ("Always buys Asics Nimbus 25 running shoes.", "Asics Nimbus"),
    ],
)
def test_a_name_in_a_list_work_or_usage_context_reads_as_a_brand(text: str, span: str) -> None:
    start = text.index(span)
    assert reads_as_brand(text, start, start + len(span))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Lee cuentos a Rosa Montero, su nieta.", "Rosa Montero"),
        ("Reads to Emma Stone and Jane Smith at bedtime.", "Jane Smith"),
        ("Uses the car of Jane Smith on weekends.", "Jane Smith"),
        ("Shops at Lidl and then visits Jane Smith.", "Jane Smith"),
        ("Writes to Jane Smith about shoes.", "Jane Smith"),
        # verbs that take a thing or a person are no brand context
        ("Collects Jane Whitfield from school on Fridays.", "Jane Whitfield"),
        ("Drives Jane Whitfield to the station.", "Jane Whitfield"),
        ("Supports Jane Whitfield with her taxes.", "Jane Whitfield"),
        ("Fährt Anna Berger zur Schule.", "Anna Berger"),
        ("Conduce a Lucía Ferrer al colegio.", "Lucía Ferrer"),
    ],
)
def test_a_person_after_a_list_or_a_usage_word_stays_a_name(text: str, span: str) -> None:
    start = text.index(span)
    assert not reads_as_brand(text, start, start + len(span))


@pytest.mark.parametrize(
    "text", ["Reserviert immer Sitzplatz 22C im ICE.", "Stellplatz 14 in der Tiefgarage."]
)
def test_a_seat_or_parking_compound_with_a_number_is_not_a_street(text: str) -> None:
    assert address_kinds(text) == frozenset()


def test_a_square_named_after_something_with_a_number_is_still_a_street() -> None:
    assert STREET_ADDRESS in address_kinds("Wohnt am Schillerplatz 7.")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Die Post nimmt bei Familie Brandauer jemand an.", "Brandauer"),
        ("La famille Quéméner arrose les plantes.", "Quéméner"),
        ("La famiglia Pellegrini ha le chiavi.", "Pellegrini"),
        ("The Adeyemi family feeds the cat.", "Adeyemi"),
        ("El contacto en la notaría es Begoña Arrieta.", "Begoña Arrieta"),
        ("The contact at the bank is Thandiwe Mokoena.", "Thandiwe Mokoena"),
    ],
)
def test_a_family_word_or_a_label_with_a_complement_introduces_a_name(text: str, name: str) -> None:
    assert name in _names(text)


def test_a_lower_case_state_after_a_label_and_its_verb_is_not_a_name() -> None:
    assert _names("Parcels go to reception; customer is fine with that.") == set()
    assert "fine" in _names("My neighbour fine waters the plants.")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Sister-in-law Aroha stays with them every summer.", "Aroha"),
        ("Tochter Mia spielt Geige.", "Mia"),
        ("Son Emma is nine.", "Emma"),
    ],
)
def test_a_kinship_word_opening_a_note_introduces_a_name(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "Il figlio guida la seconda auto.",  # "guida": a verb before its article
        "Hinweis: bucht mit ihrem Vater, Termine direkt hintereinander.",  # a noun after a comma
        "Partner Portal is down on Mondays.",  # a role word: only a known name follows
    ],
)
def test_a_verb_or_a_noun_after_a_relation_word_is_not_a_name(text: str) -> None:
    # "guida" is a first name somewhere: the article after it says it is a verb here.
    finder = NameFinder(first_names=FIRST_NAMES | {"guida"}, common_words=FUNCTION_WORDS)
    assert finder.find(text) == []


@pytest.mark.parametrize(
    "text",
    ["Vive en c/ Mayor nº 5, bajo B.", "Residenza: via dei Mille 21/B, 80121 Napoli"],
)
def test_lower_case_street_types_of_spain_and_italy_make_an_address(text: str) -> None:
    assert STREET_ADDRESS in address_kinds(text)


def test_english_via_before_a_count_is_not_a_street() -> None:
    assert address_kinds("Sends reminders via Slack 2 times a day") == frozenset()


@pytest.mark.parametrize(
    ("text", "span"),
    [
        # a dish named after someone: a food noun, one capitalised word, the phrase ends
        ("Come pizza Margherita cada viernes por la noche.", "Margherita"),
        ("Commande toujours des crêpes Suzette au dessert.", "Suzette"),
        ("Always orders Peach Melba for dessert.", "Peach Melba"),
        ("Pide huevos Benedict en el brunch.", "Benedict"),
        # a title's number ends the phrase
        ("Plays Baldur's Gate 3 on PC, usually co-op.", "Baldur"),
        ("Replays Final Fantasy VII every winter.", "Final Fantasy"),
        # playing a game, in the languages where the verb takes no person
        ("Spielt Elden Ring und Hollow Knight auf dem Steam Deck.", "Elden Ring"),
        ("joue surtout à Elden Ring le soir", "Elden Ring"),
        ("Finished Elden Ring twice.", "Elden Ring"),
        # a public role as the user's favourite
        ("Lieblingsspieler: Alexander Zverev, verfolgt alle Turniere.", "Alexander Zverev"),
        ("Favourite author is Toni Morrison.", "Toni Morrison"),
        ("Su autora favorita es Almudena Grandes.", "Almudena Grandes"),
        ("Favorite character ever is Homer Simpson.", "Homer Simpson"),
        # reading in the infinitive, genres and what a cook or a host publishes
        ("Le encanta leer a Almudena Grandes.", "Almudena Grandes"),
        ("Legge i gialli di Andrea Camilleri.", "Andrea Camilleri"),
        ("Liest gern Krimis von Nele Neuhaus.", "Nele Neuhaus"),
        ("Sigue las recetas de Karlos Arguiñano.", "Karlos Arguiñano"),
        # how much of an author
        ("Lit beaucoup de Victor Hugo.", "Victor Hugo"),
        ("Lee todo lo de Almudena Grandes.", "Almudena Grandes"),
        ("Legge tutto di Elena Ferrante.", "Elena Ferrante"),
        ("Indossa solo Giorgio Armani alle cerimonie.", "Giorgio Armani"),
        # a work, then its author; reading again; a fan and a word about the fan
        ("Lit Arsène Lupin de Maurice Leblanc dans le train.", "Maurice Leblanc"),
        ("Relit Le Petit Prince de Saint-Exupéry à Noël.", "Saint-Exupéry"),
        ("Fan inconditionnel de Zinédine Zidane depuis 1998.", "Zinédine Zidane"),
        ("Grande fan d'Amélie Mauresmo.", "Amélie Mauresmo"),
        ("Fan vom FC Bayern und von Thomas Müller.", "Thomas Müller"),
        ("Wants to read English Lit, big Margaret Atwood fan.", "Margaret Atwood"),
        ("Studia le teorie di Maria Montessori.", "Maria Montessori"),
        # a fictional character named before its role
        ("Regarde Kaamelott, Perceval est son personnage préféré.", "Perceval"),
        ("Ellie es su personaje favorito.", "Ellie"),
        # places named after someone
        ("Flying out of Charles de Gaulle airport on the 14th.", "Charles"),
        ("Fliegt vom Flughafen Franz Josef Strauß ab.", "Josef Strauß"),
        ("Aterriza en el aeropuerto Adolfo Suárez el lunes.", "Adolfo Suárez"),
        # a saint's name opening its run
        ("Vive a San Donato Milanese.", "Donato Milanese"),
        ("Nació en Santa Cruz de Tenerife.", "Santa Cruz"),
        ("Beve solo acqua frizzante San Pellegrino.", "San Pellegrino"),
    ],
)
def test_dishes_titles_games_and_public_roles_read_as_public(text: str, span: str) -> None:
    start = text.index(span)
    assert reads_as_brand(text, start, start + len(span))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Loves the pasta Giulia makes on Sundays.", "Giulia"),  # a verb: the cook
        ("Bought a pizza for Marta Ruiz.", "Marta Ruiz"),
        ("Paid Anna Meyer 50 euros for the tickets.", "Anna Meyer"),  # a unit after the number
        ("Met Emma Roth 3 times last month.", "Emma Roth"),
        ("Plays Anna Meyer in the club final.", "Anna Meyer"),  # an opponent
        ("Favourite teacher is Anna Meyer.", "Anna Meyer"),  # a private role
        ("Joue au tennis avec Julie Martin.", "Julie Martin"),
        ("La escuela de Lucía Gómez está cerca.", "Lucía Gómez"),  # her school
        ("Habla cada día con Lucía San Martín.", "San Martín"),  # a compound surname
        ("Santo Bellini called about the invoice.", "Santo Bellini"),  # a given name
        # a relationship word in apposition: a person whatever the context before
        ("Fan de Julie Martin, sa voisine.", "Julie Martin"),
        ("Reads Anna Meyer, her neighbour, every week.", "Anna Meyer"),
        ("Loves the films of Lucía Gómez, su prima.", "Lucía Gómez"),
    ],
)
def test_a_person_near_a_dish_a_number_or_a_game_stays_a_name(text: str, span: str) -> None:
    start = text.index(span)
    assert not reads_as_brand(text, start, start + len(span))


def test_spanish_cousin_is_italian_first_a_lower_case_word_after_it_is_not_a_name() -> None:
    finder = NameFinder(first_names=FIRST_NAMES | {"anno", "marco"}, common_words=FUNCTION_WORDS)
    assert finder.find("Studia Ingegneria Informatica al Politecnico, primo anno.") == []
    assert [span.cue for span in finder.find("Su primo Marco vive en Sevilla.")] == [True]
