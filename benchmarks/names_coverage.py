"""How many people's first names each list knows: the names dictionary against the gazetteer.

    python -m benchmarks.names_coverage

For first names drawn from Faker's person providers of many locales (Faker's lists were
written by neither list's authors, so neither was tuned to them), the share each list holds
(accent- and case-insensitive): the core lexicons' gazetteer (today's rule) and the
``gender-guesser`` dictionary the detector now loads (all of it, and without its rarest
entries). Also what the dictionary costs: its size, and how many of the five languages'
closed-class words and the lexicons' stop words it holds (those are excluded at run time).
"""

from __future__ import annotations

from faker import Faker

from memory_service.adapters.names_dictionary import RARE, load_first_names
from memory_service.core.lexicons import DEFAULT_LEXICONS, fold
from memory_service.core.privacy.names import FUNCTION_WORDS

LOCALES = (
    "en_US", "en_GB", "en_IE", "en_IN", "fr_FR", "fr_CA", "es_ES", "es_MX", "de_DE", "de_AT",
    "it_IT", "pt_BR", "nl_NL", "pl_PL", "hu_HU", "no_NO", "sv_SE", "da_DK", "fi_FI", "cs_CZ",
    "ro_RO", "hr_HR", "tr_TR", "el_GR", "ru_RU", "zh_CN", "ja_JP", "ar_AA", "yo_NG", "tw_GH",
)  # fmt: skip


def locale_names(locale: str) -> set[str]:
    provider = Faker(locale).factories[0].provider("faker.providers.person")
    names: set[str] = set()
    for attribute in ("first_names", "first_names_male", "first_names_female"):
        source = getattr(provider, attribute, None) or {}
        names.update(str(name) for name in source)
    return {fold(name).lower() for name in names if name.isalpha() and name[:1].isupper()}


def main() -> None:
    gazetteer = {fold(name).lower() for name in DEFAULT_LEXICONS.first_names}
    dictionary = {fold(name) for name in load_first_names()}
    frequent = {fold(name) for name in load_first_names(min_frequency=RARE + 1)}
    print(f"gazetteer {len(gazetteer)}; dictionary {len(dictionary)} ({len(frequent)} not rare)")
    print(f"{'locale':<8} {'names':>6} {'gazetteer':>10} {'dictionary':>11} {'not rare':>9}")
    totals = [0, 0, 0, 0]
    for locale in LOCALES:
        names = locale_names(locale)
        if not names:
            continue
        counts = [len(names), len(names & gazetteer), len(names & dictionary)]
        counts.append(len(names & frequent))
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        share = [f"{100 * c / counts[0]:.0f} %" for c in counts[1:]]
        print(f"{locale:<8} {counts[0]:>6} {share[0]:>10} {share[1]:>11} {share[2]:>9}")
    share = [f"{100 * c / totals[0]:.0f} %" for c in totals[1:]]
    print(f"{'all':<8} {totals[0]:>6} {share[0]:>10} {share[1]:>11} {share[2]:>9}")
    stop = {fold(word).lower() for word in DEFAULT_LEXICONS.stopwords} | FUNCTION_WORDS
    print(f"closed-class and stop words that are also dictionary names: {len(stop & dictionary)}")


if __name__ == "__main__":
    main()
