"""IdentifierDetector over python-stdnum, phonenumbers and mnemonic's BIP-39 word lists.

- **National, tax and social-security ids**: every country module python-stdnum ships
  (``stdnum.<cc>.<format>``) whose validation checks a checksum (its source raises
  ``InvalidChecksum``), tried on the codes the core hands over. Modules without a checksum
  are left out: they accept any code of the right length, so "WH1000XM5" would be a Dutch
  identity card; the core's shape rule already refuses long codes without their help.
- **Phone numbers**: phonenumbers' ``PhoneNumberMatcher`` with no default region finds a
  number written with its country code ("+44 …", "0049 …") for every region, kept when its
  length is possible there (fictional and reserved ranges are still someone's number).
  Numbers in a national format are the core's shape rule's (7 or more digits is an
  identifier): measured here, trying all 245 regions costs about 90 ms per number and
  calls any run of 8 digits a valid number in 20 to 40 regions, so it would add time and
  no refusal.
- **Seed phrases**: 12 to 24 consecutive words of one BIP-39 list (every list the
  ``mnemonic`` package ships with a Latin alphabet); or 6 or more in lower case with only
  spaces between them and none a stop word (a part of a phrase, "ribbon glass walnut prize
  humble orbit"): English prose is often made of BIP-39 words ("they live near the sea"),
  never of six in a row without a function word (1 note of 12,000 seen ones had six with
  them, none without).

Only entity types leave this module. Results per code are cached: the checks are pure.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from importlib import resources
from types import ModuleType
from typing import cast

import phonenumbers
from stdnum.util import get_number_modules

from memory_service.adapters.digest_memo import DigestMemo
from memory_service.core.lexicons import DEFAULT_LEXICONS, fold
from memory_service.core.privacy.secrets import MIN_SEED_WORDS

NATIONAL_ID = "NATIONAL_ID"
PHONE_NUMBER = "PHONE_NUMBER"
SEED_PHRASE = "SEED_PHRASE"
SEED_WORDS = range(12, 25)
# A shorter run counts when it has the shape of a written-out phrase (see the module doc).
_LOWER_RUN = re.compile(r"[a-z]+(?: [a-z]+)+")
_LATIN_WORDLISTS = ("english", "french", "spanish", "italian", "portuguese", "czech", "turkish")
_WORD = re.compile(r"[^\W\d_]+")
_COUNTRY_CODE = re.compile(r"(?<![\w+])(?:\+|00)\s?[1-9]")


def checksum_modules() -> tuple[ModuleType, ...]:
    """Country formats of python-stdnum that validate a checksum."""
    modules = [cast(ModuleType, module) for module in get_number_modules()]
    return tuple(
        module
        for module in modules
        if module.__name__.count(".") == 2 and "InvalidChecksum" in inspect.getsource(module)
    )


def bip39_wordlists() -> tuple[frozenset[str], ...]:
    """The BIP-39 lists shipped in the ``mnemonic`` wheel, folded (no accents)."""
    folder = resources.files("mnemonic") / "wordlist"
    return tuple(
        frozenset(fold(word.strip()).lower() for word in text.splitlines() if word.strip())
        for text in (
            (folder / f"{name}.txt").read_text(encoding="utf-8") for name in _LATIN_WORDLISTS
        )
    )


class LibraryIdentifierDetector:
    """Build once at start: listing stdnum's modules reads their sources (about a second)."""

    def __init__(self) -> None:
        self._modules = checksum_modules()
        self._wordlists = bip39_wordlists()
        # By a keyed digest, never the code itself: candidates are values from notes.
        self._national_ids: DigestMemo[bool] = DigestMemo(4096)

    def identifier_types(self, text: str, codes: Sequence[str]) -> frozenset[str]:
        found = set()
        if any(self._national_ids(code, self._national_id) for code in codes):
            found.add(NATIONAL_ID)
        if _COUNTRY_CODE.search(text) and _has_phone_number(text):
            found.add(PHONE_NUMBER)
        if self._has_seed_phrase(text):
            found.add(SEED_PHRASE)
        return frozenset(found)

    def _national_id(self, code: str) -> bool:
        return any(_is_valid(module, code) for module in self._modules)

    def _has_seed_phrase(self, text: str) -> bool:
        return self._long_run(text) or any(
            self._bare_run(match.group().split()) for match in _LOWER_RUN.finditer(text)
        )

    def _bare_run(self, words: list[str]) -> bool:
        if len(words) < MIN_SEED_WORDS:
            return False
        for wordlist in self._wordlists:
            run = 0
            for word in words:
                seed = word in wordlist and word not in DEFAULT_LEXICONS.stopwords
                run = run + 1 if seed else 0
                if run >= MIN_SEED_WORDS:
                    return True
        return False

    def _long_run(self, text: str) -> bool:
        words = [word.lower() for word in _WORD.findall(text)]
        if len(words) < SEED_WORDS.start:
            return False
        for wordlist in self._wordlists:
            run = 0
            for word in words:
                run = run + 1 if word in wordlist else 0
                if run >= SEED_WORDS.start:
                    return True
        return False


def _is_valid(module: ModuleType, code: str) -> bool:
    try:
        return bool(module.is_valid(code))
    except Exception:  # a format module may raise on input it was never meant to see
        return False


def _has_phone_number(text: str) -> bool:
    """ "00" is the international prefix of most regions: read it as "+"."""
    international = re.sub(r"(?<![\w+])00\s?(?=[1-9])", "+", text)
    matches = phonenumbers.PhoneNumberMatcher(
        international, None, leniency=phonenumbers.Leniency.POSSIBLE
    )
    return any(True for _ in matches)
