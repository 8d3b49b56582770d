"""The deployment files, checked as far as this machine allows without Docker: compose's own
validator on the compose file, the image's install script shared with CI, the entrypoint's
roles run for real, every configuration variable documented."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import PROJECT_ROOT

DOCKER = PROJECT_ROOT / "docker"
COMPOSE = DOCKER / "compose.yaml"
REQUIRED = {"POSTGRES_PASSWORD": "pw", "SECRET_KEY": "key"}


def _compose(*args: str, **env: str) -> subprocess.CompletedProcess:
    if shutil.which("docker-compose") is None:
        pytest.skip("docker-compose (Debian package) not installed: .ci/run installs it")
    environ = {k: v for k, v in os.environ.items() if k not in REQUIRED} | env
    return subprocess.run(
        ["docker-compose", "-f", str(COMPOSE), *args],
        capture_output=True, text=True, env=environ, cwd=DOCKER, check=False,
    )  # fmt: skip


def test_compose_file_is_valid_and_wires_the_services() -> None:
    checked = _compose("config", **REQUIRED, NLGBOARD_WORKERS="5")
    assert checked.returncode == 0, checked.stderr
    import yaml

    config = yaml.safe_load(checked.stdout)
    services = config["services"]
    assert set(services) == {"db", "redis", "migrate", "web", "worker"}
    for name in ("web", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )
        assert services[name]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["environment"]["DATABASE_URL"].startswith("postgresql+psycopg://")
    assert services["worker"]["deploy"]["replicas"] == 5
    assert services["migrate"]["command"] == ["migrate"]
    assert {"uploads", "database"} <= set(config["volumes"])
    assert "key" not in COMPOSE.read_text() and "pw" not in re.findall(
        r"\bpw\b", COMPOSE.read_text()
    )


def test_compose_refuses_to_start_without_the_secrets() -> None:
    missing = _compose("config", "-q", POSTGRES_PASSWORD="pw")
    assert missing.returncode != 0 and "set SECRET_KEY" in missing.stderr


def test_image_and_ci_install_from_one_script() -> None:
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert "debian-packages.sh runtime" in dockerfile
    assert "docker/debian-packages.sh test" in (PROJECT_ROOT / ".ci" / "run").read_text()
    assert re.search(r"^USER nlgboard$", dockerfile, re.MULTILINE), (
        "the image runs as a non-root user"
    )
    assert "HEALTHCHECK" in dockerfile
    script = (DOCKER / "debian-packages.sh").read_text()
    runtime = script.split("case")[0]
    for package in ("openjdk-17-jre-headless", "python3-link-grammar",
                    "link-grammar-dictionaries-en"):  # fmt: skip
        assert package in runtime
    for path in (DOCKER / "debian-packages.sh", DOCKER / "entrypoint.sh"):
        shell = path.read_text().splitlines()[0].split()[-1].rsplit("/", 1)[-1]
        assert subprocess.run([shell, "-n", str(path)], check=False).returncode == 0
        assert os.access(path, os.X_OK)
    usage = subprocess.run([str(DOCKER / "debian-packages.sh"), "nonsense"],
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert usage.returncode == 2 and "usage" in usage.stderr


def test_image_copies_every_package_the_project_installs() -> None:
    dockerfile = (DOCKER / "Dockerfile").read_text()
    pyproject = (PROJECT_ROOT / "server" / "pyproject.toml").read_text()
    packages = re.search(r"include = \[([^\]]*)\]", pyproject).group(1)
    for package in re.findall(r'"(\w+)\*"', packages):
        assert f"COPY {package} {package}" in dockerfile, package
    assert "COPY scorer scorer" in dockerfile and "COPY server server" in dockerfile
    assert re.search(r"^COPY .*\bsetup\.py\b", dockerfile, re.MULTILINE), (
        "setup.py builds METEOR's compiled search"
    )
    assert re.search(r'pip install \. "\./server\[', dockerfile), "the board beside its scorer"


def _entrypoint(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    bin_dir = Path(sys.executable).parent
    environ = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
               "NLGBOARD_INSTANCE": str(tmp_path / "instance"), "SECRET_KEY": "k",
               "DATABASE_URL": f"sqlite:///{tmp_path / 'board.sqlite3'}", **env}  # fmt: skip
    environ.pop("REDIS_URL", None)
    return subprocess.run([str(DOCKER / "entrypoint.sh"), *args], capture_output=True,
                          text=True, env=environ, timeout=120, check=False)  # fmt: skip


@pytest.mark.slow  # ~4 s (gunicorn processes): make test runs it
def test_entrypoint_roles_migrate_then_pass_their_healthcheck(tmp_path) -> None:
    before = _entrypoint(tmp_path, "healthcheck", NLGBOARD_ROLE="worker")
    assert before.returncode == 1  # no schema yet
    assert _entrypoint(tmp_path, "migrate").returncode == 0
    assert _entrypoint(tmp_path, "healthcheck", NLGBOARD_ROLE="worker").returncode == 0
    passthrough = _entrypoint(tmp_path, "status", "--json")
    assert passthrough.returncode == 0 and '"ready": true' in passthrough.stdout


def test_every_configuration_variable_is_documented() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    sources = [
        path
        for d in ("app", "worker", "scorer", "baselines")
        for path in (PROJECT_ROOT / d).rglob("*.py")
    ]
    sources += [DOCKER / "compose.yaml", DOCKER / "entrypoint.sh", DOCKER / "Dockerfile"]
    variables = set()
    for path in sources:
        variables |= set(re.findall(r"\b(NLGBOARD_[A-Z0-9_]+|[A-Z]+_URL|SECRET_KEY|WEB_[A-Z]+)\b",
                                    path.read_text("utf-8")))  # fmt: skip
    undocumented = sorted(v for v in variables if f"`{v}`" not in readme)
    assert not undocumented, undocumented
