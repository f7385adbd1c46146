#!/usr/bin/env bash
# `npm test`: type check, lint, unit, API (embedded PGlite, or DATABASE_URL) and e2e tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== type check"; npx tsc --noEmit
echo "== lint"; npx eslint . --max-warnings=0
echo "== unit + API tests"; npx vitest run --project unit --project api
echo "== e2e tests (Chromium)"
CHROMIUM_PATH="$(bash scripts/ensure-chromium.sh)"; export CHROMIUM_PATH
npx vite build --logLevel warn
echo "== Storybook (static build)"; npm run build-storybook --silent
npx playwright test
