"""The event log and webhook endpoints: reading events, registering and changing endpoints, and
redelivering an event that an endpoint failed to receive."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.payments.model import (
    MAX_ENDPOINTS,
    RESEND_DAYS,
    Delivery,
    Event,
    EventType,
    Merchant,
    Subscription,
    WebhookEndpoint,
    payments,
)
from servers.domains.payments.rules import RESENDABLE, _deliver, _emit, _subscribed
from servers.domains.payments.seed_events import signing_secret
from servers.kit import Db, Offset, PageSize, Ref, ToolError, marks

Url = Annotated[
    str,
    Field(
        min_length=8,
        max_length=300,
        description="The endpoint URL; must start with https://.",
        examples=[
            "https://hooks.example.com/payments",
            "https://api.example.com/webhooks/billing",
            "https://erp.example.net/stripe-events",
            "https://ops.example.org/hooks/refunds",
        ],
    ),
]
Subscriptions = Annotated[
    list[Subscription],
    Field(
        min_length=1,
        max_length=len(Subscription.__args__),
        description='Event types to receive, or ["*"] for all.',
        examples=[
            ["*"],
            ["invoice.paid", "invoice.payment_failed"],
            ["payment.succeeded", "payment.failed", "refund.created"],
            ["dispute.updated", "dispute.closed"],
            ["payout.created"],
        ],
    ),
]


def _events_text(events: list[str]) -> str:
    if len(set(events)) != len(events):
        raise ToolError(f"event types are listed twice in {events}")
    if "*" in events and len(events) > 1:
        raise ToolError('"*" already means every event type; send ["*"] alone or a list of types')
    return ",".join(events)


def _public(endpoint: dict) -> dict:
    return {k: v for k, v in endpoint.items() if k not in marks(WebhookEndpoint).hidden}


@payments.tool(
    returns=Event,
    says=[
        "show the recent {type} events of {merchant}",
        "what happened to {object_id}? list its events for {merchant}",
    ],
)
def list_events(
    db: Db,
    merchant: Ref[Merchant],
    type: EventType | None = None,
    object_id: Annotated[
        str, Field(min_length=1, max_length=64, description="An object id, e.g. INV-000001.")
    ]
    | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A merchant's event log, newest first, optionally one type or one object's events.

    Args:
        merchant: The merchant.
        type: Only events of this type.
        object_id: Only events about this object (an invoice, payment, refund ... id).
    """
    db.get(Merchant, merchant)
    where, params = ["merchant_id = ?"], [merchant]
    if type is not None:
        where.append("type = ?")
        params.append(type)
    if object_id is not None:
        where.append("object_id = ?")
        params.append(object_id)
    sql = f"SELECT * FROM events WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC"
    return db.page(sql, *params, limit=limit, offset=offset, key="events")


@payments.tool(
    returns=WebhookEndpoint,
    says=["list the webhook endpoints of {merchant}", "are the webhooks of {merchant} being delivered?"],
)
def list_webhook_endpoints(db: Db, merchant: Ref[Merchant]) -> dict:
    """A merchant's webhook endpoints with how many deliveries succeeded and failed in the last 30 days."""
    db.get(Merchant, merchant)
    since = (db.now - timedelta(days=RESEND_DAYS)).isoformat(timespec="seconds")
    rows = db.all(
        "SELECT w.*, (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = w.id AND d.status = 'succeeded' "
        "AND d.at >= ?) AS delivered_30d, (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = w.id "
        "AND d.status = 'failed' AND d.at >= ?) AS failed_30d FROM webhook_endpoints w WHERE w.merchant_id = ? "
        "ORDER BY w.id",
        since,
        since,
        merchant,
    )
    return {"merchant": merchant, "endpoints": [_public(r) for r in rows]}


@payments.tool(
    writes=[WebhookEndpoint, Event, Delivery],
    returns=WebhookEndpoint,
    says=[
        "register {url} as a webhook endpoint for {merchant}, sending {events}",
        "add a webhook for {merchant} at {url} for the events {events}",
    ],
)
def create_webhook_endpoint(db: Db, merchant: Ref[Merchant], url: Url, events: Subscriptions) -> dict:
    """Register a URL to receive a merchant's events (https only, at most 16 per merchant). The
    signing secret is shown once, in this answer.

    Args:
        merchant: The merchant.
        url: Where to post events.
        events: The event types to send, or ["*"] for all.
    """
    db.get(Merchant, merchant)
    if not url.startswith("https://") or len(url) <= len("https://"):
        raise ToolError(f"webhook URLs must use https://; got {url!r}")
    text = _events_text(list(events))
    n = db.scalar("SELECT count(*) FROM webhook_endpoints WHERE merchant_id = ?", merchant)
    if n >= MAX_ENDPOINTS:
        raise ToolError(
            f"merchant {merchant} already has {n} webhook endpoints; the limit is {MAX_ENDPOINTS}"
        )
    dup = db.one("SELECT id FROM webhook_endpoints WHERE merchant_id = ? AND url = ?", merchant, url)
    if dup:
        raise ToolError(f"{url} is already registered for merchant {merchant} as {dup['id']}")
    eid = db.next_id(WebhookEndpoint)
    secret = signing_secret(merchant, url, int(eid.split("-")[1]))
    ep = db.insert(
        WebhookEndpoint,
        id=eid,
        merchant_id=merchant,
        url=url,
        events=text,
        status="enabled",
        secret=secret,
        health="ok",
        created_at=db.stamp(),
    )
    _emit(db, merchant, "webhook_endpoint.created", eid, f"{url} ({text})")
    return {**_public(ep), "secret": secret}


@payments.tool(
    writes=[WebhookEndpoint, Event, Delivery],
    returns=WebhookEndpoint,
    idempotent=True,
    says=[
        "disable webhook endpoint {endpoint}",
        "change webhook endpoint {endpoint} to send only {events}",
        "turn webhook endpoint {endpoint} back on",
    ],
)
def update_webhook_endpoint(
    db: Db, endpoint: Ref[WebhookEndpoint], events: Subscriptions | None = None, enabled: bool | None = None
) -> dict:
    """Change which events an endpoint receives, or enable/disable it. Events that happen while an
    endpoint is disabled are never sent to it.

    Args:
        endpoint: The endpoint.
        events: The new list of event types, or ["*"].
        enabled: true to enable, false to disable.
    """
    ep = db.get(WebhookEndpoint, endpoint)
    if events is None and enabled is None:
        raise ToolError("nothing to change: give events, enabled, or both")
    values = {}
    if events is not None:
        values["events"] = _events_text(list(events))
    if enabled is not None:
        values["status"] = "enabled" if enabled else "disabled"
    if all(ep[k] == v for k, v in values.items()):
        raise ToolError(
            f"webhook endpoint {endpoint} already has status {ep['status']} and events {ep['events']}"
        )
    out = db.update(WebhookEndpoint, endpoint, **values)
    _emit(db, ep["merchant_id"], "webhook_endpoint.updated", endpoint, f"{out['status']}: {out['events']}")
    return _public(out)


@payments.tool(
    writes=[Delivery],
    returns=Delivery,
    says=[
        "resend event {event} to webhook endpoint {endpoint}",
        "retry delivering {event} to endpoint {endpoint}",
    ],
)
def resend_event(
    db: Db, event: Ref[Event, RESENDABLE], endpoint: Ref[WebhookEndpoint, "status = 'enabled'"]
) -> dict:
    """Deliver one event again to one endpoint (for example after the endpoint was down). The
    endpoint must be the same merchant's, enabled and subscribed to the event's type; events older
    than 30 days cannot be resent. Only a delivery attempt is added to the log.

    Args:
        event: The event.
        endpoint: The endpoint to deliver it to.
    """
    ev, ep = db.get(Event, event), db.get(WebhookEndpoint, endpoint)
    if ev["merchant_id"] != ep["merchant_id"]:
        raise ToolError(
            f"event {event} belongs to merchant {ev['merchant_id']}, endpoint {endpoint} to {ep['merchant_id']}"
        )
    if ep["status"] != "enabled":
        raise ToolError(f"webhook endpoint {endpoint} is disabled; enable it before resending events")
    if not _subscribed(ep, ev["type"]):
        raise ToolError(
            f"webhook endpoint {endpoint} does not receive {ev['type']} events (it gets {ep['events']})"
        )
    oldest = (db.now - timedelta(days=RESEND_DAYS)).isoformat(timespec="seconds")
    if ev["created_at"] < oldest:
        raise ToolError(
            f"event {event} is from {ev['created_at'][:10]}; events older than {RESEND_DAYS} days cannot be resent"
        )
    attempt = 1 + db.scalar(
        "SELECT coalesce(max(attempt), 0) FROM deliveries WHERE event_id = ? AND endpoint_id = ?",
        event,
        endpoint,
    )
    d = db.get(Delivery, _deliver(db, event, ep, attempt))
    return {**d, "event_type": ev["type"], "url": ep["url"]}
