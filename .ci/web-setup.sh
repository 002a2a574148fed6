#!/usr/bin/env bash
# What the web table's tests need on a fresh machine beyond the `test` extra (run as root,
# before pytest): PostgreSQL's server binaries for the two-process test
# (tests/web/test_postgres.py starts its own server) and Debian's Chromium for the browser
# test (Playwright drives it; it cannot download a browser of its own here).
set -euo pipefail
need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# the boards mark treasures with emoji: without a colour emoji font the screenshots show boxes
fc-list 2>/dev/null | grep -qi "color emoji" || need+=(fonts-noto-color-emoji)
# the terminal table's tests drive real terminals (hot-seat scroll-back, 80x24 layouts)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
if [ "${#need[@]}" -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    # the Debian package starts a cluster of its own; the tests start theirs
    service postgresql stop >/dev/null 2>&1 || true
fi
