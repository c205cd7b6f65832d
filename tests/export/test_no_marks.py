"""No annotator mark ever reaches the shards: exports of the marked human-annotated fixtures carry the clean or
restored frames only (detection finds no label, circle or arrow in any exported image)."""
import pytest
from PIL import Image

from sftdata.export.stage import ExportOptions, export_run
from sftdata.ingest import IngestOptions, ingest_annotated
from sftdata.overlay.detect import detect_marks
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from support import ANNOTATED, missing_shared


def test_exported_images_of_marked_trajectories_carry_no_marks(tmp_path):
    if not ANNOTATED.exists():
        pytest.skip(missing_shared())
    run = RunDir(tmp_path / "run")
    ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    out = export_run(run, tmp_path / "sft", ExportOptions(format="qwen2.5-vl", history_images=1, split_ratio=0, include_unsure=True,
                                                          progress=False)).out
    images = sorted((out / "images").iterdir())
    assert len(images) == 11  # every frame of the three trajectories
    for path in images:
        marks = detect_marks(Image.open(path).convert("RGB"))
        assert marks.circle is None and marks.arrow is None and marks.label_band is None, path.name
