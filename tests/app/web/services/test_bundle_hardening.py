"""Bundles an organiser may not turn against the board (issue 42): teams they did not create,
files outside the bundle, hostile file names, exhaustion, out-of-range metric options and
options of the wrong type, each refused with a message naming the file and the key."""

from __future__ import annotations

import pytest
import yaml
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import Challenge, Membership, Submission, System, Team
from app.data.storage import storage_for
from app.web.errors import BundleError
from app.web.services.bundles import Bundle, import_bundle
from tests.support.factories import demo_track, participant
from tests.support.paths import DEMO_DATA

OUTPUTS = b"\n".join(b"output %d" % n for n in range(10)) + b"\n"


def _bundle(definition: dict | None = None, **files: bytes) -> Bundle:
    base = {
        "format": 1,
        "challenge": {"slug": "b", "title": "B"},
        "tracks": [
            {"slug": "t", "kind": "e2e", "test_sets": [{"language": "en", "references": "r.csv"}]}
        ],
    }
    base.update(definition or {})
    return Bundle(
        {
            "challenge.yaml": yaml.safe_dump(base).encode(),
            "r.csv": (DEMO_DATA / "references.csv").read_bytes(),
            **files,
        }
    )


def _import(app, settings, bundle: Bundle):
    with session_scope(settings.database_url) as session:
        return import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), bundle
        )


def _refused(app, settings, bundle: Bundle) -> str:
    with pytest.raises(BundleError) as refused:
        _import(app, settings, bundle)
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count(Challenge.id)).where(Challenge.slug == "b")) == 0
    return str(refused.value)


# --- 1. a bundle never joins a team it did not create ----------------------------------------


def test_a_bundle_naming_another_challenges_team_gets_a_new_team_not_that_one(app, settings):
    demo_track(settings, challenge="a")
    participant(settings, "member@a.org", team="Team A")
    system = {"track": "t", "name": "Planted", "team": "Team A",
              "submissions": [{"language": "en", "file": "out.txt"}]}  # fmt: skip
    other = {"track": "t", "name": "Second", "team": "Team A", "submissions": []}
    _import(app, settings, _bundle({"systems": [system, other]}, **{"out.txt": OUTPUTS}))
    with session_scope(settings.database_url) as session:
        original = session.scalars(select(Team).where(Team.name == "Team A")).one()
        planted = session.scalars(select(System).where(System.name == "Planted")).one()
        second = session.scalars(select(System).where(System.name == "Second")).one()
        assert planted.team is not None and planted.team.id != original.id
        assert planted.team.name == "Team A (b)" and second.team_id == planted.team_id
        assert (
            session.scalar(
                select(func.count(Membership.id)).where(Membership.team_id == planted.team_id)
            )
            == 0
        )
        assert session.scalars(select(Submission)).one().system.team_id != original.id


def test_a_bundle_team_differing_from_a_board_team_in_letter_case_only_gets_its_own_name(
    app, settings
):
    """Team names are unique letter case aside (``create_team``, ``join_team``): a bundle's
    "team a" beside the board's "Team A" would make the join form pick either."""
    demo_track(settings, challenge="a")
    participant(settings, "member@a.org", team="Team A")
    system = {"track": "t", "name": "Planted", "team": "team a", "submissions": []}
    _import(app, settings, _bundle({"systems": [system]}))
    with session_scope(settings.database_url) as session:
        planted = session.scalars(select(System).where(System.name == "Planted")).one()
        assert planted.team.name == "team a (b)"


# --- 2. a folder bundle holds its own files: no links, nothing outside it -----------------------


def _folder(tmp_path, bundle: Bundle):
    folder = tmp_path / "bundle"
    for name, data in bundle.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def test_a_folder_bundle_refuses_a_file_linked_outside_it_naming_the_file(
    app, runner, settings, tmp_path
):
    secret = tmp_path / "secret_key"
    secret.write_bytes((DEMO_DATA / "references.csv").read_bytes())
    folder = _folder(tmp_path, _bundle())
    (folder / "r.csv").unlink()
    (folder / "r.csv").symlink_to(secret)
    result = runner.invoke(args=["challenge", "import", str(folder)])
    assert result.exit_code != 0
    assert "r.csv" in result.output and "symbolic link" in result.output
    (folder / "r.csv").unlink()
    (folder / "data").symlink_to(tmp_path, target_is_directory=True)  # a linked folder
    (folder / "r.csv").write_bytes(secret.read_bytes())
    result = runner.invoke(args=["challenge", "import", str(folder)])
    assert result.exit_code != 0 and "data" in result.output and "symbolic link" in result.output
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count(Challenge.id))) == 0
    (folder / "data").unlink()
    result = runner.invoke(args=["challenge", "import", str(folder)])
    assert result.exit_code == 0, result.output


# --- 4. no exhaustion: YAML aliases, a huge definition, a zip that inflates too far ---------------

ALIAS_BOMB = b"""format: 1
a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
challenge: {slug: b, title: B}
"""


def test_a_definition_with_yaml_aliases_is_refused_naming_the_line(app, settings):
    message = _refused(app, settings, Bundle({"challenge.yaml": ALIAS_BOMB}))
    assert "challenge.yaml line 2" in message and "anchors and aliases" in message


def test_a_definition_past_its_size_cap_is_refused_before_it_is_parsed(app, settings):
    from app.web.services.bundles import DEFINITION_MAX_BYTES

    base = _bundle()
    padding = b"# " + b"x" * 1000 + b"\n"
    text = base.files["challenge.yaml"] + padding * (DEFINITION_MAX_BYTES // len(padding) + 1)
    message = _refused(app, settings, Bundle({**base.files, "challenge.yaml": text}))
    assert "challenge.yaml" in message and f"{DEFINITION_MAX_BYTES:,} bytes" in message


def _zip(files: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_bundle_inflating_past_the_boards_cap_is_refused_on_the_web(tmp_path):
    import io

    from app.web.services.accounts import create_user
    from tests.conftest import make_app, make_settings
    from tests.support.factories import login

    settings = make_settings(tmp_path / "board", bundle_max_bytes=200_000)
    app = make_app(settings, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    with session_scope(settings.database_url) as session:
        from app.data.models import Role

        create_user(session, "org@x.org", "password123", Role.ORGANISER)
    login(client, "org@x.org")
    files = {**_bundle().files, "padding.txt": b"\0" * 1_000_000}
    data = _zip(files)
    assert len(data) < 10_000
    upload = {"bundle-bundle": (io.BytesIO(data), "b.zip")}
    page = client.post("/organise/bundle", data=upload, follow_redirects=True)
    assert "Bundle refused, nothing stored" in page.text and "200,000 bytes" in page.text
    del files["padding.txt"]
    upload = {"bundle-bundle": (io.BytesIO(_zip(files)), "b.zip")}
    page = client.post("/organise/bundle", data=upload, follow_redirects=True)
    assert "Imported challenge b" in page.text


def test_the_default_inflate_cap_is_well_under_a_workers_memory():
    from app.data.config import Settings

    assert Settings.from_env({}).bundle_max_bytes == 200 * 1024 * 1024
    assert Settings.from_env({"NLGBOARD_BUNDLE_MAX_BYTES": "1000"}).bundle_max_bytes == 1000


# --- 6. a reader option of the wrong type is a refusal naming the key, never a 500 ----------------


def _defined(reader: dict) -> Bundle:
    kind = {"name": "mine", "reader": reader, "metrics": ["BLEU"]}
    track = {"slug": "t", "kind": "mine",
             "test_sets": [{"language": "en", "references": "r.jsonl"}]}  # fmt: skip
    return _bundle(
        {"kinds": [kind], "tracks": [track]},
        **{"r.jsonl": b'{"input": "a", "references": ["b"]}\n'},
    )


WRONG_READER_OPTIONS = [
    ({"name": "jsonl", "input": 3}, "kinds[0].reader.input: expected a field name"),
    ({"name": "jsonl", "attributes": "category"}, "kinds[0].reader.attributes: expected a list"),
    ({"name": "csv", "delimiter": ["tab"]}, "kinds[0].reader.delimiter: expected comma or tab"),
    ({"name": "webnlg-xml", "seen_categories": 5}, "kinds[0].reader.seen_categories: expected"),
    ({"name": "webnlg-xml", "language": {"en": 1}}, "kinds[0].reader.language: expected"),
]


@pytest.mark.parametrize(("reader", "message"), WRONG_READER_OPTIONS)
def test_a_reader_option_of_the_wrong_type_is_refused_naming_the_key(
    app, settings, reader, message
):
    assert message in _refused(app, settings, _defined(reader))


def test_a_reader_option_of_the_wrong_type_is_refused_on_the_web_not_a_500(app, client, settings):
    import io

    from app.data.models import Role
    from app.web.services.accounts import create_user
    from tests.support.factories import login

    with session_scope(settings.database_url) as session:
        create_user(session, "org@x.org", "password123", Role.ORGANISER)
    login(client, "org@x.org")
    for reader, message in WRONG_READER_OPTIONS:
        upload = {"bundle-bundle": (io.BytesIO(_zip(_defined(reader).files)), "b.zip")}
        page = client.post("/organise/bundle", data=upload, follow_redirects=True)
        assert page.status_code == 200 and "Bundle refused, nothing stored" in page.text
        assert message in page.text.replace("&#39;", "'")


# --- 3. a submission's filename from a bundle is a plain file name ---------------------------------


@pytest.mark.parametrize("filename", ["../../../etc/passwd", "a/b.txt", "a\\b.txt", "..", "x\x00y",
                                      "out\n.txt", "x" * 256])  # fmt: skip
def test_a_submissions_filename_with_a_path_or_control_character_is_refused(
    app, settings, filename
):
    system = {"track": "t", "name": "S", "team": None,
              "submissions": [{"language": "en", "file": "out.txt", "filename": filename}]}  # fmt: skip
    message = _refused(app, settings, _bundle({"systems": [system]}, **{"out.txt": OUTPUTS}))
    assert "challenge.yaml: systems[0].submissions[0].filename:" in message
