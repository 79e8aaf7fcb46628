"""Which of a long history's points a chart's line keeps: largest-triangle-three-buckets."""

from __future__ import annotations

from collections.abc import Sequence


def largest_triangle_three_buckets(
    xs: Sequence[float], ys: Sequence[float], keep: int
) -> list[int]:
    """The indices of at most ``keep`` points that draw (almost) the same line as all of them.

    Sveinn Steinarsson's largest-triangle-three-buckets (LTTB, 2013): the first and last points
    stay; the others are cut into ``keep - 2`` buckets of consecutive points, and each bucket
    keeps the point that makes the largest triangle with the point kept before it and the
    average of the next bucket. A peak or a trough makes a large triangle, so it is the point
    its bucket keeps; the line keeps its shape with a few hundred points out of thousands.
    ``xs`` must not decrease. Pure and O(n).
    """
    n = len(xs)
    if keep >= n or n <= 2:
        return list(range(n))
    keep = max(keep, 3)
    size = (n - 2) / (keep - 2)
    chosen = [0]
    previous = 0
    for bucket in range(keep - 2):
        start = int(bucket * size) + 1
        end = int((bucket + 1) * size) + 1
        # The next bucket's average (the last point, for the last bucket).
        next_start, next_end = end, min(int((bucket + 2) * size) + 1, n)
        if next_start >= next_end:
            next_start, next_end = n - 1, n
        count = next_end - next_start
        avg_x = sum(xs[next_start:next_end]) / count
        avg_y = sum(ys[next_start:next_end]) / count
        px, py = xs[previous], ys[previous]
        # Out of the inner loop, which runs for every point: the same products, the same areas.
        to_avg_x, to_avg_y = px - avg_x, avg_y - py
        best, best_area = start, -1.0
        for i in range(start, end):
            # Twice the triangle's area: the factor does not change which is largest.
            area = abs(to_avg_x * (ys[i] - py) - (px - xs[i]) * to_avg_y)
            if area > best_area:
                best, best_area = i, area
        chosen.append(best)
        previous = best
    chosen.append(n - 1)
    return chosen


def extremes(ratings: Sequence[float]) -> list[int]:
    """The first and last points and the (first) highest and lowest rating: always drawn and
    marked."""
    n = len(ratings)
    return sorted({0, n - 1, ratings.index(min(ratings)), ratings.index(max(ratings))})
