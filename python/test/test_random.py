"""tl.rand, tl.randn, tl.randint, tl.randint4x and seeded dropout: bit-identical to Triton's interpreter.

Triton's random numbers are a pure function of (seed, offset, n_rounds) (Philox4x32, triton/language/random.py),
so tritium must produce exactly what TRITON_INTERPRET=1 produces. The interpreter runs once per module in a
subprocess (TRITON_INTERPRET must be set before triton is imported) on the cases in CASES; the kernels live in
random_kernels.py, shared by both sides.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import random_kernels
from conftest import NUMPY_MATH_IS_LIBM_REASON, numpy_float32_math_is_simd

HERE = os.path.dirname(os.path.abspath(__file__))

SEEDS = [0, 12345, 2**40 + 7]  # the last one is an int64 argument: exercises the high 32 bits of the key
KINDS = ["rand", "randn", "randint", "randint4x"]


def _cases():
    cases = []
    for kind in KINDS:
        for seed in SEEDS:
            # offsets = program_id * BLOCK + arange (int32), the grid's last block partly masked
            cases.append(dict(name=f"{kind}-arange-seed{seed}", kind=kind, seed=seed, n=1000, block=128))
        # offsets loaded from memory: negative int32 values, and int64 values above 2**32 (offset_hi != 0)
        cases.append(
            dict(name=f"{kind}-int32-offsets", kind=kind, seed=42, n=300, block=64, offsets_dtype="int32",
                 offsets=[int(v) for v in np.random.RandomState(1).randint(-2**31, 2**31 - 1, 300)]))
        cases.append(
            dict(name=f"{kind}-int64-offsets", kind=kind, seed=42, n=300, block=64, offsets_dtype="int64",
                 offsets=[int(v) for v in np.random.RandomState(2).randint(0, 2**62, 300, dtype=np.int64)]))
        cases.append(dict(name=f"{kind}-7-rounds", kind=kind, seed=7, n=256, block=256, rounds=7))
    for kind in ["rand", "randn"]:
        cases.append(dict(name=f"{kind}-2d", kind=kind, two_d=True, seed=3, M=16, N=32, row_stride=1000))
    x = np.random.RandomState(3).randn(5000).astype(np.float32)
    for p in [0.1, 0.5, 0.9]:
        for constexpr_p in [False, True]:
            cases.append(dict(name=f"dropout-p{p}" + ("-constexpr" if constexpr_p else "-runtime"), kind="dropout",
                              seed=1234, n=5000, block=1024, p=p, constexpr_p=constexpr_p, x=[float(v) for v in x]))
    return cases


CASES = {case["name"]: case for case in _cases()}


@pytest.fixture(scope="module")
def interpreted(tmp_path_factory):
    """Outputs of every case under Triton's interpreter, computed in one subprocess."""
    tmp = tmp_path_factory.mktemp("interpreter")
    spec, out = tmp / "spec.json", tmp / "out.npz"
    spec.write_text(json.dumps(list(CASES.values())))
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, os.path.join(HERE, "random_kernels.py"), str(spec), str(out)], env=env,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    with np.load(out) as data:
        return {name: data[name] for name in data.files}


def _assert_bit_identical(actual, expected):
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    a_bits, e_bits = actual.view(np.int32), expected.view(np.int32)
    differ = np.flatnonzero(a_bits.ravel() != e_bits.ravel())
    if differ.size:
        i = differ[0]
        detail = f"{differ.size} of {actual.size} values differ; first at flat index {i}: " \
                 f"tritium {actual.ravel()[i]!r} (0x{int(a_bits.ravel()[i]) & 0xffffffff:08x}) vs interpreter " \
                 f"{expected.ravel()[i]!r} (0x{int(e_bits.ravel()[i]) & 0xffffffff:08x})"
        if actual.dtype == np.float32:
            ulps = np.abs(a_bits.astype(np.int64) - e_bits.astype(np.int64)).max()
            detail += f"; max difference {ulps} ulp"
        raise AssertionError(detail)


def _names(prefix):
    return [name for name in CASES if name.startswith(prefix)]


@pytest.mark.parametrize("name", _names("randint"))
def test_randint_and_randint4x_match_interpreter(name, interpreted):
    _assert_bit_identical(random_kernels.run_case(CASES[name]), interpreted[name])


@pytest.mark.parametrize("name", _names("rand-"))
def test_rand_matches_interpreter(name, interpreted):
    _assert_bit_identical(random_kernels.run_case(CASES[name]), interpreted[name])


@pytest.mark.xfail(not numpy_float32_math_is_simd(), reason=NUMPY_MATH_IS_LIBM_REASON, strict=True)
@pytest.mark.parametrize("name", _names("randn-"))
def test_randn_matches_interpreter(name, interpreted):
    _assert_bit_identical(random_kernels.run_case(CASES[name]), interpreted[name])


@pytest.mark.parametrize("name", _names("randn-"))
def test_randn_within_4_ulp_of_interpreter(name, interpreted):
    """Holds on every host, also where the interpreter's numpy calls libm instead of its SIMD algorithms."""
    actual, expected = random_kernels.run_case(CASES[name]), interpreted[name]
    ulps = np.abs(actual.view(np.int32).astype(np.int64) - expected.view(np.int32).astype(np.int64))
    assert ulps.max() <= 4, f"max difference {ulps.max()} ulp"


@pytest.mark.parametrize("name", [n for n in _names("dropout") if n.endswith("-constexpr")])
def test_seeded_dropout_matches_interpreter(name, interpreted):
    _assert_bit_identical(random_kernels.run_case(CASES[name]), interpreted[name])


@pytest.mark.parametrize("name", [n for n in _names("dropout") if n.endswith("-runtime")])
def test_seeded_dropout_runtime_p_keeps_the_interpreters_elements(name, interpreted):
    """With p a float32 argument the kept elements match the interpreter bit for bit; the kept values are
    x / (1 - p) computed in float32 (the interpreter computes 1 - p in float64, see random_kernels.py)."""
    case = CASES[name]
    actual, expected = random_kernels.run_case(case), interpreted[name]
    assert np.array_equal(actual != 0, expected != 0)
    x, p32 = np.asarray(case["x"], dtype=np.float32), np.float32(case["p"])
    kept = actual != 0
    assert np.array_equal(actual[kept], x[kept] / (np.float32(1) - p32))


# ---------------------------------------------------------------------------------------------
# properties that hold whatever the reference
# ---------------------------------------------------------------------------------------------


def test_rand_is_uniform_in_unit_interval():
    u = random_kernels.run_case(dict(kind="rand", seed=99, n=100_000, block=1024))
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01
    assert abs(u.var() - 1 / 12) < 0.005


def test_randn_is_standard_normal():
    z = random_kernels.run_case(dict(kind="randn", seed=99, n=100_000, block=1024))
    assert np.isfinite(z).all()
    assert abs(z.mean()) < 0.02
    assert abs(z.std() - 1.0) < 0.02


def test_randint4x_streams_are_distinct_and_the_first_is_randint():
    four = random_kernels.run_case(dict(kind="randint4x", seed=5, n=512, block=128))
    one = random_kernels.run_case(dict(kind="randint", seed=5, n=512, block=128))
    assert np.array_equal(four[0], one)
    for i in range(4):
        for j in range(i + 1, 4):
            assert (four[i] != four[j]).mean() > 0.99
    assert len(np.unique(four)) > 0.99 * four.size


def test_same_seed_same_numbers_other_seed_other_numbers():
    a = random_kernels.run_case(dict(kind="rand", seed=1, n=1000, block=128))
    b = random_kernels.run_case(dict(kind="rand", seed=1, n=1000, block=128))
    c = random_kernels.run_case(dict(kind="rand", seed=2, n=1000, block=128))
    assert np.array_equal(a, b)
    assert (a != c).mean() > 0.99


def test_block_size_does_not_change_the_numbers():
    a = random_kernels.run_case(dict(kind="randint", seed=11, n=1000, block=64))
    b = random_kernels.run_case(dict(kind="randint", seed=11, n=1000, block=1024))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_seeded_dropout_keep_ratio_and_scaling(p):
    n = 200_000
    x = torch.randn(n).numpy()
    out = random_kernels.run_case(dict(kind="dropout", seed=77, n=n, block=1024, p=p, x=x))
    kept = out != 0
    assert abs(kept.mean() - (1 - p)) < 0.01
    np.testing.assert_allclose(out[kept], x[kept] / np.float32(1 - p), rtol=1e-6)
    # the mask is regenerated from (seed, offset): a second launch drops the same elements
    again = random_kernels.run_case(dict(kind="dropout", seed=77, n=n, block=1024, p=p, x=x))
    assert np.array_equal(out, again)
