import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


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
