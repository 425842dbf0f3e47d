"""The two things words decide on their own, without the model.

- **Empty chatter**: nothing is left of the note once greetings, thanks, politeness and stop
  words (``filler`` and ``stopwords`` in ``core/lexicons``) are removed ("Hi!", "Merci
  beaucoup", "ok thanks"). Digits alone are no content either.
- **Role and template markup**: text that impersonates a chat role or a prompt template
  ("SYSTEM: …", "Assistant, …", "<|im_start|>", "[INST]", "<<SYS>>", "### Instruction",
  ``<system>`` tags). No note about a user starts that way, so the shape alone decides.
"""

from __future__ import annotations

import re

from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold

_WORD = re.compile(r"[^\W_]+")
_ROLE_MARKUP = re.compile(
    r"^\W*(?:system|systeme|sistema|developer|developpeur|assistant|assistente|asistente"
    r"|assistent|agent|agente|bot|tool|outil|admin|root|operator|ai|ia|ki)\s*[:>\],]"
    r"|<\|?\s*im_(?:start|end|sep)\s*\|?>|<\|(?:system|user|assistant|endoftext)\|>"
    r"|\[/?\s*inst\s*\]|<<\s*/?\s*sys\s*>>|#{2,}\s*(?:instruction|system|new rules?)"
    r"|</?\s*(?:system|memory_policy|memories|memory|instructions?|context|policy)\s*>",
    re.IGNORECASE | re.MULTILINE,
)


def is_empty_chatter(text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> bool:
    folded = fold(text)
    remainder = lexicons.patterns["filler"].sub(" ", folded)
    content = [
        word
        for word in _WORD.findall(remainder.lower())
        if word not in lexicons.stopwords and not word.isdigit()
    ]
    return not content


def is_role_markup(text: str) -> bool:
    return _ROLE_MARKUP.search(fold(text)) is not None
