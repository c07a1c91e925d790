"""Elementwise semantics on CPU tensors, bit-exact against numpy / torch / exact Python arithmetic.

Triton semantics (triton/language/semantic.py, math.py, 3.9):
- integer `//` is sdiv/udiv and `%` is srem/urem: C semantics, the quotient truncates toward zero and the
  remainder has the dividend's sign (torch.div(rounding_mode="trunc"), torch.fmod); float `%` is frem (C fmod).
- `int / int` is a float32 division.
- tl.minimum / tl.maximum default to PropagateNan.NONE (minnum/maxnum: a NaN operand loses); ALL propagates.
- tl.clamp(x, lo, hi) on floats is tt.clampf: with NONE a NaN x gives lo (fmin(fmax(x, lo), hi)), with ALL NaN.
- tl.umulhi multiplies the bit patterns as unsigned integers (int32, int64, uint32, uint64).
- tl.sqrt_rn and tl.div_rn are fp32 only, correctly rounded.
- fp downcasts round to nearest even unless fp_downcast_rounding="rtz"; fp->int truncates toward zero;
  casts to bool compare with zero; integer casts sign-extend only from signed sources.
- integer arithmetic wraps around (no overflow checks unless debug=True with sanitize_overflow).
"""

import math
import subprocess
import sys

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from triton._C.libtriton import interpreter as triton_interpreter_helpers

from conftest import BITS, SIGNED, int_range, launch_binary, wrap

INT_DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint32]
FLOAT_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
ALL_DTYPES = FLOAT_DTYPES + INT_DTYPES


def _ids(dtypes):
    return [str(d).replace("torch.", "") for d in dtypes]


def ints(values, dtype):
    """A tensor of `dtype` from Python ints (through int64, or bit patterns for uint64)."""
    if dtype == torch.uint64:
        return torch.tensor([wrap(v, torch.int64) for v in values], dtype=torch.int64).view(torch.uint64)
    return torch.tensor(values, dtype=torch.int64).to(dtype)


def random_ints(n, dtype, seed=0):
    lo, hi = int_range(dtype)
    rng = np.random.RandomState(seed)
    special = [lo, hi, 0, 1, -1 if dtype in SIGNED else 2, lo + 1, hi - 1]
    vals = [int(v) for v in rng.randint(0, 2**62, n - len(special), dtype=np.int64)]
    vals = [lo + v % (hi - lo + 1) for v in vals]
    return special + vals


def as_list(t):
    if t.dtype == torch.uint64:
        return [v & (2**64 - 1) for v in t.view(torch.int64).tolist()]
    return t.tolist()


def float_bits(t):
    """The bit patterns of a float tensor as an integer tensor, for exact comparisons (NaNs canonicalized)."""
    itype = {torch.float64: torch.int64, torch.float32: torch.int32, torch.float16: torch.int16,
             torch.bfloat16: torch.int16}[t.dtype]
    bits = t.view(itype).clone()
    bits[torch.isnan(t)] = -1
    return bits


def assert_bits_equal(actual, expected):
    assert actual.dtype == expected.dtype
    a, e = float_bits(actual), float_bits(expected)
    bad = (a != e).nonzero().flatten().tolist()
    assert not bad, f"{len(bad)} of {actual.numel()} differ; first at {bad[0]}: got {actual[bad[0]].item()!r}, " \
                    f"expected {expected[bad[0]].item()!r}"


def interesting_floats(dtype, n=512, seed=0):
    """Random values over a wide exponent range plus zeros, infinities, NaN, subnormals and extremes."""
    g = torch.Generator().manual_seed(seed)
    info = torch.finfo(dtype)
    special = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), info.max, -info.max, info.tiny, -info.tiny,
               info.tiny / 4, 1.0, -1.0, 0.5, 3.0]
    exponents = torch.randint(-20, 20, (n - len(special), ), generator=g).float()
    mags = torch.rand(n - len(special), generator=g, dtype=torch.float64) * 2.0**exponents.double()
    signs = torch.where(torch.rand(n - len(special), generator=g) < 0.5, -1.0, 1.0).double()
    return torch.cat([torch.tensor(special, dtype=torch.float64), mags * signs]).to(dtype)


# ---------------------------------------------------------------------------------------------
# generic kernels
# ---------------------------------------------------------------------------------------------


@triton.jit
def unary_kernel(x_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if OP == "sqrt_rn":
        y = tl.sqrt_rn(x)
    elif OP == "abs":
        y = tl.abs(x)
    elif OP == "neg":
        y = -x
    elif OP == "invert":
        y = ~x
    else:
        tl.static_assert(False, "unknown op")
    tl.store(out_ptr + offs, y, mask=mask)


def launch_unary(op, x, out_dtype=None):
    out = torch.empty(x.shape, dtype=out_dtype or x.dtype)
    unary_kernel[(triton.cdiv(x.numel(), 128), )](x, out, x.numel(), OP=op, BLOCK=128)
    return out


# ---------------------------------------------------------------------------------------------
# tl.clamp
# ---------------------------------------------------------------------------------------------


@triton.jit
def clamp_kernel(x_ptr, lo_ptr, hi_ptr, out_ptr, n, PROPAGATE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    lo = tl.load(lo_ptr + offs, mask=mask)
    hi = tl.load(hi_ptr + offs, mask=mask)
    if PROPAGATE:
        y = tl.clamp(x, lo, hi, propagate_nan=tl.PropagateNan.ALL)
    else:
        y = tl.clamp(x, lo, hi)
    tl.store(out_ptr + offs, y, mask=mask)


@pytest.mark.parametrize("propagate", [False, True])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_clamp_floats_and_nan(dtype, propagate):
    n = 300
    x = (torch.randn(n) * 3).to(dtype)
    x[::7] = float("nan")
    x[1], x[2] = float("inf"), float("-inf")
    lo = (-torch.rand(n)).to(dtype)
    hi = torch.rand(n).to(dtype)
    out = torch.empty_like(x)
    clamp_kernel[(3, )](x, lo, hi, out, n, PROPAGATE=propagate, BLOCK=128)
    expected = torch.clamp(x, lo, hi)  # torch propagates NaN
    if not propagate:
        expected = torch.where(torch.isnan(x), lo, expected)  # NONE: fmin(fmax(NaN, lo), hi) == lo
    assert_bits_equal(out, expected)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_clamp_ints(dtype):
    lo_v, hi_v = int_range(dtype)
    x = ints(random_ints(300, dtype), dtype)
    third = (hi_v - lo_v) // 3
    lo = ints([lo_v + third] * 300, dtype)
    hi = ints([hi_v - third] * 300, dtype)
    out = torch.empty_like(x)
    clamp_kernel[(3, )](x, lo, hi, out, 300, PROPAGATE=False, BLOCK=128)
    assert as_list(out) == [min(max(v, lo_v + third), hi_v - third) for v in as_list(x)]


# ---------------------------------------------------------------------------------------------
# sqrt_rn, div_rn, umulhi, fma
# ---------------------------------------------------------------------------------------------


def test_sqrt_rn_is_correctly_rounded():
    x = interesting_floats(torch.float32).abs()
    x = torch.cat([x, -torch.rand(8), torch.rand(1000) * 1e-38, torch.rand(1000) * 1e30])  # negatives and subnormals
    out = launch_unary("sqrt_rn", x)
    with np.errstate(invalid="ignore"):
        expected = torch.from_numpy(np.sqrt(x.numpy()))  # IEEE sqrt is correctly rounded
    assert_bits_equal(out, expected)


def test_div_rn_is_correctly_rounded():
    x = torch.cat([interesting_floats(torch.float32, seed=1), torch.randn(1000) * 1e-30])
    y = torch.cat([interesting_floats(torch.float32, seed=2), torch.randn(1000) * 1e10])
    x[3], y[3] = 1.0, 0.0  # 1/0 = inf
    x[4], y[4] = 0.0, 0.0  # 0/0 = NaN
    out = launch_binary("div_rn", x, y)
    with np.errstate(all="ignore"):
        expected = torch.from_numpy(x.numpy() / y.numpy())
    assert_bits_equal(out, expected)


UMULHI_DTYPES = [torch.int32, torch.int64, torch.uint32, torch.uint64]


@pytest.mark.parametrize("dtype", UMULHI_DTYPES, ids=_ids(UMULHI_DTYPES))
def test_umulhi(dtype):
    xs, ys = random_ints(256, dtype, seed=1), random_ints(256, dtype, seed=2)[::-1]
    x, y = ints(xs, dtype), ints(ys, dtype)
    out = launch_binary("umulhi", x, y)
    bits = BITS[dtype]
    mask = (1 << bits) - 1
    expected = [wrap(((a & mask) * (b & mask)) >> bits, dtype) for a, b in zip(xs, ys)]
    if dtype == torch.uint64:
        expected = [v & mask for v in expected]
    assert as_list(out) == expected


@triton.jit
def fma_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.fma(x, y, z), mask=mask)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_fma_rounds_once(dtype):
    n = 1000
    x, y, z = (torch.randn(n) * 4).to(dtype), (torch.randn(n) * 4).to(dtype), (torch.randn(n) * 4).to(dtype)
    # one element where fma and multiply-then-add differ: (1 + e)(1 + e) - (1 + 2e) = e*e
    eps = {torch.float64: 2.0**-30, torch.float32: 2.0**-12, torch.float16: 2.0**-6, torch.bfloat16: 2.0**-4}[dtype]
    x[0], y[0], z[0] = 1 + eps, 1 + eps, -(1 + 2 * eps)
    out = torch.empty_like(x)
    fma_kernel[(triton.cdiv(n, 256), )](x, y, z, out, n, BLOCK=256)
    if dtype == torch.float64:
        expected = torch.from_numpy(triton_interpreter_helpers.fma_fp64(x.numpy(), y.numpy(), z.numpy()))
    elif dtype == torch.float32:
        expected = torch.from_numpy(triton_interpreter_helpers.fma_fp32(x.numpy(), y.numpy(), z.numpy()))
    else:
        # the product of two 8/11-bit significands and the sum are exact in float64 for these magnitudes
        expected = (x.double() * y.double() + z.double()).to(dtype)
    assert out[0].item() == eps * eps
    assert_bits_equal(out, expected)


# ---------------------------------------------------------------------------------------------
# casts
# ---------------------------------------------------------------------------------------------


@triton.jit
def cast_kernel(x_ptr, out_ptr, n, DST: tl.constexpr, BITCAST: tl.constexpr, ROUNDING: tl.constexpr,
                BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if BITCAST:
        y = x.to(DST, bitcast=True)
    elif ROUNDING == "rtz":
        y = x.to(DST, fp_downcast_rounding="rtz")
    else:
        y = x.to(DST)
    tl.store(out_ptr + offs, y, mask=mask)


TL = {torch.float64: tl.float64, torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16,
      torch.int8: tl.int8, torch.int16: tl.int16, torch.int32: tl.int32, torch.int64: tl.int64, torch.uint8: tl.uint8,
      torch.uint32: tl.uint32, torch.uint64: tl.uint64, torch.bool: tl.int1}


def launch_cast(x, dst, bitcast=False, rounding=None):
    out = torch.empty(x.shape, dtype=dst)
    cast_kernel[(triton.cdiv(x.numel(), 128), )](x, out, x.numel(), DST=TL[dst], BITCAST=bitcast,
                                                 ROUNDING=rounding or "", BLOCK=128)
    return out


BITCAST_PAIRS = [(torch.float32, torch.int32), (torch.int32, torch.float32), (torch.float32, torch.uint32),
                 (torch.float64, torch.int64), (torch.int64, torch.float64), (torch.float16, torch.int16),
                 (torch.int16, torch.float16), (torch.bfloat16, torch.int16), (torch.int16, torch.bfloat16),
                 (torch.float16, torch.bfloat16), (torch.int8, torch.uint8), (torch.uint32, torch.int32)]


INT_VIEW = {torch.float64: torch.int64, torch.float32: torch.int32, torch.float16: torch.int16,
            torch.bfloat16: torch.int16}


@pytest.mark.parametrize("src,dst", BITCAST_PAIRS, ids=[f"{s}-{d}".replace("torch.", "") for s, d in BITCAST_PAIRS])
def test_bitcast(src, dst):
    x = interesting_floats(src) if src.is_floating_point else ints(random_ints(300, src), src)
    out = launch_cast(x, dst, bitcast=True)
    expected = x.view(dst)
    if dst.is_floating_point:  # compare bit patterns, NaN payloads included
        assert torch.equal(out.view(INT_VIEW[dst]), expected.view(INT_VIEW[dst]))
    else:
        assert as_list(out) == as_list(expected)


FORMATS = {  # significand bits (with the implicit one), minimum normal exponent, maximum finite value
    torch.float64: (53, -1022, float(torch.finfo(torch.float64).max)),
    torch.float32: (24, -126, float(torch.finfo(torch.float32).max)),
    torch.float16: (11, -14, 65504.0),
    torch.bfloat16: (8, -126, float(torch.finfo(torch.bfloat16).max)),
}


def round_to_format(values, dst, mode):
    """Round float64 values (exact inputs) to `dst` with one rounding, 'rtne' or 'rtz', as Python floats."""
    p, emin, fmax = FORMATS[dst]
    out = []
    for v in values:
        if math.isnan(v) or math.isinf(v) or v == 0:
            out.append(v)
            continue
        e = max(math.frexp(abs(v))[1] - 1, emin)
        ulp = 2.0**(e - (p - 1))
        q = v / ulp  # exact: a power-of-two scaling
        if mode == "rtne":
            r = round(q) * ulp  # Python's round() is round-half-even
            if abs(r) > fmax:
                r = math.copysign(math.inf, v)
        else:
            r = math.trunc(q) * ulp
            if abs(r) > fmax:
                r = math.copysign(fmax, v)
        out.append(r if r != 0 else math.copysign(0.0, v))
    return out


DOWNCASTS = [(torch.float32, torch.float16), (torch.float32, torch.bfloat16), (torch.float64, torch.float32),
             (torch.float64, torch.float16), (torch.float64, torch.bfloat16)]


def downcast_inputs(src, dst):
    """Values around dst's rounding points: halfway cases, overflow, dst subnormals."""
    base = interesting_floats(src, n=400).double()
    p, emin, fmax = FORMATS[dst]
    g = torch.Generator().manual_seed(5)
    grid = torch.randint(-2**p, 2**p, (200, ), generator=g).double()
    exps = torch.randint(emin - p, 20, (200, ), generator=g).double()
    ties = (grid + 0.5) * 2.0**exps  # exactly halfway between two dst values (in range)
    near = [fmax, fmax * (1 + 2.0**-p), fmax * (1 + 2.0**-(p + 1)), 2.0**(emin - p), 2.0**(emin - p - 1),
            1.5 * 2.0**(emin - p - 1), 3 * 2.0**(emin - p - 1)]
    # just off the ties, by less than src's precision beyond dst's: rounding twice (through a format in
    # between) would make them ties again
    nudge = 2.0**-(p + (30 if src == torch.float64 else 10))
    off_ties = torch.cat([ties * (1 + nudge), ties * (1 - nudge)])
    values = torch.cat([base, ties, off_ties, torch.tensor(near), -torch.tensor(near)])
    return values.to(src)  # exact for these values in src


def _downcast_params():
    params = []
    for src, dst in DOWNCASTS:
        for rounding in ["rtne", "rtz"]:
            params.append(pytest.param(src, dst, rounding,
                                       id=f"{src}-{dst}-{rounding}".replace("torch.", "")))
    return params


@pytest.mark.parametrize("src,dst,rounding", _downcast_params())
def test_float_downcast_rounding(src, dst, rounding):
    x = downcast_inputs(src, dst)
    out = launch_cast(x, dst, rounding=rounding if rounding == "rtz" else None)
    expected = torch.tensor(round_to_format(x.double().tolist(), dst, rounding), dtype=torch.float64).to(dst)
    assert_bits_equal(out, expected)


def test_downcast_reference_agrees_with_torch():
    """round_to_format's round-to-nearest-even is what torch does for fp32 -> fp16 / bf16."""
    for dst in (torch.float16, torch.bfloat16):
        x = downcast_inputs(torch.float32, dst)
        expected = torch.tensor(round_to_format(x.double().tolist(), dst, "rtne"), dtype=torch.float64).to(dst)
        assert_bits_equal(x.to(dst), expected)


UPCASTS = [(torch.float16, torch.float32), (torch.bfloat16, torch.float32), (torch.float32, torch.float64),
           (torch.float16, torch.float64), (torch.bfloat16, torch.float64), (torch.float16, torch.bfloat16),
           (torch.bfloat16, torch.float16)]


def _upcast_params():
    params = []
    for src, dst in UPCASTS:
        params.append(pytest.param(src, dst, id=f"{src}-{dst}".replace("torch.", "")))
    return params


@pytest.mark.parametrize("src,dst", _upcast_params())
def test_float_upcast_and_fp16_bf16(src, dst):
    x = interesting_floats(src)
    out = launch_cast(x, dst)
    if (src, dst) in ((torch.float16, torch.bfloat16), (torch.bfloat16, torch.float16)):
        expected = torch.tensor(round_to_format(x.double().tolist(), dst, "rtne"), dtype=torch.float64).to(dst)
    else:
        expected = x.to(dst)  # exact
    assert_bits_equal(out, expected)


@pytest.mark.parametrize("dst", INT_DTYPES, ids=_ids(INT_DTYPES))
@pytest.mark.parametrize("src", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_float_to_int_truncates_toward_zero(src, dst):
    lo, hi = int_range(dst)
    lo, hi = max(lo, -60000), min(hi, 60000)  # in range of every float type
    x = (torch.rand(500, dtype=torch.float64) * (hi - lo) + lo)
    x = torch.cat([x, torch.tensor([-0.5, 0.5, -0.99, 0.99, 2.5, -2.5, float(hi), float(lo)]).clamp(lo, hi)])
    x = x.to(src).clamp(lo, hi)
    x = x[(x.double() >= lo) & (x.double() < hi + 1)]  # rounding to src may leave the range
    out = launch_cast(x, dst)
    assert as_list(out) == [math.trunc(v) for v in x.double().tolist()]


@pytest.mark.parametrize("dst", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
@pytest.mark.parametrize("src", INT_DTYPES + [torch.uint64], ids=_ids(INT_DTYPES + [torch.uint64]))
def test_int_to_float_rounds_to_nearest_even(src, dst):
    values = random_ints(300, src)
    x = ints(values, src)
    out = launch_cast(x, dst)
    # rounded once, exactly, to dst; the float64 holding it is exact, so .to(dst) does not round again
    expected = torch.tensor([_int_to_format(v, dst) for v in values], dtype=torch.float64).to(dst)
    assert_bits_equal(out, expected)


def _int_to_format(v, dst):
    """The integer v rounded once (to nearest even) to dst, as an exactly representable float64."""
    p, _, fmax = FORMATS[dst]
    if v == 0:
        return 0.0
    e = abs(v).bit_length() - 1
    shift = max(e - (p - 1), 0)
    q, r = divmod(abs(v), 1 << shift)
    half = (1 << shift) >> 1
    if shift and (r > half or (r == half and q & 1)):
        q += 1
    result = math.ldexp(q, shift)
    if result > fmax:
        result = math.inf
    return math.copysign(result, v)


CAST_INT_PAIRS = [(torch.int32, torch.int8), (torch.int64, torch.int16), (torch.int8, torch.int32),
                  (torch.int8, torch.int64), (torch.uint8, torch.int32), (torch.int8, torch.uint32),
                  (torch.uint32, torch.int64), (torch.int64, torch.uint8), (torch.int16, torch.uint8),
                  (torch.uint32, torch.int8), (torch.int32, torch.uint32), (torch.uint8, torch.int8)]


@pytest.mark.parametrize("src,dst", CAST_INT_PAIRS, ids=[f"{s}-{d}".replace("torch.", "") for s, d in CAST_INT_PAIRS])
def test_int_to_int_casts_wrap_and_extend(src, dst):
    values = random_ints(300, src)
    out = launch_cast(ints(values, src), dst)
    # truncation keeps the low bits; widening sign-extends from a signed source, zero-extends otherwise
    assert as_list(out) == [wrap(v, dst) for v in values]


@pytest.mark.parametrize("src", ALL_DTYPES, ids=_ids(ALL_DTYPES))
def test_casts_to_and_from_bool(src):
    x = interesting_floats(src) if src.is_floating_point else ints(random_ints(300, src), src)
    as_bool = launch_cast(x, torch.bool)
    assert as_bool.tolist() == [v != 0 for v in (x.double().tolist() if src.is_floating_point else as_list(x))]
    flags = torch.rand(300) < 0.5
    back = launch_cast(flags, src)
    assert (back.double().tolist() if src.is_floating_point else as_list(back)) == [int(f) for f in flags.tolist()]


# ---------------------------------------------------------------------------------------------
# integer division, remainder, shifts, overflow
# ---------------------------------------------------------------------------------------------


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def c_mod(a, b):
    return a - b * c_div(a, b)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_integer_floordiv_and_mod_truncate_like_c(dtype):
    xs = random_ints(400, dtype, seed=3)
    ys = random_ints(400, dtype, seed=4)
    lo, _ = int_range(dtype)
    small = [v % 13 + 1 for v in random_ints(400, dtype, seed=5)]
    if dtype in SIGNED:
        small = [s if i % 2 else -s for i, s in enumerate(small)]
    ys = [y if i % 2 else s for i, (y, s) in enumerate(zip(ys, small))]  # half small divisors of both signs
    pairs = [(x, y) for x, y in zip(xs, ys) if y != 0 and not (x == lo and y == -1)]  # no UB
    x, y = ints([p[0] for p in pairs], dtype), ints([p[1] for p in pairs], dtype)
    q = launch_binary("floordiv", x, y)
    r = launch_binary("mod", x, y)
    assert as_list(q) == [c_div(a, b) for a, b in pairs]
    assert as_list(r) == [c_mod(a, b) for a, b in pairs]
    if dtype not in (torch.uint32, ):
        assert torch.equal(q, torch.div(x, y, rounding_mode="trunc"))
        assert torch.equal(r, torch.fmod(x, y))


MASKED_DIVISION_CODE = """
import torch, triton, triton.language as tl

@triton.jit
def masked_div_kernel(x_ptr, y_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)  # no `other`: masked-off lanes hold unspecified values
    tl.store(q_ptr + offs, x // y, mask=mask)
    tl.store(r_ptr + offs, x % y, mask=mask)

x = torch.arange(-50, 50, dtype=torch.{dtype})
y = torch.full((100, ), -3, dtype=torch.{dtype})
q, r = torch.empty_like(x), torch.empty_like(x)
masked_div_kernel[(1, )](x, y, q, r, 100, BLOCK=128)
assert torch.equal(q, torch.div(x, y, rounding_mode="trunc")), q
assert torch.equal(r, torch.fmod(x, y)), r
print("ok")
"""


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_masked_division_does_not_trap_on_masked_off_lanes(dtype, tmp_path):
    path = tmp_path / "masked_division.py"
    path.write_text(MASKED_DIVISION_CODE.replace("{dtype}", dtype))
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", \
        f"returncode {out.returncode}: {out.stderr.strip().splitlines()[:1]}"


def test_integer_division_examples_with_negative_operands():
    x = torch.tensor([7, -7, 7, -7, 1, -1, 0], dtype=torch.int32)
    y = torch.tensor([2, 2, -2, -2, 3, 3, -5], dtype=torch.int32)
    assert launch_binary("floordiv", x, y).tolist() == [3, -3, -3, 3, 0, 0, 0]  # Python would give -4, -4, 3, -1
    assert launch_binary("mod", x, y).tolist() == [1, -1, 1, -1, 1, -1, 0]  # Python would give 1, 1, -1, 2


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_float_mod_is_fmod(dtype):
    x = (torch.randn(400) * 100).to(dtype)
    y = (torch.randn(400) * 10).to(dtype)
    y[y == 0] = 1
    x[:4] = torch.tensor([-7.5, 7.5, -0.0, 5.0]).to(dtype)
    y[:4] = torch.tensor([2.0, -2.0, 3.0, float("inf")]).to(dtype)
    r = launch_binary("mod", x, y)
    expected = torch.from_numpy(np.fmod(x.double().numpy(), y.double().numpy())).to(dtype)  # fmod is exact
    assert_bits_equal(r, expected)


def test_int_true_division_is_float32():
    x = torch.tensor([7, -7, 1, 2**24 + 1], dtype=torch.int32)
    y = torch.tensor([2, 2, 3, 1], dtype=torch.int32)
    out = launch_binary("truediv", x, y, out_dtype=torch.float32)
    assert_bits_equal(out, x.float() / y.float())


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_shifts(dtype):
    bits = BITS[dtype]
    xs = random_ints(300, dtype, seed=6)
    ss = [v % bits for v in random_ints(300, torch.uint8, seed=7)]  # shift amounts in [0, bits)
    x, s = ints(xs, dtype), ints(ss, dtype)
    left = launch_binary("shl", x, s)
    right = launch_binary("shr", x, s)
    assert as_list(left) == [wrap(a << b, dtype) for a, b in zip(xs, ss)]
    # signed: arithmetic shift (Python's >> on negative ints); unsigned: logical
    assert as_list(right) == [a >> b for a, b in zip(xs, ss)]


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_integer_overflow_wraps_around(dtype, op):
    xs, ys = random_ints(300, dtype, seed=8), random_ints(300, dtype, seed=9)[::-1]
    out = launch_binary(op, ints(xs, dtype), ints(ys, dtype))
    f = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b}[op]
    assert as_list(out) == [wrap(f(a, b), dtype) for a, b in zip(xs, ys)]


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_negation_and_invert_wrap(dtype):
    xs = random_ints(300, dtype, seed=10)
    x = ints(xs, dtype)
    assert as_list(launch_unary("neg", x)) == [wrap(-v, dtype) for v in xs]
    assert as_list(launch_unary("invert", x)) == [wrap(~v, dtype) for v in xs]


# ---------------------------------------------------------------------------------------------
# tl.abs, tl.minimum / tl.maximum, tl.where
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_abs_ints(dtype):
    xs = random_ints(300, dtype, seed=11)
    out = launch_unary("abs", ints(xs, dtype))
    # abs(INT_MIN) wraps to INT_MIN; unsigned abs is the identity
    assert as_list(out) == [wrap(abs(v), dtype) for v in xs]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_abs_floats_clears_the_sign_bit(dtype):
    x = interesting_floats(dtype)
    assert_bits_equal(launch_unary("abs", x), x.abs())


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=_ids(FLOAT_DTYPES))
def test_minimum_maximum_nan_handling(dtype):
    n = 400
    x, y = torch.randn(n).to(dtype), torch.randn(n).to(dtype)
    x[::5] = float("nan")
    y[::7] = float("nan")  # some positions NaN in both
    x[1], y[1] = float("inf"), 3.0
    x[2], y[2] = float("-inf"), -3.0
    for op, ref in [("min_none", np.fmin), ("max_none", np.fmax), ("min_all", np.minimum),
                    ("max_all", np.maximum)]:
        out = launch_binary(op, x, y)
        expected = torch.from_numpy(ref(x.double().numpy(), y.double().numpy())).to(dtype)
        nonzero = (x != 0) | (y != 0)  # the sign of min(+0, -0) is unspecified
        assert_bits_equal(out[nonzero], expected[nonzero])
    # NONE: a NaN operand loses to a number; ALL: NaN wins; torch.minimum / maximum propagate like ALL
    assert_bits_equal(launch_binary("max_all", x, y), torch.maximum(x, y))
    assert_bits_equal(launch_binary("min_all", x, y), torch.minimum(x, y))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids(INT_DTYPES))
def test_minimum_maximum_ints_respect_signedness(dtype):
    xs, ys = random_ints(300, dtype, seed=12), random_ints(300, dtype, seed=13)[::-1]
    x, y = ints(xs, dtype), ints(ys, dtype)
    assert as_list(launch_binary("min_none", x, y)) == [min(a, b) for a, b in zip(xs, ys)]
    assert as_list(launch_binary("max_none", x, y)) == [max(a, b) for a, b in zip(xs, ys)]


@triton.jit
def where_broadcast_kernel(x_ptr, y_ptr, out_ptr, out2_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + cols)[None, :]  # 1 x N
    y = tl.load(y_ptr + rows)[:, None]  # M x 1
    cond = (rows[:, None] + cols[None, :]) % 3 == 0  # M x N
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], tl.where(cond, x, y))
    # scalar `other` and a column condition
    col_cond = (rows % 2 == 0)[:, None]
    tl.store(out2_ptr + rows[:, None] * N + cols[None, :], tl.where(col_cond, x, 0))


@pytest.mark.parametrize("dtype", ALL_DTYPES + [torch.bool], ids=_ids(ALL_DTYPES + [torch.bool]))
def test_where_with_broadcast(dtype):
    M, N = 8, 16
    if dtype == torch.bool:
        x, y = torch.rand(N) < 0.5, torch.rand(M) < 0.5
    elif dtype.is_floating_point:
        x, y = torch.randn(N).to(dtype), torch.randn(M).to(dtype)
    else:
        x, y = ints(random_ints(N, dtype), dtype), ints(random_ints(M, dtype, seed=1), dtype)
    out, out2 = torch.empty(M, N, dtype=dtype), torch.empty(M, N, dtype=dtype)
    where_broadcast_kernel[(1, )](x, y, out, out2, M=M, N=N)
    r, c = torch.arange(M)[:, None], torch.arange(N)[None, :]
    cond = (r + c) % 3 == 0
    if dtype == torch.uint32:  # torch.where has no uint32 kernel
        xv, yv = x.view(torch.int32), y.view(torch.int32)
        expected = torch.where(cond, xv[None, :], yv[:, None]).view(dtype)
        expected2 = torch.where(r % 2 == 0, xv[None, :], torch.zeros((), dtype=torch.int32)).view(dtype)
    else:
        expected = torch.where(cond, x[None, :], y[:, None])
        expected2 = torch.where(r % 2 == 0, x[None, :], torch.zeros((), dtype=dtype))
    assert as_list(out.view(-1)) == as_list(expected.reshape(-1))
    assert as_list(out2.view(-1)) == as_list(expected2.reshape(-1))
