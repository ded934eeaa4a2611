"""A to-do list per Zaiko shopping list. A row's quantity and unit are its description's first
line ("2 L"), read back when the description is edited; ticking a row puts it in the basket."""
from __future__ import annotations

from homeassistant.components.todo import TodoItem, TodoItemStatus, TodoListEntity, TodoListEntityFeature
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .api import ZaikoError, parse_quantity, quantity_text
from .const import DOMAIN
from .coordinator import ZaikoCoordinator
from .entity import ZaikoEntity


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, add: AddEntitiesCallback) -> None:
    coordinator: ZaikoCoordinator = hass.data[DOMAIN][entry.entry_id]
    known: set[int] = set()

    @callback
    def add_new_lists() -> None:
        new = [ZaikoShoppingList(coordinator, entry, folder_id) for folder_id in coordinator.data.shopping if folder_id not in known]
        known.update(entity.folder_id for entity in new)
        if new:
            add(new)

    add_new_lists()
    entry.async_on_unload(coordinator.async_add_listener(add_new_lists))


def description(item: dict) -> str:
    return "\n".join(x for x in (quantity_text(item), item.get("note", "")) if x)


class ZaikoShoppingList(ZaikoEntity, TodoListEntity):
    _attr_supported_features = (
        TodoListEntityFeature.CREATE_TODO_ITEM
        | TodoListEntityFeature.UPDATE_TODO_ITEM
        | TodoListEntityFeature.DELETE_TODO_ITEM
        | TodoListEntityFeature.SET_DESCRIPTION_ON_ITEM
    )

    def __init__(self, coordinator: ZaikoCoordinator, entry: ConfigEntry, folder_id: int):
        super().__init__(coordinator, entry, f"shopping-{folder_id}")
        self.folder_id = folder_id

    @property
    def name(self) -> str:
        folder = self.coordinator.data.shopping.get(self.folder_id)
        return folder["name"] if folder else str(self.folder_id)

    @property
    def available(self) -> bool:
        return super().available and self.folder_id in self.coordinator.data.shopping

    @property
    def todo_items(self) -> list[TodoItem]:
        return [
            TodoItem(
                uid=str(item["id"]),
                summary=item["name"],
                description=description(item),
                status=TodoItemStatus.COMPLETED if item.get("in_basket") else TodoItemStatus.NEEDS_ACTION,
            )
            for item in self.coordinator.data.shopping_items.get(self.folder_id, [])
        ]

    async def async_create_todo_item(self, item: TodoItem) -> None:
        draft = {"name": item.summary, **parse_quantity(item.description)}
        await self._run(self.coordinator.client.add_items(self.folder_id, [draft]))

    async def async_update_todo_item(self, item: TodoItem) -> None:
        item_id = int(item.uid)
        current = next((i for i in self.coordinator.data.shopping_items.get(self.folder_id, []) if i["id"] == item_id), None)
        changes = {"name": item.summary, **parse_quantity(item.description)}
        if current is not None and item.description == description(current):
            changes = {"name": item.summary}
        await self._run(self.coordinator.client.update_item(item_id, changes))
        await self._run(self.coordinator.client.set_in_basket(item_id, item.status == TodoItemStatus.COMPLETED))

    async def async_delete_todo_items(self, uids: list[str]) -> None:
        for uid in uids:
            await self._run(self.coordinator.client.trash_item(int(uid)))

    async def _run(self, awaitable) -> None:
        try:
            await awaitable
        except ZaikoError as error:
            raise HomeAssistantError(str(error)) from error
        await self.coordinator.async_refresh()
