"""``nlg-score`` as participants meet it: folders given for files, the WebNLG releases' folders
read as published, too few reference files, and what ``--compare`` prints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from click.testing import CliRunner

from scorer.cli.score import main
from scorer.io.folders import folder_as_zip, member_files, release_order
from scorer.kinds import get_profile
from tests.support.paths import DEMO_DATA, e2e_file
from tests.support.webnlg_cases import ORACLE_2017, WEBNLG_2017

INSTANCE_TYPES = "rdf-to-text-generation-test-instance-types.json"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def entry(eid: str, category: str, size: int, refs: list[str]) -> str:
    triples = "".join(f"<mtriple>S{eid}_{n} | p{n} | O{n}</mtriple>" for n in range(1, size + 1))
    lexes = "".join(
        f'<lex comment="good" lid="Id{k}">{escape(t)}</lex>' for k, t in enumerate(refs, 1)
    )
    return (
        f'<entry category="{category}" eid="{eid}" size="{size}"><modifiedtripleset>{triples}'
        f"</modifiedtripleset>{lexes}</entry>"
    )


def benchmark(*entries: str) -> str:
    return f'<?xml version="1.0"?><benchmark><entries>{"".join(entries)}</entries></benchmark>'


def three(text: str) -> list[str]:
    return [text, f"{text} indeed", f"so {text}"]


def small_release(folder: Path) -> list[str]:
    """A release-like folder (size folders, one file per category, ids from Id1 in each file,
    a README and a hidden file beside); returns each entry's first reference in the release's
    order: 2triples before 10triples, Airport before Food, Id2 before Id10 within a file."""
    texts = {
        ("2triples", "2triples_Food.xml"): ["the soup is hot", "bread is baked daily"],
        ("2triples", "2triples_Airport.xml"): [f"flight number {n} leaves" for n in range(1, 11)],
        ("10triples", "10triples_Airport.xml"): ["a very long entry about planes"],
    }
    for (size, name), firsts in texts.items():
        (folder / size).mkdir(parents=True, exist_ok=True)
        category = name.split("_")[1].removesuffix(".xml")
        entries = [
            entry(f"Id{n}", category, int(size.removesuffix("triples")), three(text))
            for n, text in enumerate(firsts, 1)
        ]
        (folder / size / name).write_text(benchmark(*reversed(entries)))  # eid order, not file
    (folder / "README.txt").write_text("not XML\n")
    (folder / "2triples" / ".hidden.xml").write_text("<not well-formed")
    airports = texts[("2triples", "2triples_Airport.xml")]
    return [*airports, *texts[("2triples", "2triples_Food.xml")], "a very long entry about planes"]


# --- a folder where a file is wanted ---------------------------------------------------------


def test_a_folder_as_hyp_or_compare_is_a_clear_error_naming_the_option_and_its_files(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("the cat sat\n\nthe dog ran\n")
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    (outputs / "system_a.txt").write_text("the cat sat\nthe dog ran\n")
    for option in ("--hyp", "--compare"):
        hyp = str(outputs) if option == "--hyp" else str(outputs / "system_a.txt")
        args = ["--profile", "e2e", "--refs", str(refs), "--hyp", hyp, "--metrics", "BLEU"]
        if option == "--compare":
            args += ["--compare", str(outputs)]
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)  # a message, no traceback
        assert f"Invalid value for {option}: {outputs} is a folder" in result.output
        assert f"{option} takes one file: the system's outputs" in result.output
        assert f"Give that file (this folder holds 1 file: {outputs / 'system_a.txt'})" in (
            result.output
        )


def test_a_folder_as_refs_of_a_kind_that_reads_one_file_is_a_clear_error(tmp_path):
    (tmp_path / "hyp.txt").write_text("x\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    for kind in ("e2e", "sr18", "drs"):
        result = run("--profile", kind, "--refs", str(tmp_path), "--hyp", str(tmp_path / "hyp.txt"))
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
        assert f"{tmp_path} is a folder; profile {kind} reads its references from one file" in (
            result.output
        )
        assert "give that file (this folder holds" in result.output
    result = run("--profile", "e2e", "--refs", str(empty), "--hyp", str(tmp_path / "hyp.txt"))
    assert "(the folder" in result.output and "holds no file)" in result.output


def test_a_webnlg_folder_without_xml_files_is_a_clear_error(tmp_path):
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "notes.txt").write_text("no XML here\n")
    (tmp_path / "hyp.txt").write_text("x\n")
    result = run(
        "--profile",
        "webnlg2017",
        "--refs",
        str(tmp_path / "refs"),
        "--hyp",
        str(tmp_path / "hyp.txt"),
    )
    assert result.exit_code == 2
    assert "error: refs/: is a folder with no .xml file in it (nor in its subfolders)" in (
        result.output
    )


# --- the WebNLG releases' folders --------------------------------------------------------------


def test_release_order_is_size_folders_by_number_then_file_names():
    names = ["10triples/a.xml", "2triples/b.xml", "1triples/z.xml", "2triples/a.xml"]
    assert release_order(names) == [
        "1triples/z.xml",
        "2triples/a.xml",
        "2triples/b.xml",
        "10triples/a.xml",
    ]


def test_a_generated_release_folder_is_read_in_the_release_order(tmp_path):
    firsts = small_release(tmp_path / "dev")
    (tmp_path / "hyp.txt").write_text("\n".join(firsts) + "\n")
    args = ["--profile", "webnlg2017", "--refs", str(tmp_path / "dev"), "--metrics", "BLEU"]
    result = run(*args, "--hyp", str(tmp_path / "hyp.txt"), "--json", "--breakdown", "size")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["BLEU"] == pytest.approx(100.0)
    assert payload["items"]["all"] == 13
    assert payload["breakdown_items"]["size"] == {"2": 12, "10": 1}
    (tmp_path / "shuffled.txt").write_text("\n".join(sorted(firsts)) + "\n")
    other = run(*args, "--hyp", str(tmp_path / "shuffled.txt"), "--json")
    assert json.loads(other.stdout)["BLEU"] < 50


def test_a_zip_of_the_folder_reads_as_the_folder(tmp_path):
    small_release(tmp_path / "dev")
    profile = get_profile("webnlg2017")
    data, name = folder_as_zip(tmp_path / "dev", ".xml")
    assert name == "dev/"
    assert [n for n, _ in member_files(data, name, ".xml")] == [
        "dev/2triples/2triples_Airport.xml",
        "dev/2triples/2triples_Food.xml",
        "dev/10triples/10triples_Airport.xml",
    ]
    assert folder_as_zip(tmp_path / "dev", ".xml")[0] == data  # the same bytes every time
    items = profile.read_references(data, name)
    assert [i.attributes["eid"] for i in items[:3]] == ["Id1", "Id2", "Id3"]
    broken = tmp_path / "dev" / "2triples" / "2triples_Food.xml"
    broken.write_text(broken.read_text()[:-20])
    with pytest.raises(Exception, match=r"dev/2triples/2triples_Food.xml.*not well-formed"):
        profile.read_references(*folder_as_zip(tmp_path / "dev", ".xml"))


ORACLE_ORDER = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from benchmark_reader import Benchmark

def select_files(topdir):  # the WebNLG corpus reader's: size folders 1..7, sorted(listdir)
    files = []
    for size in range(1, 8):
        folder = os.path.join(topdir, f"{size}triples")
        files += [(folder, name) for name in sorted(os.listdir(folder))]
    return files

b = Benchmark()
b.fill_benchmark(select_files(sys.argv[2]))
json.dump([[e.id, e.category, e.size, [t.s + " | " + t.p + " | " + t.o for t in
            e.modifiedtripleset.triples], [lex.lex for lex in e.lexs]] for e in b.entries],
          sys.stdout)
"""


@pytest.mark.parametrize(("split", "entries"), [("dev", 872), ("train", 6940)])
def test_the_2017_folders_read_as_the_organisers_reader_reads_them(split, entries):
    """Every entry of the published folder, in the order the organisers' ``benchmark_reader``
    holds them when given the release's files as their corpus reader lists them: triples,
    references and attributes alike."""
    from tests.support.paths import shared_file

    folder = shared_file(WEBNLG_2017 / split)
    oracle = shared_file(ORACLE_2017 / "benchmark_reader.py").parent
    done = subprocess.run(
        [sys.executable, "-c", ORACLE_ORDER, str(oracle), str(folder)],
        capture_output=True,
        check=True,
        text=True,
    )
    expected = json.loads(done.stdout)
    items = get_profile("webnlg2017").read_references(*folder_as_zip(folder, ".xml"))
    assert len(items) == len(expected) == entries
    from scorer.io import webnlg
    from scorer.normalise import webnlg2017_reference

    for item, (eid, category, size, triples, lexes) in zip(items, expected, strict=True):
        assert (item.attributes["eid"], item.attributes["category"]) == (eid, category)
        assert item.attributes["size"] == size
        assert webnlg.delinearise(item.input) == tuple(tuple(t.split(" | ")) for t in triples)
        assert item.references == tuple(webnlg2017_reference(lex) for lex in lexes[:3])


def test_the_2017_dev_folder_scores_its_first_references_as_outputs_perfectly(tmp_path):
    from tests.support.paths import shared_file

    folder = shared_file(WEBNLG_2017 / "dev")
    data, name = folder_as_zip(folder, ".xml")
    from scorer.io import webnlg

    firsts = [
        entry.references[0]
        for path, content in member_files(data, name, ".xml")
        for entry in webnlg.read_references(content, path)
    ]
    (tmp_path / "hyp.txt").write_text("\n".join(firsts) + "\n")
    result = run(
        "--profile", "webnlg2017", "--refs", str(folder), "--hyp", str(tmp_path / "hyp.txt"),
        "--metrics", "BLEU", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["BLEU"] == pytest.approx(100.0) and payload["items"]["all"] == 872


# --- fewer references than the kind declares ---------------------------------------------------


def test_fewer_references_than_the_kind_declares_warn_on_stderr(tmp_path):
    two = [
        entry(f"Id{n}", "Food", 1, [f"dish {n} is tasty", f"dish {n} tastes good"]) for n in (1, 2)
    ]
    (tmp_path / "refs.xml").write_text(benchmark(*two))
    (tmp_path / "hyp.txt").write_text("dish 1 is tasty\ndish 2 is tasty\n")
    args = ["--refs", str(tmp_path / "refs.xml"), "--hyp", str(tmp_path / "hyp.txt")]
    result = run("--profile", "webnlg2017", *args, "--metrics", "BLEU")
    assert result.exit_code == 0, result.output
    assert (
        "kind webnlg2017 scores each item on 3 references (its official evaluation reads 3 "
        "reference files), but no item here has more than 2: scored on 2, as if the other 1 "
        "were empty" in result.stderr
    )
    assert "warning" not in result.stdout
    kinds = str(DEMO_DATA / "webnlg" / "challenge.yaml")
    folder = tmp_path / "test"  # the kind reads each entry's type beside the XML
    folder.mkdir()
    (folder / "refs.xml").write_text(benchmark(*two))
    (folder / INSTANCE_TYPES).write_text('{"Id1": "type1", "Id2": "type3"}')
    args = ["--refs", str(folder), "--hyp", str(tmp_path / "hyp.txt")]
    defined = run("--profile", "webnlg2020-en", "--kinds", kinds, *args, "--metrics", "BLEU")
    assert defined.exit_code == 0, defined.output
    assert "kind webnlg2020-en scores each item on 4 references" in defined.stderr
    (tmp_path / "full.xml").write_text(
        benchmark(*[entry(f"Id{n}", "Food", 1, three(f"dish {n}")) for n in (1, 2)])
    )
    full = run("--profile", "webnlg2017", "--refs", str(tmp_path / "full.xml"),
               "--hyp", str(tmp_path / "hyp.txt"), "--metrics", "BLEU")  # fmt: skip
    assert full.exit_code == 0 and "warning" not in full.stderr


def test_kinds_without_a_declared_count_never_warn(tmp_path):
    refs = tmp_path / "refs.txt"
    refs.write_text("the cat sat\n\nthe dog ran\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat\nthe dog ran\n")
    result = run("--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp), "--metrics", "BLEU")
    assert result.exit_code == 0 and result.stderr == ""
    assert get_profile("e2e").declared_references is None
    assert get_profile("webnlg2017").declared_references == 3


# --- --compare ----------------------------------------------------------------------------------


def compare_files(tmp_path: Path) -> list[str]:
    refs = tmp_path / "refs.txt"
    refs.write_text("\n\n".join(f"the place number {i} is near the river" for i in range(30)))
    good = tmp_path / "good.txt"
    good.write_text("\n".join(f"the place number {i} is near the river" for i in range(30)))
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(f"place {i} river" for i in range(30)))
    return ["--profile", "e2e", "--refs", str(refs), "--hyp", str(good), "--compare", str(bad)]


def test_compare_prints_each_metrics_signature_and_p_below_the_resolution(tmp_path):
    result = run(*compare_files(tmp_path), "--metrics", "BLEU,NIST")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("paired bootstrap, 1000 resamples: HYP - COMPARE, 95% interval, p")
    assert "p<0.001: no resample as far from 0" in lines[0] and "1/1001" in lines[0]
    bleu = next(line for line in lines if line.startswith("BLEU "))
    assert bleu.endswith("p<0.001*") and "p=0.0010" not in result.stdout
    plain = run(*compare_files(tmp_path)[:6], "--metrics", "BLEU,NIST").stdout.splitlines()
    signatures = [line for line in plain if line.startswith("# ")]
    assert [line for line in lines if line.startswith("# ")] == signatures
    assert len(signatures) == 2 and "mteval-v13a" in signatures[0]


def test_compare_json_carries_signatures_and_the_resolution(tmp_path):
    result = run(*compare_files(tmp_path), "--metrics", "BLEU,NIST", "--json")
    bleu, nist = json.loads(result.stdout)
    assert bleu["p_resolution"] == pytest.approx(1 / 1001)
    assert bleu["p_value"] == pytest.approx(1 / 1001)  # no resample as extreme: the floor
    assert bleu["signature"].startswith("BLEU|mteval-v13a") and "profile:e2e" in bleu["signature"]
    assert nist["signature"].startswith("NIST|")


def test_a_p_value_above_the_resolution_prints_with_four_decimals():
    from scorer.compare.significance import p_resolution, printed_p

    assert printed_p(p_resolution()) == "p<0.001"
    assert printed_p(2 / 1001) == "p=0.0020"
    assert printed_p(p_resolution(10_000), 10_000) == "p<0.0001"
    assert printed_p(p_resolution(99), 99) == "p<=0.01"


def test_the_dev_loo_files_still_read_as_files():
    result = run(
        "--profile", "e2e", "--refs", str(e2e_file("dev_loo_refs.csv")),
        "--hyp", str(e2e_file("dev_loo_output.tsv")), "--metrics", "SER",
    )  # fmt: skip
    assert result.exit_code == 0 and result.stdout.startswith("SER  11.47\n")  # as E2E prints
    payload = json.loads(run(*_dev_loo_args(), "--json").stdout)
    assert round(payload["SER"], 4) == 11.4659 and payload["printed"]["SER"] == "11.47"


def _dev_loo_args() -> list[str]:
    return [
        "--profile", "e2e", "--refs", str(e2e_file("dev_loo_refs.csv")),
        "--hyp", str(e2e_file("dev_loo_output.tsv")), "--metrics", "SER",
    ]  # fmt: skip


def test_an_empty_output_line_is_named_on_stderr_and_in_the_json_notes(tmp_path):
    """An empty line passes the line count; it is scored (as no text) but named."""
    lines = (DEMO_DATA / "baseline.txt").read_text().splitlines()
    lines[3] = ""
    hyp = tmp_path / "out.txt"
    hyp.write_text("\n".join(lines) + "\n")
    refs = str(DEMO_DATA / "references.csv")
    args = ["--profile", "e2e", "--refs", refs, "--hyp", str(hyp), "--metrics", "BLEU"]
    result = CliRunner().invoke(main, args)
    as_json = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert "warning: out.txt, line 4: output 4 is empty" in result.stderr
    assert "[empty-output]" in result.stderr
    notes = json.loads(as_json.stdout)["notes"]
    assert notes == [line for line in as_json.stderr.splitlines() if line.startswith("warning")]
