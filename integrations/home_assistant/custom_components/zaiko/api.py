"""A client of Zaiko's API (/api/v1): bearer token, problem details, the event stream, and
HTTPS pinned to the household's own certificate authority by its SHA-256 fingerprint."""
from __future__ import annotations

import hashlib
import json
import ssl
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlencode

import aiohttp


class ZaikoError(Exception):
    """A request Zaiko refused or could not answer; `problem` is its problem details, if any."""

    def __init__(self, status: int, problem: dict | None = None):
        self.status = status
        self.problem = problem or {}
        super().__init__(f"{status} {self.problem.get('title', '')}: {self.problem.get('detail', '')}".strip())


class ZaikoAuthError(ZaikoError):
    """The token is unknown or revoked (401)."""


class FingerprintMismatch(Exception):
    """The server's CA is not the one whose fingerprint was given."""


def normalized_fingerprint(text: str) -> str:
    """'AB:CD:…' or 'abcd…' as 64 lowercase hex digits ('' when none was given)."""
    return "".join(c for c in text.lower() if c in "0123456789abcdef")


async def pinned_ssl_context(session: aiohttp.ClientSession, url: str, fingerprint: str) -> ssl.SSLContext:
    """Fetches the CA certificate Zaiko publishes (/tls/zaiko-ca.cer), checks that its SHA-256 is
    `fingerprint`, and trusts that CA alone: the server's certificate must chain to it."""
    async with session.get(url.rstrip("/") + "/tls/zaiko-ca.cer", ssl=False, timeout=aiohttp.ClientTimeout(total=15)) as answer:
        answer.raise_for_status()
        der = await answer.read()
    if hashlib.sha256(der).hexdigest() != normalized_fingerprint(fingerprint):
        raise FingerprintMismatch
    context = ssl.create_default_context(cadata=der)
    # Zaiko's certificate names the box's addresses; the CA is the household's own.
    return context


class ZaikoClient:
    """One household's API, as one member's token."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str, ssl_context: ssl.SSLContext | bool | None = None):
        self.session = session
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token
        self.ssl = ssl_context if ssl_context is not None else True

    async def request(self, method: str, path: str, body: Any = None, headers: dict | None = None) -> Any:
        all_headers = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        try:
            async with self.session.request(
                method, self.base + path, json=body, headers=all_headers, ssl=self.ssl, timeout=aiohttp.ClientTimeout(total=30)
            ) as answer:
                data = await answer.read()
                parsed = json.loads(data) if data else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            # Zaiko restarting or out of reach, or an answer that is not JSON: status 0, and the
            # callers keep what they last read.
            raise ZaikoError(0, {"title": "Zaiko did not answer", "detail": str(error)}) from error
        if answer.status == 401:
            raise ZaikoAuthError(answer.status, parsed)
        if answer.status >= 400:
            raise ZaikoError(answer.status, parsed)
        return parsed

    # Reading

    async def household(self) -> dict:
        return await self.request("GET", "/household")

    async def folders(self) -> list[dict]:
        return (await self.request("GET", "/folders"))["folders"]

    async def items(self, folder_id: int) -> list[dict]:
        """Every item of a list, page after page."""
        items, cursor = [], None
        while True:
            page = await self.request("GET", f"/folders/{folder_id}/items?limit=100" + (f"&cursor={cursor}" if cursor else ""))
            items += page["items"]
            cursor = page.get("next_cursor")
            if not cursor:
                return items

    async def summary(self) -> dict:
        return await self.request("GET", "/summary")

    async def due(self, first: str, last: str) -> list[dict]:
        return (await self.request("GET", f"/due?from={first}&to={last}"))["items"]

    # Writing

    async def add_items(self, folder_id: int, drafts: list[dict]) -> list[dict]:
        return (await self.request("POST", f"/folders/{folder_id}/items", {"items": drafts}))["items"]

    async def update_item(self, item_id: int, changes: dict) -> dict:
        return await self.request("PATCH", f"/items/{item_id}", changes)

    async def set_in_basket(self, item_id: int, in_basket: bool) -> dict:
        return await self.request("PUT", f"/items/{item_id}/basket", {"in_basket": in_basket})

    async def trash_item(self, item_id: int) -> None:
        await self.request("DELETE", f"/items/{item_id}")

    async def adjust_quantity(self, item_id: int, delta: float) -> dict:
        return await self.request("POST", f"/items/{item_id}/quantity", {"delta": delta})

    async def mark_opened(self, item_id: int) -> dict:
        return await self.request("POST", f"/items/{item_id}/opened")

    async def recipes(self, text: str = "") -> list[dict]:
        return (await self.request("GET", "/recipes?" + urlencode({"q": text[:200]})))["recipes"]

    async def cook(self, recipe_id: int, servings: int | None, with_what_we_have: bool) -> dict:
        body: dict[str, Any] = {"with_what_we_have": with_what_we_have}
        if servings is not None:
            body["servings"] = servings
        return await self.request("POST", f"/recipes/{recipe_id}/cook", body)

    # The event stream

    async def events(self, since: int | None = None) -> AsyncIterator[tuple[str, str]]:
        """(event, data) as the household changes, until the stream ends."""
        path = "/events" + (f"?since={since}" if since is not None else "")
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        async with self.session.get(self.base + path, headers=headers, ssl=self.ssl, timeout=aiohttp.ClientTimeout(total=None, sock_read=90)) as answer:
            if answer.status == 401:
                raise ZaikoAuthError(401)
            if answer.status >= 400:
                raise ZaikoError(answer.status)
            event, data = "message", []
            async for raw in answer.content:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        yield event, "\n".join(data)
                    event, data = "message", []
                elif line.startswith(":"):
                    continue
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())


def quantity_text(item: dict) -> str:
    """'2 L', '500 g', '3': the quantity and unit as a to-do item's description says them."""
    quantity = item["quantity"]
    number = f"{quantity:g}"
    unit = item.get("unit", "piece")
    return number if unit == "piece" else f"{number} {unit}"


UNITS = ("piece", "pack", "bottle", "can", "bag", "box", "g", "kg", "ml", "L")


def parse_quantity(text: str | None) -> dict:
    """A description's quantity and unit back as item fields: '2 L' → {'quantity': 2, 'unit': 'L'};
    words it does not read are kept as the note."""
    if not text:
        return {}
    first, _, rest = text.strip().partition("\n")
    parts = first.split()
    fields: dict = {}
    try:
        if parts:
            quantity = float(parts[0].replace(",", "."))
            if 0 <= quantity <= 1_000_000:
                fields["quantity"] = quantity
                if len(parts) > 1 and parts[1] in UNITS:
                    fields["unit"] = parts[1]
                    note = " ".join(parts[2:])
                else:
                    note = " ".join(parts[1:])
                note = "\n".join(x for x in (note, rest.strip()) if x)
                if note:
                    fields["note"] = note
                return fields
    except ValueError:
        pass
    return {"note": text.strip()}
