"""Per-language figures of the privacy guards on evaluation sets, with the real detector.

    python -m benchmarks.privacy_languages [set.jsonl ...]

For each set and language: durable notes wrongly refused (any reason), and PII notes
(``expect_reasons`` holding ``pii``) accepted. Rows are named by line number and codes, never
by their text. Without arguments it runs the sets in ``tests/eval``; the README says which
of them were tuned on and which were first sight.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from memory_service.adapters.presidio_pii import PresidioPiiDetector
from memory_service.bootstrap import load_identifier_detector
from memory_service.core.guards import validate_note
from memory_service.evaluation import EXPECTATION_KEYS, load_rows

EVAL = Path(__file__).resolve().parent.parent / "tests" / "eval"
DEFAULT_SETS = ("notes", "holdout", "holdout2", "holdout3", "blind_privacy_b")


def main(paths: list[Path]) -> None:
    detector = PresidioPiiDetector()
    identifiers = load_identifier_detector()
    for path in paths:
        durable: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        pii: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        wrong: list[str] = []
        for line, row in load_rows(path):
            arguments = {k: v for k, v in row.items() if k not in EXPECTATION_KEYS}
            validation = validate_note(arguments, pii=detector, identifiers=identifiers)
            lang = str(row.get("lang", "?"))
            codes = sorted(code.value for code in validation.codes)
            if row["expect_status"] == "saved" and row.get("durability", "durable") == "durable":
                durable[lang][1] += 1
                if not validation.accepted:
                    durable[lang][0] += 1
                    wrong.append(f"  line {line} ({lang}) durable refused: {codes}")
            if "pii" in row.get("expect_reasons", []):
                pii[lang][1] += 1
                if "pii" not in codes:
                    pii[lang][0] += 1
                    wrong.append(f"  line {line} ({lang}) pii missed: {codes}")
        print(path.name)
        for lang in sorted(set(durable) | set(pii)):
            refused, total = durable[lang]
            missed, leaks = pii[lang]
            print(
                f"  {lang}: durable wrongly refused {refused}/{total}; PII missed {missed}/{leaks}"
            )
        print("\n".join(wrong))


if __name__ == "__main__":
    given = [Path(arg) for arg in sys.argv[1:]]
    main(given or [EVAL / f"{name}.jsonl" for name in DEFAULT_SETS])
