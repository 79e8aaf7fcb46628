"""One game's numbers read the same on every page that shows them (issues #11 and #15).

A member enters a game through the form (its preview, then Save); then the game page, the
league's games, each player's page (the table and the chart's tooltip) and the leaderboard are
read. Each player's score, rating change and rating after must be the same text everywhere, and
the change the same HTML (sign, colour class) wherever it is coloured.

The Elo games are chosen where the roundings used to disagree: a change of exactly ±2.5 or ±0.5
(half to even gives 2 and 0, people 3 and 1) and one of ±0.14 (it used to read "+0" in the
preview, "0" in the tables, and nothing in the chart).
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from ratings import engine
from ratings.models import Game, Player, System
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def visible(html: str) -> str:
    """A cell's text as the browser shows it: tags stripped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def rows(html: str, css: str) -> list[dict[str, str]]:
    """The body rows of the first table at or after the element with this class, each as
    {header text: cell HTML}."""
    element = re.search(rf'<\w+ [^>]*class="(?:[^"]* )?{css}(?: [^"]*)?"', html).start()
    table = html[html.index("<table", element) :]
    table = table[: table.index("</table>")]
    headers = [visible(th) for th in re.findall(r"<th\b[^>]*>(.*?)</th>", table, re.S)]
    body = re.search(r"<tbody\b[^>]*>(.*?)</tbody>", table, re.S)[1]
    return [
        dict(zip(headers, re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S), strict=True))
        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S)
    ]


def row_of(table: list[dict[str, str]], name: str) -> dict[str, str]:
    (row,) = [row for row in table if visible(row["Player"]).split(" ")[0] == name]
    return row


def enter(client, league, data) -> tuple[str, Game]:
    """Enter a game as a member does: check scores, then Save. The preview's HTML and the game."""
    url = reverse("ratings:game_new", args=[league.slug])
    data = {"submission_key": str(uuid.uuid4()), **data}
    preview = client.post(url, {**data, "preview": "1"})
    assert preview.status_code == 200
    token = preview.context["form"]["previewed"].value()
    saved = client.post(url, {**data, "previewed": token, "save": "1"})
    assert saved.status_code == 302
    return preview.content.decode(), Game.objects.get(league=league)


def readings(client, league, game, preview: str, name: str) -> dict[str, dict[str, str]]:
    """What each page shows of ``name``'s part in the game: {"score" | "change" | "rating" |
    "change html": {page: text}}, for the pages that show that number."""
    label = str(league.rating_system.score_label)
    score, change, rating, change_html = {}, {}, {}, {}

    def page(url: str) -> str:
        response = client.get(url)
        assert response.status_code == 200, url
        return response.content.decode()

    row = row_of(rows(preview, "preview"), name)
    score["preview"], change_html["preview"], rating["preview"] = (
        row[label],
        row["Change"],
        row["New rating"],
    )

    row = row_of(rows(page(game.get_absolute_url()), "results"), name)
    score["game page"], change_html["game page"], rating["game page"] = (
        row[label],
        row["Change"],
        row["Rating after"],
    )

    games = page(reverse("ratings:league_games", args=[league.slug]))
    seat = re.search(rf'<span class="seat"><a [^>]*>{name}</a> (.*?) \((.*?)\)</span>', games)
    score["games list"], change_html["games list"] = seat[1], seat[2]

    player = Player.objects.get(name=name)
    html = page(player.get_absolute_url())
    (row,) = rows(html, "player-games")
    score["player page"], change_html["player page"], rating["player page"] = (
        row["Score"],
        row["Change"],
        row["Rating after"],
    )
    rating["player heading"] = re.search(r"Rating (\S+?)[, ]", html)[1]
    title = re.search(
        rf'<a href="{game.get_absolute_url()}" tabindex="-1"><title>(.*?)</title>', html
    )
    rating["chart tooltip"], change["chart tooltip"] = re.fullmatch(
        r".*: (\S+) \((\S+)\)", title[1]
    ).groups()

    row = row_of(
        rows(page(reverse("ratings:leaderboard", args=[league.slug])), "leaderboard"), name
    )
    change_html["leaderboard"], rating["leaderboard"] = row["Last change"], row["Rating"]

    change |= {where: visible(html) for where, html in change_html.items()}
    return {
        "score": {where: visible(html) for where, html in score.items()},
        "change": change,
        "rating": {where: visible(text) for where, text in rating.items()},
        "change html": change_html,
    }


def assert_reads_everywhere(seen: dict[str, dict[str, str]], *, score, change, rating) -> None:
    assert seen["score"] == dict.fromkeys(seen["score"], score)
    assert seen["change"] == dict.fromkeys(seen["change"], change)
    assert seen["rating"] == dict.fromkeys(seen["rating"], rating)
    # The same markup too: one sign, one colour class, wherever the change is coloured.
    assert len(set(seen["change html"].values())) == 1, seen["change html"]
    assert len(seen["change"]) == 6  # preview, game page, games list, player page, chart, board


@pytest.mark.parametrize(
    ("k", "bob_start", "outcome", "ann", "bob"),
    [
        # Equal ratings, K = 5: +2.5 and −2.5, which half to even would write as 2.
        (5, 1000, "1", ("Win", "+3", "1003"), ("Loss", MINUS + "3", "998")),
        # K = 1: +0.5 and −0.5, which half to even would write as 0.
        (1, 1000, "1", ("Win", "+1", "1001"), ("Loss", MINUS + "1", "1000")),
        # Bob 100 points higher, a draw, K = 1: +0.14 and −0.14, never "+0" or "−0".
        (1, 1100, "draw", ("Draw", "0", "1000"), ("Draw", "0", "1100")),
    ],
    ids=["change-2.5", "change-0.5", "change-0.14"],
)
def test_an_elo_change_reads_the_same_on_every_page(
    member_client, make_league, make_player, k, bob_start, outcome, ann, bob
):
    league = make_league(System.ELO, name="Chess", start_rating=1000, settings={"elo_k": k})
    engine.standing_set_start_rating(league=league, player=make_player("Ann"), rating=1000)
    engine.standing_set_start_rating(league=league, player=make_player("Bob"), rating=bob_start)

    preview, game = enter(
        member_client,
        league,
        {"played_at": "2026-03-12T21:30", "player_0": "Ann", "player_1": "Bob", "outcome": outcome},
    )

    for name, (score, change, rating) in (("Ann", ann), ("Bob", bob)):
        seen = readings(member_client, league, game, preview, name)
        assert_reads_everywhere(seen, score=score, change=change, rating=rating)


def test_a_prefko_game_reads_the_same_in_the_preview_and_after_saving(
    member_client, worked_example_league, worked_example_players
):
    """The worked example: −500 with a real minus sign in the preview too (issue #15), and −27
    coloured "better" because in prefko a lower rating is better."""
    preview, game = enter(member_client, worked_example_league, WORKED_EXAMPLE_FORM)

    expected = {
        "Pedja": (MINUS + "500", MINUS + "27", "1173"),
        "Marko": ("40", "+2", "1152"),
        "Johnny": ("460", "+25", "1125"),
    }
    for name, (score, change, rating) in expected.items():
        seen = readings(member_client, worked_example_league, game, preview, name)
        assert_reads_everywhere(seen, score=score, change=change, rating=rating)
    pedja = readings(member_client, worked_example_league, game, preview, "Pedja")
    assert set(pedja["change html"].values()) == {f'<span class="better">{MINUS}27</span>'}


def test_a_head_to_head_score_reads_win_in_the_preview_and_on_the_game_page(
    member_client, make_league
):
    league = make_league(System.ELO, name="Backgammon")

    preview, game = enter(
        member_client,
        league,
        {"played_at": "2026-03-12T21:30", "player_0": "Ann", "player_1": "Bob", "outcome": "0"},
    )

    game_page = member_client.get(game.get_absolute_url()).content.decode()
    for html, css in ((preview, "preview"), (game_page, "results")):
        table = rows(html, css)
        assert visible(row_of(table, "Ann")["Result"]) == "Loss"
        assert visible(row_of(table, "Bob")["Result"]) == "Win"
