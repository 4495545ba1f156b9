"""End to end in a real headless Chromium against a real waitress server: two phones at one table.

The first phone creates a Sagrada game; the second joins by the link; a window is sent, scored and shown with
its violations; a die is corrected on the second phone; both phones update without reloading.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from companion_app.home import GAMES
from tests.app.browser import PHONE, WAIT_MS, browser, needs_chromium, server_url
from tests.app.conftest import FINISHED_WINDOW, png_bytes

__all__ = ["browser", "server_url"]  # fixtures used by name

pytestmark = needs_chromium


def test_two_phones_play_a_sagrada_game(browser: Browser, server_url: str, tmp_path: Path) -> None:
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()

    first.goto(server_url)
    expect(first.get_by_text("coming")).to_have_count(sum(not kind.ready for kind in GAMES))
    first.get_by_role("link", name="Sagrada").click()
    first.fill("input[name=name_1]", "Ana")
    first.fill("input[name=name_2]", "<b>Bo</b>")
    first.select_option("select[name=pattern_1]", "Firelight")
    first.get_by_role("button", name="Start the game").click()
    first.wait_for_url("**/g/*")
    join_link = first.locator(".join-link").get_attribute("href")
    assert join_link is not None and join_link.startswith(server_url)

    second.goto(join_link)
    expect(second.locator("h2", has_text="<b>Bo</b>")).to_be_visible()
    for page in (first, second):
        expect(page.locator("#live-status")).to_have_text("live", timeout=WAIT_MS)

    first.locator("summary", has_text="Or type the window").click()
    first.fill("textarea[name=window]", FINISHED_WINDOW)
    first.get_by_role("button", name="Send").click()
    ana_first = first.locator("#seat-1")
    expect(ana_first.locator(".violation").first).to_contain_text("space r1c1 needs a 3, got r5")
    total = ana_first.locator(".score-total").inner_text()

    ana_second = second.locator("#seat-1")
    expect(ana_second.locator(".violation").first).to_contain_text("space r1c1 needs a 3", timeout=WAIT_MS)
    expect(ana_second.locator(".score-total")).to_have_text(total)

    second.evaluate("window.sameDocument = true")
    ana_second.locator("button[data-cell=r1c1]").click()
    dialog = second.locator("#fix-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("label", has_text="Y").click()
    dialog.locator("label", has_text="3").click()
    dialog.get_by_role("button", name="Set die").click()
    fixed = "r1c1: yellow 3"
    for page in (second, first):
        space = page.locator("#seat-1 button[data-cell=r1c1]")
        expect(space).to_have_attribute("aria-label", fixed, timeout=WAIT_MS)
    expect(first.locator("#seat-1 .violation", has_text="r1c1 needs a 3")).to_have_count(0)
    assert second.evaluate("window.sameDocument") is True  # fixed in place, no page reload

    first.get_by_role("button", name="Undo last fix (r1c1)").click()
    for page in (first, second):
        space = page.locator("#seat-1 button[data-cell=r1c1]")
        expect(space).to_have_attribute("aria-label", "r1c1: red 5", timeout=WAIT_MS)

    bo_first = first.locator("#seat-2")
    bo_first.locator("select[name=color]").select_option("r")
    bo_first.locator("select[name=value]").select_option("1")
    bo_first.get_by_role("button", name="Show").click()
    expect(bo_first.locator(".hint-result")).to_contain_text("R1 can go on r1c")
    expect(bo_first.locator(".space.may-go").first).to_be_visible()

    photo = tmp_path / "table.png"
    photo.write_bytes(png_bytes())
    second.select_option("select[name=player]", label="<b>Bo</b>")
    second.set_input_files("input[name=photo]", str(photo))
    second.get_by_role("button", name="Send").click()
    expect(second.locator("#seat-2 .notice")).to_contain_text("cannot read Sagrada dice", timeout=WAIT_MS)
    expect(first.locator("#seat-2 img")).to_be_visible(timeout=WAIT_MS)
    expect(first.locator(".events")).to_contain_text("<b>Bo</b> sent a photo")


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
    expect(page.locator("#seat-1 .notice")).to_contain_text("cannot read Sagrada dice", timeout=WAIT_MS)
    expect(page.locator("#seat-1 img")).to_be_visible()
    expect(page.locator(".events")).to_contain_text("Ana sent a photo")
