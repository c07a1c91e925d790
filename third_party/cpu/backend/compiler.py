"""The CPU backend's compiler: Triton's TTIR passes, then tritium's stages.

    ttir    triton's own TTIR passes, in triton's MLIR
    ttgir   the identity for @triton.jit kernels; `triton.compile("k.ttgir")` starts after it
    linalg  tritium: TTIR or TTGIR (as text) -> linalg, tensor, memref, scf; TTGIR layouts
            are erased, shared memory becomes buffers, async copies become synchronous
    llir    tritium: bufferize, loops, LLVM dialect, LLVM IR optimized for the host at O3
    obj     tritium: LLVM IR -> ELF object for the host, JIT-linked in process by the driver

Triton imports this module while `import triton` is still running: only triton.backends.*,
triton._C and tritium._C may be imported at module level.
"""

import functools
import hashlib
import os
import re
from dataclasses import dataclass, fields
from typing import Any, Dict, Optional, Tuple

from triton._C.libtriton import ir, passes
from triton.backends.compiler import BaseBackend, GPUTarget

from tritium import _C
from tritium.backends.cpu.stage_memo import stage_memo
from tritium._version import __version__

_KERNEL_NAME = re.compile(r"tt\.func\s+public\s+@([A-Za-z_.$][\w.$]*)")


@dataclass(frozen=True)
class CPUOptions:
    # Keywords Triton's JIT and users pass; most are GPU notions with no effect on the CPU.
    num_warps: int = 1
    num_ctas: int = 1
    num_stages: int = 1
    maxnreg: Optional[int] = None
    cluster_dims: Tuple[int, ...] = (1, 1, 1)
    ir_override: Optional[str] = None
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    extern_libs: Optional[Dict[str, str]] = None
    debug: bool = False
    instrumentation_mode: str = ""
    fpsan_homomorphic_casts: bool = False
    sanitize_overflow: bool = False
    arch: Optional[str] = None
    # Read by the frontend.
    supported_fp8_dtypes: Tuple[str, ...] = ("fp8e5", "fp8e4nv", "fp8e4b15", "fp8e4b8", "fp8e5b16")
    deprecated_fp8_dot_operand_dtypes: Tuple[str, ...] = ()
    # tf32 and friends are tensor-core formats: accepted, and computed as IEEE fp32 on the CPU.
    allowed_dot_input_precisions: Tuple[str, ...] = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")
    default_dot_input_precision: str = "ieee"
    max_num_imprecise_acc_default: int = 0
    backend_name: str = "cpu"
    # Read back as metadata by CompiledKernel; a CPU program is one thread.
    warp_size: int = 1
    # Other targets' options, accepted so that kernels and autotune configs written for them
    # (Triton's tutorials pass AMD's `matrix_instr_nonkdim`, `waves_per_eu`, `kpack`) run
    # unmodified; none has a meaning on the CPU.
    waves_per_eu: int = 0
    matrix_instr_nonkdim: int = 0
    kpack: int = 1
    allow_flush_denorm: bool = False
    schedule_hint: str = ""
    llvm_fn_attrs: str = ""
    wgp_cu_mode: str = "wgp"
    ptx_version: Optional[int] = None
    ptx_options: Optional[str] = None
    sched4reg: bool = False
    enable_reflect_ftz: bool = True
    clc: bool = False
    min_shared_mem: Optional[int] = None
    # The bounds-checking mode: every load, store and atomic is checked against the tensor its
    # pointer came from, and an out-of-bounds access raises IndexError after the launch. On
    # with TRITIUM_CHECK_BOUNDS=1, unless the kernel passes check_bounds itself.
    check_bounds: bool = False
    # tl.exp on float32 as numpy computes it: the bits of Triton's interpreter, at the cost of a
    # division per element. Off by default: a division-free polynomial within 1 ulp (a GPU's exp
    # is within 2). On with TRITIUM_NUMPY_EXP=1, unless the kernel passes numpy_exp itself.
    numpy_exp: bool = False

    def __post_init__(self):
        # JSON round-trips turn tuples into lists; keep the dataclass hashable.
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, list):
                object.__setattr__(self, field.name, tuple(value))
        if self.extern_libs is None:
            object.__setattr__(self, "extern_libs", {})

    def hash(self):
        key = "_".join(f"{name}-{value}" for name, value in sorted(self.__dict__.items()))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()


_STACK_ARRAY = re.compile(r"= alloca \[(\d+) x (float|double|half|bfloat|i1|i8|i16|i32|i64|ptr)\]")
_LLVM_TYPE_BYTES = {"float": 4, "double": 8, "half": 2, "bfloat": 2, "i1": 1, "i8": 1, "i16": 2, "i32": 4,
                    "i64": 8, "ptr": 8}


def _stack_tile_bytes(llir: str) -> int:
    """The bytes of tile buffers a program keeps on its stack: the CPU's counterpart of the shared
    memory a GPU program reserves (reported as `metadata.shared`)."""
    return sum(int(count) * _LLVM_TYPE_BYTES[ty] for count, ty in _STACK_ARRAY.findall(llir))


@functools.lru_cache(maxsize=None)
def _build_fingerprint() -> str:
    """Identifies the compiled tritium and the host it generates code for."""
    native = _C.__file__
    stat = os.stat(native)
    return f"tritium-{__version__}-{stat.st_size}-{stat.st_mtime_ns}-{_C.host_target_key()}"


_SITES = re.compile(r"tritium\.memory_access_sites = \[(.*?)\]", re.S)
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _memory_access_sites(linalg: str):
    """`file:line:col: op` of each access the bounds-checking mode checks, by site index."""
    match = _SITES.search(linalg)
    if not match:
        return []
    return [re.sub(r"\\(.)", r"\1", site) for site in _QUOTED.findall(match.group(1))]


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _kernel_name(ttir_text: str) -> str:
    match = _KERNEL_NAME.search(ttir_text)
    if not match:
        raise RuntimeError("tritium: the TTIR module has no public tt.func kernel")
    return match.group(1)


def _raise_compilation_error(kernel, stage, failure):
    from tritium.errors import TritiumCompilationError
    raise TritiumCompilationError(kernel, stage, str(failure)) from None


def _convert_custom_float8(arg, dst_ty, fp_downcast_rounding=None, _semantic=None):
    """Triton keeps fp8e4b15 as i8 in its IR and asks the target to convert it; tritium
    gives it the meaning Triton's NVIDIA conversion does. The byte is an fp16 whose low 7 bits
    were dropped (bias 15, every byte finite, 0x7F is 1.875). Towards it, values become fp16
    (toward zero from fp32/fp64), saturate at 1.75 (NaN and infinity too) and round ties away
    from zero (toward zero when `fp_downcast_rounding` says rtz)."""
    from triton.language import core as tl
    s = _semantic

    def const(value):
        return s.to_tensor(value)

    if arg.type.scalar.is_fp8e4b15():
        bits = s.cast(s.bitcast(arg, tl.uint8), tl.int32)
        sign = s.shl(s.and_(bits, const(0x80)), const(8))
        magnitude = s.shl(s.and_(bits, const(0x7F)), const(7))
        half = s.bitcast(s.cast(s.or_(sign, magnitude), tl.int16), tl.float16)
        return s.cast(half, dst_ty.scalar)

    src = arg.type.scalar
    if not src.is_floating():
        arg = s.cast(arg, tl.float32)
    if arg.type.scalar.primitive_bitwidth > 16:
        half = s.cast(arg, tl.float16, fp_downcast_rounding="rtz")
    else:
        half = s.cast(arg, tl.float16)
    bits = s.cast(s.bitcast(half, tl.uint16), tl.int32)
    sign = s.and_(s.lshr(bits, const(8)), const(0x80))
    magnitude = s.minimum(s.and_(bits, const(0x7FFF)), const(0x3F00), tl.PropagateNan.NONE)
    if fp_downcast_rounding != ir.ROUNDING_MODE.RTZ:
        magnitude = s.add(magnitude, const(0x40), True)
    byte = s.or_(sign, s.lshr(magnitude, const(7)))
    return s.bitcast(s.cast(byte, tl.uint8), tl.float8e4b15)


class CPUBackend(BaseBackend):
    binary_ext = "obj"

    @staticmethod
    def supports_target(target: GPUTarget):
        return target.backend == "cpu"

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)
        # Before Triton looks up this kernel in its cache: damaged entries become misses.
        from tritium.validated_cache import install
        install()

    def hash(self) -> str:
        return _build_fingerprint()

    def parse_options(self, options: dict) -> CPUOptions:
        known = {field.name for field in fields(CPUOptions)}
        args = {name: value for name, value in options.items() if name in known and value is not None}
        if "check_bounds" not in args:
            # Not implied by debug=True: Inductor compiles every kernel with debug=True (for its
            # indirect-indexing asserts), and checked kernels run 2-7x slower.
            args["check_bounds"] = _env_flag("TRITIUM_CHECK_BOUNDS")
        if "numpy_exp" not in args:
            args["numpy_exp"] = _env_flag("TRITIUM_NUMPY_EXP")
        return CPUOptions(**args)

    def pack_metadata(self, metadata):
        return (metadata.name, )

    def get_codegen_implementation(self, options):
        return {
            "min_dot_size": lambda lhs_type, rhs_type: (1, 1, 1),
            "convert_custom_types": _convert_custom_float8,
        }

    def get_module_map(self) -> Dict[str, Any]:
        from tritium.language import libdevice
        return {"triton.language.extra.libdevice": libdevice}

    def load_dialects(self, context):
        pass

    @staticmethod
    def make_ttir(mod, metadata, options):
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.common.add_inliner(pm)
        passes.ttir.add_rewrite_tensor_descriptor_to_pointer(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_combine(pm)
        passes.ttir.add_reorder_broadcast(pm)
        passes.common.add_cse(pm)
        passes.common.add_symbol_dce(pm)
        passes.ttir.add_loop_unroll(pm)
        pm.run(mod, "make_ttir")
        return mod

    @staticmethod
    def make_ttgir(mod, metadata, options):
        # Kernels need no GPU layouts: the stage exists so that `triton.compile("kernel.ttgir")`
        # can start after it. A `.ttir` file starts here, after the ttir stage, so tensor
        # descriptors in it become pointers here as they do there for @triton.jit kernels.
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.ttir.add_rewrite_tensor_descriptor_to_pointer(pm)
        passes.common.add_canonicalizer(pm)
        pm.run(mod, "make_ttgir")
        return mod

    @staticmethod
    def make_linalg(mod, metadata, options):
        text = str(mod)
        name = _kernel_name(text)
        metadata["name"] = name
        metadata["shared"] = 0
        try:
            linalg = stage_memo.run("linalg", _C.ttir_to_linalg, text, check_bounds=options.check_bounds)
        except _C.CompilationFailure as failure:
            _raise_compilation_error(name, "linalg", failure)
        if options.check_bounds:
            metadata["memory_access_sites"] = _memory_access_sites(linalg)
        return linalg

    @staticmethod
    def make_llir(src, metadata, options):
        try:
            llir = stage_memo.run("llir", _C.linalg_to_llir, src, numpy_exp=options.numpy_exp)
        except _C.CompilationFailure as failure:
            _raise_compilation_error(metadata["name"], "llir", failure)
        metadata["shared"] = _stack_tile_bytes(llir)
        return llir

    @staticmethod
    def make_obj(src, metadata, options):
        try:
            obj = stage_memo.run("obj", _C.llir_to_object, src)
        except _C.CompilationFailure as failure:
            _raise_compilation_error(metadata["name"], "obj", failure)
        # The object is sealed with its digest, which the loader checks (a damaged object never
        # reaches the JIT linker); the metadata keeps the digest of the sealed bytes, which the
        # cache checks before a cached kernel is used (tritium.validated_cache).
        sealed = obj + hashlib.sha256(obj).digest() + b"TRITSEAL"
        metadata["obj_sha256"] = hashlib.sha256(sealed).hexdigest()
        return sealed

    def add_stages(self, stages, options, language):
        stages["ttir"] = lambda src, metadata: self.make_ttir(src, metadata, options)
        stages["ttgir"] = lambda src, metadata: self.make_ttgir(src, metadata, options)
        stages["linalg"] = lambda src, metadata: self.make_linalg(src, metadata, options)
        stages["llir"] = lambda src, metadata: self.make_llir(src, metadata, options)
        stages["obj"] = lambda src, metadata: self.make_obj(src, metadata, options)
        from triton import knobs
        if knobs.runtime.add_stages_inspection_hook is not None:
            knobs.runtime.add_stages_inspection_hook(self, stages, options, language, None)
