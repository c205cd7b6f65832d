"""``sftdata preflight``: every row of an export through ms-swift's own template before any GPU time."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import fatal_to_exit, main


@main.command()
@click.argument("export_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--model", "model_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The model folder you will train (its processor and tokenizer are loaded, never its weights) "
                   "[default: a processor built from the bundled Qwen vocabulary for the export's family].")
@click.option("--max-length", type=click.IntRange(min=1), help="Swift's --max_length [default: the export's].")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the findings as JSON here [default: EXPORT_DIR/preflight.json].")
@fatal_to_exit
def preflight(export_dir, model_dir, max_length, json_out):
    """Encode every row of an export with ms-swift's template and report what training would lose.

    \b
    Each row goes through Swift's own `template.encode` (the `swift` extra): rows that fail to encode, that
    Swift would drop or truncate (longer than max_length), whose <image> tags do not match their images, or
    whose image tokens differ from the export's estimate are listed; then Swift's real lengths against
    ours, and the packs Swift's sequential packing forms against the ones the manifest predicts.
    Exit status 0 when no row would be lost, 1 otherwise.

    \b
    Example:
      sftdata preflight processed/demo/export/qwen2.5-vl-memory
      sftdata preflight out/sft --model /models/Qwen2.5-VL-7B-Instruct
    """
    from .preflight.run import format_preflight, run_preflight

    result = run_preflight(export_dir, model_dir=model_dir, max_length=max_length,
                           json_out=json_out or export_dir / "preflight.json")
    click.echo(format_preflight(result))
    if result["lost"]:
        raise SystemExit(1)
