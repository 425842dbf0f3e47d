"""Which of the service's languages a note is written in, from a model shipped in its wheel.

``py3langid`` (BSD, the maintained fork of langid.py) is a naive Bayes classifier over byte
n-grams whose model (4.6 MB) ships inside the package; restricted to the five languages the
service claims, it answers in about 0.25 ms a note. Measured against the alternative the
issue names, lingua-language-detector 2.1 (a 96 MB wheel holding every language, since the
wheel cannot be rebuilt for five here: its Rust crates are not reachable), on the 847 notes of
``tests/eval`` plus 30 Spanish, German and Italian sentences: py3langid 98.6 % correct at
0.25 ms, lingua 96.6 % at 0.8 ms (high accuracy) or 92.7 % at 0.25 ms (low accuracy).
Its mistakes are on notes with no language in them ("OK.", a key, a URL), where the choice
of NER model does not matter.
"""

from __future__ import annotations

from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

SUPPORTED_LANGUAGES = ("en", "fr", "es", "de", "it")


class NGramLanguageDetector:
    """Build once at start (loading the model takes about 0.3 s); thread-safe to call."""

    def __init__(self, languages: tuple[str, ...] = SUPPORTED_LANGUAGES) -> None:
        self._identifier = LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE)
        self._identifier.set_languages(list(languages))

    def language_of(self, text: str) -> str:
        """One of the configured language codes, whatever the text."""
        language, _score = self._identifier.classify(text)
        return str(language)
