"""Club nights and tournaments: a league's events, and one with its rounds, tables and
standings; a member's answer to a night planned ahead."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router
from ninja.errors import HttpError
from ninja.responses import Status

from ratings.api.auth import WriteThrottle, require_entry, token_auth
from ratings.api.errors import error_body, refusals
from ratings.api.routers import read
from ratings.api.schemas import EventOut, EventSummary, LeagueSlug, RowId, RsvpIn, RsvpOut
from ratings.events import planning
from ratings.events.answers import answers_of
from ratings.events.models import Event
from ratings.events.selectors import event_page, league_events
from ratings.models import League

router = Router(tags=["events"])


@read(router, "/leagues/{slug}/events", list[EventSummary], 404)
def event_list(request, slug: str = LeagueSlug):
    """The league's events, newest first: two queries."""
    league = get_object_or_404(League, slug=slug)
    return [
        {
            "id": event.pk,
            "name": event.name,
            "starts_at": event.starts_at,
            "status": event.status,
            "place": event.place,
            "closed": event.closed_at is not None,
            "players": event.player_count,
            "rounds": event.round_count,
            "url": request.build_absolute_uri(event.get_absolute_url()),
        }
        for event in league_events(league)
    ]


@read(router, "/events/{event_id}", EventOut, 404)
def event_detail(request, event_id: int = RowId):
    """An event with its rounds, tables (each seat's score, points and rating change once the
    paper is in) and standings: the event page's five queries."""
    try:
        page = event_page(event_id)
    except Event.DoesNotExist:
        raise Http404("No such event") from None
    event = page.event
    return {
        "id": event.pk,
        "league": event.league.slug,
        "name": event.name,
        "starts_at": event.starts_at,
        "status": event.status,
        "place": event.place,
        "closed": event.closed_at is not None,
        "url": request.build_absolute_uri(event.get_absolute_url()),
        "rounds": [
            {
                "number": round_.number,
                "closed": round_.closed_at is not None,
                "tables": [
                    {
                        "number": table.number,
                        "game_id": table.game_id,
                        "not_played": table.not_played,
                        "seats": [
                            {
                                "seat": seat.seat + 1,
                                "player": seat.player.name,
                                "player_slug": seat.player.slug,
                                "final": seat.score,
                                "points": seat.points,
                                "rating_change": seat.change,
                            }
                            for seat in table.seats
                        ],
                    }
                    for table in round_.tables
                ],
                "byes": [player.slug for player in round_.byes],
            }
            for round_ in page.rounds
        ],
        "standings": [
            {
                "place": row.place,
                "player": row.player.name,
                "player_slug": row.player.slug,
                "points": row.points,
                "total": row.total,
                "games": row.games,
                "rating_change": row.rating_change,
            }
            for row in page.standings
        ],
    }


@router.post(
    "/events/{event_id}/rsvp",
    response={200: RsvpOut, **refusals(400, 401, 403, 404, 413, 429)},
    auth=token_auth,
    throttle=WriteThrottle(),
)
def event_rsvp(request, rsvp: RsvpIn, event_id: int = RowId):
    """Answer a night planned ahead as the token's member (their linked player): ``coming``,
    ``maybe`` or ``no``; answering again replaces the answer. 200 with the night's answers;
    400 for a night that takes no answer (started or cancelled), 403 for a member without a
    player of the club."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=event_id)
    require_entry(request)
    player = getattr(request.user, "player", None)
    if player is None:
        raise HttpError(403, _("This token's member has no player of the club."))
    try:
        planning.night_answer(event=event, player=player, answer=rsvp.answer)
    except ValidationError as error:
        return Status(400, error_body(" ".join(error.messages)))
    answers = answers_of([event])[event.pk]
    return {
        "event": event.pk,
        "answer": rsvp.answer,
        "coming": [p.name for p in answers.coming],
        "maybe": [p.name for p in answers.maybe],
        "no": [p.name for p in answers.no],
    }
