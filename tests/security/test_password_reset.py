"""Password reset by email: there only when the club can send email (EMAIL_HOST is set).

Without a mail server the form would log a failure and still tell the member that the link was
sent; so without one the pages are not there (404), nothing links to them, and the login page
says the club's staff set new passwords. With one, a member resets their password from the
link in the email.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

NEW_PASSWORD = "a-new-password-for-the-table"
RESET_PAGES = {
    "password_reset": [],
    "password_reset_done": [],
    "password_reset_confirm": ["MQ", "set-password"],
    "password_reset_complete": [],
}


@pytest.fixture
def no_email(settings):
    settings.EMAIL_HOST = ""


@pytest.fixture
def email(settings):
    """A mail server is configured; pytest-django keeps the messages in mail.outbox."""
    settings.EMAIL_HOST = "smtp.example.org"


@pytest.fixture
def member(member_user):
    member_user.email = "member@example.org"
    member_user.save()
    return member_user


# Without email ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RESET_PAGES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_without_email_the_reset_pages_are_not_found(client, no_email, member, name, method):
    url = reverse(name, args=RESET_PAGES[name])

    response = getattr(client, method)(url, {"email": member.email})

    assert response.status_code == 404
    assert mail.outbox == []


@pytest.mark.parametrize("name", ["login", "admin:login"])
def test_without_email_no_page_links_to_the_reset(client, no_email, name):
    response = client.get(reverse(name))

    assert response.status_code == 200
    assert reverse("password_reset") not in response.content.decode()


def test_without_email_the_login_page_says_who_sets_a_new_password(client, no_email):
    response = client.get(reverse("login"))

    assert "The club's staff can set a new one" in response.content.decode()


# With email ---------------------------------------------------------------------------------


def test_with_email_the_login_page_links_to_the_reset(client, email):
    response = client.get(reverse("login"))

    assert f'href="{reverse("password_reset")}"' in response.content.decode()


def test_with_email_a_member_sets_a_new_password_from_the_link(client, email, member):
    asked = client.post(reverse("password_reset"), {"email": member.email})
    assert asked.status_code == 302
    assert asked["Location"] == reverse("password_reset_done")
    assert "Check your email" in client.get(asked["Location"]).content.decode()
    [message] = mail.outbox
    assert message.to == [member.email]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", message.body).group(1)

    form = client.get(link, follow=True)
    assert "Set a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )

    assert done.redirect_chain[-1][0] == reverse("password_reset_complete")
    assert "Your password is set" in done.content.decode()
    assert get_user_model().objects.get(pk=member.pk).check_password(NEW_PASSWORD)
    # The link works once.
    assert "That link does not work" in client.get(link, follow=True).content.decode()


def test_with_email_an_unknown_address_gets_the_same_answer_and_no_mail(client, email, member):
    response = client.post(reverse("password_reset"), {"email": "stranger@example.org"})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []
