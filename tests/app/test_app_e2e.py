"""End to end in a real headless Chromium against a real waitress server: two phones at one table.

The first phone creates a Sagrada game; the second joins by the link; the first uploads a demo photo of a
window, which is read, scored and shown with its violation on both phones; the second corrects a die and
both phones update without reloading. Then: an unsure space answered with one tap on an alternative the
reader offered, a solo game scored against its target, and the live camera.
"""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from companion_app.home import GAMES
from companion_app.table import DEMO_FOLDER, demo_photos
from engine.sagrada.objectives import public_objectives
from engine.sagrada.rules import OFFICIAL
from engine.sagrada.scoring import score_window
from engine.sagrada.window import Color, Window, find_pattern
from tests.app.browser import PHONE, WAIT_MS, browser, e2e_app, needs_chromium, server_url
from tests.app.conftest import FINISHED_WINDOW

__all__ = ["browser", "e2e_app", "server_url"]  # fixtures used by name

pytestmark = needs_chromium

BO_ROUND_5 = next(demo for demo in demo_photos() if demo.file == "sagrada-4-bo-round5.jpg")
ANA_ROUND_2 = next(demo for demo in demo_photos() if demo.file == "sagrada-1-ana-round2.jpg")


def test_two_phones_play_a_sagrada_game(browser: Browser, server_url: str) -> None:
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()

    first.goto(server_url)
    expect(first.locator(".game-kind a")).to_have_count(len(GAMES))
    first.get_by_role("link", name="Sagrada").click()
    first.fill("input[name=name_1]", "Ana")
    first.fill("input[name=name_2]", "<b>Bo</b>")  # the form's first two patterns: the demo photos' windows
    first.get_by_role("button", name="Start the game").click()
    first.wait_for_url("**/g/*")
    join_link = first.locator(".join-link").get_attribute("href")
    assert join_link is not None and join_link.startswith(server_url)

    second.goto(join_link)
    expect(second.locator("h2", has_text="<b>Bo</b>")).to_be_visible()
    for page in (first, second):
        expect(page.locator("#live-status")).to_have_text("live", timeout=WAIT_MS)

    first.select_option("select[name=player]", label="<b>Bo</b>")
    first.set_input_files("input[name=photo]", str(DEMO_FOLDER / BO_ROUND_5.file))
    first.get_by_role("button", name="Send", exact=True).click()
    bo_first = first.locator("#seat-2")
    expect(bo_first.locator(".notice")).to_have_text("Read the Fractal Drops window.", timeout=WAIT_MS)
    expect(bo_first.locator("img.annotated")).to_be_visible()
    expect(bo_first.locator(".violation")).to_contain_text("g2 on r2c4 and g4 on r2c5 share an edge")
    expect(bo_first.locator("button[data-cell=r2c5]")).to_have_attribute("aria-label", "r2c5: green 4")
    total = bo_first.locator(".score-total").inner_text()

    bo_second = second.locator("#seat-2")
    expect(bo_second.locator(".violation")).to_contain_text("are both green", timeout=WAIT_MS)
    expect(bo_second.locator(".score-total")).to_have_text(total)
    expect(bo_second.locator("img.annotated")).to_be_visible()

    second.evaluate("window.sameDocument = true")
    bo_second.locator("button[data-cell=r2c5]").click()
    dialog = second.locator("#fix-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("label.die-y").click()
    dialog.locator("label", has_text="4").click()
    dialog.get_by_role("button", name="Set die").click()
    for page in (second, first):
        space = page.locator("#seat-2 button[data-cell=r2c5]")
        expect(space).to_have_attribute("aria-label", "r2c5: yellow 4", timeout=WAIT_MS)
        expect(page.locator("#seat-2 .violation")).to_have_count(0)
        expect(page.locator("#seat-2 .ok")).to_have_text("No rule broken.")
    assert second.evaluate("window.sameDocument") is True  # fixed in place, no page reload

    first.get_by_role("button", name="Undo last fix (r2c5)").click()
    for page in (first, second):
        space = page.locator("#seat-2 button[data-cell=r2c5]")
        expect(space).to_have_attribute("aria-label", "r2c5: green 4", timeout=WAIT_MS)
        expect(page.locator("#seat-2 .score-total")).to_have_text(total)

    second.select_option("select[name=player]", label="Ana")
    second.locator("summary", has_text="Try a demo photo").click()
    second.get_by_role("button", name=f"Send: {ANA_ROUND_2.caption}").click()
    for page in (second, first):
        expect(page.locator("#seat-1 .notice")).to_have_text("Read the Bellesguard window.", timeout=WAIT_MS)
    expect(first.locator(".events")).to_contain_text(f"Ana sent the demo photo {ANA_ROUND_2.file}")

    ana_first = first.locator("#seat-1")
    ana_first.locator("select[name=color]").select_option("g")
    ana_first.locator("select[name=value]").select_option("1")
    ana_first.get_by_role("button", name="Show").click()
    expect(ana_first.locator(".hint-result")).to_contain_text("G1 can go on")
    expect(ana_first.locator(".space.may-go").first).to_be_visible()


def test_the_live_camera_sends_a_picture_where_the_page_is_a_secure_context(
    browser: Browser, server_url: str
) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server_url}/new/sagrada")
    page.fill("input[name=name_1]", "Ana")
    page.fill("input[name=name_2]", "Bo")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/g/*")
    assert page.evaluate("window.isSecureContext") is True  # 127.0.0.1 counts as a secure origin
    page.get_by_role("button", name="Use the live camera").click()
    expect(page.locator("#camera-box")).to_be_visible()
    view = page.locator("#camera-view")
    for _ in range(100):  # the page's CSP forbids wait_for_function's eval; poll the video instead
        if view.evaluate("video => video.videoWidth") > 0:
            break
        page.wait_for_timeout(50)
    page.get_by_role("button", name="Take this picture").click()
    expect(page.locator("#seat-1 .notice")).to_contain_text("it could not be read", timeout=WAIT_MS)
    expect(page.locator("#seat-1 img")).to_be_visible()
    expect(page.locator(".events")).to_contain_text("Ana sent a photo")


def start_sagrada(page: Page, server_url: str, *names: str) -> None:
    page.goto(f"{server_url}/new/sagrada")
    for seat, name in enumerate(names, start=1):
        page.fill(f"input[name=name_{seat}]", name)


def test_an_unsure_space_is_answered_with_one_tap_on_an_alternative(
    browser: Browser, server_url: str, e2e_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = {"window": FINISHED_WINDOW, "unsure": ["r2c2"], "alternatives": {"r2c2": ["b5", "--"]}}
    monkeypatch.setitem(e2e_app.config["PHOTO_READERS"], "sagrada", lambda _image, _pattern, _seat: answer)
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()
    start_sagrada(first, server_url, "Ana", "Bo")
    first.get_by_role("button", name="Start the game").click()
    first.wait_for_url("**/g/*")
    first.set_input_files("input[name=photo]", str(DEMO_FOLDER / ANA_ROUND_2.file))
    first.get_by_role("button", name="Send", exact=True).click()
    expect(first.locator("#seat-1 button[data-cell=r2c2].unsure")).to_be_visible(timeout=WAIT_MS)

    second.goto(first.url)  # the question is kept with the capture, so the other phone asks it too
    expect(second.locator("#live-status")).to_have_text("live", timeout=WAIT_MS)
    question = second.get_by_role("group", name="What is on r2c2?")
    offered = ["blue 6", "blue 5", "empty", "something else…"]
    expect(question.get_by_role("button")).to_have_text(offered)
    question.get_by_role("button", name="blue 5", exact=True).click()
    for page in (second, first):
        space = page.locator("#seat-1 button[data-cell=r2c2]")
        expect(space).to_have_attribute("aria-label", "r2c2: blue 5", timeout=WAIT_MS)
        expect(page.get_by_role("group", name="What is on r2c2?")).to_have_count(0)

    first.get_by_role("button", name="Undo last fix (r2c2)").click()
    expect(question.get_by_role("button")).to_have_text(offered, timeout=WAIT_MS)
    question.get_by_role("button", name="something else…").click()
    expect(second.locator("#fix-title")).to_have_text("Ana: fix r2c2")


def test_a_solo_game_shows_the_score_against_the_target(browser: Browser, server_url: str) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    start_sagrada(page, server_url, "Ana")
    page.select_option("select[name=pattern_1]", "Aurorae Magnificus")
    page.get_by_label("Row Shade Variety").uncheck()  # solo play scores two public objectives
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/g/*")
    score = score_window(
        Window.parse(FINISHED_WINDOW),
        find_pattern("Aurorae Magnificus"),
        objectives=public_objectives(["Row Color Variety", "Column Color Variety"]),
        private=[Color.RED, Color.YELLOW],  # the form's first two private objectives
        favor_tokens=0,
        empty_space_penalty=OFFICIAL.solo_empty_space_penalty,
    )

    page.get_by_text("Or type the window").click()
    page.fill("textarea[name=window]", FINISHED_WINDOW)
    page.fill("input[name=round_track]", str(score.total - 1))
    page.get_by_role("button", name="Send", exact=True).click()
    ana = page.locator("#seat-1")
    expect(ana.locator(".score-total")).to_have_text(str(score.total), timeout=WAIT_MS)
    verdict = f"{score.total} beats the target {score.total - 1}: a win."
    expect(ana.locator(".solo-result")).to_have_text(verdict)
