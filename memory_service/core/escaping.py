"""Escaping for the rendered context: memory and state text are data, never markup.

Every interpolated string is escaped: ``&``, ``<``, ``>``, angle-bracket lookalikes and the
invisible Unicode tag characters become character references; a memory's line breaks too, so a
memory is one line; in the state's YAML a line that starts like a front-matter fence has its
first character escaped. So nothing inside them can open, close or forge a block, and decoding
the references gives the text back.
"""

from __future__ import annotations

# Characters a reader (human or model) could take for a tag bracket, and the invisible Unicode
# "tag" characters (U+E0000..U+E007F) that smuggle ASCII, including a hidden "<", past a human.
_LOOKALIKES = (
    "\u02c2\u02c3\u1433\u1438\u2039\u203a\u2329\u232a\u27e8\u27e9\u276c\u276d\u276e\u276f"
    "\u29fc\u29fd\u3008\u3009\ufe64\ufe65\uff1c\uff1e"
)
# Line breaks other than "\n" that some readers honour; escaped everywhere so the only line
# structure is the one we write.
_OTHER_LINE_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _reference(char: str) -> str:
    return f"&#x{ord(char):X};"


_BASE_ESCAPES: dict[int, str] = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
_BASE_ESCAPES.update({ord(c): _reference(c) for c in _LOOKALIKES + _OTHER_LINE_BREAKS})
_BASE_ESCAPES.update({code: _reference(chr(code)) for code in range(0xE0000, 0xE0080)})
# Block text (the state's YAML) keeps its "\n"; a memory is rendered on a single line.
_LINE_ESCAPES = {**_BASE_ESCAPES, ord("\n"): _reference("\n")}
_ATTRIBUTE_ESCAPES = {**_LINE_ESCAPES, ord('"'): "&quot;"}
_FENCE_STARTS = ("---", "...", "+++")


def escape_line(text: str) -> str:
    """Escape text rendered on one line inside a block: it cannot hold a tag or a new line."""
    return text.translate(_LINE_ESCAPES)


def escape_block(text: str) -> str:
    """Escape multi-line text (the state's YAML): no tag, and no line that reads as a fence."""
    escaped = text.translate(_BASE_ESCAPES)
    if not any(start in escaped for start in _FENCE_STARTS):
        return escaped
    lines = escaped.split("\n")
    for number, line in enumerate(lines):
        body = line.lstrip()
        if body.startswith(_FENCE_STARTS):
            indent = line[: len(line) - len(body)]
            lines[number] = indent + _reference(body[0]) + body[1:]
    return "\n".join(lines)


def escape_attribute(value: str) -> str:
    """Escape an attribute value written between double quotes."""
    return value.translate(_ATTRIBUTE_ESCAPES)
