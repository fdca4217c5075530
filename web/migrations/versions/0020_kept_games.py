"""The game as the ruling read it, kept with the ruling (issue 38, "one shape per step").

- ``rulings.played_json``: :meth:`adjudicator.played.PlayedGame.to_json` of the case's record as the ruling
  read it (each ply's label, position, move, legality and clock; the readings), written with the ruling, so
  the ruling page draws the positions without replaying the record. NULL for the rulings kept before (their
  page replays the record, as before) and for a case without a record. Kept beside the ruling's JSON, not
  in it: the contract's ruling object (``rule --jsonl``, the API) stays as it was.

A plain ``ADD COLUMN`` (no table copy), so the append-only triggers of ``0001`` stay in place.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rulings", sa.Column("played_json", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("rulings", "played_json")  # SQLite 3.35+ drops in place: no table copy, the triggers stay
