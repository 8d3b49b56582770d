"""F_BERT / F_DISC / F_CONT (Jin & Gildea 2022): the alignments on vectors worked by hand, then
the real local model on real sentences (CI installs the semantic extra)."""

import os

import numpy as np
import pytest

from scorer.kinds import get_profile
from scorer.metrics.token_alignment import continuous, discrete, greedy
from tests.support.paths import PROJECT_ROOT, require_semantic

A, B = np.array([1.0, 0.0]), np.array([0.0, 1.0])
C = np.array([0.6, 0.8])  # cos(C, A) = 0.6, cos(C, B) = 0.8


def test_three_token_hypothesis_with_a_repeat_worked_by_hand():
    """Hypothesis (a, a, b) against reference (a, b), all vectors of norm 1.

    greedy: every hypothesis token finds a perfect match, so do both reference tokens:
        P = R = F = 1.
    discrete: only two pairs can be matched one-to-one, each with similarity 1:
        P = 2/3, R = 2/2, F = 2 (2/3)(1) / (5/3) = 0.8.
    continuous: masses h = (1/3, 1/3, 1/3), r = (1/2, 1/2); the cheapest plan sends 1/2 of the
    two a's to reference a (cost 0), the remaining 1/6 to reference b (cost 1) and b to b:
        P = 1/3 [3 (1/2) + 3 (1/3)] = 5/6, R = 1/2 [2 (1/2) + 2 (1/3)] = 5/6, F = 5/6.
    """
    pytest.importorskip("ot", reason="F_CONT's transport needs POT (the semantic extra)")
    hypothesis, reference = np.stack([A, A, B]), np.stack([A, B])
    assert greedy(hypothesis, reference) == pytest.approx((1.0, 1.0, 1.0))
    assert discrete(hypothesis, reference) == pytest.approx((2 / 3, 1.0, 0.8))
    assert continuous(hypothesis, reference) == pytest.approx((5 / 6, 5 / 6, 5 / 6))


def test_partial_similarities_and_masses_from_norms_by_hand():
    """Hypothesis (c, 2a) against reference (a, b): cosines c·a = 0.6, c·b = 0.8, a·a = 1.

    greedy: P = (0.8 + 1) / 2 = 0.9; R = (max(0.6, 1) + max(0.8, 0)) / 2 = 0.9.
    discrete: c-b, a-a gives 1.8 (better than c-a, a-b: 0.6): P = R = 0.9.
    continuous: masses by norm, h = (1/3, 2/3), r = (1/2, 1/2). The plan keeps a on a as far as
    it goes: T(a, a) = 1/2, T(a, b) = 1/6, T(c, b) = 1/3 (cost 1/6 + 0.2/3 = 0.2333; any mass of
    c on a costs more). P = 1/2 [3 (1/3)(0.8) + 3/2 ((1/2)(1) + (1/6)(0))] = 1/2 (0.8 + 0.75)
    = 0.775; R = 1/2 [2 (1/2)(1) + 2 ((1/6)(0) + (1/3)(0.8))] = 1/2 (1 + 0.5333) = 0.76667.
    """
    pytest.importorskip("ot", reason="F_CONT's transport needs POT (the semantic extra)")
    hypothesis, reference = np.stack([C, 2 * A]), np.stack([A, B])
    assert greedy(hypothesis, reference) == pytest.approx((0.9, 0.9, 0.9))
    assert discrete(hypothesis, reference) == pytest.approx((0.9, 0.9, 0.9))
    p, r, f = continuous(hypothesis, reference)
    assert (p, r) == pytest.approx((0.775, 0.766667), abs=1e-5)
    assert f == pytest.approx(2 * p * r / (p + r))


@pytest.mark.slow
def test_real_model_discrete_is_below_greedy_on_a_repetitive_output():
    """The paper's point: greedy alignment credits repeated tokens; one-to-one does not."""
    require_semantic()
    profile = get_profile("drs")
    references = [["Tom was carrying a bucket of water."], ["Mary called us."]]
    repetitive = ["Tom Tom was carrying a bucket bucket bucket of water water.", "Mary called us."]
    scores = {s.metric: s.value for s in profile.score(repetitive, references)}
    assert scores["F_DISC"] < scores["F_BERT"]
    assert scores["F_CONT"] < scores["F_BERT"]
    exact = {s.metric: s.value for s in profile.score(["Mary called us."], [["Mary called us."]])}
    for metric in ("F_BERT", "F_DISC", "F_CONT"):
        assert exact[metric] == pytest.approx(100.0)
    paraphrase = {
        s.metric: s.value for s in profile.score(["Tom carried a pail of water."], [references[0]])
    }
    unrelated = {
        s.metric: s.value for s in profile.score(["The stock market fell."], [references[0]])
    }
    for metric in ("F_BERT", "F_DISC", "F_CONT"):
        assert paraphrase[metric] > unrelated[metric]
    # An empty output scores 0 on its item: the corpus mean halves.
    half = {s.metric: s.value for s in profile.score(["", "Mary called us."], references)}
    assert half["F_DISC"] == pytest.approx(50.0)


def test_the_model_weights_are_checked_against_the_upstream_hash(tmp_path):
    require_semantic()
    from scorer import embeddings
    from scorer.errors import ModelUnavailable

    embeddings.verify_weights(embeddings.model_path())  # the installed copy is upstream's
    (tmp_path / "model.safetensors").write_bytes(b"not the weights")
    with pytest.raises(ModelUnavailable, match="not the upstream"):
        embeddings.verify_weights(tmp_path)


def test_pages_name_the_embedding_metrics_a_board_has_no_scores_for():
    profile = get_profile("drs")
    missing = profile.optional_columns_missing(["BLEU", "METEOR"])
    assert list(missing) == ["F_BERT", "F_DISC", "F_CONT"]
    assert all("semantic extra" in reason for reason in missing.values())
    assert profile.optional_columns_missing(list(profile.columns)) == {}
    assert get_profile("e2e").optional_columns_missing(["BLEU"]) == {}


def test_texts_are_embedded_in_batches_of_one_length_with_the_vectors_of_one_alone():
    """Batches of one token length need no padding (batches of 64 in input order padded PMB
    sentences to twice their length) and change no vector beyond float rounding."""
    require_semantic()
    from scorer import embeddings

    tokenizer, model = embeddings._model()
    texts = [" ".join(["word"] * (1 + (k * 37) % 30)) + "." for k in range(150)]
    shapes: list[tuple[int, ...]] = []
    hook = model.register_forward_hook(
        lambda _module, args, _output: shapes.append(tuple(args[0].shape))
    )
    try:
        vectors = embeddings.token_embeddings(texts)
    finally:
        hook.remove()
    pieces = sum(len(ids) for ids in tokenizer.ids(texts))
    assert sum(rows * width for rows, width in shapes) == pieces  # input order: 1.73 x
    for text in (texts[0], texts[77], texts[149]):
        alone = embeddings.token_embeddings([text])[0]
        assert np.abs(vectors[texts.index(text)] - alone).max() < 1e-5


def test_an_output_equal_to_a_reference_takes_the_references_vectors(tmp_path, monkeypatch):
    require_semantic()
    monkeypatch.setenv("NLGBOARD_CACHE", str(tmp_path))  # the references are embedded here
    from scorer import embeddings
    from scorer.references import ReferenceSet

    embedded: list[str] = []
    real = embeddings.token_embeddings

    def counting(texts):
        embedded.extend(texts)
        return real(texts)

    monkeypatch.setattr(embeddings, "token_embeddings", counting)
    references = ReferenceSet([["Mary called us."], ["Tom slept in the old barn."]])
    outputs = ["Tom slept in the old barn.", "Mary called."]
    scores = {s.metric: s.value for s in get_profile("drs").score(outputs, references)}
    assert embedded == ["Mary called us.", "Tom slept in the old barn.", "Mary called."]
    assert 0 < scores["F_BERT"] < 100


def test_reference_embeddings_are_kept_in_the_cache_folder_for_the_next_process(
    tmp_path, monkeypatch
):
    require_semantic()
    from scorer import embeddings

    monkeypatch.setenv("NLGBOARD_CACHE", str(tmp_path))
    texts = ["Mary called us.", "", "Tom slept in the old barn."]
    first = embeddings.stored_embeddings(texts, "references-test")
    (stored,) = tmp_path.glob("embeddings-v1-*.npz")
    assert stored.stat().st_mode & 0o077 == 0  # the vectors of hidden references stay private

    def not_again(_texts):
        raise AssertionError("embedded again")

    monkeypatch.setattr(embeddings, "token_embeddings", not_again)
    again = embeddings.stored_embeddings(texts, "references-test")
    assert [m.shape for m in again] == [m.shape for m in first] and again[1].shape[0] == 0
    assert all(np.array_equal(a, b) for a, b in zip(again, first, strict=True))
    with pytest.raises(AssertionError, match="embedded again"):
        embeddings.stored_embeddings(texts, "references-other")


ODD_TEXTS = [
    "Tom slept in the old barn.",
    "TOM SLEPT — in the Café «Zoë»!",
    "",
    "   ",
    "Ein Haus am See, 3,5 km entfernt (ca. 10 Min.).",
    "他们在北京。",
    "a " * 300,
    "don't stop-believing... #1 @home $5.00",
]


def test_the_torch_encoder_gives_transformers_bert_vectors():
    """The encoder we run is transformers' BertModel on the same weights, without its import
    cost: the same WordPiece ids, every vector within 1e-5, on odd and long texts too."""
    require_semantic()
    transformers = pytest.importorskip("transformers")
    import torch

    from scorer import embeddings

    path = embeddings.model_path()
    reference_tokenizer = transformers.AutoTokenizer.from_pretrained(str(path))
    reference_model = transformers.AutoModel.from_pretrained(str(path)).eval()
    tokenizer, _ = embeddings._model()
    texts = ODD_TEXTS + [" ".join(["word"] * (1 + (k * 37) % 30)) + "." for k in range(40)]
    expected_ids = reference_tokenizer(texts, truncation=True, max_length=embeddings.MAX_TOKENS)[
        "input_ids"
    ]
    assert tokenizer.ids(texts) == expected_ids
    ours = embeddings.token_embeddings(texts)
    theirs = []
    for text, ids, vectors in zip(texts, expected_ids, ours, strict=True):
        with torch.inference_mode():
            hidden = reference_model(input_ids=torch.tensor([ids])).last_hidden_state
        expected = hidden[0, 1 : len(ids) - 1].numpy()
        assert vectors.shape == expected.shape, text
        assert np.abs(vectors - expected).max(initial=0.0) < 1e-5, text
        theirs.append(expected)
    for align in (greedy, discrete, continuous):  # the scores agree to 1e-6
        for k in range(len(texts) - 1):
            if len(ours[k]) and len(ours[k + 1]):
                assert align(ours[k], ours[k + 1]) == pytest.approx(
                    align(theirs[k], theirs[k + 1]), abs=1e-6
                )


def test_batches_are_shared_by_threads_computing_alone_and_torch_threads_come_back():
    """torch's threads wait for each other after every operation, the slowest on busy cores;
    one Python thread per torch thread, each on one, does not wait."""
    require_semantic()
    import threading

    import torch

    from scorer import embeddings

    _, model = embeddings._model()
    before = torch.get_num_threads()
    if before < 2:
        pytest.skip("one core: nothing to share")
    seen: list[tuple[str, int]] = []
    hook = model.register_forward_hook(
        lambda *_: seen.append((threading.current_thread().name, torch.get_num_threads()))
    )
    texts = [" ".join(["word"] * (1 + k % 12)) + "." for k in range(300)]
    try:
        vectors = embeddings.token_embeddings(texts)
    finally:
        hook.remove()
    assert {threads for _, threads in seen} == {1}
    assert len({name for name, _ in seen}) == before
    assert all(name.startswith("embeddings") for name, _ in seen)
    assert torch.get_num_threads() == before
    assert [len(matrix) for matrix in vectors] == [2 + k % 12 for k in range(300)]


def test_the_last_layer_computes_the_inner_tokens_only_when_asked():
    """Rows of one length: [CLS] and [SEP] leave the last layer's queries and feed-forward,
    the other tokens' states stay those of the whole computation."""
    require_semantic()
    import torch

    from scorer import embeddings

    tokenizer, encoder = embeddings._model()
    ids = torch.tensor(tokenizer.ids(["Tom slept in the barn.", "Mary called us at noon."]))
    with torch.inference_mode():
        whole = encoder(ids)
        inner = encoder(ids, inner_only=True)
        assert inner.shape == (2, ids.shape[1] - 2, 384)
        assert torch.allclose(inner, whole[:, 1:-1], atol=1e-6)
        with pytest.raises(ValueError, match="one length"):
            encoder(ids, torch.ones_like(ids), inner_only=True)


def test_torch_threads_sleep_when_idle_unless_the_user_says_otherwise():
    """Spinning OpenMP threads beside the METEOR processes doubled a cold run's CPU time."""
    require_semantic()
    import subprocess
    import sys

    program = (
        "import os, sys; from scorer import embeddings; embeddings.signature(); "
        "print(os.environ.get('OMP_WAIT_POLICY'), 'torch' in sys.modules)"
    )
    for preset, expected in ((None, "PASSIVE True"), ("ACTIVE", "ACTIVE True")):
        env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
        if preset:
            env["OMP_WAIT_POLICY"] = preset
        env["PYTHONPATH"] = str(PROJECT_ROOT)
        result = subprocess.run(
            [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
        )
        assert result.stdout.split() == expected.split()


def test_pot_is_imported_without_its_optional_packages_which_stay_importable():
    """POT imports sklearn.cluster and networkx when it can (0.8 s of CPU of a cold DRS run)
    for features F_CONT never uses."""
    pytest.importorskip("ot", reason="F_CONT's transport needs POT (the semantic extra)")
    pytest.importorskip("sklearn", reason="nothing to leave out")
    pytest.importorskip("networkx", reason="nothing to leave out")
    program = (
        "import sys; from scorer.metrics.token_alignment import _pot, continuous; "
        "import numpy as np; ot = _pot(); print(ot.__name__, 'sklearn' in sys.modules, "
        "'networkx' in sys.modules); continuous(np.eye(2), np.eye(2)); "
        "import sklearn.cluster, networkx; print('sklearn' in sys.modules)"
    )
    assert printed_by(program) == ["ot", "False", "False", "True"]


def printed_by(program: str) -> list[str]:
    """The words ``python -c program`` prints, in a new process (imports start afresh)."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", program],
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.split()


def test_objects_alive_at_exit_are_frozen_out_of_the_garbage_collector():
    """The interpreter's last collections over torch's modules took 0.4 s of every exit."""
    require_semantic()
    program = (
        "import atexit, gc; atexit.register(lambda: print(gc.get_freeze_count() > 10000)); "
        "from scorer import embeddings; embeddings._torch(); embeddings._torch(); "
        "print(gc.get_freeze_count())"
    )
    assert printed_by(program) == ["0", "True"]  # frozen at exit only (handlers run LIFO)


def test_reference_embeddings_are_computed_when_no_cache_folder_can_be_made(tmp_path, monkeypatch):
    require_semantic()
    from scorer import embeddings

    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("NLGBOARD_CACHE", str(tmp_path / "file" / "cache"))
    vectors = embeddings.stored_embeddings(["Mary called us."], "references-nowhere")
    assert vectors[0].shape == (4, 384)  # mary called us .
