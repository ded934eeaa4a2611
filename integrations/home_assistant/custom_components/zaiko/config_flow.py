"""Setting Zaiko up: its address, a token from the account page, and for HTTPS the fingerprint of
the household's certificate authority (shown on Zaiko's /tls page)."""
from __future__ import annotations

from typing import Any

import voluptuous as vol
from homeassistant.config_entries import ConfigFlow

try:
    from homeassistant.config_entries import ConfigFlowResult
except ImportError:  # Home Assistant before 2024.4
    from homeassistant.data_entry_flow import FlowResult as ConfigFlowResult
from homeassistant.const import CONF_TOKEN, CONF_URL

from . import make_client
from .api import FingerprintMismatch, ZaikoAuthError, normalized_fingerprint
from .const import CONF_CA_FINGERPRINT, DOMAIN


class ZaikoConfigFlow(ConfigFlow, domain=DOMAIN):
    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        errors: dict[str, str] = {}
        if user_input is not None:
            data = {
                CONF_URL: user_input[CONF_URL].strip().rstrip("/"),
                CONF_TOKEN: user_input[CONF_TOKEN].strip(),
                CONF_CA_FINGERPRINT: normalized_fingerprint(user_input.get(CONF_CA_FINGERPRINT, "")),
            }
            if not data[CONF_URL].startswith(("http://", "https://")):
                errors[CONF_URL] = "invalid_url"
            elif data[CONF_URL].startswith("https://") and len(data[CONF_CA_FINGERPRINT]) != 64:
                errors[CONF_CA_FINGERPRINT] = "fingerprint_needed"
            else:
                try:
                    client = await make_client(self.hass, data)
                    household = await client.household()
                except FingerprintMismatch:
                    errors[CONF_CA_FINGERPRINT] = "fingerprint_mismatch"
                except ZaikoAuthError:
                    errors[CONF_TOKEN] = "invalid_auth"
                except Exception:  # unreachable, not Zaiko, a certificate refused
                    errors["base"] = "cannot_connect"
                else:
                    await self.async_set_unique_id(f"{data[CONF_URL]}#{household['id']}#{household['member']['id']}")
                    self._abort_if_unique_id_configured()
                    return self.async_create_entry(title=household["name"], data=data)
        schema = vol.Schema(
            {
                vol.Required(CONF_URL, default=(user_input or {}).get(CONF_URL, "http://")): str,
                vol.Required(CONF_TOKEN, default=(user_input or {}).get(CONF_TOKEN, "")): str,
                vol.Optional(CONF_CA_FINGERPRINT, default=(user_input or {}).get(CONF_CA_FINGERPRINT, "")): str,
            }
        )
        return self.async_show_form(step_id="user", data_schema=schema, errors=errors)
