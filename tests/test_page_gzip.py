"""A page gzipped in pieces (ratings/page_gzip.py) reads back as the page with its marks filled,
as one gzip member, whatever the page and its fills."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ratings import page_gzip
from tests.builders import one_gzip_member

MARKS = re.compile(rb"<!--m:[ab]-->")
pieces = st.lists(st.binary(max_size=3000) | st.text(max_size=500).map(str.encode), max_size=6)
marks = st.lists(st.sampled_from([b"<!--m:a-->", b"<!--m:b-->"]), max_size=6)


@given(pieces, marks, st.binary(max_size=200), st.binary(max_size=200))
def test_the_page_reads_back_with_its_marks_filled(parts, between, a, b):
    content = b"".join(part + mark for part, mark in zip(parts, [*between, b""], strict=False))
    fills = {b"<!--m:a-->": a, b"<!--m:b-->": b}
    packed = page_gzip.gzipped(content, MARKS, fills.__getitem__)
    assert one_gzip_member(packed) == MARKS.sub(lambda match: fills[match.group()], content)


def test_a_page_is_deflated_once_and_each_visitors_fill_at_each_request():
    page = b"<table>" + b"<tr><td>Player</td><td>1.5</td></tr>" * 2000 + b"<!--m:a--></table>"
    page_gzip._pieces.cache_clear()
    first = page_gzip.gzipped(page, MARKS, lambda mark: b"token-one")
    second = page_gzip.gzipped(page, MARKS, lambda mark: b"token-two")
    assert page_gzip._pieces.cache_info().hits == 1
    assert one_gzip_member(first).endswith(b"token-one</table>")
    assert one_gzip_member(second).endswith(b"token-two</table>")
    assert len(first) < len(page) / 20
