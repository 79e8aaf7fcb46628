"""The API's callers: a member's token, and a client that sends it."""

import pytest
from django.test import Client

from ratings.models import ApiToken


@pytest.fixture
def member_token(member_user) -> str:
    _row, token = ApiToken.objects.create_for(member_user, "Phone")
    return token


@pytest.fixture
def api(member_token) -> Client:
    """A client sending the member's token with every request."""
    return Client(headers={"Authorization": f"Bearer {member_token}"})
