"""Who a call acts for. Built from the authenticated key, never from a model's arguments."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from memory_service.core.errors import InvalidRequest, PermissionDenied
from memory_service.core.model import Role

SUBJECT_ID_MAX_LENGTH = 128
SESSION_ID_MAX_LENGTH = 64
TENANT_ID_MAX_LENGTH = 64
_TENANT_ID_SHAPE = re.compile(rf"[a-z0-9][a-z0-9_\-]{{0,{TENANT_ID_MAX_LENGTH - 1}}}")
SUBJECT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$"
_SUBJECT_ID_SHAPE = re.compile(SUBJECT_ID_PATTERN)
# "+33 6...", "06-12-34-56-78", "(415) 555-0100", "0612345678": a leading + or 0, or
# separators between digits. Plain numbers not starting with 0 stay valid customer ids.
_PHONE_LIKE = re.compile(r"^(\+|0)[\d().\-]{6,}$|^[\d(][\d()]*[.\-][\d().\-]+$")


@dataclass(frozen=True)
class TenantScope:
    """The tenant, role and key a call acts for; every repository is opened with one."""

    tenant_id: str
    role: Role
    actor: str

    def require(self, role: Role) -> None:
        """Admins may do what agents do; agents may not do admin work."""
        if role is Role.ADMIN and self.role is not Role.ADMIN:
            raise PermissionDenied("this operation needs an admin key")


def validate_tenant_id(tenant_id: object) -> str:
    """A tenant id is a lower-case slug: it names a customer of the service, never a person."""
    if not isinstance(tenant_id, str) or not _TENANT_ID_SHAPE.fullmatch(tenant_id):
        raise InvalidRequest(
            f"tenant must be a lower-case slug of at most {TENANT_ID_MAX_LENGTH} characters"
        )
    return tenant_id


def validate_subject_id(subject_id: object) -> str:
    """Subject ids are opaque tenant ids: refuse anything shaped like personal data.

    A subject id is stored in clear for good (it outlives an erasure in the receipts), so
    the refusals go by the value's structure, not a list of examples: an e-mail address, a
    phone number, a payment card number (a run of 13-19 digits passing the Luhn check), an
    IBAN (country, check digits and the ISO 13616 mod-97 check), a calendar date (a birth
    date beside a name), or no digit at all (letters only reads as a name: ``jean-dupont``;
    an opaque id carries a number, ``cust-1042``, a UUID). What it costs: a legitimate id of
    letters only, or one holding a date or a Luhn-valid long number, must be re-keyed.

    The refusal message does not echo the id, since a refused id may be personal data.
    """
    if not isinstance(subject_id, str) or not subject_id:
        raise InvalidRequest("subject_id must be a non-empty string")
    if len(subject_id) > SUBJECT_ID_MAX_LENGTH:
        raise InvalidRequest(f"subject_id is longer than {SUBJECT_ID_MAX_LENGTH} characters")
    if "@" in subject_id:
        raise InvalidRequest("subject_id looks like an e-mail address; use an opaque id")
    if _PHONE_LIKE.match(subject_id) and sum(c.isdigit() for c in subject_id) >= 7:
        raise InvalidRequest("subject_id looks like a phone number; use an opaque id")
    if not _SUBJECT_ID_SHAPE.match(subject_id):
        raise InvalidRequest(
            "subject_id may hold only letters, digits and . _ : - (no spaces or names)"
        )
    looks_like = _personal_data_shape(subject_id)
    if looks_like is not None:
        raise InvalidRequest(f"subject_id looks like {looks_like}; use an opaque id")
    return subject_id


# A card as written: one run of digits, or groups of 4-6 joined by single separators
# (4111-1111-1111-1111, Amex 3782-822463-10005); not a UUID's 8-digit first group.
_DIGIT_RUN = re.compile(r"(?<!\d)\d{4,6}(?:[.\-_]\d{4,6})+(?!\d)|\d+")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")
_IBAN = re.compile(r"^(?P<country>[A-Z]{2})\d{2}[A-Z0-9]{11,30}$")
# IBAN length per country (ISO 13616 registry): a shape with the wrong length is no IBAN.
_IBAN_LENGTHS = {
    **dict.fromkeys(["NO"], 15),
    **dict.fromkeys(["BE"], 16),
    **dict.fromkeys(["DK", "FI", "FO", "GL", "NL"], 18),
    **dict.fromkeys(["MK", "SI"], 19),
    **dict.fromkeys(["AT", "BA", "EE", "KZ", "LT", "LU", "XK"], 20),
    **dict.fromkeys(["CH", "CR", "HR", "LI", "LV"], 21),
    **dict.fromkeys(["BG", "BH", "DE", "GB", "GE", "IE", "ME", "RS", "VA"], 22),
    **dict.fromkeys(["AE", "GI", "IL", "IQ", "TL"], 23),
    **dict.fromkeys(["AD", "CZ", "ES", "MD", "PK", "RO", "SA", "SE", "SK", "TN", "VG"], 24),
    **dict.fromkeys(["PT", "ST"], 25),
    **dict.fromkeys(["IS", "TR"], 26),
    **dict.fromkeys(["FR", "GR", "IT", "MC", "MR", "SM"], 27),
    **dict.fromkeys(["AL", "AZ", "BY", "CY", "DO", "GT", "HU", "LB", "PL", "SV"], 28),
    **dict.fromkeys(["BR", "EG", "PS", "QA", "UA"], 29),
    **dict.fromkeys(["JO", "KW", "MU"], 30),
    **dict.fromkeys(["MT", "SC"], 31),
    **dict.fromkeys(["LC"], 32),
    **dict.fromkeys(["RU"], 33),
}
_DAY, _MONTH = r"(?:0[1-9]|[12]\d|3[01])", r"(?:0[1-9]|1[0-2])"
_YEAR, _SEP = r"(?:19|20)\d\d", r"[.\-_/]"
# 1985-03-14, 19850314, 14-03-1985, 14.03.1985 (never inside a longer run of digits).
_DATE = re.compile(
    rf"(?<!\d)(?:(?P<y1>{_YEAR}){_SEP}?(?P<m1>{_MONTH}){_SEP}?(?P<d1>{_DAY})"
    rf"|(?P<d2>{_DAY}){_SEP}(?P<m2>{_MONTH}){_SEP}(?P<y2>{_YEAR}))(?!\d)"
)


def _personal_data_shape(subject_id: str) -> str | None:
    """What personal data the id is shaped like, or None. A canonical UUID is opaque by
    construction (its digit groups can look like a card by chance)."""
    if _UUID.match(subject_id):
        return None
    if not any(ch.isdigit() for ch in subject_id):
        return "a name (letters only)"
    for run in _DIGIT_RUN.findall(subject_id):
        digits = re.sub(r"\D", "", run)
        if 13 <= len(digits) <= 19 and _luhn_valid(digits):
            return "a payment card number"
    for token in [subject_id, *re.split(r"[.\-_:]", subject_id)]:
        compact = re.sub(r"[.\-_:]", "", token).upper()
        shape = _IBAN.match(compact)
        if shape and _IBAN_LENGTHS.get(shape["country"]) == len(compact) and _iban_valid(compact):
            return "an IBAN"
    if any(_is_calendar_date(match) for match in _DATE.finditer(subject_id)):
        return "a date (of birth?)"
    return None


def _luhn_valid(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _iban_valid(iban: str) -> bool:
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def _is_calendar_date(match: re.Match[str]) -> bool:
    year = match.group("y1") or match.group("y2")
    month = match.group("m1") or match.group("m2")
    day = match.group("d1") or match.group("d2")
    try:
        date(int(year), int(month), int(day))
    except ValueError:
        return False
    return True
