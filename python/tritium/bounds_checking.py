"""The bounds-checking mode's launcher: each launch tells the kernel which memory each pointer
argument may touch and turns the first out-of-bounds access into an IndexError.

Kernels compiled with check_bounds (TRITIUM_CHECK_BOUNDS=1, `check_bounds=True` as a launch
option) take one more argument, a table of 64-bit words (the layout is
described in lib/Conversion/TritonToLinalg/CheckMemoryBounds.cpp):

    [0] flag  [1] argument  [2] address  [3] site  [4..6] program id  [7] scratch
    [8 + 2k], [9 + 2k]: the first and one-past-the-last byte argument k may touch

The kernel masks off every lane outside its argument's range, so an offending access never
touches memory; the launch raises once the grid has finished, and the process goes on.
"""

import ctypes

from tritium import _C
from tritium.profiling import launch_event
from tritium.backends.cpu.driver import CPULauncher, check_grid

_EVERYWHERE = (0, 2**64 - 1)
_RECORD_WORDS = 8
_VERBS = {
    "tt.load": "reads", "tt.store": "writes", "tt.atomic_rmw": "atomically updates",
    "tt.atomic_cas": "atomically compares and swaps", "tt.atomic_load": "atomically reads",
    "tt.atomic_store": "atomically writes"
}


def _memory_of(arg):
    """The byte range [first, end) an argument gives the kernel, or everything for objects
    whose size is unknown (raw addresses)."""
    array = getattr(arg, "array", None)
    if array is not None and hasattr(array, "__array_interface__"):
        # A numpy array's strides may be negative: its memory reaches both ways from data.
        data = array.ctypes.data
        if array.size == 0:
            return data, data
        reach = [(size - 1) * stride for size, stride in zip(array.shape, array.strides)]
        return (data + sum(r for r in reach if r < 0),
                data + sum(r for r in reach if r > 0) + array.itemsize)
    if not hasattr(arg, "data_ptr") or not hasattr(arg, "stride"):
        return _EVERYWHERE
    first = arg.data_ptr()
    if arg.numel() == 0:
        return first, first
    span = 1 + sum((size - 1) * stride for size, stride in zip(arg.shape, arg.stride()))
    return first, first + span * arg.element_size()


def _describe_tensor(arg):
    dtype = str(getattr(arg, "dtype", "")).replace("torch.", "")
    shape = tuple(getattr(arg, "shape", ()))
    return f"a tensor of shape {shape} and dtype {dtype}" if shape else f"a {dtype} tensor"


class BoundsCheckingLauncher(CPULauncher):

    def __init__(self, src, metadata):
        super().__init__(src, metadata)
        self.sites = list(getattr(metadata, "memory_access_sites", ()))

    def __call__(self, gridX, gridY, gridZ, stream, function, packed_metadata, launch_metadata,
                 launch_enter_hook, launch_exit_hook, *args):
        check_grid(gridX, gridY, gridZ)
        kinds, values, arguments = [], [], []
        self._flatten(self.signature, args, kinds, values, arguments, self.param_names)
        table = (ctypes.c_uint64 * (_RECORD_WORDS + 2 * len(values)))()
        for k, kind in enumerate(kinds):
            first, end = _memory_of(arguments[k][1]) if kind == "p" else _EVERYWHERE
            table[_RECORD_WORDS + 2 * k] = first
            table[_RECORD_WORDS + 2 * k + 1] = end
        kinds.append("p")
        values.append(ctypes.addressof(table))
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        with launch_event(self.name, (gridX, gridY, gridZ)):
            _C.launch(function, gridX, gridY, gridZ, "".join(kinds), tuple(values))
        if table[0]:
            raise IndexError(self._message(table, arguments))
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)

    def _message(self, table, arguments):
        k, address, site = table[1], table[2], table[3]
        pid = tuple(int(table[4 + axis]) for axis in range(3))
        where, _, op = (self.sites[site] if site < len(self.sites) else "?: ?").rpartition(": ")
        name, arg = arguments[k]
        first, end = table[_RECORD_WORDS + 2 * k], table[_RECORD_WORDS + 2 * k + 1]
        lines = [f"tritium: kernel '{self.name}' {_VERBS.get(op, 'accesses')} out of bounds at {where} "
                 f"({op}), program {pid}:"]
        size = arg.element_size()
        data = arg.data_ptr()
        numel = getattr(arg, "numel", None)
        count = numel() if callable(numel) else (end - first) // max(size, 1)
        offset = address - data
        index = f"index {offset // size}" if offset % size == 0 else f"byte offset {offset}"
        past = (f"{address - end} bytes past its end" if address >= end else
                f"{first - address} bytes before its start" if address < first else "inside its span")
        lines.append(f"  argument '{name}' ({_describe_tensor(arg)}, {count} elements) has no element at "
                     f"{index} (address {address:#x}, {past}).")
        lines.append("  Mask the access (e.g. mask=offsets < n) or fix its offsets. Lanes out of bounds "
                     "were skipped: no memory outside the kernel's tensors was touched.")
        return "\n".join(lines)
