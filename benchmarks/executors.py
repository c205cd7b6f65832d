"""The executors side by side in one run: ``local`` with 1 and 2 workers (``local-2`` sends the stage's batch of
units to a worker as one task, ``local-2/1`` one unit per task, as before batches) and ``ray`` with 2 CPUs (a Ray
started on 127.0.0.1, its tasks sized from the units' measured CPU, the stage's batch the fewest), mapping the
unit the ingest stage maps (``sftdata.ingest.androidcontrol.build_episode``: one decoded AndroidControl record -> its
episode line, screen comparison included) over the units of a synthetic run.

    python benchmarks/executors.py                       # 2,000 and 500 episodes, 5 interleaved rounds
    python benchmarks/executors.py --episodes 4000 --rounds 5
    python benchmarks/executors.py --stage-costs 200     # also: seconds per episode of ingest, annotate, export
    python benchmarks/executors.py --stage-costs 200 --rounds 0   # those alone

The units are what the driver hands an executor: 24 generated episodes (1080x2400 screens) decoded once, their
screenshots staged in a run's image store, then re-numbered copies up to ``--episodes``, streamed from a file
(so the driver's memory stays flat too). Each round runs every contender once, in turn; the figures are min /
median / max of the rounds. A Ray is started once per size and its start (a first task run by each of its workers
included) is printed apart from the map times.
Peak RSS per worker is the worker's own high-water mark (VmHWM) as the unit reports it; each size gets fresh
workers, so 500 against 2,000 episodes says whether a worker's memory grows with the run.

The CPU seconds per episode of the driver (its own, threads included) and of the pool's workers say how large the
driver's serial share is whatever the load: the speed-up two idle cores could give is bounded by local-1's CPU over
the larger of the driver's and half the workers' (printed beside the measured ratio, never in its place).

Targets: ray / local-2 <= 1.3x; local-1 / local-2 >= 1.7x; worker peak RSS flat in the run's size. The targets are
judged on the median of the round-by-round ratios (the contenders of one round run back to back, so a slow drift
of the machine's load moves both sides of a ratio); the ratio of the medians is printed beside it.
"""
from __future__ import annotations

import argparse
import os
import pickle
import statistics
import subprocess
import sys
import time
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


def build_units(episodes: int, path: Path, run_path: Path) -> None:
    """``episodes`` ingest units (re-numbered copies of 24 generated episodes) pickled one after another."""
    from sftdata.ingest import IngestOptions
    from sftdata.loaders import androidcontrol
    from sftdata.rundir import RunDir
    from sftdata.synthetic.sample import generate_records

    if path.exists():
        return
    run = RunDir(run_path)
    run.path.mkdir(parents=True, exist_ok=True)
    base = [androidcontrol.stage_screenshots(androidcontrol.decode_features(r), run.images)
            for r in generate_records(n_episodes=24, seed=7)]
    screen_change = IngestOptions().screen_change
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        for i in range(episodes):
            features = dict(base[i % len(base)], episode_id=[500000 + i])
            pickle.dump(((i, str(500000 + i)), (features, str(run.path), {"record": {"index": i}}, screen_change)),
                        f, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)


def units(path: Path):
    with open(path, "rb") as f:
        while True:
            try:
                yield pickle.load(f)
            except EOFError:
                return


def run_map(executor, path: Path, peaks: dict[int, float], batch: int | None = None,
            driver_cpu: list[float] | None = None) -> int:
    """Map the units as the stage does: its function, its batch (units to a task) unless ``batch`` is given; the
    driver's own CPU seconds (its threads included: pickling, the pool's queues) go to ``driver_cpu``."""
    from sftdata.ingest.androidcontrol import AndroidControlIngest, build_episode

    done, cpu = 0, time.process_time()
    for _key, outcome in executor.map(partial(measured, build_episode), units(path),
                                      batch=batch or AndroidControlIngest.batch,
                                      max_batch=AndroidControlIngest.max_batch):
        if isinstance(outcome, BaseException):
            raise outcome
        line, pid, hwm = outcome
        peaks[pid] = max(peaks.get(pid, 0.0), hwm)
        done += 1
    if driver_cpu is not None:
        driver_cpu.append(time.process_time() - cpu)
    return done


def ray_processes_cpu(run, into: list[dict[str, float]]):
    """``run`` with the CPU seconds it cost the Ray's own processes (its workers, raylet, GCS: this process's
    descendants, alive throughout) added to ``into``, by process name."""
    def timed() -> None:
        before = live_descendants_cpu()
        run()
        after = live_descendants_cpu()
        into.append({name: cpu - before.get(name, 0.0) for name, cpu in after.items()})
    return timed


def compare(episodes: int, rounds: int) -> dict[str, object]:
    from sftdata.executors import LocalExecutor
    from sftdata.executors.ray_cluster import RayExecutor

    path = OUT / f"units-{episodes}.pkl"
    build_units(episodes, path, OUT / "run")
    peaks = {"local-1": {}, "local-2": {}, "local-2/1": {}, "ray-2": {}}
    driver: dict[str, list[float]] = {name: [] for name in peaks}
    ray_cpu: list[dict[str, float]] = []
    t0 = time.perf_counter()
    ray = RayExecutor(2)
    ray.open()
    ray_start = time.perf_counter() - t0
    try:
        times = interleaved({
            "local-1": lambda: run_map(LocalExecutor(1), path, peaks["local-1"], driver_cpu=driver["local-1"]),
            "local-2": lambda: run_map(LocalExecutor(2), path, peaks["local-2"], driver_cpu=driver["local-2"]),
            "local-2/1": lambda: run_map(LocalExecutor(2), path, peaks["local-2/1"], batch=1,
                                         driver_cpu=driver["local-2/1"]),
            "ray-2": ray_processes_cpu(lambda: run_map(ray, path, peaks["ray-2"], driver_cpu=driver["ray-2"]), ray_cpu),
        }, rounds)
    finally:
        ray.close()
    print(f"\n{episodes} episodes, {rounds} rounds; {load()}; Ray start {ray_start:.1f} s (not in the map times)")
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


def executors(args: argparse.Namespace) -> None:
    big = compare(args.episodes, args.rounds)
    small = compare(args.small, args.rounds)
    t = big["times"]
    ray_ratio = statistics.median(t["ray-2"]) / statistics.median(t["local-2"])
    scale = statistics.median(t["local-1"]) / statistics.median(t["local-2"])
    unbatched = statistics.median(t["local-1"]) / statistics.median(t["local-2/1"])
    print(f"\nratios at {args.episodes} episodes (of the medians): ray / local-2 = {ray_ratio:.2f}x; "
          f"local-1 / local-2 = {scale:.2f}x; local-1 / local-2 one unit per task = {unbatched:.2f}x")
    paired = {pair: ratios(t[pair[0]], t[pair[1]]) for pair in (("ray-2", "local-2"), ("local-1", "local-2"))}
    print("ratios round by round (the contenders of one round ran back to back, so a drift of the machine's load "
          "moves both; min / median / max): " + "; ".join(
              f"{top} / {bottom} = {spread(values)}x" for (top, bottom), values in paired.items()))
    ray_paired = statistics.median(paired["ray-2", "local-2"])
    scale_paired = statistics.median(paired["local-1", "local-2"])
    print(f"targets, judged on the median of the round-by-round ratios: ray / local-2 = {ray_paired:.2f}x "
          f"(<= 1.3x: {'met' if ray_paired <= 1.3 else 'not met'}); local-1 / local-2 = {scale_paired:.2f}x "
          f"(>= 1.7x: {'met' if scale_paired >= 1.7 else 'not met'})")
    one = big["cpu"]["local-1"][0]
    local, ray = (sum(big["cpu"][name]) for name in ("local-2", "ray-2"))
    print(f"CPU per episode in all (driver and workers, medians): ray-2 {ray:.2f} ms, local-2 {local:.2f} ms: "
          f"{ray / local:.2f}x (Ray's own cost in CPU, which a loaded machine moves much less than wall time)")
    for name in ("local-2", "local-2/1"):
        driver, workers = big["cpu"][name]
        print(f"{name}: the driver's serial share {driver:.2f} ms of CPU per episode against {workers:.2f} ms in the "
              f"workers; on two idle cores local-1 / {name} could reach {one / max(driver, workers / 2):.2f}x")
    for name in ("local-2", "ray-2"):
        print(f"worker peak RSS {name}: {small['peaks'][name]:.0f} MB at {args.small} episodes, "
              f"{big['peaks'][name]:.0f} MB at {args.episodes} "
              f"({big['peaks'][name] / small['peaks'][name]:.2f}x for {args.episodes / args.small:.0f}x the units)")


if __name__ == "__main__":
    main()
