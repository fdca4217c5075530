#!/usr/bin/env bash
# Front-end files for the web app, vendored from the npm registry with the version
# in the path (web/static/vendor/<package>-<version>/). The files are committed, so
# the app works without this step; this step checks them against VENDOR.md's sha256
# sums and fetches (npm pack) only what is missing or differs. Idempotent, and
# offline when everything is in place. To upgrade: change a version below, delete
# the old folder, run this script, and update VENDOR.md (it prints the new sums).
set -euo pipefail
cd "$(dirname "$0")/../.."

VENDOR=web/static/vendor
# package@version  folder  files to take (paths inside the npm tarball's package/)
PACKAGES=(
  "htmx.org@2.0.11|htmx-2.0.11|LICENSE dist/htmx.min.js"
  "cm-chessboard@8.15.1|cm-chessboard-8.15.1|LICENSE src assets/chessboard.css assets/pieces/standard.svg assets/extensions/markers/markers.css assets/extensions/markers/markers.svg assets/extensions/promotion-dialog/promotion-dialog.css"
  "chess.js@1.4.0|chess.js-1.4.0|LICENSE dist/esm/chess.js"
  "axe-core@4.14.1|axe-core-4.14.1|LICENSE axe.min.js"
)

check() {  # all files listed for $1 in VENDOR.md are present with the right sum
  local folder=$1
  local lines
  lines=$(grep -E "^\| \`$folder/" VENDOR.md || true)
  [ -n "$lines" ] || return 1
  while IFS= read -r line; do
    local path sum
    path=$(echo "$line" | awk -F'`' '{print $2}')
    sum=$(echo "$line" | awk -F'`' '{print $4}')
    [ -f "$VENDOR/$path" ] || return 1
    [ "$(sha256sum "$VENDOR/$path" | cut -d' ' -f1)" = "$sum" ] || return 1
  done <<< "$lines"
}

for entry in "${PACKAGES[@]}"; do
  IFS='|' read -r spec folder files <<< "$entry"
  if check "$folder"; then
    continue
  fi
  command -v npm >/dev/null || { echo "10-vendor: npm is needed to fetch $spec" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$spec" >/dev/null && tar xzf ./*.tgz)
  rm -rf "${VENDOR:?}/$folder"
  mkdir -p "$VENDOR/$folder"
  for f in $files; do
    mkdir -p "$VENDOR/$folder/$(dirname "$f")"
    cp -R "$tmp/package/$f" "$VENDOR/$folder/$f"
  done
  find "$VENDOR/$folder" -name '*.map' -delete
  rm -rf "$tmp"
  trap - EXIT
  echo "10-vendor: fetched $spec into $VENDOR/$folder; sums:"
  (cd "$VENDOR" && find "$folder" -type f | sort | xargs sha256sum | awk '{printf "| `%s` | `%s` |\n", $2, $1}')
done
