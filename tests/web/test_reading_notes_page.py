"""The ruling page shows how the record was read, ply by ply (issue 20): every reading beyond plain SAN."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

# 6...c4 is dxc4 written without its mark; 7.O‑O is castling with U+2011 non-breaking hyphens
RECORD = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. d4 d5 6. c4 c4 7. e3 e6 8. Be2 Be7 9. Nf3 Nf6 10. O\u2011O"


def test_the_ruling_page_lists_each_reading_with_its_ply(client: FlaskClient) -> None:
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": RECORD}
    response = client.post("/claims", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    page = html.unescape(client.get(response.headers["Location"]).get_data(as_text=True))
    words = re.sub(r"<[^>]+>", "", page)
    assert "How the record was read" in words
    assert "6... dxc4 (ply 12, written c4): c4 is written without a capture mark; read as the capture dxc4" in words
    assert "10. O-O (ply 19, written O\u2011O): U+2011 (non-breaking hyphen) read as a hyphen" in words
    assert "ply=12#line-game" in page, "each reading links to its position"


def test_a_plain_record_shows_no_readings(client: FlaskClient) -> None:
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"}
    response = client.post("/claims", data=data)
    assert "How the record was read" not in client.get(response.headers["Location"]).get_data(as_text=True)


def test_the_claim_form_offers_every_language(client: FlaskClient) -> None:
    form = client.post("/claims/form", data={"game": "chess", "claim": "threefold-repetition"}).get_data(as_text=True)
    for name in ("Ukrainian (Кр Ф Т С К)", "Bulgarian (Ц Д Т О К)", "Romanian (R D T N C)", "Greek (Ρ Β Π Α Ι)"):
        assert name in html.unescape(form)
