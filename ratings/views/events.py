"""Club nights and tournaments: a league's events, an event (live standings, rounds, tables), a
table, a round's printable table cards, and the organiser's forms and buttons.

Reads go through :mod:`ratings.events.selectors` (pinned query counts whatever the number of
rounds), writes through :mod:`ratings.events.services`; who may run an event is
:mod:`ratings.access`'s question. A table's paper is entered on the league's entry form
(``game_new`` with ``?table=<id>``, in :mod:`ratings.views.entry`).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_tables2 import RequestConfig

from ratings import entry, versioning
from ratings.access import can_enter_games, club_readable
from ratings.chances import tables_outlooks
from ratings.entry import confirmation
from ratings.entry import selectors as entry_selectors
from ratings.events import selectors, services
from ratings.events.access import (
    can_create_events,
    can_run_event,
    get_event_to_run,
    get_league_for_events,
)
from ratings.events.answers import Answers, answer_of, answers_of
from ratings.events.forms import (
    PLAYER_ROWS,
    DrawForm,
    EventForm,
    LatePlayersForm,
    MoveForm,
    StartForm,
)
from ratings.events.models import Event, EventRound, EventTable
from ratings.events.qr import qr_svg
from ratings.events.tables import EventListTable, EventStandingsTable
from ratings.form_fields import with_chosen_player
from ratings.models import League, Player
from ratings.page_cache import cached_page
from ratings.pagination import PAGINATION


def _rows(request: HttpRequest, default: int) -> int:
    """How many rows of names the form has: the form's own count, or the address's."""
    try:
        return int(request.POST.get("rows") or request.GET.get("rows", default))
    except ValueError:
        return default


@require_safe
@club_readable
@cached_page(shows=versioning.LEAGUE_BY_SLUG)
def event_list(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's events, newest first."""
    league = get_object_or_404(League, slug=slug)
    table = EventListTable(selectors.league_events(league))
    RequestConfig(request, paginate=PAGINATION).configure(table)
    return render(
        request,
        "ratings/event_list.html",
        {"league": league, "table": table, "can_create_events": can_create_events(request.user)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A new club night or tournament: its players present, rounds, draw and scoring."""
    league = get_league_for_events(request, slug)
    rows = _rows(request, PLAYER_ROWS)
    if request.method == "POST" and "more_rows" in request.POST:
        # "More rows": the form again as typed, with more rows, and no error yet.
        typed = {
            name: value
            for name, value in request.POST.items()
            if name not in ("csrfmiddlewaretoken", "more_rows", "rows")
        }
        form = EventForm(initial=typed, league=league, rows=rows + PLAYER_ROWS)
    elif request.method == "POST":
        data = with_chosen_player(request.POST)
        form = EventForm(data, league=league, rows=rows)
        if form.is_valid() and not _chose_a_player(request.POST):
            event = form.save(organiser=request.user)
            messages.success(
                request, _("%(name)s is ready: draw the first round.") % {"name": event.name}
            )
            return redirect(event)
    else:
        form = EventForm(league=league, rows=rows)
    return render(
        request,
        "ratings/event_new.html",
        {
            "league": league,
            "form": form,
            "player_names": Player.objects.order_by("name").values_list("name", flat=True),
        },
    )


def _chose_a_player(data) -> bool:
    """A "Did you mean …?" button sent the form: show it again with the player put in."""
    return any(key.startswith("use_player_") for key in data)


def _event_row(request: HttpRequest, pk: int) -> str:
    """The event's own row, for its page's key: the versions of its players cover everything
    below it (rounds, tables, seats, games, results), and its own row while it has players; a
    night made and renamed before anyone is present has none."""
    return repr(list(Event.objects.filter(pk=pk).values_list()))


@require_safe
@club_readable
@cached_page(shows=versioning.EVENT_PLAYERS_BY_PK, read_too=_event_row)
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An event, live: standings, each round's tables with results linked to their games, each
    player's rating change, the winner once closed; the organiser's buttons."""
    try:
        page = selectors.event_page(pk)
    except Event.DoesNotExist:
        raise Http404("No such event") from None
    return _event_page(request, page)


def _event_page(request: HttpRequest, page, *, late_form=None) -> HttpResponse:
    event = page.event
    runs = can_run_event(request.user, event)
    running = not (event.is_closed or event.is_planned or event.is_cancelled)
    if runs and late_form is None and running:
        late_form = LatePlayersForm()
    night = None
    if event.is_planned or event.is_cancelled:
        # Who answered (one query), the member's own answer, and the organiser's start form.
        answers = answers_of([event])[event.pk]
        night = {
            "answers": answers,
            "mine": _my_answer(request, answers),
            "start_form": StartForm(answers=answers) if runs and event.is_planned else None,
            "move_form": MoveForm(
                initial={
                    "starts_at": timezone.localtime(event.starts_at).replace(tzinfo=None),
                    "place": event.place,
                }
            )
            if runs and event.is_planned
            else None,
        }
    return render(
        request,
        "ratings/event_detail.html",
        {
            "page": page,
            "event": event,
            "league": event.league,
            "standings": EventStandingsTable(page.standings, event=event),
            "can_run": runs,
            "can_enter_games": can_enter_games(request.user),
            "draw_form": DrawForm(initial={"method": event.draw_method}) if runs else None,
            "late_form": late_form if runs else None,
            "night": night,
            "running": running,
            # The papers of the current round waiting for their tables' confirmation.
            "waiting_tables": entry_selectors.waiting_at_tables(
                [table.pk for table in page.current_round.tables]
            )
            if runs and page.current_round is not None
            else [],
        },
    )


def _my_answer(request: HttpRequest, answers: Answers) -> str | None:
    """The member's own answer (their linked player's), or None."""
    if not request.user.is_authenticated:
        return None
    return answer_of(answers, getattr(request.user, "player", None))


@require_safe
@club_readable
@cached_page(shows=versioning.EVENT_TABLE_BY_PK)
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One table: its players in seat order, whether its paper is in, and the link to enter it."""
    try:
        page = selectors.table_page(pk)
    except EventTable.DoesNotExist:
        raise Http404("No such table") from None
    table = page.table
    return render(
        request,
        "ratings/event_table.html",
        {
            "table": table,
            "seats": page.seats,
            "event": table.round.event,
            "league": table.round.event.league,
            "can_enter_games": can_enter_games(request.user),
        },
    )


@require_safe
@club_readable
@cached_page(shows=versioning.EVENT_BY_PK)
def round_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's table cards, to print: event, round, table, and the players in seat order."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=pk)
    try:
        event_round = selectors.round_cards(event, number)
    except EventRound.DoesNotExist:
        raise Http404("No such round") from None
    # Each table's chances as the ratings stand when the cards are drawn (ratings/chances.py),
    # and its QR code, which opens the table's entry form on a phone (ratings/events/qr.py).
    outlooks = tables_outlooks(
        event.league,
        [
            [(seat.player.pk, seat.player.name) for seat in table.seats]
            for table in event_round.tables
        ],
    )
    entry = reverse("ratings:game_new", args=[event.league.slug])
    cards = []
    for table, outlook in zip(event_round.tables, outlooks, strict=True):
        url = request.build_absolute_uri(f"{entry}?table={table.pk}")
        cards.append((table, outlook, url, qr_svg(url)))
    return render(
        request,
        "ratings/event_cards.html",
        {"event": event, "league": event.league, "round": event_round, "cards": cards},
    )


# The organiser's buttons --------------------------------------------------------------------------


def _done(request: HttpRequest, event: Event, action) -> HttpResponse:
    """Run a service; its refusal becomes a message. Back to the event page either way."""
    try:
        text = action()
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, text)
    return redirect(event)


@login_required
@require_POST
def round_draw(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_event_to_run(request, pk)
    form = DrawForm(request.POST)
    method = form.cleaned_data["method"] if form.is_valid() else None

    def draw() -> str:
        drawn = services.round_draw(event=event, method=method, actor=request.user)
        return _("Round %(n)d is drawn.") % {"n": drawn.number}

    return _done(request, event, draw)


@login_required
@require_POST
def round_close(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_event_to_run(request, pk)
    event_round = get_object_or_404(EventRound, event=event, number=number)

    def close() -> str:
        not_played = services.round_close(event_round=event_round, actor=request.user)
        if not not_played:
            return _("Round %(n)d is closed.") % {"n": number}
        return ngettext(
            "Round %(n)d is closed; %(count)d table marked not played.",
            "Round %(n)d is closed; %(count)d tables marked not played.",
            len(not_played),
        ) % {"n": number, "count": len(not_played)}

    return _done(request, event, close)


@login_required
@require_POST
def round_confirm(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The organiser confirms the round's papers waiting for their tables, all at once."""
    event = get_event_to_run(request, pk)
    event_round = get_object_or_404(EventRound, event=event, number=number)

    def confirm() -> str:
        try:
            done = confirmation.confirm_tables(
                event_round.tables.values_list("pk", flat=True), user=request.user
            )
        except entry.Refused as refused:
            raise ValidationError(refused.messages) from None
        return ngettext(
            "%(count)d table's paper counts now.", "%(count)d tables' papers count now.", len(done)
        ) % {"count": len(done)}

    return _done(request, event, confirm)


@login_required
@require_POST
def event_close(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_event_to_run(request, pk)

    def close() -> str:
        services.event_close(event=event, actor=request.user)
        return _("%(name)s is closed.") % {"name": event.name}

    return _done(request, event, close)


@login_required
@require_POST
def event_player_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """A player who leaves early, from the event page: not drawn in the next rounds."""
    event = get_event_to_run(request, pk)
    player = Player.objects.filter(slug=request.POST.get("player", "")).first()

    def withdraw() -> str:
        if player is None:
            raise ValidationError(_("Choose the player who leaves."))
        services.event_player_withdraw(event=event, player=player, actor=request.user)
        return _("%(name)s leaves: not drawn in the next rounds; the games played stay.") % {
            "name": player.name
        }

    return _done(request, event, withdraw)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def event_players_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Late arrivals, from the event page: drawn from the next round on.

    A "Did you mean …?" tap adds the player it names (no second step: the organiser chose).
    Opened by its address (a reload after a refusal, a shared link) it leads to the event.
    """
    if request.method != "POST":
        return redirect(get_object_or_404(Event, pk=pk))
    event = get_event_to_run(request, pk)
    form = LatePlayersForm(with_chosen_player(request.POST))
    if not form.is_valid():
        page = selectors.event_page(pk)
        return _event_page(request, page, late_form=form)

    def add() -> str:
        added = services.event_players_add(
            event=event, players=form.players, new_names=form.new_names, actor=request.user
        )
        new = {player.pk for player in added}
        already = [player.name for player in dict.fromkeys(form.players) if player.pk not in new]
        said = []
        if added:
            names = ", ".join(player.name for player in added)
            said.append(_("Present from the next round: %(names)s.") % {"names": names})
        if already:
            said.append(_("Already present: %(names)s.") % {"names": ", ".join(already)})
        return " ".join(said)

    return _done(request, event, add)
