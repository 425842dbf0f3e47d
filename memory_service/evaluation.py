"""Measure the distillation guards on the hand-written evaluation set.

Each line of the set is one ``save_memory_note`` call plus what should happen to it::

    {"text": ..., "keywords": [...], "durability": ..., "source": ...,
     "expect_status": "saved" | "rejected", "expect_reasons": [...], "lang": ..., "note": ...}

Every key other than ``expect_status``, ``expect_reasons``, ``lang`` and ``note`` is passed
to the guards as a tool argument, so a row can also carry unknown or mistyped fields.

Run ``python -m memory_service.evaluation [path]``; it prints precision and recall per
reason code and per status, then per language the PII and secret notes accepted and the
durable notes wrongly rejected. The report names rows by line number and codes, never by
their text. :func:`evaluate_rows` takes rows from anywhere (the generated privacy set of
``tests/support/privacy_corpus.py`` and ``benchmarks/privacy_guards.py`` use it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_service.core.guards import NoteValidation, PiiDetector, validate_note
from memory_service.core.model import Durability, NoteStatus, ReasonCode
from memory_service.core.ports import IdentifierDetector
from memory_service.core.privacy.sensitive import check_sensitive
from memory_service.core.progress import SILENT, Progress

DEFAULT_SET = Path(__file__).resolve().parent.parent / "tests" / "eval" / "notes.jsonl"
# A row's own id (some writers number their rows) is the set's, never a tool argument.
EXPECTATION_KEYS = frozenset({"expect_status", "expect_reasons", "lang", "note", "id"})
EVALUATED_STATUSES = (NoteStatus.SAVED, NoteStatus.REJECTED, NoteStatus.NEEDS_CONFIRMATION)
LEAK_CODES = frozenset({ReasonCode.PII, ReasonCode.SECRET})


@dataclass(frozen=True)
class Score:
    """Precision and recall of one label; both are 1.0 when nothing was there to find."""

    label: str
    true_positives: int
    false_positives: int
    false_negatives: int

    @property
    def support(self) -> int:
        return self.true_positives + self.false_negatives

    @property
    def precision(self) -> float:
        predicted = self.true_positives + self.false_positives
        return self.true_positives / predicted if predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.support if self.support else 1.0


@dataclass(frozen=True)
class Outcome:
    line: int
    lang: str
    durable: bool
    expected_status: str
    expected_codes: frozenset[str]
    status: str
    codes: frozenset[str]

    @property
    def correct(self) -> bool:
        return self.status == self.expected_status and self.codes == self.expected_codes


@dataclass(frozen=True)
class EvaluationReport:
    outcomes: tuple[Outcome, ...]
    reasons: tuple[Score, ...]
    statuses: tuple[Score, ...]

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def leaks_accepted(self) -> tuple[Outcome, ...]:
        """PII or secret notes the guards let through: the number that must stay at 0."""
        return tuple(
            o
            for o in self.outcomes
            if o.expected_codes & LEAK_CODES and o.status == NoteStatus.SAVED.value
        )

    @property
    def leak_notes(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if o.expected_codes & LEAK_CODES)

    @property
    def durable_expected_saved(self) -> tuple[Outcome, ...]:
        return tuple(
            o for o in self.outcomes if o.durable and o.expected_status == NoteStatus.SAVED.value
        )

    @property
    def durable_wrongly_rejected(self) -> tuple[Outcome, ...]:
        return tuple(
            o for o in self.durable_expected_saved if o.status == NoteStatus.REJECTED.value
        )

    @property
    def durable_wrongly_rejected_rate(self) -> float:
        expected = len(self.durable_expected_saved)
        return len(self.durable_wrongly_rejected) / expected if expected else 0.0

    @property
    def mismatches(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if not o.correct)

    def reason(self, code: ReasonCode | str) -> Score:
        return next(score for score in self.reasons if score.label == str(code))


class InvalidEvaluationSet(ValueError):
    """A line that is not an evaluation row; the message names the line, never its text."""


_STATUSES = frozenset(status.value for status in EVALUATED_STATUSES)


def load_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise InvalidEvaluationSet(f"line {number} is not JSON") from None
            # A row's note may itself be malformed (no text: the ``invalid`` reason's cases).
            if not isinstance(row, dict) or row.get("expect_status") not in _STATUSES:
                raise InvalidEvaluationSet(
                    f"line {number} has no expect_status (one of {', '.join(sorted(_STATUSES))}):"
                    " not an evaluation set"
                )
            rows.append((number, row))
    return rows


def evaluate(
    path: Path | str = DEFAULT_SET,
    *,
    pii: PiiDetector | None = None,
    identifiers: IdentifierDetector | None = None,
    progress: Progress = SILENT,
) -> EvaluationReport:
    """Run every row through the guards; builds the real detectors unless given them."""
    return evaluate_rows(load_rows(Path(path)), pii=pii, identifiers=identifiers, progress=progress)


def _as_the_service_answers(validation: NoteValidation) -> tuple[NoteStatus, frozenset[str]]:
    """The status ``save_memory_note`` gives under the default tenant policy: refused, held
    (a special category, or a judgment the model was unsure of), or saved."""
    draft = validation.draft
    if not validation.accepted or draft is None:
        # A refused note names its special categories too (``save_memory_note`` does).
        sensitive = check_sensitive(draft.text, draft.keywords) if draft is not None else []
        codes = (*validation.codes, *(reason.code for reason in sensitive))
        return NoteStatus.REJECTED, frozenset(code.value for code in codes)
    held = (*check_sensitive(draft.text, draft.keywords), *validation.held)
    if held:
        return NoteStatus.NEEDS_CONFIRMATION, frozenset(reason.code.value for reason in held)
    return NoteStatus.SAVED, frozenset()


def evaluate_rows(
    rows: Iterable[tuple[int, dict[str, Any]]],
    *,
    pii: PiiDetector | None = None,
    identifiers: IdentifierDetector | None = None,
    progress: Progress = SILENT,
    backstop: bool | None = None,
) -> EvaluationReport:
    """Run (line, row) pairs through the guards; builds the real detectors unless given.
    ``backstop``: the learned privacy backstop on or off; None reads it from the settings
    (``MEMORY_SERVICE_PRIVACY_BACKSTOP``), as the service does."""
    rows = list(rows)
    if backstop is None:
        from memory_service.config import Settings

        backstop = Settings.from_env().privacy_backstop
    detector = pii if pii is not None else _default_detector()
    if identifiers is None:
        from memory_service.bootstrap import load_identifier_detector

        identifiers = load_identifier_detector()
    library = identifiers
    outcomes = []
    progress.start(len(rows))
    for line, row in rows:
        progress.advance()
        arguments = {key: value for key, value in row.items() if key not in EXPECTATION_KEYS}
        validation = validate_note(arguments, pii=detector, identifiers=library, backstop=backstop)
        status, codes = _as_the_service_answers(validation)
        outcomes.append(
            Outcome(
                line=line,
                lang=str(row.get("lang", "")),
                durable=row.get("durability", Durability.DURABLE.value) == Durability.DURABLE.value,
                expected_status=str(row["expect_status"]),
                expected_codes=frozenset(row.get("expect_reasons", [])),
                status=status.value,
                codes=codes,
            )
        )
    return EvaluationReport(
        outcomes=tuple(outcomes),
        reasons=tuple(
            _score(code.value, ((o.expected_codes, o.codes) for o in outcomes))
            for code in ReasonCode
        ),
        statuses=tuple(
            _score(
                status.value,
                (({o.expected_status}, {o.status}) for o in outcomes),
            )
            for status in EVALUATED_STATUSES
        ),
    )


def _score(label: str, pairs: Iterable[tuple[Iterable[str], Iterable[str]]]) -> Score:
    tp = fp = fn = 0
    for expected, predicted in pairs:
        in_expected, in_predicted = label in set(expected), label in set(predicted)
        tp += in_expected and in_predicted
        fp += in_predicted and not in_expected
        fn += in_expected and not in_predicted
    return Score(label, tp, fp, fn)


def format_report(report: EvaluationReport) -> str:
    lines = [f"{report.total} notes", "", _table("reason", report.reasons), ""]
    lines += [_table("status", report.statuses), ""]
    durable = len(report.durable_expected_saved)
    lines += [
        f"PII and secret notes accepted: {len(report.leaks_accepted)}/{len(report.leak_notes)}",
        f"durable notes wrongly rejected: {len(report.durable_wrongly_rejected)}/{durable}"
        f" ({report.durable_wrongly_rejected_rate:.1%})",
        "",
        _language_table(report),
    ]
    if report.mismatches:
        lines += ["", "mismatches (line: expected -> got):"]
        lines += [
            f"  {o.line}: {o.expected_status} {sorted(o.expected_codes)}"
            f" -> {o.status} {sorted(o.codes)}"
            for o in report.mismatches
        ]
    return "\n".join(lines)


def _language_table(report: EvaluationReport) -> str:
    """Per language: PII and secret notes accepted, durable notes wrongly rejected."""
    header = f"{'language':<10}{'notes':>7}{'pii+secret accepted':>21}{'durable refused':>17}"
    rows = [header, "-" * len(header)]
    for lang in sorted({o.lang for o in report.outcomes}):
        mine = [o for o in report.outcomes if o.lang == lang]
        leaks = [o for o in mine if o.expected_codes & LEAK_CODES]
        accepted = [o for o in leaks if o.status == NoteStatus.SAVED.value]
        durable = [o for o in mine if o.durable and o.expected_status == NoteStatus.SAVED.value]
        refused = [o for o in durable if o.status == NoteStatus.REJECTED.value]
        rows.append(
            f"{lang or '-':<10}{len(mine):>7}{f'{len(accepted)}/{len(leaks)}':>21}"
            f"{f'{len(refused)}/{len(durable)}':>17}"
        )
    return "\n".join(rows)


def _table(title: str, scores: Sequence[Score]) -> str:
    header = f"{title:<16}{'support':>8}{'precision':>11}{'recall':>8}"
    rows = [f"{s.label:<16}{s.support:>8}{s.precision:>11.1%}{s.recall:>8.1%}" for s in scores]
    return "\n".join([header, "-" * len(header), *rows])


def _default_detector() -> PiiDetector:
    from memory_service.adapters.presidio_pii import PresidioPiiDetector
    from memory_service.config import Settings

    return PresidioPiiDetector(spacy_model=Settings.from_env().spacy_model)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    report = evaluate(Path(args[0]) if args else DEFAULT_SET)
    sys.stdout.write(format_report(report) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
