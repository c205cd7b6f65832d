"""``sftdata review push|pull``: the review round trip through Label Studio's REST API.

push: the review tasks (:func:`sftdata.review.tasks.export_review`) into a new Label Studio project with our
labeling config. With ``local_files`` (the server's ``LOCAL_FILES_DOCUMENT_ROOT``) the images are written as
files under ``RUN/review/<project>/images`` (which must lie inside that root), referenced as
``/data/local-files/?d=...``, and a Local Files storage is attached to the project on that folder: Label Studio
serves a local file only under a storage of the project, so without one every image answers 404. Without it,
images are inlined as data URLs (no storage to set up). The project's id and the task ids are kept in
``RUN/review/label-studio.json`` for pull.

pull: the project's JSON export (every task with its annotations), kept as
``RUN/review/label-studio-export-<time>.json``, then applied as ``sftdata review import`` does.

Authentication: a legacy API token (``Authorization: Token ...``, on in Label Studio when the organization
allows legacy tokens) or a personal access token (a JWT: exchanged at ``/api/token/refresh`` for an access
token, ``Authorization: Bearer ...``). Only the standard library's HTTP client is used.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FatalError
from ..io import read_json, write_bytes_atomic, write_json_atomic
from ..rundir import RunDir

STATE = "label-studio.json"
TIMEOUT = 60


@dataclass
class Server:
    url: str
    token: str
    _auth: str | None = None

    def _header(self) -> str:
        if self._auth is None:
            if self.token.count(".") == 2 and self.token.startswith("eyJ"):  # a personal access token (JWT)
                access = self.call("POST", "/api/token/refresh", {"refresh": self.token}, auth=False)["access"]
                self._auth = f"Bearer {access}"
            else:
                self._auth = f"Token {self.token}"
        return self._auth

    def call(self, method: str, path: str, body: Any = None, *, auth: bool = True, raw: bool = False) -> Any:
        """One API request; a clear FatalError for a refused token, an unreachable server or an error answer."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if auth:
            request.add_header("Authorization", self._header())
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:400]
            if exc.code in (401, 403):
                raise FatalError(f"Label Studio at {self.url} refused the token ({exc.code}): {detail}. Use an "
                                 "API token of a user of the server (Account & Settings), with legacy tokens "
                                 "enabled for its organization, or a personal access token") from None
            raise FatalError(f"Label Studio {method} {path} failed ({exc.code}): {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise FatalError(f"cannot reach Label Studio at {self.url}: {getattr(exc, 'reason', exc)}") from None
        return payload if raw else json.loads(payload or b"null")


def _image_prefix(images: Path, document_root: Path) -> str:
    try:
        relative = images.resolve().relative_to(document_root.resolve())
    except ValueError:
        raise FatalError(f"the review images folder {images} is not inside the server's LOCAL_FILES_DOCUMENT_ROOT "
                         f"{document_root}: put the run under it, or push without --local-files") from None
    return "/data/local-files/?d=" + urllib.parse.quote(f"{relative.as_posix()}/")


def push(run: RunDir, server: Server, *, title: str | None = None, local_files: Path | None = None,
         **export_options: Any) -> dict[str, Any]:
    """Create the project, attach the image storage, import the tasks; what was pushed (also kept for pull)."""
    from .tasks import export_review

    stamp = time.strftime("%Y%m%dT%H%M%S")
    folder = run.path / "review" / stamp
    image_url = _image_prefix(folder / "images", local_files) if local_files is not None else None
    if image_url is not None:
        (folder / "images").mkdir(parents=True, exist_ok=True)
    exported = export_review(run, folder, image_url=image_url, **export_options)
    if not exported.tasks:
        raise FatalError(f"no episode of {run.path} matches the selection: nothing to push")
    tasks = json.loads((folder / "tasks.json").read_text(encoding="utf-8"))
    config = (folder / "config.xml").read_text(encoding="utf-8")
    project = server.call("POST", "/api/projects/", {"title": title or f"sftdata review {run.path.name} {stamp}",
                                                     "label_config": config})
    storage = None
    if local_files is not None:
        storage = server.call("POST", "/api/storages/localfiles/", {
            "project": project["id"], "path": str((folder / "images").resolve()), "title": "sftdata review images",
            "use_blob_urls": True, "regex_filter": r"^$"})["id"]  # serves the files; syncing would add no task
    imported = server.call("POST", f"/api/projects/{project['id']}/import?return_task_ids=true", tasks)
    state = {"url": server.url, "project": project["id"], "tasks": imported.get("task_ids", []),
             "storage": storage, "folder": str(folder.relative_to(run.path)), "pushed": stamp,
             "episodes": [t["data"]["episode_id"] for t in tasks]}
    write_json_atomic(run.path / "review" / STATE, state)
    return state


def pull(run: RunDir, token: str, url: str | None = None) -> tuple[Path, Any]:
    """Download the pushed project's annotations (from ``url``, else the server it was pushed to) and import
    them; (the export file, the import result)."""
    from .importer import import_review

    state = read_json(run.path / "review" / STATE, default=None)
    if not state:
        raise FatalError(f"{run.path} has no pushed review (review/{STATE}): run `sftdata review push` first")
    server = Server(url or state["url"], token)
    data = server.call("GET", f"/api/projects/{state['project']}/export?exportType=JSON&download_all_tasks=true",
                       raw=True)
    path = run.path / "review" / f"label-studio-export-{time.strftime('%Y%m%dT%H%M%S')}.json"
    write_bytes_atomic(path, data)
    return path, import_review(run, path)
