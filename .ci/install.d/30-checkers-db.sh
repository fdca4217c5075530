#!/usr/bin/env bash
# Builds the checkers endgame database into the folder named in config.toml ([checkers]
# database): up to 5 pieces by default (145 M indices: about 2 minutes and under 1 GB with
# two workers, about 60 MB on disk), so the proof search has 5 pieces at its leaves.
# CHECKERS_DB_PIECES=4 stops at 4 pieces (7 M positions, seconds, about 2 MB), for a small
# machine: it rules the same, proving less.
# Idempotent: piece counts already built are kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
pieces=${CHECKERS_DB_PIECES:-5}
workers=${CHECKERS_DB_WORKERS:-$(nproc 2>/dev/null | awk '{print ($1 > 2 ? 2 : $1)}')}
case "$pieces" in
  4|5) ;;
  *) echo "30-checkers-db: CHECKERS_DB_PIECES must be 4 or 5, not '$pieces'" >&2; exit 2 ;;
esac
python3 -m adjudicator build-db --pieces "$pieces" --workers "$workers" --quiet
