"""A web step's image is a viewport cut of a taller page (Mind2Web): the export ships the cut, byte-identical to
the run's store, and labels it in the manifest with the whole page and the box it was cut from."""
import hashlib
import json

from PIL import Image

from sftdata.export.stage import ExportOptions, export_run
from sftdata.ingest import IngestOptions
from sftdata.ingest.mind2web import ingest_mind2web
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from sftdata.synthetic.mind2web import write_parquet


def test_exported_crops_are_labelled_with_their_page_and_box(tmp_path):
    shard = tmp_path / "m2w.parquet"
    write_parquet(shard, tasks=3, seed=1)
    run = RunDir(tmp_path / "run")
    ingest_mind2web([shard], run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    out = tmp_path / "bu"
    result = export_run(run, out, ExportOptions(format="browser-use", split_ratio=0, progress=False))
    cropped = result.manifest["images"]["cropped_from"]
    rows = [json.loads(line) for line in (out / result.manifest["shards"]["train"][0]).read_text().splitlines()]
    names = {image.split("/")[-1] for row in rows for image in row["images"]}
    assert names and names <= set(cropped)  # every exported image of a web step is a labelled crop
    for name in names:
        label = cropped[name]
        page = Image.open(run.path / label["page"])
        left, top, right, bottom = label["box"]
        assert 0 <= left < right <= page.width and 0 <= top < bottom <= page.height
        crop = Image.open(out / "images" / name)
        assert crop.size == (right - left, bottom - top)
        assert crop.convert("RGB").tobytes() == page.convert("RGB").crop(label["box"]).tobytes()  # the page's pixels
        digest = hashlib.sha256((out / "images" / name).read_bytes()).hexdigest()
        assert digest in name  # the store's content address: the exported file is the stored cut, unchanged
