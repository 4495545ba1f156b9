"""The River Dragons page in a real headless Chromium against a real waitress server: two phones, one table.

Ann's phone starts the game and says it is Ann's; Bo's phone joins by the link and says it is Bo's. Ann plans
a card and Bo's phone shows the count change without reloading, never the card; both plan their rounds, then
Ann places a stone and Bo's phone shows it on the board.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.app.browser import PHONE, WAIT_MS, needs_chromium

pytestmark = needs_chromium


def plan(page: Page, seat: int, cards: tuple[str, ...], planned: int = 0) -> None:
    """Plan each card by its button after the `planned` ones, waiting for the page to count it."""
    row = page.locator(f'tr.program[data-seat="{seat}"]')
    for count, card in enumerate(cards, start=planned + 1):
        page.get_by_role("button", name=card, exact=True).click()
        expect(row).to_contain_text(f"{count} of 5 cards planned", timeout=WAIT_MS)


def say_who(page: Page, seat: str) -> None:
    page.get_by_label("This phone is").select_option(seat)
    with page.expect_navigation():
        page.get_by_role("button", name="That's me").click()


def test_two_phones_plan_and_play_a_river_dragons_round(browser: Browser, server_url: str) -> None:
    ann = browser.new_context(viewport=PHONE).new_page()
    bo = browser.new_context(viewport=PHONE).new_page()

    ann.goto(server_url)
    ann.get_by_role("link", name="River Dragons / Dragon Delta").click()
    ann.fill("input[name=name_1]", "Ann")
    ann.fill("input[name=name_2]", "Bo")
    ann.get_by_role("button", name="Start the game").click()
    ann.wait_for_url("**/river-dragons")
    say_who(ann, "1")
    join_link = ann.locator(".join-link").get_attribute("href")
    assert join_link is not None and join_link.startswith(server_url)

    bo.goto(join_link)
    bo.wait_for_url("**/river-dragons")
    say_who(bo, "2")
    expect(bo.locator("#live-status")).to_have_text("live", timeout=WAIT_MS)
    ann_seen_by_bo = bo.locator('tr.program[data-seat="1"]')
    expect(ann_seen_by_bo).to_contain_text("0 of 5 cards planned")

    plan(ann, 1, ("stone2",))
    expect(ann_seen_by_bo).to_contain_text("1 of 5 cards planned", timeout=WAIT_MS)
    expect(ann_seen_by_bo).not_to_contain_text("stone2")
    expect(bo.get_by_text("Waiting for Ann; this phone is Bo's.")).to_be_visible()

    plan(ann, 1, ("stone1", "plank2", "plank1", "move2"), planned=1)
    expect(ann_seen_by_bo).to_contain_text("5 of 5 cards planned", timeout=WAIT_MS)
    plan(bo, 2, ("stone2", "stone1", "plank2", "plank1", "remove"))
    expect(ann.locator(".card-being-resolved")).to_have_text("stone2", timeout=WAIT_MS)

    stones = ann.locator(".move-group").filter(has_text="Put a stone on an island")
    stones.locator("select").select_option("stone i10")
    stones.get_by_role("button", name="Put a stone on an island").click()
    expect(bo.locator('g[data-name="i10"] .stone')).to_have_count(1, timeout=WAIT_MS)
    expect(bo.locator(".recent")).to_contain_text("Ann put a stone on i10")
    expect(bo.locator(".turn")).to_contain_text("(second of two)")
