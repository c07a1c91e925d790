"""Kernel launches under torch's profiler.

Every launch of a tritium kernel is an event named after the kernel that spans the whole grid;
Inductor's kernels appear once each (Inductor opens their events, tritium opens none); Triton's
launch hooks still run; without a profiler no event is recorded.
"""

import json
import time

import pytest
import torch
import triton
import triton.language as tl
from triton import knobs


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + 1, mask=mask)


@triton.jit
def add_pair(pair, out_ptr, BLOCK: tl.constexpr):
    # A tuple parameter: launched by the launcher written in Python.
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(pair[0] + offsets) + tl.load(pair[1] + offsets))


@triton.jit
def spin(x_ptr, rounds, BLOCK: tl.constexpr):
    # A launch that takes milliseconds: a long dependent chain per program.
    offsets = tl.arange(0, BLOCK)
    value = tl.load(x_ptr + offsets)
    for _ in range(rounds):
        value = value * 0.999 + 0.001
    tl.store(x_ptr + offsets, value)


@triton.jit
def assert_positive(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.device_assert(tl.load(x_ptr + offsets) > 0, "must be positive")


def events_named(prof, name):
    return [event for event in prof.events() if event.name == name]


def test_each_launch_is_an_event_named_after_the_kernel():
    x = torch.zeros(1000)
    add_one[(4, )](x, 1000, BLOCK=256)  # compiled before profiling
    with torch.profiler.profile() as prof:
        for _ in range(3):
            add_one[(4, )](x, 1000, BLOCK=256)
    assert torch.equal(x, torch.full((1000, ), 4.0))
    assert len(events_named(prof, "add_one")) == 3
    averages = {row.key: row for row in prof.key_averages()}
    assert averages["add_one"].count == 3
    assert "add_one" in prof.key_averages().table()


def test_the_event_spans_the_grid():
    x = torch.ones(64)
    rounds = 200_000
    spin[(2, )](x, rounds, BLOCK=64)
    start = time.perf_counter()
    spin[(2, )](x, rounds, BLOCK=64)
    unprofiled_us = (time.perf_counter() - start) * 1e6
    with torch.profiler.profile() as prof:
        spin[(2, )](x, rounds, BLOCK=64)
    (event, ) = events_named(prof, "spin")
    # The event covers the programs' run, not only the dispatch (which takes microseconds).
    assert event.cpu_time_total > 0.3 * unprofiled_us, (event.cpu_time_total, unprofiled_us)


def test_events_nest_in_the_callers_regions_and_reach_the_chrome_trace(tmp_path):
    x = torch.zeros(256)
    add_one[(1, )](x, 256, BLOCK=256)
    with torch.profiler.profile() as prof:
        with torch.profiler.record_function("my_step"):
            add_one[(1, )](x, 256, BLOCK=256)
    (step, ) = events_named(prof, "my_step")
    (launch, ) = events_named(prof, "add_one")
    assert step.time_range.start <= launch.time_range.start
    assert launch.time_range.end <= step.time_range.end
    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    names = [event.get("name") for event in json.loads(trace.read_text())["traceEvents"]]
    assert "add_one" in names


def test_no_profiler_no_event():
    x = torch.zeros(256)
    add_one[(1, )](x, 256, BLOCK=256)
    with torch.profiler.profile() as prof:
        pass
    add_one[(1, )](x, 256, BLOCK=256)
    assert events_named(prof, "add_one") == []


def test_launchers_written_in_python_record_events_too():
    a, b, out = torch.arange(64.0), torch.ones(64), torch.empty(64)
    add_pair[(1, )]((a, b), out, BLOCK=64)
    x = torch.zeros(256)
    add_one[(1, )](x, 256, BLOCK=256, check_bounds=True)
    with torch.profiler.profile() as prof:
        add_pair[(1, )]((a, b), out, BLOCK=64)
        add_one[(1, )](x, 256, BLOCK=256, check_bounds=True)
    assert torch.equal(out, a + b)
    assert len(events_named(prof, "add_pair")) == 1
    assert len(events_named(prof, "add_one")) == 1


def test_launch_hooks_still_run_while_profiling():
    seen = []
    x = torch.zeros(256)
    add_one[(1, )](x, 256, BLOCK=256)
    knobs.runtime.launch_enter_hook = lambda metadata: seen.append(metadata.get()["name"])
    try:
        with torch.profiler.profile() as prof:
            add_one[(1, )](x, 256, BLOCK=256)
    finally:
        knobs.runtime.launch_enter_hook = None
    assert seen == ["add_one"]
    assert len(events_named(prof, "add_one")) == 1


def test_a_failing_assert_closes_its_event_and_raises():
    x = -torch.ones(16)
    assert_positive[(1, )](torch.ones(16), BLOCK=16, debug=True)
    with torch.profiler.profile() as prof:
        with pytest.raises(AssertionError, match="must be positive"):
            assert_positive[(1, )](x, BLOCK=16, debug=True)
        add_one[(1, )](x, 16, BLOCK=16)  # the profiler goes on after the failure
    assert len(events_named(prof, "assert_positive")) == 1
    assert len(events_named(prof, "add_one")) == 1


def test_inductor_kernels_appear_once_per_launch():
    compiled = torch.compile(lambda a, b: torch.softmax(a * 2, dim=-1) + b.sin(), backend="tritium")
    a, b = torch.randn(32, 64), torch.randn(32, 64)
    expected = torch.softmax(a * 2, dim=-1) + b.sin()
    torch.testing.assert_close(compiled(a, b), expected)
    with torch.profiler.profile() as prof:
        compiled(a, b)
        compiled(a, b)
    kernels = [event for event in prof.events() if event.name.startswith("triton_")]
    assert kernels, "no Inductor kernel was recorded"
    counts = {}
    for event in kernels:
        counts[event.name] = counts.get(event.name, 0) + 1
    # Two calls: each kernel of the graph twice, not four times (no event of tritium's own on top).
    assert set(counts.values()) == {2}, counts
