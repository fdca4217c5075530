#!/usr/bin/env bash
# Builds the checkers endgame database for up to 4 pieces (about 7 M positions, under
# a minute, about 2 MB) into the folder named in config.toml ([checkers] database).
# Idempotent: piece counts already built are kept. The 5-piece database is a long
# build a user runs by hand: adjudicator build-db --pieces 5
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -m adjudicator build-db --pieces 4 --quiet
