"""Privacy guards: values that identify a person or open something.

Kept apart from the judgment guards in :mod:`memory_service.core.guards` (speculative,
ephemeral, not actionable, instruction), so each can change without the other. Standard
library only; the libraries that know national id formats, phone plans and seed-phrase word
lists sit behind :class:`memory_service.core.ports.IdentifierDetector`.

- :mod:`~memory_service.core.privacy.normalise`: the note as the guards read it (never stored);
- :mod:`~memory_service.core.privacy.identifiers`: identifiers by the shape of the value;
- :mod:`~memory_service.core.privacy.locators`: e-mail, handles, IP, MAC, GPS, plates;
- :mod:`~memory_service.core.privacy.secrets`: key formats and values after credential words;
- :mod:`~memory_service.core.privacy.vocabulary`: the cue words, per language;
- :mod:`~memory_service.core.privacy.guard`: the reasons for a note, a state, fail closed;
- :mod:`~memory_service.core.privacy.tool_call`: the strict shape of a ``tool_call_id``.
"""
