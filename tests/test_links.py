from django.urls import reverse

from ratings.links import url_maker


def test_url_maker_gives_what_reverse_gives():
    player_url, game_url = url_maker("ratings:player"), url_maker("ratings:game")
    for slug in ("ana", "ana-2", "đorđe-ž", "ђорђе_ж", "x_1-y"):
        assert player_url(slug) == reverse("ratings:player", args=[slug])
    for game_id in (1, 42, 987654321):
        assert game_url(game_id) == reverse("ratings:game", args=[game_id])


def test_href_gives_what_the_url_tag_gives_with_one_reverse_a_view():
    from django.template import engines
    from django.test import RequestFactory
    from django.urls import resolvers

    template = engines["django"].from_string(
        "{% load club_links %}"
        "{% for slug in slugs %}{% href 'ratings:player' slug %} {% url 'ratings:player' slug %}"
        "|{% endfor %}{% href 'ratings:game' 42 %} {% url 'ratings:game' 42 %}"
    )
    slugs = ["ana", "đorđe-ž", "ђорђе_ж", "x_1-y"]
    calls = []
    original = resolvers.URLResolver._reverse_with_prefix

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return original(self, *args, **kwargs)

    for request in (RequestFactory().get("/"), None):
        resolvers.URLResolver._reverse_with_prefix = counted
        try:
            calls.clear()
            html = template.render({"slugs": slugs}, request)
        finally:
            resolvers.URLResolver._reverse_with_prefix = original
        pairs = [pair.split(" ") for pair in html.split("|")]
        assert all(made == reversed_ for made, reversed_ in pairs), pairs
        # {% url %} reverses each time; href once a view (twice here: player and game).
        assert len(calls) == len(slugs) + 1 + 2
