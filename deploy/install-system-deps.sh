#!/usr/bin/env bash
# System packages the tests need beyond Python, a JDK and Maven: Debian's chromium (the HTML
# report is rendered in headless Chromium). Installs them when missing (needs root and apt).
set -euo pipefail
if command -v chromium >/dev/null; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "chromium is missing: install Debian's 'chromium' package (the report tests need it)" >&2
  exit 1
fi
echo "[setup] installing chromium (Debian package) for the report tests ..."
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
