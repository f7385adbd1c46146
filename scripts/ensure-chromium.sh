#!/usr/bin/env bash
# Finds Chromium for the browser tests, or installs Debian's (with CJK fonts) when running as root.
# Never downloads a browser build of its own. Prints the path it settled on.
set -euo pipefail
if [[ -n "${CHROMIUM_PATH:-}" && -x "${CHROMIUM_PATH}" ]]; then echo "$CHROMIUM_PATH"; exit 0; fi
for p in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [[ -x "$p" ]]; then
    if ! fc-list 2>/dev/null | grep -qi "noto.*cjk" && [[ "$(id -u)" == 0 ]]; then
      apt-get install -y -qq fonts-noto-cjk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq fonts-noto-cjk >/dev/null)
    fi
    echo "$p"; exit 0
  fi
done
if [[ "$(id -u)" != 0 ]]; then
  echo "Chromium not found: install Debian's 'chromium' and 'fonts-noto-cjk', or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "installing Debian's chromium and fonts-noto-cjk…" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >&2
echo /usr/bin/chromium
