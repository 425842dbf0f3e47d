"""The privacy guards on generated notes, and detect-secrets against the hand-written key formats.

1. A generated set (``tests/support/privacy_corpus.py``): ``--seed random`` draws a new seed
   each run (an honest run: nobody tuned to those notes), a number reproduces one. Reported
   per language and per reason (``memory_service.evaluation``), then the accepted PII and
   secret notes and the look-alikes refused for ``pii``/``secret``, counted by template
   family and surface form (never their text). ``--presidio`` adds the NER detector.
2. Key and token formats: the core's hand-written formats
   (``core/privacy/secrets.py``) against detect-secrets' format plugins (its entropy
   plugins flag ordinary words in one-line notes, so they are left out), on one sample of
   each format both claim to know and on the benign notes of the generated set: found,
   false alarms, and µs per note.

    .venv/bin/python -m benchmarks.privacy_guards --notes 3000 --seed random
    .venv/bin/python -m benchmarks.privacy_guards --corpus values --notes 3000 --seed random

``--corpus values`` runs ``tests/support/value_corpus.py`` instead (gamer tags, wallets,
backup codes, lock combinations, Wi-Fi keys, one-time codes, dates of birth in words, VAT
numbers, plates without a cue..., and their look-alikes); ``--corpus told`` runs
``benchmarks/told_values_corpus.py`` (codes entered with a verb, security answers given with
a verb or after a quoted question, plates said with "minus", payment pages and aliases, and
their look-alikes); ``--misses`` prints the generated
(synthetic) notes the guards got wrong, for development.
"""

from __future__ import annotations

import argparse
import collections
import random
import secrets
import string
import time
from typing import Any

from benchmarks import told_codes_corpus, told_values_corpus
from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.model import ReasonCode
from memory_service.core.ports import IdentifierDetector
from memory_service.core.privacy.normalise import normalise_text
from memory_service.core.privacy.secrets import format_kinds
from memory_service.evaluation import evaluate_rows, format_report
from tests.support import value_corpus
from tests.support.privacy_corpus import generate

PRIVACY = frozenset({ReasonCode.PII.value, ReasonCode.SECRET.value})


class NoNer:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


def run_generated(
    notes: int,
    seed: int,
    presidio: bool,
    library: IdentifierDetector,
    corpus: str = "identifiers",
    misses: bool = False,
) -> None:
    generator = {
        "values": value_corpus.generate,
        "told": told_values_corpus.generate,
        "codes": told_codes_corpus.generate,
    }
    rows = generator.get(corpus, generate)(notes, seed)
    pii: Any = NoNer()
    if presidio:
        from memory_service.bootstrap import load_pii_detector

        pii = load_pii_detector("en_core_web_sm")
    report = evaluate_rows(enumerate(rows, start=1), pii=pii, identifiers=library)
    print(
        f"generated set ({corpus}): {notes} notes, seed {seed}, NER {'on' if presidio else 'off'}\n"
    )
    print(format_report(report).split("\nmismatches")[0])
    leaks: collections.Counter[str] = collections.Counter()
    refused: collections.Counter[str] = collections.Counter()
    generated: collections.Counter[str] = collections.Counter()
    for outcome in report.outcomes:
        family = str(rows[outcome.line - 1]["note"])
        generated[family if family.startswith("benign/") else family.split("/")[0]] += 1
        if outcome in report.leaks_accepted:
            leaks[family] += 1
        elif outcome in report.durable_wrongly_rejected and outcome.codes & PRIVACY:
            refused[family] += 1
    accepted = sum(1 for o in report.outcomes if o.status == "saved")
    print(
        f"\nPII/secret notes among accepted notes: {len(report.leaks_accepted)}/{accepted}"
        f" (target at most 1 in 50)"
    )
    print("accepted PII/secret notes by family/form:", dict(leaks.most_common()) or "none")
    print("look-alikes refused for pii/secret:", dict(refused.most_common()) or "none")
    print("\nper family: accepted leaks / generated, look-alikes refused / generated")
    accepted_by_family = collections.Counter(name.split("/")[0] for name in leaks.elements())
    for family in sorted(generated):
        if family.startswith("benign/"):
            print(f"  {family:<28}{refused[family]:>5} /{generated[family]:>5} refused")
        else:
            print(f"  {family:<28}{accepted_by_family[family]:>5} /{generated[family]:>5} accepted")
    if misses:  # synthetic notes only: nothing here was written by a user
        for outcome in (*report.leaks_accepted, *report.durable_wrongly_rejected):
            row = rows[outcome.line - 1]
            print(f"  {row['note']}: {row['text']} -> {sorted(outcome.codes)}")


def _token(alphabet: str, length: int) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


def key_samples() -> dict[str, str]:
    """One made-up value of each key or token format, in a note."""
    alnum = string.ascii_letters + string.digits
    upper = string.ascii_uppercase + string.digits
    return {
        "aws access key": f"Deploy key AKIA{_token(upper, 16)}",
        "github token": f"Token ghp_{_token(alnum, 36)} for CI",
        "github fine-grained": f"github_pat_{_token(alnum, 22)}_{_token(alnum, 59)}",
        "gitlab token": f"glpat-{_token(alnum, 20)} in the runner",
        "slack bot token": f"xoxb-{_token(string.digits, 12)}-{_token(alnum, 24)}",
        "slack webhook": "https://hooks.slack.com/services/"
        + f"T{_token(upper, 8)}/B{_token(upper, 8)}/{_token(alnum, 24)}",
        "stripe live key": f"sk_live_{_token(alnum, 24)}",
        "openai key": f"sk-proj-{_token(alnum, 40)}",
        "google api key": f"AIza{_token(alnum + '_-', 35)}",
        "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + _token(alnum + "_-", 43),
        "private key": "-----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEA",
        "basic auth url": f"postgres://app:{_token(alnum, 12)}@db.example.net/app",
        "hugging face token": f"hf_{_token(alnum, 34)}",
        "npm token": f"npm_{_token(alnum, 36)}",
        "pypi token": f"pypi-AgEIcHlwaS5vcmc{_token(alnum, 50)}",
        "sendgrid key": f"SG.{_token(alnum, 22)}.{_token(alnum, 43)}",
        "twilio key": f"SK{_token('0123456789abcdef', 32)}",
        "telegram bot token": f"{_token(string.digits, 10)}:AA{_token(alnum, 33)}",
    }


def run_key_formats(notes: int, seed: int) -> None:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    plugins = [
        {"name": name}
        for name in (
            "ArtifactoryDetector",
            "AWSKeyDetector",
            "AzureStorageKeyDetector",
            "BasicAuthDetector",
            "CloudantDetector",
            "DiscordBotTokenDetector",
            "GitHubTokenDetector",
            "GitLabTokenDetector",
            "IbmCloudIamDetector",
            "IbmCosHmacDetector",
            "JwtTokenDetector",
            "MailchimpDetector",
            "NpmDetector",
            "OpenAIDetector",
            "PrivateKeyDetector",
            "PypiTokenDetector",
            "SendGridDetector",
            "SlackDetector",
            "SoftlayerDetector",
            "SquareOAuthDetector",
            "StripeDetector",
            "TelegramBotTokenDetector",
            "TwilioKeyDetector",
        )
    ]
    samples = key_samples()
    benign = [str(r["text"]) for r in generate(notes, seed) if r["expect_status"] == "saved"]

    def ours(text: str) -> bool:
        return bool(format_kinds(normalise_text(text)))

    with transient_settings({"plugins_used": plugins}):

        def theirs(text: str) -> bool:
            return any(True for _ in scan_line(text))

        print("\nkey and token formats: hand-written (core) vs detect-secrets format plugins")
        print(f"{'format':<22}{'core':>6}{'detect-secrets':>16}")
        found = {"core": 0, "detect-secrets": 0}
        for name, text in samples.items():
            a, b = ours(text), theirs(text)
            found["core"] += a
            found["detect-secrets"] += b
            print(f"{name:<22}{'yes' if a else 'no':>6}{'yes' if b else 'no':>16}")
        print(f"{'found':<22}{found['core']:>6}{found['detect-secrets']:>16}  of {len(samples)}")
        for label, detector in (("core", ours), ("detect-secrets", theirs)):
            start = time.perf_counter()
            alarms = sum(detector(text) for text in benign)
            per_note = (time.perf_counter() - start) / max(len(benign), 1) * 1e6
            print(
                f"{label:<16} false alarms on {len(benign)} benign notes: {alarms};"
                f" {per_note:.0f} µs per note"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=3000)
    parser.add_argument("--seed", default="random", help="a number, or 'random'")
    parser.add_argument("--presidio", action="store_true", help="add the NER detector")
    parser.add_argument(
        "--corpus", choices=("identifiers", "values", "told", "codes"), default="identifiers"
    )
    parser.add_argument("--misses", action="store_true", help="print the generated misses")
    args = parser.parse_args()
    seed = random.SystemRandom().randrange(2**31) if args.seed == "random" else int(args.seed)
    library = LibraryIdentifierDetector()
    run_generated(args.notes, seed, args.presidio, library, args.corpus, args.misses)
    if args.corpus == "identifiers":
        run_key_formats(args.notes, seed)


if __name__ == "__main__":
    main()
