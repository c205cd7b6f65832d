"""RunDir.totals counts from the ledgers, but parses episodes.jsonl only when a ledger changed."""
from sftdata.io import Ledger
from sftdata.model import Action, Episode, Screenshot, Step
from sftdata.rundir import RunDir


def _episode(i: int) -> str:
    shot = Screenshot("0" * 64, "images/00/x.png", 10, 20)
    return Episode(str(i), "androidcontrol", "g", [Step(0, shot, Action("back")), Step(1, shot, Action("done"))]).to_json()


def test_totals_are_reused_until_a_ledger_changes(tmp_path, monkeypatch):
    run = RunDir(tmp_path)
    with Ledger(run.episodes_path) as ledger:
        ledger.append(_episode(1))
    counts = []
    real = RunDir._count
    monkeypatch.setattr(RunDir, "_count", lambda self: counts.append(1) or real(self))
    assert run.totals()["episodes"] == 1
    run.update_manifest("x", "y", {})
    run.update_manifest("x", "z", {})
    assert len(counts) == 1  # the manifest updates reused the count
    assert RunDir(tmp_path).totals()["steps"] == 2 and len(counts) == 1  # another RunDir reads the manifest's
    with Ledger(run.episodes_path) as ledger:
        ledger.append(_episode(2))
    assert run.totals()["episodes"] == 2 and len(counts) == 2
    with Ledger(run.rejects_path) as ledger:
        ledger.append({"episode_id": "3", "stage": "ingest", "reason": "truncated"})
    assert run.totals()["rejected_by_reason"] == {"truncated": 1} and len(counts) == 3
