"""Names and postal addresses of many locales, in English templates, through the detector.

    python -m benchmarks.faker_names_addresses [--seed N]

Faker draws 15 names per locale (18 locales) and 15 addresses per locale for 8 of them, each
put in one of a few sentence templates; prints how many are refused as PII per locale and
the sentences that are not. The templates were written while tuning the detectors: only a
new seed gives a figure the code was not fitted to, and even then the templates are known.
"""

from __future__ import annotations

import argparse
import random

from faker import Faker

from memory_service.adapters.presidio_pii import PresidioPiiDetector

NAME_TEMPLATES = (
    "I want to add {} as a beneficiary.",
    "User: {}",
    "Please send the contract to {}.",
    "{} will pick up the order.",
    "The account holder is {}.",
    "Contact person: {}",
    "Schedule a call with {} next week.",
)
ADDRESS_TEMPLATES = ("Please ship it to {}.", "My address is {}.", "Deliver to {}", "Bill to: {}")
NAME_LOCALES = (
    "en_US", "en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "nl_NL", "pl_PL", "hu_HU",
    "no_NO", "sv_SE", "pt_BR", "cs_CZ", "ro_RO", "tr_TR", "en_IN", "da_DK", "fi_FI",
)  # fmt: skip
ADDRESS_LOCALES = ("en_US", "en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "nl_NL", "pt_BR")
PER_LOCALE = 15


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    seed = parser.parse_args().seed
    detector = PresidioPiiDetector()
    draw = random.Random(seed)
    totals = {"names": [0, 0], "addresses": [0, 0]}
    for locale in NAME_LOCALES:
        fake = Faker(locale)
        fake.seed_instance(seed)
        cases = [
            ("names", draw.choice(NAME_TEMPLATES).format(fake.name())) for _ in range(PER_LOCALE)
        ]
        if locale in ADDRESS_LOCALES:
            cases += [
                (
                    "addresses",
                    draw.choice(ADDRESS_TEMPLATES).format(fake.address().replace("\n", ", ")),
                )
                for _ in range(PER_LOCALE)
            ]
        for kind, sentence in cases:
            found = bool(detector.entity_types(sentence))
            totals[kind][0] += found
            totals[kind][1] += 1
            if not found:
                print(f"  {locale} {kind} not refused: {sentence}")
    for kind, (refused, total) in totals.items():
        print(f"{kind}: {refused}/{total} refused as PII")


if __name__ == "__main__":
    main()
