"""notebooks/explore.ipynb runs top to bottom (nbclient, the venv's ipykernel) against a run made by the demo's
own configuration (configs/demo.toml: the same stages and exports as `make demo`, on a smaller sample), and is
committed without outputs."""
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

nbformat = pytest.importorskip("nbformat", reason="needs the dev extras (nbformat, nbclient, ipykernel)")
nbclient = pytest.importorskip("nbclient", reason="needs the dev extras (nbformat, nbclient, ipykernel)")
pytest.importorskip("ipykernel", reason="needs the dev extras (nbformat, nbclient, ipykernel)")

from sftdata.config import load_config  # noqa: E402
from sftdata.synthetic.mind2web import write_parquet  # noqa: E402
from built_once import sample_file  # noqa: E402
from sftdata.synthetic.web_annotated import write_web_annotated  # noqa: E402
from sftdata.pipeline import run_pipeline  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "explore.ipynb"


def test_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "clear the notebook's outputs before saving"


def test_notebook_runs_against_the_demo_run(tmp_path, monkeypatch):
    sample_file(tmp_path / "sample.tfrecord.gz", n_episodes=3, seed=0, size=(540, 1200))
    write_parquet(tmp_path / "mind2web.parquet", tasks=2, seed=0)
    write_web_annotated(tmp_path / "web-annotated", n_episodes=1, seed=0)
    cfg = load_config(ROOT / "configs" / "demo.toml")
    cfg.run_dir, cfg.sources[0].paths, cfg.report = tmp_path / "run", [tmp_path / "sample.tfrecord.gz"], False
    assert [s.type for s in cfg.sources] == ["androidcontrol", "mind2web", "annotated"]  # the demo's phone + web
    cfg.sources[1].paths, cfg.sources[2].root = [tmp_path / "mind2web.parquet"], tmp_path / "web-annotated"
    run = run_pipeline(cfg, progress=False).run

    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print('PREFIX=' + sys.prefix)"))
    monkeypatch.setenv("SFTDATA_RUN", str(run.path))  # the kernel inherits this process's environment
    # kernel "python3" with argv "python ..." is started with sys.executable by jupyter_client: this venv's python
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError on any failing cell

    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert f"PREFIX={sys.prefix}" in text, "the notebook ran in another Python than the test's"
    assert str(run.path) in text and "Episodes per source" in html and "react-zh" in html
    assert len(pngs) >= 4 + 3, "plots and the episode's annotator images are displayed"
    assert "reasoning: " in text and "(no annotation yet)" not in text
