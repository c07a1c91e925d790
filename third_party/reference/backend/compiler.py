"""The reference target's compiler: tritium's device-neutral stages, then upstream MLIR only.

    ttir, ttgir, linalg   as for the CPU target (Triton's TTIR passes; tritium's conversion)
    llir    upstream MLIR passes only (UPSTREAM_PIPELINE below: bufferize, loops, the LLVM
            dialect), translated to LLVM IR as it is — none of tritium's CPU passes
    obj     LLVM IR -> an object for the host (LLVM's code generator)

It exists to show that the linalg stage is a contract another compiler can consume
(docs/new-device.md): correct and slow, one program at a time, no vectorization to speak of.
Like the CPU target's module, only triton.backends.*, triton._C and tritium may be imported here.
"""

import re
from dataclasses import fields
from typing import Any, Dict

from triton.backends.compiler import BaseBackend, GPUTarget

from tritium import _C
# The module, not its classes: Triton takes the one BaseBackend subclass this module holds.
from tritium.backends.cpu import compiler as _cpu

# What MLIR's own passes need to run the linalg stage on a CPU: to loops over buffers ...
TO_LOOPS = [
    "func.func(convert-elementwise-to-linalg)",
    # Elementwise chains become one loop: fewer buffers, and no buffer for a mask between a
    # comparison and its select (see _BOOLEAN_BUFFER).
    "linalg-fuse-elementwise-ops",
    "canonicalize",
    "cse",
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops}",
    "canonicalize",
    "convert-linalg-to-loops",
    "expand-strided-metadata",
    "lower-affine",
    "convert-scf-to-cf",
    "arith-expand",
]
# ... and from there to the LLVM dialect.
TO_LLVM = [
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "finalize-memref-to-llvm",
    "convert-arith-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "convert-ub-to-llvm",
    "reconcile-unrealized-casts",
]
UPSTREAM_PIPELINE = "builtin.module(" + ",".join(TO_LOOPS + TO_LLVM) + ")"

# Upstream memref-to-llvm (MLIR 22) asserts on stores into buffers of i1, which a kernel has when
# a boolean tile is materialized (e.g. a tl.device_assert condition); the CPU target stores them
# as bytes with a pass of its own.
_BOOLEAN_BUFFER = re.compile(r"memref<[0-9x?]*xi1[,>]")
# Nor does MLIR 22 lower conversions to or from the fp8 formats to LLVM (the CPU target expands
# them on the bits with a pass of its own).
_FLOAT8 = re.compile(r"\bf8E[0-9A-Za-z]+\b")


class ReferenceBackend(BaseBackend):
    binary_ext = "obj"

    @staticmethod
    def supports_target(target: GPUTarget):
        return target.backend == "reference"

    def hash(self) -> str:
        return f"reference-{_cpu._build_fingerprint()}"

    def parse_options(self, options: dict):
        known = {field.name for field in fields(_cpu.CPUOptions)}
        args = {name: value for name, value in options.items() if name in known and value is not None}
        if args.get("check_bounds"):
            raise ValueError("tritium: check_bounds needs the CPU target's launcher; the reference target "
                             "(TRITON_DEFAULT_BACKEND=reference) does not check bounds")
        args["check_bounds"] = False
        return _cpu.CPUOptions(**args)

    def pack_metadata(self, metadata):
        return (metadata.name, )

    def get_codegen_implementation(self, options):
        return _cpu.CPUBackend.get_codegen_implementation(self, options)

    def get_module_map(self) -> Dict[str, Any]:
        return _cpu.CPUBackend.get_module_map(self)

    def load_dialects(self, context):
        pass

    @staticmethod
    def make_llir(src, metadata, options):
        if _FLOAT8.search(src):
            raise TypeError(f"tritium: kernel '{metadata['name']}' uses an fp8 type, which upstream MLIR cannot "
                            f"lower to LLVM; the reference target does not run it: use the CPU target")
        try:
            loops = _C.run_pass_pipeline(src, "builtin.module(" + ",".join(TO_LOOPS) + ")")
            if _BOOLEAN_BUFFER.search(loops):
                raise TypeError(f"tritium: kernel '{metadata['name']}' keeps a boolean tile in memory, which "
                                f"upstream MLIR's memref-to-llvm cannot lower (it asserts on i1 stores); the "
                                f"reference target does not run it: use the CPU target")
            llvm_dialect = _C.run_pass_pipeline(loops, "builtin.module(" + ",".join(TO_LLVM) + ")")
            return _C.translate_to_llir(llvm_dialect)
        except _C.CompilationFailure as failure:
            _cpu._raise_compilation_error(metadata["name"], "llir", failure)

    def add_stages(self, stages, options, language):
        stages["ttir"] = lambda src, metadata: _cpu.CPUBackend.make_ttir(src, metadata, options)
        stages["ttgir"] = lambda src, metadata: _cpu.CPUBackend.make_ttgir(src, metadata, options)
        stages["linalg"] = lambda src, metadata: _cpu.CPUBackend.make_linalg(src, metadata, options)
        stages["llir"] = lambda src, metadata: self.make_llir(src, metadata, options)
        # The object is sealed with its digest as the CPU target's is: the same loader reads it.
        stages["obj"] = lambda src, metadata: _cpu.CPUBackend.make_obj(src, metadata, options)
