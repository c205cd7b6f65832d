"""Plan sequence packs for ms-swift ``--packing true`` and write samples in an order that reproduces them.

How ms-swift packs (swift/dataset/packing.py, ms-swift >= 4.4.3): ``PackingDataset`` reads every encoded
sample's token length in dataset order, feeds it to ``calculate_matched_group`` in windows of 1000
(``PACKING_BATCH_SIZE``), carrying the last, unfinished pack into the next window. The default
``--packing_strategy binpack`` runs ``binpacking.to_constant_volume`` on each window (it sorts by length, so
the written order only decides which window a sample falls into); ``--packing_strategy sequential`` is
next-fit in dataset order: one open pack, flushed when the next sample does not fit. Writing our
best-fit-decreasing bins back to back (``pack_order``) makes next-fit rebuild exactly those bins, provided
that ms-swift sees the samples in file order and with the lengths we packed:
``--packing true --packing_strategy sequential --packing_num_proc 1 --dataset_shuffle false``
(``--train_dataloader_shuffle`` may stay on: it shuffles whole packs). ``swift_sequential_packs`` replays it.

>>> lengths = [7, 5, 4, 3, 3, 2]
>>> best_fit_decreasing(lengths, 10)
[[0, 3], [1, 2], [4, 5]]
>>> pack_order(lengths, 10)
[0, 3, 1, 2, 4, 5]
>>> swift_sequential_packs([lengths[i] for i in pack_order(lengths, 10)], 10)
[[0, 1], [2, 3], [4, 5]]
"""
from __future__ import annotations

from collections import defaultdict

import math


def best_fit_decreasing(lengths: list[int], capacity: int) -> list[list[int]]:
    """Bins of sample indices: samples taken longest first (ties by index) go into the open bin with the
    least room that still fits them, else a new bin. Bins come in opening order, each listing its samples in
    placement order (its opening, longest sample first). Deterministic; O(n log n + n log capacity): open
    bins sit in buckets by remaining room, found through a segment tree over 0..capacity.

    Lengths must be in 1..capacity (drop longer samples before packing): ValueError otherwise.

    >>> best_fit_decreasing([3, 8, 2, 5], 10)
    [[1], [3, 0, 2]]
    >>> best_fit_decreasing([], 10)
    []
    """
    if capacity < 1:
        raise ValueError(f"capacity must be >= 1, got {capacity}")
    for i, n in enumerate(lengths):
        if not 1 <= n <= capacity:
            raise ValueError(f"sample {i} has length {n}, outside 1..capacity={capacity}")
    size = 1 << capacity.bit_length()  # leaves 0..capacity, one per possible remaining room
    tree = [0] * (2 * size)  # tree[size + r] = open bins with room r; inner nodes hold subtree sums
    buckets: dict[int, list[int]] = defaultdict(list)  # room -> open bins with it (only rooms in use: capacity
    # may be 10^6 tokens, and a list per possible room cost 80 ms per export)
    bins: list[list[int]] = []
    room: list[int] = []

    def add(r: int, delta: int) -> None:
        i = size + r
        while i:
            tree[i] += delta
            i >>= 1

    def least_room_at_least(x: int) -> int:
        i = size + x
        if tree[i]:
            return x
        while i > 1:  # climb until a right sibling (rooms > x) holds an open bin
            if not i & 1 and tree[i + 1]:
                i += 1
                break
            i >>= 1
        else:
            return -1
        while i < size:  # descend to its leftmost non-empty leaf
            i <<= 1
            if not tree[i]:
                i += 1
        return i - size

    for idx in sorted(range(len(lengths)), key=lambda i: (-lengths[i], i)):
        n = lengths[idx]
        r = least_room_at_least(n)
        if r < 0:
            b = len(bins)
            bins.append([idx])
            room.append(capacity - n)
        else:
            b = buckets[r].pop()
            add(r, -1)
            bins[b].append(idx)
            room[b] -= n
        buckets[room[b]].append(b)
        add(room[b], 1)
    return bins


def pack_order(lengths: list[int], capacity: int) -> list[int]:
    """Sample order to write: ``best_fit_decreasing`` bins back to back. Next-fit over this order (ms-swift's
    ``packing_strategy='sequential'``) closes a pack exactly at each bin boundary: a later bin's first sample
    did not fit an earlier bin when it was placed, and bins only fill up afterwards.

    >>> pack_order([3, 8, 2, 5], 10)
    [1, 3, 0, 2]
    """
    return [i for b in best_fit_decreasing(lengths, capacity) for i in b]


def swift_sequential_packs(lengths: list[int], capacity: int, window: int = 1000) -> list[list[int]]:
    """Replay of ms-swift's ``PackingDataset`` with ``packing_strategy='sequential'`` and packing_num_proc=1
    (swift/dataset/packing.py ``calculate_matched_group`` + ``create_packed_idx``): positions per pack.

    >>> swift_sequential_packs([6, 4, 5, 5, 10, 1], 10, window=2)
    [[0, 1], [2, 3], [4], [5]]
    """
    packs: list[list[int]] = []
    carry: list[tuple[int, int]] = []
    data = list(enumerate(lengths))
    for start in range(0, len(data), window):
        cur, cur_len = [], 0
        for item in carry + data[start:start + window]:
            if cur and cur_len + item[1] > capacity:
                packs.append([i for i, _ in cur])
                cur, cur_len = [], 0
            cur.append(item)
            cur_len += item[1]
            if cur_len >= capacity:
                packs.append([i for i, _ in cur])
                cur, cur_len = [], 0
        carry = cur
    if carry:
        packs.append([i for i, _ in carry])
    return packs


def packing_efficiency(lengths: list[int], bins: list[list[int]], capacity: int) -> float:
    """Share of the packed capacity holding tokens: sum(lengths) / (len(bins) * capacity).

    >>> packing_efficiency([7, 5, 4, 3, 3, 2], [[0, 3], [1, 2], [4, 5]], 10)
    0.8
    """
    return sum(lengths[i] for b in bins for i in b) / (len(bins) * capacity) if bins else 1.0


def lower_bound_bins(lengths: list[int], capacity: int) -> int:
    """No packing needs fewer bins than ceil(sum(lengths) / capacity).

    >>> lower_bound_bins([7, 5, 4, 3, 3, 2], 10)
    3
    """
    return math.ceil(sum(lengths) / capacity)
