"""ratings.formatting and its template filters: one rounding (half away from zero), one minus sign
(U+2212), no sign on what rounds to zero, the active language's decimal separator."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from ratings import formatting
from ratings.systems import rating_system

MINUS = "\u2212"


def render(source: str, **context) -> str:
    return Template("{% load club_format %}" + source).render(Context(context))


# Rounding ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2.5, 3),
        (-2.5, -3),
        (0.5, 1),
        (-0.5, -1),
        (1.5, 2),
        (3.5, 4),
        (0.49, 0),
        (-0.49, 0),
        (1002.5, 1003),
        (997.5, 998),
        (-27.4, -27),
    ],
)
def test_whole_rounds_half_away_from_zero(value, expected):
    assert formatting.whole(value) == expected


def test_it_rounds_the_decimal_the_number_prints_as():
    # 2.675 is stored as 2.67499999…: Python's round() and "%.2f" give 2.67, people 2.68.
    assert round(2.675, 2) == 2.67
    assert formatting.number_text(2.675) == "2.68"
    assert formatting.decimal_text(-0.0005, 3) == MINUS + "0.001"


# Changes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (2.5, "+3"),
        (-2.5, MINUS + "3"),
        (0.18, "0"),
        (-0.18, "0"),
        (0.49, "0"),
        (0.0, "0"),
        (-0.0, "0"),
        (0.5, "+1"),
        (-27, MINUS + "27"),
        (25.4, "+25"),
        (None, "—"),
    ],
)
def test_a_change_shows_its_sign_unless_it_rounds_to_zero(change, expected):
    assert formatting.change_text(change) == expected


def test_a_change_is_coloured_by_the_league_direction():
    assert formatting.change_html(2.5) == '<span class="better">+3</span>'
    assert formatting.change_html(-2.5) == f'<span class="worse">{MINUS}3</span>'
    # prefko: a lower rating is better, so a fall is the good direction.
    assert formatting.change_html(-27, lower_is_better=True) == (
        f'<span class="better">{MINUS}27</span>'
    )
    assert formatting.change_html(25, lower_is_better=True) == '<span class="worse">+25</span>'


def test_a_change_that_rounds_to_zero_has_no_colour():
    assert formatting.change_html(0.18) == "0"
    assert formatting.change_html(-0.4, lower_is_better=True) == "0"
    assert formatting.change_html(None) == "—"


# Numbers and ratings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (-500, MINUS + "500"),
        (460, "460"),
        (12.5, "12.5"),
        (12.50001, "12.5"),
        (-3, MINUS + "3"),
        (-0.001, "0"),
        (1e16, "10000000000000000"),
    ],
)
def test_a_number_has_a_real_minus_sign_and_at_most_two_decimals(value, expected):
    assert formatting.number_text(value) == expected


def test_a_rating_is_a_whole_number():
    assert formatting.rating_text(1172.5) == "1173"
    assert formatting.rating_text(-12.5) == MINUS + "13"
    assert formatting.rating_text(-0.2) == "0"
    assert formatting.rating_text(None) == "—"


def test_terms_keep_their_decimals_and_sign():
    assert formatting.decimal_text(-19.7, 3, plus=True) == MINUS + "19.7"
    assert formatting.decimal_text(0.3, 3, plus=True) == "+0.3"
    assert formatting.decimal_text(0.0001, 3, plus=True) == "0"
    assert formatting.decimal_text(1000.5, 1, trim=False) == "1000.5"
    assert formatting.decimal_text(1000, 1, trim=False) == "1000.0"


@pytest.mark.parametrize("language", ["sr-latn", "ru"])
def test_serbian_and_russian_write_a_decimal_comma(language):
    with translation.override(language):
        assert formatting.number_text(-27.4) == MINUS + "27,4"
        assert formatting.decimal_text(0.35, 3, plus=True) == "+0,35"
        assert formatting.change_text(-2.5) == MINUS + "3"
        assert render("{{ x|number:4 }} {{ y|score }}", x=-27.4444, y=12.5) == (
            MINUS + "27,4444 12,5"
        )


def test_english_writes_a_decimal_point():
    with translation.override("en"):
        assert formatting.number_text(-27.4) == MINUS + "27.4"


def test_machine_numbers_are_numbers_rounded_the_same_way():
    assert formatting.machine_number(2.5, 0) == 3
    assert isinstance(formatting.machine_number(2.5, 0), int)
    assert formatting.machine_number(2.675, 2) == 2.68
    assert formatting.machine_number(None, 2) is None


# Scores -----------------------------------------------------------------------------------------


def test_a_head_to_head_score_reads_win_draw_or_loss():
    elo = rating_system("elo")
    with translation.override("en"):
        assert [elo.score_text(s) for s in (1.0, 0.5, 0.0)] == ["Win", "Draw", "Loss"]
    assert rating_system("prefko").score_text(-500) == MINUS + "500"


# Template filters -------------------------------------------------------------------------------


def test_the_filters_write_what_the_module_writes(make_league):
    prefko, elo = make_league("prefko"), make_league("elo")
    with translation.override("en"):
        assert render("{{ x|rating }}", x=1002.5) == "1003"
        assert render("{{ x|change:league }}", x=-27, league=prefko) == (
            f'<span class="better">{MINUS}27</span>'
        )
        assert render("{{ x|change:system }}", x=2.5, system=elo.rating_system) == (
            '<span class="better">+3</span>'
        )
        assert render("{{ x|change }}", x=0.18) == "0"
        assert render("{{ x|signed }}", x=-2.5) == MINUS + "3"
        assert render("{{ x|score:league }}", x=1.0, league=elo) == "Win"
        assert render("{{ x|score:league }}", x=-500.0, league=prefko) == MINUS + "500"
        assert render("{{ x|number }}", x=-0.004) == "0"


def test_the_filters_leave_what_is_not_a_number_blank():
    assert render("{{ x|rating }}|{{ x|change }}|{{ x|number }}", x="abc") == "||"
    assert render("{{ missing|rating }}") == ""
    assert render("{{ x|rating }}", x=None) == "—"
    assert render("{{ x|number }}", x=float("inf")) == ""


def test_the_when_filter_writes_the_short_formats(settings):
    settings.TIME_ZONE = "Europe/Belgrade"
    moment = datetime(2026, 11, 15, 17, 30, tzinfo=UTC)
    with translation.override("en"):
        assert render("{{ t|when }}", t=moment) == "2026-11-15 18:30"
        assert render('{{ t|when:"date" }}', t=moment) == "2026-11-15"
    with translation.override("sr-latn"):
        assert render("{{ t|when }}", t=moment) == render(
            '{{ t|date:"SHORT_DATETIME_FORMAT" }}', t=moment
        )


@pytest.mark.parametrize(
    ("language", "points", "expected"),
    [
        ("en", 1, "1 point"),
        ("en", 0, "0 points"),
        ("en", 3, "3 points"),
        ("en", 1.5, "1.5 points"),
        ("ru", 1, "1 балл"),
        ("ru", 2, "2 балла"),
        ("ru", 5, "5 баллов"),
        ("ru", 1.5, "1,5 балла"),
        ("sr-latn", 1, "1 bod"),
        ("sr-latn", 4, "4 boda"),
        ("sr-latn", 0, "0 bodova"),
    ],
)
def test_a_club_nights_points_read_with_their_word(language, points, expected):
    """The event page wrote "1 pts"."""
    with translation.override(language):
        assert Template("{% load club_format %}{{ p|points }}").render(Context({"p": points})) == (
            expected
        )


def test_a_rating_and_change_keep_the_decimals_their_system_asks_for():
    assert formatting.rating_text(7.25, 1) == "7.3"
    assert formatting.rating_text(12.0, 1) == "12.0"  # fixed: a column's decimals line up
    assert formatting.change_text(0.04, 1) == "0.0"
    assert formatting.change_text(-0.35, 1) == MINUS + "0.4"
    assert str(formatting.change_html(0.35, places=1)) == '<span class="better">+0.4</span>'


def test_the_filters_show_openskill_ordinals_to_one_decimal(make_league):
    """OpenSkill's ordinals lie around 0 to 30: whole numbers would hide most differences."""
    hearts, elo = make_league("openskill_highscore"), make_league("elo")
    assert rating_system("openskill_highscore").rating_places == 1
    assert rating_system("prefko").rating_places == 0
    with translation.override("en"):
        assert render("{{ x|rating:league }}", x=7.25, league=hearts) == "7.3"
        assert render("{{ x|rating:league }}", x=7.25, league=elo) == "7"
        assert render("{{ x|rating:system }}", x=7.25, system=hearts.rating_system) == "7.3"
        assert render("{{ x|signed:league }}", x=-0.35, league=hearts) == MINUS + "0.4"
        assert render("{{ x|change:league }}", x=1.25, league=hearts) == (
            '<span class="better">+1.3</span>'
        )
    with translation.override("ru"):
        assert render("{{ x|rating:league }}", x=7.25, league=hearts) == "7,3"


@pytest.mark.parametrize("language", ["en", "sr-latn", "ru"])
@pytest.mark.parametrize("zone", ["UTC", "Europe/Belgrade", "America/New_York"])
def test_date_texts_write_what_date_format_writes(language, zone):
    """The fast path for a page's hundreds of dates gives Django's texts, for every format
    character, across a change of clocks (2026-03-29 and 2026-10-25 in Belgrade)."""
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from django.utils import timezone
    from django.utils.formats import date_format

    formats = [
        "DATE_FORMAT",
        "SHORT_DATE_FORMAT",
        "TIME_FORMAT",
        "SHORT_DATETIME_FORMAT",
        "MONTH_DAY_FORMAT",
        "YEAR_MONTH_FORMAT",
        "Y",
        r"\Y\e\s j. N E F M b D l S w z W t L o y n m d a A f g G h H i s u e I O P r T Z U c",
    ]
    start = datetime(2026, 3, 28, 22, 45, 30, 123456, tzinfo=UTC)
    with translation.override(language), timezone.override(ZoneInfo(zone)):
        for hours in range(0, 24 * 220, 7):
            moment = timezone.localtime(start + timedelta(hours=hours))
            expected = [date_format(moment, name) for name in formats]
            assert formatting.date_texts(moment, *formats) == expected
        assert formatting.date_texts(start.date(), "DATE_FORMAT") == [
            date_format(start.date(), "DATE_FORMAT")
        ]


def test_a_days_text_is_the_date_format_in_the_active_language():
    """A day's text is kept per language: switching languages does not give the last one's."""
    from datetime import date, timedelta

    from django.utils.formats import date_format

    days = [date(2026, 1, 1) + timedelta(days=n) for n in range(0, 400, 9)]
    for language in ["en", "ru", "sr-latn", "en"]:
        with translation.override(language):
            for day in days:
                assert formatting.date_text(day) == date_format(day, "DATE_FORMAT")
