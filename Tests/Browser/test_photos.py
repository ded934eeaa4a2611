"""Pictures end to end in a real browser: a photo per draft in the batch editor, sample
illustrations, scanning a barcode photo and product memory, moving the crop square,
a USB barcode scanner typing into the form, hostile files chosen in the photo field,
and screenshots of lists with photos and illustrations."""

import re
import subprocess
from urllib.parse import urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

from conftest import DESKTOP, PHONE, ZAIKO_BIN, join, screenshot, setup_household
from images import (BLUE, GREEN, HOSTILE, PHOTO_FILE, RED, YELLOW, barcode_png, is_close, mean_colour,
                    photo_files, plain_png, solid_photo, split_photo, still_life)
from test_inventory import add_draft, click_nav, first_folder, notice, row, save

EAN = "4901234567894"  # a valid EAN-13 (check digit 4)
KEY = re.compile(r"^/photos/([0-9a-f]{32})/(128|512)$")


# --- Helpers -----------------------------------------------------------------

def by_id(element_id: str) -> str:
    # Draft ids contain a dot ("f-d0.name"), so select by attribute.
    return f'[id="{element_id}"]'


def open_editor(page, server, folder) -> None:
    page.goto(f"{server.url}/items/new?folder={folder}")
    expect(page.locator("form.editor")).to_be_visible()


def choose_photo(page, index, path) -> None:
    """Choose a photo for draft `index`; waits for the crop square when the browser can show it."""
    page.set_input_files(f"#f-d{index}-photo_file", str(path))


def choose_illustration(page, index, slug) -> None:
    picker = page.locator(f"#draft-{index} details.illustration-picker")
    if not picker.evaluate("d => d.open"):
        picker.locator("summary").click()
    picker.locator(f'input[name="d{index}.picture"][value="illustration:{slug}"]').check()


def scan(page, path):
    """Pick a barcode photo in the scan card: with JavaScript that sends the form at once."""
    with page.expect_navigation() as nav:
        page.set_input_files("#scan-file", str(path))
    return nav.value


def thumb(page, name) -> str:
    return row(page, name).locator("img.item-thumb").get_attribute("src")


def photo_key(src: str) -> str:
    match = KEY.match(urlparse(src).path)
    assert match, f"not a photo URL: {src}"
    return match.group(1)


def console_errors(page) -> list:
    """Console errors other than the blocked crop preview, which test_drag_crop_square_... is about."""
    return [e for e in page.console_errors if "blob" not in e]


def fetch(page, server, src):
    """GET a URL with the page's cookies (the signed-in member's session)."""
    return page.request.get(server.url + src, fail_on_status_code=False)


def zaiko(server, *args) -> str:
    result = subprocess.run([str(ZAIKO_BIN), *args, "--data", str(server.data_dir), "--base-url", server.url],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def other_household(server, make_page):
    """A member of a second household on the same server, signed in on a page of their own."""
    link = zaiko(server, "household", "create", "Neighbours").strip().splitlines()[-1]
    page = make_page(DESKTOP, "en-US")
    join(page, link, name="Sato", login="sato", password="the neighbours' long passphrase")
    return page


# --- 1. A photo per draft ----------------------------------------------------

def test_each_draft_keeps_its_own_photo(server, page_phone, make_page, tmp_path):
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    red = solid_photo(tmp_path / "red.jpg", RED)
    blue = solid_photo(tmp_path / "blue.jpg", BLUE, size=(600, 900))
    before = photo_files(server.data_dir)

    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Tomatoes")
    choose_photo(page, 0, red)
    add_draft(page)
    page.fill(by_id("f-d1.name"), "Blueberries")
    choose_photo(page, 1, blue)
    # The new draft's file field is its own: draft 0 still holds the red photo.
    assert page.eval_on_selector("#f-d0-photo_file", "i => i.files.length && i.files[0].name") == "red.jpg"
    assert page.eval_on_selector("#f-d1-photo_file", "i => i.files.length && i.files[0].name") == "blue.jpg"
    response = save(page)
    assert response.status == 200, page.locator("main").inner_text()
    assert urlparse(page.url).path == f"/folders/{fridge}"
    assert notice(page).startswith("Registered 2 items.")

    tomato, blueberry = thumb(page, "Tomatoes"), thumb(page, "Blueberries")
    assert photo_key(tomato) != photo_key(blueberry)
    assert urlparse(tomato).path.endswith("/128") and urlparse(blueberry).path.endswith("/128")
    for name in ("Tomatoes", "Blueberries"):
        assert "has-picture" in row(page, name).locator("img.item-thumb").get_attribute("class")
    # The images really loaded in the list (not broken image icons).
    for name in ("Tomatoes", "Blueberries"):
        expect(row(page, name).locator("img.item-thumb")).to_have_js_property("complete", True)
        assert row(page, name).locator("img.item-thumb").evaluate("i => i.naturalWidth") == 128

    # Two new photos, each stored in two sizes under server-made names.
    added = photo_files(server.data_dir) - before
    assert len(added) == 4 and all(PHOTO_FILE.match(n) for n in added), added

    stranger = other_household(server, make_page)
    for src, colour in ((tomato, RED), (blueberry, BLUE)):
        for path in (src, src.replace("/128", "/512")):
            got = fetch(page, server, path)
            assert got.status == 200, path
            assert got.headers["content-type"] == "image/jpeg"
            assert got.headers["x-content-type-options"] == "nosniff"
            # Kept privately but asked again each time: never shown from a cache after sign-out.
            assert got.headers["cache-control"] == "private, no-cache"
            assert got.headers.get("etag")
            # The right photo went to the right item: the centre of each is its colour.
            size = int(path.rsplit("/", 1)[1])
            assert is_close(mean_colour(got.body(), (0, 0, size, size // 3)), colour), (path, mean_colour(got.body()))
            # Another household gets 404, as for a key that does not exist.
            assert fetch(stranger, server, path).status == 404
    # The ETag answers a revalidation with 304.
    etag = fetch(page, server, tomato).headers["etag"]
    again = page.request.get(server.url + tomato, headers={"If-None-Match": etag}, fail_on_status_code=False)
    assert again.status == 304
    # Signed out: sent to sign in, no photo.
    anonymous = make_page(DESKTOP, "en-US")
    got = anonymous.request.get(server.url + tomato, max_redirects=0, fail_on_status_code=False)
    assert got.status in (302, 303) and got.headers["location"].startswith("/login")
    assert console_errors(page) == []


# --- 2. Sample illustrations -------------------------------------------------

def test_pick_an_illustration(server, page_phone):
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Natto")
    picker = page.locator("#draft-0 details.illustration-picker")
    assert picker.locator("summary").inner_text().strip() == "Choose an illustration"
    assert picker.locator("input[name='d0.picture']").count() == 45  # 44 illustrations and "no picture"
    assert picker.locator("input[name='d0.picture'][value='']").is_checked()
    choose_illustration(page, 0, "natto")
    # The illustrations shown in the picker all load.
    broken = picker.locator("img").evaluate_all(
        "imgs => imgs.filter(i => i.complete && i.naturalWidth === 0).map(i => i.src)")
    assert broken == []
    assert save(page).status == 200
    # Named by its version (the content's hash), as every public file a page names.
    assert re.fullmatch(r"/static/illustrations/natto\.svg\?v=[0-9a-f]{16}", thumb(page, "Natto"))
    assert "has-picture" in row(page, "Natto").locator("img.item-thumb").get_attribute("class")
    assert fetch(page, server, thumb(page, "Natto")).headers["content-type"].startswith("image/svg+xml")

    # The item page shows the illustration and keeps it when opened for editing.
    click_nav(page, "li.item-row a.item-name")
    assert page.locator(".item-hero img").get_attribute("src").split("?v=")[0] == "/static/illustrations/natto.svg"
    item = urlparse(page.url).path
    page.goto(server.url + item + "/edit")
    assert page.locator("input[name='d0.picture'][value='illustration:natto']").is_checked()
    assert console_errors(page) == []


# --- 3. Scanning a barcode photo, product memory ---------------------------------

def test_scan_then_scan_again_fills_from_memory(server, page_phone, tmp_path):
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    code = barcode_png(tmp_path / "ean.png", EAN)
    photo = solid_photo(tmp_path / "natto.jpg", YELLOW)

    open_editor(page, server, fridge)
    response = scan(page, code)
    assert response.status == 200
    assert f"Read {EAN}." in page.locator(".scan-card .notice").inner_text()
    assert page.input_value(by_id("f-d0.barcode")) == EAN
    assert page.locator("fieldset.draft").count() == 1  # the first blank draft took it
    assert page.evaluate("document.activeElement.id") == "f-d0.name"
    page.fill(by_id("f-d0.name"), "Okame natto")
    page.select_option(by_id("f-d0.kind"), "prepared")
    choose_photo(page, 0, photo)
    assert save(page).status == 200
    first_thumb = thumb(page, "Okame natto")
    first_key = photo_key(first_thumb)

    # Scan the same barcode again: the draft is filled from what was saved.
    open_editor(page, server, fridge)
    response = scan(page, code)
    assert response.status == 200
    assert "filled in from what this household saved before" in page.locator(".scan-card .notice").inner_text()
    assert page.input_value(by_id("f-d0.barcode")) == EAN
    assert page.input_value(by_id("f-d0.name")) == "Okame natto"
    remembered = page.locator("input[name='d0.picture']:checked")
    assert remembered.get_attribute("value") == f"photo:{first_key}"
    preview = page.locator("#draft-0 .picture-preview")
    assert photo_key(preview.get_attribute("src")) == first_key
    assert preview.evaluate("i => i.complete && i.naturalWidth") > 0

    # A second scan in the same batch goes into a new draft.
    response = scan(page, code)
    assert page.locator("fieldset.draft").count() == 2
    assert page.input_value(by_id("f-d1.barcode")) == EAN
    assert page.input_value(by_id("f-d1.name")) == "Okame natto"
    assert save(page).status == 200
    assert page.locator("li.item-row").count() == 3
    # The remembered photo is the same photo, not a copy.
    assert {photo_key(s) for s in page.locator("li.item-row img.item-thumb").evaluate_all(
        "imgs => imgs.map(i => i.getAttribute('src'))")} == {first_key}

    # The products page lists it; correct its name; forget it.
    page.goto(server.url + "/products")
    rows = page.locator(".product-list li.item-row")
    expect(rows).to_have_count(1)
    assert rows.locator(".item-name").inner_text() == "Okame natto"
    assert rows.locator(".barcode").inner_text() == EAN
    assert photo_key(rows.locator("img.item-thumb").get_attribute("src")) == first_key
    click_nav(page, ".product-list a.item-name")
    assert urlparse(page.url).path.startswith("/products/")
    assert EAN in page.locator("h1").inner_text()
    page.fill("#f-name", "Okame natto, small")
    response = click_nav(page, "main form.card button[type=submit]")
    assert response.status == 200
    assert urlparse(page.url).path == "/products"
    assert rows.locator(".item-name").inner_text() == "Okame natto, small"
    # The corrected name is what the next scan brings.
    open_editor(page, server, fridge)
    scan(page, code)
    assert page.input_value(by_id("f-d0.name")) == "Okame natto, small"
    # Not saved: Cancel leaves the editor and lets go of the draft it would otherwise keep.
    click_nav(page, ".editor-actions a.button")

    page.goto(server.url + "/products")
    click_nav(page, ".product-list form[action$='/forget'] button")
    assert "Forgotten" in notice(page)
    expect(page.locator(".product-list li")).to_have_count(0)
    # Forgotten: the next scan only reads the number.
    open_editor(page, server, fridge)
    scan(page, code)
    assert page.locator(".scan-card .notice").inner_text().strip().endswith(f"Read {EAN}.")
    assert page.input_value(by_id("f-d0.name")) == ""
    # Items keep their own values.
    page.goto(f"{server.url}/folders/{fridge}")
    assert page.locator("li.item-row").count() == 3
    assert console_errors(page) == []


def test_scan_without_barcode_keeps_the_form(server, page_phone, tmp_path):
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Rice crackers")
    response = scan(page, plain_png(tmp_path / "wall.png"))
    assert response.status == 422
    error = page.locator("#scan-file-error")
    expect(error).to_be_visible()
    assert "No barcode could be read in this photo." in error.inner_text()
    assert page.get_attribute("#scan-file", "aria-invalid") == "true"
    assert page.input_value(by_id("f-d0.name")) == "Rice crackers"
    page.goto(f"{server.url}/folders/{fridge}")
    assert page.locator("li.item-row").count() == 0


# --- 4. Moving the crop square ------------------------------------------------

def test_drag_crop_square_keeps_the_chosen_part(server, page_desktop, tmp_path):
    page = setup_household(page_desktop, server)
    fridge = first_folder(page, server, "stock")
    picture = split_photo(tmp_path / "red-blue.jpg")  # 900×450: left red, right blue

    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Red half")
    choose_photo(page, 0, picture)
    # The preview is a blob: URL of the chosen file; the page's CSP must let it load.
    square = page.locator("#draft-0 .crop-frame .crop-square")
    expect(square, "no crop square over the chosen photo; console: " + "; ".join(page.console_errors)).to_be_visible()
    # Centred at first: x = (900 - 450) / 2 / 900 (set once the preview has loaded, which can come
    # after the square is shown on a busy machine).
    expect(page.locator("#f-d0-crop")).to_have_value(re.compile(r"^0\.2500,0\.0000,"))

    square.scroll_into_view_if_needed()
    box = square.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 600, y, steps=12)  # further than the edge: it stops there
    page.mouse.up()
    moved = page.input_value("#f-d0-crop")
    assert moved.split(",")[:2] == ["0.0000", "0.0000"], moved
    frame = page.locator("#draft-0 .crop-frame").bounding_box()
    assert abs(square.bounding_box()["x"] - frame["x"]) < 3  # the square sits at the left edge

    assert save(page).status == 200
    large = fetch(page, server, thumb(page, "Red half").replace("/128", "/512")).body()
    # All of the kept square is red, also its right quarter (blue in the centred crop).
    assert is_close(mean_colour(large), RED), mean_colour(large)
    assert is_close(mean_colour(large, (384, 0, 512, 512)), RED), mean_colour(large, (384, 0, 512, 512))
    assert page.console_errors == []


def test_crop_field_decides_the_saved_square(server, page_desktop, tmp_path):
    """The server side of the crop: what the square's script sends in `dN.crop` is what is kept,
    and without it the middle is kept."""
    page = setup_household(page_desktop, server)
    fridge = first_folder(page, server, "stock")
    picture = split_photo(tmp_path / "red-blue.jpg")  # 900×450: left red, right blue

    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Blue half")
    choose_photo(page, 0, picture)
    add_draft(page)
    page.fill(by_id("f-d1.name"), "Both halves")
    choose_photo(page, 1, picture)
    add_draft(page)
    page.fill(by_id("f-d2.name"), "Red half")
    choose_photo(page, 2, picture)
    # What dragging the square fully right (draft 0) or left (draft 2) sends.
    page.eval_on_selector("#f-d0-crop", "e => e.value = '0.5000,0.0000,1.0000'")
    page.eval_on_selector("#f-d1-crop", "e => e.value = ''")
    page.eval_on_selector("#f-d2-crop", "e => e.value = '0.0000,0.0000,1.0000'")
    assert save(page).status == 200

    def large(name):
        return fetch(page, server, thumb(page, name).replace("/128", "/512")).body()
    blue, both, red = large("Blue half"), large("Both halves"), large("Red half")
    assert is_close(mean_colour(blue), BLUE), mean_colour(blue)
    assert is_close(mean_colour(red), RED), mean_colour(red)
    assert is_close(mean_colour(red, (384, 0, 512, 512)), RED)
    assert is_close(mean_colour(both, (0, 0, 200, 512)), RED)
    assert is_close(mean_colour(both, (312, 0, 512, 512)), BLUE)


def test_photos_too_large_together_are_stopped_before_sending(server, page_phone, tmp_path):
    """The server takes 20 MB a request: the page says so before a batch is lost to a 413."""
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Tomatoes")
    choose_photo(page, 0, solid_photo(tmp_path / "red.jpg", RED))
    # As if the limit were tiny: the same check a 25 MB batch meets.
    page.eval_on_selector("form.editor", "f => { f.dataset.maxBytes = '1000'; }")
    page.click('button[name="action"][value="save"]')
    alert = page.locator(".upload-too-big")
    expect(alert).to_be_visible()
    assert "too large to send together" in alert.inner_text()
    assert urlparse(page.url).path == "/items/new"
    assert page.input_value(by_id("f-d0.name")) == "Tomatoes"


# --- 5. A USB barcode scanner ------------------------------------------------

def test_usb_scanner_enter_looks_up_instead_of_registering(server, page_desktop):
    page = setup_household(page_desktop, server)
    fridge = first_folder(page, server, "stock")
    open_editor(page, server, fridge)
    page.click("#draft-0 details.draft-more summary")  # the barcode field is under "More" (issue 11)
    barcode = page.locator(by_id("f-d0.barcode"))
    barcode.click()
    # A scanner types fast and ends with Enter.
    with page.expect_navigation() as nav:
        page.keyboard.type(EAN, delay=5)
        page.keyboard.press("Enter")
    assert nav.value.status == 200
    assert urlparse(page.url).path == "/items/new"  # still in the editor: nothing was registered
    assert page.locator("fieldset.draft").count() == 2
    assert page.input_value(by_id("f-d0.barcode")) == EAN
    assert page.input_value(by_id("f-d1.barcode")) == ""
    expect(page.locator(by_id("f-d1.barcode"))).to_be_focused()
    assert page.locator(".form-error:visible").count() == 0  # no "enter a name" for the half-filled draft

    # The next scan goes straight into the focused field; a wrong check digit is caught.
    with page.expect_navigation() as nav:
        page.keyboard.type("4901234567890", delay=5)
        page.keyboard.press("Enter")
    assert urlparse(page.url).path == "/items/new"
    error = page.locator(by_id("f-d1.barcode-error"))
    expect(error).to_be_visible()
    assert "The last digit does not match the others: check the number." in error.inner_text()
    assert page.get_attribute(by_id("f-d1.barcode"), "aria-invalid") == "true"
    expect(page.locator(by_id("f-d1.barcode"))).to_be_focused()
    # The field keeps what was typed, to be corrected.
    assert page.input_value(by_id("f-d1.barcode")) == "4901234567890"

    page.goto(f"{server.url}/folders/{fridge}")
    assert page.locator("li.item-row").count() == 0


# --- 6. Hostile files chosen in the browser -----------------------------------

@pytest.mark.parametrize("case", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_file_in_the_editor(server, page_phone, case):
    _, file_name, mime, data, message = case
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    before = photo_files(server.data_dir)

    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Mystery jar")
    page.set_input_files("#f-d0-photo_file", files=[{"name": file_name, "mimeType": mime, "buffer": data}])
    response = save(page)
    assert response.status == 422
    assert urlparse(page.url).path == "/items/new"
    error = page.locator("#f-d0-picture-error")
    expect(error).to_be_visible()
    assert message in error.inner_text()
    assert page.get_attribute("#f-d0-photo_file", "aria-invalid") == "true"
    assert page.input_value(by_id("f-d0.name")) == "Mystery jar"
    assert photo_files(server.data_dir) == before
    page.goto(f"{server.url}/folders/{fridge}")
    assert page.locator("li.item-row").count() == 0


@pytest.mark.parametrize("case", [h for h in HOSTILE if h[0] in ("text-as-jpg", "truncated-jpeg")],
                         ids=["text-as-jpg", "truncated-jpeg"])
def test_hostile_file_on_the_item_page(server, page_phone, case, tmp_path):
    _, file_name, mime, data, message = case
    page = setup_household(page_phone, server)
    fridge = first_folder(page, server, "stock")
    open_editor(page, server, fridge)
    page.fill(by_id("f-d0.name"), "Soy sauce")
    save(page)
    click_nav(page, "li.item-row a.item-name")
    item = page.url
    before = photo_files(server.data_dir)

    page.set_input_files("#f-photo_file", files=[{"name": file_name, "mimeType": mime, "buffer": data}])
    response = click_nav(page, "form.photo-form button[type=submit]")
    assert response.status == 422
    error = page.locator("#f-photo_file-error")
    expect(error).to_be_visible()
    assert message in error.inner_text()
    assert photo_files(server.data_dir) == before

    # A real photo afterwards works, and becomes the hero image.
    page.goto(item)
    page.set_input_files("#f-photo_file", str(solid_photo(tmp_path / "soy.jpg", (90, 50, 20))))
    click_nav(page, "form.photo-form button[type=submit]")
    assert "Picture saved." in notice(page)
    hero = page.locator(".item-hero img")
    assert KEY.match(hero.get_attribute("src")) and hero.get_attribute("src").endswith("/512")
    assert hero.evaluate("i => i.complete && i.naturalWidth") == 512


# --- 7. Screenshots ----------------------------------------------------------

STOCK = {
    "en-US": [("Milk", "illustration:milk"), ("Strawberries", (200, 40, 60)), ("Eggs", "illustration:eggs"),
              ("Spinach", (40, 140, 50)), ("Natto", "illustration:natto"), ("Lemons", (235, 205, 40)),
              ("Tofu", "illustration:tofu"), ("Leftover curry", None)],
    "ja-JP": [("牛乳", "illustration:milk"), ("いちご", (200, 40, 60)), ("卵", "illustration:eggs"),
              ("ほうれん草", (40, 140, 50)), ("納豆", "illustration:natto"), ("レモン", (235, 205, 40)),
              ("豆腐", "illustration:tofu"), ("カレーの残り", None)],
}


def fill_stock(page, server, folder, tmp_path, locale):
    open_editor(page, server, folder)
    for i, (name, picture) in enumerate(STOCK[locale]):
        if i:
            add_draft(page)
        page.fill(by_id(f"f-d{i}.name"), name)
        if isinstance(picture, str):
            choose_illustration(page, i, picture.split(":", 1)[1])
        elif picture:
            shade = tuple(min(255, c + 60) for c in picture)
            choose_photo(page, i, still_life(tmp_path / f"photo{i}.jpg", (225, 225, 215), [picture, shade]))
    response = save(page)
    assert response.status == 200, page.locator("main").inner_text()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_screenshots(server, make_page, locale, tmp_path):
    """Screenshots on a 390 px phone; layout problems are collected and reported at the end, so
    every screenshot is taken even when one page is wrong."""
    lang = locale[:2]
    page = make_page(PHONE, locale)
    problems = []

    def shoot(name):
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > 390:
            problems.append(f"{name}: the page is {width} px wide on a 390 px phone (scrolls sideways)")
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-{lang}")

    setup_household(page, server, household="Tanaka" if lang == "en" else "田中家")
    fridge = first_folder(page, server, "stock")
    fill_stock(page, server, fridge, tmp_path, locale)

    page.goto(f"{server.url}/folders/{fridge}")
    thumbs = page.locator("li.item-row img.item-thumb")
    expect(thumbs).to_have_count(len(STOCK[locale]))
    for i in range(thumbs.count()):
        thumbs.nth(i).scroll_into_view_if_needed()
        expect(thumbs.nth(i)).to_have_js_property("complete", True)
        assert thumbs.nth(i).evaluate("i => i.naturalWidth") > 0, thumbs.nth(i).get_attribute("src")
    srcs = thumbs.evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))")
    assert sum(1 for s in srcs if KEY.match(s)) == 3
    assert sum(1 for s in srcs if s.startswith("/static/illustrations/")) == 4
    shoot("photos-stock-list-phone")

    # The editor with the illustration picker open (a scanned barcode fills the first draft).
    code = barcode_png(tmp_path / "ean.png", EAN)
    open_editor(page, server, fridge)
    scan(page, code)
    check_notice(page, ".scan-card .notice", problems, "scan notice in the editor")
    page.fill(by_id("f-d0.name"), "Natto 3-pack" if lang == "en" else "納豆 3パック")
    choose_illustration(page, 0, "natto")
    shoot("photos-editor-illustrations-phone")
    save(page)

    page.goto(server.url + "/products")
    expect(page.locator(".product-list li")).to_have_count(1)
    # Saving a product (unchanged) shows "Saved." on the list.
    click_nav(page, ".product-list a.item-name")
    click_nav(page, "main form.card button[type=submit]")
    expect(page.locator(".notice")).to_be_visible()
    check_notice(page, ".notice", problems, "products page notice")
    shoot("photos-products-phone")

    page.goto(f"{server.url}/folders/{fridge}")
    click_nav(page, row_selector_for(STOCK[locale][1][0]))
    hero = page.locator(".item-hero img")
    expect(hero).to_have_js_property("complete", True)
    assert KEY.match(hero.get_attribute("src"))
    assert hero.evaluate("i => i.naturalWidth") == 512
    shoot("photos-item-phone")

    # The editor just after choosing a photo: the crop square over it (when the preview loads).
    open_editor(page, server, fridge)
    choose_photo(page, 0, still_life(tmp_path / "wide.jpg", (200, 220, 235), [BLUE, GREEN], size=(1600, 900)))
    try:  # the square appears once the preview has loaded, however long that takes here
        page.locator("#draft-0 .crop-square").wait_for(state="visible")
    except PlaywrightTimeoutError:
        problems.append("no crop square after choosing a photo in the editor")
    page.locator("#f-d0-photo_file").scroll_into_view_if_needed()
    shoot("photos-editor-crop-phone")
    assert console_errors(page) == []
    assert not problems, "\n".join(problems)


def check_notice(page, selector, problems, where):
    """A notice reads "✓ text": the mark right beside the start of its text, on the same line."""
    notice = page.locator(selector)
    mark = notice.locator("span[aria-hidden]").bounding_box()
    text = notice.locator("span:not([aria-hidden])").bounding_box()
    gap = text["x"] - (mark["x"] + mark["width"])
    if text["y"] >= mark["y"] + mark["height"] or gap > 24:
        problems.append(f"{where}: {round(gap)} px between the ✓ and its text"
                        f"{' and on a line of its own' if text['y'] >= mark['y'] + mark['height'] else ''}")


def row_selector_for(name):
    return f"li.item-row:has(a.item-name:text-is('{name}')) a.item-name"
