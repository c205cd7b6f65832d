"""The executors side by side in one run: ``local`` with 1 and 2 workers (``local-2`` sends the stage's batch of
units to a worker as one task, ``local-2/1`` one unit per task, as before batches) and ``ray`` with 2 CPUs (a Ray
started on 127.0.0.1, its tasks sized from the units' measured CPU, the stage's batch the fewest), each running the
AndroidControl ingest stage as ``sftdata ingest androidcontrol`` does into a new run: the driver reads, inflates,
checks and decodes the records and ledgers the episodes; the executor maps the stage's unit
(``sftdata.ingest.androidcontrol.build_episode``: one decoded record -> its screenshots stored, its episode line,
screen comparison included).

    python benchmarks/executors.py                       # 2,000 and 500 episodes, 5 interleaved rounds
    python benchmarks/executors.py --episodes 4000 --rounds 7
    python benchmarks/executors.py --stage-costs 200     # also: seconds per episode of ingest, annotate, export
    python benchmarks/executors.py --stage-costs 200 --rounds 0   # those alone

The input is a GZIP TFRecord (the release's format, made once in ``benchmarks/out/executors``) of re-numbered
copies of 24 generated episodes (1080x2400 screens), each copy's screenshots files of their own (a private PNG
chunk), so every run stores every screenshot as a real one does; the smaller size is the first ``--small`` records
of it. Each round runs every contender once, in turn, each into an empty run; the figures are min / median / max of
the rounds, and a ratio of two contenders is taken within each round (the median of those, with their min-max),
which a drift of the machine's load between rounds does not move as it moves the medians of each. A Ray is started
once per size and its start (a first task run by each of its workers included) is printed apart from the times.
Peak RSS per worker is the worker's own high-water mark (VmHWM) as the unit reports it; each size gets fresh
workers, so 500 against 2,000 episodes says whether a worker's memory grows with the run.

The CPU seconds per episode of the driver (its own, threads included) and of the pool's workers say how large the
driver's share is whatever the load: the driver inflates the next records in a thread while its main thread stores
the screenshots and feeds the workers, so the speed-up two idle cores could give is bounded by local-1's CPU over
half of everything's (driver and workers share the two cores; printed beside the measured ratio, never in its
place).

Targets (issue 34), judged on the median of the round-by-round ratios: ray / local-2 <= 1.3x; local-1 / local-2
>= 1.7x; worker peak RSS flat in the run's size.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
import zlib
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import CPU, footer, header, interleaved, live_descendants_cpu, load, ratios, spread  # noqa: E402

OUT = ROOT / "benchmarks" / "out" / "executors"


def _hwm_mb() -> float:
    """This process's own peak RSS (VmHWM: ru_maxrss would carry a forking parent's peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measured(fn, payload):
    """``fn(payload)`` with the worker's pid and peak RSS, so the driver can tell the workers apart."""
    return fn(payload), os.getpid(), _hwm_mb()


def _own_chunk(png: bytes, copy: int) -> bytes:
    """``png`` with a private ancillary chunk (``sfTd``, the copy's number) after its IHDR: another file, the same
    pixels, header and intactness, so every copy's screenshots are stored anew as a real run's are."""
    body = b"sfTd" + copy.to_bytes(4, "big")
    return png[:33] + (4).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big") + png[33:]


def build_input(episodes: int, path: Path) -> None:
    """A GZIP TFRecord (the release's format) of ``episodes`` re-numbered copies of 24 generated episodes, each
    copy's screenshots files of their own."""
    from sftdata.loaders import androidcontrol
    from sftdata.loaders.protos import make_example
    from sftdata.loaders.tfrecord import write_tfrecords
    from sftdata.synthetic.sample import generate_records

    if path.exists():
        return
    base = [androidcontrol.decode_features(r) for r in generate_records(n_episodes=24, seed=7)]

    def copies():
        for i in range(episodes):
            features = base[i % len(base)]
            yield make_example({**features, "episode_id": [500000 + i],
                                "screenshots": [_own_chunk(png, i) for png in features["screenshots"]]})
    write_tfrecords(path, copies())


def _measured_ingest():
    """The AndroidControl ingest stage, its unit wrapped in :func:`measured` (the ledgers get the line alone)."""
    from sftdata.ingest.androidcontrol import AndroidControlIngest, build_episode

    class MeasuredIngest(AndroidControlIngest):
        process = staticmethod(partial(measured, build_episode))
        peaks: dict[int, float] = {}

        def write(self, key, outcome) -> None:
            line, pid, hwm = outcome
            self.peaks[pid] = max(self.peaks.get(pid, 0.0), hwm)
            super().write(key, line)
    return MeasuredIngest


def run_ingest(executor, data: Path, run_path: Path, limit: int, peaks: dict[int, float],
               batch: int | None = None, driver_cpu: list[float] | None = None) -> int:
    """Ingest the first ``limit`` records of ``data`` into a new run at ``run_path`` as ``sftdata ingest
    androidcontrol`` does (this process reads, inflates, checks and decodes; the executor stores the screenshots
    and builds the episodes; this process ledgers), the stage's batch unless ``batch`` is given; the driver's own CPU
    seconds (its threads included: reading, pickling, the pool's queues, the ledgers) go to ``driver_cpu``."""
    from sftdata.ingest import IngestOptions
    from sftdata.rundir import RunDir
    from sftdata.sources import AndroidControlSource

    stage_class = _measured_ingest()
    if batch:
        stage_class.batch = batch
    run, cpu = RunDir(run_path), time.process_time()
    with run.creating(), run.writing():
        stage = stage_class(run, AndroidControlSource(paths=[data]), IngestOptions(limit=limit), progress=False,
                            executor=executor)
        stage.peaks = peaks
        result = stage.ingest()
    if driver_cpu is not None:
        driver_cpu.append(time.process_time() - cpu)
    if result.new_exported != limit:
        raise SystemExit(f"expected {limit} episodes, ingested {result.new_exported} (rejected {result.rejected})")
    return result.new_exported


def ray_processes_cpu(run, into: list[dict[str, float]]):
    """``run`` with the CPU seconds it cost the Ray's own processes (its workers, raylet, GCS: this process's
    descendants, alive throughout) added to ``into``, by process name."""
    def timed() -> None:
        before = live_descendants_cpu()
        run()
        after = live_descendants_cpu()
        into.append({name: cpu - before.get(name, 0.0) for name, cpu in after.items()})
    return timed


def compare(episodes: int, rounds: int, data: Path) -> dict[str, object]:
    from sftdata.executors import LocalExecutor
    from sftdata.executors.ray_cluster import RayExecutor

    run_path = OUT / "run"
    peaks = {"local-1": {}, "local-2": {}, "local-2/1": {}, "ray-2": {}}
    driver: dict[str, list[float]] = {name: [] for name in peaks}
    ray_cpu: list[dict[str, float]] = []

    def ingest(executor, name, batch=None):
        return lambda: run_ingest(executor, data, run_path, episodes, peaks[name], batch, driver[name])

    def fresh_run() -> None:  # made by this script alone
        if run_path.exists():
            shutil.rmtree(run_path)
    t0 = time.perf_counter()
    ray = RayExecutor(2)
    ray.open()
    ray_start = time.perf_counter() - t0
    try:
        times = interleaved({
            "local-1": ingest(LocalExecutor(1), "local-1"),
            "local-2": ingest(LocalExecutor(2), "local-2"),
            "local-2/1": ingest(LocalExecutor(2), "local-2/1", batch=1),
            "ray-2": ray_processes_cpu(ingest(ray, "ray-2"), ray_cpu),
        }, rounds, between=fresh_run)
    finally:
        ray.close()
        fresh_run()
    print(f"\n{episodes} episodes, {rounds} rounds; {load()}; Ray start {ray_start:.1f} s (not in the times)")
    for name, values in times.items():
        workers = sorted(peaks[name].values())
        where = "the driver (in-process)" if name == "local-1" else f"{len(workers)} worker processes"
        print(f"  {name:9} {spread(values)} s  ({spread(values, 1000 / episodes, 1)} ms/episode); "
              f"peak RSS of {where}: max {max(workers):.0f} MB")
    cpu = {name: (statistics.median(driver[name]) * 1000 / episodes,
                  statistics.median([a - d for a, d in zip(CPU[name], driver[name])]) * 1000 / episodes)
           for name in ("local-1", "local-2", "local-2/1")}  # a Ray's workers are not this process's children
    cpu["ray-2"] = (statistics.median(driver["ray-2"]) * 1000 / episodes,
                    statistics.median(sum(r.values()) for r in ray_cpu) * 1000 / episodes)
    print("  CPU per episode, medians (driver / workers; for ray-2 the Ray's processes): " + "; ".join(
        f"{name} {d:.2f} / {w:.2f} ms" for name, (d, w) in cpu.items()))
    print("  ray-2's processes, ms of CPU per episode (median): " + ", ".join(
        f"{name} {statistics.median(r.get(name, 0.0) for r in ray_cpu) * 1000 / episodes:.2f}"
        for name in sorted({n for r in ray_cpu for n in r}) if any(r.get(name, 0) > 0.005 for r in ray_cpu)))
    return {"times": times, "peaks": {k: max(v.values()) for k, v in peaks.items()}, "cpu": cpu}


def _screenshots(path: Path):
    from sftdata.loaders import androidcontrol
    from sftdata.loaders.tfrecord import read_tfrecords

    for frame in read_tfrecords(path):
        yield from androidcontrol.decode_features(frame.data)["screenshots"]


def stage_costs(episodes: int) -> None:
    """Seconds per episode of each stage's command on one worker (``--workers 1``), end to end."""
    from sftdata.synthetic.sample import generate_records
    from sftdata.loaders.tfrecord import write_tfrecords

    data = OUT / f"stage-{episodes}.tfrecord.gz"
    if not data.exists():
        write_tfrecords(data, generate_records(n_episodes=episodes, seed=3))
    run, export = OUT / f"stage-run-{episodes}", OUT / f"stage-export-{episodes}"
    for made in (run, export):  # made by this script alone
        if made.exists():
            subprocess.run(["rm", "-rf", str(made)], check=True)
    sftdata = [sys.executable, "-m", "sftdata"]
    commands = {
        "ingest": [*sftdata, "ingest", "androidcontrol", str(data), "--out", str(run), "--workers", "1"],
        "annotate (template: the CPU side)": [*sftdata, "annotate", str(run), "--backend", "template"],
        "export qwen2.5-vl": [*sftdata, "export", str(run), "--format", "qwen2.5-vl", "--out",
                              str(export), "--workers", "1"],
    }
    steps = sum(1 for _ in _screenshots(data))
    print(f"\nper-episode cost of each stage, one worker, {episodes} generated episodes (1080x2400, {steps} "
          f"screenshots), each command's start-up included; {load()}")
    for name, cmd in commands.items():
        t0 = time.perf_counter()
        before = os.times()
        subprocess.run(cmd, check=True, capture_output=True)
        after = os.times()
        wall = time.perf_counter() - t0
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        print(f"  {name:36} {wall:6.1f} s wall, {cpu:6.1f} s CPU: {1000 * cpu / episodes:6.1f} ms CPU/episode "
              f"({1000 * cpu / steps:5.2f} ms CPU/screenshot)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--small", type=int, default=500, help="the smaller run, for memory flat in size")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stage-costs", type=int, default=0, metavar="EPISODES")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    header("executors: local --workers 1, local --workers 2, ray on 2 CPUs (127.0.0.1)")
    if args.rounds > 0:
        executors(args)
    if args.stage_costs:
        stage_costs(args.stage_costs)
    footer()


def _round_ratios(times: dict[str, list[float]], top: str, bottom: str) -> tuple[float, float, float, float]:
    """Median, min and max of ``top / bottom`` within each round (both ran in it, back to back: a drift of the
    machine's load between rounds falls on both), and the ratio of their medians last."""
    each = ratios(times[top], times[bottom])
    of_medians = statistics.median(times[top]) / statistics.median(times[bottom])
    return statistics.median(each), min(each), max(each), of_medians


def executors(args: argparse.Namespace) -> None:
    data = OUT / f"input-{args.episodes}.tfrecord.gz"
    build_input(args.episodes, data)
    big = compare(args.episodes, args.rounds, data)
    small = compare(args.small, args.rounds, data)  # the first --small records of the same input
    t = big["times"]
    print(f"\nratios at {args.episodes} episodes, {args.rounds} rounds: the median of the round-by-round ratios "
          "(min-max), then the ratio of the medians")
    targets = {("ray-2", "local-2"): "target <= 1.3x", ("local-1", "local-2"): "target >= 1.7x",
               ("local-1", "local-2/1"): "one record per task"}
    for (top, bottom), what in targets.items():
        median, low, high, of_medians = _round_ratios(t, top, bottom)
        verdict = ""
        if "target" in what:
            met = median <= 1.3 if ">" not in what else median >= 1.7
            verdict = f", judged on the median of the round-by-round ratios: {'met' if met else 'not met'}"
        print(f"  {top} / {bottom} = {median:.2f}x ({low:.2f}-{high:.2f}); ratio of medians {of_medians:.2f}x  "
              f"[{what}{verdict}]")
    one = big["cpu"]["local-1"][0]
    local, ray = (sum(big["cpu"][name]) for name in ("local-2", "ray-2"))
    print(f"CPU per episode in all (driver and workers, medians): local-1 {one:.2f} ms, local-2 {local:.2f} ms, "
          f"ray-2 {ray:.2f} ms: ray-2 / local-2 {ray / local:.2f}x (Ray's own cost in CPU, which a loaded machine "
          "moves much less than wall time)")
    for name in ("local-2", "local-2/1"):
        driver, workers = big["cpu"][name]
        bound = one / ((driver + workers) / 2)
        print(f"{name}: the driver {driver:.2f} ms of CPU per episode (its reading thread included) against "
              f"{workers:.2f} ms in the workers; on two idle cores local-1 / {name} could reach at most {bound:.2f}x "
              "(local-1's CPU over half of all the CPU: driver, its reading thread and workers share the two cores)")
    for name in ("local-2", "ray-2"):
        print(f"worker peak RSS {name}: {small['peaks'][name]:.0f} MB at {args.small} episodes, "
              f"{big['peaks'][name]:.0f} MB at {args.episodes} "
              f"({big['peaks'][name] / small['peaks'][name]:.2f}x for {args.episodes / args.small:.0f}x the units)")


if __name__ == "__main__":
    main()
