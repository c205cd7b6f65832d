"""One real exported sample per agent format, as the README's format table shows them.

    .venv/bin/python docs/format_samples.py [--episodes 3] [--memory] [--system-lines 8] [--answers-only] > samples.md

A generated sample (1080x2400 screenshots, seed 0) is ingested, annotated by the offline template backend and
exported in every format with ``sftdata``'s own ``export_run``. From each export one row is printed as Markdown:
the system prompt (its first ``--system-lines`` lines, long lines cut), the user message and the answer,
verbatim. The row is the same step in every format: the first click, after at least two earlier steps, on a
screen with an accessibility tree (so that the element formats can say it too). The script lives in ``docs/``
because its output is README content, as ``docs/inspect-demo.png`` is; ``benchmarks/`` holds timing scripts.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sftdata.export.samples import image_name  # noqa: E402
from sftdata.export.stage import ExportOptions, export_run  # noqa: E402
from sftdata.formats import FORMATS, load_all  # noqa: E402
from sftdata.ingest import IngestOptions, ingest_androidcontrol  # noqa: E402
from sftdata.annotate.annotator import AnnotateOptions  # noqa: E402
from sftdata.annotate.stage import annotate_run  # noqa: E402
from sftdata.rundir import RunDir  # noqa: E402
from sftdata.synthetic.sample import write_sample  # noqa: E402


def chosen_step(run: RunDir):
    """The first click at index >= 2 on a screen with an accessibility tree: (episode, step)."""
    for episode in run.episodes():
        for step in episode.steps[2:]:
            if step.action.type == "click" and step.elements:
                return episode, step
    raise SystemExit("the sample has no click after two steps")


def trimmed(text: str, lines: int, width: int = 200) -> str:
    """The first ``lines`` lines of ``text``, each cut to ``width`` characters, and how much was left out.

    >>> print(trimmed("a\\nb\\nc", 2))
    a
    b
    [... 1 more lines]
    """
    kept = [line if len(line) <= width else line[:width] + f" [... {len(line) - width} more characters]"
            for line in text.splitlines()]
    if len(kept) <= lines:
        return "\n".join(kept)
    return "\n".join(kept[:lines]) + f"\n[... {len(kept) - lines} more lines]"


def sample_row(out: Path, episode_id: str, step_image: str) -> dict:
    """The exported row of the chosen step: its current (last) image is the step's screenshot."""
    splits = json.loads((out / "splits.json").read_text())
    split = "val" if episode_id in splits["val"] else "train"
    for path in sorted(out.glob(f"{split}-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["images"][-1].endswith(step_image):
                return row
    raise SystemExit(f"{out.name}: the chosen step was not exported")


def fence(text: str) -> str:
    """A Markdown code block (four backticks: prompts quote their own three-backtick blocks)."""
    return "````text\n" + text + "\n````"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="export with --memory")
    parser.add_argument("--system-lines", type=int, default=8, help="system prompt lines to show")
    parser.add_argument("--answers-only", action="store_true", help="print only each format's answer")
    args = parser.parse_args(argv)
    load_all()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_sample(root / "sample.tfrecord.gz", n_episodes=args.episodes, seed=0)
        run = RunDir(root / "run")
        ingest_androidcontrol([root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
        annotate_run(run, AnnotateOptions(progress=False))
        episode, step = chosen_step(run)
        print(f"Task of the sample episode: {episode.goal} (step {step.index + 1}, a click); template backend"
              f"{', --memory' if args.memory else ''}.\n")
        for name in sorted(FORMATS):
            if name == "browser-use":  # web pages only: the sample is a phone's
                continue
            out = root / "export" / name
            export_run(run, out, ExportOptions(format=name, memory=args.memory, split_ratio=0.0, progress=False))
            messages = sample_row(out, episode.id, image_name(step))["messages"]
            system, user, answer = (m["content"] for m in messages)
            if args.answers_only:
                print(f"`{name}`:\n\n{fence(answer)}\n")
                continue
            print(f"### `{name}`\n\nSystem prompt (first {args.system_lines} lines):\n\n"
                  f"{fence(trimmed(system, args.system_lines))}\n\nUser message:\n\n{fence(user)}\n\n"
                  f"Answer:\n\n{fence(answer)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
