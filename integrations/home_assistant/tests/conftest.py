"""A real Zaiko for each test: `zaiko demo` makes a household, `zaiko user token` a token of its
owner, and `zaiko serve` answers on a free port of loopback."""
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
ZAIKO_BIN = Path(os.environ.get("ZAIKO_BIN", REPO_ROOT / ".build" / "debug" / "zaiko"))

pytest_plugins = "pytest_homeassistant_custom_component"


@dataclass
class Zaiko:
    url: str
    token: str
    data: Path
    login: str
    # The same server over HTTPS, with the household's own certificate authority.
    https_url: str
    # The server's process, for a test that stops it.
    server: subprocess.Popen


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations, socket_enabled):
    """The integration under test, and sockets (the harness blocks them): it talks to a real Zaiko."""
    yield


@pytest.fixture
def zaiko(tmp_path):
    data = tmp_path / "zaiko"
    made = subprocess.run([str(ZAIKO_BIN), "demo", "--items", "24", "--data", str(data)], capture_output=True, text=True, timeout=120, check=True)
    login = next(line.split(": ", 1)[1] for line in made.stdout.splitlines() if line.startswith("Login: "))
    token = subprocess.run(
        [str(ZAIKO_BIN), "user", "token", login, "--scope", "all", "--data", str(data)], capture_output=True, text=True, timeout=60, check=True
    ).stdout.strip()
    server = subprocess.Popen(
        [str(ZAIKO_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--https-port", "0", "--data", str(data), "--resources", str(REPO_ROOT)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path)
    first, second = server.stdout.readline(), server.stdout.readline()
    assert first.startswith("Listening on ") and second.startswith("Listening for HTTPS on "), (first, second)
    yield Zaiko(
        url="http://" + first[len("Listening on "):].strip(), token=token, data=data, login=login,
        https_url="https://" + second[len("Listening for HTTPS on "):].strip(), server=server)
    server.terminate()
    server.wait(timeout=30)
