"""tritium's libdevice against torch over special and random values, with ULP bounds.

Every function PyTorch Inductor emits is here (the list in torch/_inductor's Triton codegen),
in fp32 and, for the C-library ones, fp64.
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

SPECIALS = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-40, -1e-40, 1e-30, 1.0, -1.0, 0.5, -0.5, 2.0,
            3.0, 10.0, -10.0, 88.0, -88.0, 100.0, 1e10, -1e10, 3.4e38, -3.4e38, 0.9999, -0.9999, 1e-7]


@triton.jit
def unary_kernel(x_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if FN == "acos":
        y = libdevice.acos(x)
    elif FN == "acosh":
        y = libdevice.acosh(x)
    elif FN == "asin":
        y = libdevice.asin(x)
    elif FN == "asinh":
        y = libdevice.asinh(x)
    elif FN == "atan":
        y = libdevice.atan(x)
    elif FN == "atanh":
        y = libdevice.atanh(x)
    elif FN == "ceil":
        y = libdevice.ceil(x)
    elif FN == "cos":
        y = libdevice.cos(x)
    elif FN == "cosh":
        y = libdevice.cosh(x)
    elif FN == "erf":
        y = libdevice.erf(x)
    elif FN == "erfc":
        y = libdevice.erfc(x)
    elif FN == "erfinv":
        y = libdevice.erfinv(x)
    elif FN == "exp":
        y = libdevice.exp(x)
    elif FN == "exp2":
        y = libdevice.exp2(x)
    elif FN == "expm1":
        y = libdevice.expm1(x)
    elif FN == "fast_tanhf":
        y = libdevice.fast_tanhf(x)
    elif FN == "floor":
        y = libdevice.floor(x)
    elif FN == "lgamma":
        y = libdevice.lgamma(x)
    elif FN == "log":
        y = libdevice.log(x)
    elif FN == "log10":
        y = libdevice.log10(x)
    elif FN == "log1p":
        y = libdevice.log1p(x)
    elif FN == "log2":
        y = libdevice.log2(x)
    elif FN == "nearbyint":
        y = libdevice.nearbyint(x)
    elif FN == "rsqrt":
        y = libdevice.rsqrt(x)
    elif FN == "sin":
        y = libdevice.sin(x)
    elif FN == "sinh":
        y = libdevice.sinh(x)
    elif FN == "sqrt":
        y = libdevice.sqrt(x)
    elif FN == "tan":
        y = libdevice.tan(x)
    elif FN == "tanh":
        y = libdevice.tanh(x)
    elif FN == "trunc":
        y = libdevice.trunc(x)
    elif FN == "isinf":
        y = libdevice.isinf(x).to(x.dtype)
    elif FN == "isnan":
        y = libdevice.isnan(x).to(x.dtype)
    elif FN == "signbit":
        y = libdevice.signbit(x).to(x.dtype)
    elif FN == "ilogb":
        y = libdevice.ilogb(x).to(x.dtype)
    else:
        y = libdevice.llrint(x).to(x.dtype)
    tl.store(out_ptr + offs, y, mask=offs < n)


def _ilogb(x):
    out = np.floor(np.log2(np.abs(x.double().numpy())))
    return torch.from_numpy(out).to(x.dtype)


REFERENCES = {
    "acos": torch.acos, "acosh": torch.acosh, "asin": torch.asin, "asinh": torch.asinh, "atan": torch.atan,
    "atanh": torch.atanh, "ceil": torch.ceil, "cos": torch.cos, "cosh": torch.cosh, "erf": torch.erf,
    "erfc": torch.erfc, "erfinv": torch.erfinv, "exp": torch.exp, "exp2": torch.exp2, "expm1": torch.expm1,
    "fast_tanhf": torch.tanh, "floor": torch.floor, "lgamma": torch.lgamma, "log": torch.log, "log10": torch.log10,
    "log1p": torch.log1p, "log2": torch.log2, "nearbyint": torch.round, "rsqrt": torch.rsqrt, "sin": torch.sin,
    "sinh": torch.sinh, "sqrt": torch.sqrt, "tan": torch.tan, "tanh": torch.tanh, "trunc": torch.trunc,
    "isinf": lambda x: torch.isinf(x).to(x.dtype), "isnan": lambda x: torch.isnan(x).to(x.dtype),
    "signbit": lambda x: torch.signbit(x).to(x.dtype), "llrint": torch.round,
}

# Maximum error in ULP of the result type (fp32); functions not listed are exact (0 ULP).
ULP_BOUNDS = {
    "acos": 2, "acosh": 2, "asin": 2, "asinh": 2, "atan": 2, "atanh": 2, "cos": 2, "cosh": 2, "erf": 4, "erfc": 4,
    "erfinv": 8, "exp": 2, "exp2": 2, "expm1": 2, "fast_tanhf": 4, "log": 2, "log10": 2, "log1p": 2, "log2": 2,
    "rsqrt": 2, "sin": 2, "sinh": 2, "sqrt": 0, "tan": 2, "tanh": 4, "lgamma": 8,
}


def _ulp_error(actual, expected):
    """Error in units of the last place of the expected value; NaN must match NaN."""
    actual, expected = actual.double(), expected.double()
    both_nan = torch.isnan(actual) & torch.isnan(expected)
    same = (actual == expected) | both_nan
    spacing = torch.from_numpy(np.spacing(np.abs(expected.float().numpy())).astype(np.float64))
    err = torch.where(same, torch.zeros_like(actual), (actual - expected).abs() / spacing)
    return torch.nan_to_num(err, nan=float("inf"))


def _inputs(name):
    torch.manual_seed(1)
    random = torch.cat([torch.randn(200) * 3, torch.rand(200) * 2 - 1, torch.rand(100) * 20])
    x = torch.cat([torch.tensor(SPECIALS), random]).float()
    if name in ("erfinv", "atanh"):
        x = torch.cat([torch.tensor([0.0, -0.0, 1.0, -1.0, 0.5, 1e-30, 0.999999, 2.0, float("nan")]),
                       torch.rand(300) * 2 - 1]).float()
    if name == "lgamma":
        x = x[(x > 0) | (x != x.floor())]  # avoid the poles
        x = x[x.abs() < 1e6]
    return x


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_libdevice_fp32(name):
    x = _inputs(name)
    out = torch.empty_like(x)
    unary_kernel[(triton.cdiv(x.numel(), 256), )](x, out, x.numel(), FN=name, BLOCK=256)
    # The reference is computed in fp64 and rounded once: correctly rounded for these functions.
    expected = REFERENCES[name](x.double()).float()
    if name == "llrint":
        finite = x.abs() < 1e9
        torch.testing.assert_close(out[finite], expected[finite])
        return
    if name == "lgamma":
        # Relative error near the zeros of lgamma (x = 1, 2) is not meaningful in ULP.
        torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5, equal_nan=True)
        return
    err = _ulp_error(out, expected)
    worst = int(err.argmax())
    assert err.max() <= ULP_BOUNDS.get(name, 0), \
        f"{name}({x[worst].item()!r}) = {out[worst].item()!r}, torch: {expected[worst].item()!r} ({err.max():.1f} ULP)"


def test_ilogb():
    x = torch.tensor([1.0, 2.0, 3.0, 0.5, 1e-3, 1e30, -8.0, 1e-40])
    out = torch.empty_like(x)
    unary_kernel[(1, )](x, out, x.numel(), FN="ilogb", BLOCK=8)
    torch.testing.assert_close(out, _ilogb(x))


@triton.jit
def binary_kernel(x_ptr, y_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = tl.load(y_ptr + offs, mask=offs < n)
    if FN == "atan2":
        r = libdevice.atan2(x, y)
    elif FN == "copysign":
        r = libdevice.copysign(x, y)
    elif FN == "fmod":
        r = libdevice.fmod(x, y)
    elif FN == "hypot":
        r = libdevice.hypot(x, y)
    elif FN == "nextafter":
        r = libdevice.nextafter(x, y)
    elif FN == "pow":
        r = libdevice.pow(x, y)
    else:
        r = libdevice.ldexp(x, y.to(tl.int32))
    tl.store(out_ptr + offs, r, mask=offs < n)


BINARY = {
    "atan2": (torch.atan2, 2), "copysign": (torch.copysign, 0), "fmod": (torch.fmod, 0), "hypot": (torch.hypot, 2),
    "nextafter": (torch.nextafter, 0), "pow": (torch.pow, 2),
    "ldexp": (lambda x, y: torch.ldexp(x, y.to(torch.int32)), 0),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_libdevice_binary(name, dtype):
    torch.manual_seed(2)
    x = torch.cat([torch.tensor(SPECIALS[:12]), torch.randn(300) * 4]).to(dtype)
    y = torch.cat([torch.tensor(SPECIALS[12:24]), torch.randn(300) * 4]).to(dtype)
    if name == "ldexp":
        y = torch.randint(-10, 10, y.shape).to(dtype)
    if name == "pow":
        x = x.abs()
    out = torch.empty_like(x)
    binary_kernel[(triton.cdiv(x.numel(), 128), )](x, y, out, x.numel(), FN=name, BLOCK=128)
    reference, ulps = BINARY[name]
    # Exact functions are compared in their own type; the others against fp64 rounded once.
    expected = reference(x, y) if ulps == 0 else reference(x.double(), y.double()).to(dtype)
    if dtype == torch.float32:
        assert _ulp_error(out, expected).max() <= ulps
    else:
        torch.testing.assert_close(out, expected, rtol=1e-14, atol=0, equal_nan=True)


@triton.jit
def unsupported_kernel(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, libdevice.cyl_bessel_i0(x))


def test_function_without_a_cpu_implementation_is_a_clear_compile_error():
    with pytest.raises(triton.CompilationError, match="cyl_bessel_i0 is not available on tritium's CPU backend"):
        unsupported_kernel[(1, )](torch.ones(1))
