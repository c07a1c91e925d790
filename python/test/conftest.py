import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


@pytest.fixture(params=[1, 2], ids=["1-thread", "2-threads"])
def threads(request):
    """tritium's pool at one and at two threads for the test (and as it was after it)."""
    import tritium
    previous = tritium.get_num_threads()
    tritium.set_num_threads(request.param)
    yield request.param
    tritium.set_num_threads(previous)


def tolerances(dtype):
    """(rtol, atol) for comparing a kernel's result with torch's in `dtype`."""
    return {
        torch.float16: (1e-2, 1e-2),
        torch.bfloat16: (2e-2, 2e-2),
        torch.float32: (1e-5, 1e-5),
        torch.float64: (1e-12, 1e-12),
    }.get(dtype, (0, 0))


def random_tensor(shape, dtype):
    shape = (shape, ) if isinstance(shape, int) else tuple(shape)
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float32).to(dtype)
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    return torch.randint(-1000, 1000, shape, dtype=torch.int64).to(dtype)


# Integer dtypes as two's complement hardware sees them.
BITS = {torch.int8: 8, torch.int16: 16, torch.int32: 32, torch.int64: 64, torch.uint8: 8, torch.uint16: 16,
        torch.uint32: 32, torch.uint64: 64}
SIGNED = {torch.int8, torch.int16, torch.int32, torch.int64}


def int_range(dtype):
    bits = BITS[dtype]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dtype in SIGNED else (0, (1 << bits) - 1)


def wrap(value, dtype):
    """The Python int `value` reduced to `dtype`'s range, as two's complement hardware wraps it."""
    bits = BITS[dtype]
    value &= (1 << bits) - 1
    if dtype in SIGNED and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def numpy_float32_math_is_simd():
    """Whether numpy's float32 exp, log, sin and cos run numpy's own SIMD algorithms, the ones tritium reproduces
    (and so what Triton's interpreter computes). They do on x86 hosts with AVX2 and FMA3 (or AVX-512); elsewhere
    numpy calls libm, whose results differ in the last bits."""
    from numpy._core._multiarray_umath import __cpu_features__ as features
    return bool(features.get("AVX2") and features.get("FMA3"))


NUMPY_MATH_IS_LIBM_REASON = ("numpy's float32 exp/log/sin/cos call libm on this host (no AVX2+FMA3 dispatch), so "
                             "the interpreter's results are libm's, not the SIMD algorithms tritium reproduces")


@triton.jit
def call_by_name(lib: tl.constexpr, NAME: tl.constexpr, ARITY: tl.constexpr, x, y, z):
    """lib.NAME applied to the first ARITY of x, y, z (lib a module such as a libdevice)."""
    if ARITY == 1:
        r = getattr(lib, NAME)(x)
    elif ARITY == 2:
        r = getattr(lib, NAME)(x, y)
    else:
        r = getattr(lib, NAME)(x, y, z)
    return r


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, NAME: tl.constexpr, ARITY: tl.constexpr, USE_CUDA: tl.constexpr,
                     BLOCK: tl.constexpr):
    """out = libdevice.NAME(x[, y[, z]]) elementwise, from tritium's libdevice or (USE_CUDA) CUDA's, whose `__nv_*`
    symbols tritium resolves too."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    if USE_CUDA:
        r = call_by_name(cuda_libdevice, NAME, ARITY, x, y, z)
    else:
        r = call_by_name(libdevice, NAME, ARITY, x, y, z)
    tl.store(out_ptr + offs, r, mask=mask)


@triton.jit
def binary_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask, other=1)  # masked-off lanes divide by 1 (see test_masked_division_*)
    if OP == "add":
        r = x + y
    elif OP == "sub":
        r = x - y
    elif OP == "mul":
        r = x * y
    elif OP == "floordiv":
        r = x // y
    elif OP == "mod":
        r = x % y
    elif OP == "truediv":
        r = x / y
    elif OP == "div_rn":
        r = tl.div_rn(x, y)
    elif OP == "umulhi":
        r = tl.umulhi(x, y)
    elif OP == "shl":
        r = x << y
    elif OP == "shr":
        r = x >> y
    elif OP == "and":
        r = x & y
    elif OP == "or":
        r = x | y
    elif OP == "xor":
        r = x ^ y
    elif OP == "min" or OP == "min_none":
        r = tl.minimum(x, y)
    elif OP == "max" or OP == "max_none":
        r = tl.maximum(x, y)
    elif OP == "lt":
        r = x < y
    elif OP == "le":
        r = x <= y
    elif OP == "gt":
        r = x > y
    elif OP == "ge":
        r = x >= y
    elif OP == "eq":
        r = x == y
    elif OP == "ne":
        r = x != y
    elif OP == "min_all":
        r = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
    elif OP == "max_all":
        r = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
    else:
        tl.static_assert(False, "unknown op")
    tl.store(out_ptr + offs, r, mask=mask)


def launch_binary(op, x, y, out_dtype=None):
    out = torch.empty(x.shape, dtype=out_dtype or x.dtype)
    binary_kernel[(triton.cdiv(x.numel(), 128), )](x, y, out, x.numel(), OP=op, BLOCK=128)
    return out


@triton.jit
def math_unary_kernel(x_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if OP == "exp":
        y = tl.exp(x)
    elif OP == "exp2":
        y = tl.exp2(x)
    elif OP == "log":
        y = tl.log(x)
    elif OP == "log2":
        y = tl.log2(x)
    elif OP == "sqrt":
        y = tl.sqrt(x)
    elif OP == "sqrt_rn":
        y = tl.sqrt_rn(x)
    elif OP == "rsqrt":
        y = tl.rsqrt(x)
    elif OP == "sin":
        y = tl.sin(x)
    elif OP == "cos":
        y = tl.cos(x)
    elif OP == "abs":
        y = tl.abs(x)
    elif OP == "floor":
        y = tl.floor(x)
    elif OP == "ceil":
        y = tl.ceil(x)
    elif OP == "erf":
        y = tl.erf(x)
    elif OP == "neg":
        y = -x
    else:
        tl.static_assert(False, "unknown op")
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def atomic_rmw_kernel(ptr, val_ptr, old_ptr, n, KIND: tl.constexpr, ADDRESSES: tl.constexpr, BLOCK: tl.constexpr,
                      SEM: tl.constexpr = "acq_rel", SCOPE: tl.constexpr = "gpu"):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    val = tl.load(val_ptr + offs, mask=mask)
    target = ptr + offs % ADDRESSES
    if KIND == "and":
        old = tl.atomic_and(target, val, mask=mask, sem=SEM, scope=SCOPE)
    elif KIND == "or":
        old = tl.atomic_or(target, val, mask=mask, sem=SEM, scope=SCOPE)
    elif KIND == "xor":
        old = tl.atomic_xor(target, val, mask=mask, sem=SEM, scope=SCOPE)
    elif KIND == "max":
        old = tl.atomic_max(target, val, mask=mask, sem=SEM, scope=SCOPE)
    elif KIND == "min":
        old = tl.atomic_min(target, val, mask=mask, sem=SEM, scope=SCOPE)
    elif KIND == "add":
        old = tl.atomic_add(target, val, mask=mask, sem=SEM, scope=SCOPE)
    else:
        old = tl.atomic_xchg(target, val, mask=mask, sem=SEM, scope=SCOPE)
    tl.store(old_ptr + offs, old, mask=mask)


def atomic_rmw_reference(kind, initial, vals, addresses):
    """What atomic_rmw_kernel leaves in `initial` (a copy): lane i of `vals` goes to address i % addresses."""
    out = initial.clone()
    for lane in range(addresses):
        for v in vals[lane::addresses]:
            if kind == "add":
                out[lane] += v
            elif kind == "max":
                out[lane] = torch.maximum(out[lane], v)
            elif kind == "min":
                out[lane] = torch.minimum(out[lane], v)
            elif kind == "and":
                out[lane] &= v
            elif kind == "or":
                out[lane] |= v
            elif kind == "xor":
                out[lane] ^= v
    return out


def pytest_terminal_summary(terminalreporter):
    """Says which CPU features the kernels of this run were generated for: results that depend on
    them (dot-product instructions, vector widths, numpy-identical math) were checked for these."""
    import os
    import re
    from tritium import _C
    key = _C.host_target_key()
    enabled = sorted(set(re.findall(r"(?:^|[,-])\+(avx[\w.]*|fma|f16c|amx[\w-]*)(?=,|$)", key)))
    override = os.environ.get("TRITIUM_CPU_FEATURES")
    # AVX512-BF16 stays off in the key (LLVM's conversions with it flush subnormals); tritium
    # enables it only in functions that call vdpbf16ps.
    removed = [term.strip().lstrip("-") for term in (override or "").split(",") if term.strip().startswith("-")]
    if _cpu_flag("avx512_bf16") and not any("avx512bf16".startswith(term) for term in removed if term):
        enabled.append("avx512bf16(dot products)")
    terminalreporter.write_line(f"tritium generated code for {platform_cpu(key)} with {' '.join(enabled) or 'no AVX'}" +
                                (f" (TRITIUM_CPU_FEATURES={override})" if override else ""))


def platform_cpu(key):
    """The CPU name of a host target key (`<triple>-<cpu>-<features>`)."""
    before_features = key.split("-+", 1)[0].split("--", 1)[0]
    return before_features.rsplit("-", 1)[-1]


def _cpu_flag(flag):
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return any(flag in line.split() for line in cpuinfo if line.startswith("flags"))
    except OSError:
        return False
