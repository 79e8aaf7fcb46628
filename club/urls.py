from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ratings.urls")),
]

# Rendered without the request: a server error may be the database failing.
handler500 = "ratings.views.errors.server_error"
