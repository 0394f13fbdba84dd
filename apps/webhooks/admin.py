"""Admin: endpoints are set up here (URL, events, secret); deliveries are a read-only log
with a "send again" action for failed ones."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint, WebhookEvent
from apps.webhooks.services import webhook_enqueue


class WebhookEndpointForm(forms.ModelForm):
    events = forms.MultipleChoiceField(
        choices=WebhookEvent.choices, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["organisation", "url", "events", "active", "description", "secret"]


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    form = WebhookEndpointForm
    list_display = ["url", "organisation", "active", "event_list", "created_at"]
    list_filter = ["active", "organisation"]

    @admin.display(description="Events")
    def event_list(self, obj: WebhookEndpoint) -> str:
        return ", ".join(obj.events or [])


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "event",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "next_attempt_at",
    ]
    list_filter = ["status", "event"]
    list_select_related = ["endpoint__organisation"]
    search_fields = ["event_id", "subject", "endpoint__url"]
    readonly_fields = [
        "endpoint",
        "event",
        "event_id",
        "subject",
        "payload",
        "status",
        "attempts",
        "last_status_code",
        "last_error",
        "history",
        "next_attempt_at",
        "delivered_at",
        "created_at",
    ]
    actions = ["send_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.action(description="Send the selected failed deliveries again")
    def send_again(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        failed = list(queryset.filter(status=DeliveryStatus.FAILED).values_list("pk", flat=True))
        WebhookDelivery.objects.filter(pk__in=failed).update(
            status=DeliveryStatus.PENDING, attempts=0
        )
        for pk in failed:
            webhook_enqueue(delivery_id=pk)
        self.message_user(request, f"{len(failed)} delivery(ies) queued again.", messages.INFO)
