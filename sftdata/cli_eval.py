"""``sftdata eval``: a model's answers against the ground truth of an RL export."""
from __future__ import annotations

import json
from pathlib import Path

import click

from .cli_base import fatal_to_exit, main
from .exitcodes import NothingProduced


@main.command("eval")
@click.argument("predictions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--export", "export_dir", required=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The RL export the predictions answer (`sftdata export RUN --format F --rl`).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the report as JSON here, '-' for standard output instead of the table "
                   "[default: EXPORT/eval/<PREDICTIONS name>.json, which `sftdata report` shows].")
@fatal_to_exit
def eval_command(predictions, export_dir, json_out):
    """Score a model's answers against an RL export's ground truth, in the export's format.

    \b
    PREDICTIONS is the JSONL of `swift infer --result_path` over the export's rows (matched by their prompt),
    or plain {"id": "EPISODE:STEP", "response": "..."} lines. Each answer is parsed with the format's own
    parser. Reported per source, platform, action type and overall: parse rate, type accuracy, step success
    under the matchers aitw (a tap inside the target's box enlarged 1.4x or within 14% of the screen), box,
    box-1.2 and point-4%, typed text and direction, and the confusion of action types. Answers that do not
    parse, predictions whose row is not in the export and export rows without a prediction are counted and
    shown. Exit status 3 when no prediction matches a row of the export.

    \b
    Examples:
      swift infer --model output/v0-.../checkpoint-200 --val_dataset out/rl/val-00000-of-00001.jsonl \\
          --result_path preds.jsonl
      sftdata eval preds.jsonl --export out/rl
      sftdata eval preds.jsonl --export out/rl --json - | jq .overall.step_success
    """
    from .evaluate import evaluate, format_eval
    from .io import write_json_atomic

    result = evaluate(predictions, export_dir)
    if str(json_out) == "-":
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        click.echo(format_eval(result))
        target = json_out or export_dir / "eval" / f"{predictions.stem}.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomic(target, result, fsync=False)
            click.echo(f"\nwrote {target}")
        except OSError as exc:
            click.echo(f"\nnote: could not write {target} ({exc.strerror or exc}); the report above is complete",
                       err=True)
    if not result["matched"]:
        raise NothingProduced(f"no prediction in {predictions} matches a row of {export_dir}: "
                              f"{result['unknown']['count']} name other rows, {result['unreadable']['count']} "
                              "lines are no prediction")
