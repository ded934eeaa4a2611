# Zaiko: `make run` serves the app, `make test` runs every test. Both install what they
# need on a fresh Debian or Ubuntu machine (apt-get, with sudo when not root).
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV := .venv
# Debian packages the build needs (headers + pkg-config for the system library targets).
BUILD_PACKAGES := pkg-config zlib1g-dev libmicrohttpd-dev libsqlite3-dev libsodium-dev libgd-dev libzbar-dev libgnutls28-dev libqrencode-dev
# What the Swift tests need: zint and heif-enc make barcode and HEIC fixtures (ImagingTests); openssl, curl
# and python3 make test certificates and talk to the HTTPS listener (TLSCertificatesTests, TLSTests, HTTPSCookieTests).
SWIFT_TEST_PACKAGES := zint libheif-examples openssl curl python3
# What the browser tests need: Debian's headless Chromium (the old headless shell, as Playwright uses),
# a Python venv, Japanese fonts for readable screenshots.
TEST_PACKAGES := chromium-headless-shell python3-venv fonts-noto-cjk zbar-tools $(SWIFT_TEST_PACKAGES)

.PHONY: ha-test openapi run test build build-tests release lint format swift-test browser-test screenshots bench deps test-deps swift-test-deps clean

run: deps release
	.build/release/zaiko serve

# One build of everything (the zaiko binary the browser tests start, and the Swift test targets);
# `swift test --skip-build` then runs the tests without a second pass over the build graph.
# Three workers on two cores: the suite is CPU-bound, and a third worker fills the moments one waits
# for a server to start or stop (88 % of the CPU busy with two, 97 % with three: 7:10 to 6:42 here).
# --dist worksteal: a worker that runs out of tests takes some of another's, so a few long tests
# (accessibility of every page in both languages) do not leave a core idle at the end.
BROWSER_TESTS := $(VENV)/bin/pytest -q -n 3 --dist worksteal --durations=15 Tests/Browser

test: deps test-deps lint build-tests
	swift test --skip-build
	$(BROWSER_TESTS)
	$(HA_TESTS)

# The Home Assistant integration against a real `zaiko serve` (integrations/home_assistant), in a
# venv of its own: Home Assistant pins its own pytest.
HA_VENV := .venv-ha
HA_TESTS := cd integrations/home_assistant && ../../$(HA_VENV)/bin/pytest -q

ha-test: deps $(HA_VENV)/.installed build
	$(HA_TESTS)

$(HA_VENV)/.installed: integrations/home_assistant/requirements-test.txt
	python3 -m venv $(HA_VENV)
	$(HA_VENV)/bin/pip install -q -r integrations/home_assistant/requirements-test.txt
	touch $@

# The tests' builds carry no debug info: nothing here reads it (a crash still names its functions),
# and writing it is about a sixth of a clean build (349 s against 414 s on a clean clone here).
DEBUG_BUILD := swift build -Xswiftc -gnone

build:
	$(DEBUG_BUILD)

build-tests:
	$(DEBUG_BUILD) --build-tests

release:
	swift build -c release --product zaiko

# The code's layout follows .swift-format (the toolchain's swift-format); `make format` applies it.
# Generated Swift (Sources/APIContract/Generated, `make openapi`) keeps the generator's layout.
SWIFT_FILES = $(shell find Sources Tests Plugins -name '*.swift' -not -path '*/Generated/*') Package.swift
lint:
	@echo "swift format lint --strict (every Swift file but the generated)"
	@swift format lint --strict --parallel $(SWIFT_FILES)

format:
	swift format --in-place --parallel $(SWIFT_FILES)

swift-test: deps swift-test-deps build-tests
	swift test --skip-build

browser-test: deps test-deps build
	$(BROWSER_TESTS)

# The browser tests, saving a PNG of every page they check in test-output/screenshots/ (390 px and
# 1280 px wide, both languages) to look at; `make test` checks the same pages without the PNGs.
screenshots: deps test-deps build
	ZAIKO_SCREENSHOTS=1 $(BROWSER_TESTS)

bench: deps
	@command -v wrk >/dev/null || $(MAKE) --no-print-directory apt PACKAGES=wrk
	bench/run

# The API's Swift from its contract: run after changing api/openapi.yaml, and commit what it writes.
openapi:
	api/generate

# Installs the Debian packages that are missing; installs nothing when all are there.
apt:
	@missing=$$(for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

deps:
	@command -v swift >/dev/null || { echo "Zaiko needs the Swift 6 toolchain on PATH (swift.org/install)." >&2; exit 1; }
	@$(MAKE) --no-print-directory apt PACKAGES="$(BUILD_PACKAGES)"

swift-test-deps:
	@$(MAKE) --no-print-directory apt PACKAGES="$(SWIFT_TEST_PACKAGES)"

test-deps: $(VENV)/.installed $(HA_VENV)/.installed
	@$(MAKE) --no-print-directory apt PACKAGES="$(TEST_PACKAGES)"

$(VENV)/.installed: Tests/Browser/requirements.txt
	@python3 -c 'import ensurepip' 2>/dev/null || $(MAKE) --no-print-directory apt PACKAGES=python3-venv
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -r Tests/Browser/requirements.txt
	touch $@

clean:
	rm -rf .build $(VENV) $(HA_VENV) test-output
