"""The member's own digest setting, and the digest email's one-click unsubscribe (a signed
link: no login, since the email is read where the member may not be logged in). Neither page
is cached."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ratings.voice.digest import email_possible, unsubscribe_user_id
from ratings.voice.forms import DigestForm
from ratings.voice.models import DigestSubscription


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def digest_settings(request):
    """Whether the member gets the weekly digest by email."""
    subscription = DigestSubscription.objects.filter(user=request.user).first()
    subscription = subscription or DigestSubscription(user=request.user)
    form = DigestForm(request.POST if request.method == "POST" else None, instance=subscription)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your digest setting is saved."))
        return redirect("ratings:digest_settings")
    return render(
        request,
        "ratings/digest_settings.html",
        {"form": form, "email": request.user.email, "email_possible": email_possible()},
    )


# A mail program's one-click unsubscribe (RFC 8058) POSTs to the link without a CSRF token: the
# signed token in the address is what proves the member's wish.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def digest_unsubscribe(request, token: str):
    """Stop the member's digest, whoever follows the link (404 for a link not signed here)."""
    user_id = unsubscribe_user_id(token)
    if user_id is None or not get_user_model().objects.filter(pk=user_id).exists():
        raise Http404("Not a link of this club")
    DigestSubscription.objects.filter(user_id=user_id).update(weekly=False)
    return render(request, "ratings/digest_unsubscribed.html")
