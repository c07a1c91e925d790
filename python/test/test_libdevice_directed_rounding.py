"""libdevice's directed-rounding arithmetic and conversions (`add_rz`, `fma_rd`, `ll2float_ru`, ...), through
tritium's libdevice and CUDA's (`__nv_*`), bit-exact against the exact result rounded toward zero, -inf or +inf:
fp32 and fp64 add, sub, mul, div, rcp, sqrt, fma over wide exponents, overflow, underflow to subnormals and zero,
exact zeros (whose sign depends on the direction) and special values; integer and double to float conversions;
float to integer conversions."""

import math
from fractions import Fraction

import numpy as np
import pytest
import torch
import triton

from conftest import libdevice_kernel

MODES = ["rz", "rd", "ru"]
NP = {torch.float32: np.float32, torch.float64: np.float64}


ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "rcp": 1, "sqrt": 1, "fma": 3}


def round_directed(exact, np_type, mode):
    """The rational `exact` rounded toward zero (rz), -inf (rd) or +inf (ru) in `np_type`."""
    info = np.finfo(np_type)
    largest = Fraction(float(info.max))
    if abs(exact) > largest:
        toward_inf = mode == "ru" if exact > 0 else mode == "rd"
        return np_type((math.inf if toward_inf else float(info.max)) * (1 if exact > 0 else -1))
    try:
        r = np_type(float(exact))  # within an ulp (the double may round twice on the way to float32)
    except OverflowError:  # just above the largest double, rounded up
        r = np_type(float(info.max) * (1 if exact > 0 else -1))
    while Fraction(float(r)) > exact:
        r = np.nextafter(r, np_type(-np.inf))
    down = r
    up = r if Fraction(float(r)) == exact else np.nextafter(r, np_type(np.inf))
    if mode == "rd":
        return down
    if mode == "ru":
        return up
    return down if exact >= 0 else up


def reference(op, mode, x, y, z, np_type):
    values = [float(v) for v in (x, y, z)]
    if any(math.isnan(v) for v in values[:ARITY[op]]):
        return np_type(np.nan)
    a, b, c = values
    if op in ("rcp", "sqrt"):
        a, b = (1.0, a) if op == "rcp" else (a, b)
    sign = lambda v: math.copysign(1.0, v)  # noqa: E731
    if op == "sqrt":
        if a < 0:
            return np_type(np.nan)
        if a == 0 or math.isinf(a):
            return np_type(a)
        # the two neighbours of sqrt(a) by exact squares
        r = np_type(math.sqrt(a))
        while Fraction(float(r))**2 > Fraction(a):
            r = np.nextafter(r, np_type(0))
        while Fraction(float(np.nextafter(r, np_type(np.inf))))**2 <= Fraction(a):
            r = np.nextafter(r, np_type(np.inf))
        if Fraction(float(r))**2 == Fraction(a):
            return r
        return r if mode in ("rz", "rd") else np.nextafter(r, np_type(np.inf))
    if op in ("add", "sub", "fma"):
        p = (a * b) if op == "fma" else a
        q = c if op == "fma" else (b if op == "add" else -b)
        if any(math.isinf(v) for v in ((a, b, c) if op == "fma" else (p, q))):
            with np.errstate(all="ignore"):
                return np_type(np_type(a) * np_type(b) + np_type(c)) if op == "fma" else np_type(p + q)
        exact = (Fraction(a) * Fraction(b) + Fraction(c)) if op == "fma" else Fraction(p) + Fraction(q)
        if exact == 0:  # exact zero: the operands' sign if they agree, else -0 toward -inf and +0 otherwise
            product_sign = sign(a) * sign(b) if op == "fma" else sign(p)
            if product_sign == sign(q) and (op != "fma" and p == 0 or op == "fma" and a * b == 0) and q == 0:
                return np_type(math.copysign(0.0, q))
            return np_type(-0.0 if mode == "rd" else 0.0)
        return round_directed(exact, np_type, mode)
    # mul, div, rcp
    with np.errstate(all="ignore"):
        rn = np_type(a) * np_type(b) if op == "mul" else np_type(a) / np_type(b)
    if np.isinf(rn) and (math.isinf(a) or math.isinf(b) or (op != "mul" and b == 0)) or np.isnan(rn):
        return rn
    if op == "mul":
        exact = Fraction(a) * Fraction(b)
    else:
        if math.isinf(b):
            return rn
        exact = Fraction(a) / Fraction(b)
    if exact == 0:
        return np_type(math.copysign(0.0, sign(a) * sign(b)))
    return round_directed(exact, np_type, mode)


def _operands(dtype, seed, n):
    np_type = NP[dtype]
    info = np.finfo(np_type)
    rng = np.random.RandomState(seed)
    span = 60 if dtype == torch.float32 else 400
    mags = (1 + rng.rand(n)) * np.exp2(rng.randint(-span, span, n).astype(np.float64))
    values = (mags * np.where(rng.rand(n) < 0.5, -1, 1)).astype(np_type)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 3.0, 0.1, float(info.max), -float(info.max),
                         float(info.tiny), float(info.smallest_subnormal), -float(info.smallest_subnormal), 2.0**-60,
                         1 + float(info.eps)], dtype=np_type)
    values[:specials.size] = specials[rng.permutation(specials.size)]
    return values


@pytest.mark.parametrize("use_cuda", [False, True], ids=["tritium_libdevice", "cuda_libdevice"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "rcp", "sqrt", "fma"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
def test_directed_rounding_arithmetic(dtype, op, mode, use_cuda):
    n = 400
    np_type = NP[dtype]
    x, y, z = _operands(dtype, 1, n), _operands(dtype, 2, n), _operands(dtype, 3, n)
    # cases where the rounding direction decides: exact sums of opposite values, products at the edge of
    # overflow and of the subnormals, sums a tie away
    y[-40:-30] = -x[-40:-30]
    x[-30:-20], y[-30:-20] = np_type(np.finfo(np_type).max) / np_type(1.5), np_type(1.75)
    x[-20:-10], y[-20:-10] = np_type(np.finfo(np_type).tiny), np_type(0.75) - np_type(np.finfo(np_type).eps)
    z[-10:] = np_type(1.0)
    x[-10:], y[-10:] = np_type(np.finfo(np_type).eps / 2), np_type(1.0 + np.finfo(np_type).eps)
    if op == "sqrt":
        x = np.abs(x)
    out = torch.empty(n, dtype=dtype)
    libdevice_kernel[(triton.cdiv(n, 128), )](torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(z), out, n,
                                              NAME=f"{op}_{mode}", ARITY=ARITY[op], USE_CUDA=use_cuda, BLOCK=128)
    actual = out.numpy()
    expected = np.array([reference(op, mode, a, b, c, np_type) for a, b, c in zip(x, y, z)], dtype=np_type)
    same = (actual.view(f"u{actual.itemsize}") == expected.view(f"u{actual.itemsize}")) | (np.isnan(actual) &
                                                                                          np.isnan(expected))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, (f"{op}_{mode}({x[bad[0]]!r}, {y[bad[0]]!r}, {z[bad[0]]!r}) = {actual[bad[0]]!r}, expected "
                           f"{expected[bad[0]]!r} ({bad.size} of {n} differ)")


INT_SOURCES = {"int": torch.int32, "uint": torch.uint32, "ll": torch.int64, "ull": torch.uint64}


def _int_values(dtype, n, seed):
    bits = {torch.int32: 32, torch.uint32: 32, torch.int64: 64, torch.uint64: 64}[dtype]
    signed = dtype in (torch.int32, torch.int64)
    rng = np.random.RandomState(seed)
    values = [int(v) >> int(s) for v, s in zip(rng.randint(0, 2**63, n, dtype=np.uint64), rng.randint(0, bits, n))]
    values = [v * 2 + (v & 1) for v in values]  # odd low bits: inexact conversions
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    values[:6] = [lo, hi, 0, 1, (1 << 24) + 1, (1 << 53) + 1 if bits == 64 else hi - 1]
    values = [min(max(v if not signed or v % 3 else -v, lo), hi) for v in values]
    storage = {torch.uint32: torch.int32, torch.uint64: torch.int64}.get(dtype, dtype)
    wrapped = [v - (1 << bits) if v >= 1 << (bits - 1) and not signed else v for v in values]
    return values, torch.tensor(wrapped, dtype=storage).view(dtype)


@pytest.mark.parametrize("use_cuda", [False, True], ids=["tritium_libdevice", "cuda_libdevice"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["int2float", "uint2float", "ll2float", "ull2float", "ll2double", "ull2double",
                                  "double2float"])
def test_directed_rounding_conversions(name, mode, use_cuda):
    n = 300
    source, target = name.split("2")
    np_type = np.float32 if target == "float" else np.float64
    if source == "double":
        x_np = _operands(torch.float64, 5, n)
        x_np[-20:] = np.float64(1) + np.float64(2.0**-24) * np.arange(20)  # ties and near-ties of float32
        x = torch.from_numpy(x_np)
        exacts = [float(v) for v in x_np]
    else:
        exacts, x = _int_values(INT_SOURCES[source], n, seed=6)
    out = torch.empty(n, dtype=torch.float32 if np_type == np.float32 else torch.float64)
    libdevice_kernel[(triton.cdiv(n, 128), )](x, x, x, out, n, NAME=f"{name}_{mode}", ARITY=1, USE_CUDA=use_cuda,
                                              BLOCK=128)
    actual = out.numpy()
    expected = []
    for v in exacts:
        if isinstance(v, float) and (math.isnan(v) or math.isinf(v) or v == 0):
            expected.append(np_type(v))
        else:
            expected.append(round_directed(Fraction(v), np_type, mode))
    expected = np.array(expected, dtype=np_type)
    same = (actual.view(f"u{actual.itemsize}") == expected.view(f"u{actual.itemsize}")) | (np.isnan(actual) &
                                                                                          np.isnan(expected))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{name}_{mode}({exacts[bad[0]]}) = {actual[bad[0]]!r}, expected {expected[bad[0]]!r}"


@pytest.mark.parametrize("use_cuda", [False, True], ids=["tritium_libdevice", "cuda_libdevice"])
@pytest.mark.parametrize("name", [f"{s}2{d}_{m}" for s in ("float", "double") for d in ("int", "uint", "ll", "ull")
                                  for m in ("rn", "rz", "rd", "ru")])
def test_float_to_integer_in_a_direction(name, use_cuda):
    source, rest = name.split("2")
    target, mode = rest.split("_")
    dtype = torch.float32 if source == "float" else torch.float64
    values = [0.0, -0.0, 0.5, 1.5, 2.5, 2.75, 7.25, 1e6 + 0.5, 123456.75]
    if not target.startswith("u"):
        values += [-0.5, -1.5, -2.5, -2.75, -7.25]
    x = torch.tensor(values, dtype=dtype)
    out_dtype = {"int": torch.int32, "uint": torch.uint32, "ll": torch.int64, "ull": torch.uint64}[target]
    out = torch.empty(len(values), dtype=out_dtype)
    libdevice_kernel[(1, )](x, x, x, out, len(values), NAME=name, ARITY=1, USE_CUDA=use_cuda, BLOCK=16)
    rounding = {"rn": round, "rz": math.trunc, "rd": math.floor, "ru": math.ceil}[mode]  # round(): ties to even
    assert [int(v) for v in out.tolist()] == [rounding(v) for v in values]
