"""Upload stores: the local directory and an S3-compatible object store (a real moto server
over HTTP, driven by boto3, as MinIO or AWS would be)."""

from __future__ import annotations

import hashlib
import socket

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Submission
from app.data.storage import LocalStorage, S3Storage, storage_for
from tests.conftest import make_app, make_settings
from tests.support.board import upload
from tests.support.factories import GOOD_OUTPUT, demo_track, participant, run_queue

boto3 = pytest.importorskip("boto3", reason="S3 storage needs boto3 (the 's3' or 'test' extra)")
moto_server = pytest.importorskip("moto.server", reason="the S3 tests need moto[server]")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def s3_endpoint():
    port = _free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def bucket(s3_endpoint, monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    name = f"uploads-{_free_port()}"
    boto3.client("s3", endpoint_url=s3_endpoint).create_bucket(Bucket=name)
    return name


def test_local_storage_is_content_addressed(tmp_path) -> None:
    store = LocalStorage(tmp_path / "uploads")
    digest = store.put(b"one output\n")
    assert digest == hashlib.sha256(b"one output\n").hexdigest()
    assert store.put(b"one output\n") == digest
    assert store.get(digest) == b"one output\n"
    assert len([p for p in (tmp_path / "uploads").rglob("*") if p.is_file()]) == 1
    with pytest.raises(ValueError, match="not a sha256"):
        store.get("../../etc/passwd")
    store.check()


def test_s3_storage_round_trip(bucket, s3_endpoint) -> None:
    store = S3Storage(bucket, "runs/", endpoint_url=s3_endpoint)
    digest = store.put(b"\xe2\x82\xac 20-25\n")
    assert store.get(digest) == b"\xe2\x82\xac 20-25\n"
    keys = boto3.client("s3", endpoint_url=s3_endpoint).list_objects_v2(Bucket=bucket)
    assert [o["Key"] for o in keys["Contents"]] == [f"runs/{digest[:2]}/{digest}"]
    with pytest.raises(FileNotFoundError):
        store.get("0" * 64)
    store.check()
    with pytest.raises(OSError, match="no-such-bucket"):
        S3Storage("no-such-bucket", endpoint_url=s3_endpoint).check()


def test_storage_is_chosen_by_configuration(tmp_path, s3_endpoint) -> None:
    local = make_settings(tmp_path)
    assert isinstance(storage_for(local), LocalStorage)
    s3 = make_settings(tmp_path, storage_url="s3://bucket/p", s3_endpoint_url=s3_endpoint)
    chosen = storage_for(s3)
    assert isinstance(chosen, S3Storage) and (chosen.bucket, chosen.prefix) == ("bucket", "p")
    with pytest.raises(ValueError, match="expected local"):
        storage_for(make_settings(tmp_path, storage_url="ftp://x"))


def test_uploads_go_to_the_object_store_and_are_scored_from_it(tmp_path, bucket, s3_endpoint):
    settings = make_settings(
        tmp_path / "instance", storage_url=f"s3://{bucket}/uploads", s3_endpoint_url=s3_endpoint
    )
    app = make_app(settings, WTF_CSRF_ENABLED=False)
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(app.test_client(), token, "marlin").status_code == 202
    run_queue(app)
    with session_scope(settings.database_url) as session:
        submission = session.scalar(select(Submission))
        assert submission.status == "scored"
        digest = submission.file_sha256
    assert not settings.uploads_path.exists()
    stored = boto3.client("s3", endpoint_url=s3_endpoint).get_object(
        Bucket=bucket, Key=f"uploads/{digest[:2]}/{digest}"
    )
    assert stored["Body"].read() == GOOD_OUTPUT
