"""Issue 25, amounts that fit: a row's − and + step by what the unit is taken in (50 g, 100 ml,
one piece), and a tap on the quantity opens a field to type the amount, sent in place as one step.
At phone width, both languages; a mistyped amount is told and changes nothing."""
import re

import pytest
from playwright.sync_api import expect

from conftest import PHONE, no_axe_problems, screenshot, setup_household
from test_bulk import Story
from test_inventory import first_folder, register, row, row_action
from test_live import LANGUAGES, loads_of, row_selector_of, words


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_steps_fit_the_unit_and_a_tap_on_the_quantity_types_it(server, make_page, lang):
    t = words(lang)
    page = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    fridge = first_folder(page, server, "stock")
    register(page, server, fridge, [{"name": "Minced meat", "quantity": 300, "unit": "g"},
                                    {"name": "Milk", "quantity": 1000, "unit": "ml"}, {"name": "Eggs", "quantity": 6}])
    page.goto(f"{server.url}/folders/{fridge}")
    loads = loads_of(page)

    row_action(page, f"{row_selector_of(page, 'Minced meat')} button.step[value='-50']")
    expect(row(page, "Minced meat").locator(".qty")).to_have_text(re.compile(r"250"))
    row_action(page, f"{row_selector_of(page, 'Milk')} button.step[value='100']")
    expect(row(page, "Milk").locator(".qty")).to_have_text(re.compile(r"1100"))
    assert row(page, "Eggs").locator("button.step").evaluate_all("(buttons) => buttons.map((b) => b.value)") == ["-1", "1"]

    # Four eggs went into a cake: tap the quantity, type 2, Enter.
    story = Story(page)
    quantity = row(page, "Eggs").locator(".qty")
    expect(quantity).to_have_attribute("role", "button")
    expect(quantity).to_have_attribute("aria-label", t["row_type_amount"].replace("{name}", "Eggs"))
    story.tap(f"{row_selector_of(page, 'Eggs')} .qty")
    field = row(page, "Eggs").locator("input.qty-input")
    expect(field).to_be_focused()
    assert field.input_value() == "6"
    no_axe_problems(page)
    screenshot(page, f"quantity-typed-{lang}-phone", full_page=False)
    story.fill(f"{row_selector_of(page, 'Eggs')} input.qty-input", "2")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/quantity")):
        story.taps += 1
        field.press("Enter")
    expect(row(page, "Eggs").locator(".qty")).to_have_text(re.compile(r"^2"))
    assert story.done(f"type an amount ({lang})") == (3, 0)

    # A mistyped amount is told in the field and sends nothing; Escape leaves the quantity as it was.
    row(page, "Minced meat").locator(".qty").click()
    field = row(page, "Minced meat").locator("input.qty-input")
    field.fill("a little")
    field.press("Enter")
    expect(field).to_have_attribute("aria-invalid", "true")
    assert field.evaluate("(input) => input.validationMessage") == t["quantity_invalid"]
    field.press("Escape")
    expect(row(page, "Minced meat").locator("input.qty-input")).to_have_count(0)
    expect(row(page, "Minced meat").locator(".qty")).to_have_text(re.compile(r"250"))

    # The household takes 100 g at a time, typed twice: − and + now step by 100 g (learned from use).
    for left in ["150", "50"]:
        row(page, "Minced meat").locator(".qty").click()
        field = row(page, "Minced meat").locator("input.qty-input")
        field.fill(left)
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/quantity")):
            field.press("Enter")
        expect(row(page, "Minced meat").locator(".qty")).to_have_text(re.compile(left))
    expect(row(page, "Minced meat").locator("button.step").first).to_have_attribute("value", "-100")
    expect(row(page, "Minced meat").locator("button.step").last).to_have_attribute("value", "100")
    assert loads == [], f"the list reloaded: {loads}"
    assert page.console_errors == []

    # The history says what happened, as the server saw it.
    page.reload()
    page.click(f"{row_selector_of(page, 'Eggs')} a.item-name")
    expect(page.locator(".history-list")).to_contain_text("6 → 2")
