"""tl.log, tl.sin and tl.cos on float32 give numpy's bits, and so Triton's interpreter's; tl.exp does too when
asked (`numpy_exp=True` or TRITIUM_NUMPY_EXP=1; by default it is a faster polynomial, test_exp_polynomial.py).

The interpreter evaluates these functions with numpy, whose float32 loops run numpy's own SIMD algorithms on
x86 hosts with AVX2+FMA3 or AVX-512; tritium computes the same operations in the same order
(third_party/cpu/lib/ExpandMathLikeNumPy.cpp). The inputs cover every range the algorithms treat apart:
subnormals, the log mantissa split at sqrt(1/2), exp's overflow and underflow limits, the sin/cos quadrant
boundaries and the limits beyond which numpy calls libm, special values, and random bit patterns.
"""

import numpy as np
import pytest
import torch
import triton
from conftest import NUMPY_MATH_IS_LIBM_REASON, math_unary_kernel, numpy_float32_math_is_simd

pytestmark = pytest.mark.xfail(not numpy_float32_math_is_simd(), reason=NUMPY_MATH_IS_LIBM_REASON, strict=True)

NUMPY = {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos}


def f32(values):
    with np.errstate(invalid="ignore"):  # NaN stays NaN
        return np.asarray(values, dtype=np.float64).astype(np.float32)


def neighbours(points, count=40):
    """`count` consecutive floats on each side of each point (and of its negation)."""
    bits = f32(points).view(np.int32).astype(np.int64)
    steps = np.arange(-count, count + 1)
    around = (bits[:, None] + steps[None, :]).ravel()
    around = around[(around >= 0) & (around < 0x7f800000)].astype(np.int32).view(np.float32)
    return np.concatenate([around, -around])


SPECIALS = f32([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 0.5, 1e-45, -1e-45, 1.17549435e-38, 3.4028235e38,
                -3.4028235e38]).tolist() + [np.uint32(b).view(np.float32) for b in (0xffc00000, 0x7fa00001, 0xffa00001)]


def inputs(op):
    rng = np.random.RandomState({"exp": 1, "log": 2, "sin": 3, "cos": 4}[op])
    random_bits = rng.randint(0, 2**32, size=60_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    if op == "exp":
        special_points = [88.72283935546875, 88.0, -87.3, -103.97208404541015625, -126 * np.log(2), -149 * np.log(2),
                          np.log(2) / 2, 1e-8]
        spread = rng.uniform(-110, 90, 40_000)
    elif op == "log":
        special_points = [np.sqrt(0.5), np.sqrt(2), 1.0, 2.0**-126, 2.0**-149, 0.5, 3.4e38, np.e]
        spread = np.exp(rng.uniform(-100, 88, 40_000))
    else:
        quarter_turns = np.arange(-40, 41) * np.pi / 4  # where the reduction changes quadrant
        special_points = np.concatenate([quarter_turns, [71476.0625, 117435.992, 1e5, 1e8, 3e38]])
        spread = np.concatenate([rng.uniform(-7, 7, 30_000), rng.uniform(-2e5, 2e5, 10_000)])
    return np.concatenate([f32(SPECIALS), neighbours(special_points), f32(spread), random_bits])


@pytest.mark.parametrize("op", list(NUMPY))
def test_float32_math_bit_identical_to_numpy(op):
    x = inputs(op)
    with np.errstate(all="ignore"):
        expected = NUMPY[op](x)
    out = torch.empty(x.size, dtype=torch.float32)
    math_unary_kernel[(triton.cdiv(x.size, 1024), )](torch.from_numpy(x), out, x.size, OP=op, BLOCK=1024,
                                                     numpy_exp=True)
    actual = out.numpy()
    differ = np.flatnonzero(actual.view(np.uint32) != expected.view(np.uint32))
    assert differ.size == 0, (f"{op}: {differ.size} of {x.size} results differ from numpy; first at x = "
                              f"{x[differ[0]]!r} (0x{x.view(np.uint32)[differ[0]]:08x}): tritium "
                              f"0x{actual.view(np.uint32)[differ[0]]:08x}, numpy "
                              f"0x{expected.view(np.uint32)[differ[0]]:08x}")
