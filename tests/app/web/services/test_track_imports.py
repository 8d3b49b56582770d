"""What an import of a test set tells the organiser (``track_imports.import_items``, the one
path of ``nlgboard track import``, the organisers' form and bundles): a set without its kind's
attribute file (WebNLG+ 2020's instance types) is imported without those subsets, saying so,
and scored on all items as ``nlg-score`` scores it; a set with fewer references than its kind
declares is imported with a warning, on every path."""

from __future__ import annotations

import io
import json
import shutil

from click.testing import CliRunner
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import Item, ItemSubset, Track
from app.web.services.access import ORGANISERS
from app.web.services.leaderboard import leaderboard
from app.web.services.track_imports import import_track
from app.web.services.tracks import get_challenge
from scorer.cli.score import main as nlg_score
from scorer.io.folders import folder_as_zip
from tests.app.web.services.test_bundles import _boards, _export, _import
from tests.conftest import make_app, make_settings
from tests.support.factories import login, organiser, run_queue
from tests.support.paths import DEMO_DATA, shared_file
from tests.support.webnlg2020 import INSTANCE_TYPES, WEBNLG_2020, bundle_kind

WEBNLG = DEMO_DATA / "webnlg"
CHALLENGE = "webnlg-plus-example"
LEFT_OUT = (
    "subsets of 'type' left out: the set has no rdf-to-text-generation-test-instance-types.json "
    "beside its references (the kind's file for them), so it is scored on all items only, "
    "without those subsets"
)


def _subsets_stored(settings) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(func.count(ItemSubset.id))) or 0


def _without_types(tmp_path):
    """The example bundle with its test folder's instance-types file taken out."""
    folder = shutil.copytree(WEBNLG, tmp_path / "webnlg")
    (folder / "test" / INSTANCE_TYPES.name).unlink()
    return folder


def test_a_bundle_without_the_types_file_imports_and_scores_without_type_subsets(
    app, runner, settings, tmp_path
):
    folder = _without_types(tmp_path)
    imported = runner.invoke(args=["challenge", "import", str(folder)])
    assert imported.exit_code == 0, imported.output
    assert f"track en (en): {LEFT_OUT}" in imported.output
    assert _subsets_stored(settings) == 0
    offline = CliRunner().invoke(
        nlg_score,
        ["--kinds", str(folder / "challenge.yaml"), "--refs", str(folder / "test"),
         "--hyp", str(folder / "team_output.txt"), "--json"],
    )  # fmt: skip
    assert offline.exit_code == 0, offline.output
    expected = json.loads(offline.stdout)
    assert expected["skipped_subsets"] == ["type"]
    with session_scope(settings.database_url) as session:
        _, (row,) = leaderboard(session, session.scalars(select(Track)).one(), viewer=ORGANISERS)
    assert row.subsets == {} == expected["subsets"]
    assert row.scores == {k: v for k, v in expected.items() if k in row.scores}
    assert row.scores and row.signatures == expected["signature"]


def test_a_set_without_the_types_file_round_trips_without_its_subsets(
    app, runner, settings, tmp_path
):
    """The export writes the items without ``type``; imported again, the set comes back as
    it was, saying again what it lacks."""
    assert runner.invoke(args=["challenge", "import", str(_without_types(tmp_path))]).exit_code == 0
    other = make_settings(tmp_path / "other")
    other_app = make_app(other, WTF_CSRF_ENABLED=False)
    report = _import(other_app, other, _export(settings, CHALLENGE))
    assert report.notices == [f"track en (en): {LEFT_OUT}"]
    run_queue(other_app)
    assert _boards(other, CHALLENGE) == _boards(settings, CHALLENGE)


def test_the_form_imports_a_set_without_the_types_file_saying_so(app, runner, client, settings):
    assert runner.invoke(args=["challenge", "import", str(WEBNLG)]).exit_code == 0
    with session_scope(settings.database_url) as session:
        profile = session.scalars(select(Track)).one().profile  # the form's choice: name@digest
    organiser(settings, "org@x.org", CHALLENGE)
    login(client, "org@x.org")
    xml = WEBNLG / "test" / "test_with_lex.xml"
    form = client.post(
        f"/organise/{CHALLENGE}",
        data={"action": "track", "track-slug": "dev", "track-kind": profile,
              "track-language": "en",
              "track-references": (io.BytesIO(xml.read_bytes()), xml.name)},
        content_type="multipart/form-data",
        follow_redirects=True,
    )  # fmt: skip
    assert form.status_code == 200
    page = " ".join(form.get_data(as_text=True).replace("&#39;", "'").split())
    assert f"6 items, 17 references; note: {LEFT_OUT}" in page
    with session_scope(settings.database_url) as session:
        dev = session.scalars(select(Track).where(Track.slug == "dev")).one()
        assert dev.profile == profile
        assert not any(item.subsets for item in dev.test_sets[0].items)


def test_the_real_english_dev_folder_imports_without_type_subsets(app, runner, settings):
    """The release's dev folder (16 XML files per size, no instance types) as a test set of
    the example bundle's kind: every entry, no ``type`` subset, and the report says why."""
    dev = shared_file(WEBNLG_2020 / "en" / "dev")
    assert runner.invoke(args=["challenge", "create", "dev", "--title", "Dev"]).exit_code == 0
    with session_scope(settings.database_url) as session:
        _, report = import_track(
            session, None, get_challenge(session, "dev"), "en", "webnlg2020-en",
            language="en", references=folder_as_zip(dev, ".xml"), definition=bundle_kind("en"),
        )  # fmt: skip
    assert "track dev/en (en): 1667 items" in report
    assert report.endswith(f"; note: {LEFT_OUT}")
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count(Item.id))) == 1667
    assert _subsets_stored(settings) == 0


# --- fewer references than the kind declares ---------------------------------------------------

SHORT = "kind webnlg2017 scores each item on 3 references (its official evaluation reads 3"


def _one_reference_xml() -> bytes:
    """The example WebNLG test file with every entry's references cut to its first: WebNLG
    2017's kind scores on 3."""
    text = (WEBNLG / "test" / "test_with_lex.xml").read_text()
    kept: list[str] = []
    seen_in_entry = 0
    for line in text.splitlines(keepends=True):
        if "<entry " in line:
            seen_in_entry = 0
        if "<lex " in line:
            seen_in_entry += 1
            if seen_in_entry > 1:
                continue
        kept.append(line)
    return "".join(kept).encode()


def test_the_cli_import_warns_of_fewer_references_than_the_kind_declares(runner, tmp_path):
    refs = tmp_path / "one_reference.xml"
    refs.write_bytes(_one_reference_xml())
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "webnlg", "--refs", str(refs)]
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "6 items, 6 references; warning: " + SHORT in said
    assert "no item here has more than 1: scored on 1" in said


def test_the_form_import_report_warns_of_fewer_references_than_the_kind_declares(
    app, runner, client, settings
):
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    organiser(settings, "org@x.org", "w")
    login(client, "org@x.org")
    form = client.post(
        "/organise/w",
        data={"action": "track", "track-slug": "t", "track-kind": "webnlg",
              "track-references": (io.BytesIO(_one_reference_xml()), "one_reference.xml")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )  # fmt: skip
    assert form.status_code == 200
    page = " ".join(form.get_data(as_text=True).split())
    assert "6 items, 6 references; warning: " + SHORT in page


def test_a_full_set_gives_no_warning_on_the_cli(runner):
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "webnlg",
              "--refs", str(WEBNLG / "test" / "test_with_lex.xml")]
    )  # fmt: skip
    assert result.exit_code == 0 and "warning" not in result.output
