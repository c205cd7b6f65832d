"""The input sources of ``sftdata run``: one typed config per kind, registered under its ``type``.

Each ``[[sources]]`` table names its ``type`` and takes only that source's keys (a ``tolerance`` on a mind2web
source is refused, naming the source); paths are resolved against the config file's folder. Each record is the
options record of its source's ingest stage (:data:`sftdata.ingest.STAGES`, under the same ``type``).

>>> from pathlib import Path
>>> source("mind2web", {"paths": ["m2w.parquet"], "viewport": "1280x800"}, Path("/cfg"), "sources 1").paths
[PosixPath('/cfg/m2w.parquet')]
>>> source("mind2web", {"paths": ["m2w.parquet"], "tolerance": 3}, Path("/cfg"), "sources 1")
Traceback (most recent call last):
sftdata.errors.FatalError: config [sources 1 (mind2web)]: unknown key(s) tolerance; allowed: episodes, limit, paths, screenshots, viewport
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from .errors import FatalError
from .options import PathType, SizeType, id_list, option, take_table

# the id filter every source has: a list in a config, ``a,b,c`` or a file of ids on the command line
EPISODES = dict(help="Only these episode ids: comma-separated, or a file of ids.",
                config_help="Only these episode ids.", metavar="IDS|FILE", click_type=str, to_value=id_list)


def _path(base: Path, value: str | Path) -> Path:
    p = Path(value).expanduser()
    return p if p.is_absolute() else base / p


@dataclass
class AndroidControlSource:
    """The AndroidControl release's GZIP TFRecords (and, optionally, its splits file)."""

    paths: list[Path] = option(default_factory=list, help="GZIP TFRecord files of the release, or any in its format.",
                               config_help="GZIP TFRecord files, relative to this file.", cli=False)
    splits: Path | None = option(None, "The release's splits file (splits.json).",
                                 example="raw/android_control/splits.json",
                                 click_type=PathType(exists=True, dir_okay=False))
    split: str | None = option(None, "Only this split (needs splits).", choices=("train", "validation", "test"),
                               example="train")
    episodes: list[str] | None = option(None, **EPISODES, example=["0", "20"])
    limit: int | None = option(None, "Stop after N episodes.", low=1, example=100)
    max_record_mb: int = option(1024, "Records claiming more bytes than this are rejected, never allocated.", low=1)
    screen_change: bool = option(True, "Mark steps that left the screen unchanged (ineffective): the same bytes "
                                       "or the visible elements decide, else the screenshots are decoded.",
                                 negatable=True)
    type: ClassVar[str] = "androidcontrol"

    def resolve(self, base: Path, where: str) -> None:
        if not self.paths:
            raise FatalError(f"config [{where}]: an androidcontrol source needs paths")
        self.paths = [_path(base, p) for p in self.paths]
        self.splits = _path(base, self.splits) if self.splits else None


@dataclass
class AnnotatedSource:
    """A folder of human-annotated trajectories (one folder with task.json and screenshots per trajectory)."""

    root: Path = option(None, "The folder of trajectories (one folder with task.json and screenshots each).",
                        config_help="The folder of trajectories, relative to this file.", cli=False)
    episodes: list[str] | None = option(None, **EPISODES)
    limit: int | None = option(None, "Stop after N trajectories.", low=1)
    tolerance: float | None = option(None, "Pixels allowed between task.json coordinates and the drawn marks "
                                           "(default 2% of the diagonal).", low=0, example=30, metavar="PX")
    require_clean: bool = option(False, "Reject marked trajectories that have no clean/ frames instead of removing "
                                        "the marks.",
                                 config_help="Reject marked trajectories without clean/ frames.")
    ocr: bool = option(False, "Give phone frames text elements read by OCR (needs the ocr extra): grounding, the "
                              "future-text check and the element-based formats then work on them.",
                       config_help="OCR text elements for phone frames without a tree "
                                   "(pip install 'sftdata[ocr]').")
    type: ClassVar[str] = "annotated"

    def resolve(self, base: Path, where: str) -> None:
        if not self.root:
            raise FatalError(f"config [{where}]: an annotated source needs root")
        self.root = _path(base, self.root)


@dataclass
class Mind2WebSource:
    """Multimodal-Mind2Web Parquet shards, or the text-only JSON with the raw dump's screenshots."""

    paths: list[Path] = option(default_factory=list, help="Multimodal-Mind2Web Parquet shards (in order), or text-only "
                                                         "Mind2Web JSON files.",
                               config_help="Parquet shards or Mind2Web JSON, relative to this file.", cli=False)
    episodes: list[str] | None = option(None, **EPISODES)
    limit: int | None = option(None, "Stop after N tasks.", low=1)
    viewport: str = option("1280x720", "The window cut from each whole-page screenshot around the target.",
                           click_type=SizeType(least=64))
    screenshots: Path | None = option(None, "JSON only: the folder of <annotation_id>/processed/screenshot.json.",
                                        example="raw/mind2web/task", click_type=PathType(exists=True, file_okay=False))
    type: ClassVar[str] = "mind2web"

    def resolve(self, base: Path, where: str) -> None:
        if not self.paths:
            raise FatalError(f"config [{where}]: a mind2web source needs paths")
        self.paths = [_path(base, p) for p in self.paths]
        self.screenshots = _path(base, self.screenshots) if self.screenshots else None


SOURCES: dict[str, type] = {cls.type: cls for cls in (AndroidControlSource, AnnotatedSource, Mind2WebSource)}
Source = AndroidControlSource | AnnotatedSource | Mind2WebSource


def source(kind: Any, table: dict[str, Any], base: Path, where: str) -> Source:
    """The typed config of one ``[[sources]]`` table (``kind``: its ``type``), paths resolved against ``base``;
    keys of another kind and values of the wrong type are refused, naming the source."""
    cls = SOURCES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise FatalError(f"config [{where}]: type must be {', '.join(sorted(SOURCES))}, not {kind!r}")
    where = f"{where} ({kind})"
    src = cls(**take_table(cls, table, where))
    if getattr(src, "episodes", None):
        src.episodes = [str(e) for e in src.episodes]
    src.resolve(base, where)
    return src

