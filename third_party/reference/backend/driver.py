"""The reference target's driver: loads the object in process and runs the kernel function
itself — its C signature is the kernel ABI of the linalg stage (pointers and scalars, then
program id x, y, z and grid size x, y, z) — one program after another, through ctypes.

Active only when selected with TRITON_DEFAULT_BACKEND=reference.
"""

import ctypes
import os
import platform

from triton.backends.compiler import GPUTarget

from tritium import _C
# Modules, not classes: Triton takes the one DriverBase subclass this module holds.
from tritium.backends.cpu import driver as _cpu

NAME = "reference"

# Integers of every width travel in a whole register: the kernel function (no signext/zeroext on
# its parameters) reads only its type's low bits.
_C_TYPES = {"p": ctypes.c_void_p, "b": ctypes.c_int64, "i": ctypes.c_int64, "l": ctypes.c_int64,
            "u": ctypes.c_uint64, "U": ctypes.c_uint64, "f": ctypes.c_float, "d": ctypes.c_double}


class ReferenceLauncher(_cpu.CPULauncher):
    """Triton's launcher call: flattens the arguments as the CPU target does, then calls the
    kernel once per program."""

    def __init__(self, src, metadata):
        super().__init__(src, metadata)
        self.functions = {}

    def _function(self, address, kinds):
        key = (address, kinds)
        if key not in self.functions:
            argtypes = [_C_TYPES[kind] for kind in kinds] + [ctypes.c_int32] * 6
            self.functions[key] = ctypes.CFUNCTYPE(None, *argtypes)(address)
        return self.functions[key]

    def __call__(self, gridX, gridY, gridZ, stream, function, packed_metadata, launch_metadata,
                 launch_enter_hook, launch_exit_hook, *args):
        _cpu.check_grid(gridX, gridY, gridZ)
        kinds, values = [], []
        self._flatten(self.signature, args, kinds, values)
        if "h" in kinds:
            raise TypeError(f"tritium: kernel '{self.name}' takes a 16-bit float scalar, which the reference "
                            f"target's ctypes launcher cannot pass; use the CPU target")
        call = self._function(function, "".join(kinds))
        packed = [(value.data_ptr() if hasattr(value, "data_ptr") else value) if kind == "p" else value
                  for kind, value in zip(kinds, values)]
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        for z in range(gridZ):
            for y in range(gridY):
                for x in range(gridX):
                    call(*packed, x, y, z, gridX, gridY, gridZ)
        failure = _C.take_assert_failure()
        if failure is not None:
            raise AssertionError(failure)
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)


class ReferenceUtils(_cpu.CPUUtils):

    def load_binary(self, name, kernel, shared, device):
        # The kernel function itself (the CPU target calls a wrapper its own pass adds).
        handle, function = _C.load_kernel(kernel, name)
        return handle, function, _cpu.vector_registers(), 0, 1 << 30


class ReferenceDriver(_cpu.CPUDriver):

    def __init__(self):
        self.utils = ReferenceUtils()
        self.launcher_cls = ReferenceLauncher

    @classmethod
    def is_active(cls):
        return os.environ.get("TRITON_DEFAULT_BACKEND") == NAME

    def get_current_target(self):
        return GPUTarget(NAME, platform.machine(), 1)
