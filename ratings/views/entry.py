"""Entering games and players: members only."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ratings import engine, entry
from ratings.access import get_league_for_entry
from ratings.chances import outlooks
from ratings.entry import confirmation
from ratings.entry.models import HeldGame
from ratings.events.access import get_table_for_entry
from ratings.events.models import EventTable
from ratings.events.services import table_refusal
from ratings.form_fields import with_chosen_player
from ratings.forms import PlayerForm, ScoredGameForm, game_form_class
from ratings.models import Game, Player


def _form_kwargs(request, form_class, table: EventTable | None) -> dict:
    if table is not None:
        # A table's paper: its players in the seats as drawn, as many rows as the table seats.
        kwargs = {"table": table}
        if form_class is ScoredGameForm:
            kwargs["seats"] = table.round.event.table_size
        return kwargs
    if form_class is ScoredGameForm:
        try:
            seats = int(request.GET.get("seats", 6))
        except ValueError:
            seats = 6
        return {"seats": seats}
    return {}


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request, slug: str):
    """Enter a game: fill in, preview the scores and rating changes, then save.

    ``?table=<id>`` enters the paper of an event's table: its players come prefilled, and the
    game is linked to the table (then the table's page is shown).
    """
    league = get_league_for_entry(request, slug)
    table = get_table_for_entry(request, league)
    if request.method == "GET" and (saved := _saved_under(league, request.GET.get("back"))):
        # The Back button on a saved preview (templates/offline/sw.js): its game, not a form.
        messages.info(request, _("This game was saved already: here it is."))
        return redirect(saved if isinstance(saved, HeldGame) else table or saved)
    # A save goes on to the service, which answers a repeated submission with its game.
    refusal = table_refusal(table) if table is not None else None
    if refusal is not None and "save" not in request.POST:
        messages.info(request, refusal)
        return redirect(table)
    form_class = game_form_class(league)
    kwargs = _form_kwargs(request, form_class, table)
    preview = None
    changed_since_preview = False
    if request.method == "POST":
        data = with_chosen_player(request.POST)
        form = form_class(data, league=league, **kwargs)
        if form.is_valid():
            prepared = form.prepared()
            already = _saved_already(form) if "save" in data else None
            if already is not None:
                # The saved preview sent again (the back button): nothing new is saved.
                messages.info(request, _("This game was saved already: here it is."))
                if isinstance(already, HeldGame):
                    return redirect(already)
                return redirect(table or already)  # a table's page links its game
            if "save" in data and form.was_previewed():
                try:
                    game = form.save(entered_by=request.user)
                except engine.SubmissionReused as reused:
                    # Another game on a page already saved: shown again with a new key,
                    # to save as a new game, never dropped.
                    messages.warning(request, " ".join(reused.messages))
                    data = data.copy()
                    data["submission_key"] = str(uuid.uuid4())
                    form = form_class(data, league=league, **kwargs)
                    form.is_valid()
                except entry.Refused as refused:  # the table's paper came in meanwhile
                    messages.error(request, " ".join(refused.messages))
                    return redirect(table or league)
                else:
                    if isinstance(game, HeldGame):
                        messages.success(request, confirmation.held_message(game))
                        return redirect(game)
                    messages.success(request, _("Game saved and rated."))
                    return redirect(table or game)
            preview = _preview(form, prepared)
            # Save pressed after an edit below the preview: the new preview says why it is
            # shown again instead of the game page.
            changed_since_preview = "save" in data and bool(form.cleaned_data.get("previewed"))
            data = data.copy()
            data["previewed"] = form.preview_token()
            form = form_class(data, league=league, **kwargs)
            form.is_valid()
    else:
        form = form_class(league=league, **kwargs)
    return render(
        request,
        "ratings/game_new.html",
        {
            "league": league,
            "table": table,
            "form": form,
            "preview": preview,
            "changed_since_preview": changed_since_preview,
            "player_names": Player.objects.order_by("name").values_list("name", flat=True),
        },
    )


def _saved_under(league, key: str | None) -> Game | HeldGame | None:
    """The league's game saved (or held for the table) under a page's one-time key, if any
    (no UUID: none)."""
    try:
        key = uuid.UUID(key or "")
    except ValueError:
        return None
    game = Game.objects.filter(league=league, submission_key=key).first()
    return game or HeldGame.objects.filter(league=league, key=key).first()


def _saved_already(form) -> Game | HeldGame | None:
    """The game this form's submission already recorded or held for the table (its one-time
    key), if the form holds that very game again; another game under a used key is refused by
    the save (``engine.SubmissionReused``), never taken for the first."""
    try:
        game = entry.recorded_game(form.checked)
    except engine.SubmissionReused:
        return None
    key = form.checked.submission.key
    if game is None and key is not None:
        return HeldGame.objects.filter(key=key).first()
    return game


def _preview(form, prepared) -> list[dict]:
    """One row per seat: who, their score, and the rating change if the game were the newest.

    Raw numbers only: the template writes them with the ``club_format`` filters and the league's
    rating system, as the game page will once the game is saved.
    """
    ratings = engine.game_preview(form.league, prepared)
    names = [form.cleaned_data[f"player_{seat}"] for seat in form.filled_seats()]
    # Each player's chance to finish first as the ratings stood before the game (and in
    # Preferans the change each place would have brought).
    prospects = outlooks(form.league, [before for before, _after in ratings], prepared.bula)
    return [
        {
            "name": name,
            "new": player is None,
            "score": score,
            "before": before,
            "after": after,
            "change": after - before,
            "chance": prospect.chance,
            "place_changes": prospect.place_changes,
        }
        for name, player, score, (before, after), prospect in zip(
            names, form.players, prepared.scores, ratings, prospects, strict=True
        )
    ]


@login_required
@require_http_methods(["GET", "POST"])
def player_new(request):
    """Add a player; from the entry form this returns there (``next``)."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.method == "POST":
        form = PlayerForm(request.POST)
        if form.is_valid():
            player = form.save()
            messages.success(request, _("%(name)s joined the club.") % {"name": player.name})
            return redirect(next_url or player)
    else:
        form = PlayerForm()
    return render(request, "ratings/player_new.html", {"form": form, "next": next_url})
