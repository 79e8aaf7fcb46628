"""Nights planned ahead (ratings/events/planning.py): planned, answered, started from the
answers, cancelled, moved; the day-before reminder."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from ratings import engine
from ratings.events import planning, services
from ratings.events.answers import answers_of, upcoming_nights
from ratings.events.models import EventPlayer, EventStatus
from ratings.events.tonight import nights_in_progress
from ratings.models import AuditAction, AuditEntry
from tests.builders import make_night, make_player, next_friday

pytestmark = pytest.mark.django_db


def test_a_planned_night_has_no_players_and_is_not_in_progress(league, organiser):
    night = make_night(league, organiser=organiser, place="Kafana Znak pitanja")
    assert night.status == EventStatus.PLANNED and night.place == "Kafana Znak pitanja"
    assert not EventPlayer.objects.filter(event=night).exists()
    assert night not in nights_in_progress(now=night.starts_at)
    assert upcoming_nights() == [night]
    entry = AuditEntry.objects.get(action=AuditAction.EVENT_CREATE)
    assert entry.after["planned"] is True and entry.after["place"] == "Kafana Znak pitanja"


def test_a_second_answer_replaces_the_first(league, nine):
    night = make_night(league)
    planning.night_answer(event=night, player=nine[0], answer="maybe")
    planning.night_answer(event=night, player=nine[0], answer="coming")
    planning.night_answer(event=night, player=nine[1], answer="no")
    answers = answers_of([night])[night.pk]
    assert answers.coming == [nine[0]] and answers.maybe == [] and answers.no == [nine[1]]


def test_the_night_starts_with_those_coming_and_late_arrivals_join_as_today(
    league, nine, organiser
):
    """The done-when of issue #42: planned for next Friday, two coming and one maybe; the
    organiser starts it with those coming, adds a late arrival, and draws."""
    night = make_night(league, organiser=organiser)
    ana, bojan, dragan, jelena = nine[:4]
    planning.night_answer(event=night, player=ana, answer="coming")
    planning.night_answer(event=night, player=bojan, answer="coming")
    planning.night_answer(event=night, player=dragan, answer="maybe")
    answers = answers_of([night])[night.pk]
    planning.night_start(event=night, players=answers.coming, actor=organiser)
    night.refresh_from_db()
    assert night.status == EventStatus.STARTED and night.sequence == 1
    present = set(EventPlayer.objects.filter(event=night).values_list("player", flat=True))
    assert present == {ana.pk, bojan.pk}
    services.event_players_add(event=night, players=[jelena], actor=organiser)
    drawn = services.round_draw(event=night, actor=organiser)
    assert {s.player_id for t in drawn.tables.all() for s in t.seats.all()} == {
        ana.pk,
        bojan.pk,
        jelena.pk,
    }


def test_a_planned_night_is_neither_drawn_nor_answered_once_started(league, nine):
    night = make_night(league)
    with pytest.raises(ValidationError, match="not started"):
        services.round_draw(event=night)
    planning.night_start(event=night, players=nine[:3])
    with pytest.raises(ValidationError, match="answers are closed"):
        planning.night_answer(event=night, player=nine[4], answer="coming")
    with pytest.raises(ValidationError, match="already started"):
        planning.night_start(event=night, players=nine[:3])
    with pytest.raises(ValidationError, match="close it instead"):
        planning.night_cancel(event=night)


def test_a_cancelled_night_stays_cancelled_with_a_new_sequence(league, nine):
    night = make_night(league)
    planning.night_cancel(event=night)
    night.refresh_from_db()
    assert night.status == EventStatus.CANCELLED and night.sequence == 1
    for refused in (
        lambda: planning.night_answer(event=night, player=nine[0], answer="coming"),
        lambda: planning.night_start(event=night, players=nine[:3]),
        lambda: planning.night_cancel(event=night),
        lambda: services.event_players_add(event=night, players=nine[:1]),
    ):
        with pytest.raises(ValidationError):
            refused()
    assert upcoming_nights() == []


def test_moving_a_night_raises_its_sequence_only_when_time_or_place_change(league):
    night = make_night(league, place="Club")
    planning.night_move(event=night, starts_at=night.starts_at, place="Club")
    night.refresh_from_db()
    assert night.sequence == 0
    later = night.starts_at + timedelta(hours=1)
    planning.night_move(event=night, starts_at=later, place="Club")
    planning.night_move(event=night, starts_at=later, place="Upstairs")
    night.refresh_from_db()
    assert (night.starts_at, night.place, night.sequence) == (later, "Upstairs", 2)


def test_the_reminder_lists_tomorrows_nights_with_who_comes(league, nine, django_user_model):
    friday = next_friday()
    thursday_afternoon = friday - timedelta(hours=30)
    member = django_user_model.objects.create_user("vesna")
    vesna = nine[8]
    vesna.user = member
    vesna.save()
    tomorrow = make_night(league, starts_at=friday)
    make_night(league, name="Next week", starts_at=friday + timedelta(days=7))
    cancelled = make_night(league, name="Cancelled", starts_at=friday + timedelta(hours=1))
    planning.night_cancel(event=cancelled)
    planning.night_answer(event=tomorrow, player=vesna, answer="coming")
    planning.night_answer(event=tomorrow, player=nine[0], answer="maybe")
    planning.night_answer(event=tomorrow, player=nine[1], answer="no")
    reminders = planning.remind_tomorrow(now=thursday_afternoon)
    assert [r.event for r in reminders] == [tomorrow]
    (reminder,) = reminders
    assert reminder.coming == [vesna] and reminder.maybe == [nine[0]]
    assert reminder.members == [member]
    assert planning.remind_tomorrow(now=friday) == []


def test_the_reminder_costs_three_queries(league, nine, django_assert_max_num_queries):
    """Whatever the number of nights: the nights, their answers, the members to tell."""
    friday = next_friday()
    for n in range(3):
        night = make_night(league, name=f"Night {n}", starts_at=friday + timedelta(minutes=n))
        for player in nine:
            planning.night_answer(event=night, player=player, answer="coming")
    with django_assert_max_num_queries(3):
        reminders = planning.remind_tomorrow(now=friday - timedelta(hours=30))
    assert len(reminders) == 3


def test_merging_players_keeps_the_targets_answer(league, nine):
    night = make_night(league)
    other = make_night(league, name="Other", starts_at=night.starts_at + timedelta(days=1))
    source, target = nine[0], make_player("Ana Twin")
    planning.night_answer(event=night, player=source, answer="no")
    planning.night_answer(event=night, player=target, answer="coming")
    planning.night_answer(event=other, player=source, answer="maybe")
    engine.player_merge(source=source, target=target)
    assert answers_of([night])[night.pk].coming == [target]
    assert answers_of([other])[other.pk].maybe == [target]


def test_a_night_is_planned_no_more_than_two_years_ahead(league):
    with pytest.raises(ValidationError):
        make_night(league, starts_at=timezone.now() + timedelta(days=800))


def test_tomorrow_is_the_clubs_tomorrow(league, settings):
    """A night at 00:30 on Saturday in Belgrade is Friday 23:30 in UTC: not Friday's."""
    settings.TIME_ZONE = "Europe/Belgrade"
    belgrade = ZoneInfo("Europe/Belgrade")
    friday = next_friday().astimezone(belgrade).date()
    late = make_night(league, starts_at=datetime.combine(friday, time(23, 30), tzinfo=belgrade))
    make_night(
        league,
        name="After midnight",
        starts_at=datetime.combine(friday + timedelta(days=1), time(0, 30), tzinfo=belgrade),
    )
    thursday = datetime.combine(friday - timedelta(days=1), time(12), tzinfo=belgrade)
    assert [r.event for r in planning.remind_tomorrow(now=thursday)] == [late]
