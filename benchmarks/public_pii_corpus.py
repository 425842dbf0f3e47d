"""The guards on the public synthetic PII corpus's own templates, filled fresh each run.

Microsoft's presidio-research corpus (``synth_dataset_v2.json``) is generated from the
templates in ``benchmarks/data/presidio_templates.txt`` (copied from the presidio-evaluator
0.3.2 wheel, MIT licence beside it) filled with fake people from many countries. This script
fills the same templates with Faker in many locales (a new seed each run unless given), keeps
the sentences that carry a value identifying a person (a name, an address, a card, an IBAN, a
phone, an e-mail, an SSN, a date of birth, an IP address, a driving licence), and runs each
through the real guards as a note. It reports the share refused as ``pii`` (or ``secret``),
overall and among the sentences a note may hold (at most 280 characters and two sentences:
longer ones are refused as ``invalid`` before any privacy guard looks at them), per
placeholder family. Nobody tuned the guards to these sentences: the figure is first sight
the first time a seed is drawn.

    .venv/bin/python -m benchmarks.public_pii_corpus --sentences 600 [--seed N] [--misses]
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import secrets
from pathlib import Path
from typing import Any

from faker import Faker

from memory_service.evaluation import evaluate_rows

TEMPLATES = Path(__file__).parent / "data" / "presidio_templates.txt"
LOCALES = [
    "en_US",
    "en_GB",
    "de_DE",
    "fr_FR",
    "it_IT",
    "es_ES",
    "nl_NL",
    "hu_HU",
    "cs_CZ",
    "fi_FI",
    "sv_SE",
    "da_DK",
    "pl_PL",
    "pt_BR",
    "no_NO",
    "et_EE",
    "sk_SK",
    "hr_HR",
    "sl_SI",
    "tr_TR",
]
# Placeholders whose value identifies a person (or reaches one); the others (a country, a
# city, a company, a job, a year, an age...) do not make a sentence personal data alone.
IDENTIFYING = frozenset(
    [
        "person",
        "name",
        "name_male",
        "name_female",
        "first_name",
        "first_name_male",
        "first_name_female",
        "first_name_nonbinary",
        "last_name",
        "last_name_male",
        "last_name_female",
        "address",
        "street_name",
        "credit_card_number",
        "phone_number",
        "email",
        "iban",
        "ssn",
        "date_of_birth",
        "ip_address",
        "us_driver_license",
    ]
)
PLACEHOLDER = re.compile(r"{{(\w+)}}")
BIRTH_DATE_FORMATS = ("%d/%m/%Y", "%B %d, %Y")
NATIONALITIES = ("Finnish", "Hungarian", "Brazilian", "Czech", "Danish", "Polish", "Dutch")


def _value(fake: Faker, fallback: Faker, name: str, rng: random.Random) -> str:
    special: dict[str, Any] = {
        "person": fake.name,
        "organization": fake.company,
        "ip_address": fake.ipv4,
        "age": lambda: str(rng.randint(18, 95)),
        "nationality": lambda: rng.choice(NATIONALITIES),
        "nation_woman": lambda: rng.choice(NATIONALITIES) + " woman",
        "nation_plural": lambda: rng.choice(NATIONALITIES) + "s",
        "us_driver_license": lambda: rng.choice("ABCDEFGH") + str(rng.randint(10**6, 10**7 - 1)),
        "date_of_birth": lambda: fake.date_of_birth().strftime(rng.choice(BIRTH_DATE_FORMATS)),
        "date_time": lambda: fake.date_time().strftime("%Y-%m-%d %H:%M"),
        "year": fake.year,
    }
    make = special.get(name)
    if make is None:
        make = getattr(fake, name, None) or getattr(fallback, name)
    return str(make()).replace("\n", ", ")


def generate(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    fakers = {locale: Faker(locale) for locale in LOCALES}
    for index, fake in enumerate(fakers.values()):
        fake.seed_instance(seed + index)
    fallback = fakers["en_US"]
    templates = [
        # The file spells line breaks inside a template as a literal backslash-n: a note is
        # one line, so they become commas, as an agent would write them.
        line.strip().replace("\\n", ", ")
        for line in TEMPLATES.read_text(encoding="utf-8").splitlines()
        if IDENTIFYING & set(PLACEHOLDER.findall(line))
    ]
    rows = []
    for _ in range(count):
        template = rng.choice(templates)
        fake = fakers[rng.choice(LOCALES)]
        families = sorted(IDENTIFYING & set(PLACEHOLDER.findall(template)))
        text = PLACEHOLDER.sub(
            lambda m, fake=fake: _value(fake, fallback, m.group(1), rng),  # type: ignore[misc]
            template,
        )
        rows.append(
            {
                "text": text,
                "durability": "durable",
                "source": "user_stated",
                "expect_status": "rejected",
                "expect_reasons": ["pii"],
                "lang": "en",
                "note": "+".join(families),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=600)
    parser.add_argument("--seed", default="random")
    parser.add_argument("--misses", action="store_true", help="print the sentences not refused")
    args = parser.parse_args()
    seed = secrets.randbelow(2**31) if args.seed == "random" else int(args.seed)
    rows = generate(args.sentences, seed)
    report = evaluate_rows(enumerate(rows, start=1))
    refused = {"pii", "secret"}
    by_family: collections.Counter[str] = collections.Counter()
    missed: collections.Counter[str] = collections.Counter()
    holdable = holdable_refused = refused_all = invalid = 0
    for outcome, row in zip(report.outcomes, rows, strict=True):
        hit = bool(outcome.codes & refused)
        is_invalid = "invalid" in outcome.codes and not hit
        refused_all += hit
        invalid += is_invalid
        if not is_invalid:
            holdable += 1
            holdable_refused += hit
            by_family[row["note"]] += 1
            if not hit:
                missed[row["note"]] += 1
                if args.misses:
                    print("  missed:", row["text"])
    print(f"seed {seed}: {len(rows)} sentences from {TEMPLATES.name}")
    print(f"refused as pii/secret: {refused_all}/{len(rows)} ({refused_all / len(rows):.1%})")
    print(f"refused as invalid (too long / too many sentences) and not as pii: {invalid}")
    share = holdable_refused / holdable if holdable else 0.0
    print(f"among sentences a note may hold: {holdable_refused}/{holdable} ({share:.1%})")
    print("missed by placeholder family (missed/seen):")
    for family, seen in by_family.most_common():
        if missed[family]:
            print(f"  {family:<40} {missed[family]}/{seen}")


if __name__ == "__main__":
    main()
