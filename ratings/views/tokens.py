"""A member's API tokens: make one per device or bot (shown once), see when each was last
used, revoke one. Only the member's own tokens; never cached (the page is theirs alone)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from ratings.models import ApiToken

# The session key of a token just made, shown once by the page the creation redirects to.
NEW_TOKEN_KEY = "ratings.new_api_token"


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Device or bot"),
        max_length=80,
        help_text=gettext_lazy("A name to know the token by, e.g. “Ana's phone”."),
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def token_list(request):
    """The member's tokens; a new one's value is shown once, on the page the creation redirects
    to (Post/Redirect/Get: reloading that page makes no second token)."""
    if request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            _row, token = ApiToken.objects.create_for(request.user, form.cleaned_data["name"])
            # Kept in the member's own session only until the next page shows it.
            request.session[NEW_TOKEN_KEY] = token
            return redirect("ratings:api_tokens")
    else:
        form = TokenForm()
    new_token = request.session.pop(NEW_TOKEN_KEY, None)
    return render(
        request,
        "ratings/token_list.html",
        {
            "form": form,
            "new_token": new_token,
            "tokens": ApiToken.objects.filter(user=request.user),
        },
    )


@login_required
@require_POST
def token_revoke(request, pk: int):
    """Revoke one of the member's own tokens (404 for anyone else's)."""
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.revoke()
    messages.success(request, _("Token “%(name)s” revoked.") % {"name": token.name})
    return redirect("ratings:api_tokens")
