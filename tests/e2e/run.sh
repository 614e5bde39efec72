#!/bin/sh
# Runs the browser tests (node's test runner + playwright-core + Debian's chromium).
# Needs DOZOR_TEST_BASE_URL (e.g. https://127.0.0.1:18443) and DOZOR_TEST_ADMIN_PASSWORD.
# Extra arguments go to node (e.g. --test-name-pattern=kiosk).
set -eu
cd "$(dirname "$0")"
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ]; then
  npm install --no-audit --no-fund --silent
fi
exec node --test --test-concurrency=1 "$@" ./*.test.mjs
