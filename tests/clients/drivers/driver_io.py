"""The loop every driver runs (imported from its own folder, so it works in any client's virtualenv): a header
line naming the client, then one result line per JSON input line; the client's refusal of an answer, whatever
its kind, is the finding, never a crash of the driver."""
import json
import sys


def serve(client: str, version: str, read, limit: int = 500) -> None:
    """stdin: JSON lines with an ``id``; stdout: ``{"client", "version"}``, then ``{"id", "ok", "error", "read"}``
    per line, ``read`` being what ``read(row)`` returned."""
    print(json.dumps({"client": client, "version": version}), flush=True)
    for line in sys.stdin:
        row = json.loads(line)
        try:
            out = {"id": row["id"], "ok": True, "error": None, "read": read(row)}
        except Exception as exc:  # noqa: BLE001 - the client's refusal is what the driver reports
            out = {"id": row["id"], "ok": False, "error": f"{type(exc).__name__}: {str(exc)[:limit]}", "read": None}
        print(json.dumps(out, ensure_ascii=False), flush=True)


def registered_actions(output, row: dict, first_index: int) -> list[dict]:
    """The actions of a validated agent output (browser-use, app-use), as their ``act`` reads them: each item
    names exactly one registered action (``model_dump(exclude_unset=True)``), an ``index`` one listed element."""
    actions = []
    for item in output.action:
        called = {name: params for name, params in item.model_dump(exclude_unset=True).items() if params is not None}
        if len(called) != 1:
            raise ValueError(f"an action item names {len(called)} registered actions: {item!r}")
        (name, params), = called.items()
        index = params.get("index") if isinstance(params, dict) else None
        if index is not None and not first_index <= index < first_index + row["elements"]:
            raise ValueError(f"{name}: index {index} is not one of the {row['elements']} listed elements")
        actions.append({name: params})
    return actions


async def act_all(act, actions) -> list[dict]:
    """The agents' loop over an answer's actions (``multi_act``): each through ``act`` until one is done or
    fails. Returns what the loop itself reports: ``done{text, success}`` and ``error{error}`` operations."""
    reported = []
    for action in actions:
        result = await act(action)
        if result.error:
            reported.append({"op": "error", "error": str(result.error)[:300]})
        if result.is_done:
            reported.append({"op": "done", "text": result.extracted_content, "success": getattr(result, "success", None)})
        if result.is_done or result.error:
            break
    return reported
