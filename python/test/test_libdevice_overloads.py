"""libdevice overloads a CPU user expects beyond the C library's fp32/fp64: fp16 and bf16 arguments (computed
in fp32, rounded once) and integer exponents for pow/powi, over special and random values."""

import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice
from test_libdevice import binary_kernel, unary_kernel

SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, 3.5, -3.5, 10.0, float("inf"), float("-inf"), float("nan")]


REFERENCE = {"erf": torch.erf, "exp": torch.exp, "tanh": torch.tanh, "log1p": torch.log1p,
             "atan2": lambda x: torch.atan2(x, x + 1.0)}


@pytest.mark.parametrize("fn", list(REFERENCE))
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_arguments_round_once(fn, dtype):
    g = torch.Generator().manual_seed(41)
    x = torch.cat([torch.tensor(SPECIAL), torch.randn(500, generator=g) * 3]).to(dtype)
    out = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), 256), )
    if fn == "atan2":
        binary_kernel[grid](x, x + 1.0, out, x.numel(), FN=fn, BLOCK=256)
    else:
        unary_kernel[grid](x, out, x.numel(), FN=fn, BLOCK=256)
    assert out.dtype == dtype
    # the fp32 result rounded once: exactly what torch gives from the fp32 result of the same inputs
    expected = REFERENCE[fn](x.float()).to(dtype)
    same = (out == expected) | (out.isnan() & expected.isnan())
    # fp32 libm and torch may differ by an ulp of fp32, which can flip a 16-bit rounding: allow one 16-bit ulp
    close = (out.float() - expected.float()).abs() <= torch.finfo(dtype).eps * expected.float().abs()
    assert (same | close).all(), [(v, o, e) for v, o, e, s, c in zip(x.tolist(), out.tolist(), expected.tolist(),
                                                                       same.tolist(), close.tolist()) if not (s or c)][:5]


@triton.jit
def power_kernel(x_ptr, n_ptr, out_ptr, lit_ptr, powi_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    n = tl.load(n_ptr + offs)
    tl.store(out_ptr + offs, libdevice.pow(x, n))
    tl.store(lit_ptr + offs, libdevice.pow(x, 2))
    tl.store(powi_ptr + offs, libdevice.powi(x, n))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_pow_with_integer_exponents(dtype):
    x = torch.tensor(SPECIAL * 3, dtype=dtype)[:32]
    n = torch.tensor([0, 1, 2, 3, -1, -2, 5, -5, 31, -31, 2, 3, 1, 0, 7, -7] * 2, dtype=torch.int32)
    out, lit, powi = (torch.empty_like(x) for _ in range(3))
    power_kernel[(1, )](x, n, out, lit, powi, N=32)
    for got, exponent in ((out, n), (powi, n), (lit, torch.full_like(n, 2))):
        expected = torch.pow(x.double(), exponent.double())
        torch.testing.assert_close(got.double(), expected, rtol=2e-7 if dtype == torch.float32 else 1e-15,
                                   atol=0, equal_nan=True)
