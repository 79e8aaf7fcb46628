"""A printed table card carries a QR code of its table's entry page: a phone at the table
scans it and opens the right form."""

import re

import pytest
from django.urls import reverse

from ratings.events import services

pytestmark = pytest.mark.django_db


def test_each_table_card_has_a_qr_code_of_its_entry_page(client, night):
    drawn = services.round_draw(event=night)
    page = client.get(reverse("ratings:round_cards", args=[night.pk, 1])).content.decode()

    entry = reverse("ratings:game_new", args=[night.league.slug])
    for table in drawn.tables.all():
        url = f"http://testserver{entry}?table={table.pk}"
        assert f'<a class="card-qr" href="{url}"' in page
    assert len(re.findall(r'<svg viewBox="[^"]+" class="table-qr">', page)) == 3


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules an SVG path of segno draws: "M x y" then "h n" runs and "m dx dy"."""
    path = re.search(r' d="([^"]+)"', svg).group(1)
    dark, x, y = set(), 0.0, 0.0
    for op, args in re.findall(r"([Mmh])([-\d. ]+)", path):
        numbers = [float(n) for n in args.split()]
        if op == "M":
            x, y = numbers
        elif op == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            dark |= {(int(x) + i, int(y)) for i in range(int(numbers[0]))}
            x += numbers[0]
    return dark


def test_the_qr_code_is_the_url_s_code():
    """The drawn modules are those of the URL's QR code (border of 4 modules)."""
    import segno

    from ratings.events.qr import qr_svg

    url = "http://club.example/leagues/friday/games/new/?table=7"
    matrix = segno.make(url, error="m", micro=False).matrix
    expected = {(x + 4, y + 4) for y, row in enumerate(matrix) for x, bit in enumerate(row) if bit}
    assert dark_modules(qr_svg(url)) == expected
