"""The rating-history chart on a player's page, drawn as SVG on the server.

Pure Python: no database, no JavaScript, no external assets but the club's stylesheet. The
caller hands over one :class:`ChartSeries` per league and gets back markup that can be put
straight into a template. One module per seam: :mod:`~ratings.charts.series` (the points and
their tooltips), :mod:`~ratings.charts.sampling` (which points a long line keeps),
:mod:`~ratings.charts.axes` (round ratings and dates along the axes) and
:mod:`~ratings.charts.svg` (the drawing).

Some choices and why:

- Two layouts: :func:`rating_history_chart` draws the chart for a phone (360 units wide, taller
  for its width) and for a wide screen (720), and ``static/club.css`` shows the one that fits.
  An SVG scales as a whole, so one drawing on a phone was either a strip too small to read or,
  drawn taller, too tall on a desktop. Each is drawn for about its own size, so its text is 13
  units, read as 12 to 18 px.
- The rating labels sit left of the plot, in a margin as wide as the longest label, so no line
  runs over them; the dates sit under it.
- A long history is drawn with a downsampled line: largest-triangle-three-buckets
  (:func:`largest_triangle_three_buckets`) keeps a point per two units of the plot's width,
  and with them the peaks and troughs that give the line its shape (the highest and lowest
  rating always). Markers, each a link to its game with a tooltip, go only where they can be
  told apart (first, last, lowest and highest always): 4,000 games draw a few dozen, not 4,000.
  Every game is still a link in the page's table of games, which pages through all of them.
  Coordinates are rounded to 0.1.
- A history of thousands of games is read as columns (:class:`GamePoints`): the line needs only
  each game's time and rating, and a point's link and tooltip are made for its marker only.
- Series differ in colour, dash pattern and (every other one) hollow markers, so the chart
  still reads without colour vision: classes ``s0`` to ``s7``, styled in ``static/club.css``.
- The chart is one ``role="figure"`` named by a text summary (its ``<title>`` and ``<desc>``);
  the drawing inside is ``aria-hidden``. Its markers are links for mouse and touch but are kept
  out of the tab order (hundreds of tab stops would trap keyboard users) and from screen readers:
  the page's table of games is the accessible way to the same games. (Not ``role="img"``: an
  image's content is presentational, and links inside one are "nested interactive" controls.)
- No ``<style>`` element or ``style`` attribute: the Content Security Policy allows only the
  site's own stylesheets, so every rule, scoped to ``.rating-chart``, is in ``static/club.css``.
"""

from ratings.charts.sampling import largest_triangle_three_buckets
from ratings.charts.series import (
    ChartPoint,
    ChartSeries,
    Correction,
    GamePoints,
    PointTitle,
    RatedGame,
    correction_text,
    day_text,
    history_series,
    point_title,
)
from ratings.charts.svg import (
    MAX_MARKERS,
    PHONE,
    SERIES_STYLES,
    WIDE,
    ChartMarkup,
    rating_history_chart,
    rating_history_svg,
)

__all__ = [
    "MAX_MARKERS",
    "PHONE",
    "SERIES_STYLES",
    "WIDE",
    "ChartMarkup",
    "ChartPoint",
    "ChartSeries",
    "Correction",
    "GamePoints",
    "PointTitle",
    "RatedGame",
    "correction_text",
    "day_text",
    "history_series",
    "largest_triangle_three_buckets",
    "point_title",
    "rating_history_chart",
    "rating_history_svg",
]
