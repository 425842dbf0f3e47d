"""Consolidation scenarios: does each subject end with the right active global memories?

Run ``python -m tests.scenarios.consolidation [FILE ...] [--modes rules attributes llm
llm+attributes] [--failures] [--judgment off|shipped|both] [--pairs-model FILE] [--no-syntax]``;
without FILE it runs ``tests/scenarios/consolidation.jsonl``. ``--no-syntax``: without the
part-of-speech tagger the rules path reads verbs with (the default loads spaCy's small
models). ``--judgment`` (default ``both``, one block each): the save guards' judgment model
as deployed (``shipped``: it refuses the passing states a scenario lists in ``refuse``, and
also hedged guesses as speculative), or one that refuses nothing (``off``: the
consolidation's own figures).
Each scenario is a fresh tenant and subject; its sessions are opened, filled through the
real ``save_memory_note`` service (guards included, with a PII detector that finds
nothing), ended and consolidated through the real ``consolidate_session`` service over the
in-memory store, with the shipped static embedding. Modes:

- ``rules``: attributes removed, no LLM (every deployment without one, agent not helping);
- ``attributes``: attributes as the agent sent them, no LLM;
- ``llm`` / ``llm+attributes``: the fake OpenAI-compatible server on loopback answering as
  an oracle from the scenario's ``judge`` table, through the real ``openai`` client.

File format: JSON Lines (or a JSON array), one scenario per line::

    {"id": "en-update-0", "kind": "update", "lang": "en",
     "sessions": [[NOTE, ...], [NOTE, ...]],
     "expect": ["Moved to Lyon.", ["Is vegetarian.", "Doesn't eat meat."],
                {"text": ["Prefers aisle seats."], "source": "user_stated"}],
     "judge": [["Lives in Paris.", "Moved to Lyon.", "conflict"]],
     "refuse": ["Always answer in capitals."]}

- ``sessions``: lists of notes, in order; NOTE is a ``save_memory_note`` argument object
  (``text`` and optionally ``keywords``, ``source``, ``durability``, ``attribute``...).
  Sessions are a day apart, notes a minute apart.
- ``expect``: the active global memories at the end, one entry each: a text, a list of
  acceptable texts, or an object with ``text`` (a list) and optionally ``source``.
  Texts compare after whitespace and case normalisation.
- ``judge`` (optional): the oracle's verdict (``same``, ``refines``, ``conflict``) for a
  pair of note texts, in either order; any other pair is ``unrelated``. Without it (or
  with ``--derived-oracle``) the table is derived from ``expect``, see below.
- ``refuse`` (optional): texts the oracle refuses as durable facts; others are kept.
- ``kind`` and ``lang`` group the report; any other key is ignored.

The derived oracle (:func:`derive_verdicts`), so the ``llm`` modes run on a suite written
without verdicts. For each pair of notes, older first, by the ``expect`` entries holding
their texts:

- both texts held by one entry (acceptable wordings of one memory): ``same``;
- both held, by different entries, or neither held: ``unrelated``;
- only the newer held: ``refines`` when the newer begins with the older's words (it
  restates it and adds detail: "Likes coffee" / "Likes coffee black, no sugar"), else
  ``conflict`` when a conflict would let the newer win (the service lets a stated note
  beat a hypothesis whatever its age, otherwise the newer wins), else ``unrelated`` (a
  guess cannot have beaten a stated fact; something else removed it);
- only the older held: ``conflict`` when the older wins one (a stated fact over a newer
  guess), else ``same`` (the newer restated it: a merge, which keeps the one wording).

It answers what the expected end state needs (``refines`` and ``conflict`` both end with
the newer alone; the first matters where a multi-valued attribute lets only a negation
supersede), and, like a hand-made table, it is an oracle:
the ``llm`` modes measure candidates, plumbing and resolution under a perfect judge, never
a real model's judgment. Notes are never refused by it (``refuse`` is hand-made only).

Per mode and kind it reports: scenarios right (the active set matches ``expect`` exactly),
collateral supersessions (expected memories missing at the end, over all expected
memories), missed duplicates (an expected memory held twice or more), missed updates (an
active memory that matches nothing expected: a stale value, a duplicate wording, a dropped
note kept) and notes the guards rejected at save. Failing scenarios are listed by id with
``--failures``; no text is printed.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import secrets
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_service.adapters.openai_judge import OpenAIJudge
from memory_service.adapters.spacy_syntax import SpacySyntax
from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.core.consolidation import Judge
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.consolidation.pairs import PairModel, load_pair_model
from memory_service.core.consolidation.syntax import Syntax
from memory_service.core.judgment.model import JudgmentModel, Thresholds
from memory_service.core.model import MemoryScope, MemoryStatus, NoteStatus, Role
from memory_service.core.scope import TenantScope
from memory_service.core.text import normalize_text
from memory_service.services import sessions
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from memory_service.services.notes import NoteDeps, save_memory_note
from tests.support.fake_llm import FakeLLM, verdicts_by_text
from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory
from tests.support.notes import FakeTenantPolicyStore, NoLibraryIdentifiers

DEFAULT_FILE = Path(__file__).with_name("consolidation.jsonl")
MODES = ("rules", "attributes", "llm", "llm+attributes")
# Save guards: "shipped" runs the judgment model as deployed, "off" one that refuses nothing.
JUDGMENT_CHOICES = ("both", "shipped", "off")
SUBJECT = "subject-1"
_LABELS = ("speculative", "ephemeral", "not_actionable", "instruction")
ACCEPTS_EVERYTHING = JudgmentModel(
    _LABELS, {}, (-30.0,) * 4, {label: Thresholds(1.0, 1.0) for label in _LABELS}
)


class NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


class _NoQueue:
    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        """The runner consolidates each session itself, right after ending it."""


@dataclass(frozen=True)
class Expected:
    texts: frozenset[str]
    source: str | None = None

    def matches(self, text: str, source: str) -> bool:
        return normalize_text(text) in self.texts and self.source in (None, source)


@dataclass(frozen=True)
class Scenario:
    id: str
    kind: str
    lang: str
    sessions: list[list[dict[str, Any]]]
    expect: list[Expected]
    judge: dict[frozenset[str], str]
    refuse: frozenset[str]

    # True when ``judge`` came from ``expect`` (no hand-made table, or asked to derive).
    derived: bool = False

    @classmethod
    def parse(cls, row: Mapping[str, Any], *, derive: bool = False) -> Scenario:
        expect = []
        for entry in row["expect"]:
            if isinstance(entry, str):
                entry = {"text": [entry]}
            elif isinstance(entry, list):
                entry = {"text": entry}
            texts = frozenset(normalize_text(t) for t in entry["text"])
            expect.append(Expected(texts, entry.get("source")))
        sessions = [list(s) for s in row["sessions"]]
        derived = derive or "judge" not in row
        judge = (
            derive_verdicts(sessions, expect)
            if derived
            else {frozenset((a, b)): v for a, b, v in row["judge"]}
        )
        return cls(
            id=str(row["id"]),
            kind=str(row.get("kind", "other")),
            lang=str(row.get("lang", "?")),
            sessions=sessions,
            expect=expect,
            judge=judge,
            refuse=frozenset(row.get("refuse", [])),
            derived=derived,
        )


def derive_verdicts(
    sessions: Sequence[Sequence[Mapping[str, Any]]], expect: Sequence[Expected]
) -> dict[frozenset[str], str]:
    """The oracle table ``expect`` implies (the derivation is in the module docstring);
    ``unrelated`` pairs are left out, as in a hand-made table."""
    notes = [note for session in sessions for note in session]
    table: dict[frozenset[str], str] = {}
    for i, older in enumerate(notes):
        for newer in notes[i + 1 :]:
            pair = frozenset((older["text"], newer["text"]))
            verdict = _derived_verdict(older, newer, expect)
            if len(pair) == 2 and verdict != "unrelated":
                table[pair] = verdict
    return table


def _derived_verdict(
    older: Mapping[str, Any], newer: Mapping[str, Any], expect: Sequence[Expected]
) -> str:
    def holders(note: Mapping[str, Any]) -> set[int]:
        text = normalize_text(note["text"])
        return {i for i, expected in enumerate(expect) if text in expected.texts}

    def guess(note: Mapping[str, Any]) -> bool:
        return note.get("source") == "model_inferred"

    held_older, held_newer = holders(older), holders(newer)
    if held_older & held_newer:
        return "same"
    if bool(held_older) == bool(held_newer):
        return "unrelated"
    older_wins_conflict = guess(newer) and not guess(older)
    if held_newer:
        if _words(newer)[: len(_words(older))] == _words(older):
            return "refines"
        return "unrelated" if older_wins_conflict else "conflict"
    return "conflict" if older_wins_conflict else "same"


@dataclass
class Outcome:
    right: bool
    expected: int
    collateral: int
    missed_duplicates: int
    missed_updates: int
    rejected: int


def _words(note: Mapping[str, Any]) -> list[str]:
    return re.findall(r"\w+", normalize_text(note["text"]).lower())


def load(paths: Sequence[Path], *, derive: bool = False) -> list[Scenario]:
    """The scenarios of ``paths``; ``derive`` ignores hand-made ``judge`` tables."""
    scenarios = []
    for path in paths:
        raw = path.read_text(encoding="utf-8").strip()
        if raw.startswith("["):
            rows = json.loads(raw)
        else:
            rows = [json.loads(line) for line in raw.splitlines() if line.strip()]
        scenarios += [Scenario.parse(row, derive=derive) for row in rows]
    return scenarios


def run_scenario(
    scenario: Scenario,
    *,
    attributes: bool,
    judge: Judge | None,
    embedder: Embedder | None,
    judgment: JudgmentModel | None = None,
    pairs: PairModel | None = None,
    syntax: Syntax | None = None,
) -> Outcome:
    """One fresh subject through every session; compare its active globals with ``expect``."""
    clock = FixedClock()
    factory = InMemoryUnitOfWorkFactory()
    factory.store.embedder = embedder
    tenant = f"t-{secrets.token_hex(4)}"
    scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="key:scenario")
    notes = NoteDeps(
        uow_factory=factory,
        pii=NoPii(),
        policies=FakeTenantPolicyStore(),
        clock=clock,
        identifiers=NoLibraryIdentifiers(),
        judgment=judgment,
        # The save guards as deployed: the learned privacy backstop with the shipped judgment
        # (None here; off with the judgment that accepts everything).
        privacy_backstop=judgment is None,
    )
    deps = ConsolidationDeps(
        uow_factory=factory,
        clock=clock,
        judge=judge,
        embedder=embedder,
        judgment=judgment,
        pairs=pairs,
        syntax=syntax,
    )
    rejected = 0
    for session_notes in scenario.sessions:
        clock.advance(days=1)
        session = sessions.open_session(scope, SUBJECT, uow_factory=factory, clock=clock)
        for note in session_notes:
            clock.advance(minutes=1)
            # The user agreed to what they said being remembered: a special category (an
            # allergy) is held for that consent otherwise, which is not what is measured here.
            arguments = {"confirmed": True, **note}
            if not attributes:
                arguments.pop("attribute", None)
            result = save_memory_note(scope, session.id, arguments, deps=notes)
            rejected += result.status is NoteStatus.REJECTED
        clock.advance(minutes=1)
        sessions.end_session(scope, session.id, uow_factory=factory, clock=clock, tasks=_NoQueue())
        consolidate_session(tenant, session.id, deps=deps)
    with factory(tenant) as uow:
        active = uow.memories.list_for_subject(
            SUBJECT, scope=MemoryScope.GLOBAL, statuses=[MemoryStatus.ACTIVE]
        )
    return score(scenario, [(m.text, m.source.value) for m in active], rejected)


def score(scenario: Scenario, active: list[tuple[str, str]], rejected: int) -> Outcome:
    holders = [
        [i for i, (text, source) in enumerate(active) if expected.matches(text, source)]
        for expected in scenario.expect
    ]
    matched = {i for found in holders for i in found}
    collateral = sum(not found for found in holders)
    duplicates = sum(len(found) > 1 for found in holders)
    stale = len(active) - len(matched)
    right = collateral == 0 and duplicates == 0 and stale == 0 and _one_to_one(holders)
    return Outcome(right, len(scenario.expect), collateral, duplicates, stale, rejected)


def _one_to_one(holders: list[list[int]]) -> bool:
    """Each expected memory held by a memory of its own (two may accept one wording)."""
    taken: set[int] = set()
    for found in sorted(holders, key=len):
        free = [i for i in found if i not in taken]
        if not free:
            return False
        taken.add(free[0])
    return True


@contextmanager
def oracle_server() -> Iterator[FakeLLM]:
    server = FakeLLM().start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Tally:
    scenarios: int = 0
    right: int = 0
    expected: int = 0
    collateral: int = 0
    missed_duplicates: int = 0
    missed_updates: int = 0
    rejected: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, scenario: Scenario, outcome: Outcome) -> None:
        self.scenarios += 1
        self.right += outcome.right
        self.expected += outcome.expected
        self.collateral += outcome.collateral
        self.missed_duplicates += outcome.missed_duplicates
        self.missed_updates += outcome.missed_updates
        self.rejected += outcome.rejected
        if not outcome.right:
            self.failures.append(scenario.id)

    def line(self, label: str) -> str:
        share = self.collateral / self.expected if self.expected else 0.0
        return (
            f"{label:<16} {self.right:>3}/{self.scenarios:<3} right  "
            f"collateral {self.collateral}/{self.expected} ({share:.1%})  "
            f"missed duplicates {self.missed_duplicates}  missed updates {self.missed_updates}"
            + (f"  rejected at save {self.rejected}" if self.rejected else "")
        )


def run(
    scenarios: Sequence[Scenario],
    modes: Sequence[str],
    embedder: Embedder | None,
    *,
    with_judgment: bool = False,
    pairs: PairModel | None = None,
    syntax: Syntax | None = None,
) -> dict[str, dict[str, Tally]]:
    """Tallies by mode, then by kind (``"all"`` for the total).

    Without ``with_judgment`` the judgment model is replaced by one that refuses nothing, so
    the figures are the consolidation's own (the word rules, privacy guards and structure
    still apply); ``with_judgment`` runs the shipped model too, as a deployment does (its
    save guards refuse the passing states a scenario lists in ``refuse``). ``pairs``: the
    pair model the rules path consults (None: the shipped one). ``syntax``: the verbs of a
    note, for the rules path (None: none)."""
    judgment = None if with_judgment else ACCEPTS_EVERYTHING
    results: dict[str, dict[str, Tally]] = {}
    with oracle_server() as server:
        llm_judge = OpenAIJudge.connect(
            model="oracle", base_url=server.base_url, api_key=None, timeout_seconds=10
        )
        for mode in modes:
            tallies: dict[str, Tally] = defaultdict(Tally)
            for scenario in scenarios:
                server.behaviour = verdicts_by_text(scenario.judge, refuse=scenario.refuse)
                outcome = run_scenario(
                    scenario,
                    attributes=mode.endswith("attributes"),
                    judge=llm_judge if mode.startswith("llm") else None,
                    embedder=embedder,
                    judgment=judgment,
                    pairs=pairs,
                    syntax=syntax,
                )
                tallies[scenario.kind].add(scenario, outcome)
                tallies["all"].add(scenario, outcome)
            results[mode] = dict(tallies)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DEFAULT_FILE])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--failures", action="store_true", help="list failing scenario ids")
    parser.add_argument("--no-embedding", action="store_true", help="terms only")
    parser.add_argument(
        "--no-syntax", action="store_true", help="without the part-of-speech tagger (spaCy)"
    )
    parser.add_argument(
        "--judgment",
        choices=JUDGMENT_CHOICES,
        default="both",
        help="save guards: the shipped judgment model (as deployed), none refusing, or both "
        "reported one after the other (the default)",
    )
    parser.add_argument(
        "--with-judgment",
        action="store_const",
        const="shipped",
        dest="judgment",
        help="the same as --judgment shipped",
    )
    parser.add_argument(
        "--pairs-model", type=Path, help="a pair model file (.json.gz) instead of the shipped one"
    )
    parser.add_argument(
        "--derived-oracle",
        action="store_true",
        help="derive every judge table from expect, even where a hand-made one exists",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    scenarios = load(args.files, derive=args.derived_oracle)
    embedder = None if args.no_embedding else WordLlamaEmbedder.load()
    out = sys.stdout.write
    out(f"{len(scenarios)} scenarios: {dict(Counter(s.kind for s in scenarios))}\n")
    derived = sum(s.derived for s in scenarios)
    hand = len(scenarios) - derived
    out(f"oracle: {hand} hand-made judge tables, {derived} derived from expect\n")
    pairs = load_pair_model(args.pairs_model.read_bytes()) if args.pairs_model else None
    syntax = None if args.no_syntax else SpacySyntax()
    guards = ("off", "shipped") if args.judgment == "both" else (args.judgment,)
    for guard in guards:
        results = run(
            scenarios,
            args.modes,
            embedder,
            with_judgment=guard == "shipped",
            pairs=pairs,
            syntax=syntax,
        )
        for mode, tallies in results.items():
            out(f"\n== {mode} (judgment at save: {guard})\n")
            for kind in sorted(tallies, key=lambda k: (k == "all", k)):
                out(tallies[kind].line(kind) + "\n")
            if args.failures and tallies["all"].failures:
                out("failing: " + " ".join(tallies["all"].failures) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
