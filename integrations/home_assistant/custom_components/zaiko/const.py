"""Constants of the Zaiko integration."""

DOMAIN = "zaiko"
CONF_CA_FINGERPRINT = "ca_fingerprint"
PLATFORMS = ["todo", "sensor", "calendar"]
# Seconds before the event stream is opened again after it dropped, growing to the last.
RECONNECT_DELAYS = (1, 2, 5, 10, 30, 60)
