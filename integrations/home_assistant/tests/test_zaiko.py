"""The integration in a real Home Assistant (pytest-homeassistant-custom-component) against a real
Zaiko: the config flow, the entities it makes, the to-do lists both ways, the services, and
updates pushed by Zaiko's event stream."""
import asyncio
import hashlib
import json
import urllib.parse
import urllib.request

import pytest

from homeassistant import config_entries, data_entry_flow
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.zaiko.api import parse_quantity
from custom_components.zaiko.const import CONF_CA_FINGERPRINT, DOMAIN


def api(zaiko, method, path, body=None):
    """Zaiko's API as another of the household's tools would call it (off the event loop)."""
    request = urllib.request.Request(zaiko.url + "/api/v1" + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", f"Bearer {zaiko.token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        data = answer.read()
        return json.loads(data) if data else None


async def call_api(hass, zaiko, method, path, body=None):
    return await hass.async_add_executor_job(api, zaiko, method, path, body)


async def set_up(hass, zaiko):
    entry = MockConfigEntry(domain=DOMAIN, title="Demo", data={CONF_URL: zaiko.url, CONF_TOKEN: zaiko.token, CONF_CA_FINGERPRINT: ""})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def eventually(hass, check, seconds=15):
    """Until `check()` holds: the event stream's refresh arrives on its own (nothing polls)."""
    for _ in range(int(seconds * 20)):
        if check():
            return
        await asyncio.sleep(0.05)
        await hass.async_block_till_done()
    assert check()


async def test_the_config_flow_checks_the_token_and_names_the_entry_after_the_household(hass, zaiko):
    flow = await hass.config_entries.flow.async_init(DOMAIN, context={"source": config_entries.SOURCE_USER})
    assert flow["type"] == data_entry_flow.FlowResultType.FORM
    wrong = await hass.config_entries.flow.async_configure(flow["flow_id"], {CONF_URL: zaiko.url, CONF_TOKEN: "zk_wrong"})
    assert wrong["errors"] == {CONF_TOKEN: "invalid_auth"}
    https = await hass.config_entries.flow.async_configure(flow["flow_id"], {CONF_URL: "https://127.0.0.1:1", CONF_TOKEN: zaiko.token})
    assert https["errors"] == {CONF_CA_FINGERPRINT: "fingerprint_needed"}
    made = await hass.config_entries.flow.async_configure(flow["flow_id"], {CONF_URL: zaiko.url + "/", CONF_TOKEN: zaiko.token})
    assert made["type"] == data_entry_flow.FlowResultType.CREATE_ENTRY
    household = await call_api(hass, zaiko, "GET", "/household")
    assert made["title"] == household["name"]
    assert made["data"][CONF_URL] == zaiko.url
    await hass.async_block_till_done()


async def test_over_https_the_household_ca_is_trusted_by_its_fingerprint_only(hass, zaiko):
    def download():
        with urllib.request.urlopen(zaiko.url + "/tls/zaiko-ca.cer", timeout=30) as answer:
            return answer.read()

    fingerprint = hashlib.sha256(await hass.async_add_executor_job(download)).hexdigest()
    flow = await hass.config_entries.flow.async_init(DOMAIN, context={"source": config_entries.SOURCE_USER})
    other = "00" * 32
    wrong = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {CONF_URL: zaiko.https_url, CONF_TOKEN: zaiko.token, CONF_CA_FINGERPRINT: other})
    assert wrong["errors"] == {CONF_CA_FINGERPRINT: "fingerprint_mismatch"}
    # As the /tls page shows it: pairs of capitals with colons.
    shown = ":".join(fingerprint[i:i + 2] for i in range(0, 64, 2)).upper()
    made = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {CONF_URL: zaiko.https_url, CONF_TOKEN: zaiko.token, CONF_CA_FINGERPRINT: shown})
    assert made["type"] == data_entry_flow.FlowResultType.CREATE_ENTRY
    assert made["data"][CONF_CA_FINGERPRINT] == fingerprint
    await hass.async_block_till_done()
    # The entry's entities read over HTTPS.
    assert any(state.entity_id.endswith("_expired") for state in hass.states.async_all("sensor"))


async def test_the_entities_show_the_household_and_follow_its_changes(hass, zaiko):
    entry = await set_up(hass, zaiko)
    entities = sorted(e.entity_id for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id))
    # The README lists these.
    print("ENTITIES", entities)
    summary = await call_api(hass, zaiko, "GET", "/summary")
    for key in ("expired", "due_today", "due_soon", "below_minimum"):
        state = hass.states.get(f"sensor.demo_{key}")
        assert state is not None, entities
        assert int(state.state) == summary[key]
    folders = (await call_api(hass, zaiko, "GET", "/folders"))["folders"]
    shopping = [f for f in folders if f["kind"] == "shopping"]
    for folder in shopping:
        state = hass.states.get(f"todo.demo_{folder['name'].lower()}")
        assert state is not None, entities
        assert int(state.state) == len([i for i in (await call_api(hass, zaiko, "GET", f"/folders/{folder['id']}/items"))["items"] if not i.get("in_basket")])
    assert hass.states.get("calendar.demo_due_dates") is not None

    # Someone expires something in Zaiko: the sensor follows without a poll.
    fridge = next(f for f in folders if f["kind"] == "stock")
    await call_api(hass, zaiko, "POST", f"/folders/{fridge['id']}/items", {"items": [{"name": "Old milk", "due": "2020-01-01"}]})
    await eventually(hass, lambda: int(hass.states.get("sensor.demo_expired").state) == summary["expired"] + 1)
    # And a row added on a phone appears on the to-do list.
    supermarket = shopping[0]
    todo = f"todo.demo_{supermarket['name'].lower()}"
    before = int(hass.states.get(todo).state)
    await call_api(hass, zaiko, "POST", f"/folders/{supermarket['id']}/items", {"items": [{"name": "Bread"}]})
    await eventually(hass, lambda: int(hass.states.get(todo).state) == before + 1)
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_a_todo_list_adds_ticks_and_removes_rows_in_zaiko_with_their_quantity(hass, zaiko):
    await set_up(hass, zaiko)
    folders = (await call_api(hass, zaiko, "GET", "/folders"))["folders"]
    supermarket = next(f for f in folders if f["kind"] == "shopping")
    todo = f"todo.demo_{supermarket['name'].lower()}"

    await hass.services.async_call("todo", "add_item", {"item": "Soy milk", "description": "2 L"}, target={"entity_id": todo}, blocking=True)
    items = (await call_api(hass, zaiko, "GET", f"/folders/{supermarket['id']}/items?q=soy"))["items"]
    assert [(i["name"], i["quantity"], i["unit"]) for i in items] == [("Soy milk", 2, "L")]
    soy = items[0]["id"]

    await hass.services.async_call("todo", "update_item", {"item": "Soy milk", "status": "completed"}, target={"entity_id": todo}, blocking=True)
    assert (await call_api(hass, zaiko, "GET", f"/items/{soy}"))["in_basket"] is True
    # Renamed from Home Assistant: the quantity stays as it was.
    await hass.services.async_call("todo", "update_item", {"item": "Soy milk", "rename": "Oat milk"}, target={"entity_id": todo}, blocking=True)
    oat = await call_api(hass, zaiko, "GET", f"/items/{soy}")
    assert (oat["name"], oat["quantity"], oat["unit"]) == ("Oat milk", 2, "L")

    await hass.services.async_call("todo", "remove_item", {"item": "Oat milk"}, target={"entity_id": todo}, blocking=True)
    assert (await call_api(hass, zaiko, "GET", f"/folders/{supermarket['id']}/items?q=oat"))["items"] == []


async def test_the_services_add_use_and_open_items(hass, zaiko):
    await set_up(hass, zaiko)
    folders = (await call_api(hass, zaiko, "GET", "/folders"))["folders"]
    fridge = next(f for f in folders if f["kind"] == "stock")
    await hass.services.async_call(DOMAIN, "add_item", {"list": fridge["name"], "name": "Yoghurt", "quantity": 4}, blocking=True)
    yoghurt = (await call_api(hass, zaiko, "GET", f"/folders/{fridge['id']}/items?q=yoghurt"))["items"][0]
    assert yoghurt["quantity"] == 4
    await hass.services.async_call(DOMAIN, "use_item", {"item_id": yoghurt["id"], "amount": 1}, blocking=True)
    await hass.services.async_call(DOMAIN, "mark_opened", {"item_id": yoghurt["id"]}, blocking=True)
    now = await call_api(hass, zaiko, "GET", f"/items/{yoghurt['id']}")
    assert (now["quantity"], now["status"]) == (3, "opened")


async def test_cook_recipe_takes_the_ingredients_or_names_what_is_short(hass, zaiko):
    await set_up(hass, zaiko)
    fridge = next(f for f in (await call_api(hass, zaiko, "GET", "/folders"))["folders"] if f["kind"] == "stock")

    async def salmon():
        found = (await call_api(hass, zaiko, "GET", f"/folders/{fridge['id']}/items?q=" + urllib.parse.quote("鮭の切り身")))["items"]
        return sum(i["quantity"] for i in found if i["name"] == "鮭の切り身" and i["unit"] == "pack")

    # The demo's 鮭の塩焼き (2 servings) needs a pack of 鮭の切り身 and a pinch of 塩.
    await call_api(hass, zaiko, "POST", f"/folders/{fridge['id']}/items", {"items": [
        {"name": "鮭の切り身", "quantity": 3, "unit": "pack"}, {"name": "塩", "quantity": 1, "unit": "bag"}]})
    before = await salmon()
    await hass.services.async_call(DOMAIN, "cook_recipe", {"recipe": "鮭の塩焼き"}, blocking=True)
    assert await salmon() == before - 1
    with pytest.raises(HomeAssistantError, match="short of 鮭の切り身; nothing was taken"):
        await hass.services.async_call(DOMAIN, "cook_recipe", {"recipe": "鮭の塩焼き", "servings": 99}, blocking=True)
    assert await salmon() == before - 1
    with pytest.raises(HomeAssistantError, match="no recipe called"):
        await hass.services.async_call(DOMAIN, "cook_recipe", {"recipe": "Nothing like it"}, blocking=True)


async def test_when_zaiko_goes_away_the_entities_wait_without_an_error(hass, zaiko):
    entry = await set_up(hass, zaiko)
    zaiko.server.terminate()
    await hass.async_add_executor_job(zaiko.server.wait, 30)
    coordinator = hass.data[DOMAIN][entry.entry_id]
    # The calendar reads its next event again on every update: Zaiko out of reach is no error.
    coordinator.async_update_listeners()
    await coordinator.async_refresh()
    await hass.async_block_till_done()
    assert not coordinator.last_update_success
    assert hass.states.get("calendar.demo_due_dates").state == "unavailable"


def test_a_description_reads_back_as_quantity_unit_and_note():
    assert parse_quantity("2 L") == {"quantity": 2, "unit": "L"}
    assert parse_quantity("500 g\nthe big pack") == {"quantity": 500, "unit": "g", "note": "the big pack"}
    assert parse_quantity("3 ripe ones") == {"quantity": 3, "note": "ripe ones"}
    assert parse_quantity("ripe ones") == {"note": "ripe ones"}
    assert parse_quantity("-4 kg") == {"note": "-4 kg"}
    assert parse_quantity("") == {}
