"""Annotate-stage request pipeline throughput against a fake OpenAI-compatible endpoint with fixed latency.

    python benchmarks/annotate.py                         # 200 episodes, 300 ms, --concurrency 32
    python benchmarks/annotate.py --episodes 400 --concurrency 64 --latency 0.5 --repeat 5
    python benchmarks/annotate.py --breakdown             # also: where the event loop's time goes

A generated sample (360x800 screens) is ingested once into a temporary run directory. First the annotator images
are drawn and encoded through the stage's own ``Annotator._image_urls`` (timed: the image-preparation rate,
which also warms ``RUN/cache/annotator``). Then each timed run works on a fresh copy of that run (no
``cache/llm``, no annotations) and calls ``annotate_run(..., backend="openai")``; the fake server
(``tests/fake_openai.py``) answers every request with correct items after ``--latency`` seconds. It runs in a
separate process, so its work does not compete with the client for the GIL.

Reference points printed with the result:

- ideal = concurrency / latency episodes/s (106.7 for 32 / 0.3 s, one request per episode); target >= 90 %.
- wave ideal = episodes / (ceil(episodes / concurrency) * latency): with a fixed latency all slots start and
  finish together, so 200 episodes at 32 take 7 full waves (95.2 episodes/s, 89.3 % of the ideal) even with zero
  overhead.
- baseline = a bare ``httpx2.AsyncClient`` posting the same first-attempt request bodies (prebuilt) to the same
  server at the same concurrency: what this machine, loopback and the fake server allow.

The fake server counts its latency from a request's arrival and sets TCP_NODELAY, as real servers do (without
it every answer waited about 40 ms for a delayed ACK, which capped even the bare client). With more episodes
the wave ceiling goes to 100 %: ``--episodes 2000`` shows the sustained rate.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import multiprocessing as mp
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

KEY_ENV = "SFTDATA_BENCH_FAKE_KEY"
TARGET = 0.90


def build_run(work: Path, n: int, size: tuple[int, int]) -> Path:
    from sftdata.ingest import IngestOptions, ingest_androidcontrol
    from sftdata.synthetic.sample import write_sample
    from sftdata.rundir import RunDir

    t0 = time.perf_counter()
    write_sample(work / "sample.tfrecord.gz", n_episodes=n, seed=0, size=size)
    ingest_androidcontrol([work / "sample.tfrecord.gz"], RunDir(work / "base"), IngestOptions(), progress=False)
    print(f"sample: {n} episodes at {size[0]}x{size[1]}, generated and ingested in {time.perf_counter() - t0:.1f} s")
    return work / "base"


def prepare_images(base: Path, max_side: int, threads: int) -> None:
    """Draw + encode every annotator image through the stage (cold cache), then time a warm pass."""
    from sftdata.annotate.images import annotator_bytes
    from sftdata.annotate.stage import AnnotateOptions, Annotator
    from sftdata.rundir import RunDir

    run = RunDir(base)
    episodes = list(run.episodes())
    chunks = [e.steps for e in episodes]
    n_images = sum(len(c) for c in chunks)
    shutil.rmtree(base / "cache" / "annotator", ignore_errors=True)
    annotator = Annotator(run, AnnotateOptions(backend="template", image_max_side=max_side))
    try:
        t0 = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:  # the stage builds messages in a pool of this size
            sizes = [len(u) for urls in pool.map(annotator._image_urls, chunks) for u in urls]
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        for chunk in chunks[:50]:
            annotator._image_urls(chunk)
        warm_n, warm = sum(len(c) for c in chunks[:50]), time.perf_counter() - t0
        t0 = time.perf_counter()
        for chunk in chunks[:20]:
            for step in chunk:  # one thread, no cache: the per-image cost
                annotator_bytes(base, step, max_side, "jpeg")
        one_n, one = sum(len(c) for c in chunks[:20]), time.perf_counter() - t0
    finally:
        annotator.pool.shutdown()
    print(f"image preparation ({n_images} annotator images, longest side {max_side}, JPEG, "
          f"mean data URL {statistics.mean(sizes) / 1024:.0f} KiB):")
    print(f"  drawn+encoded, {threads} threads, cold cache : {n_images / cold:7.1f} images/s "
          f"({len(episodes) / cold:.1f} episodes/s)")
    print(f"  drawn+encoded, 1 thread                 : {one_n / one:7.1f} images/s")
    print(f"  read from RUN/cache/annotator (warm)    : {warm_n / warm:7.1f} images/s")


# --- the fake endpoint, in its own process ----------------------------------------------------------------
def _serve(base: str, latency: float, window: int, max_side: int, conn) -> None:
    from fake_openai import EpisodeIndex, FakeOpenAI

    index = EpisodeIndex(base, window=window, image_max_side=max_side)
    replies: dict = {}

    def responder(body, n):
        w = index.lookup(body)
        if w.key not in replies:
            replies[w.key] = index.correct_reply(body)
        return replies[w.key]

    with FakeOpenAI(responder, latency=latency) as srv:
        conn.send(srv.base_url)
        while True:
            msg = conn.recv()
            if msg == "stop":
                break
            if msg == "stats":  # since the last "stats"
                reqs, cpu = srv.snapshot(), os.times()
                conn.send({"requests": len(reqs), "max_in_flight": srv.max_in_flight, "errors": srv.errors[:1],
                           "cpu": cpu.user + cpu.system, "first": min((r.time for r in reqs), default=0),
                           "last": max((r.answered or 0 for r in reqs), default=0)})
                with srv._lock:
                    srv.requests.clear()
                    srv.max_in_flight = 0


class Server:
    def __init__(self, base: Path, args) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(str(base), args.latency, args.window, args.image_max_side, child),
                                daemon=True)
        self.proc.start()
        self.base_url = self.conn.recv()
        self.cpu = self.stats()["cpu"]

    def stats(self) -> dict:
        self.conn.send("stats")
        return self.conn.recv()

    def close(self) -> None:
        self.conn.send("stop")
        self.proc.join(10)


# --- runs -------------------------------------------------------------------------------------------------
def stage_run(base: Path, work: Path, i: int, base_url: str, args) -> tuple[float, object]:
    from sftdata.annotate.stage import AnnotateOptions, annotate_run
    from sftdata.rundir import RunDir

    dst = work / f"run{i}"
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(base, dst)  # a fresh copy: warm image cache, no cache/llm, no annotations
    assert not (dst / "cache" / "llm").exists() and not (dst / "annotations.jsonl").exists()
    opts = AnnotateOptions(backend="openai", model="fake-vl", base_url=base_url, api_key_env=KEY_ENV,
                           image_max_side=args.image_max_side, concurrency=args.concurrency, timeout=30,
                           max_retries=0, window=args.window, progress=False)
    c0, t0 = os.times(), time.perf_counter()
    result = annotate_run(RunDir(dst), opts)
    elapsed, c1 = time.perf_counter() - t0, os.times()
    result.client_cpu = (c1.user + c1.system) - (c0.user + c0.system)
    shutil.rmtree(dst, ignore_errors=True)
    return elapsed, result


def first_bodies(base: Path, args) -> list[bytes]:
    from sftdata.llm.backends import chat_body
    from sftdata.annotate.stage import AnnotateOptions, Annotator, split_windows
    from sftdata.rundir import RunDir

    run = RunDir(base)
    annotator = Annotator(run, AnnotateOptions(backend="template", image_max_side=args.image_max_side))
    try:
        return [json.dumps(chat_body("fake-vl", annotator.messages(e, s, t), 8192, None, False),
                           ensure_ascii=False).encode()
                for e in run.episodes() for s, t in split_windows(len(e.steps), args.window)]
    finally:
        annotator.pool.shutdown()


def baseline_run(bodies: list[bytes], base_url: str, concurrency: int) -> float:
    import httpx2

    async def main() -> float:
        sem = asyncio.Semaphore(concurrency)
        async with httpx2.AsyncClient(timeout=30, limits=httpx2.Limits(max_connections=concurrency * 2)) as client:
            async def one(body: bytes) -> None:
                async with sem:
                    r = await client.post(base_url + "/chat/completions", content=body,
                                          headers={"content-type": "application/json", "authorization": "Bearer x"})
                    r.raise_for_status()
                    r.json()

            t0 = time.perf_counter()
            await asyncio.gather(*(one(b) for b in bodies))
            return time.perf_counter() - t0

    return asyncio.run(main())


def breakdown_run(base: Path, work: Path, base_url: str, args) -> None:
    """One more stage run with wrappers timing its sections (most run in the stage's thread pool; wall time, so
    waiting for the GIL counts), and a monitor measuring how long the event loop was blocked (monkeypatched
    here; sftdata is not changed)."""
    import sftdata.annotate.annotator as annotator_mod
    import sftdata.annotate.stage as stage
    from sftdata.model import Episode

    spent: collections.Counter = collections.Counter()
    lag: list[float] = []
    saved = []

    def patch(owner, name, label, wrap_async=False):
        original = getattr(owner, name)
        saved.append((owner, name, original))
        if wrap_async:
            async def timed(*a, **k):
                t = time.perf_counter()
                try:
                    return await original(*a, **k)
                finally:
                    spent[label] += time.perf_counter() - t
        else:
            def timed(*a, **k):
                t = time.perf_counter()
                try:
                    return original(*a, **k)
                finally:
                    spent[label] += time.perf_counter() - t
        setattr(owner, name, timed)

    patch(annotator_mod, "request_key", "request_key (sha256 of the body, images digested)")
    patch(annotator_mod.Annotator, "judge", "judge (parse, schema, check)")
    patch(annotator_mod.ReplyCache, "put", "ReplyCache.put (atomic write, no fsync)")
    patch(annotator_mod.Annotator, "messages", "messages (annotator images, prompt)")
    patch(annotator_mod.OpenAIBackend, "complete", "backend.complete (SDK, HTTP, 300 ms wait)", wrap_async=True)
    original_from_dict = Episode.__dict__["from_dict"]
    saved.append((Episode, "from_dict", original_from_dict))

    def from_dict(cls, d):
        t = time.perf_counter()
        try:
            return original_from_dict.__func__(cls, d)
        finally:
            spent["Episode.from_dict"] += time.perf_counter() - t
    Episode.from_dict = classmethod(from_dict)

    original_annotate = stage._annotate

    async def monitored(*a, **k):
        done = False

        async def monitor():
            while not done:
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                lag.append(max(0.0, time.perf_counter() - t - 0.005))
        task = asyncio.ensure_future(monitor())
        cpu = time.thread_time()
        try:
            return await original_annotate(*a, **k)
        finally:
            spent["(main thread CPU)"] = time.thread_time() - cpu
            done = True
            await task
    saved.append((stage, "_annotate", original_annotate))
    stage._annotate = monitored
    try:
        elapsed, _ = stage_run(base, work, 99, base_url, args)
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)
    print(f"\nbreakdown run ({elapsed:.3f} s, slower: instrumented): wall seconds inside each section")
    for label, secs in spent.most_common():
        print(f"  {label:<42} {secs:6.3f} s")
    print(f"  event loop blocked (lag of a 5 ms ticker)  {sum(lag):6.3f} s, worst single block {max(lag) * 1000:.0f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--size", default="360x800")
    ap.add_argument("--image-max-side", type=int, default=512)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--latency", type=float, default=0.3)
    ap.add_argument("--window", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=min(4, os.cpu_count() or 1),
                    help="threads for the cold image pass (the stage's pool has min(4, CPUs))")
    ap.add_argument("--breakdown", action="store_true", help="one more, instrumented run: time per section")
    ap.add_argument("--work", type=Path, help="work directory (default: a temporary one, removed at the end)")
    args = ap.parse_args()
    os.environ[KEY_ENV] = "sk-bench-fake"
    size = tuple(int(v) for v in args.size.lower().split("x"))

    work = args.work or Path(tempfile.mkdtemp(prefix="sftdata-bench-annotate-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        base = build_run(work, args.episodes, size)
        prepare_images(base, args.image_max_side, args.threads)
        bodies = first_bodies(base, args)
        n_eps, n_req = args.episodes, len(bodies)
        ideal = args.concurrency / args.latency * n_eps / n_req
        waves = math.ceil(n_req / args.concurrency)
        wave_ideal = n_eps / (waves * args.latency)

        server = Server(base, args)
        try:
            stage_run(base, work, 0, server.base_url, args)  # untimed warm-up: imports, the server's tables
            server.cpu = server.stats()["cpu"]
            print(f"\nrequest pipeline: {n_eps} episodes, {n_req} requests (mean body "
                  f"{statistics.mean(map(len, bodies)) / 1024:.0f} KiB), latency {args.latency * 1000:.0f} ms, "
                  f"--concurrency {args.concurrency}, --image-max-side {args.image_max_side}, {os.cpu_count()} CPUs")
            base_rates = []
            for i in range(1, args.repeat + 1):
                elapsed = baseline_run(bodies, server.base_url, args.concurrency)
                stats = server.stats()
                assert stats["requests"] == n_req and not stats["errors"], stats
                base_rates.append(n_eps / elapsed)
                print(f"  baseline {i} (bare httpx2, prebuilt bodies): {elapsed:6.3f} s  {n_eps / elapsed:6.1f} episodes/s "
                      f"({n_eps / elapsed / ideal:5.1%} of ideal)")
            server.cpu = stats["cpu"]
            rates = []
            for i in range(1, args.repeat + 1):
                elapsed, result = stage_run(base, work, i, server.base_url, args)
                stats = server.stats()
                assert result.new_annotated == n_eps, result
                assert stats["requests"] == n_req and not stats["errors"], stats
                rate = n_eps / elapsed
                rates.append(rate)
                print(f"  stage run {i}: {elapsed:6.3f} s  {rate:6.1f} episodes/s  ({rate / ideal:5.1%} of ideal, "
                      f"{rate / wave_ideal:5.1%} of wave ideal)  max in flight {stats['max_in_flight']}; CPU s: "
                      f"client {result.client_cpu:.2f}, server {stats['cpu'] - server.cpu:.2f}; server busy "
                      f"{stats['last'] - stats['first']:.3f} s")
                server.cpu = stats["cpu"]
            if args.breakdown:
                breakdown_run(base, work, server.base_url, args)
                server.stats()
        finally:
            server.close()
        best, med, bmed = max(rates), statistics.median(rates), statistics.median(base_rates)
        print(f"\nideal (concurrency / latency)        : {ideal:6.1f} episodes/s ({n_eps / ideal:.3f} s)")
        print(f"wave ideal ({waves} waves of {args.latency * 1000:.0f} ms)      : {wave_ideal:6.1f} episodes/s "
              f"({wave_ideal / ideal:.1%} of ideal)")
        print(f"baseline (bare client), median       : {bmed:6.1f} episodes/s ({bmed / ideal:.1%} of ideal)")
        verdict = "met" if med / ideal >= TARGET else "NOT met"
        if wave_ideal / ideal < TARGET:
            verdict += f" (unreachable here: the wave ceiling is {wave_ideal / ideal:.1%} of ideal)"
        print(f"annotate stage: best {best:6.1f}, median {med:6.1f} episodes/s = {med / ideal:.1%} of ideal, "
              f"{med / wave_ideal:.1%} of the wave ideal ({med / bmed:.1%} of the baseline)   target >= {TARGET:.0%} "
              f"of ideal: {verdict}")
        return 0
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
