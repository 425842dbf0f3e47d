"""Values under a label that names them anywhere in it (memory_service.core.privacy.labels).

A label's words say what the value after its colon is, wherever they stand in the label: a
card, a membership, a document or a vehicle named at the label's start ("Tessera ... del
negozio: ...") or its end ("Club card: ..."). The value is then read as it is right after a
cue. Quantities with their unit, harmless labels and long sentences with a colon are not
refused. The notes are made up; none is from an evaluation set.
"""

from __future__ import annotations

import pytest

from memory_service.core.privacy.labels import MAX_LABEL_WORDS, labelled_values
from tests.support.privacy_codes import privacy_codes as codes


@pytest.mark.parametrize(
    "text",
    [
        "Tessera della palestra di arrampicata: GYM#IT-88217.",
        "Carte du club de voile, saison d'été : CV-Ω-7731.",
        "Bowling league card: PP-4471.",
        "Kundenkarte vom Gartencenter: 5512 0934.",
        "Abono del gimnasio municipal: AB 77 1290.",
        "Targa dello scooter per il parcheggio condominiale: GT 552 RX.",
        "Plate on the weekly valet plan: KD 418 PM.",
        "Member card for the chess club (blue one): CH-20417.",
    ],
)
def test_a_value_under_a_label_naming_it_is_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Loyalty card: 2300 points left before the next reward.",
        "Gift card balance: 40 EUR, spent on seeds.",
        "Membership: since 2019, renews every spring.",
        "Room card: 4412 was the one that failed at the desk.",
        "Club card: prefers the digital one in the app.",
        "Car for the weekly wash plan: Peugeot 3008, grey.",
        "Drives the M 25 km each way to the depot.",
        "La macchina fa 18 km con un litro: vuole consigli per risparmiare.",
        "Favourite opening: the Sicilian, 6.Bg5 lines.",
    ],
)
def test_quantities_models_and_harmless_labels_pass(text: str) -> None:
    assert "pii" not in codes(text)


def test_a_label_runs_from_its_clause_start_to_the_colon() -> None:
    found = list(labelled_values("Likes the club. Member card for the club: X1. Ok"))
    assert [(item.label, item.value_start) for item in found] == [("Member card for the club", 42)]


def test_a_long_sentence_with_a_colon_is_no_label_and_a_clock_time_no_colon() -> None:
    long = " ".join(["word"] * (MAX_LABEL_WORDS + 1)) + ": 4412"
    assert list(labelled_values(long)) == []
    assert list(labelled_values("Lessons at 10:30 every Monday")) == []


@pytest.mark.parametrize(
    "text",
    [
        "Sells vintage lenses on eBay as lens_and_light_77 and asks for fee breakdowns.",
        "Posts on Instagram as moss.and.stone but keeps it to garden photos.",
    ],
)
def test_a_user_name_shaped_token_named_on_a_platform_mid_clause_is_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sells on eBay as a private seller and wants the fees explained.",
        "Plays on Steam as a casual player, mostly city builders.",
        "Streams on Twitch as a hobby and never on weekdays.",
    ],
)
def test_a_role_named_on_a_platform_passes(text: str) -> None:
    assert "pii" not in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Likes the Musée Rodin (77 rue de Varenne) for sketching on Sundays.",
        "Gli piace fare colazione al Caffè Gilli (Via Roma 1, Firenze) la domenica.",
    ],
)
def test_a_named_place_glossed_with_its_address_passes(text: str) -> None:
    assert "pii" not in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Lives in Rosewood Cottage (12 Mill Lane, Ashford) since the spring.",
        "Deliveries go to Harbour View (3 Quay Street, Whitby).",
    ],
)
def test_a_glossed_address_where_someone_lives_or_receives_is_refused(text: str) -> None:
    assert "pii" in codes(text)
