"""The member's digest setting."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.voice.models import DigestSubscription


class DigestForm(forms.ModelForm):
    class Meta:
        model = DigestSubscription
        fields = ["weekly"]
        help_texts = {
            "weekly": _(
                "On Monday mornings: your games of the week, your rating changes, your "
                "leagues' top movers and next nights."
            )
        }
