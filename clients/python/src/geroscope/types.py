"""The Data API's shapes as TypedDicts, one per named schema of the OpenAPI document (GET /api/v1/openapi.json).

Field names and order follow the document's ``components.schemas``; the service's test suite checks them
against the served document (test/clients/python.test.ts), so a field added there without its twin here fails.
Answers are plain dicts at run time: these types are for editors and type checkers.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Union

if sys.version_info >= (3, 11):
    from typing import Literal, NotRequired, TypedDict
else:  # pragma: no cover - older Pythons: NotRequired fields become ordinary ones for the type checker
    from typing import Literal, TypedDict

    NotRequired = Optional


class Judgement(TypedDict):
    relevance: float
    relevance_confidence: Optional[float]
    newsworthiness: float
    study_type: Optional[str]
    study_type_label: Optional[str]
    study_type_confidence: Optional[float]
    topic: Optional[str]
    topic_confidence: Optional[float]
    promotional: Optional[float]
    model: str
    prompt_version: str
    judged_at: str


class StorySummary(TypedDict):
    headline: str
    dek: str
    url: str


class Story(TypedDict):
    headline: str
    dek: str
    body: str
    why_it_matters: str
    caveats: str
    support: Optional[float]
    model: str
    published_at: str
    url: str


class PaperRef(TypedDict):
    id: str
    source: Literal["MED", "PPR"]
    doi: Optional[str]
    title: str
    authors: str
    journal: str
    published_date: Optional[str]
    indexed_date: str
    preprint: bool
    publication_types: List[str]
    url: str
    site_url: str
    abstract: Optional[str]
    abstract_license: Optional[str]
    judgement: Optional[Judgement]


class Paper(PaperRef):
    story: Optional[StorySummary]


class SearchHit(Paper):
    score: float


class EntityRef(TypedDict):
    type: str
    key: str
    name: str


class PaperEntity(TypedDict):
    type: str
    key: str
    name: str
    ids: Dict[str, str]
    role: str
    detail: Optional[Dict[str, Any]]


class ClaimSide(TypedDict):
    text: str
    entity: Optional[EntityRef]


class Claim(TypedDict):
    id: int
    paper_id: str
    subject: ClaimSide
    relation: str
    object: ClaimSide
    organism: Optional[str]
    context: Optional[Dict[str, Any]]
    direction: Optional[str]
    magnitude: Optional[str]
    evidence: Optional[str]
    confidence: Optional[float]
    created_at: str


class ClaimPaper(TypedDict):
    id: str
    title: str
    doi: Optional[str]
    journal: str
    published_date: Optional[str]
    preprint: bool
    url: str
    site_url: str


class ClaimItem(Claim):
    paper: ClaimPaper


class PaperDetail(PaperRef):
    story: Optional[Story]
    upvotes: int
    entities: List[PaperEntity]
    claims: List[Claim]


class StoryItem(Story):
    paper_id: str
    paper: PaperRef


class Topic(TypedDict):
    slug: str
    name: str
    description: str
    papers_7d: int
    papers_total: int
    site_url: str
    feed_url: str


class Entity(TypedDict):
    type: str
    key: str
    name: str
    ids: Dict[str, str]
    paper_count: int
    api_url: str


class EntityPaper(PaperRef):
    roles: List[str]


class EntityDetail(Entity):
    claim_count: int
    papers: List[EntityPaper]


class StatsPapers(TypedDict):
    total: int
    judged: int
    aging: int
    core: int
    tangential: int
    preprints: int
    open_abstracts: int


class Stats(TypedDict):
    papers: StatsPapers
    stories: Dict[str, int]
    knowledge: Dict[str, int]
    by_study_type: List[Dict[str, Any]]
    by_topic: List[Dict[str, Any]]
    daily: List[Dict[str, Any]]
    coverage: Dict[str, Optional[str]]
    generated_at: str


class Pagination(TypedDict):
    next_cursor: Optional[str]
    has_more: bool
    limit: int
    total: NotRequired[int]
    total_estimated: NotRequired[bool]


class SearchPagination(TypedDict):
    next_cursor: Optional[str]
    has_more: bool
    limit: int
    truncated: bool
    max_hits: NotRequired[int]


class FeedPagination(TypedDict):
    next_cursor: Optional[str]
    has_more: bool
    limit: int
    resume_cursor: str


class Group(TypedDict):
    key: Union[str, bool, None]
    count: int


class Tombstone(TypedDict):
    """A changed item no longer in the list (change feeds); stories carry paper_id instead of id."""

    id: NotRequired[Union[str, int]]
    paper_id: NotRequired[str]
    deleted: bool
    reason: str
    changed_at: str


class ChangeEntry(TypedDict):
    type: Literal["paper", "story", "claim"]
    id: Union[str, int]
    deleted: bool
    changed_at: str


class BatchAnswer(TypedDict):
    data: List[Optional[Paper]]
    not_found: List[str]


class EvidenceSide(TypedDict):
    text: str
    entities: List[EntityRef]


class EvidenceGroup(TypedDict):
    organism: Optional[str]
    direction: Optional[str]
    claim_count: int
    paper_count: int
    study_types: List[str]
    papers: List[PaperRef]


class Evidence(TypedDict):
    subject: EvidenceSide
    object: EvidenceSide
    groups: List[EvidenceGroup]


class ExportCsvFile(TypedDict):
    file: str
    content_type: str
    content_encoding: str
    bytes: int
    sha256: str
    url: str


class ExportFile(TypedDict):
    resource: str
    file: str
    content_type: str
    content_encoding: str
    count: int
    bytes: int
    sha256: str
    generated_at: str
    url: str
    csv: Optional[ExportCsvFile]


class ErrorBody(TypedDict):
    status: int
    code: str
    message: str


class Error(TypedDict):
    error: ErrorBody


#: The TypedDicts named like a schema of the OpenAPI document (the others are parts the document writes inline).
SCHEMAS = {
    t.__name__: t
    for t in (
        Judgement, StorySummary, Story, Paper, SearchHit, EntityRef, PaperEntity, ClaimSide, Claim, ClaimPaper,
        ClaimItem, PaperDetail, StoryItem, Topic, Entity, EntityPaper, EntityDetail, Stats, Pagination,
        SearchPagination, ExportFile, Error,
    )
}
