from django.urls import reverse

from ratings.links import url_maker


def test_url_maker_gives_what_reverse_gives():
    player_url, game_url = url_maker("ratings:player"), url_maker("ratings:game")
    for slug in ("ana", "ana-2", "đorđe-ž", "ђорђе_ж", "x_1-y"):
        assert player_url(slug) == reverse("ratings:player", args=[slug])
    for game_id in (1, 42, 987654321):
        assert game_url(game_id) == reverse("ratings:game", args=[game_id])
