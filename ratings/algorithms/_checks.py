"""Argument checks shared by the rating systems."""

import math
from numbers import Real


def finite_number(name: str, value: object) -> float:
    """A finite real number (not a bool), returned as a float; ValueError naming it otherwise."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return number
