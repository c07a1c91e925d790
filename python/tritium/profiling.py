"""Kernel launches as events of torch's profiler.

Under `torch.profiler.profile(...)` every launch of a tritium kernel is recorded as an event
named after the kernel, spanning the whole grid (the caller waits for it), so that
`prof.key_averages().table()` and the Chrome trace show where the time goes. The launchers ask
`profiler_enabled()` before each launch — a module lookup and a flag when torch is imported,
nothing else — and only open an event when a profiler is running.

Inductor already wraps each of its launches in an event with its kernel's name; for those
launches tritium opens none, so that a compiled model's kernels are counted once.
"""

import sys

_PROFILER_MODULE = "torch.autograd.profiler"
# Inductor's launch path: its generated `launcher` function (compiled from a string) is called by
# CachingAutotuner.run in this file, which has opened the kernel's event already.
_INDUCTOR_LAUNCHER_CALLER = "_inductor/runtime/triton_heuristics.py"


def profiler_enabled():
    """Whether torch's profiler is recording (False when torch is not even imported)."""
    profiler = sys.modules.get(_PROFILER_MODULE)
    return profiler is not None and profiler._is_profiler_enabled


def _called_by_inductor(frame):
    for _ in range(2):
        if frame is None:
            return False
        if frame.f_code.co_filename.replace("\\", "/").endswith(_INDUCTOR_LAUNCHER_CALLER):
            return True
        frame = frame.f_back
    return False


def open_launch_event(name, grid, depth=1):
    """Opens the profiler event of one launch of kernel `name` over `grid` (x, y, z); returns
    it for close_launch_event, or None where Inductor records the launch itself. Called by a
    launcher while a profiler runs; frame `depth` is the launcher's caller (1: the native
    launcher calls this directly)."""
    if _called_by_inductor(sys._getframe(depth)):
        return None
    from torch._C._profiler import _RecordFunctionFast
    x, y, z = grid
    event = _RecordFunctionFast(name, (), {"kernel_backend": "tritium", "grid": f"({x}, {y}, {z})",
                                             "programs": x * y * z})
    event.__enter__()
    return event


def close_launch_event(event):
    if event is not None:
        event.__exit__(None, None, None)


class launch_event:
    """`with launch_event(name, grid):` around a launch, for the launchers written in Python."""

    def __init__(self, name, grid):
        # Frames: open_launch_event, this, the launcher's __call__, the launcher's caller.
        self.event = open_launch_event(name, grid, depth=3) if profiler_enabled() else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        close_launch_event(self.event)
        return False
