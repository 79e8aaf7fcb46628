"""Rayter files in the browser: staff upload one to a league (preview, then confirm), and anyone
who may read a league downloads it as one. The work is :mod:`ratings.rayter.files`'s (in) and
:mod:`ratings.rayter.standings`'s (out).

Between the preview and the confirmation the uploaded bytes wait in a
:class:`~ratings.models.PendingUpload` row, not in the session (which every page of that member
would read and write), under a random token the confirm form carries: the file need not be
uploaded twice, and the confirmation imports exactly the bytes that were previewed. An upload
waits for its own user and league only, one at a time: a new upload replaces it, and clears
every upload left unconfirmed for longer than a day.
"""

from __future__ import annotations

import hashlib
import secrets

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from ratings.access import can_import_games, club_readable, get_league_for_import
from ratings.download_cache import cached_download
from ratings.models import League, PendingUpload
from ratings.rayter import files as rayter_files
from ratings.rayter import standings as rayter_standings
from ratings.throttling import heavy_read

# A file with thousands of problems still gets a readable page; the count says how many more.
PROBLEMS_SHOWN = 200


class RayterUploadForm(forms.Form):
    """A rayter file for a league: at most RAYTER_UPLOAD_MAX_BYTES, and text, not binary.

    Bytes that are not UTF-8 pass here: the preview lists them line by line with the file's
    other problems.
    """

    file = forms.FileField(
        label=gettext_lazy("Rayter file"),
        help_text=gettext_lazy("A text file in the rayter format, UTF-8."),
    )
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the league's games"),
        required=False,
        help_text=gettext_lazy(
            "Delete every game of the league first. Without it, games already in the league "
            "are skipped, so uploading a file twice adds nothing."
        ),
    )

    def __init__(self, *args, may_replace: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.may_replace = may_replace

    def clean_replace(self) -> bool:
        replace = self.cleaned_data["replace"]
        if replace and not self.may_replace:
            raise forms.ValidationError(
                _("Replacing deletes the league's games, and you may not delete games.")
            )
        return replace

    def clean_file(self) -> bytes:
        """The file's bytes, once they are known to be small enough and text."""
        upload = self.cleaned_data["file"]
        limit = settings.RAYTER_UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is %(size)s; a rayter file may be at most %(limit)s.")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(limit)}
            )
        data = b"".join(upload.chunks())
        problem = rayter_files.binary_problem(data)
        if problem is not None:
            raise forms.ValidationError(
                _("This is not a text file (it contains NUL bytes): upload a rayter text file.")
            )
        return data


def _problems_context(problems: list[rayter_files.Problem]) -> dict:
    return {"problems": problems[:PROBLEMS_SHOWN], "more_problems": len(problems) - PROBLEMS_SHOWN}


@login_required
@require_http_methods(["GET", "POST"])
def rayter_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a rayter file to a league, see what it would do, then confirm: staff who may add
    games (and delete them, to replace the league's games)."""
    league = get_league_for_import(request, slug)
    if league.rating_system.rayter_score_type is None:
        raise Http404("Only scored leagues take rayter files")
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm(request, league)

    context: dict = {"league": league, "max_bytes": settings.RAYTER_UPLOAD_MAX_BYTES}
    may_replace = can_import_games(request.user, replace=True)
    if request.method == "POST":
        form = RayterUploadForm(request.POST, request.FILES, may_replace=may_replace)
        if form.is_valid():
            data = form.cleaned_data["file"]
            replace = form.cleaned_data["replace"]
            context.update(_preview(request, league, data, replace))
    else:
        form = RayterUploadForm(may_replace=may_replace)
    context["form"] = form
    return render(request, "ratings/rayter_import.html", context)


def _token_hash(token: str) -> str:
    """What is stored of a token: a row read from the database cannot confirm an upload."""
    return hashlib.sha256(token.encode()).hexdigest()


def _preview(request: HttpRequest, league: League, data: bytes, replace: bool) -> dict:
    """Import in a transaction that is rolled back; keep the file for the confirmation."""
    mine = PendingUpload.objects.filter(user=request.user, league=league)
    (mine | PendingUpload.objects.expired()).delete()
    try:
        preview = rayter_files.import_rayter(
            data=data,
            league_slug=league.slug,
            replace=replace,
            actor=request.user,
            create=False,
            dry_run=True,
        )
    except rayter_files.RayterImportError as error:
        return {"not_utf8": not rayter_files.is_utf8(data), **_problems_context(error.problems)}
    token = secrets.token_urlsafe(32)
    PendingUpload.objects.create(
        token_hash=_token_hash(token), user=request.user, league=league, replace=replace, data=data
    )
    return {"preview": preview, "token": token, "replace": replace}


def _confirm(request: HttpRequest, league: League) -> HttpResponse:
    pending = (
        PendingUpload.objects.waiting()
        .filter(
            token_hash=_token_hash(request.POST.get("token", "")),
            user=request.user,
            league=league,
        )
        .first()
    )
    if pending is not None and not can_import_games(request.user, replace=pending.replace):
        # The permission was taken away between the preview and the confirmation.
        raise PermissionDenied
    # Taken by deleting it: of two confirmations of one upload at once, only one imports.
    if pending is None or not PendingUpload.objects.filter(pk=pending.pk).delete()[0]:
        messages.error(
            request, _("That upload is no longer waiting to be imported: upload the file again.")
        )
        return redirect("ratings:rayter_import", league.slug)
    try:
        done = rayter_files.import_rayter(
            data=bytes(pending.data),
            league_slug=league.slug,
            replace=pending.replace,
            actor=request.user,
            create=False,
        )
    except rayter_files.RayterImportError as error:
        # The league changed between preview and confirmation; nothing was written.
        context = {
            "league": league,
            "max_bytes": settings.RAYTER_UPLOAD_MAX_BYTES,
            "form": RayterUploadForm(may_replace=can_import_games(request.user, replace=True)),
        }
        context.update(_problems_context(error.problems))
        return render(request, "ratings/rayter_import.html", context)
    summary = done.summary
    counts: dict[str, int] = {
        "games": summary.games,
        "skipped": len(summary.skipped),
        "new": len(summary.new_players),
    }
    # Three counts, each with its own plural: "Imported 1 game; 0 skipped…; 1 new player."
    parts = (
        ngettext("Imported %(games)d game", "Imported %(games)d games", counts["games"]),
        ngettext(
            "%(skipped)d skipped as already there",
            "%(skipped)d skipped as already there",
            counts["skipped"],
        ),
        ngettext("%(new)d new player.", "%(new)d new players.", counts["new"]),
    )
    messages.success(request, "; ".join(parts) % counts)
    return redirect(league)


@require_safe
@club_readable
@cached_download
@heavy_read
def rayter_export(request: HttpRequest, slug: str) -> HttpResponse:
    """A scored league's games as a rayter file download (three queries)."""
    league = get_object_or_404(League, slug=slug)
    if league.rating_system.rayter_score_type is None:
        raise Http404("Only scored leagues have rayter files")
    try:
        text = rayter_standings.export_rayter(league)
    except rayter_standings.RayterExportError as error:
        messages.error(
            request,
            _("This league cannot be written as a rayter file: %(why)s")
            % {"why": " ".join(error.problems[:5])},
        )
        return redirect(league)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"{league.slug}.txt")
    return response
