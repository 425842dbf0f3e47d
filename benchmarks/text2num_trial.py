"""The hand-written number-word parser of the normaliser against text2num (MIT, a Rust wheel,
no dependencies), alone or as a complement, EN/FR/ES/DE/IT in turn: leaks and look-alikes
refused on a generated corpus, the number-word families among them, normalise cost per note.

text2num is not a dependency (measured, not adopted: its ordinals in a group of numbers,
"first 8, second 9" -> "1st 8, 2nd 9", break the ordinal-digit reading; the hand parser
already reads every number-word family of the corpus). Install it by hand to rerun:

    .venv/bin/pip install text2num
    .venv/bin/python -m benchmarks.text2num_trial --corpus values --seeds 9101,9102
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import time
from collections.abc import Callable

import memory_service.core.privacy.normalise as normaliser
from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.evaluation import evaluate_rows
from tests.support import value_corpus
from tests.support.no_ner import NoNer
from tests.support.privacy_corpus import generate as generate_identifiers

LANGUAGES = ("en", "fr", "es", "de", "it")
NUMBER_FAMILIES = ("birth_words", "phone_words", "said_aloud", "number_words", "spelled")


def main() -> None:
    from text_to_num import alpha2digit  # type: ignore[import-not-found,unused-ignore]

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("identifiers", "values"), default="values")
    parser.add_argument("--seeds", default="9101,9102")
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--threshold", type=float, default=3.0)
    args = parser.parse_args()

    hand: Callable[[str], str] = normaliser._spelled_numbers

    def t2n(text: str) -> str:
        for lang in LANGUAGES:
            with contextlib.suppress(Exception):
                text = alpha2digit(text, lang, args.threshold)
        return text

    variants: dict[str, Callable[[str], str]] = {
        "hand": hand,
        "t2n": t2n,
        "hand+t2n": lambda text: t2n(hand(text)),
        "t2n+hand": lambda text: hand(t2n(text)),
    }
    library = LibraryIdentifierDetector()
    generate = value_corpus.generate if args.corpus == "values" else generate_identifiers
    for seed in (int(s) for s in args.seeds.split(",")):
        rows = generate(args.notes, seed)
        for name, function in variants.items():
            normaliser._spelled_numbers = function  # type: ignore[assignment]
            start = time.perf_counter()
            for row in rows:
                normaliser.normalise_text(row["text"])
            ms = (time.perf_counter() - start) * 1000 / len(rows)
            report = evaluate_rows(enumerate(rows, start=1), pii=NoNer(), identifiers=library)
            leaks = collections.Counter(
                str(rows[o.line - 1]["note"]) for o in report.leaks_accepted
            )
            refused = collections.Counter(
                str(rows[o.line - 1]["note"]) for o in report.durable_wrongly_rejected
            )

            def numbers(counter: collections.Counter[str]) -> int:
                return sum(n for k, n in counter.items() if any(f in k for f in NUMBER_FAMILIES))

            print(
                f"{args.corpus} seed {seed} {name:9} leaks {sum(leaks.values()):3}"
                f" durable refused {sum(refused.values()):3} | number-word families: leaks"
                f" {numbers(leaks)} refused {numbers(refused)} | normalise {ms:.3f} ms/note",
                flush=True,
            )
            if name != "hand":
                print("   leaks:", dict(leaks))
        normaliser._spelled_numbers = hand  # type: ignore[assignment]


if __name__ == "__main__":
    main()
