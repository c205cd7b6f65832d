"""Preflight: every row of an export through ms-swift's own ``template.encode``, before any GPU time.

Per row: Swift's real length, its image placeholder tokens, and whether it encodes at all; against the export's
``lengths.json`` (shard row order) and the image tokens our headers predict. A row is *lost* when Swift cannot
encode it, when it is longer than ``max_length`` (Swift drops or truncates it), or when its ``<image>`` tags
do not match its images. Then the packs Swift's sequential packing forms over the real lengths, against the
ones our lengths predict (:func:`sftdata.export.packing.swift_sequential_packs`).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import FatalError, RecordError
from ..export.lengths import LengthModel
from ..export.packing import packing_efficiency
from ..families import FAMILIES
from ..io import read_json, write_json_atomic


def _manifest(export_dir: Path) -> dict[str, Any]:
    manifest = read_json(export_dir / "manifest.json", default=None)
    if not isinstance(manifest, dict) or "shards" not in manifest or "family" not in manifest:
        raise FatalError(f"{export_dir} is not an sftdata export (no manifest.json with shards): run `sftdata export`")
    return manifest


def _image_pads(row: dict, export_dir: Path, lengths: LengthModel) -> int:
    """The image placeholder tokens the export counted for ``row`` (RecordError for an unusable image)."""
    total = 0
    for image in row.get("images") or []:
        path = Path(image if not isinstance(image, dict) else image.get("path", ""))
        path = path if path.is_absolute() else export_dir / path
        total += lengths.image_tokens(path, str(path)) - lengths.family.image_overhead
    return total


def _row_findings(row: dict, got: dict, max_length: int, export_dir: Path,
                  lengths: LengthModel) -> list[tuple[str, str]]:
    """(reason, detail) for each way this row would be lost or mis-trained."""
    found = []
    images = len(row.get("images") or [])
    tags = sum(str(m.get("content") or "").count("<image>") for m in row["messages"])
    if tags != images:
        found.append(("image_tag_mismatch", f"{tags} <image> tags for {images} images"))
    if "error" in got:
        return found + [("encode_error", got["error"])]
    if got["length"] > max_length:
        found.append(("over_max_length", f"{got['length']} tokens > max_length {max_length}"))
    try:
        expected_pads = _image_pads(row, export_dir, lengths)
    except RecordError as exc:  # an image missing or unreadable since the export
        return found + [(exc.reason, exc.detail)]
    if got["image_pads"] != expected_pads:
        found.append(("image_tokens_differ", f"Swift {got['image_pads']}, export {expected_pads}"))
    if not got["assistant_only"]:
        found.append(("labels_outside_answer", "Swift's labels cover text outside the answer"))
    return found


def run_preflight(export_dir: Path, model_dir: Path | None = None, max_length: int | None = None,
                  json_out: Path | None = None) -> dict[str, Any]:
    """Encode every row of ``export_dir`` with Swift (``model_dir``'s processor, or one built from the bundled
    Qwen vocabulary) and return the findings (also written to ``json_out``)."""
    export_dir = Path(export_dir).resolve()
    manifest = _manifest(export_dir)
    family = manifest["family"]
    max_length = max_length or int(manifest["options"]["max_length"])
    ours = read_json(export_dir / "lengths.json", default={}) or {}
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # Swift's per-load INFO lines; the table says what matters
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder or the built-in processor: never a download
    os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
    try:
        import swift  # noqa: F401
    except ImportError:
        raise FatalError("preflight runs ms-swift's own template: install it with `make swift` "
                         "(or pip install 'sftdata[swift]' after torch and torchvision)") from None
    from .tiny import swift_encode_rows, swift_packs, tiny_model_dir

    with tempfile.TemporaryDirectory(prefix="sftdata-preflight-") as tmp:
        if model_dir is None:
            model_dir = tiny_model_dir(family, Path(tmp) / family, weights=False)
            vocabulary = FAMILIES[family].vocabulary  # the stand-in's tokenizer has the Qwen vocabulary
            processor = f"built-in {family} processor (Qwen vocabulary" + (")" if vocabulary == "qwen" else
                         f" with {vocabulary.upper()} special tokens: text lengths indicative)")
        else:
            processor = str(model_dir)
        options = manifest["options"]
        lengths = LengthModel(family, options.get("max_pixels"), options.get("min_pixels"))
        lost: list[dict[str, Any]] = []
        splits: dict[str, Any] = {}
        for split, shards in manifest["shards"].items():
            real: list[int] = []
            predicted = list(ours.get(split, []))
            for shard in shards:
                rows = [json.loads(line) for line in (export_dir / shard).read_text(encoding="utf-8").splitlines()]
                encoded = swift_encode_rows(model_dir, export_dir / shard, root_image_dir=export_dir, errors=True)
                if len(encoded) != len(rows):
                    lost.append({"split": split, "shard": shard, "row": None, "reason": "dropped_by_swift_loader",
                                 "detail": f"Swift's loader kept {len(encoded)} of {len(rows)} rows"})
                    encoded += [{"error": "dropped by Swift's loader"}] * (len(rows) - len(encoded))
                for line_no, (row, got) in enumerate(zip(rows, encoded), 1):
                    lost += [{"split": split, "shard": shard, "row": line_no, "reason": r, "detail": d}
                             for r, d in _row_findings(row, got, max_length, export_dir, lengths)]
                    real.append(got.get("length", max_length + 1))
            diffs = [p - r for p, r in zip(predicted, real) if r <= max_length]
            fits = [n for n in real if n <= max_length]
            swift_packed = swift_packs(fits, max_length) if fits else []
            our_packed = swift_packs(predicted, max_length) if predicted else []
            splits[split] = {
                "rows": len(real), "under_estimates": sum(d < 0 for d in diffs),
                "max_over": max(diffs, default=0), "max_under": -min(min(diffs, default=0), 0),
                "mean_ratio": round(sum(p / r for p, r in zip(predicted, real)) / len(real), 4) if real else None,
                "swift_packs": len(swift_packed), "predicted_packs": len(our_packed),
                "packs_equal": swift_packed == our_packed,
                "swift_efficiency": round(packing_efficiency(fits, swift_packed, max_length), 4) if fits else None,
                "real_lengths": real,
            }
    result = {"export": str(export_dir), "family": family, "processor": processor, "max_length": max_length,
              "rows": sum(s["rows"] for s in splits.values()), "lost": lost, "splits": splits}
    if json_out is not None:
        write_json_atomic(Path(json_out), result)
    return result


def format_preflight(result: dict[str, Any]) -> str:
    """A short table of ``run_preflight``'s findings."""
    try:
        shown = os.path.relpath(result["export"])
    except ValueError:
        shown = result["export"]
    lines = [f"preflight {shown} ({result['family']}, {result['processor']}, "
             f"max_length {result['max_length']})",
             f"{'split':<6} {'rows':>6} {'ours<swift':>10} {'max over':>9} {'ours/swift':>10} "
             f"{'packs ours':>10} {'packs swift':>11} {'same':>5} {'efficiency':>10}"]
    for name, s in result["splits"].items():
        eff = f"{s['swift_efficiency']:.1%}" if s["swift_efficiency"] is not None else "-"
        ratio = f"{s['mean_ratio']:.4f}" if s["mean_ratio"] is not None else "-"
        lines.append(f"{name:<6} {s['rows']:>6} {s['under_estimates']:>10} {s['max_over']:>9} {ratio:>10} "
                     f"{s['predicted_packs']:>10} {s['swift_packs']:>11} {'yes' if s['packs_equal'] else 'no':>5} "
                     f"{eff:>10}")
    if result["lost"]:
        lines.append(f"{len(result['lost'])} row(s) would be lost or mis-trained:")
        lines += [f"  {x['shard']} row {x['row']}: {x['reason']}: {x['detail']}" for x in result["lost"][:20]]
        if len(result["lost"]) > 20:
            lines.append(f"  ... {len(result['lost']) - 20} more in the JSON")
    else:
        lines.append("no row would be lost")
    return "\n".join(lines)
