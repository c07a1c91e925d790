"""tritium's stages remembered, within a process, by what they are given.

Autotune configurations and launch options written for GPUs (`num_warps`, `num_stages`,
`num_ctas`, `maxnreg`, AMD's `waves_per_eu`, ...) give Triton's cache a new key each, yet
they change nothing in a CPU kernel: every one of them gives the same TTIR, and tritium's
stages are pure functions of their input text and of the few options they read. A matmul
autotuned over 32 configurations of which 4 differ in block sizes compiled 32 times, each
second spent in MLIR and LLVM; with the memo it compiles 4 times, and the other 28 take the
frontend's time only. Triton still builds one CompiledKernel per configuration, with its own
metadata (`num_warps` and the rest stay what the configuration said).

Nothing is remembered across processes (Triton's on-disk cache does that per configuration),
and `TRITON_ALWAYS_COMPILE=1` (knobs.compilation.always_compile) bypasses the memo, so that
a compile that is asked for always happens.
"""

import hashlib
import threading
from collections import OrderedDict
from typing import Callable, Union

Output = Union[str, bytes]

# Enough for the distinct kernels of an autotuning session; the oldest entries go first.
_CAPACITY_BYTES = 256 * 1024 * 1024


class StageMemo:

    def __init__(self, capacity_bytes: int = _CAPACITY_BYTES):
        self._capacity = capacity_bytes
        self._entries: "OrderedDict[str, Output]" = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0

    def run(self, stage: str, compile_stage: Callable[..., Output], text: str, **options) -> Output:
        """`compile_stage(text, **options)`, remembered under the name of the stage (the process's
        tritium and host stay the same for its life). Failures are not remembered: they raise
        every time."""
        from triton import knobs
        if knobs.compilation.always_compile:
            return compile_stage(text, **options)
        digest = hashlib.sha256(f"{stage}\0{sorted(options.items())!r}\0".encode())
        digest.update(text.encode())
        key = digest.hexdigest()
        with self._lock:
            output = self._entries.get(key)
            if output is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return output
        output = compile_stage(text, **options)
        with self._lock:
            if key not in self._entries:
                self._entries[key] = output
                self._bytes += len(output)
                while self._bytes > self._capacity and len(self._entries) > 1:
                    _, dropped = self._entries.popitem(last=False)
                    self._bytes -= len(dropped)
        return output

    def clear(self):
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self.hits = 0


stage_memo = StageMemo()
