"""The household's due dates as an all-day calendar: one event per stock item on its due day."""
from __future__ import annotations

from datetime import date, datetime, timedelta

from homeassistant.components.calendar import CalendarEntity, CalendarEvent
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .api import ZaikoError
from .const import DOMAIN
from .coordinator import ZaikoCoordinator
from .entity import ZaikoEntity

# Zaiko answers at most a year at a time.
SPAN = timedelta(days=365)


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, add: AddEntitiesCallback) -> None:
    add([ZaikoDueDates(hass.data[DOMAIN][entry.entry_id], entry)])


def event(entry: dict) -> CalendarEvent:
    item = entry["item"]
    day = date.fromisoformat(item["due"])
    return CalendarEvent(
        start=day, end=day + timedelta(days=1), summary=item["name"], description=entry["folder_name"], uid=f"zaiko-item-{item['id']}"
    )


class ZaikoDueDates(ZaikoEntity, CalendarEntity):
    _attr_translation_key = "due_dates"

    def __init__(self, coordinator: ZaikoCoordinator, entry: ConfigEntry):
        super().__init__(coordinator, entry, "due-dates")
        self._next: CalendarEvent | None = None

    @property
    def event(self) -> CalendarEvent | None:
        return self._next

    async def _read(self, first: date, last: date) -> list[CalendarEvent]:
        events = []
        while first <= last:
            end = min(last, first + SPAN)
            events += [event(e) for e in await self.coordinator.client.due(first.isoformat(), end.isoformat())]
            first = end + timedelta(days=1)
        return events

    async def async_get_events(self, hass: HomeAssistant, start_date: datetime, end_date: datetime) -> list[CalendarEvent]:
        return await self._read(start_date.date(), end_date.date())

    def _handle_coordinator_update(self) -> None:
        self.hass.async_create_task(self._refresh_next())
        super()._handle_coordinator_update()

    async def async_added_to_hass(self) -> None:
        await super().async_added_to_hass()
        await self._refresh_next()

    async def _refresh_next(self) -> None:
        today = date.fromisoformat(self.coordinator.data.summary["today"])
        try:
            upcoming = await self._read(today, today + timedelta(days=60))
        except ZaikoError:
            # Out of reach for now: the next event stays as last read until the next update.
            return
        self._next = upcoming[0] if upcoming else None
        self.async_write_ha_state()
