from django.template import engines
from django.test import RequestFactory
from django.urls import reverse

from ratings import links
from ratings.links import url_maker


def test_url_maker_gives_what_reverse_gives():
    player_url, game_url = url_maker("ratings:player"), url_maker("ratings:game")
    for slug in ("ana", "ana-2", "đorđe-ž", "ђорђе_ж", "x_1-y"):
        assert player_url(slug) == reverse("ratings:player", args=[slug])
    for game_id in (1, 42, 987654321):
        assert game_url(game_id) == reverse("ratings:game", args=[game_id])


def test_href_gives_what_the_url_tag_gives_with_one_reverse_a_view(monkeypatch):
    template = engines["django"].from_string(
        "{% load club_links %}"
        "{% for slug in slugs %}{% href 'ratings:player' slug %} {% url 'ratings:player' slug %}"
        "|{% endfor %}{% href 'ratings:game' 42 %} {% url 'ratings:game' 42 %}"
    )
    slugs = ["ana", "đorđe-ž", "ђорђе_ж", "x_1-y"]
    reversed_views = []

    def counted_reverse(viewname, *args, **kwargs):
        reversed_views.append(viewname)
        return reverse(viewname, *args, **kwargs)

    # The links module's own reverse(), not Django's internals: what href costs is how often
    # ratings.links walks the URLconf.
    monkeypatch.setattr(links, "reverse", counted_reverse)
    for request in (RequestFactory().get("/"), None):
        reversed_views.clear()
        html = template.render({"slugs": slugs}, request)
        pairs = [pair.split(" ") for pair in html.split("|")]
        assert all(made == reversed_ for made, reversed_ in pairs), pairs
        # One reverse() a view and page, however many rows link to it.
        assert reversed_views == ["ratings:player", "ratings:game"]
