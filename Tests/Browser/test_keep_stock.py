"""Issue 25, what to keep in stock: a keep rule set on Milk's page puts the refill on the shopping
list the moment a member uses the stock under the minimum, and another member's open list shows
it without a reload; stocked up again before shopping, the refill comes off. Two phones, both
languages; the story counts the taps of noticing and refilling with and without the rule."""
import re

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, create_invitation, join, no_axe_problems, screenshot, setup_household
from test_bulk import Story
from test_inventory import first_folder, register, row, row_action
from test_live import LANGUAGES, loads_of, row_selector_of, words


def send_keep(page, server, item: dict, fields: dict) -> None:
    """Registers `item` in the first stock list, opens its page and sends its keep card with `fields`."""
    fridge = first_folder(page, server, "stock")
    register(page, server, fridge, [item])
    page.goto(f"{server.url}/folders/{fridge}")
    page.click(f"{row_selector_of(page, item['name'])} a.item-name")
    page.locator("details.keep-card summary").click()
    for name, value in fields.items():
        page.fill(f"#f-keep_{name}", value)
    with page.expect_navigation():
        page.click("details.keep-card button[type=submit]")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_keep_rule_puts_milk_on_the_other_phones_list_when_it_runs_low(server, make_page, lang):
    t = words(lang)
    aki = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    ken = make_page(PHONE, LANGUAGES[lang])
    join(ken, create_invitation(aki, server))
    fridge = first_folder(aki, server, "stock")
    shopping = first_folder(aki, server, "shopping")
    register(aki, server, fridge, [{"name": "Milk", "quantity": 2, "unit": "bottle"}, {"name": "Eggs", "quantity": 2}])
    register(aki, server, shopping, [{"name": "Bread"}])

    # Aki keeps at least 2 bottles of milk, refilled up to 4: on Milk's page, once.
    aki.goto(f"{server.url}/folders/{fridge}")
    aki.click(f"{row_selector_of(aki, 'Milk')} a.item-name")
    keep = aki.locator("details.keep-card")
    assert keep.get_attribute("open") is None
    keep.locator("summary").click()
    aki.fill("#f-keep_minimum", "2")
    aki.fill("#f-keep_refill_to", "4")
    with aki.expect_navigation():
        aki.click("details.keep-card button[type=submit]")
    expect(aki.locator(".notice")).to_contain_text(t["keep_saved"])
    expect(aki.locator(".keep-summary")).to_have_text(
        t["keep_summary"].replace("{stock}", t["qty_bottle"].replace("{count}", "2")).replace("{minimum}", t["qty_bottle"].replace("{count}", "2")))
    no_axe_problems(aki)
    screenshot(aki, f"keep-item-{lang}-phone")

    # Ken has the shopping list open in the shop.
    ken.goto(f"{server.url}/folders/{shopping}")
    ken_loads = loads_of(ken)

    # Without a rule: Aki uses an egg, notices, and puts eggs on the list herself.
    aki.goto(f"{server.url}/folders/{fridge}")
    before = Story(aki)
    before.taps += 1
    row_action(aki, f"{row_selector_of(aki, 'Eggs')} button.step[value='-1']")
    before.go(f"{server.url}/folders/{shopping}")
    before.fill("#list-add-name", "Eggs")
    before.tap(".list-add button[type=submit]")  # added in place
    expect(row(aki, "Eggs")).to_have_count(1)
    assert before.done(f"notice and refill without a rule ({lang})") == (4, 1)
    expect(row(ken, "Eggs")).to_have_count(1)

    # With the rule: one tap on −, and the refill is on Ken's list.
    aki.goto(f"{server.url}/folders/{fridge}")
    after = Story(aki)
    after.taps += 1
    row_action(aki, f"{row_selector_of(aki, 'Milk')} button.step[value='-1']")
    assert after.done(f"notice and refill with a keep rule ({lang})") == (1, 0)
    expect(row(ken, "Milk")).to_have_count(1)
    expect(row(ken, "Milk").locator(".qty")).to_have_text(re.compile(r"3"))
    expect(row(ken, "Milk").locator(".item-refill")).to_have_text(t["row_refill"])
    expect(row(ken, "Eggs").locator(".item-refill")).to_have_count(0)
    expect(row(aki, "Milk").locator(".item-status")).to_have_text(t["status_running_low"])
    assert ken_loads == [], f"Ken's list reloaded: {ken_loads}"
    screenshot(ken, f"keep-refill-on-list-{lang}-phone", full_page=False)

    # The folders page says so on the list the refills go to.
    aki.goto(f"{server.url}/")
    expect(aki.locator(f"a.folder-card[href='/folders/{shopping}'] .tag")).to_have_text(
        t["keep_below_minimum_one"].replace("{count}", "1"))
    no_axe_problems(aki)
    screenshot(aki, f"keep-folders-{lang}-phone")

    # A bottle found at the back of the fridge: stocked up before shopping, the refill comes off
    # Ken's list, and Milk no longer runs low.
    aki.goto(f"{server.url}/folders/{fridge}")
    row_action(aki, f"{row_selector_of(aki, 'Milk')} button.step[value='1']")
    expect(row(ken, "Milk")).to_have_count(0)
    expect(row(ken, "Eggs")).to_have_count(1)
    expect(row(aki, "Milk").locator(".item-status")).to_have_count(0)
    assert ken.console_errors == [] and aki.console_errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_mistyped_amount_is_told_beside_its_field_and_kept(server, make_page, lang):
    t = words(lang)
    page = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    send_keep(page, server, {"name": "Flour", "quantity": 500, "unit": "g"}, {"minimum": "1000", "refill_to": "500"})
    expect(page.locator("#f-keep_refill_to-error")).to_contain_text(t["keep_refill_below_minimum"])
    assert page.locator("#f-keep_minimum").input_value() == "1000"
    assert page.locator("#f-keep_refill_to").input_value() == "500"
    assert page.locator("#f-keep_refill_to").get_attribute("aria-invalid") == "true"
    no_axe_problems(page)
    screenshot(page, f"keep-refused-{lang}-phone")


def test_the_keep_card_at_desktop_width(server, make_page):
    page = setup_household(make_page(DESKTOP, "en-US"), server)
    send_keep(page, server, {"name": "Rice", "quantity": 1, "unit": "kg"}, {"minimum": "2", "pack": "5"})
    expect(page.locator(".keep-summary")).to_have_class(re.compile("keep-below"))
    no_axe_problems(page)
    screenshot(page, "keep-item-en-desktop")
