"""Time-based one-time passwords at log-in (RFC 6238, with pyotp): optional per user, required for the
roles ``[security] totp_roles`` names.

A user with a secret (``adjudicator users totp NAME`` makes one and prints the ``otpauth://`` link an
authenticator app reads, or the secret to type in) gives the 6-digit code of their app with their
password. A code is good once: the last 30-second step used is stored and the update that takes a
step is conditional, so a code seen over a shoulder (or sent twice at once) does not log in again.
Codes of the step before and after are taken too (a phone's clock a little off).

How an event turns them on: the chief TD enrolls each admin (and anyone else to be asked) with
``adjudicator users totp NAME`` before the event, then sets ``totp_roles = ["admin"]`` in
``[security]``; from then on an admin without a secret cannot log in on the pages (the command line
enrolls them). ``adjudicator users totp NAME --off`` removes a lost phone's secret.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable, Mapping
from typing import Any

import pyotp
from sqlalchemy import update
from sqlalchemy.orm import Session

from web.tables.users import ROLES, User

STEP_SECONDS = 30
ISSUER = "Arbiter's assistant"


class TotpSettingsError(ValueError):
    """``[security] totp_roles`` that cannot be used (names the key)."""


def required_roles(table: Mapping[str, Any]) -> frozenset[str]:
    """``[security] totp_roles``: the roles that must give a code at log-in (none by default)."""
    roles = table.get("totp_roles", [])
    if not isinstance(roles, list) or not all(isinstance(r, str) and r in ROLES for r in roles):
        raise TotpSettingsError(f"[security] totp_roles must be a list of roles ({', '.join(ROLES)}), not {roles!r}")
    return frozenset(roles)


def new_secret() -> str:
    return str(pyotp.random_base32())


def link(user: User, secret: str) -> str:
    """The ``otpauth://`` link an authenticator app reads (as a QR code, or pasted)."""

    return str(pyotp.TOTP(secret).provisioning_uri(name=user.name, issuer_name=ISSUER))


def code_at(secret: str, when: float) -> str:
    return str(pyotp.TOTP(secret).at(int(when)))


def is_right_code(session: Session, user: User, code: str, clock: Callable[[], float] = time.time) -> bool:
    """Whether ``code`` is the user's code of this step (or the one before or after) and not used before;
    a right code is used up (committed) here."""

    code = code.strip().replace(" ", "")
    secret = user.totp_secret
    if secret is None or len(code) != 6 or not (code.isascii() and code.isdigit()):
        return False
    now = clock()
    for offset in (0, -1, 1):
        when = now + offset * STEP_SECONDS
        if hmac.compare_digest(code_at(secret, when), code):
            step = int(when // STEP_SECONDS)
            used = session.execute(
                update(User).where(User.id == user.id, User.totp_secret == secret,
                                   (User.totp_last_step.is_(None)) | (User.totp_last_step < step))
                .values(totp_last_step=step).execution_options(synchronize_session=False))
            session.commit()
            return bool(getattr(used, "rowcount", 0))
    return False
