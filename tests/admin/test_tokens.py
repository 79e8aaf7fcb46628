"""The staff's list of API tokens: every member's, never their secret, revoked from the list."""

import pytest
from django.urls import reverse

from ratings.models import ApiToken

pytestmark = pytest.mark.django_db


def test_the_staff_see_every_token_but_never_its_secret(admin_client, django_user_model):
    ana = django_user_model.objects.create_user("ana")
    _row, token = ApiToken.objects.create_for(ana, "Ana's phone")
    html = admin_client.get(reverse("admin:ratings_apitoken_changelist")).content.decode()
    assert "Ana&#x27;s phone" in html and "ana" in html and f"…{token[-4:]}" in html
    assert token not in html
    assert admin_client.get(reverse("admin:ratings_apitoken_add")).status_code == 403


def test_the_staff_revoke_a_lost_phones_token_and_it_no_longer_opens_the_api(
    admin_client, client, django_user_model
):
    ana = django_user_model.objects.create_user("ana")
    lost, token = ApiToken.objects.create_for(ana, "Lost phone")
    kept, other = ApiToken.objects.create_for(ana, "Tablet")
    assert ApiToken.objects.authenticate(token) == lost

    response = admin_client.post(
        reverse("admin:ratings_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [lost.pk]},
        follow=True,
    )
    assert "1 token revoked" in response.content.decode()
    assert ApiToken.objects.authenticate(token) is None
    assert ApiToken.objects.authenticate(other) == kept
    lost.refresh_from_db()
    assert lost.revoked_at is not None  # kept, not deleted: it can never open the API again
    delete = reverse("admin:ratings_apitoken_delete", args=[lost.pk])
    assert admin_client.get(delete).status_code == 403
