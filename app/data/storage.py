"""Content-addressed file store for uploads: a file is kept under its sha256.

Two stores behind one small interface: a local directory (the default; also right for several
machines sharing a network file system) and any S3-compatible object store (AWS S3, MinIO, Ceph,
Garage...) when ``NLGBOARD_STORAGE=s3://bucket/prefix``, so that the web server and workers on
different machines read the same files without sharing a disk.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from app.data.config import Settings


class Storage(Protocol):
    def put(self, data: bytes) -> str:
        """Store ``data``; return its sha256 (the key). Idempotent."""

    def get(self, digest: str) -> bytes:
        """The stored bytes; FileNotFoundError when there are none."""

    def check(self) -> None:
        """Raise when the store cannot be written (readiness probe)."""

    def stored_before(self, cutoff: datetime) -> Iterator[str]:
        """Digests of the files last written before ``cutoff`` (for the orphan sweeper)."""

    def delete(self, digest: str) -> None:
        """Remove a file; missing is fine."""


def check_digest(digest: str) -> str:
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ValueError(f"not a sha256 digest: {digest!r}")
    return digest


class LocalStorage:
    """Files under ``root/ab/abcdef...``; writing the same content twice stores it once."""

    def __init__(self, root: Path):
        self.root = root

    def put(self, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()
        path = self._path(digest)
        if path.exists():
            os.utime(path)  # fresh again: the sweeper leaves files young an hour alone
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as handle:
                handle.write(data)
            os.replace(handle.name, path)
        return digest

    def stored_before(self, cutoff: datetime) -> Iterator[str]:
        limit = cutoff.timestamp()
        for path in self.root.glob("??/*"):
            if len(path.name) == 64 and path.stat().st_mtime < limit:
                yield path.name

    def delete(self, digest: str) -> None:
        self._path(digest).unlink(missing_ok=True)

    def get(self, digest: str) -> bytes:
        return self._path(digest).read_bytes()

    def check(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=self.root):
            pass

    def _path(self, digest: str) -> Path:
        return self.root / check_digest(digest)[:2] / digest


class S3Storage:
    """Objects ``prefix/ab/abcdef...`` in one bucket. Credentials and region come from the
    usual AWS variables (``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``,
    ``AWS_DEFAULT_REGION``); ``endpoint_url`` points at a non-AWS store."""

    def __init__(self, bucket: str, prefix: str = "", endpoint_url: str | None = None):
        try:
            import boto3
        except ImportError:
            raise RuntimeError(
                "NLGBOARD_STORAGE=s3://... needs boto3: pip install -e '.[s3]'"
            ) from None
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.client = boto3.client("s3", endpoint_url=endpoint_url)

    def put(self, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()
        self.client.put_object(Bucket=self.bucket, Key=self._key(digest), Body=data)
        return digest

    def stored_before(self, cutoff: datetime) -> Iterator[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=f"{self.prefix}/" if self.prefix else ""
        )
        for page in pages:
            for item in page.get("Contents", []):
                name = item["Key"].rsplit("/", 1)[-1]
                if len(name) == 64 and item["LastModified"] < cutoff:
                    yield name

    def delete(self, digest: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._key(digest))

    def get(self, digest: str) -> bytes:
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self._key(digest))
        except self.client.exceptions.NoSuchKey:
            raise FileNotFoundError(f"s3://{self.bucket}/{self._key(digest)}") from None
        return answer["Body"].read()

    def check(self) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as error:
            raise OSError(f"bucket {self.bucket}: {error}") from error

    def _key(self, digest: str) -> str:
        key = f"{check_digest(digest)[:2]}/{digest}"
        return f"{self.prefix}/{key}" if self.prefix else key


@lru_cache(maxsize=8)
def storage_for(settings: Settings) -> Storage:
    """The store ``NLGBOARD_STORAGE`` names: unset or ``local`` -> instance/uploads. One per
    settings per process (an S3 client takes tens of milliseconds to build)."""
    url = settings.storage_url
    if not url or url == "local":
        return LocalStorage(settings.uploads_path)
    if url.startswith("s3://"):
        bucket, _, prefix = url[len("s3://") :].partition("/")
        if not bucket:
            raise ValueError(f"NLGBOARD_STORAGE={url!r} names no bucket (s3://bucket/prefix)")
        return S3Storage(bucket, prefix, settings.s3_endpoint_url)
    if url.startswith(("file://", "/")):
        return LocalStorage(Path(url.removeprefix("file://")))
    raise ValueError(f"NLGBOARD_STORAGE={url!r}: expected local, a path, file://... or s3://...")
