"""The shape of a ``tool_call_id``: a runtime's opaque id, stored in clear in provenance.

Runtimes make these ids random ("call_4Xq9...", "toolu_01A0...", "functions.lookup:0"), so
the note guards' randomness and mixed-code rules would refuse every one of them. Instead the
id gets a strict shape that cannot hold what the privacy guards refuse elsewhere: a letter
first, then at most 63 of letters, digits and ``_ - . :``; no run of 7 or more digits even
across separators (no phone, card or national number fits); no key or token format, no
value after a credential word, no IBAN.
"""

from __future__ import annotations

import re

from memory_service.core.privacy.identifiers import iban_valid
from memory_service.core.privacy.secrets import format_kinds, value_after_credential_word

MAX_TOOL_CALL_ID_CHARS = 64
MAX_DIGIT_RUN = 6
TOOL_CALL_ID_RULE = (
    f"a letter, then at most {MAX_TOOL_CALL_ID_CHARS - 1} of A-Z, a-z, 0-9, _ - . :, "
    f"without a run of more than {MAX_DIGIT_RUN} digits"
)
_SHAPE = re.compile(rf"[A-Za-z][A-Za-z0-9_.:-]{{0,{MAX_TOOL_CALL_ID_CHARS - 1}}}")
_DIGIT_RUN = re.compile(rf"\d(?:[_.:-]?\d){{{MAX_DIGIT_RUN},}}")


def valid_tool_call_id(value: str) -> bool:
    if not _SHAPE.fullmatch(value) or _DIGIT_RUN.search(value):
        return False
    spaced = re.sub(r"[_.-]", " ", value).replace(":", ": ")
    if format_kinds(value) or value_after_credential_word(spaced):
        return False
    return not any(iban_valid(token) for token in re.split(r"[_.:-]", value))
