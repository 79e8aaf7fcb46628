"""The paper library's answers, as scripts/vectors/paper_vectors.py recorded them."""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path

VECTORS = Path(__file__).parent / "vectors" / "paper.json.gz"


@functools.cache
def paper_vectors() -> dict:
    with gzip.open(VECTORS, "rt") as stream:
        return json.load(stream)


def library_result(answer: dict) -> dict:
    """The library's json and mini in the result format of ``paper_from_deals`` (no finals)."""
    if "error" in answer:
        return {"error": answer["error"]}
    seats = []
    for seat in (1, 2, 3):
        paper = answer["json"][f"p{seat}"]["paper"]
        mini = answer["mini"][f"p{seat}"]["paper"]
        seats.append(
            {
                "seat": seat,
                "left": mini["left"],
                "middle": mini["middle"],
                "right": mini["right"],
                "paper": {column: paper[column] for column in ("left", "middle", "right")},
            }
        )
    return {"seats": seats}
