"""The phone's forms at the table: start a paper, enter a deal. Plain form posts, all taps.

A deal's form turns the taps into what the table said, a
:class:`~ratings.algorithms.paper.Hand` read by :meth:`~ratings.algorithms.paper.Hand.from_entry`
(the one shape a deal is kept in); the paper's rules then judge the deal in
:func:`ratings.papers.services.deal_add`.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ratings import selectors
from ratings.algorithms import paper as paper_rules
from ratings.form_fields import PlayerNameField, SeatSuggestion
from ratings.player_names import name_key
from ratings.systems import MAX_REFAS
from ratings.typed_names import resolve_names

CONTRACT_CHOICES = [
    ("pik", _("pik (2)")),
    ("karo", _("karo (3)")),
    ("herc", _("herc (4)")),
    ("tref", _("tref (5)")),
    ("betl", _("betl (6)")),
    ("sans", _("sans (7)")),
]
KONTRA_CHOICES = [
    (0, _("no kontra")),
    (1, _("kontra")),
    (2, _("rekontra")),
    (3, _("subkontra")),
    (4, _("mortkontra")),
]
PLAY_CHOICES = [
    ("followed", _("followed")),
    ("passed", _("passed")),
    ("invited", _("invited")),
]
KIND_CHOICES = [("played", _("played")), ("refa", _("refa (all passed)"))]
# A follower takes at most five tricks: the rules (DEFENCE_TRICKS) refuse more for the two.
TRICKS = [(n, str(n)) for n in range(6)]
SEATS = (1, 2, 3)


class PaperStartForm(forms.Form):
    """Three players in seating order (the club's offered as you type; a new name is a new
    member, a close one a typo until confirmed), the bula and the refe cap."""

    player_1 = PlayerNameField(label=_("Seat 1"))
    player_2 = PlayerNameField(label=_("Seat 2"))
    player_3 = PlayerNameField(label=_("Seat 3"))
    bula = forms.IntegerField(
        label=_("Starting bula"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 2, "step": 2}),
    )
    refas = forms.IntegerField(
        label=_("Refe cap"),
        min_value=0,
        max_value=MAX_REFAS,
        required=False,
        help_text=_("Empty: no cap."),
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        if not self.is_bound:
            # The league's usual bula, if a paper may start with it (an even one).
            usual = selectors.usual_bula(league)
            paper_bula = league.rating_system.bula_refusal(usual, paper=True) is None
            self.fields["bula"].initial = usual if paper_bula else selectors.DEFAULT_BULA
        self.suggestions: dict[int, SeatSuggestion] = {}

    def seat_rows(self):
        """(the seat's field, the suggestion for its name or None), for the template."""
        return [(self[f"player_{seat}"], self.suggestions.get(seat)) for seat in SEATS]

    def other_fields(self):
        return [self[name] for name in self.fields if not name.startswith("player_")]

    def clean_bula(self) -> int:
        bula = self.cleaned_data["bula"]
        message = self.league.rating_system.bula_refusal(bula, paper=True)
        if message is not None:
            raise ValidationError(message)
        return bula

    def clean(self):
        cleaned = super().clean()
        names = [cleaned.get(f"player_{seat}") for seat in SEATS]
        if not all(names):
            return cleaned
        # The one name policy of every entry: a new name is a new member (added with the
        # paper), a name close to a player's a typo until its "new member" box is ticked.
        resolved = resolve_names(
            names,
            duplicate=lambda name, first: _("A paper needs three different players."),
            confirmed_new={
                name_key(name)
                for seat, name in zip(SEATS, names, strict=True)
                if self.data.get(f"new_player_{seat}")
            },
        )
        for index, matches in resolved.suggestions.items():
            seat = SEATS[index]
            confirmed = bool(self.data.get(f"new_player_{seat}"))
            self.suggestions[seat] = SeatSuggestion(seat, names[index], list(matches), confirmed)
        for index, message in resolved.refusals.items():
            self.add_error(f"player_{SEATS[index]}", message)
        # A new member stands as their name: the service adds them with the paper.
        cleaned["players"] = [
            player if player is not None else name
            for player, name in zip(resolved.players, names, strict=True)
        ]
        return cleaned


class DealForm(forms.Form):
    """One deal as tapped: refa or played; the declarer, contract, igra, refa and kontra; each
    other seat followed, passed or invited, with tricks and a fall; the declarer's fall.

    ``after`` is how many deals the phone saw: a second phone entering the same deal is told.
    ``submission_key`` is this deal's one-time key (made anew for each deal form): the same deal
    sent again (the phone's offline queue, a double tap) is recorded once. Optional, so a page
    drawn before the key existed still posts.
    """

    after = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    submission_key = forms.UUIDField(widget=forms.HiddenInput, required=False)
    # Said by the button tapped: "Refa" sends the deal at once, "Add the deal" a played one.
    kind = forms.ChoiceField(label=_("Deal"), choices=KIND_CHOICES, required=False)
    declarer = forms.TypedChoiceField(
        label=_("Declarer"), coerce=int, required=False, widget=forms.RadioSelect
    )
    contract = forms.ChoiceField(
        label=_("Contract"), choices=CONTRACT_CHOICES, required=False, widget=forms.RadioSelect
    )
    igra = forms.BooleanField(label=_("Igra (without the talon)"), required=False)
    on_refa = forms.BooleanField(label=_("On a refa (x2)"), required=False)
    kontra = forms.TypedChoiceField(
        label=_("Kontra"),
        choices=KONTRA_CHOICES,
        coerce=int,
        initial=0,
        required=False,
        widget=forms.RadioSelect,
    )
    failed = forms.BooleanField(label=_("The declarer fell"), required=False)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["declarer"].choices = [
            (seat, player.name) for seat, player in zip(SEATS, players, strict=True)
        ]
        for seat, player in zip(SEATS, players, strict=True):
            self.fields[f"play_{seat}"] = forms.ChoiceField(
                label=player.name, choices=PLAY_CHOICES, required=False, widget=forms.RadioSelect
            )
            self.fields[f"tricks_{seat}"] = forms.TypedChoiceField(
                label=_("Tricks"),
                choices=TRICKS,
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )
            self.fields[f"fell_{seat}"] = forms.BooleanField(label=_("Fell"), required=False)

    def seat_fields(self):
        """Per seat: the player's name and their three fields (for the template)."""
        return [
            {
                "seat": seat,
                "name": player.name,
                "play": self[f"play_{seat}"],
                "tricks": self[f"tricks_{seat}"],
                "fell": self[f"fell_{seat}"],
            }
            for seat, player in zip(SEATS, self.players, strict=True)
        ]

    def _play(self, seat: int) -> str:
        """What a follower did: as tapped, or, with nothing tapped, "followed" when their tricks
        were tapped (the pad's one tap for "came and took k") and "passed" otherwise."""
        play = self.cleaned_data.get(f"play_{seat}")
        if play:
            return play
        return "followed" if self.cleaned_data.get(f"tricks_{seat}") is not None else "passed"

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if cleaned.get("kind") == "refa":
            cleaned["hand"] = paper_rules.Hand(refa=True)
            return cleaned
        declarer = cleaned.get("declarer")
        if not declarer:
            raise ValidationError(_("Who declared?"))
        if not cleaned.get("contract"):
            raise ValidationError(_("Which contract?"))
        entered = {
            "declarer": declarer,
            "contract": cleaned["contract"],
            "igra": cleaned["igra"],
            "on_refa": cleaned["on_refa"],
            "kontra": cleaned.get("kontra") or 0,
            "failed": cleaned["failed"],
            "followers": [
                {
                    "seat": seat,
                    "play": self._play(seat),
                    "tricks": cleaned.get(f"tricks_{seat}") or 0,
                    "failed": cleaned[f"fell_{seat}"],
                }
                for seat in SEATS
                if seat != declarer
            ],
        }
        try:
            cleaned["hand"] = paper_rules.Hand.from_entry(entered)
        except paper_rules.PaperError as error:
            raise ValidationError(str(error)) from None
        return cleaned


def pad_words(players) -> dict:
    """What the phone's pad (static/paper_live.js) shows beside the taps, from the server: each
    contract's value as the rules give it (``values[contract][igra][on_refa][kontra]``), the
    words in the page's language, the players' names. The script restates no rule or word."""
    values = {
        contract: [
            [
                [
                    paper_rules.deal_value(contract, igra=igra, refa=refa, kontra=kontra)
                    for kontra in range(len(KONTRA_CHOICES))
                ]
                for refa in (False, True)
            ]
            for igra in (False, True)
        ]
        for contract, _label in CONTRACT_CHOICES
    }
    return {
        "values": values,
        "names": [player.name for player in players],
        "contracts": {contract: str(label) for contract, label in CONTRACT_CHOICES},
        "kontra": {str(level): str(label) for level, label in KONTRA_CHOICES},
        "words": {
            "value": str(_("Value")),
            "deal": str(_("Deal %(number)s")),
            "dealer": str(_("%(dealer)s deals, %(first)s bids first")),
            "refa": str(_("Refa: everyone passed.")),
            "made": str(_("made")),
            "fell": str(_("fell")),
            "passed": str(_("passed")),
            "invited": str(_("invited")),
            "igra": str(_("igra")),
            "notSent": str(_("not sent yet")),
            "kept": str(_("No network: deals kept on this phone, not sent yet: %(count)s.")),
            "sending": str(_("Sending the deals kept on this phone…")),
            "sent": str(_("The deals kept on this phone are sent.")),
            "added": str(_("Deal %(number)s added.")),
            "offline": str(_("Could not reach the club: the deal is kept on this phone.")),
        },
    }
