"""What Home Assistant knows of one Zaiko household, read again when Zaiko's event stream says it
changed: no polling."""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryAuthFailed
from homeassistant.helpers.update_coordinator import DataUpdateCoordinator, UpdateFailed

from .api import ZaikoAuthError, ZaikoClient, ZaikoError
from .const import DOMAIN, RECONNECT_DELAYS

_LOGGER = logging.getLogger(__name__)


@dataclass
class ZaikoData:
    household: dict
    summary: dict
    # Shopping lists by id: the folder and its items.
    shopping: dict[int, dict] = field(default_factory=dict)
    shopping_items: dict[int, list[dict]] = field(default_factory=dict)


class ZaikoCoordinator(DataUpdateCoordinator[ZaikoData]):
    def __init__(self, hass: HomeAssistant, client: ZaikoClient, title: str):
        # update_interval None: refreshed by the event stream, never on a timer.
        super().__init__(hass, _LOGGER, name=f"{DOMAIN} {title}", update_interval=None)
        self.client = client
        self._listener: asyncio.Task | None = None

    async def _async_update_data(self) -> ZaikoData:
        try:
            household = await self.client.household()
            summary = await self.client.summary()
            folders = [f for f in await self.client.folders() if f["kind"] == "shopping"]
            items = {f["id"]: await self.client.items(f["id"]) for f in folders}
        except ZaikoAuthError as error:
            raise ConfigEntryAuthFailed(str(error)) from error
        except (ZaikoError, OSError, asyncio.TimeoutError) as error:
            raise UpdateFailed(str(error)) from error
        except Exception as error:  # aiohttp's own errors
            raise UpdateFailed(str(error)) from error
        return ZaikoData(household=household, summary=summary, shopping={f["id"]: f for f in folders}, shopping_items=items)

    def start_listening(self) -> None:
        """Follows the event stream in the background until `stop_listening`."""
        self._listener = self.hass.async_create_background_task(self._listen(), f"{DOMAIN} event stream")

    async def stop_listening(self) -> None:
        if self._listener:
            self._listener.cancel()
            try:
                await self._listener
            except (asyncio.CancelledError, Exception):
                pass
            self._listener = None

    async def _listen(self) -> None:
        attempt = 0
        while True:
            try:
                async for event, _ in self.client.events():
                    attempt = 0
                    if event in ("changes", "reload"):
                        await self.async_refresh()
                    elif event == "signed-out":
                        # The token was revoked: Home Assistant asks for a new one.
                        self.hass.async_create_task(self.async_refresh())
                        return
            except asyncio.CancelledError:
                raise
            except ZaikoAuthError:
                await self.async_refresh()
                return
            except Exception as error:  # the network, the server restarting
                _LOGGER.debug("Zaiko's event stream dropped: %s", error)
            await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
            attempt += 1
            # Anything missed while away is read again.
            await self.async_refresh()
