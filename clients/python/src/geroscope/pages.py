"""Pages of a list, iterators that follow cursors, change feeds that can be resumed, and pandas frames."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Generic, Iterable, Iterator, List, Optional, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    import pandas

T = TypeVar("T")


def to_dataframe(items: Iterable[Any]) -> "pandas.DataFrame":
    """Items as a pandas DataFrame, nested fields flattened into dotted columns (judgement.topic), as in the API's CSV.

    pandas is an optional extra: ``pip install "geroscope[pandas]"``.
    """
    try:
        import pandas
    except ImportError as missing:
        message = 'to_dataframe needs pandas: pip install "geroscope[pandas]" (or pip install pandas)'
        raise ImportError(message) from missing
    rows = [item for item in items if item is not None]
    if not rows:
        return pandas.DataFrame()
    frame = pandas.json_normalize(rows, sep=".")
    # An object that is null in some rows (an unjudged paper's judgement) leaves a column of its own beside its
    # fields' columns: drop it, its fields are then empty (NaN) in those rows, as the CSV leaves them empty.
    parents = [c for c in frame.columns if any(other.startswith(f"{c}.") for other in frame.columns)]
    return frame.drop(columns=parents)


class Page(Generic[T]):
    """One page of a list: its items (``data``), ``pagination``, and the rest of the answer (``group_by``...)."""

    def __init__(self, answer: Dict[str, Any]) -> None:
        self.answer = answer
        self.data: List[T] = answer.get("data", [])
        self.pagination: Dict[str, Any] = answer.get("pagination", {})

    @property
    def next_cursor(self) -> Optional[str]:
        return self.pagination.get("next_cursor")

    @property
    def has_more(self) -> bool:
        return bool(self.pagination.get("has_more"))

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, index: int) -> T:
        return self.data[index]

    def to_dataframe(self) -> "pandas.DataFrame":
        return to_dataframe(self.data)

    def __repr__(self) -> str:
        return f"<Page of {len(self.data)} items, has_more={self.has_more}>"


class Items(Generic[T]):
    """Every item of a list, fetched page by page as iteration goes (each page is one request against the allowance).

    Iterate it, or turn it into a list or a DataFrame; ``pages()`` gives the pages themselves. Iterating again
    starts again from the first page.
    """

    def __init__(
        self, fetch: Callable[[Optional[str]], Page[T]], cursor: Optional[str] = None, max_items: Optional[int] = None,
    ) -> None:
        self._fetch = fetch
        self._cursor = cursor
        self._max_items = max_items

    def pages(self) -> Iterator[Page[T]]:
        cursor = self._cursor
        while True:
            page = self._fetch(cursor)
            yield page
            cursor = page.next_cursor
            if not cursor:
                return

    def __iter__(self) -> Iterator[T]:
        if self._max_items is not None and self._max_items <= 0:
            return
        count = 0
        for page in self.pages():
            for item in page.data:
                yield item
                count += 1
                if self._max_items is not None and count >= self._max_items:
                    return  # before asking for a page that would not be read

    def to_list(self) -> List[T]:
        return list(self)

    def to_dataframe(self) -> "pandas.DataFrame":
        return to_dataframe(self)


class ChangeFeed(Generic[T]):
    """A change feed (updated_since): the changed items and tombstones, page by page to the end, then resumable.

    After iterating to the end, ``resume_cursor`` (and ``state``, a JSON-able dict holding it with the parameters it
    is bound to) says where to continue: ``client.resume(state)`` later gives only what changed since, exactly.
    Tombstones are items with ``deleted: True`` (see ``is_tombstone``).
    """

    def __init__(
        self,
        fetch: Callable[[Dict[str, Any], Optional[str]], Dict[str, Any]],
        path: str,
        params: Dict[str, Any],
        cursor: Optional[str] = None,
    ) -> None:
        self._fetch = fetch
        self.path = path
        self.params = params
        self._start = cursor
        self.resume_cursor: Optional[str] = cursor

    def pages(self) -> Iterator[Page[T]]:
        cursor = self._start
        while True:
            page: Page[T] = Page(self._fetch(self.params, cursor))
            self.resume_cursor = page.pagination.get("resume_cursor", self.resume_cursor)
            yield page
            cursor = page.next_cursor
            if not cursor:
                return

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data

    @property
    def state(self) -> Dict[str, Any]:
        """Where to resume, as plain JSON: the path, its parameters and the resume cursor."""
        return {"path": self.path, "params": dict(self.params), "cursor": self.resume_cursor}

    def resume(self) -> "ChangeFeed[T]":
        """The feed from where this one ended: only what changed since."""
        return ChangeFeed(self._fetch, self.path, self.params, self.resume_cursor)


def is_tombstone(item: Any) -> bool:
    """True for a change-feed entry that says an item left the list (deleted, withdrawn or no longer matching)."""
    return isinstance(item, dict) and item.get("deleted") is True
