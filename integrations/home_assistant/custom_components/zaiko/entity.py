"""What every Zaiko entity shares: the household as the device they belong to."""
from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_URL
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.update_coordinator import CoordinatorEntity

from .const import DOMAIN
from .coordinator import ZaikoCoordinator


class ZaikoEntity(CoordinatorEntity[ZaikoCoordinator]):
    _attr_has_entity_name = True

    def __init__(self, coordinator: ZaikoCoordinator, entry: ConfigEntry, key: str):
        super().__init__(coordinator)
        self._attr_unique_id = f"{entry.entry_id}-{key}"
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)}, name=entry.title, manufacturer="Zaiko", entry_type=DeviceEntryType.SERVICE,
            configuration_url=entry.data[CONF_URL])
