"""The client: ``Geroscope(api_key=..., base_url=...)`` with one attribute per area of the Data API."""
from __future__ import annotations

import os
import re
import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union

from .pages import ChangeFeed, Items, Page
from .transport import USER_AGENT, RateLimit, Transport
from .types import (
    BatchAnswer, ChangeEntry, ClaimItem, Entity, EntityDetail, EntityPaper, Evidence, ExportFile, Group, Paper,
    PaperDetail, SearchHit, Stats, StoryItem, Topic,
)

MAX_LIMIT = 100  # the largest page the API serves; iterators ask for it to spend fewest requests
MAX_BATCH = 500  # ids per POST /api/v1/papers/batch

Params = Dict[str, Any]


def _params(values: Mapping[str, Any]) -> Params:
    """Keyword arguments as query parameters: None left out; ``type_`` and the like lose their trailing underscore."""
    return {name.rstrip("_"): value for name, value in values.items() if value is not None}


def _page_size(limit: Optional[int], max_items: Optional[int]) -> int:
    """The page size an iterator asks for: the one given, else the largest, but no more than it will read."""
    size = limit or MAX_LIMIT
    return max(1, min(size, max_items)) if max_items is not None else size


def _segment(value: str) -> str:
    return urllib.parse.quote(value, safe="")


_LINK_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


class _Area:
    def __init__(self, client: "Geroscope") -> None:
        self._client = client

    def _get(self, path: str, params: Optional[Params] = None) -> Any:
        return self._client._transport.request("GET", path, params).json()


class _ListArea(_Area):
    """What every list shares: one page, every item (cursor by cursor), and its CSV."""

    path = ""

    def _page(self, params: Params) -> Page[Any]:
        return Page(self._get(self.path, params))

    def _items(self, params: Params, limit: Optional[int], max_items: Optional[int]) -> Items[Any]:
        base = {**params, "limit": _page_size(limit, max_items)}
        return Items(lambda cursor: self._page({**base, "cursor": cursor}), max_items=max_items)

    def _changes(self, since: Any, cursor: Optional[str], limit: Optional[int], filters: Params) -> ChangeFeed[Any]:
        params = {**_params(filters), "updated_since": since, "limit": limit or MAX_LIMIT}
        # The list's own change-feed operation (the list path with updated_since answers the same bytes).
        return self._client._feed(f"{self.path}/changes", params, cursor)

    def csv_pages(self, **params: Any) -> Iterator[str]:
        """The list as CSV text (format=csv), one page after another through the Link header (first page's header
        line included in each page). Columns are documented in the OpenAPI document; fields= keeps a subset."""
        url: Optional[str] = self._client._transport.url(self.path, {**_params(params), "format": "csv"})
        while url:
            answer = self._client._transport.request("GET", url, accept="text/csv")
            yield answer.body.decode("utf-8")
            match = _LINK_NEXT.search(answer.headers.get("link", ""))
            url = match.group(1) if match else None



class _CountedArea(_ListArea):
    """A list that also counts its matches (count=true) and groups them (group_by): papers and claims."""

    def count(self, **filters: Any) -> int:
        """How many items match the filters, over every page (count=true; see ``count_estimated``)."""
        return int(self._get(self.path, {**_params(filters), "count": True, "limit": 1})["pagination"]["total"])

    def group_by(self, key: str, **filters: Any) -> List[Group]:
        """Items matching the filters counted by topic, study_type, preprint, indexed_month, organism or relation."""
        return self._get(self.path, {**_params(filters), "group_by": key, "limit": 1})["group_by"]


class Papers(_CountedArea):
    """/api/v1/papers: lists, one paper, batches, counts, groups and the change feed."""

    path = "/api/v1/papers"

    def list(
        self, *, since: Any = None, until: Any = None, min_relevance: Optional[float] = None, study_type: Any = None,
        topic: Any = None, preprint: Optional[bool] = None, q: Optional[str] = None, limit: Optional[int] = None,
        cursor: Optional[str] = None, fields: Any = None, **more: Any,
    ) -> Page[Paper]:
        """One page, newest first by indexed_date. Lists (topic, study_type, fields) take a list or a comma string;
        dates take ``datetime.date`` or YYYY-MM-DD; further parameters of the API go through ``more``."""
        return self._page(_params({
            "since": since, "until": until, "min_relevance": min_relevance, "study_type": study_type, "topic": topic,
            "preprint": preprint, "q": q, "limit": limit, "cursor": cursor, "fields": fields, **more,
        }))

    def iter(self, *, limit: Optional[int] = None, max_items: Optional[int] = None, **filters: Any) -> Items[Paper]:
        """Every paper matching the filters (as ``list`` takes them), page after page; ``max_items`` stops early."""
        return self._items(_params(filters), limit, max_items)

    def get(self, id: str, *, fields: Any = None) -> PaperDetail:
        """One paper with its full story, entities and claims.

        ``id`` is a paper id (MED-39172536), ``pmid:39172536`` or ``doi:10.…``."""
        params = _params({"fields": fields})
        if id.lower().startswith("doi:"):
            return self._get(f"{self.path}/doi:{urllib.parse.quote(id[4:], safe='/')}", params)["data"]
        return self._get(f"{self.path}/{_segment(id)}", params)["data"]

    def batch(self, ids: Sequence[str]) -> BatchAnswer:
        """Many papers by id, DOI (``doi:``) or PMID (``pmid:``), in the order asked, None where none matched.

        Sent as POST /api/v1/papers/batch in parts of 500; each started 100 ids count as one request."""
        data: List[Optional[Paper]] = []
        not_found: List[str] = []
        for start in range(0, len(ids), MAX_BATCH):
            body = {"ids": list(ids[start:start + MAX_BATCH])}
            part = self._client._transport.request("POST", f"{self.path}/batch", body=body).json()
            data.extend(part["data"])
            not_found.extend(part["not_found"])
        return {"data": data, "not_found": not_found}

    def changes(
        self, updated_since: Any, *, cursor: Optional[str] = None, limit: Optional[int] = None, **filters: Any,
    ) -> ChangeFeed[Any]:
        """Papers changed at or after ``updated_since`` (and tombstones), to the end; then ``.resume()``/``.state``."""
        return self._changes(updated_since, cursor, limit, filters)


class Search(_ListArea):
    """/api/v1/search: ranked full-text search (call it, or use ``iter``)."""

    path = "/api/v1/search"

    def __call__(self, q: str, **params: Any) -> Page[SearchHit]:
        return self.list(q, **params)

    def list(self, q: str, **params: Any) -> Page[SearchHit]:
        """One page of hits by score; every /papers filter applies."""
        return self._page({**_params(params), "q": q})

    def iter(
        self, q: str, *, limit: Optional[int] = None, max_items: Optional[int] = None, **filters: Any,
    ) -> Items[SearchHit]:
        return self._items({**_params(filters), "q": q}, limit, max_items)


class Stories(_ListArea):
    """/api/v1/stories: the operator's published stories, each with its paper."""

    path = "/api/v1/stories"

    def list(self, **params: Any) -> Page[StoryItem]:
        return self._page(_params(params))

    def iter(self, *, limit: Optional[int] = None, max_items: Optional[int] = None, **filters: Any) -> Items[StoryItem]:
        return self._items(_params(filters), limit, max_items)

    def changes(
        self, updated_since: Any, *, cursor: Optional[str] = None, limit: Optional[int] = None, **filters: Any,
    ) -> ChangeFeed[Any]:
        return self._changes(updated_since, cursor, limit, filters)


class Claims(_CountedArea):
    """/api/v1/claims: subject, relation, object, with counts and groups."""

    path = "/api/v1/claims"

    def list(self, **params: Any) -> Page[ClaimItem]:
        """One page: subject, object, relation, organism, paper_id filters."""
        return self._page(_params(params))

    def iter(self, *, limit: Optional[int] = None, max_items: Optional[int] = None, **filters: Any) -> Items[ClaimItem]:
        return self._items(_params(filters), limit, max_items)

    def changes(
        self, updated_since: Any, *, cursor: Optional[str] = None, limit: Optional[int] = None, **filters: Any,
    ) -> ChangeFeed[Any]:
        return self._changes(updated_since, cursor, limit, filters)


class Entities(_ListArea):
    """/api/v1/entities: genes, interventions, pathways ... and one entity with its papers."""

    path = "/api/v1/entities"

    def list(self, **params: Any) -> Page[Entity]:
        """One page, most-studied first: ``type_="gene"`` (or ``**{"type": "gene"}``) and ``q``."""
        return self._page(_params(params))

    def iter(self, *, limit: Optional[int] = None, max_items: Optional[int] = None, **filters: Any) -> Items[Entity]:
        return self._items(_params(filters), limit, max_items)

    def get(self, type: str, key: str, **params: Any) -> Page[EntityPaper]:
        """One entity (by key, name or alias: the service redirects) and one page of its papers.

        The entity is ``page.answer["data"]`` (an EntityDetail); the page's items are its papers."""
        answer = self._get(f"{self.path}/{_segment(type)}/{_segment(key)}", _params(params))
        page: Page[EntityPaper] = Page({"data": answer["data"]["papers"], "pagination": answer["pagination"]})
        page.answer = answer
        return page

    def detail(self, type: str, key: str) -> EntityDetail:
        """The entity with its claim count and first page of papers."""
        return self.get(type, key).answer["data"]

    def papers(
        self, type: str, key: str, *, limit: Optional[int] = None, max_items: Optional[int] = None, **params: Any,
    ) -> Items[EntityPaper]:
        """Every paper of the entity, newest first, each with the roles the entity plays in it."""
        base = {**_params(params), "limit": _page_size(limit, max_items)}
        return Items(lambda cursor: self.get(type, key, **{**base, "cursor": cursor}), max_items=max_items)


class Changes(_Area):
    """/api/v1/changes: what changed across papers, stories and claims, as light entries."""

    path = "/api/v1/changes"

    def __call__(
        self, updated_since: Any = None, *, type: Any = None, cursor: Optional[str] = None, limit: Optional[int] = None,
    ) -> ChangeFeed[ChangeEntry]:
        params = _params({"updated_since": updated_since, "type": type, "limit": limit or MAX_LIMIT})
        return self._client._feed(self.path, params, cursor)


class Exports(_Area):
    """/api/v1/exports: the nightly bulk export (downloads need a pro key)."""

    def list(self) -> List[ExportFile]:
        return self._get("/api/v1/exports")["data"]

    def download(self, file: Union[str, ExportFile], to: str, *, format: str = "ndjson") -> str:
        """Saves one export file (gzip-compressed, as listed) at ``to``; ``format="csv"`` takes the CSV beside it."""
        if isinstance(file, dict):
            name = file["csv"]["file"] if format == "csv" and file.get("csv") else file["file"]
        else:
            name = file
        with open(to, "wb") as out:  # written as it arrives: export files can be large
            path = f"/api/v1/exports/{_segment(name)}"
            self._client._transport.request("GET", path, accept="application/gzip", sink=out)
        return to


class Geroscope:
    """A client of the Geroscope Data API.

    >>> client = Geroscope(api_key="grk_...", base_url="https://geroscope.example")
    >>> for paper in client.papers.iter(topic="senescence", since="2025-01-01"):
    ...     print(paper["title"])

    ``api_key`` and ``base_url`` default to the GEROSCOPE_API_KEY and GEROSCOPE_BASE_URL environment variables.
    A 429 or 503 is retried after its Retry-After (a 503 without one backs off 1, 2, 4 s), at most
    ``max_retries`` times; a Retry-After longer than ``max_retry_wait`` seconds (a spent daily allowance) is raised
    at once. Every other failure raises a GeroscopeError subclass carrying the contract's envelope.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
        user_agent: str = USER_AGENT,
    ) -> None:
        base = base_url or os.environ.get("GEROSCOPE_BASE_URL")
        if not base:
            raise ValueError("base_url is required (or set GEROSCOPE_BASE_URL), e.g. https://geroscope.example")
        self._transport = Transport(
            base, api_key if api_key is not None else os.environ.get("GEROSCOPE_API_KEY"), timeout=timeout,
            max_retries=max_retries, max_retry_wait=max_retry_wait, sleep=sleep, user_agent=user_agent,
        )
        self.papers = Papers(self)
        self.search = Search(self)
        self.stories = Stories(self)
        self.claims = Claims(self)
        self.entities = Entities(self)
        self.changes = Changes(self)
        self.exports = Exports(self)

    @property
    def rate_limit(self) -> Optional[RateLimit]:
        """The X-RateLimit-* headers of the latest answer (None before the first)."""
        return self._transport.rate_limit

    def topics(self) -> List[Topic]:
        return self._transport.request("GET", "/api/v1/topics").json()["data"]

    def stats(self) -> Stats:
        return self._transport.request("GET", "/api/v1/stats").json()["data"]

    def evidence(
        self, subject: str, object: str, *, organism: Optional[str] = None, study_type: Any = None,
    ) -> Evidence:
        """What the claims say about one question (subject and object), grouped by organism and direction."""
        params = _params({"subject": subject, "object": object, "organism": organism, "study_type": study_type})
        return self._transport.request("GET", "/api/v1/evidence", params).json()["data"]

    def openapi(self) -> Dict[str, Any]:
        """The service's OpenAPI document."""
        return self._transport.request("GET", "/api/v1/openapi.json").json()

    def resume(self, state: Mapping[str, Any]) -> ChangeFeed[Any]:
        """A change feed from a saved ``feed.state``: only what changed after it."""
        return self._feed(str(state["path"]), dict(state["params"]), state.get("cursor"))

    def _feed(self, path: str, params: Params, cursor: Optional[str]) -> ChangeFeed[Any]:
        def fetch(p: Params, at: Optional[str]) -> Dict[str, Any]:
            return self._transport.request("GET", path, {**p, "cursor": at}).json()

        return ChangeFeed(fetch, path, params, cursor)
