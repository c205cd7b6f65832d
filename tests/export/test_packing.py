"""sftdata.export.packing: best-fit-decreasing bins and the write order that ms-swift's packing reproduces."""
from __future__ import annotations

import random
import time

import pytest

from sftdata.export.packing import (best_fit_decreasing, lower_bound_bins, pack_order, packing_efficiency,
                                    swift_sequential_packs)


# Copied from modelscope/ms-swift swift/dataset/packing.py (commit 3602360a562313afbf2ef6065fdf61f271a2c5b9):
# calculate_matched_group (lines 16-47, 'sequential' branch) and PackingDataset.create_packed_idx (lines 112-126)
# with the queue replaced by a list, packing_num_proc=1.
def swift_calculate_matched_group(sequences, packing_length, is_finished=True, strategy='binpack'):
    if len(sequences) == 0:
        return [], []
    if strategy == 'sequential':
        packs, cur, cur_len = [], [], 0
        for item in sequences:  # item = (idx, length); weight_pos=1 -> length at item[1]
            seq_len = item[1]
            if cur and cur_len + seq_len > packing_length:
                packs.append(cur)
                cur, cur_len = [], 0
            cur.append(item)
            cur_len += seq_len
            if cur_len >= packing_length:
                packs.append(cur)
                cur, cur_len = [], 0
        if is_finished:
            if cur:
                packs.append(cur)
            return packs, []
        return packs, cur
    import binpacking
    sequences = binpacking.to_constant_volume(sequences, packing_length, weight_pos=1)
    if sequences and not is_finished:
        sequences, ret_sequences = sequences[:-1], sequences[-1]
    else:
        ret_sequences = []
    return sequences, ret_sequences


def swift_create_packed_idx(lengths, packing_length, strategy, batch_size=1000):
    out = []
    data = [(i, length) for i, length in enumerate(lengths)]
    i = 0
    input_data = []
    while True:
        new_data = data[i:i + batch_size]
        input_data += new_data
        if not input_data:
            break
        i += batch_size
        is_finished = i >= len(data)
        sequences, input_data = swift_calculate_matched_group(input_data, packing_length, is_finished, strategy)
        out += [[x[0] for x in seq] for seq in sequences]
    return out


def sample_lengths(n, seed=0):
    """Screenshot-step-like lengths: one image (Qwen2.5-VL tokens of common phone sizes) + text."""
    rng = random.Random(seed)
    images = [3356, 2710, 1658, 5663, 0]  # 1080x2400, 1080x1920, 720x1600, 1440x3120 (+2 overhead), text-only
    return [rng.choice(images) + rng.randint(80, 2500) for _ in range(n)]


def check_bins(lengths, bins, capacity):
    flat = sorted(i for b in bins for i in b)
    assert flat == list(range(len(lengths)))  # every index exactly once
    assert all(b and sum(lengths[i] for i in b) <= capacity for b in bins)


def naive_bfd_loads(lengths, capacity):
    loads = []
    for n in sorted(lengths, reverse=True):
        fits = [k for k, load in enumerate(loads) if load + n <= capacity]
        if fits:
            k = max(fits, key=lambda k: loads[k])
            loads[k] += n
        else:
            loads.append(n)
    return sorted(loads)


@pytest.mark.parametrize("capacity", [8192, 16384, 32768])
def test_bins_are_valid_deterministic_and_best_fit(capacity):
    lengths = sample_lengths(2000, seed=capacity)
    bins = best_fit_decreasing(lengths, capacity)
    check_bins(lengths, bins, capacity)
    assert bins == best_fit_decreasing(list(lengths), capacity)
    # tie-breaking among equally full bins does not change the loads, so they equal a naive BFD's
    assert sorted(sum(lengths[i] for i in b) for b in bins) == naive_bfd_loads(lengths, capacity)
    assert len(bins) >= lower_bound_bins(lengths, capacity)
    assert packing_efficiency(lengths, bins, capacity) == pytest.approx(sum(lengths) / (len(bins) * capacity))


@pytest.mark.parametrize("capacity", [8192, 16384])
def test_efficiency_close_to_binpacking(capacity):
    binpacking = pytest.importorskip("binpacking")
    lengths = sample_lengths(3000, seed=7)
    ours = packing_efficiency(lengths, best_fit_decreasing(lengths, capacity), capacity)
    theirs_bins = binpacking.to_constant_volume(list(enumerate(lengths)), capacity, weight_pos=1)
    theirs = sum(lengths) / (len(theirs_bins) * capacity)
    assert ours >= theirs - 0.005, (ours, theirs)


@pytest.mark.parametrize("window", [1000, 7, 1])
def test_pack_order_reproduces_bins_under_swift_sequential(window):
    lengths = sample_lengths(2500, seed=3)
    capacity = 16384
    bins = best_fit_decreasing(lengths, capacity)
    order = pack_order(lengths, capacity)
    assert sorted(order) == list(range(len(lengths)))
    written = [lengths[i] for i in order]
    packs = swift_sequential_packs(written, capacity, window=window)
    assert packs == swift_create_packed_idx(written, capacity, "sequential", batch_size=window)
    assert [[order[p] for p in pack] for pack in packs] == bins


def test_pack_order_with_exactly_full_bins():
    lengths = [10, 6, 4, 5, 5, 3, 3, 3, 1]
    bins = best_fit_decreasing(lengths, 10)
    order = pack_order(lengths, 10)
    packs = swift_sequential_packs([lengths[i] for i in order], 10)
    assert [[order[p] for p in pack] for pack in packs] == bins
    assert packing_efficiency(lengths, bins, 10) == 1.0


def test_swift_binpack_strategy_only_sees_windows():
    """With the default 'binpack' strategy ms-swift re-sorts each 1000-sample window itself: our order only
    chooses the windows, so its packs generally differ from ours (documented, not relied on)."""
    pytest.importorskip("binpacking")
    lengths = sample_lengths(2500, seed=3)
    order = pack_order(lengths, 16384)
    packs = swift_create_packed_idx([lengths[i] for i in order], 16384, "binpack")
    assert sorted(p for pack in packs for p in pack) == list(range(len(lengths)))


def test_edge_cases():
    assert best_fit_decreasing([], 100) == [] and pack_order([], 100) == []
    assert packing_efficiency([], [], 100) == 1.0 and lower_bound_bins([], 100) == 0
    assert best_fit_decreasing([5], 100) == [[0]]
    assert best_fit_decreasing([100], 100) == [[0]]  # item == capacity
    assert best_fit_decreasing([100, 1, 100], 100) == [[0], [2], [1]]
    assert best_fit_decreasing([25] * 8, 100) == [[0, 1, 2, 3], [4, 5, 6, 7]]  # all equal
    assert best_fit_decreasing([30] * 7, 100) == [[0, 1, 2], [3, 4, 5], [6]]
    assert best_fit_decreasing([1], 1) == [[0]]
    with pytest.raises(ValueError, match="sample 1 has length 101"):
        best_fit_decreasing([5, 101], 100)
    with pytest.raises(ValueError, match="outside"):
        best_fit_decreasing([0], 100)
    with pytest.raises(ValueError, match="capacity"):
        best_fit_decreasing([1], 0)


def test_fast_enough_for_20k_samples():
    lengths = sample_lengths(20000, seed=11)
    t = time.process_time()  # this process's CPU time: the same on a loaded machine
    bins = best_fit_decreasing(lengths, 16384)
    assert time.process_time() - t < 5.0
    check_bins(lengths, bins, 16384)
    assert packing_efficiency(lengths, bins, 16384) > 0.97
