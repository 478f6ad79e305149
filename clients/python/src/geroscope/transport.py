"""HTTP for the client over the standard library (urllib), so it installs with no dependency: the key, gzip,
query strings as the API reads them, and retries of 429 and 503 after their Retry-After."""
from __future__ import annotations

import datetime as _dt
import gzip
import json
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Dict, Mapping, Optional, Tuple

from .errors import GeroscopeError, error_for

USER_AGENT = "geroscope-python/0.1.0"


@dataclass(frozen=True)
class RateLimit:
    """The X-RateLimit-* headers of the latest answer: daily and per-minute allowances (Unix-second resets)."""

    limit: Optional[int]
    remaining: Optional[int]
    reset: Optional[int]
    used: Optional[int]
    minute_limit: Optional[int]
    minute_remaining: Optional[int]
    minute_reset: Optional[int]


@dataclass(frozen=True)
class Answer:
    """One successful answer: its status, headers (lower-case names) and body bytes (decompressed)."""

    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


def query_value(value: Any) -> str:
    """A parameter as the API reads it: booleans true/false, lists comma-separated, dates ISO 8601 (naive times UTC)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(query_value(v) for v in value)
    return str(value)


def query_string(params: Mapping[str, Any]) -> str:
    """The query of `params` without those that are None, percent-encoded."""
    pairs = [(name, query_value(value)) for name, value in params.items() if value is not None]
    return urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)


def _int(headers: Mapping[str, str], name: str) -> Optional[int]:
    value = headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:  # an HTTP date
        from email.utils import parsedate_to_datetime

        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follows 308 (an entity asked for by another of its names) on every Python, and never carries the key to
    another host."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        follow = super().redirect_request(req, fp, 307 if code == 308 else code, msg, headers, newurl)
        if follow is not None and urllib.parse.urlsplit(newurl).netloc != urllib.parse.urlsplit(req.full_url).netloc:
            follow.remove_header("Authorization")
        return follow

    http_error_308 = urllib.request.HTTPRedirectHandler.http_error_302


_opener = urllib.request.build_opener(_Redirects)


class Transport:
    """Sends requests to one service with one key; retries what the contract says to retry."""

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        *,
        timeout: float,
        max_retries: int,
        max_retry_wait: float,
        sleep: Callable[[float], None],
        user_agent: str,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.sleep = sleep
        self.user_agent = user_agent
        self.rate_limit: Optional[RateLimit] = None

    def url(self, path: str, params: Optional[Mapping[str, Any]] = None) -> str:
        query = query_string(params or {})
        return f"{self.base_url}{path}" + (f"?{query}" if query else "")

    def request(
        self,
        method: str,
        path_or_url: str,
        params: Optional[Mapping[str, Any]] = None,
        *,
        body: Any = None,
        accept: str = "application/json",
        headers: Optional[Mapping[str, str]] = None,
        sink: Optional[BinaryIO] = None,
    ) -> Answer:
        """The answer to one request, after at most max_retries waits on 429 or 503; any other failure raises.

        With ``sink``, a successful body is copied into it as it arrives (an export file) instead of held in memory."""
        url = path_or_url if path_or_url.startswith(("http://", "https://")) else self.url(path_or_url, params)
        data = None if body is None else json.dumps(body).encode("utf-8")
        attempt = 0
        while True:
            status, answer_headers, raw = self._send(method, url, data, accept, headers or {}, sink)
            self._note_rate_limit(answer_headers)
            if 200 <= status < 300 or status == 304:
                return Answer(status, answer_headers, raw)
            error = self._error(status, answer_headers, raw)
            if status not in (429, 503) or attempt >= self.max_retries:
                raise error
            wait = error.retry_after if error.retry_after is not None else float(2 ** attempt)
            if wait > self.max_retry_wait:  # a spent daily allowance: not worth blocking on
                raise error
            self.sleep(wait)
            attempt += 1

    def _send(
        self, method: str, url: str, data: Optional[bytes], accept: str, extra: Mapping[str, str],
        sink: Optional[BinaryIO] = None,
    ) -> Tuple[int, Dict[str, str], bytes]:
        headers = {"Accept": accept, "Accept-Encoding": "gzip", "User-Agent": self.user_agent, **extra}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with _opener.open(request, timeout=self.timeout) as response:
                if sink is not None and (response.headers.get("Content-Encoding") or "").lower() != "gzip":
                    shutil.copyfileobj(response, sink, 1 << 20)
                    return response.status, _headers(response.headers), b""
                body = _body(response.headers, response.read())
                if sink is not None:
                    sink.write(body)
                return response.status, _headers(response.headers), body
        except urllib.error.HTTPError as failure:
            with failure:
                return failure.code, _headers(failure.headers), _body(failure.headers, failure.read())

    def _note_rate_limit(self, headers: Mapping[str, str]) -> None:
        if "x-ratelimit-limit" not in headers:
            return
        self.rate_limit = RateLimit(
            limit=_int(headers, "x-ratelimit-limit"),
            remaining=_int(headers, "x-ratelimit-remaining"),
            reset=_int(headers, "x-ratelimit-reset"),
            used=_int(headers, "x-ratelimit-used"),
            minute_limit=_int(headers, "x-ratelimit-minute-limit"),
            minute_remaining=_int(headers, "x-ratelimit-minute-remaining"),
            minute_reset=_int(headers, "x-ratelimit-minute-reset"),
        )

    @staticmethod
    def _error(status: int, headers: Mapping[str, str], raw: bytes) -> GeroscopeError:
        details: Dict[str, Any] = {"request_id": headers.get("x-request-id"), "retry_after": _retry_after(headers)}
        try:
            envelope = json.loads(raw.decode("utf-8"))
            error = envelope["error"]
            status, code, message = int(error["status"]), str(error["code"]), str(error["message"])
            return error_for(status, code, message, envelope=envelope, **details)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            text = raw.decode("utf-8", "replace").strip()[:200]
            return GeroscopeError(status, "unexpected_response", text or f"HTTP {status} without a body", **details)


def _headers(message: Any) -> Dict[str, str]:
    return {name.lower(): value for name, value in message.items()}


def _body(headers: Any, raw: bytes) -> bytes:
    return gzip.decompress(raw) if (headers.get("Content-Encoding") or "").lower() == "gzip" else raw
