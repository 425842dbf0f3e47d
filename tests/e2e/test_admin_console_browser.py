"""The admin console walked through in a real browser: Debian's Chromium driven by Playwright.

One walk-through over a real uvicorn server: sign in, find the subject, see hostile memory
text rendered inert, correct a memory, have a correction refused, a forged form and a
cross-site form refused, read the history, download the export, erase with the typed id and
download the receipt. Screenshots go to ``tests/artifacts/console/`` (kept by CI as
artifacts, ignored by git). Playwright cannot download its own browser here, so it drives
``/usr/bin/chromium``; without it or the package this test fails under CI=true and is
skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memory_service.bootstrap import Container
from tests.e2e.conftest import Tenant, new_subject
from tests.e2e.console_helpers import XSS_NOTES, admin_key, agent_key, seed_memory
from tests.support.service_server import serve

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "console"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _require_browser() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        message = "the playwright package is not installed (pip install -e '.[test]')"
    else:
        if CHROMIUM.exists():
            return sync_playwright
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; CI requires it")
    pytest.skip(message)


@pytest.fixture
def page(request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]) -> Iterator[Any]:
    sync_playwright = _require_browser()
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(
            accept_downloads=True, viewport={"width": 1100, "height": 900}
        )
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        with capsys.disabled():
            reporter.write_line(f"\nconsole screenshots: {ARTIFACTS}")


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _memories(page: Any) -> Any:
    return page.locator("article.memory")


def test_a_privacy_officer_corrects_and_erases_in_the_browser(
    page: Any, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    window = seed_memory(container, tenant, subject, "Prefers window seats on trains.")
    for note in XSS_NOTES:
        seed_memory(container, tenant, subject, note)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    with serve(container) as base:
        # Signing in: pages redirect to the form; an agent key is refused.
        page.goto(f"{base}/admin/subjects/{subject}")
        assert page.url == f"{base}/admin/login"
        page.fill("#key", agent_key(tenant))
        page.click("button[type=submit]")
        assert "not an active admin key" in page.text_content("[role=alert]")
        _shot(page, "01-sign-in-refused")
        page.fill("#key", admin_key(tenant))
        page.click("button[type=submit]")
        assert page.url == f"{base}/admin/"
        cookies = {cookie["name"]: cookie for cookie in page.context.cookies()}
        assert cookies["msc_session"]["httpOnly"] and cookies["msc_session"]["sameSite"] == "Strict"
        assert admin_key(tenant).removeprefix("msk_") not in cookies["msc_session"]["value"]

        # Finding the subject; hostile text shows as text, runs nothing, adds no element.
        page.fill("#subject_id", subject)
        page.click("form[action='/admin/subjects'] button")
        assert page.url.startswith(f"{base}/admin/subjects/{subject}")
        texts = page.locator("article.memory p.text").all_text_contents()
        assert sorted(texts) == sorted([window.text, *XSS_NOTES])
        assert page.locator("main img, main svg, script").count() == 0
        _shot(page, "02-subject")

        # Correcting a memory.
        card = page.locator(f"#memory-{window.id}")
        card.locator("summary", has_text="Correct").click()
        card.locator("textarea").fill("Prefers aisle seats on trains.")
        card.locator("select").select_option("inaccurate")
        card.locator("form.correct button").click()
        assert "The memory was corrected" in page.text_content("[role=status]")
        assert (
            "Prefers aisle seats on trains."
            in page.locator("article.status-active").all_text_contents()[0]
        )
        assert page.locator(f"#memory-{window.id} dd.status").text_content() == "superseded"
        _shot(page, "03-corrected")

        # A correction the guards refuse: reason codes shown, nothing stored or echoed.
        corrected = page.locator("article.status-active", has_text="aisle")
        corrected.locator("summary", has_text="Correct").click()
        corrected.locator("textarea").fill("Her password is Hunter2-Zebra-91!")
        corrected.locator("form.correct button").click()
        refusal = page.text_content("#refusal")
        assert "secret" in refusal and "Hunter2" not in page.content()
        assert page.locator("#refusal code.reason").count() >= 1
        _shot(page, "04-correction-refused")
        held = _memories(page).count()

        # A form whose CSRF token was tampered with is refused and changes nothing.
        page.goto(f"{base}/admin/subjects/{subject}")
        victim = page.locator("article.status-active").first
        victim.locator("summary", has_text="Delete").click()
        victim.locator("form.delete input[name=csrf]").evaluate("input => input.value = 'forged'")
        victim.locator("form.delete button").click()
        assert "csrf_failed" in page.text_content("[role=alert]")
        _shot(page, "05-csrf-refused")

        # A page on another site that posts an erasure form: the cookie stays home.
        page.route(
            "http://attacker.test/",
            lambda route: route.fulfill(
                content_type="text/html",
                body=(
                    f'<form method="post" action="{base}/admin/subjects/{subject}/erase">'
                    f'<input name="confirm" value="{subject}"></form>'
                    "<script>document.forms[0].submit()</script>"
                ),
            ),
        )
        page.goto("http://attacker.test/")
        page.wait_for_url(f"{base}/admin/**")
        assert page.url == f"{base}/admin/login"
        page.goto(f"{base}/admin/subjects/{subject}")
        assert _memories(page).count() == held

        # History, then the export download.
        page.click("text=History (audit events)")
        kinds = page.locator("table.events td:nth-child(2)").all_text_contents()
        assert kinds == ["memory.corrected", "memory.created"]
        _shot(page, "06-history")
        page.goto(f"{base}/admin/subjects/{subject}")
        with page.expect_download() as export_download:
            page.click("text=Download export (JSON)")
        export = json.loads(Path(export_download.value.path()).read_text())
        assert len(export["memories"]) == held

        # Erasure: a mistyped id erases nothing; the right one leaves a receipt to download.
        page.click("text=Erase this subject")
        page.fill("#confirm", subject + "x")
        page.click("form button.danger")
        assert "nothing was erased" in page.text_content("[role=alert]")
        _shot(page, "07-erase-mistyped")
        page.fill("#confirm", subject)
        page.click("form button.danger")
        assert page.text_content(".count-memories") == str(held)
        _shot(page, "08-erasure-receipt")
        with page.expect_download() as receipt_download:
            page.click("#download-receipt")
        receipt = json.loads(Path(receipt_download.value.path()).read_text())
        assert receipt["subject_id"] == subject and receipt["counts"]["memories"] == held
        assert receipt["id"] == page.text_content("#receipt-id")

        page.goto(f"{base}/admin/subjects/{subject}")
        assert _memories(page).count() == 0

    assert dialogs == []  # no alert() ever ran
