"""The CPU backend's driver: loads kernel objects in process and launches grids natively.

Imported by Triton while `import triton` is still running: torch is imported lazily.
"""

import functools
import os
import platform
import re
import struct
import time

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase, decompose_descriptor, expand_signature

from tritium import _C
from tritium.inductor_benchmarking import register_if_inductor_is_loaded
from tritium.profiling import launch_event

# One letter per kernel parameter type, as tritium._C.launch packs it.
_ARGUMENT_KINDS = {
    "i1": "b", "i8": "i", "i16": "i", "i32": "i", "i64": "l",
    "u1": "b", "u8": "u", "u16": "u", "u32": "u", "u64": "U",
    "fp32": "f", "f32": "f", "fp64": "d", "f64": "d", "fp16": "h", "bf16": "h",
}


def _argument_kind(ty):
    if ty.startswith("*"):
        return "p"
    try:
        return _ARGUMENT_KINDS[ty]
    except KeyError:
        raise TypeError(f"tritium: kernel parameters of type '{ty}' are not supported on the CPU") from None


def _float16_bits(value, ty):
    if ty == "fp16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    # bf16: the top half of the fp32 bits, rounded to nearest even.
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


# The native launcher's letters: as above, with 16-bit floats told apart and '-' for constexpr.
_NATIVE_KINDS = {"fp16": "e", "bf16": "B", "constexpr": "-"}


def make_launcher(src, metadata):
    """Triton's launcher for one compiled kernel: the native one (tritium._C.NativeLauncher)
    for signatures of plain parameters, the Python one for tuples and tensor descriptors, and
    the bounds-checking one for kernels compiled with check_bounds."""
    # Inductor loads each kernel it autotunes before timing its configurations.
    register_if_inductor_is_loaded()
    if getattr(metadata, "check_bounds", False):
        from tritium.bounds_checking import BoundsCheckingLauncher
        return BoundsCheckingLauncher(src, metadata)
    signature = list(src.signature.values())
    if all(isinstance(ty, str) and not ty.startswith("tensordesc") for ty in signature):
        kinds = "".join(_NATIVE_KINDS.get(ty) or _argument_kind(ty) for ty in signature)
        name = getattr(metadata, "name", None) or "kernel"
        params = tuple(str(param) for param in src.signature.keys())
        return _C.NativeLauncher(kinds, name, params)
    return CPULauncher(src, metadata)


_MAX_GRID = 2**31 - 1


def check_grid(*grid):
    for axis, size in zip("xyz", grid):
        if size > _MAX_GRID:
            raise ValueError(f"tritium: grid size {size} along {axis} is beyond 2^31-1 programs; use "
                             f"fewer, larger blocks or another grid axis")


class CPULauncher:
    """The launcher for signatures with tuples or tensor descriptors, which it flattens per call.
    Called as launcher(gridX, gridY, gridZ, stream, function, packed_metadata, launch_metadata,
    enter_hook, exit_hook, *args) with every kernel parameter in order."""

    def __init__(self, src, metadata):
        self.signature = list(src.signature.values())
        self.param_names = [str(name) for name in src.signature.keys()]
        self.name = getattr(metadata, "name", None) or "kernel"

    def _flatten(self, signature, args, kinds, values, names=None, prefixes=None):
        """Appends each kernel argument's kind and packed value (and, given `names`, the
        parameter it comes from and the original object) in the kernel entry's order."""
        prefixes = prefixes if prefixes is not None else [None] * len(signature)
        for ty, arg, prefix in zip(signature, args, prefixes):
            if isinstance(ty, str) and ty.startswith("tensordesc"):
                parts = decompose_descriptor(arg)
                part_types = expand_signature([ty], None, None)
                self._flatten(part_types, parts, kinds, values, names,
                              [f"{prefix} (descriptor part {i})" for i in range(len(part_types))])
            elif isinstance(ty, tuple):
                self._flatten(ty, arg, kinds, values, names,
                              [f"{prefix}[{i}]" for i in range(len(ty))])
            elif ty == "constexpr":
                continue
            else:
                kind = _argument_kind(ty)
                kinds.append(kind)
                values.append(_float16_bits(arg, ty) if kind == "h" else arg)
                if names is not None:
                    names.append((prefix, arg))

    def __call__(self, gridX, gridY, gridZ, stream, function, packed_metadata, launch_metadata,
                 launch_enter_hook, launch_exit_hook, *args):
        check_grid(gridX, gridY, gridZ)
        kind_list, values = [], []
        self._flatten(self.signature, args, kind_list, values)
        kinds = "".join(kind_list)
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        with launch_event(self.name, (gridX, gridY, gridZ)):
            _C.launch(function, gridX, gridY, gridZ, kinds, tuple(values))
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)


@functools.lru_cache(maxsize=None)
def vector_registers():
    """The vector registers one thread may use: 32 zmm with AVX-512, 16 ymm/xmm otherwise."""
    return 32 if re.search(r"[,-]\+avx512f(,|$)", _C.host_target_key()) else 16


# Programs per core the register arithmetic of GPU occupancy code arrives at with one warp:
# NUM_REGS // (n_regs * WARP_SIZE * num_warps) = 64 // num_warps.
PROGRAMS_PER_CORE = 64


class CPUUtils:

    def load_binary(self, name, kernel, shared, device):
        handle, entry = _C.load_kernel(kernel, name + "__entry")
        # (module, function, n_regs, n_spills, n_max_threads). GPU code sizes persistent grids
        # from n_regs: a program on a CPU thread has the host's vector registers.
        return handle, entry, vector_registers(), 0, 1 << 30

    def unload_module(self, module):
        _C.unload_kernel(module)

    def get_device_properties(self, device):
        return {
            "max_shared_mem": 1 << 30,
            "multiprocessor_count": os.cpu_count() or 1,
            "max_num_regs": vector_registers() * PROGRAMS_PER_CORE,
            "warpSize": 1,
            "sm_clock_rate": 0,
            "mem_clock_rate": 0,
            "mem_bus_width": 0,
        }


class _Event:
    """A wall-clock event with the part of torch.cuda.Event that triton.testing uses."""

    def __init__(self, enable_timing=True):
        self.time = None

    def record(self, stream=None):
        self.time = time.perf_counter()

    def elapsed_time(self, end):
        return (end.time - self.time) * 1000.0

    def synchronize(self):
        pass


class _DeviceInterface:
    """Launches on the CPU are synchronous: there is nothing to wait for."""
    Event = _Event

    @staticmethod
    def synchronize(device=None):
        pass

    @staticmethod
    def current_device():
        return 0


class CPUDriver(DriverBase):
    # do_bench's cache-flush buffer, made on first use (see get_empty_cache_for_benchmark).
    _benchmark_cache_buffer = None

    def __init__(self):
        self.utils = CPUUtils()
        self.launcher_cls = make_launcher

    @classmethod
    def is_active(cls):
        """Active when selected by TRITON_DEFAULT_BACKEND=cpu, or when no other driver is."""
        if os.environ.get("TRITON_DEFAULT_BACKEND") == "cpu":
            return True
        from triton.backends import backends
        for name, backend in backends.items():
            if name == "cpu":
                continue
            try:
                if backend.driver.is_active():
                    return False
            except Exception:
                continue
        return True

    def map_python_to_cpp_type(self, ty):
        kind = _argument_kind(ty)
        return {"p": "void*", "b": "bool", "i": "int32_t", "l": "int64_t", "u": "uint32_t",
                "U": "uint64_t", "f": "float", "d": "double", "h": "uint16_t"}[kind]

    def get_current_target(self):
        return GPUTarget("cpu", platform.machine(), 1)

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        return _DeviceInterface

    def get_benchmarker(self):
        from triton.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        # Larger than the last-level cache, so each timed run starts cold. One buffer for the
        # process: `do_bench` asks for it on every call (an autotuner's every configuration),
        # and the first write to fresh pages costs three times a write to mapped ones.
        if self._benchmark_cache_buffer is None:
            import torch
            self._benchmark_cache_buffer = torch.empty(64 * 1024 * 1024 // 4, dtype=torch.int32)
        return self._benchmark_cache_buffer

    def clear_cache(self, cache):
        cache.zero_()
