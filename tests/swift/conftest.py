"""Shared assets of the ms-swift tests: tiny local models of the three families and one run holding the real
fixtures (both sources) and generated sample data, annotated by the template backend.

These tests need the ``swift`` extra (``make test SWIFT=1``). Without it they skip, unless
``SFTDATA_REQUIRE_SWIFT=1`` (set by CI), where a missing ms-swift is a failure: a green CI must have run them.
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
    from sftdata.swiftcheck.tiny import tiny_model_dir

    root = tmp_path_factory.mktemp("tiny-models")
    return {family: tiny_model_dir(family, root / family, weights=True)
            for family in ("qwen2.5-vl", "qwen3-vl", "glm-4.1v")}


@pytest.fixture(scope="session")
def mixed_run(tmp_path_factory):
    """The AndroidControl fixture, the annotated fixture and 4 generated episodes in one annotated run."""
    _require_swift()
    from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
    from sftdata.synthetic.sample import write_sample
    from sftdata.react.stage import AnnotateOptions, annotate_run
    from sftdata.rundir import RunDir

    root = tmp_path_factory.mktemp("swift-run")
    sample = root / "sample.tfrecord.gz"
    write_sample(sample, n_episodes=4, seed=3, size=(1080, 2400))
    run = RunDir(root / "run")
    ingest_androidcontrol([AC_RECORD, sample], run, IngestOptions(), progress=False)
    ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    return run
