"""Counts of the household's stock: expired, due today, due soon, below minimum."""
from __future__ import annotations

from homeassistant.components.sensor import SensorEntity, SensorStateClass
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .const import DOMAIN
from .coordinator import ZaikoCoordinator
from .entity import ZaikoEntity

# (key in /summary, translation key)
SENSORS = (("expired", "expired"), ("due_today", "due_today"), ("due_soon", "due_soon"), ("below_minimum", "below_minimum"))


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, add: AddEntitiesCallback) -> None:
    coordinator: ZaikoCoordinator = hass.data[DOMAIN][entry.entry_id]
    add(ZaikoCount(coordinator, entry, key) for key, _ in SENSORS)


class ZaikoCount(ZaikoEntity, SensorEntity):
    _attr_state_class = SensorStateClass.MEASUREMENT
    _attr_native_unit_of_measurement = "items"

    def __init__(self, coordinator: ZaikoCoordinator, entry: ConfigEntry, key: str):
        super().__init__(coordinator, entry, key)
        self.key = key
        self._attr_translation_key = key

    @property
    def native_value(self) -> int:
        return self.coordinator.data.summary[self.key]
