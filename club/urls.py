from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from club.accounts import LoginView, needs_email
from ratings.api.urls import api
from ratings.views.offline import service_worker
from ratings.views.pages import club_icon

# django.contrib.auth.urls, with the password reset only when the club can send email.
accounts = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        needs_email(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        needs_email(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        needs_email(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        needs_email(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(accounts)),
    # Where people (and password managers) look for it first.
    path("login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", api.urls),
    path("sw.js", service_worker, name="service_worker"),
    path("favicon.ico", club_icon),
    path("", include("ratings.urls")),
]

# Rendered without the request: a server error may be the database failing.
handler500 = "ratings.views.errors.server_error"
