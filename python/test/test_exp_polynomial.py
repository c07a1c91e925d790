"""tl.exp and tl.exp2 on float32 by default: a division-free polynomial, within 1 ulp of the exact result.

A GPU computes tl.exp as a hardware 2^x of x * log2(e) (about 2 ulp); tritium's default stays within 1 ulp over
the whole range, subnormal results and the edge of overflow included, and keeps every special value. numpy's
algorithm, which divides once per element and gives the interpreter's bits, is one option away
(test_float32_math_matches_numpy.py checks those bits).
"""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch
import triton
from conftest import NUMPY_MATH_IS_LIBM_REASON, math_unary_kernel, numpy_float32_math_is_simd

REFERENCE = {"exp": np.exp, "exp2": np.exp2}


def dense_inputs(op):
    rng = np.random.RandomState({"exp": 5, "exp2": 6}[op])
    scale = 1.0 if op == "exp" else 1 / np.log(2)  # the same results, in the other function's argument
    x = np.concatenate([
        rng.uniform(-110, 92, 300_000) * scale,  # the whole range, past both ends
        rng.uniform(-1, 1, 100_000) * scale,  # around 1, where the reduction does nothing
        rng.uniform(-104, -87, 100_000) * scale,  # subnormal results
        rng.uniform(86, 88.73, 50_000) * scale,  # the last binades before overflow
        np.arange(-150, 129, dtype=np.float64) * np.log(2) * scale,  # exact powers of two
    ]).astype(np.float32)
    # 200 consecutive floats around the edges: overflow to infinity, the smallest subnormal, underflow to 0
    edges = np.array([128, -149, -150], dtype=np.float64) * np.log(2) * scale
    bits = edges.astype(np.float32).view(np.int32)[:, None] + np.arange(-100, 100, dtype=np.int32)[None, :]
    return np.concatenate([x, bits.ravel().view(np.float32)])


def run(op, x, **options):
    out = torch.empty(x.size, dtype=torch.float32)
    math_unary_kernel[(triton.cdiv(x.size, 1024), )](torch.from_numpy(x), out, x.size, OP=op, BLOCK=1024, **options)
    return out.numpy()


def ulp_errors(actual, x, op):
    """|actual - exact| in units of the last place of the exact result rounded to float32."""
    exact = REFERENCE[op](x.astype(np.float64))
    with np.errstate(over="ignore"):
        rounded = exact.astype(np.float32)
    finite = np.isfinite(rounded)
    assert np.array_equal(np.isinf(actual[~finite]), np.isinf(rounded[~finite])), "overflow where float32 has none"
    ulp = np.maximum(np.spacing(np.abs(rounded[finite])).astype(np.float64), 2.0**-149)
    return np.abs(actual[finite].astype(np.float64) - exact[finite]) / ulp, x[finite]


@pytest.mark.parametrize("op", ["exp", "exp2"])
def test_within_one_ulp(op):
    x = dense_inputs(op)
    errors, where = ulp_errors(run(op, x), x, op)
    worst = int(errors.argmax())
    assert errors[worst] < 1.0, f"{op}({where[worst]!r}) is {errors[worst]:.3f} ulp off"


@pytest.mark.parametrize("op", ["exp", "exp2"])
def test_special_values(op):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-30, -1e-30, 3.4e38, -3.4e38, 1e-45], np.float32)
    actual = run(op, x)
    with np.errstate(over="ignore"):
        expected = REFERENCE[op](x.astype(np.float64))
    assert np.isnan(actual[4]) and np.isnan(actual[5])
    keep = ~np.isnan(x)
    assert actual[keep].tolist() == expected[keep].astype(np.float32).tolist()


@pytest.mark.xfail(not numpy_float32_math_is_simd(), reason=NUMPY_MATH_IS_LIBM_REASON, strict=True)
def test_numpy_exp_option_gives_numpy_bits():
    x = dense_inputs("exp")[::7].copy()
    with np.errstate(all="ignore"):
        expected = np.exp(x)
    assert run("exp", x, numpy_exp=True).view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    assert run("exp", x).view(np.uint32).tolist() != expected.view(np.uint32).tolist()


SCRIPT = """
import numpy as np, torch, triton, sys
sys.path.insert(0, {test_dir!r})
from conftest import math_unary_kernel
x = np.random.RandomState(1).uniform(-20, 20, 4096).astype(np.float32)
out = torch.empty(x.size)
k = math_unary_kernel[(4, )](torch.from_numpy(x), out, x.size, OP="exp", BLOCK=1024)
print(k.metadata.numpy_exp, out.numpy().view(np.uint32).tolist() == np.exp(x).view(np.uint32).tolist())
"""


@pytest.mark.xfail(not numpy_float32_math_is_simd(), reason=NUMPY_MATH_IS_LIBM_REASON, strict=True)
def test_environment_variable_selects_numpy_exp(tmp_path):
    script = tmp_path / "numpy_exp.py"
    script.write_text(SCRIPT.format(test_dir=os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, TRITIUM_NUMPY_EXP="1", TRITON_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]
