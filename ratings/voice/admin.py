"""Chat channels in the admin: staff who may change channels add, edit, pause and resume them
and see their URLs; staff who may only look see each URL masked. The outbox is read here."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.debug import sensitive_post_parameters

from ratings.voice import services
from ratings.voice.models import Channel, ChannelPost, PostKind


class ChannelForm(forms.ModelForm):
    posts = forms.MultipleChoiceField(
        label=_("posts"), choices=PostKind.choices, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Channel
        fields = ("league", "name", "url", "posts", "paused")
        widgets = {"url": forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["posts"] = self.instance.kinds

    def clean_url(self):
        return services.clean_url(self.cleaned_data["url"])

    def clean_posts(self):
        try:
            return services.clean_kinds(self.cleaned_data["posts"])
        except ValidationError as error:
            raise forms.ValidationError(error.messages) from None


@admin.register(Channel)
class ChannelAdmin(admin.ModelAdmin):
    form = ChannelForm
    list_display = (
        "__str__",
        "league",
        "shown_url",
        "posts",
        "paused",
        "failures",
        "last_sent_at",
        "short_error",
    )
    list_filter = ("paused", "league")
    list_select_related = ("league",)
    search_fields = ("name", "league__name")
    actions = ("resume", "send_test")

    @admin.display(description=_("URL"))
    def shown_url(self, channel: Channel) -> str:
        return channel.masked_url

    @admin.display(description=_("last error"))
    def short_error(self, channel: Channel) -> str:
        return channel.last_error[:80]

    def _may_edit(self, request, obj) -> bool:
        """Who sees and edits the URL: staff adding a channel, or allowed to change it."""
        if obj is None:
            return self.has_add_permission(request)
        return self.has_change_permission(request, obj)

    def get_fields(self, request, obj=None):
        if self._may_edit(request, obj):
            return ("league", "name", "url", "posts", "paused", "failures", "last_error")
        return ("league", "name", "shown_url", "posts", "paused", "failures", "last_error")

    def get_readonly_fields(self, request, obj=None):
        readonly = ["failures", "last_error"]
        if not self._may_edit(request, obj):
            readonly += ["league", "name", "shown_url", "posts", "paused"]
        return readonly

    # An error report of a failed save (the admins' email, a debug page) hides the URL.
    @method_decorator(sensitive_post_parameters("url"))
    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        return super().changeform_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        resumed = change and "paused" in form.changed_data and not obj.paused
        super().save_model(request, obj, form, change)
        if resumed:
            services.channel_resume(channel=obj)

    @admin.action(description=_("Resume the chosen channels and send their waiting posts"))
    def resume(self, request, queryset):
        posts = sum(services.channel_resume(channel=channel) for channel in queryset)
        self.message_user(
            request,
            ngettext("%(n)d waiting post queued.", "%(n)d waiting posts queued.", posts)
            % {"n": posts},
            messages.SUCCESS,
        )

    @admin.action(description=_("Send a test post to the chosen channels"))
    def send_test(self, request, queryset):
        channels = list(queryset.select_related("league"))
        for channel in channels:
            services.channel_test_queue(channel=channel)
        self.message_user(
            request,
            ngettext(
                "A test post to %(n)d channel is queued: the worker sends it.",
                "Test posts to %(n)d channels are queued: the worker sends them.",
                len(channels),
            )
            % {"n": len(channels)},
            messages.SUCCESS,
        )

    send_test.allowed_permissions = ("resume",)

    def has_resume_permission(self, request):
        return self.has_change_permission(request)

    resume.allowed_permissions = ("resume",)


@admin.register(ChannelPost)
class ChannelPostAdmin(admin.ModelAdmin):
    """The outbox, read only: what was posted where, and what waits or failed."""

    list_display = ("title", "channel", "kind", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "kind")
    list_select_related = ("channel__league",)
    search_fields = ("title",)
    readonly_fields = (
        "channel",
        "kind",
        "key",
        "title",
        "body",
        "status",
        "attempts",
        "last_error",
        "created_at",
        "sent_at",
    )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
