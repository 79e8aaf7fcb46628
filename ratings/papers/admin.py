"""Digital papers in the admin: staff read a paper and its deals, and correct a deal.

Saving a deal goes through :func:`ratings.papers.services.deal_update`: the paper is drawn again
from its deals and, once the paper is a game, the game is re-rated through the engine. The form
checks the change first with the paper's own rules, so a deal the rules refuse is a form error.
Papers are started and deals entered on the table's phone, not here; deals are not deleted (a
deal entered by mistake is repealed: it stays on the paper, crossed out).
"""

from __future__ import annotations

from dataclasses import replace

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from ratings.algorithms import paper as paper_rules
from ratings.papers import forms as paper_forms
from ratings.papers import services
from ratings.papers.models import Deal, DigitalPaper

SEATS = (1, 2, 3)


PLAYERS = ("paper__player_1", "paper__player_2", "paper__player_3")


@admin.display(description=_("Deal"))
def said(deal: Deal) -> str:
    """What a deal says, in the pad's words: the declarer, the contract and its value, each
    follower's play (a deal from a posted log: its value alone)."""
    hand = paper_rules.Hand.from_json(deal.entered)
    if hand.refa:
        return str(dict(paper_forms.KIND_CHOICES)["refa"])
    names = [player.name for player in deal.paper.players]
    contract = hand.contract
    parts = [names[hand.declarer - 1]]
    if contract is not None:
        parts.append(str(dict(paper_forms.CONTRACT_CHOICES)[contract.name]))
        parts += [str(_("igra"))] if contract.igra else []
        parts += [str(_("On a refa (x2)"))] if contract.on_refa else []
        parts += [str(dict(paper_forms.KONTRA_CHOICES)[contract.kontra])] if contract.kontra else []
    parts.append(f"{_('Value')} {hand.value}")
    parts += [str(_("fell"))] if hand.failed else []
    plays = dict(paper_forms.PLAY_CHOICES)
    for follower in hand.followers:
        play = f"{names[follower.seat - 1]}: {plays[follower.play]}"
        if follower.followed or follower.tricks:
            play += f" {follower.tricks}"
        parts.append(play + (f" ({_('fell')})" if follower.failed else ""))
    return ", ".join(parts)


class DealInline(admin.TabularInline):
    model = Deal
    fields = ("number", said, "repealed", "entered_at", "entered_by")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*PLAYERS)

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(DigitalPaper)
class DigitalPaperAdmin(admin.ModelAdmin):
    list_display = ("__str__", "league", "started_at", "finished_at", "game", "discarded_at")
    # Discarded papers (started by mistake, discarded by their players) are found here.
    list_filter = ("league", ("discarded_at", admin.EmptyFieldListFilter))
    list_select_related = ("league", "player_1", "player_2", "player_3", "game")
    search_fields = ("player_1__name", "player_2__name", "player_3__name")
    date_hierarchy = "started_at"
    fields = (
        "league",
        "player_1",
        "player_2",
        "player_3",
        "bula",
        "refas",
        "started_at",
        "started_by",
        "finished_at",
        "ended_early",
        "game",
        "house_rules",
        "discarded_at",
    )
    readonly_fields = fields
    inlines = (DealInline,)

    def has_add_permission(self, request):
        return False


def _play_field() -> forms.ChoiceField:
    return forms.ChoiceField(choices=paper_forms.PLAY_CHOICES, initial="passed", required=False)


class DealForm(forms.ModelForm):
    """A deal's own fields, as the pad asks them (refa or played; the declarer, the contract,
    igra, refa and kontra; each other seat followed, passed or invited, with tricks and a fall),
    and, for a deal kept from a deal log posted to the API (no contract), the value, the
    declarer's tricks and a follower's supa as the log wrote them. The paper's module builds the
    hand (:class:`~ratings.algorithms.paper.Hand`) and the paper's rules judge the change
    (:func:`ratings.papers.services.deal_check`): a refusal is a form error."""

    kind = forms.ChoiceField(label=_("Deal"), choices=paper_forms.KIND_CHOICES)
    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=int, required=False)
    contract = forms.ChoiceField(
        label=_("Contract"),
        choices=[("", _("none: a deal log's, by its value")), *paper_forms.CONTRACT_CHOICES],
        required=False,
    )
    igra = forms.BooleanField(label=_("Igra (without the talon)"), required=False)
    on_refa = forms.BooleanField(label=_("On a refa (x2)"), required=False)
    kontra = forms.TypedChoiceField(
        label=_("Kontra"), choices=paper_forms.KONTRA_CHOICES, coerce=int, initial=0
    )
    failed = forms.BooleanField(label=_("The declarer fell"), required=False)
    value = forms.IntegerField(
        label=_("Value"),
        required=False,
        help_text=_("Only for a deal without its contract: the value written."),
    )
    declarer_tricks = forms.IntegerField(
        label=_("Declarer's tricks"), required=False, help_text=_("As a deal log gave them.")
    )
    # Each seat's part, named by the paper's players in __init__ (the declarer's own is not read).
    play_1, play_2, play_3 = (_play_field() for _seat in SEATS)
    tricks_1, tricks_2, tricks_3 = (
        forms.IntegerField(initial=0, required=False) for _seat in SEATS
    )
    fell_1, fell_2, fell_3 = (forms.BooleanField(required=False) for _seat in SEATS)
    supa_1, supa_2, supa_3 = (
        forms.IntegerField(
            required=False, help_text=_("Only as a deal log wrote it (no contract).")
        )
        for _seat in SEATS
    )

    class Meta:
        model = Deal
        fields = ("repealed",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        paper = self.instance.paper
        names = [player.name for player in paper.players]
        self.fields["declarer"].choices = [("", "---"), *zip(SEATS, names, strict=True)]
        for seat, name in zip(SEATS, names, strict=True):
            self.fields[f"play_{seat}"].label = _("%(name)s: followed, passed or invited") % {
                "name": name
            }
            self.fields[f"tricks_{seat}"].label = _("%(name)s: tricks") % {"name": name}
            self.fields[f"fell_{seat}"].label = _("%(name)s fell") % {"name": name}
            self.fields[f"supa_{seat}"].label = _("%(name)s: supa") % {"name": name}
        if not self.is_bound:
            self.initial.update(_initial(paper_rules.Hand.from_json(self.instance.entered)))

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            hand = self._hand(cleaned)
        except paper_rules.PaperError as error:
            raise ValidationError(str(error)) from None
        services.deal_check(deal=self.instance, hand=hand, repealed=cleaned["repealed"])
        cleaned["hand"] = hand
        return cleaned

    def _hand(self, cleaned) -> paper_rules.Hand:
        """The hand the fields say, built and checked by the paper's module."""
        if cleaned["kind"] == "refa":
            return paper_rules.Hand(refa=True)
        declarer = cleaned.get("declarer")
        if not declarer:
            raise ValidationError(_("Who declared?"))
        others = [seat for seat in SEATS if seat != declarer]
        if cleaned["contract"]:
            hand = paper_rules.Hand.from_entry(
                {
                    "declarer": declarer,
                    "contract": cleaned["contract"],
                    "igra": cleaned["igra"],
                    "on_refa": cleaned["on_refa"],
                    "kontra": cleaned["kontra"],
                    "failed": cleaned["failed"],
                    "followers": [
                        {
                            "seat": seat,
                            "play": cleaned[f"play_{seat}"] or "passed",
                            "tricks": cleaned[f"tricks_{seat}"] or 0,
                            "failed": cleaned[f"fell_{seat}"],
                        }
                        for seat in others
                    ],
                }
            )
            supe = [f for f in hand.followers if cleaned[f"supa_{f.seat}"] is not None]
            return replace(
                hand,
                declarer_tricks=cleaned["declarer_tricks"],
                followers=tuple(
                    replace(f, supa=cleaned[f"supa_{f.seat}"]) if f in supe else f
                    for f in hand.followers
                ),
            )
        if cleaned["value"] is None:
            raise ValidationError(_("A deal without its contract needs its value."))
        return paper_rules.Hand(
            declarer=declarer,
            failed=cleaned["failed"],
            value=cleaned["value"],
            declarer_tricks=cleaned["declarer_tricks"],
            followers=tuple(
                paper_rules.HandFollower(
                    seat=seat,
                    play=cleaned[f"play_{seat}"] or "passed",
                    tricks=cleaned[f"tricks_{seat}"] or 0,
                    failed=cleaned[f"fell_{seat}"],
                    supa=cleaned[f"supa_{seat}"],
                )
                for seat in others
            ),
        )


def _initial(hand: paper_rules.Hand) -> dict:
    """The form's fields for a stored hand."""
    if hand.refa:
        return {"kind": "refa"}
    contract = hand.contract
    initial = {
        "kind": "played",
        "declarer": hand.declarer,
        "contract": "" if contract is None else contract.name,
        "igra": contract is not None and contract.igra,
        "on_refa": contract is not None and contract.on_refa,
        "kontra": 0 if contract is None else contract.kontra,
        "failed": hand.failed,
        "value": hand.value,
        "declarer_tricks": hand.declarer_tricks,
    }
    for follower in hand.followers:
        seat = follower.seat
        initial |= {
            f"play_{seat}": follower.play,
            f"tricks_{seat}": follower.tricks,
            f"fell_{seat}": follower.failed,
            f"supa_{seat}": follower.supa,
        }
    return initial


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    form = DealForm
    list_display = ("__str__", "paper", "number", said, "repealed", "entered_at")
    list_select_related = ("paper__league", *PLAYERS)
    readonly_fields = ("paper", "number", "entered_at", "entered_by")

    fieldsets = (
        (None, {"fields": ("paper", "number", "entered_at", "entered_by", "repealed")}),
        (
            _("Deal"),
            {
                "fields": (
                    "kind",
                    "declarer",
                    ("contract", "igra", "on_refa", "kontra"),
                    "failed",
                    ("value", "declarer_tricks"),
                )
            },
        ),
        *(
            (
                _("Seat %(seat)d") % {"seat": seat},
                {"fields": ((f"play_{seat}", f"tricks_{seat}", f"fell_{seat}", f"supa_{seat}"),)},
            )
            for seat in SEATS
        ),
    )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        # The service saves the deal, writes its audit entry and re-rates a finished paper's
        # game through the engine.
        services.deal_update(
            deal=obj, hand=form.cleaned_data["hand"], repealed=obj.repealed, actor=request.user
        )

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        # The form checked the change; a phone or another staff member may still have changed
        # the paper before the save: the service refuses, the transaction is rolled back.
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return redirect("admin:ratings_deal_changelist")
