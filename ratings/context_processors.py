from django.conf import settings


def club(request):
    """The club's name, for the base layout."""
    return {"club_name": settings.CLUB_NAME}
