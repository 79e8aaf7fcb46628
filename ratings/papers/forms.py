"""The phone's forms at the table: start a paper, enter a deal. Plain form posts, all taps.

A deal's form turns the taps into what the table said (``Deal.entered``, the form that
:func:`ratings.algorithms.paper.hand_from_entry` reads); the paper's rules then judge the deal
in :func:`ratings.papers.services.deal_add`.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ratings import entry, selectors
from ratings.algorithms import paper as paper_rules
from ratings.systems import MAX_REFAS

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
TRICKS = [(n, str(n)) for n in range(11)]
SEATS = (1, 2, 3)


class PaperStartForm(forms.Form):
    """Three players of the club in seating order, the bula and the refe cap."""

    player_1 = forms.CharField(label=_("Seat 1"), max_length=80)
    player_2 = forms.CharField(label=_("Seat 2"), max_length=80)
    player_3 = forms.CharField(label=_("Seat 3"), max_length=80)
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
        # The club's players only: a paper is started by its players, who are members already.
        resolved = entry.resolve_names(
            names,
            duplicate=lambda name, first: _("A paper needs three different players."),
            existing_only=True,
        )
        for index, message in resolved.refusals.items():
            self.add_error(f"player_{SEATS[index]}", message)
        cleaned["players"] = resolved.players
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
    kind = forms.ChoiceField(
        label=_("Deal"), choices=KIND_CHOICES, initial="played", widget=forms.RadioSelect
    )
    declarer = forms.TypedChoiceField(
        label=_("Declarer"), coerce=int, required=False, widget=forms.RadioSelect
    )
    contract = forms.ChoiceField(
        label=_("Contract"), choices=CONTRACT_CHOICES, required=False, widget=forms.RadioSelect
    )
    igra = forms.BooleanField(label=_("Igra (without the talon)"), required=False)
    on_refa = forms.BooleanField(label=_("On a refa (x2)"), required=False)
    kontra = forms.TypedChoiceField(
        label=_("Kontra"), choices=KONTRA_CHOICES, coerce=int, initial=0, required=False
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
                label=player.name,
                choices=PLAY_CHOICES,
                initial="followed",
                required=False,
                widget=forms.RadioSelect,
            )
            self.fields[f"tricks_{seat}"] = forms.TypedChoiceField(
                label=_("Tricks"), choices=TRICKS, coerce=int, initial=0, required=False
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

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if cleaned["kind"] == "refa":
            cleaned["entered"] = {"refa": True}
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
                    "play": cleaned.get(f"play_{seat}") or "passed",
                    "tricks": cleaned.get(f"tricks_{seat}") or 0,
                    "failed": cleaned[f"fell_{seat}"],
                }
                for seat in SEATS
                if seat != declarer
            ],
        }
        try:
            paper_rules.hand_from_entry(entered)
        except paper_rules.PaperError as error:
            raise ValidationError(str(error)) from None
        cleaned["entered"] = entered
        return cleaned
