"""Shared assets of the ms-swift tests: tiny local models of the three families and one run holding the real
fixtures (both sources), generated phone sample data and generated web data (a Multimodal-Mind2Web shard in the
release's schema and human-annotated web trajectories), annotated by the template backend: one run that mixes
mobile and web episodes, exported as one shard set per format.

These tests carry the ``swift`` marker (tests/extras.py): without ms-swift they skip, unless
``SFTDATA_REQUIRE_SWIFT=1`` (``make test-extras``, CI), where a missing or broken ms-swift is a failure.
"""
import os

import pytest

from support import AC_RECORD, ANNOTATED

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _require_swift():
    try:
        import qwen_vl_utils  # noqa: F401  (Swift's Qwen-VL templates import it, and it imports torchvision)
        import swift  # noqa: F401
    except ImportError as exc:
        if os.environ.get("SFTDATA_REQUIRE_SWIFT") == "1":
            pytest.fail(f"SFTDATA_REQUIRE_SWIFT=1 but ms-swift cannot be imported: {exc}")
        pytest.skip(f"ms-swift is not installed (make swift): {exc}")


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """family -> a tiny local model folder (processor + tokenizer + random weights)."""
    _require_swift()
    from sftdata.preflight.tiny import tiny_model_dir

    root = tmp_path_factory.mktemp("tiny-models")
    return {family: tiny_model_dir(family, root / family, weights=True)
            for family in ("qwen2.5-vl", "qwen3-vl", "glm-4.1v")}


@pytest.fixture(scope="session")
def mixed_run(tmp_path_factory):
    """The AndroidControl fixture, the annotated fixture, 4 generated phone episodes, 4 Mind2Web tasks and 2
    annotated web trajectories in one annotated run."""
    _require_swift()
    from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
    from sftdata.ingest.mind2web import ingest_mind2web
    from sftdata.synthetic.mind2web import write_parquet
    from built_once import sample_file
    from sftdata.synthetic.web_annotated import write_web_annotated
    from sftdata.annotate.stage import AnnotateOptions, annotate_run
    from sftdata.rundir import RunDir

    root = tmp_path_factory.mktemp("swift-run")
    sample = root / "sample.tfrecord.gz"
    sample_file(sample, n_episodes=4, seed=3, size=(1080, 2400))
    write_parquet(root / "mind2web.parquet", tasks=4, seed=3)
    write_web_annotated(root / "web-annotated", n_episodes=2, seed=3)
    run = RunDir(root / "run")
    ingest_androidcontrol([AC_RECORD, sample], run, IngestOptions(), progress=False)
    ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    ingest_mind2web([root / "mind2web.parquet"], run, IngestOptions(), progress=False)
    ingest_annotated(root / "web-annotated", run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    return run
