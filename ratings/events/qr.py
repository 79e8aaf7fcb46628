"""The QR code on a printed table card: the table's entry page, so a phone at the table opens
the right form (segno writes the code as SVG; no hand-written encoder)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, scale: int = 3) -> SafeString:
    """``url`` as an inline SVG QR code (medium error correction: a creased or stained card
    still scans). The SVG is segno's own markup around the URL's bits: no text of ours goes
    into it, so it is safe to put in the page as it is."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=scale, svgclass="table-qr", lineclass=None, omitsize=True)
    return mark_safe(svg)
