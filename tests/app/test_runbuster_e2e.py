"""The Run Buster page in a real headless Chromium against a real waitress server: two phones, one mat.

The first phone starts the game; the second joins by the link; the first types a roll; the second shows the
rules' verdict and the advice without reloading; a zone is fixed on the second and the first follows.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.app.browser import PHONE, WAIT_MS, needs_chromium

pytestmark = needs_chromium


def test_two_phones_follow_a_run_buster_turn(browser: Browser, server_url: str) -> None:
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()

    first.goto(server_url)
    first.get_by_role("link", name="Run Buster").click()
    first.fill("input[name=name_red]", "Ann")
    first.fill("input[name=name_blue]", "<b>Bo</b>")
    first.get_by_role("button", name="Start the game").click()
    first.wait_for_url("**/runbuster")
    join_link = first.locator(".join-link").get_attribute("href")
    assert join_link is not None and join_link.startswith(server_url)

    second.goto(join_link)
    second.wait_for_url("**/runbuster")
    expect(second.locator("#live-status")).to_have_text("live", timeout=WAIT_MS)
    expect(second.get_by_text("No photo yet")).to_be_visible()

    first.get_by_text("Or type the dice").click()
    first.fill("input[name=red_hand]", "234")
    first.fill("input[name=blue_hand]", "45")
    first.fill("input[name=blue_roll]", "1566")
    first.get_by_role("button", name="Send").click()

    bust = "<b>Bo</b>'s roll 1,5,6,6 busts Ann's 2-3-4: Ann's hand goes back to the cup"
    expect(second.locator(".now .bust")).to_have_text(bust, timeout=WAIT_MS)
    expect(second.locator(".now .advice tr.best")).to_contain_text("4-5-6", timeout=WAIT_MS)

    roll_fix = second.locator("tr.zone-blue-roll form.fix")
    roll_fix.locator("input[name=dice]").fill("3566")
    roll_fix.get_by_role("button", name="Fix").click()
    expect(first.locator(".now .verdict")).to_contain_text(
        "<b>Bo</b> must extend: 3-4-5 or 3-4-5-6 or 4-5-6", timeout=WAIT_MS
    )
    expect(first.locator(".now .bust")).to_have_count(0)
