"""The Cubist page in a real headless Chromium against a real waitress server: two phones, two workrooms.

The first phone starts the game and types Bo's workroom; the second, joined by the link, sees it checked
without reloading, confirms the heights of the card it can be, and the first follows and asks where a 2
may go. It completes the card and the second sees the score; the second ends the game and the first
page closes its forms.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.app.browser import PHONE, WAIT_MS, needs_chromium

pytestmark = needs_chromium


def test_two_phones_follow_a_cubist_workroom(browser: Browser, server_url: str) -> None:
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()

    first.goto(server_url)
    first.get_by_role("link", name="Cubist").click()
    first.fill("input[name=name_1]", "Ann")
    first.fill("input[name=name_2]", "<b>Bo</b>")
    first.get_by_role("button", name="Start the game").click()
    first.wait_for_url("**/cubist")
    join_link = first.locator(".join-link").get_attribute("href")
    assert join_link is not None and join_link.startswith(server_url)

    second.goto(join_link)
    second.wait_for_url("**/cubist")
    expect(second.locator("#live-status")).to_have_text("live", timeout=WAIT_MS)
    expect(second.get_by_text("No workroom yet")).to_be_visible()

    first.select_option("select[name=seat]", label="<b>Bo</b> (purple)")
    first.get_by_text("Or type its top view").click()
    first.fill("input[name=top]", "345")
    first.get_by_role("button", name="Send").click()

    workroom = second.locator("article.workroom")
    expect(workroom.locator("h2")).to_contain_text("<b>Bo</b>'s workroom", timeout=WAIT_MS)
    expect(workroom).to_contain_text("Every placement rule the top view shows is kept")
    workroom.get_by_role("button", name="installation-17 (6 points): heights 0,0:1 1,0:2 2,0:2").click()

    expect(first.locator("article.workroom")).to_contain_text(
        "With these heights it is installation-17 (6 points).", timeout=WAIT_MS
    )
    expect(first.locator(".standings")).to_contain_text("is installation-17")
    # A value's button lights the columns where a die showing it may go next: a 2 only beside the 3.
    first.get_by_role("button", name="2", exact=True).click()
    expect(first.locator(".may-go-result")).to_have_text("A 2 may go in 3 columns.")
    expect(first.locator("td.may-go")).to_have_count(3)

    # Completed on the first phone, the card scores on the second; the second ends the game (the museum
    # is complete), after a confirmation, and the first phone's page drops its forms by itself.
    first.get_by_role("button", name="Complete installation-17 (6 points)").click()
    expect(second.locator("#score")).to_contain_text("Ahead now: <b>Bo</b>", timeout=WAIT_MS)
    expect(second.locator("#score")).to_contain_text("1: installation-17 (6)")
    second.once("dialog", lambda dialog: dialog.accept())
    second.get_by_role("button", name="End the game (museum complete)").click()
    expect(second.locator("#score")).to_contain_text("Game over: <b>Bo</b> wins (ended at the table)")
    expect(first.locator("#score")).to_contain_text("Game over", timeout=WAIT_MS)
    expect(first.get_by_role("button", name="Send")).to_have_count(0, timeout=WAIT_MS)
