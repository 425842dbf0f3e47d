"""What the privacy layers of issue 10 (second half) cost per note, in-process.

    python -m benchmarks.privacy_layers [--baseline-tree DIR] [--rounds 3] [--backstop]

Times ``validate_note`` with the real detector over every note text of ``tests/eval`` (EN/FR)
plus the blind set (EN/FR/ES/DE/IT), and the new layers alone: language routing, names by
structure, addresses, brands (inside the names), special categories. With
``--baseline-tree`` (a checkout of the code before these layers, e.g. ``git archive <rev>``)
the same ``validate_note`` loop runs in a subprocess on that tree, alternating with this one
and flipping which runs first every round (a fixed order biased the difference), so the added
cost is a difference measured in the same run. Reports p50 and p90 in ms. ``--backstop``
times the save path as deployed (the learned backstop and its sentence stage on, as
``MEMORY_SERVICE_PRIVACY_BACKSTOP`` is by default) in both trees.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = (
    "notes",
    "holdout",
    "holdout2",
    "holdout3",
    "holdout4",
    "blind_privacy_b",
    "dev_privacy_s3",
)

_LOOP = """
import json, sys, time
from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.adapters.presidio_pii import PresidioPiiDetector
from memory_service.core.guards import validate_note
texts, backstop = json.loads(sys.stdin.read())
detector = PresidioPiiDetector()
library = LibraryIdentifierDetector()
for text in texts[:20]:
    validate_note({"text": text}, pii=detector, identifiers=library, backstop=backstop)
times = []
for text in texts:
    start = time.perf_counter()
    validate_note({"text": text}, pii=detector, identifiers=library, backstop=backstop)
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps(times))
"""


def note_texts() -> list[str]:
    texts = []
    for name in SETS:
        for line in (ROOT / "tests" / "eval" / f"{name}.jsonl").read_text().splitlines():
            text = json.loads(line).get("text") if line.strip() else None
            if isinstance(text, str) and 0 < len(text.strip()) <= 280:
                texts.append(text)
    return texts


def run_loop(tree: Path, texts: list[str], backstop: bool = False) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _LOOP],
        input=json.dumps([texts, backstop]),
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env=env,
    )
    return [float(x) for x in json.loads(out.stdout.strip().splitlines()[-1])]


def timed(function: Callable[[str], object], texts: list[str]) -> list[float]:
    times = []
    for text in texts:
        start = time.perf_counter()
        function(text)
        times.append((time.perf_counter() - start) * 1000)
    return times


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{label:<34} p50 {statistics.median(times):7.3f} ms   p90 {p90:7.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline-tree", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backstop", action="store_true", help="the save path as deployed")
    args = parser.parse_args()
    texts = note_texts()
    print(f"{len(texts)} notes")

    from memory_service.adapters.presidio_pii import PresidioPiiDetector
    from memory_service.core.lexicons import fold
    from memory_service.core.privacy.addresses import address_kinds
    from memory_service.core.privacy.identifiers import identifier_types
    from memory_service.core.privacy.normalise import normalise_text
    from memory_service.core.privacy.plates import plate_in
    from memory_service.core.privacy.secrets import secret_kinds
    from memory_service.core.privacy.sensitive import sensitive_categories

    detector = PresidioPiiDetector()
    layers: dict[str, Callable[[str], object]] = {
        "language routing (py3langid)": detector._languages.language_of,
        "names by structure (+ brands)": detector._names.find,
        "addresses and postal boxes": address_kinds,
        "special categories": sensitive_categories,
        "lone given names": detector._bare_names.person_types,
        "secrets (cues, codes, answers)": lambda text: secret_kinds(fold(text)),
        "value shapes (normalise, ids)": lambda text: identifier_types(normalise_text(text)),
        "plates without a format": lambda text: plate_in(normalise_text(text)),
    }
    for label, function in layers.items():
        timed(function, texts[:20])
        print(summary(label, timed(function, texts)))
    layer_p50 = sum(statistics.median(timed(f, texts)) for f in layers.values())
    print(f"{'sum of the new layers, p50':<34} {layer_p50:7.3f} ms")

    new: list[float] = []
    old: list[float] = []
    differences: list[float] = []
    for round_index in range(args.rounds):
        if not args.baseline_tree:
            new += run_loop(ROOT, texts, args.backstop)
            continue
        # The order flips every round: the tree run second in a pair gets a warmer disk
        # cache and a machine whose load has moved on, so a fixed order biases the difference.
        if round_index % 2:
            base = run_loop(args.baseline_tree, texts, args.backstop)
            this = run_loop(ROOT, texts, args.backstop)
        else:
            this = run_loop(ROOT, texts, args.backstop)
            base = run_loop(args.baseline_tree, texts, args.backstop)
        new += this
        old += base
        differences.append(statistics.median(this) - statistics.median(base))
        first = "baseline" if round_index % 2 else "this tree"
        print(f"round {round_index + 1} ({first} first): added p50 {differences[-1]:+.3f} ms")
    if new:
        print(summary("validate_note, this tree", new))
    if old:
        print(summary("validate_note, baseline tree", old))
        added = statistics.median(new) - statistics.median(old)
        ratio = statistics.median(new) / statistics.median(old)
        print(f"added per note, p50: {added:+.3f} ms (x{ratio:.2f} the baseline)")
        print(
            f"added per note, median of the rounds' differences: "
            f"{statistics.median(differences):+.3f} ms (rounds alternate which tree runs first)"
        )


if __name__ == "__main__":
    main()
