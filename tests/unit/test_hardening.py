"""Regression tests for the red-team findings (issue 22): each attack as it was run, refused."""

from __future__ import annotations

import io
import zipfile

import pytest

from app.db import session_scope
from app.services import DomainError
from app.services.tracks import create_challenge
from scorer.errors import InputError
from scorer.io.archive import read_zip
from tests.unit.factories import demo_track, login, organiser

HUGE = 2**63


def corrupt_zip(method: int) -> bytes:
    """A valid archive whose compressed stream is damaged (headers intact, CRC not reached)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("en_out.txt", "The cat sat on the mat.\n" * 200)
    data = bytearray(buffer.getvalue())
    start = 30 + len("en_out.txt")
    for offset in range(start + 2, start + 40):
        data[offset] ^= 0xA5
    return bytes(data)


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_corrupt_compressed_stream_is_refused_with_its_reason(method):
    with pytest.raises(InputError, match="en_out.txt.*cannot be read: its compressed data"):
        read_zip(corrupt_zip(method), "all.zip", 10_000_000)


def test_an_empty_or_nested_zip_says_what_it_is():
    with pytest.raises(InputError, match="contains no file"):
        read_zip(b"PK\x05\x06" + b"\x00" * 18, "empty.zip", 1000)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("en_out.txt", "x\n")
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("en.zip", inner.getvalue())
    with pytest.raises(InputError, match="is itself a zip archive"):
        read_zip(outer.getvalue(), "nested.zip", 10_000)


def test_ids_past_the_databases_integers_are_404_not_500(app, client, settings):
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    for url in (f"/submissions/{HUGE}", f"/systems/{HUGE}/anonymous", f"/annotate/{HUGE}"):
        response = client.get(url)
        assert response.status_code in (404, 405), (url, response.status_code)
    response = client.get(f"/api/v1/submissions/{HUGE}")
    assert response.status_code in (401, 404)


@pytest.mark.parametrize("slug", ["demo\n", "Demo", "de mo", "-demo", "demo_1", "d" * 65, ""])
def test_slugs_are_checked_whole(app, settings, slug):
    with session_scope(settings.database_url) as session, pytest.raises(DomainError, match="slug"):
        create_challenge(session, slug, "Look-alike")


def test_the_judgement_export_neutralises_spreadsheet_formulas(app, settings):
    """Finding 10: a system name like '=HYPERLINK(...)' reached the human-judgement CSV as is."""
    import csv

    from app.services.human_results import export_csv, import_judgements
    from app.services.tracks import get_track

    demo_track(settings)
    rows = (
        "item,system,annotator,criterion,score\n"
        '1,"=HYPERLINK(""http://x.example"",""click"")",@ann,quality,30\n'
        "1,tgen,+ann,quality,50\n"
    )
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        campaign = import_judgements(
            session, track, "quality", "rankme", "quality", rows.encode(), "j.csv", None
        )
        exported = list(csv.reader(io.StringIO(export_csv(session, campaign))))
    cells = [cell for row in exported[1:] for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells), cells
    assert "'=HYPERLINK(\"http://x.example\",\"click\")" in cells and "30" in cells
