"""Codes of goods, not of people (session 11, leaks11): Harmonized System headings after the
nomenclature's name, ISO 5775 tyre sizes, G-code lines, product labels with a unit or a RAL
colour group, and labels after a noun that numbers goods."""

from __future__ import annotations

import pytest

from memory_service.core.lexicons import fold
from memory_service.core.privacy.identifiers import identifier_types, product_label
from memory_service.core.privacy.normalise import normalise_text
from memory_service.core.privacy.secrets import secret_kinds


@pytest.mark.parametrize(
    "text",
    [
        "Exports roasted coffee under HS 0901.21, not decaffeinated.",
        "Exporte du vin en vrac, code SH 2204.21, vers le Québec.",
        "Versendet Lager und Wellenteile, Zolltarifnummer 8483 40, nach Norwegen.",
        "Bevorzugt Reifen 28x1,75 (47-622) für das Trekkingrad.",
        "Writes custom start G-code with G28, G29 and M104 S215.",
        "Her SKU format CER-2024-BL-06 means blue bowls, set of six.",
        "Her go-to black filament is PLA-175-1KG-RAL9005.",
        "Uses service codes like LDR-30C-DEL-NF (30 °C, delicate, no fold).",
    ],
)
def test_codes_of_goods_are_neither_identifiers_nor_secrets(text: str) -> None:
    normalised = normalise_text(text)
    assert identifier_types(normalised) == frozenset()
    assert secret_kinds(fold(normalised)) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        # a chapter that does not exist (98, 99; 77 is reserved) is no goods heading
        "Her tax number is HS 9901 2345 6789.",
        "HS 7712.34 is his code.",
        # an identifier's word before a label; a serial of five digits
        "Customer number AB-1KG-2291-X for the shop.",
        "Tenant id T-2024-08817; quote it on every request.",
        "His own label is XK-30C-88213-QP.",
        # not an ETRTO bead seat: digit groups still join
        "Pays from 4471 (47-623) 9921 every month.",
        # a G-code command does not start it
        "His code is K104 S215 4471.",
    ],
)
def test_look_alikes_of_goods_codes_stay_identifiers(text: str) -> None:
    assert "ID_NUMBER" in identifier_types(normalise_text(text))


def test_a_product_label_needs_capitals_a_spec_group_and_an_abbreviation() -> None:
    assert product_label("PLA-175-1KG-RAL9005")
    assert not product_label("Blue-30kg-Dog")  # typed like a password, not printed
    assert not product_label("4471-30C-9921")  # no word's abbreviation
