"""Zaiko: a household's stock and shopping lists in Home Assistant — a to-do list per shopping
list, sensors for what is expired, due and below its minimum, a calendar of due dates, and
services to add, use and open items and to cook a recipe. Updates come from Zaiko's event stream."""
from __future__ import annotations

import voluptuous as vol
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.exceptions import ConfigEntryNotReady, HomeAssistantError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.aiohttp_client import async_get_clientsession

from .api import FingerprintMismatch, ZaikoClient, ZaikoError, pinned_ssl_context
from .const import CONF_CA_FINGERPRINT, DOMAIN, PLATFORMS
from .coordinator import ZaikoCoordinator

ITEM_ID = vol.All(vol.Coerce(int), vol.Range(min=1))
ADD_ITEM_SCHEMA = vol.Schema(
    {
        vol.Required("list"): cv.string,
        vol.Required("name"): vol.All(cv.string, vol.Length(min=1, max=400)),
        vol.Optional("quantity", default=1): vol.All(vol.Coerce(float), vol.Range(min=0, max=1_000_000)),
        vol.Optional("unit"): vol.In(["piece", "pack", "bottle", "can", "bag", "box", "g", "kg", "ml", "L"]),
    }
)
USE_ITEM_SCHEMA = vol.Schema(
    {vol.Required("item_id"): ITEM_ID, vol.Optional("amount", default=1): vol.All(vol.Coerce(float), vol.Range(min=0, max=1_000_000))}
)
OPEN_ITEM_SCHEMA = vol.Schema({vol.Required("item_id"): ITEM_ID})
COOK_RECIPE_SCHEMA = vol.Schema(
    {
        vol.Required("recipe"): vol.All(cv.string, vol.Length(min=1, max=200)),
        vol.Optional("servings"): vol.All(vol.Coerce(int), vol.Range(min=1, max=99)),
        vol.Optional("with_what_we_have", default=False): cv.boolean,
    }
)


async def make_client(hass: HomeAssistant, data: dict) -> ZaikoClient:
    session = async_get_clientsession(hass)
    ssl_context = None
    if data.get(CONF_CA_FINGERPRINT) and data[CONF_URL].startswith("https://"):
        ssl_context = await pinned_ssl_context(session, data[CONF_URL], data[CONF_CA_FINGERPRINT])
    return ZaikoClient(session, data[CONF_URL], data[CONF_TOKEN], ssl_context)


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    try:
        client = await make_client(hass, dict(entry.data))
    except FingerprintMismatch as error:
        raise ConfigEntryNotReady("Zaiko's certificate authority is not the one whose fingerprint was given") from error
    except Exception as error:
        raise ConfigEntryNotReady(str(error)) from error
    coordinator = ZaikoCoordinator(hass, client, entry.title)
    await coordinator.async_config_entry_first_refresh()
    hass.data.setdefault(DOMAIN, {})[entry.entry_id] = coordinator
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    coordinator.start_listening()
    _register_services(hass)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    coordinator: ZaikoCoordinator = hass.data[DOMAIN][entry.entry_id]
    await coordinator.stop_listening()
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        hass.data[DOMAIN].pop(entry.entry_id)
    return unloaded


def _coordinators(hass: HomeAssistant) -> list[ZaikoCoordinator]:
    return list(hass.data.get(DOMAIN, {}).values())


def _register_services(hass: HomeAssistant) -> None:
    if hass.services.has_service(DOMAIN, "add_item"):
        return

    async def add_item(call: ServiceCall) -> None:
        """Adds an item to the shopping or stock list named (or numbered) `list`."""
        wanted = str(call.data["list"]).strip().casefold()
        for coordinator in _coordinators(hass):
            for folder in await coordinator.client.folders():
                if folder["name"].casefold() == wanted or str(folder["id"]) == wanted:
                    draft = {"name": call.data["name"], "quantity": call.data["quantity"]}
                    if "unit" in call.data:
                        draft["unit"] = call.data["unit"]
                    await _run(coordinator.client.add_items(folder["id"], [draft]))
                    await coordinator.async_refresh()
                    return
        raise HomeAssistantError(f"Zaiko has no list called {call.data['list']}")

    async def use_item(call: ServiceCall) -> None:
        """Takes `amount` of an item (its − on a list row)."""
        await _on_item(hass, lambda client: client.adjust_quantity(call.data["item_id"], -call.data["amount"]))

    async def mark_opened(call: ServiceCall) -> None:
        await _on_item(hass, lambda client: client.mark_opened(call.data["item_id"]))

    async def cook_recipe(call: ServiceCall) -> None:
        """Cooks the recipe named (or numbered) `recipe`: its ingredients are taken from the stock.
        When something is short nothing is taken, and the error names what is missing."""
        wanted = str(call.data["recipe"]).strip()
        for coordinator in _coordinators(hass):
            found = await _run(coordinator.client.recipes("" if wanted.isdigit() else wanted))
            recipe = next((r for r in found if r["name"].casefold() == wanted.casefold() or str(r["id"]) == wanted), None)
            if recipe is None:
                continue
            try:
                await coordinator.client.cook(recipe["id"], call.data.get("servings"), call.data["with_what_we_have"])
            except ZaikoError as error:
                short = [s["ingredient"] for s in error.problem.get("shortfalls", [])]
                if short:
                    raise HomeAssistantError(f"{recipe['name']}: short of {', '.join(short)}; nothing was taken") from error
                raise HomeAssistantError(str(error)) from error
            await coordinator.async_refresh()
            return
        raise HomeAssistantError(f"Zaiko has no recipe called {wanted}")

    hass.services.async_register(DOMAIN, "add_item", add_item, schema=ADD_ITEM_SCHEMA)
    hass.services.async_register(DOMAIN, "use_item", use_item, schema=USE_ITEM_SCHEMA)
    hass.services.async_register(DOMAIN, "mark_opened", mark_opened, schema=OPEN_ITEM_SCHEMA)
    hass.services.async_register(DOMAIN, "cook_recipe", cook_recipe, schema=COOK_RECIPE_SCHEMA)


async def _run(awaitable):
    try:
        return await awaitable
    except ZaikoError as error:
        raise HomeAssistantError(str(error)) from error


async def _on_item(hass: HomeAssistant, action) -> None:
    """Runs `action` with the first household that knows the item (404 elsewhere)."""
    last: ZaikoError | None = None
    for coordinator in _coordinators(hass):
        try:
            await action(coordinator.client)
            await coordinator.async_refresh()
            return
        except ZaikoError as error:
            last = error
            if error.status != 404:
                break
    raise HomeAssistantError(str(last) if last else "No Zaiko household is set up")
