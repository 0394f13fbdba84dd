"""How a delivery is signed, and how a receiver checks it.

The signature is HMAC-SHA256 over `<timestamp>.<body>` with the endpoint's secret, sent as

    X-Rightsize-Timestamp: 1764601200
    X-Rightsize-Signature: t=1764601200,v1=<64 hex digits>

A receiver recomputes it over the raw body and refuses a timestamp more than 5 minutes old, so a
captured delivery cannot be replayed later. Pure: no Django.
"""

from __future__ import annotations

import hashlib
import hmac

TOLERANCE_S = 300


def webhook_signature(*, secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def webhook_signature_valid(
    *, secret: str, header: str, body: bytes, now: int, tolerance_s: int = TOLERANCE_S
) -> bool:
    """True when `header` signs `body` with `secret` and is at most `tolerance_s` old."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts.get("t", ""))
    except ValueError:
        return False
    if abs(now - timestamp) > tolerance_s:
        return False
    expected = webhook_signature(secret=secret, timestamp=timestamp, body=body)
    return hmac.compare_digest(expected, f"t={timestamp},v1={parts.get('v1', '')}")
