"""The stage contract's scenarios for the two LLM stages (tests/test_stage_contract.py): annotate with the offline
template and against a scripted OpenAI-compatible endpoint, judge with the offline rules and against the endpoint.

The endpoint (:class:`fake_openai.FakeOpenAI`, 127.0.0.1 only) lives in this process for the whole test; a killed
stage runs in a forked child whose requests it still serves, so what a kill cost is counted: after a resume the
endpoint must have been asked exactly the requests whose answers the killed run had not received (its reply cache),
never one it had.
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

from fake_openai import EpisodeIndex, FakeOpenAI
from sftdata.io import iter_jsonl
from sftdata.rundir import RunDir

sys.path.append(str(Path(__file__).parent / "judge"))
from judge_fake import episode_key, verdict  # noqa: E402

KEY_ENV, KEY = "SFTDATA_TEST_CONTRACT_KEY", "sk-contract-0123456789abcdef"
DROP = ("elapsed_s", "created", "fingerprint", "llm", "cost")  # timings, mtimes; what was paid (a kill changes it)
PER_RECORD = ("requests", "cache_hits", "usage")  # a record's own spend: an answer received before a kill is cached


def build_llm_runs(root: Path, sample_run) -> None:
    """``root/llm``: a generated run not yet annotated; ``root/judged``: a copy of ``root/run`` (annotated but its
    last episode) where one annotation says what only the next screen shows (hindsight: the rules fail it)."""
    run = sample_run(root / "gen-llm", 4, (180, 400))
    os.rename(run.path, root / "llm")
    shutil.copytree(root / "run", root / "judged", symlinks=True)
    path = root / "judged" / "annotations.jsonl"
    record = next(iter_jsonl(path))
    items = [dict(item) for item in record["items"]]
    items[0]["reasoning"] += "点击后页面显示出了结果。"
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({**record, "items": items, "model": "edited", "prompt_version": "edited"},
                           ensure_ascii=False) + "\n")


def _entry(work: Path, run: str, stage: str) -> dict:
    """The stage's entry as a resumed run must leave it: without timings, spend, and the counts of the last
    invocation alone (``*_this_run``)."""
    entry = RunDir(work / run).manifest().get("stages", {}).get(stage) or {}
    out = {key: {k: v for k, v in e.items() if k not in DROP} for key, e in entry.items()}
    for e in out.values():
        e["counts"] = {k: v for k, v in e["counts"].items() if not k.endswith("_this_run")}
    return out


def _ledger(path: Path) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in PER_RECORD} for r in iter_jsonl(path)] if path.exists() else []


class _Endpoint:
    """One scripted endpoint for every scenario that needs it, started on first use."""

    server: FakeOpenAI | None = None

    @classmethod
    def url(cls, responder) -> str:
        os.environ[KEY_ENV] = KEY
        if cls.server is None:
            cls.server = FakeOpenAI(lambda body, n: cls.responder(body, n)).start()
            atexit.register(cls.server.stop)
        cls.responder = staticmethod(responder)
        return cls.server.base_url

    @classmethod
    def asked(cls) -> int:
        return len(cls.server.requests) if cls.server is not None else 0


def make_llm_scenarios(StageScenario, reject_stages=("annotate",)):  # noqa: N803 - the base class, passed in
    """The four scenarios, on the base class of tests/stage_scenarios.py."""

    class LLMScenario(StageScenario):
        cache = ""  # RUN/cache/<cache>: the replies received
        backend = "template"

        def outputs(self, work):
            run = work / self.run_name
            return {"entry": _entry(work, self.run_name, self.stage_name),
                    "records": _ledger(run / self.ledger), "rejects": _ledger(run / "rejects.jsonl")}

        def mark(self) -> int:
            return _Endpoint.asked()

        def bought_since(self, mark: int) -> int:
            return _Endpoint.asked() - mark

        def received(self, work: Path) -> int:
            cache = work / self.run_name / "cache" / self.cache
            return sum(1 for _ in cache.rglob("*.json")) if self.cache and cache.is_dir() else 0

    class Annotate(LLMScenario):
        stage_name, run_name, ledger, kill_after = "annotate", "llm", "annotations.jsonl", 2
        where = "sftdata.annotate.stage:AnnotateStage"

        def make(self, run, changed_option):
            from sftdata.annotate.options import AnnotateOptions
            # another prompt version is another generation: every episode is annotated again
            return self.stage_class()(run, AnnotateOptions(progress=False, prompt_file="react_zh_v1" if changed_option
                                                           else None))

        def check_counts(self, work, reasons) -> None:
            counts = _entry(work, self.run_name, "annotate")["reconstruction"]["counts"]
            annotated = {r["id"] for r in iter_jsonl(work / self.run_name / "annotations.jsonl")}
            assert counts["annotated"] == len(annotated) > 0
            assert counts["rejected"] == sum(counts["by_reason"].values()) == sum(reasons.values())
            assert counts["annotated"] + counts["rejected"] == len(list(iter_jsonl(work / self.run_name
                                                                                   / "episodes.jsonl")))

    class AnnotateOpenAI(Annotate):
        ledger_stages, cache, backend = ("annotate",), "llm", "openai"
        index = None

        def url(self, work: Path) -> str:
            if self.index is None:  # drawn from a private copy: the annotator images of the run (same bytes)
                copy = Path(tempfile.mkdtemp()) / "llm"
                shutil.copytree(work / self.run_name, copy, symlinks=True)
                type(self).index = EpisodeIndex(copy)
                self.index.warm()
                type(self).bad = sorted(self.index.episodes)[1]

            def responder(body, n):
                window = self.index.lookup(body)
                return "[]" if window.episode.id == self.bad else self.index.correct_reply(body)
            return _Endpoint.url(responder)

        def make(self, run, changed_option):
            from sftdata.annotate.options import AnnotateOptions
            return self.stage_class()(run, AnnotateOptions(
                backend="openai", model="vl-2" if changed_option else "vl", base_url=self.url(run.path.parent),
                api_key_env=KEY_ENV, max_attempts=2, max_retries=0, timeout=20, concurrency=2, progress=False))

    class Judge(LLMScenario):
        stage_name, run_name, ledger, ledger_stages = "judge", "judged", "judgements.jsonl", ("judge",)
        where = "sftdata.judge.stage:JudgeStage"

        def make(self, run, changed_option):
            from sftdata.judge.options import JudgeOptions
            return self.stage_class()(run, JudgeOptions(progress=False, min_score=4 if changed_option else 3))

        def check_counts(self, work, reasons) -> None:
            counts = _entry(work, self.run_name, "judge")["verdicts"]["counts"]
            latest = {r["id"]: r for r in iter_jsonl(work / self.run_name / "judgements.jsonl")}
            assert counts["judged"] == counts["passed"] + counts["failed"] == len(latest) > 0
            failing = Counter(r["reasons"][0] for r in latest.values() if not r["passed"])
            assert counts["by_reason"] == dict(failing) and counts["failed"] == sum(failing.values()) > 0
            verdicts = [r for r in RunDir(work / self.run_name).rejects() if r["stage"] == "judge" and r["verdict"]]
            assert Counter(r["reason"] for r in verdicts) == failing
            assert sum(reasons.values()) >= counts["failed"]

    class JudgeOpenAI(Judge):
        cache, backend, kill_after = "judge", "openai", 1

        def url(self, work: Path) -> str:
            run = RunDir(work / self.run_name)
            refused = sorted((e for e in run.episodes() if e.id in run.latest_annotations()), key=lambda e: e.id)[0]
            key = (refused.goal, len(refused.steps))

            def responder(body, n):
                return "I'm sorry, I can't judge this." if episode_key(body) == key else verdict(body)
            return _Endpoint.url(responder)

        def make(self, run, changed_option):
            from sftdata.judge.options import JudgeOptions
            return self.stage_class()(run, JudgeOptions(
                backend="openai", model="judge-2" if changed_option else "judge", base_url=self.url(run.path.parent),
                api_key_env=KEY_ENV, max_attempts=2, max_retries=0, timeout=20, concurrency=2, judge_all=True,
                progress=False))

        def check_counts(self, work, reasons) -> None:
            counts = _entry(work, self.run_name, "judge")["verdicts"]["counts"]
            latest = {r["id"] for r in iter_jsonl(work / self.run_name / "judgements.jsonl")}
            assert counts["judged"] == counts["passed"] + counts["failed"] == len(latest) > 0
            assert reasons["judge_refused"] >= 1  # no verdict on any attempt: ledgered, with its reason

    return {"AnnotateStage": Annotate(), "AnnotateStage openai": AnnotateOpenAI(), "JudgeStage": Judge(),
            "JudgeStage openai": JudgeOpenAI()}
