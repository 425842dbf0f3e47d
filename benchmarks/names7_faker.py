"""names7's rules on Faker names of several locales, in templates written after the code.

    python -m benchmarks.names7_faker [--seed N]

Private people in the positions the round's rules read (must be refused) and pets and
characters in theirs (accepted by design; a private person called "the character X" is the
cost). Prints, per template, how many sentences the detector refuses. Only a new seed gives
names the code was not fitted to; the templates are known.
"""

from __future__ import annotations

import argparse
import random

from faker import Faker

from memory_service.adapters.presidio_pii import PresidioPiiDetector

LOCALES = ("en_US", "en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "nl_NL", "pl_PL")
PRIVATE = (
    "Collects {full}'s paintings.",
    "Keeps {full}'s photos in a box.",
    "Customer's daughter is {first_lower}; add her to the booking.",
    "Signs as {first_lower} (lower case) on every form.",
    "Surname {last}, as on the passport.",
    "Her uncle, known to all as {first} ({first2}), has the spare key.",
    "Read {full}'s novels: her neighbour wrote them.",
)
PUBLIC = (
    "Pet rabbit {first} loves carrots.",
    "Horse {first} is stabled at the club.",
    "Loves the character {full} in the series.",
)
PER_LOCALE = 6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=2027)
    seed = parser.parse_args().seed
    detector = PresidioPiiDetector()
    draw = random.Random(seed)
    for kind, templates in (("private", PRIVATE), ("public", PUBLIC)):
        for template in templates:
            refused = total = 0
            for locale in LOCALES:
                fake = Faker(locale)
                fake.seed_instance(draw.randrange(1 << 30))
                for _ in range(PER_LOCALE):
                    first = fake.first_name()
                    sentence = template.format(
                        full=f"{first} {fake.last_name()}",
                        first=first,
                        first2=fake.first_name(),
                        first_lower=first.lower(),
                        last=fake.last_name(),
                    )
                    refused += bool(detector.entity_types(sentence))
                    total += 1
            print(f"{kind:8} refused {refused:3}/{total}  {template}")


if __name__ == "__main__":
    main()
