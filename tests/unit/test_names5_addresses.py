"""Directions to a door: an Italian doorbell or floor after the number, 'no. 14' with a
street named (names5)."""

from memory_service.core.privacy.addresses import address_kinds


def test_italian_door_after_number() -> None:
    assert address_kinds("via Garibaldi 41, citofono secondo piano")
    assert address_kinds("dalla stazione a destra, via Garibaldi 27, secondo piano.")


def test_channel_via_stays_clear() -> None:
    assert not address_kinds("updates via Windows 11, please")
    assert not address_kinds("sent via Slack 2, then piano lessons")


def test_no_dot_number_with_street_named() -> None:
    assert address_kinds("blue house, no. 14 on the gate (Elm Lane)")
    assert not address_kinds("room no. 14 near Elm Lane")
