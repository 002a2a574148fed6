#!/usr/bin/env bash
# Refresh the vendored axe-core (accessibility checks in tests/web, MPL-2.0) from npm.
# Usage: scripts/vendor_axe.sh [VERSION]   (default: the latest)
set -euo pipefail
version="${1:-$(npm view axe-core version)}"
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "axe-core@$version" >/dev/null && tar xzf "axe-core-$version.tgz")
cp "$work/package/axe.min.js" "$here/tests/web/vendor/axe.min.js"
cp "$work/package/LICENSE" "$here/tests/web/vendor/axe-LICENSE"
echo "axe-core $version" > "$here/tests/web/vendor/VERSION"
echo "vendored axe-core $version"
