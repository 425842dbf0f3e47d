"""The shape of a ``tool_call_id``: a runtime's opaque id, stored in clear in provenance.

Runtimes make these ids random ("call_4Xq9...", "toolu_01A0...", "functions.lookup:0"), so
the note guards' randomness and mixed-code rules would refuse every one of them. Instead the
id gets a strict shape that cannot hold what the privacy guards refuse elsewhere: a letter
first, then at most 63 of letters, digits and ``_ - . :``; no part made of digits alone
holding 9 or more of them, even across separators ("call_4152488713445952",
"id_415_555_0192": no phone, card or national number fits); no key or token format, no
value after a credential word, no IBAN in capitals. Digits inside a random part are
allowed: an id made from a UUID's hex ("call_3f2a4152488e…") holds a 7-digit run more often
than not.
"""

from __future__ import annotations

import re

from memory_service.core.privacy.identifiers import iban_valid
from memory_service.core.privacy.secrets import format_kinds, value_after_credential_word

MAX_TOOL_CALL_ID_CHARS = 64
# 9 or more: a phone with its area code, a card, most national ids. 8 would refuse one id
# in 40 made of 8 random hex characters (all digits), as some runtimes and tests make them.
MAX_DIGIT_RUN = 8
TOOL_CALL_ID_RULE = (
    f"a letter, then at most {MAX_TOOL_CALL_ID_CHARS - 1} of A-Z, a-z, 0-9, _ - . :, "
    f"without a part of more than {MAX_DIGIT_RUN} digits alone"
)
_SHAPE = re.compile(rf"[A-Za-z][A-Za-z0-9_.:-]{{0,{MAX_TOOL_CALL_ID_CHARS - 1}}}")
# Parts of digits alone, one after another: "4152488713445952", "415_555_0192".
_DIGIT_PARTS = re.compile(r"(?<![A-Za-z0-9])\d+(?:[_.:-]\d+)*(?![A-Za-z0-9])")


def valid_tool_call_id(value: str) -> bool:
    if not _SHAPE.fullmatch(value):
        return False
    if any(
        sum(ch.isdigit() for ch in part.group()) > MAX_DIGIT_RUN
        for part in _DIGIT_PARTS.finditer(value)
    ):
        return False
    spaced = re.sub(r"[_.-]", " ", value).replace(":", ": ")
    if format_kinds(value) or value_after_credential_word(spaced):
        return False
    # Upper-case parts only: a lower-case hex part passes the IBAN checksum once in 97.
    return not any(iban_valid(token) for token in re.split(r"[_.:-]", value) if token.isupper())
