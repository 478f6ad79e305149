"""Errors of the Data API as exceptions: each carries the contract's envelope {error: {status, code, message}}."""
from __future__ import annotations

from typing import Any, Dict, Optional


class GeroscopeError(Exception):
    """An answer that is not a success: the envelope's status, code and message, the request id and Retry-After.

    A subclass is raised for each family of codes (``NotFound``, ``RateLimited`` ...), so callers can catch
    what they handle; ``code`` is ``unexpected_response`` when the answer was not the envelope (a proxy's page).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        envelope: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after
        own = {"error": {"status": status, "code": code, "message": message}}
        self.envelope = envelope if envelope is not None else own


class InvalidParameter(GeroscopeError):
    """400 invalid_parameter: the message names the parameter."""


class AuthenticationError(GeroscopeError):
    """401 missing_key, invalid_key or revoked_key."""


class PlanRequired(GeroscopeError):
    """403 plan_required: a member key whose owner no longer has the paid membership, or a pro-only file."""


class NotFound(GeroscopeError):
    """404 not_found: no such paper, entity, file or path."""


class RateLimited(GeroscopeError):
    """429 rate_limited, after the retries the client was allowed (retry_after says how long to wait)."""


class Unavailable(GeroscopeError):
    """503 unavailable, after the retries the client was allowed."""


class ServerError(GeroscopeError):
    """500 internal_error: quote request_id when reporting it."""


_BY_CODE = {
    "invalid_parameter": InvalidParameter,
    "missing_key": AuthenticationError,
    "invalid_key": AuthenticationError,
    "revoked_key": AuthenticationError,
    "plan_required": PlanRequired,
    "not_found": NotFound,
    "rate_limited": RateLimited,
    "unavailable": Unavailable,
    "internal_error": ServerError,
}


def error_for(status: int, code: str, message: str, **details: Any) -> GeroscopeError:
    """The exception for one error answer, of the class its code belongs to."""
    return _BY_CODE.get(code, GeroscopeError)(status, code, message, **details)
