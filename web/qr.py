"""QR codes drawn by the server as inline SVG (segno), so a TD hands a player a ruling's share link
without typing it: the player's phone camera opens it. No script, no image request, nothing the
Content-Security-Policy has to allow (an SVG path, no style attribute)."""

from __future__ import annotations

import segno


def qr_svg(text: str, label: str = "QR code of the players' link") -> str:
    """``text`` as a QR code (error correction M, a 4-module quiet zone as the standard asks), an inline
    ``<svg>`` scaled by CSS (``viewBox``), with its label for screen readers."""
    code = segno.make(text, error="m", micro=False)
    svg: str = code.svg_inline(scale=1, border=4, dark="#000", light="#fff", title=label, svgclass="qr",
                               lineclass=None, omitsize=True)
    return svg.replace("<svg ", '<svg role="img" aria-label="' + label + '" ', 1)
