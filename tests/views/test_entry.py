"""Entering games through the browser: the preview step, refusals, new players, double submits."""

import uuid
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine
from ratings.models import Game, League, Player, Result, Standing, System
from tests.builders import (
    FUZZ,
    IMG,
    SCRIPT,
    assert_escaped,
    check_then_save,
    entry_post,
    entry_url,
    form_errors,
    table_counts,
)
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


def preview_then_save(client, league, data):
    """Post like a member does: check scores, then press Save on the preview."""
    data = {"submission_key": str(uuid.uuid4()), **data}  # a fresh page, unless data has its key
    preview = client.post(entry_url(league), {**data, "preview": "1"})
    assert preview.status_code == 200
    token = preview.context["form"]["previewed"].value()
    assert token
    return client.post(entry_url(league), {**data, "previewed": token, "save": "1"})


def test_anonymous_visitor_is_sent_to_login(client, worked_example_league):
    response = client.get(entry_url(worked_example_league))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_member_sees_an_empty_paper(member_client, worked_example_league):
    response = member_client.get(entry_url(worked_example_league))
    assert response.status_code == 200
    assert b'name="left_0"' in response.content
    assert b'name="submission_key"' in response.content


def test_a_checkbox_label_reads_as_a_sentence_and_a_box_label_ends_in_a_colon(
    member_client, worked_example_league
):
    html = member_client.get(reverse("ratings:game_new", args=[worked_example_league.slug]))
    html = html.content.decode()
    label = "Ended early (time limit or written-off bula)"
    assert f'<label for="id_ended_early">{label}</label>' in html
    assert '<label for="id_played_at">Played at:</label>' in html


def test_preview_shows_final_scores_and_changes_before_anything_is_saved(
    member_client, worked_example_league, worked_example_players
):
    response = entry_post(member_client, worked_example_league, WORKED_EXAMPLE_FORM, preview="1")
    assert response.status_code == 200
    rows = response.context["preview"]
    assert [row["score"] for row in rows] == [-500, 40, 460]
    assert [row["after"] for row in rows] == [1173, 1152, 1125]
    assert not Game.objects.exists()


def test_the_worked_example_saved_shows_the_game_page(
    member_client, member_user, worked_example_league, worked_example_players
):
    response = preview_then_save(member_client, worked_example_league, WORKED_EXAMPLE_FORM)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    results = list(game.results.order_by("seat"))
    assert [r.score for r in results] == [-500, 40, 460]
    assert [r.rating_after for r in results] == [1173, 1152, 1125]
    assert game.entered_by == member_user


def test_save_without_preview_of_this_data_shows_the_preview_instead(
    member_client, worked_example_league, worked_example_players
):
    response = entry_post(
        member_client, worked_example_league, WORKED_EXAMPLE_FORM, save="1", previewed="forged"
    )
    assert response.status_code == 200
    assert response.context["preview"]
    assert not Game.objects.exists()


def test_changing_data_after_the_preview_needs_a_new_preview(
    member_client, worked_example_league, worked_example_players
):
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}
    preview = member_client.post(entry_url(worked_example_league), {**data, "preview": "1"})
    token = preview.context["form"]["previewed"].value()
    changed = {**data, "left_0": "300", "previewed": token, "save": "1"}
    response = member_client.post(entry_url(worked_example_league), changed)
    assert response.status_code == 200
    assert not Game.objects.exists()


def test_double_submit_records_one_game(
    member_client, worked_example_league, worked_example_players
):
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}
    preview = member_client.post(entry_url(worked_example_league), {**data, "preview": "1"})
    token = preview.context["form"]["previewed"].value()
    first = member_client.post(
        entry_url(worked_example_league), {**data, "previewed": token, "save": "1"}
    )
    second = member_client.post(
        entry_url(worked_example_league), {**data, "previewed": token, "save": "1"}
    )
    assert first["Location"] == second["Location"]
    assert Game.objects.count() == 1
    assert Result.objects.count() == 3


def test_new_player_is_created_with_the_game_without_leaving_the_form(
    member_client, worked_example_league
):
    data = {**WORKED_EXAMPLE_FORM, "player_2": "Đorđe Novi"}
    preview = entry_post(member_client, worked_example_league, data, preview="1")
    assert [row["new"] for row in preview.context["preview"]] == [True, True, True]
    assert not Player.objects.exists()
    preview_then_save(member_client, worked_example_league, data)
    assert set(Player.objects.values_list("name", flat=True)) == {"Pedja", "Marko", "Đorđe Novi"}
    assert Standing.objects.filter(league=worked_example_league, games=1).count() == 3


def test_existing_player_is_matched_whatever_the_case(
    member_client, worked_example_league, worked_example_players
):
    preview_then_save(
        member_client, worked_example_league, {**WORKED_EXAMPLE_FORM, "player_0": "  pedja "}
    )
    assert Player.objects.count() == 3


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"player_1": "Pedja"}, "player_1", "already sits in seat 1"),
        ({"player_2": ""}, "player_2", "Every seat needs a player"),
        ({"left_0": "12.5"}, "left_0", "whole number"),
        ({"left_0": "abc"}, "left_0", "whole number"),
        ({"right_1": "-10"}, "right_1", "never negative"),
        ({"bula": "0"}, "bula", "above zero"),
        ({"bula": "-5"}, "bula", "above zero"),
        ({"middle_0": "99999999999"}, "middle_0", "less than or equal"),
        ({"played_at": "yesterday"}, "played_at", "valid date"),
        ({"played_at": "2999-01-01T10:00"}, "played_at", "future"),
        ({"player_0": "<>!"}, "player_0", "letter or digit"),
    ],
)
def test_paper_form_refuses_bad_input_on_the_field(
    member_client, worked_example_league, worked_example_players, change, field, message
):
    response = entry_post(
        member_client, worked_example_league, {**WORKED_EXAMPLE_FORM, **change}, save="1"
    )
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors.get(field, []))
    assert message in errors
    assert not Game.objects.exists()


def test_middle_column_error_explains_why_and_ended_early_allows_it(
    member_client, worked_example_league, worked_example_players
):
    response = entry_post(
        member_client, worked_example_league, {**WORKED_EXAMPLE_FORM, "middle_2": "17"}, preview="1"
    )
    form = response.context["form"]
    assert "the game ends when the bulas add up to zero" in " ".join(form.non_field_errors())
    # Said once, for the column: not under each Middle box, which are only marked invalid.
    assert not any(f"middle_{seat}" in form.errors for seat in range(3))
    assert response.content.decode().count("The middle column sums to 1") == 2  # summary, paper
    preview_then_save(
        member_client,
        worked_example_league,
        {**WORKED_EXAMPLE_FORM, "middle_2": "17", "ended_early": "on"},
    )
    assert Game.objects.get().ended_early


def test_duel_form_records_a_draw(member_client):
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO, start_rating=1600)
    preview_then_save(
        member_client,
        league,
        {"played_at": "2026-03-12T21:30", "player_0": "Ana", "player_1": "Bo", "outcome": "draw"},
    )
    assert sorted(Result.objects.values_list("score", flat=True)) == [0.5, 0.5]


def test_scored_form_ignores_empty_rows_and_needs_two_players(member_client):
    league = League.objects.create(
        name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE, game_name="Hearts"
    )
    data = {"played_at": "2026-03-12T21:30", "player_0": "Ana", "score_0": "26"}
    response = entry_post(member_client, league, data, preview="1")
    assert "at least two players" in " ".join(response.context["form"].non_field_errors())
    preview_then_save(member_client, league, {**data, "player_3": "Bo", "score_3": "0"})
    game = Game.objects.get()
    assert list(game.results.order_by("seat").values_list("player__name", "score")) == [
        ("Ana", 26.0),
        ("Bo", 0.0),
    ]


def test_scored_form_needs_a_score_for_every_named_player(member_client):
    league = League.objects.create(name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE)
    data = {"played_at": "2026-03-12T21:30", "player_0": "Ana", "score_0": "26", "player_1": "Bo"}
    response = entry_post(member_client, league, data, preview="1")
    assert "needs a score" in " ".join(response.context["form"].errors["score_1"])


def test_member_can_add_a_player_and_return_to_the_form(member_client, worked_example_league):
    back = entry_url(worked_example_league)
    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Mila", "birth_date": "2010-04-01", "next": back}
    )
    assert response["Location"] == back
    assert Player.objects.get().name == "Mila"


def test_player_form_refuses_a_name_the_club_has(member_client, worked_example_players):
    response = member_client.post(reverse("ratings:player_new"), {"name": "PEDJA"})
    assert "already has a player" in " ".join(response.context["form"].errors["name"])


def test_player_form_ignores_an_offsite_next(member_client):
    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Mila", "next": "https://evil.example/"}
    )
    assert response["Location"] == Player.objects.get().get_absolute_url()


# Birth dates at the entry forms ------------------------------------------------------------------


def test_the_player_form_refuses_a_birth_date_in_the_future(member_client):
    tomorrow = timezone.localdate() + timedelta(days=1)

    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Ana", "birth_date": tomorrow.isoformat()}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["birth_date"] == [
        "A birth date cannot be in the future."
    ]


def test_a_fide_game_before_a_players_birth_date_is_refused_at_the_preview(
    member_client, make_league, make_player
):
    """A birth date after the game: FIDE clamped the age to 0 (junior K, silently) and the admin
    then refused to save the player; the preview now says why, no 500, nothing saved."""
    league = make_league(System.FIDE, name="Chess")
    make_player("Ana", birth_date=datetime(2026, 1, 1).date())
    make_player("Bo")
    url = reverse("ratings:game_new", args=[league.slug])
    data = {
        "submission_key": "8c0f4a52-8d0e-4a2f-9b39-8e1a6fbd3f11",
        "played_at": "2025-06-01T20:00",
        "player_0": "Ana",
        "player_1": "Bo",
        "outcome": "1",
        "preview": "1",
    }

    preview = member_client.post(url, data)

    assert preview.status_code == 200
    assert "born on 2026-01-01" in " ".join(preview.context["form"].non_field_errors())
    assert not preview.context["preview"]
    assert not Game.objects.filter(league=league).exists()


# The paper form -----------------------------------------------------------------------------------


def without_seat(seat: int) -> dict:
    return {
        key: value for key, value in WORKED_EXAMPLE_FORM.items() if not key.endswith(f"_{seat}")
    }


PAPER_CASES = [
    ("a word for a number", {"left_0": "abc"}, "Enter a whole number"),
    ("a decimal", {"left_0": "12.5"}, "Enter a whole number"),
    ("an exponent", {"middle_0": "1e3"}, "Enter a whole number"),
    ("hexadecimal", {"right_0": "0x10"}, "Enter a whole number"),
    ("not a number", {"middle_1": "NaN"}, "Enter a whole number"),
    ("a huge number", {"left_0": "9" * 30}, "less than or equal to 1000000"),
    ("a number too long to parse", {"left_1": "9" * 5000}, "Enter a whole number"),
    ("a huge negative middle", {"middle_0": "-" + "9" * 30}, "greater than or equal to"),
    ("a negative side column", {"right_1": "-10"}, "never negative"),
    ("bula 0", {"bula": "0"}, "above zero"),
    ("a negative bula", {"bula": "-30"}, "above zero"),
    ("a huge bula", {"bula": "9" * 20}, "less than or equal to 10000"),
    ("a bula in words", {"bula": "thirty"}, "Enter a whole number"),
    ("no bula", {"bula": ""}, "This field is required"),
    ("a player twice", {"player_1": "PEDJA"}, "already sits in seat 1"),
    ("a name of punctuation", {"player_0": "<>!"}, "letter or digit"),
    ("a name too long", {"player_0": "x" * 61}, "at most 60 characters"),
    ("a NUL in a name", {"player_0": "Ped\x00ja"}, "Null characters are not allowed"),
    ("a control character", {"player_0": "Ped\x07ja"}, "control characters"),
    ("a DEL character", {"player_0": "Ped\x7fja"}, "control characters"),
    ("a right-to-left override", {"player_0": "Pedja \u202eokraM"}, "text-direction"),
    ("an unreadable character", {"player_0": "Ped\ufffdja"}, "could not be read"),
    ("an impossible date", {"played_at": "2026-02-30T21:30"}, "Enter a valid date/time"),
    ("a date far ahead", {"played_at": "9999-12-31T23:59"}, "future"),
    ("a date before the club", {"played_at": "0001-01-01T00:00"}, "too long ago"),
    ("a NUL in the note", {"note": "a\x00b"}, "Null characters are not allowed"),
    ("a note too long", {"note": "x" * 201}, "at most 200 characters"),
    ("an unbalanced middle column", {"middle_2": "17"}, "sums to 1"),
]


@pytest.mark.parametrize(
    ("case", "change", "message"), PAPER_CASES, ids=[c[0] for c in PAPER_CASES]
)
def test_the_paper_form_refuses_hostile_input(member_client, friday_league, case, change, message):
    before = table_counts()

    response = check_then_save(
        member_client, entry_url(friday_league), {**WORKED_EXAMPLE_FORM, **change}
    )

    assert response.status_code == 200
    assert message in form_errors(response)
    assert table_counts() == before


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_paper_form_refuses_a_missing_seat(member_client, friday_league, seat):
    before = table_counts()

    response = check_then_save(member_client, entry_url(friday_league), without_seat(seat))

    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors[f"player_{seat}"])
    assert errors == "Every seat needs a player."
    assert table_counts() == before


@pytest.mark.parametrize("typed", ["Đorđe", "đorđe", "ĐORĐE"])
def test_a_player_whose_name_starts_with_a_non_ascii_capital_is_found(member_client, typed):
    """SQLite's LOWER() leaves "Đ" alone: the name must still find the player, not a 500."""
    league = League.objects.create(name="Friday", slug="friday", system=System.PREFKO)
    dorde = Player.objects.create_named("Đorđe")
    data = {**WORKED_EXAMPLE_FORM, "player_0": typed}

    preview = member_client.post(
        entry_url(league), {**data, "submission_key": str(uuid.uuid4()), "preview": "1"}
    )
    response = check_then_save(member_client, entry_url(league), data)

    assert [row["new"] for row in preview.context["preview"]][0] is False
    assert response.status_code == 302
    assert Game.objects.get().results.get(seat=0).player == dorde
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Johnny", "Marko", "Đorđe"]


def test_an_empty_post_is_a_form_error(member_client, friday_league):
    before = table_counts()

    response = member_client.post(entry_url(friday_league), {})

    assert response.status_code == 200
    assert "This field is required" in form_errors(response)
    assert table_counts() == before


def test_a_forged_submission_key_is_a_form_error(member_client, friday_league):
    before = table_counts()

    response = member_client.post(
        entry_url(friday_league), {**WORKED_EXAMPLE_FORM, "submission_key": "'; DROP--"}
    )

    assert response.status_code == 200
    assert "Enter a valid UUID" in form_errors(response)
    assert table_counts() == before


def test_a_forged_preview_token_saves_nothing(member_client, friday_league):
    before = table_counts()
    data = {
        **WORKED_EXAMPLE_FORM,
        "submission_key": str(uuid.uuid4()),
        "save": "1",
        "previewed": "0" * 64,
    }

    response = member_client.post(entry_url(friday_league), data)

    assert response.status_code == 200
    assert response.context["preview"]  # shown again, to be checked first
    assert table_counts() == before


def test_a_date_long_ago_is_refused_in_a_time_zone_ahead_of_utc(
    member_client, friday_league, settings
):
    """Year 1 in Belgrade is year 0 in UTC: Python cannot store it, so the form must refuse."""
    settings.TIME_ZONE = "Europe/Belgrade"
    before = table_counts()

    response = check_then_save(
        member_client,
        entry_url(friday_league),
        {**WORKED_EXAMPLE_FORM, "played_at": "0001-01-01T00:30"},
    )

    assert response.status_code == 200
    assert "too long ago" in form_errors(response)
    assert table_counts() == before


@pytest.mark.parametrize("seats", ["-5", "0", "abc", "9" * 40, "1e9"])
def test_the_scored_form_survives_any_number_of_rows(member_client, hearts_league, seats):
    response = member_client.get(entry_url(hearts_league), {"seats": seats})

    assert response.status_code == 200
    assert 2 <= response.context["form"].seat_count <= 50


SCORED_CASES = [
    ("not a number", {"score_0": "NaN"}, "Enter a whole number"),
    ("infinity", {"score_0": "inf"}, "Enter a whole number"),
    ("an overflowing exponent", {"score_1": "1e999"}, "Enter a whole number"),
    ("a fraction", {"score_1": "10.5"}, "Enter a whole number"),
    ("a huge score", {"score_0": "10000000000"}, "less than or equal to"),
    ("a word", {"score_1": "lots"}, "Enter a whole number"),
    ("a missing score", {"score_1": ""}, "Every player needs a score"),
    ("a player twice", {"player_1": "anna"}, "is already player 1"),
    ("one player", {"player_1": "", "score_1": ""}, "at least two players"),
]


@pytest.mark.parametrize(
    ("case", "change", "message"), SCORED_CASES, ids=[c[0] for c in SCORED_CASES]
)
def test_the_scored_form_refuses_hostile_input(member_client, hearts_league, case, change, message):
    data = {
        "played_at": "2026-03-12T21:30",
        "player_0": "Anna",
        "score_0": "26",
        "player_1": "Bojan",
        "score_1": "3",
    }
    before = table_counts()

    response = check_then_save(member_client, entry_url(hearts_league), {**data, **change})

    assert response.status_code == 200
    assert message in form_errors(response)
    assert table_counts() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"outcome": "2"}, "Select a valid choice"),
        ({"outcome": ""}, "This field is required"),
        ({"player_1": "ANA"}, "is already player 1"),
    ],
)
def test_the_duel_form_refuses_hostile_input(member_client, chess_league, change, message):
    data = {"played_at": "2026-03-12T21:30", "player_0": "Ana", "player_1": "Bo", "outcome": "1"}
    before = table_counts()

    response = check_then_save(member_client, entry_url(chess_league), {**data, **change})

    assert response.status_code == 200
    assert message in form_errors(response)
    assert table_counts() == before


# The player form --------------------------------------------------------------------------------

PLAYER_CASES = [
    ("no name", {"name": ""}, "This field is required"),
    ("only spaces", {"name": "   "}, "This field is required"),
    ("a name too long", {"name": "x" * 61}, "at most 60 characters"),
    ("a name the club has", {"name": "  pedja "}, "already has a player called"),
    ("punctuation only", {"name": "!!!"}, "letter or digit"),
    ("a NUL", {"name": "a\x00b"}, "Null characters are not allowed"),
    ("a terminal escape", {"name": "\x1b[31mAna"}, "control characters"),
    ("an unreadable character", {"name": "Ana\ufffd"}, "could not be read"),
    ("an impossible birth date", {"name": "Ana", "birth_date": "2026-13-45"}, "valid date"),
    ("a five-digit year", {"name": "Ana", "birth_date": "99999-01-01"}, "valid date"),
    ("a birth date ahead", {"name": "Ana", "birth_date": "2999-01-01"}, "future"),
    ("a birth date before 1900", {"name": "Ana", "birth_date": "0001-01-01"}, "1900"),
]


@pytest.mark.parametrize(
    ("case", "data", "message"), PLAYER_CASES, ids=[c[0] for c in PLAYER_CASES]
)
def test_the_player_form_refuses_hostile_input(member_client, friday_league, case, data, message):
    before = table_counts()

    response = member_client.post(reverse("ratings:player_new"), data)

    assert response.status_code == 200
    assert message in form_errors(response)
    assert table_counts() == before


def test_the_player_form_does_not_redirect_off_site(member_client, friday_league):
    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Ana", "next": "https://evil.example/"}
    )

    assert response.status_code == 302
    assert response["Location"] == Player.objects.get(name="Ana").get_absolute_url()


# Names with HTML in the entry form ---------------------------------------------------------------


def test_html_names_are_escaped_in_the_entry_preview(member_client, friday_league):
    data = {**WORKED_EXAMPLE_FORM, "player_0": SCRIPT, "player_1": IMG}

    response = member_client.post(
        entry_url(friday_league), {**data, "submission_key": str(uuid.uuid4()), "preview": "1"}
    )

    assert response.context["preview"]
    assert_escaped(response)


def test_html_names_are_escaped_in_the_entry_form_suggestions(member_client, hostile_club):
    league, _players, _game = hostile_club

    assert_escaped(member_client.get(entry_url(league)))


# Fuzzers ----------------------------------------------------------------------------------------

NUMBERISH = st.one_of(
    st.integers(min_value=-50, max_value=400).map(str),
    st.integers().map(str),
    st.text(max_size=12),
    st.sampled_from(["", " ", "0", "-0", "1e3", "12.5", "NaN", "٣", "9" * 25, "-" + "9" * 25]),
)
NAMES = st.one_of(
    st.sampled_from(
        ["Pedja", "Marko", "Johnny", "pedja", "Ana", "", SCRIPT, "=1+1", "Đorđe", "ĐORĐE", "Åsa"]
    ),
    st.text(max_size=70),
)


@st.composite
def paper_posts(draw) -> dict:
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": draw(
            st.one_of(
                st.sampled_from(["2026-03-12T21:30", "2026-03-12", "2999-01-01T00:00", ""]),
                st.datetimes().map(lambda moment: moment.strftime("%Y-%m-%dT%H:%M")),
                st.text(max_size=20),
            )
        ),
        "bula": draw(NUMBERISH),
        "note": draw(st.text(max_size=210)),
    }
    if draw(st.booleans()):
        data["ended_early"] = "on"
    for seat in range(3):
        if draw(st.integers(0, 9)) == 0:
            continue  # a missing seat
        data[f"player_{seat}"] = draw(NAMES)
        for column in ("left", "middle", "right"):
            data[f"{column}_{seat}"] = draw(NUMBERISH)
    if draw(st.booleans()):
        # A paper that adds up, so some examples get through to the save.
        a, b = draw(st.integers(-40, 40)), draw(st.integers(-40, 40))
        for seat, middle in enumerate((a, b, -a - b)):
            data[f"middle_{seat}"] = str(middle)
    return data


def ratings(friday_league) -> list[tuple]:
    results = Result.objects.filter(game__league=friday_league).order_by("pk")
    standings = Standing.objects.filter(league=friday_league).order_by("pk")
    return [
        *results.values_list("pk", "rating_before", "rating_after"),
        *standings.values_list("pk", "rating", "games"),
    ]


def assert_game_is_valid(game: Game) -> None:
    results = list(game.results.order_by("seat"))
    assert len(results) == 3
    assert len({r.player_id for r in results}) == 3
    assert game.bula is not None and game.bula > 0
    assert all(r.left >= 0 and r.right >= 0 for r in results)
    assert sum(r.middle for r in results) == 0 or game.ended_early


@FUZZ
@given(data=paper_posts())
def test_fuzzed_paper_posts_never_fail_and_store_only_valid_games(
    member_client, friday_league, data
):
    before = table_counts()

    response = check_then_save(member_client, entry_url(friday_league), data)

    if response.status_code == 302:
        game = Game.objects.latest("id")
        assert response["Location"] == game.get_absolute_url()
        assert_game_is_valid(game)
        # Whatever the date, the league's ratings are those of a replay from scratch.
        stored = ratings(friday_league)
        engine.league_recompute(league=friday_league)
        assert ratings(friday_league) == stored
    else:
        assert response.status_code == 200
        assert table_counts() == before


@FUZZ
@given(body=st.binary(max_size=2000))
def test_fuzzed_raw_bodies_never_fail(member_client, friday_league, body):
    before = table_counts()

    response = member_client.post(
        entry_url(friday_league), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code in (200, 400)
    assert table_counts() == before


# The same page saved twice ----------------------------------------------------------------------
# Back after saving, then the next game typed into the same page: the same submission_key with
# other scores answered "Game saved and rated." and linked the first game; the second was lost.


def test_the_same_page_sent_again_with_another_game_is_not_dropped(member_client):
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO)
    first = {
        "submission_key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "player_0": "Ana",
        "player_1": "Bo",
        "outcome": "draw",
    }
    preview_then_save(member_client, league, first)
    again = {**first, "played_at": "2026-03-12T22:30", "outcome": "1"}
    preview = member_client.post(entry_url(league), {**again, "preview": "1"})
    token = preview.context["form"]["previewed"].value()

    refused = member_client.post(entry_url(league), {**again, "previewed": token, "save": "1"})

    assert refused.status_code == 200
    assert "saved already, as game #" in refused.content.decode()
    assert Game.objects.count() == 1
    form = refused.context["form"]
    assert str(form["submission_key"].value()) != first["submission_key"]
    resent = {**again, "submission_key": form["submission_key"].value()}
    saved = member_client.post(
        entry_url(league), {**resent, "previewed": form["previewed"].value(), "save": "1"}
    )
    assert saved.status_code == 302
    assert Game.objects.count() == 2


def test_the_same_page_sent_again_with_the_same_game_is_the_first_game(member_client):
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO)
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "player_0": "Ana",
        "player_1": "Bo",
        "outcome": "draw",
    }
    first = preview_then_save(member_client, league, data)
    second = preview_then_save(member_client, league, data)

    assert first.status_code == second.status_code == 302
    assert first.url == second.url
    assert Game.objects.count() == 1


def test_a_middle_column_below_zero_is_a_played_out_game_not_ended_early(
    member_client, worked_example_league
):
    # The last deal took the bulas below zero: the game is over, and not ended early.
    data = {**WORKED_EXAMPLE_FORM, "middle_2": "10", "preview": "1"}
    response = entry_post(member_client, worked_example_league, data)
    assert not response.context["form"].errors


def test_a_head_to_head_game_is_checked_for_its_result(member_client, make_league):
    chess, pref = make_league(System.ELO), make_league(System.PREFKO)
    chess_page = member_client.get(entry_url(chess)).content
    pref_page = member_client.get(entry_url(pref)).content
    assert b"Check the result</button>" in chess_page
    assert b"Check scores" not in chess_page
    assert b"Check scores</button>" in pref_page


def test_the_papers_starting_bula_is_the_leagues_usual_one(
    member_client, worked_example_league, worked_example_game
):
    url = reverse("ratings:game_new", args=[worked_example_league.slug])
    assert member_client.get(url).context["form"]["bula"].value() == 30
    # The club plays to 50 now: its latest games say so.
    Game.objects.filter(pk=worked_example_game.pk).update(bula=50)
    assert member_client.get(url).context["form"]["bula"].value() == 50
