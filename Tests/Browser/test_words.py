"""Words: quantities said the way each language says them ("2 bottles", 「2本」), and starter
folders named in each member's own language until someone renames them (two members, two
languages, at phone width)."""

import re

import pytest

from conftest import DESKTOP, PHONE, axe_problems, create_invitation, join, no_axe_problems, screenshot, setup_household


def open_all_details(page):
    # Fields that open on demand (the editor's less frequent ones) are filled like any other.
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


def folder_names(page, server) -> list[str]:
    page.goto(server.url + "/")
    return page.locator(".folder-card .folder-name").all_inner_texts()


def folder_href(page, server, name) -> str:
    page.goto(server.url + "/")
    return page.locator(".folder-card", has=page.locator(".folder-name", has_text=re.compile(f"^{re.escape(name)}$"))).get_attribute("href")


def register_item(page, server, folder_href, name, quantity, unit) -> str:
    """Register one item through the editor; returns its page's address."""
    folder_id = folder_href.rsplit("/", 1)[-1]
    page.goto(f"{server.url}/items/new?folder={folder_id}")
    open_all_details(page)
    page.fill('[name="d0.name"]', name)
    page.fill('[name="d0.quantity"]', str(quantity))
    page.select_option('[name="d0.unit"]', unit)
    with page.expect_navigation():
        page.click("button[name=action][value=save]")
    return page.locator(f"main a[href^='/items/']:text-is('{name}')").first.get_attribute("href")


def two_members(server, make_page):
    """Aki set up the household in English; Ken joined from a phone in Japanese."""
    aki = make_page(PHONE, "en-US")
    setup_household(aki, server)
    link = create_invitation(aki, server)
    ken = make_page(PHONE, "ja-JP")
    join(ken, link)
    return aki, ken


def test_starter_folders_read_in_each_members_language_until_renamed(server, make_page):
    aki, ken = two_members(server, make_page)
    assert folder_names(aki, server) == ["Fridge", "Freezer", "Pantry", "Supermarket"]
    assert folder_names(ken, server) == ["冷蔵庫", "冷凍庫", "パントリー", "スーパー"]
    screenshot(ken, "words-home-ja-390")

    # The same folder, named in Japanese wherever Ken meets it: its list, the editor's select,
    # the list's move select and the item page.
    fridge = folder_href(ken, server, "冷蔵庫")
    ken.goto(server.url + fridge)
    assert ken.locator("h1").first.inner_text() == "冷蔵庫"
    item = register_item(ken, server, fridge, "牛乳", 2, "bottle")
    ken.goto(f"{server.url}/items/new?folder={fridge.rsplit('/', 1)[-1]}")
    assert "冷蔵庫" in ken.locator("#editor-folder option").all_inner_texts()
    assert "Fridge" not in ken.locator("#editor-folder option").all_inner_texts()
    ken.goto(server.url + fridge)
    assert "スーパー" in ken.locator("#bulk-target option").all_inner_texts()
    ken.goto(server.url + item)
    assert ken.locator(".facts dd").first.inner_text() == "冷蔵庫"
    aki.goto(server.url + item)
    assert aki.locator(".facts dd").first.inner_text() == "Fridge"

    # Ken only changes the Freezer's icon: his form showed 冷凍庫 and sent it back unchanged,
    # which is no rename, so Aki still reads "Freezer".
    ken.goto(server.url + folder_href(ken, server, "冷凍庫") + "/edit")
    assert ken.input_value("input[name=name]") == "冷凍庫"
    ken.check("input[name=icon][value=fish]", force=True)
    with ken.expect_navigation():
        ken.click("main form button[type=submit]")
    assert folder_names(aki, server)[1] == "Freezer"

    # Aki renames the Fridge: from now on everyone reads the chosen name.
    aki.goto(server.url + folder_href(aki, server, "Fridge") + "/edit")
    aki.fill("input[name=name]", "Kitchen")
    with aki.expect_navigation():
        aki.click("main form button[type=submit]")
    assert folder_names(ken, server) == ["Kitchen", "冷凍庫", "パントリー", "スーパー"]
    assert folder_names(aki, server) == ["Kitchen", "Freezer", "Pantry", "Supermarket"]


@pytest.mark.parametrize("locale, expected", [("en-US", ["2 bottles", "3 boxes", "1 pack"]), ("ja-JP", ["2本", "3箱", "1パック"])])
def test_quantities_are_said_the_way_the_language_says_them(server, page_phone, locale, expected):
    page = page_phone
    setup_household(page, server, household="Home")
    fridge = page.locator("section[aria-labelledby=stock-heading] .folder-card").first.get_attribute("href")
    shown = []
    for name, quantity, unit in [("Soy sauce", 2, "bottle"), ("Tissues", 3, "box"), ("Tofu", 1, "pack")]:
        item = register_item(page, server, fridge, name, quantity, unit)
        page.goto(server.url + item)
        facts = dict(zip(page.locator(".facts dt").all_inner_texts(), page.locator(".facts dd").all_inner_texts()))
        shown.append(facts["Quantity" if locale == "en-US" else "数量"])
    assert shown == expected
    screenshot(page, f"words-item-{locale}-390")
    no_axe_problems(page)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_pages_with_folder_names_are_accessible_at_both_widths(server, make_page, locale):
    phone = make_page(PHONE, locale)
    setup_household(phone, server, household="Home")
    fridge = phone.locator("section[aria-labelledby=stock-heading] .folder-card").first.get_attribute("href")
    desktop = make_page(DESKTOP, locale)
    desktop.context.add_cookies(phone.context.cookies())
    fridge_id = fridge.rsplit("/", 1)[-1]
    for path in ["/", fridge, fridge + "/edit", "/folders/edit", f"/items/new?folder={fridge_id}", "/soon", "/calendar", "/trash", "/products"]:
        for page, width in [(phone, 390), (desktop, 1280)]:
            page.goto(server.url + path)
            assert axe_problems(page, f"{path} at {width}") == []
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    for page, width in [(phone, 390), (desktop, 1280)]:
        page.goto(server.url + "/")
        screenshot(page, f"words-home-{locale}-{width}")
