"""A deal's contract and kontra in the page's language, in the words the deal form taps."""

from __future__ import annotations

from django import template

from ratings.papers.forms import CONTRACT_CHOICES, KONTRA_CHOICES

register = template.Library()

CONTRACTS = dict(CONTRACT_CHOICES)
KONTRA_LEVELS = dict(KONTRA_CHOICES)


@register.filter
def contract_name(contract: str) -> str:
    """A contract as the form's button says it: "pik (2)", "пики (2)" in Russian."""
    return str(CONTRACTS.get(contract, contract))


@register.filter
def kontra_name(level: int) -> str:
    """A kontra level (1 to 4) as the form's list says it: "kontra", "контра" in Russian."""
    return str(KONTRA_LEVELS.get(level, ""))


@register.filter
def contract_word(label: object) -> str:
    """A contract's button word without its bid: "pik" of "pik (2)", "без козыря" of "без
    козыря (7)" (the pad shows the value beside it instead)."""
    return str(label).rsplit(" (", 1)[0]
