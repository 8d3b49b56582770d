"""What ships, tested as shipped: the two distributions built as a release builds them (sdist,
then the wheel from the sdist), installed NON-editable into new virtual environments, and
their commands run from outside the checkout with no path of the checkout importable.

- the participants' install (the root, ``nlgboard``, no extras): ``scorer`` alone on their
  path, ``nlg-score`` on the demo files of every built-in kind and of the example bundle's kind
  giving the dev install's JSON, ``nlgboard-submit --check-only`` against a live board;
- the board (``nlgboard-server``, from ``server/``, installed from both sdists): ``nlgboard run``
  serving its first page, a bundle imported with its own kind;
- the image: the Dockerfile's install steps replayed in a new venv on exactly the files it
  copies (no container builder can fetch the base image here), then its entrypoint's
  ``migrate`` and ``web`` roles and the web healthcheck.

The installs use uv where ``make test`` fetched it (``build/uv``: seconds from its cache), pip
otherwise. A missing data file, module or dependency fails here, not on a participant's machine.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from scorer.cache import cache_folder
from tests.support.paths import DEMO_DATA, PROJECT_ROOT
from tests.support.servers import free_port, wait_for_port
from tests.support.source_tree import copy_file, copy_source, source_files

pytestmark = pytest.mark.install

UV = PROJECT_ROOT / "build" / "uv" / "bin" / "uv"
VERSION = "0.2.0"
EMBEDDING_METRICS = {"F_BERT", "F_DISC", "F_CONT"}
"""The semantic extra's metrics: the dev install may have them (CI's), a plain install not."""
DEMO_RUNS = {
    "e2e": ("references.csv", "team_output.tsv"),
    "sr18": ("sr18/en-sentences.txt", "sr18/wordorder-lab_en_out.txt"),
    "drs": ("drs/test.txt.raw", "drs/team_output.txt"),
    "webnlg2017": ("webnlg/test/test_with_lex.xml", "webnlg/team_output.txt"),
    "webnlg2020-en": ("webnlg/test", "webnlg/team_output.txt"),
}
"""Profile -> (references, outputs) under app/demo_data; webnlg2020-en is the example bundle's
kind (--kinds webnlg/challenge.yaml)."""


def run(args: list[str | Path], **options: object) -> subprocess.CompletedProcess:
    """A command that must succeed; its output is in the failure message."""
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, check=False, **options
    )
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="session")
def shared(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A folder every test process of this run shares (xdist workers' base temps are its
    subfolders): the distributions and venvs are built once per run."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


def once(folder: Path, make: Callable[[Path], None]) -> Path:
    """``folder``, made by ``make`` unless another test process of this run made it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".done").touch()
    return folder


def clean_env(venv: Path, home: Path, **extra: str) -> dict[str, str]:
    """No path of the checkout or of the dev venv: only the venv's bin and the system's."""
    keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TMPDIR", "USER")}
    return {
        **keep,
        "PATH": f"{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "NLGBOARD_CACHE": str(cache_folder()),  # the built lexicon, not rebuilt per venv
        "NLGBOARD_METEOR_PROCESSES": "1",
        **extra,
    }


def make_venv(folder: Path, requirements: list[str], cwd: Path | None = None) -> None:
    """A new venv at ``folder`` with ``requirements`` installed (non-editable)."""
    if UV.exists():
        run([UV, "venv", "--quiet", "--python", sys.executable, folder])
        run([UV, "pip", "install", "--quiet", "--python", folder / "bin" / "python", *requirements],
            cwd=cwd)  # fmt: skip
    else:
        run([sys.executable, "-m", "venv", folder])
        run([folder / "bin" / "pip", "install", "--quiet", *requirements], cwd=cwd)


@pytest.fixture(scope="session")
def dists(shared: Path) -> Path:
    """Both distributions' sdists and wheels, each wheel built from its sdist."""

    def build(out: Path) -> None:
        source = out / "source"
        copy_source(source)
        installer = ["--installer", "uv"] if UV.exists() else []
        env = {**os.environ, "PATH": f"{UV.parent}:{os.environ['PATH']}"}
        for project in (source, source / "server"):
            run([sys.executable, "-m", "build", *installer, "--outdir", out, project], env=env)

    return once(shared / "dists", build)


def dist(dists: Path, pattern: str) -> Path:
    (found,) = dists.glob(pattern)
    return found


@pytest.fixture(scope="session")
def participants(shared: Path, dists: Path) -> Path:
    """The participants' install: the scorer's wheel, no extras."""
    wheel = dist(dists, f"nlgboard-{VERSION}-*.whl")
    return once(shared / "venv-participants", lambda venv: make_venv(venv, [str(wheel)]))


@pytest.fixture(scope="session")
def board(shared: Path, dists: Path) -> Path:
    """The board's install, from the two sdists."""
    sdists = [
        dist(dists, f"nlgboard-{VERSION}.tar.gz"),
        dist(dists, f"nlgboard_server-{VERSION}.tar.gz"),
    ]
    return once(shared / "venv-board", lambda venv: make_venv(venv, [str(s) for s in sdists]))


def site_packages(venv: Path) -> Path:
    (found,) = venv.glob("lib/python3*/site-packages")
    return found


def top_level(venv: Path, distribution: str) -> set[str]:
    """The top-level names a distribution installed, from its RECORD."""
    (info,) = site_packages(venv).glob(f"{distribution}-{VERSION}.dist-info")
    names = {
        line.split(",")[0].split("/")[0] for line in (info / "RECORD").read_text().splitlines()
    }
    return {n for n in names if not n.endswith(".dist-info") and n != ".."}


def test_the_participants_install_puts_only_the_scorer_on_their_path(participants, tmp_path):
    assert top_level(participants, "nlgboard") == {"scorer"}
    packages = site_packages(participants)
    assert not [n for n in ("app", "worker", "baselines", "migrations") if (packages / n).exists()]
    env = clean_env(participants, tmp_path)
    python = participants / "bin" / "python"
    for module in ("app", "worker", "baselines", "migrations", "flask"):
        missing = subprocess.run([python, "-c", f"import {module}"], cwd=tmp_path, env=env,
                                 capture_output=True, text=True, check=False)  # fmt: skip
        assert "ModuleNotFoundError" in missing.stderr, module
    shipped = run([python, "-c", "import scorer.kinds, scorer.meteor.aligner as a, "
                   "scorer.metrics.tercom_search as t; "
                   "print(scorer.kinds.__file__); print(a.COMPILED is not None); "
                   "print(t.COMPILED is not None)"],
                  cwd=tmp_path, env=env).stdout.splitlines()  # fmt: skip
    assert shipped[0].startswith(str(packages)), "the installed scorer, not the checkout's"
    if shutil.which("cc") or shutil.which("gcc"):
        assert shipped[1] == "True", "METEOR's compiled search was built into the wheel"
        assert shipped[2] == "True", "TER's compiled search was built into the wheel"


def demo_outputs(profile: str, folder: Path) -> Path:
    """The demo outputs for the profile's references (DRS: the 4 standard items' lines of the
    team's 7, whose last 3 answer the challenge sets)."""
    path = DEMO_DATA / DEMO_RUNS[profile][1]
    if profile != "drs":
        return path
    standard = folder / "drs_standard_outputs.txt"
    standard.write_text("".join(path.read_text("utf-8").splitlines(keepends=True)[:4]), "utf-8")
    return standard


def nlg_score(command: list[str | Path], profile: str, env: dict, cwd: Path) -> subprocess.Popen:
    refs = DEMO_DATA / DEMO_RUNS[profile][0]
    args = ["--profile", profile, "--json", "--refs", refs, "--hyp", demo_outputs(profile, cwd)]
    if profile == "webnlg2020-en":
        args += ["--kinds", DEMO_DATA / "webnlg" / "challenge.yaml"]
    return subprocess.Popen([str(a) for a in [*command, *args]], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def finished(process: subprocess.Popen) -> dict:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, f"{process.args}: exit {process.returncode}\n{err}"
    return json.loads(out)


@pytest.mark.parametrize("profile", list(DEMO_RUNS))
def test_nlg_score_as_installed_gives_the_dev_installs_numbers(participants, profile, tmp_path):
    dev = nlg_score([sys.executable, "-m", "scorer.cli.score"], profile, dict(os.environ), tmp_path)
    installed = finished(nlg_score([participants / "bin" / "nlg-score"], profile,
                                   clean_env(participants, tmp_path), tmp_path))  # fmt: skip
    expected = finished(dev)
    absent = set(expected) - set(installed)
    assert absent <= EMBEDDING_METRICS, absent
    assert installed == {k: v for k, v in expected.items() if k not in absent} | {
        part: {k: v for k, v in expected[part].items() if k not in absent}
        for part in ("signature", "printed")
    }


@contextmanager
def serving(command: list[str | Path], env: dict, cwd: Path, port: int) -> Iterator[str]:
    """A server process until the block ends; its output is in the failure message."""
    log = cwd / "server.log"
    with open(log, "w") as output:
        process = subprocess.Popen([str(a) for a in command], cwd=cwd, env=env, stdout=output,
                                   stderr=subprocess.STDOUT)  # fmt: skip
    try:
        try:
            wait_for_port(port, timeout=180)
        except TimeoutError:
            pytest.fail(f"{command} did not listen:\n{log.read_text()}")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def board_env(venv: Path, home: Path) -> dict[str, str]:
    return clean_env(venv, home, NLGBOARD_INSTANCE=str(home / "instance"), SECRET_KEY="test-key")


def page_with(url: str, text: str = "") -> str:
    """The page at ``url`` once it answers 200 with ``text`` in it (the demo is seeded after
    the board starts serving); the deadline is only a safety net."""
    deadline = time.monotonic() + 300
    while True:
        try:
            page = requests.get(url, timeout=30)
            if page.status_code == 200 and text in page.text:
                return page.text
        except requests.ConnectionError:
            pass
        assert time.monotonic() < deadline, f"{url} did not answer 200 with {text!r}"
        time.sleep(0.2)


def test_the_board_as_installed_serves_and_the_participants_tools_check_against_it(
    board, participants, tmp_path
):
    env = board_env(board, tmp_path)
    assert top_level(board, "nlgboard_server") == {"app", "worker", "baselines", "migrations"}
    port = free_port()
    command = [board / "bin" / "nlgboard", "run", "--upgrade", "--demo", "--host", "127.0.0.1",
               "--port", str(port)]  # fmt: skip
    with serving(command, env, tmp_path, port) as url:
        page_with(url, "Demo: restaurant descriptions")
        imported = run([board / "bin" / "nlgboard", "challenge", "import", DEMO_DATA / "webnlg"],
                       cwd=tmp_path, env=env)  # fmt: skip
        assert "webnlg-plus-example" in imported.stdout + imported.stderr
        kind = requests.get(f"{url}/api/v1/challenges/webnlg-plus-example/tracks/en/kind").json()
        assert kind["profile"].startswith("webnlg2020-en@")
        created = run([board / "bin" / "nlgboard", "user", "create", "lead@uni.example",
                       "--team", "Uni NLG"], cwd=tmp_path, env=env)  # fmt: skip
        token = created.stdout.strip().splitlines()[-1]  # --check-only verifies it
        submit = participants / "bin" / "nlgboard-submit"
        checks = [
            ("demo-e2e", "main", DEMO_DATA / "team_output.tsv", "10 outputs for the 10 en inputs"),
            ("webnlg-plus-example", "en", DEMO_DATA / "webnlg" / "team_output.txt",
             "6 outputs for the 6 en inputs"),
        ]  # fmt: skip
        for challenge, track, file, said in checks:
            checked = run([submit, "--url", url, "--token", token, "--challenge",
                           challenge, "--track", track, "--system", "s", "--check-only", file],
                          cwd=tmp_path, env=clean_env(participants, tmp_path))  # fmt: skip
            assert f"checked: {said}" in checked.stderr
    python = board / "bin" / "python"
    runs = run([python, "-c", "from baselines.manifest import RUNS_DIR; "
                "print(sorted(p.name for p in RUNS_DIR.iterdir()))"], cwd=tmp_path, env=env)  # fmt: skip
    assert "manifest.json" in runs.stdout, "the bundled baseline runs are installed"


def dockerfile_steps() -> tuple[list[tuple[str, str]], list[str], list[str], dict[str, str]]:
    """The Dockerfile's copies into its work folder, its pip install arguments, its ``python
    -c`` checks and its environment, with each ARG's default substituted."""
    text = (PROJECT_ROOT / "docker" / "Dockerfile").read_text().replace("\\\n", " ")
    args = dict(re.findall(r"^ARG (\w+)=(\S*)", text, re.MULTILINE))
    for name, value in args.items():
        text = text.replace("${" + name + "}", value)
    copies = []
    for line in re.findall(r"^COPY (.+)$", text, re.MULTILINE):
        *sources, target = shlex.split(line)
        if not target.startswith("/"):
            copies += [(source, target) for source in sources]
    (install,) = re.findall(r"pip install ([^&]+?)\s*(?:&&|$)", text, re.MULTILINE)
    checks = re.findall(r'python -c "([^"]+)"', text)
    environment = dict(re.findall(r"(NLGBOARD_\w+)=(\S+)", text.split("RUN", 1)[0]))
    return copies, shlex.split(install), checks, environment


def copy_tracked(source: str, target: Path) -> None:
    """A Dockerfile ``COPY source target``: the checkout's files under ``source``."""
    for name in source_files(source):
        copy_file(name, target / Path(name).relative_to(source) if name != source else target)


def test_the_images_install_steps_replayed_serve_the_board(shared, tmp_path):
    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("the image's files are the checkout's tracked files: no .git here")
    copies, install, checks, environment = dockerfile_steps()
    assert install[0] == "." and install[1].startswith("./server"), install
    workdir = tmp_path / "app"
    for source, target in copies:
        into_folder = target in ("./", ".")
        copy_tracked(source, workdir / Path(source).name if into_folder else workdir / target)
    assert (workdir / "server" / "app").is_symlink(), "server/ links to the board's packages"
    venv = tmp_path / "venv"
    make_venv(venv, install, cwd=workdir)
    env = board_env(venv, tmp_path)
    assert environment.get("NLGBOARD_INSTANCE") == "/data"  # the image's; here a temp folder
    for check in checks:
        run([venv / "bin" / "python", "-c", check], cwd=tmp_path, env=env)
    entrypoint = PROJECT_ROOT / "docker" / "entrypoint.sh"
    run([entrypoint, "migrate"], cwd=tmp_path, env=env)
    port = free_port()
    web = {**env, "PORT": str(port), "WEB_PROCESSES": "1"}
    with serving([entrypoint, "web"], web, tmp_path, port) as url:
        page_with(url)
        run([entrypoint, "healthcheck"], cwd=tmp_path, env=web)


def nlg_human(command: list[str | Path], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    args = ["trueskill", "--ratings", DEMO_DATA / "human_quality.csv", "--runs", "40", "--json"]
    return subprocess.run([str(a) for a in [*command, *args]], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_nlg_human_names_its_extra_in_the_core_install_and_ranks_in_the_boards(
    participants, board, tmp_path
):
    core = nlg_human([participants / "bin" / "nlg-human"], clean_env(participants, tmp_path),
                     tmp_path)  # fmt: skip
    assert core.returncode != 0 and "Traceback" not in core.stderr
    assert "pip install 'nlgboard[human]'" in core.stderr + core.stdout
    dev = nlg_human([Path(sys.executable).parent / "nlg-human"], dict(os.environ), tmp_path)
    installed = nlg_human([board / "bin" / "nlg-human"], clean_env(board, tmp_path), tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert json.loads(installed.stdout) == json.loads(dev.stdout)
