"""The export as a Hugging Face ``datasets`` dataset (images embedded), for frameworks other than Swift.

Columns: ``messages`` (list of {role, content}), ``images`` (the screenshots' bytes, as ``datasets.Image``),
``tools`` (JSON string, empty unless exported with ``--agent-tools``); RL rows (``--rl``) add ``id`` and
``solution`` (JSON string). One split per shard prefix.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path


def write_hf_dataset(export_dir: Path, shards: dict[str, list[str]], out: Path, progress: bool | None = None,
                     rl: bool = False) -> None:
    """``progress``: datasets' own bars (None: only when stderr is a terminal, as sftdata's bars)."""
    import sys

    import datasets
    from datasets import Dataset, DatasetDict, Features, Image, Sequence, Value

    if not (progress if progress is not None else sys.stderr.isatty()):
        datasets.disable_progress_bars()

    features = Features({"messages": [{"role": Value("string"), "content": Value("string")}],
                         "images": Sequence(Image()), "tools": Value("string"),
                         **({"id": Value("string"), "solution": Value("string")} if rl else {})})
    rl_columns = ("id", "solution") if rl else ()

    def rows(names: list[str]):
        for name in names:
            with open(export_dir / name, encoding="utf-8") as f:
                for line in f:
                    rec = json.loads(line)
                    yield {"messages": rec["messages"], "tools": rec.get("tools", ""), **{k: rec[k] for k in rl_columns},
                           "images": [{"bytes": (export_dir / "images" / Path(p).name).read_bytes(),
                                       "path": Path(p).name} for p in rec["images"]]}

    with tempfile.TemporaryDirectory() as cache:
        splits = {split: Dataset.from_generator(rows, gen_kwargs={"names": names}, features=features, cache_dir=cache)
                  for split, names in shards.items() if names}
        DatasetDict(splits).save_to_disk(str(out))
