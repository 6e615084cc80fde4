#!/usr/bin/env bash
# The browser test's browser: Debian's chromium and chromium-driver (/usr/bin/chromium,
# /usr/bin/chromedriver), installed when missing. tests/serve_browser.rs drives them through
# WebDriver; under CI it fails when they are absent rather than skip. fonts-nanum gives the
# page's Korean text glyphs (without a Hangul font the screenshot shows boxes).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 \
  && fc-list 2>/dev/null | grep -i nanum >/dev/null; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium chromium-driver fonts-nanum
chromium --version
chromedriver --version
