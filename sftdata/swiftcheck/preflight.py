"""Preflight: every row of an export through ms-swift's own ``template.encode``, before any GPU time.

Per row: Swift's real length, its image placeholder tokens, and whether it encodes at all; against the export's
``lengths.json`` (shard row order) and the image tokens our headers predict. A row is *lost* when Swift cannot
encode it, when it is longer than ``max_length`` (Swift drops or truncates it), or when its ``<image>`` tags
do not match its images. Then the packs Swift's sequential packing forms over the real lengths, against the
ones our lengths predict (:func:`sftdata.export.packing.swift_sequential_packs`).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from ..errors import FatalError
from ..export.packing import packing_efficiency, swift_sequential_packs
from ..export.tokens import FAMILIES, png_size
from ..io import read_json, write_json_atomic


def _manifest(export_dir: Path) -> dict[str, Any]:
    manifest = read_json(export_dir / "manifest.json", default=None)
    if not isinstance(manifest, dict) or "shards" not in manifest or "family" not in manifest:
        raise FatalError(f"{export_dir} is not an sftdata export (no manifest.json with shards): run `sftdata export`")
    return manifest


def _image_pads(row: dict, export_dir: Path, family: str, manifest: dict) -> int:
    fam = FAMILIES[family]
    lo, hi = manifest["options"].get("min_pixels"), manifest["options"].get("max_pixels")
    total = 0
    for image in row.get("images") or []:
        path = Path(image if not isinstance(image, dict) else image.get("path", ""))
        w, h = png_size(path if path.is_absolute() else export_dir / path)
        total += fam.image_tokens(w, h, lo, hi)
    return total


def run_preflight(export_dir: Path, model_dir: Path | None = None, max_length: int | None = None,
                  json_out: Path | None = None) -> dict[str, Any]:
    """Encode every row of ``export_dir`` with Swift (``model_dir``'s processor, or one built from the bundled
    Qwen vocabulary) and return the findings (also written to ``json_out``)."""
    export_dir = Path(export_dir).resolve()
    manifest = _manifest(export_dir)
    family = manifest["family"]
    max_length = max_length or int(manifest["options"]["max_length"])
    ours = read_json(export_dir / "lengths.json", default={}) or {}
    try:
        import swift  # noqa: F401
    except ImportError:
        raise FatalError("preflight runs ms-swift's own template: install it with `make swift` "
                         "(or pip install 'sftdata[swift]' after torch and torchvision)") from None
    from .tiny import SwiftEncoder, tiny_model_dir

    with tempfile.TemporaryDirectory(prefix="sftdata-preflight-") as tmp:
        if model_dir is None:
            model_dir = tiny_model_dir(family, Path(tmp) / family, weights=False)
            processor = f"built-in {family} processor ({'Qwen vocabulary' if family != 'glm-4.1v' else 'Qwen vocabulary with GLM-4.1V special tokens: indicative only'})"
        else:
            processor = str(model_dir)
        encoder = SwiftEncoder(model_dir, root_image_dir=export_dir)
        lost: list[dict[str, Any]] = []
        splits: dict[str, Any] = {}
        for split, shards in manifest["shards"].items():
            real: list[int] = []
            predicted = list(ours.get(split, []))
            under, diffs, row_no = 0, [], 0
            for shard in shards:
                with open(export_dir / shard, encoding="utf-8") as f:
                    for line_no, line in enumerate(f, 1):
                        row = json.loads(line)
                        where = {"split": split, "shard": shard, "row": line_no}
                        tags = sum(str(m.get("content") or "").count("<image>") for m in row["messages"])
                        if tags != len(row.get("images") or []):
                            lost.append({**where, "reason": "image_tag_mismatch",
                                         "detail": f"{tags} <image> tags for {len(row.get('images') or [])} images"})
                        got = encoder.encode(row)
                        if "error" in got:
                            lost.append({**where, "reason": "encode_error", "detail": got["error"]})
                            real.append(max_length + 1)
                            row_no += 1
                            continue
                        real.append(got["length"])
                        if got["length"] > max_length:
                            lost.append({**where, "reason": "over_max_length",
                                         "detail": f"{got['length']} tokens > max_length {max_length}"})
                        expected_pads = _image_pads(row, export_dir, family, manifest)
                        if got["image_pads"] != expected_pads:
                            lost.append({**where, "reason": "image_tokens_differ",
                                         "detail": f"Swift {got['image_pads']}, export {expected_pads}"})
                        if not got["assistant_only"]:
                            lost.append({**where, "reason": "labels_outside_answer", "detail": "labels cover prompt text"})
                        if row_no < len(predicted):
                            diffs.append(predicted[row_no] - got["length"])
                            under += predicted[row_no] < got["length"]
                        row_no += 1
            fits = [n for n in real if n <= max_length]
            swift_packs = swift_sequential_packs(fits, max_length) if fits else []
            our_packs = swift_sequential_packs(predicted, max_length) if predicted else []
            splits[split] = {
                "rows": len(real), "under_estimates": under,
                "max_over": max(diffs, default=0), "max_under": -min(min(diffs, default=0), 0),
                "mean_ratio": round(sum(p / r for p, r in zip(predicted, real)) / len(real), 4) if real else None,
                "swift_packs": len(swift_packs), "predicted_packs": len(our_packs),
                "packs_equal": swift_packs == our_packs,
                "swift_efficiency": round(packing_efficiency(fits, swift_packs, max_length), 4) if fits else None,
                "real_lengths": real,
            }
    result = {"export": str(export_dir), "family": family, "processor": processor, "max_length": max_length,
              "rows": sum(s["rows"] for s in splits.values()), "lost": lost, "splits": splits}
    if json_out is not None:
        write_json_atomic(Path(json_out), result)
    return result


def format_preflight(result: dict[str, Any]) -> str:
    """A short table of ``run_preflight``'s findings."""
    lines = [f"preflight {result['export']} ({result['family']}, {result['processor']}, "
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
