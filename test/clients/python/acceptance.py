"""The Python client (clients/python), installed with pip in a fresh virtual environment, against a real service
that test/clients/python.test.ts started: pages a topic to the end, reads details, looks up a batch, counts and
groups, searches, reads every other endpoint, follows the change feed and resumes it, handles a 429 and other
errors (a 503 from a stand-in, the only part not answered by the service), and reads CSV.
Arguments: a JSON object (base_url, keys, control URL, expected ids). Prints a JSON summary.
"""
import csv
import gzip
import io
import json
import os
import sys
import tempfile
import urllib.request

import geroscope
from geroscope import Geroscope, InvalidParameter, NotFound, RateLimited, is_tombstone
from geroscope.types import SCHEMAS

given = json.loads(sys.argv[1])
base_url = given["base_url"]
summary = {}


def control(action, **params):
    """Asks the test's server to move its clock or change the data (test/clients/python.test.ts)."""
    query = "&".join(f"{k}={v}" for k, v in params.items())
    request = urllib.request.Request(f"{given['control']}/{action}?{query}", method="POST")
    with urllib.request.urlopen(request) as answer:
        return answer.read()


client = Geroscope(api_key=given["key"], base_url=base_url)

# Paging a topic to the end, two at a time, newest first.
senescence = [paper["id"] for paper in client.papers.iter(topic="senescence", since="2025-01-01", limit=2)]
assert senescence == given["senescence"], senescence
pages = [len(page) for page in client.papers.iter(topic="senescence", limit=2).pages()]
assert pages == [2, 2, 2, 1], pages
first_page = client.papers.list(topic=["senescence", "glp-1"], limit=3)
assert first_page.has_more and len(first_page) == 3 and first_page.next_cursor
before = client.rate_limit.used
assert len(list(client.papers.iter(topic="senescence", limit=2, max_items=2))) == 2
assert client.rate_limit.used == before + 1  # max_items: no page fetched beyond what is read
summary["paged"] = senescence

# Details: by id, by DOI and by PMID.
detail = client.papers.get(given["detail_id"])
assert detail["id"] == given["detail_id"] and detail["story"]["headline"] == "Old cells, cleared"
assert [claim["relation"] for claim in detail["claims"]] == ["extends_lifespan"]
assert client.papers.get(f"doi:{detail['doi']}")["id"] == detail["id"]
assert client.papers.get(f"pmid:{detail['id'].split('-')[1]}")["id"] == detail["id"]
assert set(client.papers.get(detail["id"], fields="id,title")) == {"id", "title"}

# Batch lookup, in order, unknown ids reported.
batch = client.papers.batch([senescence[0], f"doi:{detail['doi']}", "MED-99999999"])
assert [p and p["id"] for p in batch["data"]] == [senescence[0], detail["id"], None]
assert batch["not_found"] == ["MED-99999999"]

# Counting and grouping.
assert client.papers.count(topic="senescence") == len(senescence)
groups = {g["key"]: g["count"] for g in client.papers.group_by("topic")}
assert groups["senescence"] == len(senescence) and groups["glp-1"] == 1, groups
assert client.claims.count(relation="extends_lifespan") == 1

# Search, and the other lists and endpoints.
hits = client.search("klotho").data
assert [hit["id"] for hit in hits] == [given["klotho_id"]] and 0 < hits[0]["score"] <= 1
assert [hit["id"] for hit in client.search.iter("cleared senescent cells", limit=1, max_items=1)] != []
stories = client.stories.iter().to_list()
assert [s["paper_id"] for s in stories] == [detail["id"]] and stories[0]["paper"]["id"] == detail["id"]
claims = client.claims.list(subject="rapamycin")
assert [c["paper"]["id"] for c in claims] == [detail["id"]]
entities = client.entities.list(type_="intervention")
assert [e["key"] for e in entities] == ["CHEBI:9168"]
entity = client.entities.get("intervention", "CHEBI:9168")
assert entity.answer["data"]["name"] == "rapamycin" and [p["id"] for p in entity] == [detail["id"]]
assert [p["id"] for p in client.entities.papers("intervention", "rapamycin")] == [detail["id"]]  # by name: redirected
assert {t["slug"] for t in client.topics()} >= {"senescence", "glp-1"}
assert client.stats()["papers"]["total"] == given["total"]
evidence = client.evidence("rapamycin", "lifespan")
assert [g["claim_count"] for g in evidence["groups"]] == [1]
# The bulk export (made by the test before the script): listed, and its papers CSV downloaded and read.
exported = {f["resource"]: f for f in client.exports.list()}
assert exported["papers"]["count"] == given["total"], exported
target = os.path.join(tempfile.mkdtemp(), "papers.csv.gz")
client.exports.download(exported["papers"], target, format="csv")
with gzip.open(target, "rt", encoding="utf-8", newline="") as file:
    exported_ids = [row["id"] for row in csv.DictReader(file)]
assert sorted(exported_ids) == sorted([*senescence, "MED-92001"]), exported_ids

# The change feed: everything so far, then (after a change) only the change, from a saved state.
feed = client.papers.changes("2000-01-01T00:00:00Z", topic="senescence", limit=3)
items = list(feed)
seen = [item["id"] for item in items if not is_tombstone(item)]
# Papers of other topics changed too: they come as tombstones (reason excluded), so a mirror can drop them.
assert sorted(seen) == sorted(senescence) and feed.resume_cursor, items
assert {item["reason"] for item in items if is_tombstone(item)} <= {"excluded"}
state = json.loads(json.dumps(feed.state))  # as a program would keep it
control("add-paper", id=given["new_id"])
later = [item for item in client.resume(state)]
assert [item["id"] for item in later] == [given["new_id"]] and not any(is_tombstone(i) for i in later), later
entries = list(client.changes(type="paper"))
assert given["new_id"] in {e["id"] for e in entries}
summary["feed"] = {"first": len(seen), "resumed": [item["id"] for item in later]}

# Errors carry the envelope.
try:
    client.papers.get("MED-99999999")
    raise AssertionError("expected NotFound")
except NotFound as error:
    assert error.status == 404 and error.code == "not_found" and error.request_id
    assert error.envelope["error"]["code"] == "not_found"
try:
    client.papers.list(limit=0)
    raise AssertionError("expected InvalidParameter")
except InvalidParameter as error:
    assert "limit" in error.message
    assert error.envelope == {"error": {"status": 400, "code": "invalid_parameter", "message": error.message}}
try:
    Geroscope(api_key="", base_url=base_url).topics()
    raise AssertionError("expected missing_key")
except geroscope.AuthenticationError as error:
    assert error.code == "missing_key"

# A 429: the tiny key has 2 requests a minute; the client waits Retry-After (our sleep moves the service's clock).
waits = []


def sleep(seconds):
    waits.append(seconds)
    control("advance", seconds=seconds)


tiny = Geroscope(api_key=given["tiny_key"], base_url=base_url, sleep=sleep)
for _ in range(3):
    tiny.topics()
assert waits == [30.0], waits
assert tiny.rate_limit.minute_limit == 2
impatient = Geroscope(api_key=given["tiny_key"], base_url=base_url, max_retries=0)
impatient.topics()
try:
    impatient.topics()
    raise AssertionError("expected RateLimited")
except RateLimited as error:
    # The clock stands at the start of the next minute now (10:01:00): a whole minute to wait.
    assert error.status == 429 and error.code == "rate_limited" and error.retry_after == 60, error.retry_after
summary["waits"] = waits

# A 503 is retried too: after its Retry-After, else backing off 1, 2, 4 s. The service answers 503 only while its
# database is down, so here a stand-in in front of it answers the first three requests with 503s.
import http.server
import threading

outages = [{"Retry-After": "5"}, {}, {}]


class Flaky(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if outages:
            headers = outages.pop(0)
            body = b'{"error":{"status":503,"code":"unavailable","message":"The database is unreachable."}}'
            self.send_response(503)
            for name, value in {**headers, "Content-Type": "application/json"}.items():
                self.send_header(name, value)
        elif self.path == "/api/v1/topics":
            body = b"<html>Bad gateway</html>"
            self.send_response(502)
            self.send_header("Content-Type", "text/html")
        else:
            body = b'{"data":[]}'
            self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


stand_in = http.server.HTTPServer(("127.0.0.1", 0), Flaky)
threading.Thread(target=stand_in.serve_forever, daemon=True).start()
backoffs = []
flaky = Geroscope(api_key="k", base_url=f"http://127.0.0.1:{stand_in.server_address[1]}", sleep=backoffs.append)
assert flaky.stories.list().data == [] and backoffs == [5.0, 2.0, 4.0], backoffs
try:
    flaky.topics()
    raise AssertionError("expected a GeroscopeError")
except geroscope.GeroscopeError as error:  # not the envelope: still an error, with what the answer said
    assert (error.status, error.code) == (502, "unexpected_response") and "Bad gateway" in error.message
stand_in.shutdown()

# CSV pages, followed through the Link header.
rows = []
for text in client.papers.csv_pages(topic="senescence", limit=3):
    rows.extend(csv.DictReader(io.StringIO(text)))
assert [r["id"] for r in rows] == [given["new_id"], *senescence], [r["id"] for r in rows]
assert rows[0]["judgement.topic"] == "senescence"

# pandas is an optional extra: a DataFrame when it is installed, else an ImportError that says how to get it.
try:
    import pandas  # noqa: F401

    frame = client.papers.iter(topic="senescence").to_dataframe()
    assert "judgement.topic" in frame.columns and len(frame) == len(senescence) + 1
    summary["pandas"] = True
except ImportError:
    try:
        client.papers.list().to_dataframe()
        raise AssertionError("expected ImportError")
    except ImportError as error:
        assert "geroscope[pandas]" in str(error)
    summary["pandas"] = False

# The TypedDicts, for the test to check against the served OpenAPI document.
summary["types"] = {name: list(t.__annotations__) for name, t in SCHEMAS.items()}
print(json.dumps(summary))
