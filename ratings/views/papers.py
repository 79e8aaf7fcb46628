"""The digital paper at the table: start a paper, enter deals, watch it, finish it.

Everyone who may read the club watches a paper; members enter its deals (plain form posts, so
the page works without JavaScript; ``static/paper_live.js`` refreshes the paper of a watching
phone). Every write goes through :mod:`ratings.papers.services`.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ratings import engine, versioning
from ratings.access import can_enter_games, club_readable, get_league_for_entry
from ratings.chances import tables_outlooks
from ratings.entry import confirmation
from ratings.entry.models import HeldGame
from ratings.events.access import get_table_for_entry
from ratings.form_fields import with_chosen_player
from ratings.models import Player
from ratings.page_cache import conditional_page
from ratings.papers import selectors, services
from ratings.papers.forms import KONTRA_CHOICES, DealForm, PaperStartForm, pad_words
from ratings.papers.models import Deal, DigitalPaper
from ratings.papers.statistics import player_deal_statistics


def _paper_url(paper_id: int) -> str:
    return reverse("ratings:paper", args=[paper_id])


def _page(pk: int, user=None, *, discarded: bool = False) -> selectors.PaperPage:
    """The paper's page; 404 if there is none, or it was discarded (staff still see it; a deal
    sent to it is shown refused, ``discarded``)."""
    try:
        page = selectors.paper_page(pk)
    except DigitalPaper.DoesNotExist:
        raise Http404 from None
    if page.paper.discarded_at is not None and not (discarded or getattr(user, "is_staff", False)):
        raise Http404
    return page


def _may_discard(user, paper: DigitalPaper) -> bool:
    """A paper's players discard it (the member who started it, a player whose account it
    is, staff); only while it is no game."""
    if paper.finished or paper.discarded_at is not None or not can_enter_games(user):
        return False
    seated_users = {player.user_id for player in paper.players}  # loaded with the paper
    return user.is_staff or paper.started_by_id == user.pk or user.pk in seated_users


def _paper_for_entry(request, pk: int) -> DigitalPaper:
    """The paper a member is entering deals into: 404 if there is none, 403 for visitors."""
    paper = get_object_or_404(DigitalPaper.objects.select_related("league"), pk=pk)
    if not can_enter_games(request.user):
        raise PermissionDenied
    return paper


@login_required
@require_http_methods(["GET", "POST"])
def paper_new(request, slug: str):
    """Start a paper: three players in seating order, the bula and the refe cap.

    ``?table=<id>``: the paper of an event's table, its players prefilled in the seats drawn.
    """
    league = get_league_for_entry(request, slug)
    if not league.rating_system.has_paper:
        raise Http404
    table = get_table_for_entry(request, league)
    # The league's refe cap, changed for this paper or not.
    initial = {"refas": league.system_settings.get("refas")}
    if table is not None:
        names = table.seats.order_by("seat").values_list("player__name", flat=True)
        initial |= {f"player_{seat}": name for seat, name in enumerate(names, start=1)}
        if table.round.event.bula:
            initial["bula"] = table.round.event.bula  # the night's, agreed once
    # "Did you mean …?" puts the player in the seat and shows the form again, never starting.
    chosen = any(key.startswith("use_player_") for key in request.POST)
    data = with_chosen_player(request.POST) if request.method == "POST" else None
    form = PaperStartForm(data, initial=initial, league=league)
    if request.method == "POST" and form.is_valid() and not chosen:
        try:
            paper = services.paper_start(
                league=league,
                players=form.cleaned_data["players"],
                bula=form.cleaned_data["bula"],
                refas=form.cleaned_data["refas"],
                table=table,
                actor=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(_paper_url(paper.pk))
    return render(
        request,
        "ratings/paper_new.html",
        {
            "league": league,
            "table": table,
            "form": form,
            "player_names": _player_names(),
            # "The same table again": one tap starts the last paper's players and bula anew.
            "last": None if table is not None else selectors.last_table(league, request.user),
        },
    )


def _player_names():
    return Player.objects.order_by("name").values_list("name", flat=True)


def _render_paper(request, page: selectors.PaperPage, form: DealForm | None, status: int = 200):
    entering = (
        can_enter_games(request.user)
        and not page.paper.finished
        and page.paper.discarded_at is None
    )
    # Once the bulas have run out the finish takes the deal form's place (a deal refused there
    # comes back with its taps and why, so the phone's offline queue reads it as refused).
    if entering and form is None and not page.over:
        form = DealForm(
            players=page.paper.players,
            initial={"after": page.count, "submission_key": uuid.uuid4()},
        )
    paper = page.paper
    outlook = None
    if page.count == 0 and not paper.finished:
        # At the start, each player's chances as the ratings stand (ratings/chances.py).
        seated = [(player.pk, player.name) for player in paper.players]
        outlook = tables_outlooks(paper.league, [seated], paper.bula)[0]
    return render(
        request,
        "ratings/paper_detail.html",
        {
            "page": page,
            "paper": paper,
            "league": paper.league,
            "outlook": outlook,
            # A refused deal's form is shown whatever the paper's state, with why (a finished
            # or discarded paper's too): the phone's offline queue reads it as the refusal.
            "form": form,
            "entering": entering,
            "pad_words": pad_words(paper.players) if form is not None else None,
            "house_rules": _house_rules(page.paper),
            "may_discard": entering and _may_discard(request.user, paper),
            "library_rules": selectors.house_rules(page.paper).is_library,
            # A finished paper waiting for the table's confirmation: each phone's "I agree".
            "held": services.held_game_of(paper) if paper.finished and not paper.game_id else None,
        },
        status=status,
    )


def _house_rules(paper: DigitalPaper) -> list[tuple[str, str]]:
    """Each house rule the paper is kept by, as the page says it: (the rule, its setting)."""
    rules = selectors.house_rules(paper)
    supa = rules.betl_fall_supa
    return [
        (
            _("Supa on a failed betl"),
            _("tricks × value") if supa is None else _("%(supa)d a follower") % {"supa": supa},
        ),
        (_("Kontra on pik"), _("allowed") if rules.kontra_on_pik else _("not given")),
        (_("Double fall near the end"), _("applied") if rules.double_fall else _("not applied")),
        (_("Highest kontra"), str(dict(KONTRA_CHOICES)[rules.max_kontra])),
    ]


@club_readable
@require_http_methods(["GET", "HEAD"])
@conditional_page(shows=versioning.PAPER_BY_PK)
def paper_detail(request, pk: int):
    """The paper as the sheet looks, its deals, and for members the next deal's form.

    A watching phone's refresh (``static/paper_live.js``) that holds the page at the versions
    of the paper's players in its league (its deals, its game, their ratings; before the first
    deal, the league's for the outlook) is answered 304 at the cost of one query."""
    return _render_paper(request, _page(pk, request.user), None)


@login_required
@require_http_methods(["GET", "POST"])
def paper_deal(request, pk: int):
    """Add the next deal; a deal the form or the paper refuses shows the page with why (the
    taps kept; after another phone's deal, the form is for the deal after it). The page drawn
    here is at this POST-only address: paper_live.js shows the paper's in the address bar, and a
    GET of this address goes to the paper.

    Asked for JSON (``Accept: application/json``: the phone's pad, static/paper_live.js, which
    then draws the paper again in place), the answer is ``{"ok": true, "deals": n}`` or, for a
    refused deal, ``{"ok": false, "errors": [...], "deals": n, "stale": bool, "reused": bool}``
    (``reused``: the key is another deal's), with status 200: the refusal is the club's answer,
    not a failed request; the taps stay on the phone.

    A GET goes to the paper: the phone's offline queue (static/offline.js, the service worker)
    keeps a deal under this address and fetches it for a fresh CSRF token before sending. A key
    sent again with another deal, or to another paper, answers 409 with the page saying which
    deal has it, and the form under a new key: the queue takes that for the club's refusal.
    """
    if request.method == "GET":
        return redirect(_paper_url(pk))
    paper = _paper_for_entry(request, pk)
    form = DealForm(request.POST, players=paper.players)
    wants_json = _wants_json(request)
    if form.is_valid():
        try:
            services.deal_add(
                paper=paper,
                hand=form.cleaned_data["hand"],
                after=form.cleaned_data["after"],
                key=form.cleaned_data["submission_key"],
                actor=request.user,
            )
        except ValidationError as error:
            if wants_json:
                return _deal_refused(pk, error.messages, error)
            form.add_error(None, error)
            page = _page(pk, discarded=True)
            if error.code == "stale":
                # Another phone was first: the form comes back with the taps kept, ready for the
                # deal after the paper's last, if this one is still to come.
                form.data = form.data.copy()
                form.data["after"] = str(page.count)
            if isinstance(error, services.DealKeyReused):
                # Another deal has this key: the taps kept under a key of their own, to add
                # them as a new deal if they are one.
                form.data = form.data.copy()
                form.data["submission_key"] = str(uuid.uuid4())
                return _render_paper(request, page, form, status=409)
            return _render_paper(request, page, form)
        else:
            if wants_json:
                return JsonResponse({"ok": True, "deals": paper.deals.count()})
            return redirect(_paper_url(pk))
    if wants_json:
        return _deal_refused(pk, [str(e) for errors in form.errors.values() for e in errors])
    return _render_paper(request, _page(pk, discarded=True), form, status=200)


def _wants_json(request) -> bool:
    """Whether the deal was sent by the pad's fetch, which reads JSON (a browser's own form post
    asks for HTML first)."""
    return request.headers.get("Accept", "").startswith("application/json")


def _deal_refused(pk: int, errors: list[str], error: ValidationError | None = None):
    reused = isinstance(error, services.DealKeyReused)
    return JsonResponse(
        {
            "ok": False,
            "errors": errors,
            "deals": Deal.objects.filter(paper_id=pk).count(),
            "stale": error is not None and error.code == "stale",
            "reused": reused,
        }
    )


def _after(request) -> int:
    try:
        return int(request.POST.get("after", ""))
    except ValueError:
        return -1


@login_required
@require_POST
def paper_undo(request, pk: int):
    """Take back the last deal."""
    paper = _paper_for_entry(request, pk)
    try:
        services.deal_undo(paper=paper, after=_after(request), actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The last deal is taken back."))
    return redirect(_paper_url(pk))


@login_required
@require_POST
def paper_repeal(request, pk: int):
    """Cross a deal out (or bring it back)."""
    paper = _paper_for_entry(request, pk)
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = 0
    try:
        services.deal_repeal(
            paper=paper,
            number=number,
            repealed=request.POST.get("repealed") != "0",
            actor=request.user,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(_paper_url(pk))


@login_required
@require_http_methods(["GET", "POST"])
def paper_finish(request, pk: int):
    """Finish the paper: the preview of the scores and rating changes, then the game."""
    paper = _paper_for_entry(request, pk)
    if paper.game_id is not None:
        return redirect(paper.game)
    if paper.finished:
        held = services.held_game_of(paper)
        if held is None:
            raise Http404
        return redirect(held)
    ended_early = request.POST.get("ended_early") == "1" or request.GET.get("ended_early") == "1"
    if request.method == "POST" and "save" in request.POST:
        try:
            game = services.paper_finish(paper=paper, ended_early=ended_early, actor=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect(_paper_url(pk))
        if isinstance(game, HeldGame):
            messages.success(request, confirmation.held_message(game))
        else:
            messages.success(request, _("Game saved and rated."))
        return redirect(game)
    page = _page(pk)
    try:
        prepared = services.paper_game_input(
            paper, ended_early=ended_early, played_at=timezone.now()
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(_paper_url(pk))
    # Asked "ended early" for a paper played out meanwhile: it is saved played out.
    ended_early = prepared.ended_early
    ratings = engine.game_preview(paper.league, prepared)
    preview = [
        {
            "name": seat["name"],
            "score": score,
            "before": before,
            "after": after,
            "change": after - before,
        }
        for seat, score, (before, after) in zip(page.seats, prepared.scores, ratings, strict=True)
    ]
    return render(
        request,
        "ratings/paper_finish.html",
        {"page": page, "paper": paper, "preview": preview, "ended_early": ended_early},
    )


@login_required
@require_http_methods(["GET", "POST"])
def paper_discard(request, pk: int):
    """Discard a paper started by mistake: the question first (GET), then the discard (POST)."""
    paper = _paper_for_entry(request, pk)
    if paper.discarded_at is not None:
        raise Http404
    if not _may_discard(request.user, paper):
        raise PermissionDenied
    if request.method == "POST":
        try:
            services.paper_discard(paper=paper, actor=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect(_paper_url(pk))
        messages.success(request, _("The paper is discarded."))
        return redirect("ratings:leaderboard", slug=paper.league.slug)
    return render(
        request,
        "ratings/paper_discard.html",
        {
            "paper": paper,
            "players": ", ".join(player.name for player in paper.players),
            "deals": paper.deals.count(),
        },
    )


@club_readable
@require_http_methods(["GET", "HEAD"])
def player_deals(request, slug: str):
    """A player's deals, from the digital papers they sat at."""
    player = get_object_or_404(Player.objects.only("name", "slug"), slug=slug)
    return render(
        request,
        "ratings/player_deals.html",
        {"player": player, "stats": player_deal_statistics(player)},
    )
