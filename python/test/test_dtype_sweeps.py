"""Dtype sweeps of elementwise ops, math ops, atomics and data movement, bit-exact against numpy / Python.

What Triton 3.9's frontend allows, and so what is swept here (triton/language/{semantic,math,standard}.py):
- Unsigned integers (uint16, uint32, uint64) keep their type through + - * // % << >> and the
  comparisons; // and % are udiv/urem, >> is a logical shift, comparisons and tl.minimum/maximum are
  unsigned. Integer casts sign-extend only from a signed source; float -> unsigned is fptoui
  (truncation toward zero), unsigned -> float is uitofp (one rounding to nearest even).
- tl.exp, exp2, log, log2, sin, cos, sqrt, rsqrt, erf, floor, ceil accept only fp32 and fp64
  (`_check_dtype`): the frontend raises "Expected dtype ['fp32', 'fp64'] but got fp16" for fp16/bf16 and
  does not upcast them, so fp16/bf16 are left out of those sweeps. tl.sqrt_rn and tl.div_rn are fp32 only.
  tl.abs, tl.fma, `/`, unary `-` (fneg), `+`, `-`, `*` and tl.fdiv (with ieee_rounding=True: tt.precise_divf)
  accept every float type; fp16/bf16 + - * stay in their type, but `/`, `%` and tl.fdiv upcast fp16/bf16
  operands to fp32 and return fp32 ("div and mod are not supported for floats with bitwidth < 32").
- Atomic RMW ops reject 8- and 16-bit integers and fp16/bf16 for everything but add. Float
  tl.atomic_max/min exist only for fp32/fp64 and are built from integer atomics on the bits: a value with
  the sign bit clear does a signed max (min) on the bits, one with the sign bit set an unsigned min (max).
  That orders floats by their bits: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
- tl.atomic_cas takes no mask argument (16/32/64-bit elements, compared bit for bit); cmp and val
  must already have the pointer's element type and shape, as the frontend neither casts nor broadcasts them.
- tl.histogram takes 32-bit integers only (int32, uint32). tl.cat(can_reorder=True) is the tt.cat op
  (1-D, deprecated in 3.9; any order of the elements is allowed, so the multiset is compared); the default
  can_reorder=False is join + permute + reshape and keeps the order. tl.gather takes any integer index
  type. tl.flip moves bit patterns (xor swaps on the bits); tl.sort orders with `>`.
- mpmath (a sympy dependency) gives the exact values the math ops are rounded from.
"""

import math

import mpmath
import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from conftest import BITS, SIGNED, atomic_rmw_kernel, binary_kernel, int_range, math_unary_kernel, wrap

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

NP = {torch.int8: np.int8, torch.int16: np.int16, torch.int32: np.int32, torch.int64: np.int64, torch.uint8: np.uint8,
      torch.uint16: np.uint16, torch.uint32: np.uint32, torch.uint64: np.uint64, torch.float16: np.float16,
      torch.float32: np.float32, torch.float64: np.float64, torch.bool: np.bool_}
TL = {torch.int8: tl.int8, torch.int16: tl.int16, torch.int32: tl.int32, torch.int64: tl.int64, torch.uint8: tl.uint8,
      torch.uint16: tl.uint16, torch.uint32: tl.uint32, torch.uint64: tl.uint64, torch.float16: tl.float16,
      torch.bfloat16: tl.bfloat16, torch.float32: tl.float32, torch.float64: tl.float64, torch.bool: tl.int1}
UNSIGNED = [torch.uint16, torch.uint32, torch.uint64]
INTS = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8] + UNSIGNED
FLOATS = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
INT_VIEW = {torch.float64: torch.int64, torch.float32: torch.int32, torch.float16: torch.int16,
            torch.bfloat16: torch.int16}


def name(dtype):
    return str(dtype).replace("torch.", "")


def names(dtypes):
    return [name(d) for d in dtypes]


def make_ints(values, dtype):
    """A tensor of `dtype` holding the Python ints `values` (all in range)."""
    return torch.from_numpy(np.array(values, dtype=NP[dtype]))


def to_ints(t):
    """A tensor's values as Python ints (exact for uint64)."""
    return [int(v) for v in t.numpy().tolist()]


def sample_ints(n, dtype, seed):
    """The extremes of `dtype`, values near them and near zero, and random values over the whole range."""
    lo, hi = int_range(dtype)
    special = [lo, lo + 1, hi, hi - 1, 0, 1, 2, 3, hi // 2, hi // 2 + 1]
    if dtype in SIGNED:
        special += [-1, -2, -3]
    rng = np.random.RandomState(seed)
    randoms = [lo + int(v) % (hi - lo + 1) for v in rng.randint(0, 2**62, n - len(special), dtype=np.int64)]
    randoms = [v ^ (int(b) << (BITS[dtype] - 2)) if dtype == torch.uint64 else v
               for v, b in zip(randoms, rng.randint(0, 4, len(randoms)))]  # reach the top bits of uint64
    return special + [min(max(v, lo), hi) for v in randoms]


def float_bits(t):
    """Bit patterns of a float tensor, NaNs canonicalized to -1 so that any NaN matches any NaN."""
    bits = t.view(INT_VIEW[t.dtype]).clone()
    bits[torch.isnan(t)] = -1
    return bits


def assert_bits_equal(actual, expected, what=""):
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    a, e = float_bits(actual).flatten(), float_bits(expected).flatten()
    bad = (a != e).nonzero().flatten().tolist()
    assert not bad, (f"{what}: {len(bad)} of {a.numel()} differ; first at {bad[:4]}: got "
                     f"{actual.flatten()[bad[:4]].tolist()}, expected {expected.flatten()[bad[:4]].tolist()}")


FORMATS = {  # significand bits (implicit one included), minimum normal exponent, largest finite value
    torch.float64: (53, -1022, float(torch.finfo(torch.float64).max)),
    torch.float32: (24, -126, float(torch.finfo(torch.float32).max)),
    torch.float16: (11, -14, 65504.0),
    torch.bfloat16: (8, -126, float(torch.finfo(torch.bfloat16).max)),
}


def round_exact(value, dtype):
    """The exact number `value` (a Python int or float, or an mpmath number) rounded once to `dtype`, to nearest
    with ties to even, as a Python float (infinite beyond the largest finite value)."""
    p, emin, fmax = FORMATS[dtype]
    if isinstance(value, float) and not math.isfinite(value):
        return value
    if value == 0:
        return 0.0 if isinstance(value, int) else math.copysign(0.0, float(value))
    with mpmath.workprec(3000):
        negative = value < 0
        a = abs(value)
        if a >= 2 * mpmath.mpf(fmax):
            return -math.inf if negative else math.inf
        if a <= mpmath.ldexp(1, emin - p):  # at most half the smallest subnormal: the tie goes to the even 0
            return -0.0 if negative else 0.0
        e = a.bit_length() - 1 if isinstance(a, int) else int(mpmath.frexp(a)[1]) - 1  # 2**e <= a < 2**(e + 1)
        scale = max(e, emin) - (p - 1)  # the ulp is 2**scale
        q = mpmath.ldexp(mpmath.mpf(a), -scale)  # exact
        lower = int(mpmath.floor(q))
        midpoint = mpmath.mpf(lower) + mpmath.mpf(0.5)
        if q > midpoint or (q == midpoint and lower & 1):
            lower += 1
        try:
            result = math.ldexp(lower, scale)
        except OverflowError:  # rounded up past the largest double
            result = math.inf
        if result > fmax:
            result = math.inf
        return -result if negative else result


def to_dtype(values, dtype):
    """Python floats exactly representable in `dtype` as a tensor of `dtype` (no second rounding)."""
    return torch.tensor(values, dtype=torch.float64).to(dtype)


def special_floats(dtype):
    info = torch.finfo(dtype)
    return [0.0, -0.0, math.inf, -math.inf, math.nan, float(info.max), -float(info.max), float(info.tiny),
            -float(info.tiny), float(info.tiny) / 8, -float(info.tiny) / 8, 1.0, -1.0, 0.5, 2.0, 3.0, 10.0]


def wide_floats(dtype, n, seed, low_exp=-30, high_exp=30):
    """Special values plus random values of both signs whose exponents spread over [low_exp, high_exp)."""
    g = torch.Generator().manual_seed(seed)
    special = special_floats(dtype)
    m = n - len(special)
    exps = torch.randint(low_exp, high_exp, (m, ), generator=g).double()
    mags = (1 + torch.rand(m, generator=g, dtype=torch.float64)) * 2.0**exps
    signs = torch.where(torch.rand(m, generator=g) < 0.5, -1.0, 1.0).double()
    return torch.cat([torch.tensor(special, dtype=torch.float64), mags * signs]).to(dtype)


# ---------------------------------------------------------------------------------------------
# 1. loads and stores (unsigned integers; float bits through masked copies); unsigned arithmetic,
#    comparisons, min/max and casts
# ---------------------------------------------------------------------------------------------


@triton.jit
def masked_copy_kernel(src_ptr, dst_ptr, n, OTHER: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(src_ptr + offs, mask=offs < n, other=OTHER)
    tl.store(dst_ptr + offs, x, mask=offs < n + 3)  # three lanes past n store `OTHER`, the rest are left alone


@pytest.mark.parametrize("dtype", UNSIGNED, ids=names(UNSIGNED))
def test_unsigned_masked_load_store(dtype):
    lo, hi = int_range(dtype)
    values = sample_ints(200, dtype, seed=1)
    other = hi - 4  # a value with the top bit set
    src = make_ints(values, dtype)
    dst = make_ints([7] * 256, dtype)
    masked_copy_kernel[(4, )](src, dst, 200, OTHER=other, BLOCK=64)
    assert to_ints(dst) == values + [other] * 3 + [7] * 53


@triton.jit
def small_masked_copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


@pytest.mark.parametrize("dtype,block", [
    pytest.param(d, b, id=f"{name(d)}-{b}") for d in (torch.float16, torch.bfloat16, torch.float32) for b in (8, 64)])
def test_masked_copy_keeps_float_bits(dtype, block):
    """A masked load + store must move the bits, subnormals included (small blocks are unrolled into scalar
    code, larger ones are not)."""
    tiny = float(torch.finfo(dtype).tiny)
    x = to_dtype([tiny * k / 16 for k in range(1, 5)] + [-tiny / 2, -0.0, math.inf, 1.0], dtype).repeat(block // 8)
    dst = torch.zeros(block, dtype=dtype)
    small_masked_copy_kernel[(1, )](x, dst, block - 1, BLOCK=block)
    assert torch.equal(dst[:-1].view(INT_VIEW[dtype]), x[:-1].view(INT_VIEW[dtype])), dst.tolist()
    assert dst[-1].item() == 0


@triton.jit
def strided_2d_copy_kernel(src_ptr, dst_ptr, stride_m, stride_n, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    tl.store(dst_ptr + rows * N + cols, tl.load(src_ptr + rows * stride_m + cols * stride_n))


@pytest.mark.parametrize("dtype", UNSIGNED, ids=names(UNSIGNED))
def test_unsigned_strided_2d_load(dtype):
    src = make_ints(sample_ints(16 * 24, dtype, seed=2), dtype).reshape(16, 24)
    view = src[::2, 1::3]  # 8 x 8, strides (48, 3)
    dst = torch.empty(8, 8, dtype=dtype)
    strided_2d_copy_kernel[(1, )](view, dst, view.stride(0), view.stride(1), M=8, N=8)
    assert np.array_equal(dst.numpy(), view.numpy())


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


INT_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "floordiv": c_div,
    "mod": lambda a, b: a - b * c_div(a, b),
    "shl": lambda a, b: a << b,
    "shr": lambda a, b: a >> b,  # unsigned operands: a logical shift
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "min": min,
    "max": max,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}
COMPARISONS = {"lt", "le", "gt", "ge", "eq", "ne"}


@pytest.mark.parametrize("op", list(INT_OPS))
@pytest.mark.parametrize("dtype", UNSIGNED, ids=names(UNSIGNED))
def test_unsigned_binary_ops(dtype, op):
    n = 300
    xs, ys = sample_ints(n, dtype, seed=3), sample_ints(n, dtype, seed=4)[::-1]
    if op in ("shl", "shr"):
        ys = [y % BITS[dtype] for y in ys]
    if op in ("floordiv", "mod"):
        # half the divisors small, none zero
        ys = [(y % 37 + 1) if i % 2 else max(y, 1) for i, y in enumerate(ys)]
    if op in COMPARISONS or op in ("min", "max"):
        ys[:40] = xs[:40]  # equal operands
        ys[40:50] = [x ^ (1 << (BITS[dtype] - 1)) for x in xs[40:50]]  # differ only in the top bit
    x, y = make_ints(xs, dtype), make_ints(ys, dtype)
    out = torch.empty(n, dtype=torch.bool if op in COMPARISONS else dtype)
    binary_kernel[(triton.cdiv(n, 128), )](x, y, out, n, OP=op, BLOCK=128)
    expected = [INT_OPS[op](a, b) for a, b in zip(xs, ys)]
    if op in COMPARISONS:
        assert out.tolist() == expected
    else:
        assert to_ints(out) == [wrap(v, dtype) for v in expected]


@triton.jit
def int_unary_kernel(x_ptr, neg_ptr, inv_ptr, abs_ptr, div_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(neg_ptr + offs, -x, mask=mask)
    tl.store(inv_ptr + offs, ~x, mask=mask)
    tl.store(abs_ptr + offs, tl.abs(x), mask=mask)
    tl.store(div_ptr + offs, x / (x + 1), mask=mask)  # int / int: both converted to fp32, an fp32 division


@pytest.mark.parametrize("dtype", UNSIGNED, ids=names(UNSIGNED))
def test_unsigned_unary_and_true_division(dtype):
    n = 300
    xs = sample_ints(n, dtype, seed=8)
    x = make_ints(xs, dtype)
    neg, inv, ab = torch.empty_like(x), torch.empty_like(x), torch.empty_like(x)
    div = torch.empty(n, dtype=torch.float32)
    int_unary_kernel[(3, )](x, neg, inv, ab, div, n, BLOCK=128)
    assert to_ints(neg) == [wrap(-v, dtype) for v in xs]  # 0 - x, wrapping
    assert to_ints(inv) == [wrap(~v, dtype) for v in xs]
    assert to_ints(ab) == xs  # tl.abs of an unsigned value is the value
    # uitofp of x and of (x + 1) (wrapped), each rounded to fp32, then one fp32 division
    with np.errstate(divide="ignore", invalid="ignore"):
        quotients = [np.float64(round_exact(v, torch.float32)) / np.float64(round_exact(wrap(v + 1, dtype),
                                                                                       torch.float32)) for v in xs]
    expected = to_dtype([round_exact(float(q), torch.float32) for q in quotients], torch.float32)
    assert_bits_equal(div, expected, "unsigned / unsigned")


@triton.jit
def cast_kernel(x_ptr, out_ptr, n, DST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(DST), mask=mask)


def launch_cast(x, dst):
    out = torch.empty(x.shape, dtype=dst)
    cast_kernel[(triton.cdiv(x.numel(), 128), )](x, out, x.numel(), DST=TL[dst], BLOCK=128)
    return out


INT_CAST_PAIRS = ([(torch.uint16, d) for d in INTS if d != torch.uint16] +
                  [(s, torch.uint16) for s in INTS if s != torch.uint16] +
                  [(torch.uint64, d) for d in INTS if d not in (torch.uint64, torch.uint16)] +
                  [(s, torch.uint64) for s in INTS if s not in (torch.uint64, torch.uint16)] +
                  [(torch.uint32, torch.int16), (torch.int16, torch.uint32)])


@pytest.mark.parametrize("src,dst", INT_CAST_PAIRS, ids=[f"{name(s)}-{name(d)}" for s, d in INT_CAST_PAIRS])
def test_unsigned_int_casts(src, dst):
    values = sample_ints(300, src, seed=5)
    out = launch_cast(make_ints(values, src), dst)
    # wrap() of the source value: truncation keeps the low bits; widening sign-extends only a signed source
    assert to_ints(out) == [wrap(v, dst) for v in values]


@pytest.mark.parametrize("src,dst", [pytest.param(s, d, id=f"{name(s)}-{name(d)}") for s in UNSIGNED for d in FLOATS])
def test_unsigned_to_float(src, dst):
    values = sample_ints(300, src, seed=6)
    # ties (2^e + an odd multiple of half an ulp, after an even and an odd significand) and their neighbours
    p = FORMATS[dst][0]
    ties = [(1 << e) + (2 * k + 1) * (1 << (e - p)) for e in range(p, BITS[src]) for k in (0, 1)]
    values += ties + [t + 1 for t in ties] + [t - 1 for t in ties]
    values += [65504, 65519, 65520, 65535]  # around fp16's largest value; 65520 rounds to inf
    values = [v for v in values if v <= int_range(src)[1]]
    out = launch_cast(make_ints(values, src), dst)
    expected = to_dtype([round_exact(v, dst) for v in values], dst)
    assert_bits_equal(out, expected, f"{name(src)} -> {name(dst)}")


@pytest.mark.parametrize("src", [torch.int16, torch.int32, torch.int64], ids=["int16", "int32", "int64"])
def test_signed_to_bf16_rounds_once(src):
    """The signed counterpart of the bf16 ties above: each value is rounded once to bf16 (arith.sitofp)."""
    p = FORMATS[torch.bfloat16][0]
    ties = [(1 << e) + (2 * k + 1) * (1 << (e - p)) for e in range(p, BITS[src] - 1) for k in (0, 1)]
    values = [v for t in ties for v in (t, t + 1, t - 1, -t, -t - 1, -t + 1)] + sample_ints(100, src, seed=9)
    out = launch_cast(make_ints(values, src), torch.bfloat16)
    expected = to_dtype([round_exact(v, torch.bfloat16) for v in values], torch.bfloat16)
    assert_bits_equal(out, expected, f"{name(src)} -> bfloat16")


@pytest.mark.parametrize("dst", UNSIGNED, ids=names(UNSIGNED))
@pytest.mark.parametrize("src", FLOATS, ids=names(FLOATS))
def test_float_to_unsigned_truncates(src, dst):
    _, hi = int_range(dst)
    hi = min(hi, int(FORMATS[src][2]))
    g = torch.Generator().manual_seed(7)
    values = (torch.rand(300, generator=g, dtype=torch.float64) * 2.0**torch.randint(
        0, BITS[dst], (300, ), generator=g).double()).tolist()
    values += [0.0, -0.0, 0.25, 0.75, 1.0, 1.5, 2.5, 65504.0, 65535.0, 2.0**31 + 2**20, 2.0**63, 2.0**63 + 2**40,
               2.0**64 - 2**40]
    x = torch.tensor(values, dtype=torch.float64).to(src)
    x = x[(x.double() < float(hi + 1)) & ~torch.isinf(x)]  # fptoui of a value out of range is undefined
    out = launch_cast(x, dst)
    assert to_ints(out) == [math.trunc(v) for v in x.double().tolist()]


# ---------------------------------------------------------------------------------------------
# 2. math ops in fp32 and fp64; division, negation, subtraction in every float type
# ---------------------------------------------------------------------------------------------


def _mp_unary(op, x):
    """The exact result of `op` at the float x, as an mpmath number (or a float for the special cases)."""
    if math.isnan(x):
        return math.nan
    if op in ("abs", "neg"):
        return abs(x) if op == "abs" else -x
    if op in ("floor", "ceil"):  # exact; the result keeps the sign of x (floor(-0.5) = -1, ceil(-0.5) = -0.0)
        return x if math.isinf(x) else math.copysign(float((math.floor if op == "floor" else math.ceil)(x)), x)
    if op in ("log", "log2", "sqrt", "sqrt_rn", "rsqrt"):
        if x < 0:
            return math.nan
        if x == 0:
            return {"log": -math.inf, "log2": -math.inf, "rsqrt": math.copysign(math.inf, x)}.get(op, x)
        if math.isinf(x):
            return {"rsqrt": 0.0}.get(op, math.inf)
    if math.isinf(x):
        return {"exp": 0.0 if x < 0 else math.inf, "exp2": 0.0 if x < 0 else math.inf, "erf": math.copysign(1.0, x),
                "sin": math.nan, "cos": math.nan}[op]
    if x == 0 and op in ("sin", "erf"):
        return x  # keeps the sign of zero
    f = {"exp": mpmath.exp, "exp2": lambda v: mpmath.mpf(2)**v, "log": mpmath.log, "log2": lambda v: mpmath.log(v, 2),
         "sqrt": mpmath.sqrt, "sqrt_rn": mpmath.sqrt, "rsqrt": lambda v: 1 / mpmath.sqrt(v), "sin": mpmath.sin,
         "cos": mpmath.cos, "erf": mpmath.erf}[op]
    with mpmath.workprec(200):
        return f(mpmath.mpf(x))


def reference_unary(op, x):
    """`op` at every element of x, correctly rounded to x's dtype."""
    out = []
    for v in x.double().tolist():
        r = _mp_unary(op, v)
        out.append(r if isinstance(r, float) and (math.isnan(r) or math.isinf(r) or r == 0) else
                   round_exact(r, x.dtype))
    return to_dtype(out, x.dtype)


def ordered(t):
    """Float bit patterns mapped to integers that increase with the value (adjacent floats differ by 1)."""
    bits = t.view(INT_VIEW[t.dtype]).long()
    return torch.where(bits < 0, -(bits & ((1 << (8 * t.element_size() - 1)) - 1)), bits)


def assert_within_ulps(actual, expected, ulps, what):
    """Same NaNs and infinities; finite values at most `ulps` representable numbers apart."""
    assert torch.equal(torch.isnan(actual), torch.isnan(expected)), \
        f"{what}: NaN where {expected[torch.isnan(actual) != torch.isnan(expected)].tolist()[:4]} was expected"
    ok = ~torch.isnan(expected)
    dist = (ordered(actual[ok]) - ordered(expected[ok])).abs()
    worst = int(dist.argmax()) if dist.numel() else 0
    assert dist.numel() == 0 or dist.max() <= ulps, \
        (f"{what}: {int((dist > ulps).sum())} results more than {ulps} ulp off; worst {int(dist.max())} ulp at "
         f"x-index {worst}: got {actual[ok][worst].item()!r}, expected {expected[ok][worst].item()!r}")


def math_inputs(op, dtype):
    """Inputs over the op's interesting range, with special values and, where they matter, subnormals."""
    info = torch.finfo(dtype)
    limits = {"exp": math.log(info.max) * 1.05, "exp2": math.log2(info.max) * 1.05, "erf": 6.0}
    base = wide_floats(dtype, 400, seed=11, low_exp=-30 if dtype == torch.float32 else -60, high_exp=12)
    if op in limits:  # spread over the whole range where the result is neither 0, 1 nor inf
        lim = limits[op]
        g = torch.Generator().manual_seed(12)
        spread = (torch.rand(400, generator=g, dtype=torch.float64) * 2 - 1) * lim
        if op in ("exp", "exp2"):  # down to the subnormal results
            spread = torch.cat([spread, -torch.rand(100, generator=g, dtype=torch.float64) * lim * 1.05])
        base = torch.cat([base, spread.to(dtype)])
    if op in ("log", "log2", "sqrt", "sqrt_rn", "rsqrt"):  # positive inputs over the whole range, subnormals too
        g = torch.Generator().manual_seed(13)
        e = torch.randint(int(math.log2(info.tiny)) - 20, int(math.log2(info.max)), (400, ), generator=g).double()
        pos = (1 + torch.rand(400, generator=g, dtype=torch.float64)) * 2.0**e
        base = torch.cat([base, pos.to(dtype), to_dtype([1.0, 2.0, 4.0, 0.25, 1 + 2**-20, 1 - 2**-20], dtype)])
    if op in ("sin", "cos"):  # large arguments need an accurate range reduction
        base = torch.cat([base, to_dtype([math.pi, math.pi / 2, 1e6, 1e10, 1e22, 3.0e38, 355.0, 103993.0], dtype)])
    if op in ("floor", "ceil"):
        base = torch.cat([base, to_dtype([0.5, -0.5, 1.5, -1.5, 2**23 + 0.5, -(2**52) - 0.5, 0.9999999, -0.25],
                                         dtype)])
    return base


# Largest error allowed, in ulp. fp32: the bounds tritium's own libdevice test (test_libdevice.py) holds these
# functions to. fp64: they are libm calls, within 1 ulp. 0: the result is exact or correctly rounded.
MATH_ULPS = {
    torch.float32: {"exp": 2, "exp2": 2, "log": 2, "log2": 2, "sqrt": 0, "sqrt_rn": 0, "rsqrt": 2, "sin": 2, "cos": 2,
                    "abs": 0, "floor": 0, "ceil": 0, "erf": 4, "neg": 0},
    torch.float64: {"exp": 1, "exp2": 1, "log": 1, "log2": 1, "sqrt": 0, "rsqrt": 1, "sin": 1, "cos": 1, "abs": 0,
                    "floor": 0, "ceil": 0, "erf": 1, "neg": 0},
}
MATH_CASES = [(op, d) for d in (torch.float32, torch.float64) for op in MATH_ULPS[d]]


@pytest.mark.parametrize("op,dtype", MATH_CASES, ids=[f"{op}-{name(d)}" for op, d in MATH_CASES])
def test_math_unary(op, dtype):
    x = math_inputs(op, dtype)
    out = torch.empty_like(x)
    math_unary_kernel[(triton.cdiv(x.numel(), 256), )](x, out, x.numel(), OP=op, BLOCK=256)
    expected = reference_unary(op, x)
    if MATH_ULPS[dtype][op] == 0:
        assert_bits_equal(out, expected, f"{op} {name(dtype)}")
    else:
        assert_within_ulps(out, expected, MATH_ULPS[dtype][op], f"{op} {name(dtype)}")


def test_exp_fp32_near_overflow():
    """Results above 3.2e38, just below overflow, keep the bound of the rest of the range."""
    x = torch.linspace(88.0, 88.72283, 512, dtype=torch.float64).float()  # exp(88.72284) overflows
    out = torch.empty_like(x)
    math_unary_kernel[(2, )](x, out, x.numel(), OP="exp", BLOCK=256)
    assert_within_ulps(out, reference_unary("exp", x), MATH_ULPS[torch.float32]["exp"], "exp float32")


@triton.jit
def float_binary_kernel(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    if OP == "div":
        r = x / y
    elif OP == "fdiv":
        r = tl.fdiv(x, y)
    elif OP == "fdiv_ieee":
        r = tl.fdiv(x, y, ieee_rounding=True)  # tt.precise_divf, for every float type
    elif OP == "div_rn":
        r = tl.div_rn(x, y)
    elif OP == "sub":
        r = x - y
    elif OP == "add":
        r = x + y
    elif OP == "mul":
        r = x * y
    else:
        tl.static_assert(False, "unknown op")
    tl.store(out_ptr + offs, r, mask=mask)


NUMPY_BINARY = {"div": np.divide, "fdiv": np.divide, "fdiv_ieee": np.divide, "div_rn": np.divide, "sub": np.subtract,
                "add": np.add, "mul": np.multiply}


def _float_binary_params():
    params = []
    cases = ([(op, d) for op in ("div", "fdiv", "fdiv_ieee", "sub") for d in FLOATS] + [("div_rn", torch.float32)] +
             [(op, d) for op in ("add", "mul") for d in FLOATS[2:]])  # fp32/fp64 + and * are everywhere else
    for op, dtype in cases:
        params.append(pytest.param(op, dtype, id=f"{op}-{name(dtype)}"))
    return params


@pytest.mark.parametrize("op,dtype", _float_binary_params())
def test_float_binary_correctly_rounded(op, dtype):
    """Every float type, specials and subnormal results included; the IEEE result rounded once to `dtype`."""
    x = wide_floats(dtype, 600, seed=21, low_exp=-20, high_exp=20)
    y = wide_floats(dtype, 600, seed=22, low_exp=-20, high_exp=20).flip(0)
    info = torch.finfo(dtype)
    tiny = float(info.tiny)
    # subnormal results and operands, overflow, cancellation, x == y
    extra_x = [tiny * 3, tiny, float(info.max) / 2, 1.0, 1 + 2 * float(info.eps), 5.0, 0.0, math.inf, -7.0,
               1.5 * tiny, tiny / 4, 2.0**20, 0.5]
    extra_y = [3.0, -2.0**12, 0.25, 1 + float(info.eps), 1 + float(info.eps), 5.0, 0.0, math.inf, -7.0,
               tiny, tiny / 8, tiny / 8, tiny]
    x = torch.cat([x, to_dtype(extra_x, dtype)])
    y = torch.cat([y, to_dtype(extra_y, dtype)])
    # Triton computes `/` and tl.fdiv of fp16/bf16 operands in fp32 (binary_op_type_checking_impl with div_or_mod:
    # "div and mod are not supported for floats with bitwidth < 32"): the result is an fp32 tensor.
    result_dtype = torch.float32 if op.startswith(("div", "fdiv")) and dtype in (torch.float16, torch.bfloat16) \
        else dtype
    out = torch.empty(x.shape, dtype=result_dtype)
    float_binary_kernel[(triton.cdiv(x.numel(), 256), )](x, y, out, x.numel(), OP=op, BLOCK=256)
    with np.errstate(all="ignore"):
        # float64 results: exact for fp64 (IEEE hardware); for the narrower types the float64 result rounded
        # again is still correctly rounded (53 >= 2p + 2 makes the double rounding innocuous for + - * /)
        wide = NUMPY_BINARY[op](x.double().numpy(), y.double().numpy())
    expected = to_dtype([round_exact(v, result_dtype) for v in wide.tolist()], result_dtype)
    assert_bits_equal(out, expected, f"{op} {name(dtype)}")


@pytest.mark.parametrize("dtype", FLOATS, ids=names(FLOATS))
def test_negation_flips_only_the_sign_bit(dtype):
    x = wide_floats(dtype, 300, seed=23)
    nan_bits = {torch.float64: 0x7FF8_0000_0000_1234, torch.float32: 0x7FC0_1234, torch.float16: 0x7E12,
                torch.bfloat16: 0x7FC1}[dtype]
    x[:2] = torch.tensor([nan_bits, nan_bits], dtype=INT_VIEW[dtype]).view(dtype)  # a NaN with a payload
    x[1:2].view(INT_VIEW[dtype]).bitwise_xor_(torch.tensor(1, dtype=INT_VIEW[dtype]) << (8 * x.element_size() - 1))
    out = torch.empty_like(x)
    math_unary_kernel[(2, )](x, out, x.numel(), OP="neg", BLOCK=256)
    sign = torch.tensor(1, dtype=INT_VIEW[dtype]) << (8 * x.element_size() - 1)
    assert torch.equal(out.view(INT_VIEW[dtype]), x.view(INT_VIEW[dtype]) ^ sign)


@triton.jit
def fma_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.fma(x, y, z), mask=mask)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["float64", "float32"])
def test_fma_wide_exponents(dtype):
    """x * y + z with a single rounding, over wide exponents, with cancellation and subnormal results."""
    low = -540 if dtype == torch.float64 else -60
    x = wide_floats(dtype, 400, seed=24, low_exp=low, high_exp=-low)[17:]  # finite values only
    y = wide_floats(dtype, 400, seed=25, low_exp=low, high_exp=-low)[17:]
    z = -(x.double() * y.double()).to(dtype)  # cancels the rounded product: the result is the rounding error
    z[::3] = wide_floats(dtype, 400, seed=26, low_exp=low, high_exp=-low)[17:][::3]
    out = torch.empty_like(x)
    fma_kernel[(2, )](x, y, z, out, x.numel(), BLOCK=256)
    from fractions import Fraction
    expected = []
    with mpmath.workprec(3000):
        for a, b, c in zip(x.double().tolist(), y.double().tolist(), z.double().tolist()):
            exact = Fraction(a) * Fraction(b) + Fraction(c)
            r = round_exact(mpmath.mpf(exact.numerator) / exact.denominator, dtype) if exact else 0.0
            expected.append(r)
    assert_bits_equal(out, to_dtype(expected, dtype), f"fma {name(dtype)}")


def exact_fma(x, y, z, dtype):
    """x * y + z for every element, computed exactly and rounded once to `dtype`."""
    from fractions import Fraction
    expected = []
    with mpmath.workprec(3000):
        for a, b, c in zip(x.double().tolist(), y.double().tolist(), z.double().tolist()):
            if not all(map(math.isfinite, (a, b, c))):
                expected.append(a * b + c)
                continue
            exact = Fraction(a) * Fraction(b) + Fraction(c)
            expected.append(round_exact(mpmath.mpf(exact.numerator) / exact.denominator, dtype) if exact else
                            (a * b + c))
    return to_dtype(expected, dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["float16", "bfloat16"])
def test_half_fma_rounds_once(dtype):
    """tl.fma on 16-bit floats rounds x * y + z once. The product of two halves is exact in f32, but the sum
    rounded to f32 and then to the half type can land on a tie the exact sum is not on: (1 + 2^-4)^2 = 1.125 +
    2^-8 is a bf16 tie, and + 2^-40 must round it up."""
    p = FORMATS[dtype][0]
    tie = 1 + 2.0**-4  # squared: 1 + 2^-3 + 2^-8, a tie at bf16's precision
    if dtype == torch.float16:
        tie = 1 + 2.0**-6  # squared: 1 + 2^-5 + 2^-12, a tie at fp16's precision (11 bits)
    nudges = [2.0**-24, -(2.0**-24), 2.0**-14, -(2.0**-14), 2.0**-20, 0.0]
    if dtype == torch.bfloat16:
        nudges += [2.0**-40, -(2.0**-40), 2.0**-126, -(2.0**-133), 2.0**-100]
    x = [tie] * len(nudges) + [-tie] * len(nudges)
    z = nudges + [-v for v in nudges]
    g = torch.Generator().manual_seed(30 + p)
    limit = 14 if dtype == torch.float16 else 60
    rx = wide_floats(dtype, 500, seed=31, low_exp=-limit // 2, high_exp=limit // 2)
    ry = wide_floats(dtype, 500, seed=32, low_exp=-limit // 2, high_exp=limit // 2)
    rz = (rx.double() * ry.double() * (1 + (torch.rand(500, generator=g, dtype=torch.float64) - 0.5) * 2.0**-p))
    rz = -rz.to(dtype)  # close to the product: cancellation, and the result is the product's low bits
    rz[::4] = wide_floats(dtype, 500, seed=33, low_exp=-limit, high_exp=limit)[::4]
    x = torch.cat([to_dtype(x, dtype), rx])
    y = torch.cat([to_dtype([tie] * (2 * len(nudges)), dtype), ry])
    z = torch.cat([to_dtype(z, dtype), rz])
    out = torch.empty_like(x)
    fma_kernel[(triton.cdiv(x.numel(), 256), )](x, y, z, out, x.numel(), BLOCK=256)
    assert_bits_equal(out, exact_fma(x, y, z, dtype), f"fma {name(dtype)}")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["float16", "bfloat16"])
def test_half_fma_keeps_subnormals(dtype):
    tiny = float(torch.finfo(dtype).tiny)
    x = to_dtype([0.5, tiny / 4, 1.0, 3.0, -0.75], dtype)
    y = to_dtype([tiny, 1.0, tiny / 8, 1.0, tiny], dtype)
    z = to_dtype([0.0, 0.0, 0.0, tiny / 16, tiny], dtype)
    out = torch.empty_like(x)
    fma_kernel[(1, )](x, y, z, out, 5, BLOCK=8)
    # the exact results are representable in `dtype` (subnormals), so no rounding is involved
    expected = to_dtype([0.5 * tiny, tiny / 4, tiny / 8, 3.0, 0.25 * tiny], dtype)
    assert_bits_equal(out, expected, f"fma {name(dtype)}")


# ---------------------------------------------------------------------------------------------
# 3. atomics: tensor compare-and-swap, bitwise RMW, unsigned and float max/min, atomic load/store
# ---------------------------------------------------------------------------------------------


@triton.jit
def cas_kernel(ptr, cmp_ptr, val_ptr, old_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    old = tl.atomic_cas(ptr + offs, tl.load(cmp_ptr + offs), tl.load(val_ptr + offs))
    tl.store(old_ptr + offs, old)


def _bits(t):
    """Integer bit patterns (floats viewed as integers of their width) as Python ints."""
    if t.dtype.is_floating_point:
        t = t.view(INT_VIEW[t.dtype])
    return to_ints(t) if t.dtype != torch.int16 else t.tolist()


def cas_operands(dtype, n):
    """Memory contents, and `cmp` equal to them in even lanes and different (the lanes left alone) in odd ones."""
    if dtype.is_floating_point:
        memory = wide_floats(dtype, n, seed=31)
        other = wide_floats(dtype, n, seed=32)
        cmp = torch.where(torch.arange(n) % 2 == 0, memory, other)
        # bit-for-bit comparison: -0.0 does not match +0.0, a NaN matches the same NaN bits
        memory[:4] = to_dtype([0.0, -0.0, math.nan, -0.0], dtype)
        cmp[:4] = to_dtype([-0.0, 0.0, math.nan, -0.0], dtype)
        val = wide_floats(dtype, n, seed=33).flip(0)
    else:
        memory = make_ints(sample_ints(n, dtype, seed=31), dtype)
        cmp_values = [m if i % 2 == 0 else wrap(m + 1 + i, dtype) for i, m in enumerate(to_ints(memory))]
        cmp = make_ints(cmp_values, dtype)
        val = make_ints(sample_ints(n, dtype, seed=33)[::-1], dtype)
    return memory, cmp, val


CAS_DTYPES = [torch.int32, torch.int64, torch.float32, torch.float64, torch.uint32, torch.uint64, torch.int16,
              torch.float16]


@pytest.mark.parametrize("dtype", CAS_DTYPES, ids=names(CAS_DTYPES))
def test_tensor_atomic_cas(dtype):
    """tl.atomic_cas on a block of pointers. Triton 3.9's atomic_cas takes no mask argument: the lanes whose
    `cmp` differs from memory are the ones that must leave memory alone, and they still return the old value."""
    n = 256
    memory, cmp, val = cas_operands(dtype, n)
    target = memory.clone()
    old = torch.empty_like(memory)
    cas_kernel[(n // 64, )](target, cmp, val, old, BLOCK=64)
    assert _bits(old) == _bits(memory)
    swapped = [c == m for c, m in zip(_bits(cmp), _bits(memory))]
    if dtype.is_floating_point:
        assert swapped[:4] == [False, False, True, True]
    assert _bits(target) == [v if s else m for v, m, s in zip(_bits(val), _bits(memory), swapped)]


@triton.jit
def cas_increment_kernel(ptr, BLOCK: tl.constexpr, ADDRESSES: tl.constexpr):
    """Every lane adds one to ptr[lane % ADDRESSES] with a compare-and-swap loop; lanes that are done compare
    against -1, which never matches, so they no longer write."""
    ptrs = ptr + tl.arange(0, BLOCK) % ADDRESSES
    current = tl.atomic_add(ptrs, 0)  # an atomic read
    done = tl.zeros([BLOCK], dtype=tl.int32)  # int32, not int1: see test_constant_bool_tensor_carried_by_a_loop
    while tl.sum(1 - done) > 0:
        expected = tl.where(done != 0, -1, current).to(current.dtype)
        old = tl.atomic_cas(ptrs, expected, expected + 1)
        done = done | (old == expected).to(tl.int32)
        current = old


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32, torch.float64],
                         ids=names([torch.int32, torch.int64, torch.float32, torch.float64]))
def test_tensor_atomic_cas_contended_increments(dtype):
    counters = torch.zeros(4, dtype=dtype)
    cas_increment_kernel[(50, )](counters, BLOCK=32, ADDRESSES=4)
    assert counters.tolist() == [50 * 8] * 4


def float_key(bits, dtype):
    """The order float atomic max/min give (integer atomics on the bits): sign clear -> the bits, sign set ->
    below every non-negative pattern, decreasing with the magnitude bits."""
    width = 8 * torch.tensor([], dtype=dtype).element_size()
    bits &= (1 << width) - 1
    sign = 1 << (width - 1)
    return bits if not bits & sign else -1 - (bits & (sign - 1))


def combine(kind, dtype, a, b):
    """The new memory value after `kind` with operand b on memory a (bit patterns as unsigned Python ints for
    floats, values for ints)."""
    if kind in ("and", "or", "xor"):
        r = {"and": a & b, "or": a | b, "xor": a ^ b}[kind]
        return wrap(r, dtype)
    if kind == "add":
        return wrap(a + b, dtype)
    if kind == "xchg":
        return b
    if dtype.is_floating_point:
        ka, kb = float_key(a, dtype), float_key(b, dtype)
        return (a if ka >= kb else b) if kind == "max" else (a if ka <= kb else b)
    return max(a, b) if kind == "max" else min(a, b)


def rmw_values(kind, dtype, n, seed, one_bit=False):
    """n operands in random order: the type's special values (extremes, zeros, infinities, NaN) among random ones."""
    m = max(n, 64)
    if dtype.is_floating_point:
        g = torch.Generator().manual_seed(seed)
        return wide_floats(dtype, m, seed=seed)[torch.randperm(m, generator=g)][:n].clone()
    values = sample_ints(m, dtype, seed=seed)
    values = [values[i] for i in np.random.RandomState(seed).permutation(m)][:n]
    if kind in ("and", "or") and one_bit:  # many operands on one address: each clears (sets) one even bit only,
        bits = [2 * (v % (BITS[dtype] // 2)) for v in values]  # so the odd bits of the initial value survive
        values = [wrap(~(1 << b), dtype) if kind == "and" else wrap(1 << b, dtype) for b in bits]
    return make_ints(values, dtype)


def as_bits(t):
    """Bit patterns (floats) or values (ints) as Python ints."""
    if t.dtype.is_floating_point:
        width = 8 * t.element_size()
        return [b & ((1 << width) - 1) for b in t.view(INT_VIEW[t.dtype]).tolist()]
    return to_ints(t)


RMW_CASES = ([(k, d) for k in ("and", "or", "xor") for d in (torch.int32, torch.int64, torch.uint32, torch.uint64)] +
             [(k, d) for k in ("max", "min") for d in (torch.uint32, torch.uint64, torch.float32, torch.float64)] +
             [("add", torch.uint32), ("add", torch.uint64), ("xchg", torch.uint64), ("xchg", torch.float64)])


@pytest.mark.parametrize("kind,dtype", RMW_CASES, ids=[f"{k}-{name(d)}" for k, d in RMW_CASES])
def test_atomic_rmw_uncontended(kind, dtype):
    """One address per lane: each lane returns the initial value and leaves combine(initial, val); masked-off
    lanes leave memory alone."""
    n = 200
    initial = rmw_values(kind, dtype, 256, seed=41)
    val = rmw_values(kind, dtype, 256, seed=42)[:n]
    target = initial.clone()
    old = torch.zeros(n, dtype=dtype)
    atomic_rmw_kernel[(4, )](target, val, old, n, KIND=kind, ADDRESSES=256, BLOCK=64)
    assert as_bits(old) == as_bits(initial)[:n]
    expected = [combine(kind, dtype, a, b) for a, b in zip(as_bits(initial), as_bits(val))] + as_bits(initial)[n:]
    assert as_bits(target) == expected


@pytest.mark.parametrize("kind,dtype", RMW_CASES, ids=[f"{k}-{name(d)}" for k, d in RMW_CASES])
def test_atomic_rmw_contended(kind, dtype):
    """Many programs on 4 addresses. and/or/xor/max/min/add commute, so the final value does not depend on the
    order; every lane's old value is a value the address held (for max/min: never past the final one)."""
    n = 1000
    initial = rmw_values(kind, dtype, 4, seed=43)
    val = rmw_values(kind, dtype, n, seed=44, one_bit=True)
    target = initial.clone()
    old = torch.zeros(n, dtype=dtype)
    atomic_rmw_kernel[(triton.cdiv(n, 64), )](target, val, old, n, KIND=kind, ADDRESSES=4, BLOCK=64)
    vals, olds, final = as_bits(val), as_bits(old), as_bits(target)
    for lane in range(4):
        lane_vals = vals[lane::4]
        if kind == "xchg":  # the old values and the final value are the initial value and every lane's value
            assert sorted(olds[lane::4] + [final[lane]]) == sorted(lane_vals + [as_bits(initial)[lane]])
            continue
        expected = as_bits(initial)[lane]
        for v in lane_vals:
            expected = combine(kind, dtype, expected, v)
        assert final[lane] == expected, f"address {lane}"
        if kind in ("max", "min"):
            key = (lambda b: float_key(b, dtype)) if dtype.is_floating_point else (lambda b: b)
            sign = 1 if kind == "max" else -1
            assert all(sign * key(o) <= sign * key(expected) for o in olds[lane::4])


def test_float_atomic_max_min_order_of_signed_zeros_and_nan():
    """Spelled-out cases of the integer-on-bits order: max(+0, -0) = +0, min(+0, -0) = -0, -1 < -0.0,
    +NaN is above +inf and -NaN below -inf."""
    nan, inf = math.nan, math.inf
    initial = torch.tensor([0.0, -0.0, -1.0, -0.0, inf, nan, -inf, -2.0])
    val = torch.tensor([-0.0, 0.0, -0.0, -1.0, nan, 1.0, -nan, -3.0])
    results = {}
    for kind in ("max", "min"):
        target = initial.clone()
        old = torch.empty(8)
        atomic_rmw_kernel[(1, )](target, val, old, 8, KIND=kind, ADDRESSES=8, BLOCK=8)
        results[kind] = target
        assert as_bits(old) == as_bits(initial)
    expect_max = torch.tensor([0.0, 0.0, -0.0, -0.0, nan, nan, -inf, -2.0])
    expect_min = torch.tensor([-0.0, -0.0, -1.0, -1.0, inf, 1.0, -nan, -3.0])
    assert_bits_equal(results["max"], expect_max, "atomic_max")
    assert_bits_equal(results["min"], expect_min, "atomic_min")
    assert torch.signbit(results["min"][6]) and torch.isnan(results["min"][6])  # the negative NaN wins min
    assert not torch.signbit(results["max"][4])


@triton.jit
def atomic_copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.atomic_load(src_ptr + offs, mask=mask, sem="acquire")
    tl.atomic_store(dst_ptr + offs, x, mask=mask, sem="release")


@triton.jit
def atomic_masked_load_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.atomic_load(src_ptr + offs, mask=offs < n, sem="relaxed"))


@pytest.mark.parametrize("dtype", UNSIGNED, ids=names(UNSIGNED))
def test_unsigned_atomic_load_store(dtype):
    n = 200
    values = sample_ints(n, dtype, seed=45)
    src = make_ints(values, dtype)
    dst = make_ints([5] * 256, dtype)
    atomic_copy_kernel[(4, )](src, dst, n, BLOCK=64)
    assert to_ints(dst) == values + [5] * 56
    out = make_ints([9] * 64, dtype)
    atomic_masked_load_kernel[(1, )](src, out, 10, BLOCK=64)
    assert to_ints(out) == values[:10] + [0] * 54  # a masked-off atomic load yields 0


@triton.jit
def bool_loop_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    seen = tl.zeros([BLOCK], dtype=tl.int1)
    for i in range(3):
        seen = seen | (x == i)
    tl.store(out_ptr + offs, seen)


def test_constant_bool_tensor_carried_by_a_loop():
    """Found while writing the compare-and-swap loops above (a bool `done` flag per lane)."""
    x = torch.arange(8, dtype=torch.int32)
    out = torch.zeros(8, dtype=torch.bool)
    bool_loop_kernel[(1, )](x, out, BLOCK=8)
    assert out.tolist() == [True] * 3 + [False] * 5


# ---------------------------------------------------------------------------------------------
# 4. data movement: gather, cat, join/split, histogram, flip, sort
# ---------------------------------------------------------------------------------------------

MOVE_DTYPES = [torch.int8, torch.int16, torch.int64, torch.uint8, torch.float16, torch.bfloat16, torch.float64,
               torch.uint16, torch.uint32, torch.uint64, torch.int32, torch.float32]


def block_values(shape, dtype, seed):
    """A block of the type's special values (NaN with a payload, -0.0, infinities, subnormals, extremes)
    and random values, in random order."""
    n = int(np.prod(shape))
    if dtype.is_floating_point:
        v = wide_floats(dtype, max(n, 64), seed=seed)[:n].clone()
        payload_nan = {torch.float64: 0x7FF8_0000_0000_0042, torch.float32: 0x7FC0_0042, torch.float16: 0x7E42,
                       torch.bfloat16: 0x7FC2}[dtype]
        v.view(INT_VIEW[dtype])[5] = payload_nan
    else:
        v = make_ints(sample_ints(max(n, 64), dtype, seed=seed)[:n], dtype)
    g = torch.Generator().manual_seed(seed)
    return v[torch.randperm(n, generator=g)].reshape(shape).contiguous()


def raw_bits(t):
    """Exact bit patterns, NaN payloads and signed zeros included, as an int64 numpy array."""
    if t.dtype.is_floating_point:
        return t.view(INT_VIEW[t.dtype]).numpy().astype(np.int64)
    return t.numpy().astype(np.uint64 if t.dtype == torch.uint64 else np.int64)


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out0_ptr, out1_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    src = tl.load(src_ptr + rows * N + cols)
    idx = tl.load(idx_ptr + rows * N + cols)
    tl.store(out1_ptr + rows * N + cols, tl.gather(src, idx, axis=1))
    # along axis 0 with fewer index rows than the source has
    idx0 = tl.load(idx_ptr + tl.arange(0, M // 2)[:, None] * N + cols) % M
    tl.store(out0_ptr + tl.arange(0, M // 2)[:, None] * N + cols, tl.gather(src, idx0, axis=0))


GATHER_INDEX = [torch.int32, torch.int64, torch.int16, torch.uint8, torch.int8, torch.uint16, torch.uint32,
                torch.uint64]
GATHER_CASES = ([(d, GATHER_INDEX[i % len(GATHER_INDEX)]) for i, d in enumerate(MOVE_DTYPES)] +
                [(torch.float32, i) for i in GATHER_INDEX[2:]])


@pytest.mark.parametrize("dtype,index_dtype", GATHER_CASES, ids=[f"{name(d)}-idx{name(i)}" for d, i in GATHER_CASES])
def test_gather(dtype, index_dtype):
    M, N = 8, 16
    src = block_values((M, N), dtype, seed=51)
    idx_np = np.random.RandomState(52).randint(0, N, (M, N))
    idx = torch.from_numpy(idx_np.astype(NP[index_dtype]))
    out1 = torch.empty(M, N, dtype=dtype)
    out0 = torch.empty(M // 2, N, dtype=dtype)
    gather_kernel[(1, )](src, idx, out0, out1, M=M, N=N)
    bits = raw_bits(src)
    assert np.array_equal(raw_bits(out1), np.take_along_axis(bits, idx_np, axis=1))
    assert np.array_equal(raw_bits(out0), np.take_along_axis(bits, idx_np[:M // 2] % M, axis=0))


@triton.jit
def cat_kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    c = tl.cat(tl.load(a_ptr + offs), tl.load(b_ptr + offs), can_reorder=True)
    tl.store(out_ptr + tl.arange(0, 2 * N), c)


@pytest.mark.filterwarnings("ignore:tl.cat\\(can_reorder=True\\) is deprecated")
@pytest.mark.parametrize("dtype", MOVE_DTYPES, ids=names(MOVE_DTYPES))
def test_cat_can_reorder(dtype):
    """tl.cat(can_reorder=True), the tt.cat op (deprecated in 3.9 but still the only way to get tt.cat)."""
    a, b = block_values(32, dtype, seed=53), block_values(32, dtype, seed=54)
    out = torch.empty(64, dtype=dtype)
    cat_kernel[(1, )](a, b, out, N=32)
    # can_reorder=True lets the result hold the 64 elements in any order: compare the multisets of bit patterns
    assert sorted(raw_bits(out).tolist()) == sorted(raw_bits(a).tolist() + raw_bits(b).tolist())


@triton.jit
def cat_dim_kernel(a_ptr, b_ptr, out0_ptr, out1_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(out0_ptr + tl.arange(0, 2 * M)[:, None] * N + tl.arange(0, N)[None, :], tl.cat(a, b, dim=0))
    tl.store(out1_ptr + tl.arange(0, M)[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :], tl.cat(a, b, dim=1))


CAT_DIM_DTYPES = [torch.int8, torch.uint16, torch.uint64, torch.bfloat16, torch.float16, torch.float64]


@pytest.mark.parametrize("dtype", CAT_DIM_DTYPES, ids=names(CAT_DIM_DTYPES))
def test_cat_deterministic_along_each_dim(dtype):
    """tl.cat with can_reorder=False (3.9's default: join + permute + reshape) keeps the order."""
    M, N = 4, 8
    a, b = block_values((M, N), dtype, seed=53), block_values((M, N), dtype, seed=54)
    out0, out1 = torch.empty(2 * M, N, dtype=dtype), torch.empty(M, 2 * N, dtype=dtype)
    cat_dim_kernel[(1, )](a, b, out0, out1, M=M, N=N)
    assert np.array_equal(raw_bits(out0), np.concatenate([raw_bits(a), raw_bits(b)], axis=0))
    assert np.array_equal(raw_bits(out1), np.concatenate([raw_bits(a), raw_bits(b)], axis=1))


@triton.jit
def join_split_kernel(a_ptr, b_ptr, joined_ptr, lo_ptr, hi_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    j = tl.join(a, b)  # M x N x 2
    tl.store(joined_ptr + offs[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], j)
    # split the other way round: a block whose last dim interleaves b and a
    lo, hi = tl.split(tl.join(b, a))
    tl.store(lo_ptr + offs, lo)
    tl.store(hi_ptr + offs, hi)


@pytest.mark.parametrize("dtype", MOVE_DTYPES, ids=names(MOVE_DTYPES))
def test_join_split(dtype):
    M, N = 4, 16
    a, b = block_values((M, N), dtype, seed=55), block_values((M, N), dtype, seed=56)
    joined = torch.empty(M, N, 2, dtype=dtype)
    lo, hi = torch.empty_like(a), torch.empty_like(a)
    join_split_kernel[(1, )](a, b, joined, lo, hi, M=M, N=N)
    assert np.array_equal(raw_bits(joined), np.stack([raw_bits(a), raw_bits(b)], axis=-1))
    assert np.array_equal(raw_bits(lo), raw_bits(b))
    assert np.array_equal(raw_bits(hi), raw_bits(a))


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS, mask=offs < n))


@pytest.mark.parametrize("bins", [4, 64, 256])
@pytest.mark.parametrize("dtype", [torch.int32, torch.uint32], ids=["int32", "uint32"])
def test_histogram(dtype, bins):
    """tl.histogram takes 32-bit integers only (the frontend rejects int8/int16/int64/uint8/floats)."""
    n = 300
    values = np.random.RandomState(57).randint(0, bins, n)
    values[:8] = [0, bins - 1, bins - 1, 0, 1, bins // 2, 0, bins - 1]
    x = torch.from_numpy(values.astype(NP[dtype]))
    out = torch.empty(bins, dtype=torch.int32)
    histogram_kernel[(1, )](x, out, n, BLOCK=512, BINS=bins)
    assert out.tolist() == np.bincount(values, minlength=bins).tolist()


@triton.jit
def flip_kernel(x_ptr, out0_ptr, out1_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out0_ptr + offs, tl.flip(x, 0))
    tl.store(out1_ptr + offs, tl.flip(x, 1))


@pytest.mark.parametrize("dtype", MOVE_DTYPES, ids=names(MOVE_DTYPES))
def test_flip_keeps_bits(dtype):
    M, N = 8, 32
    x = block_values((M, N), dtype, seed=58)
    out0, out1 = torch.empty_like(x), torch.empty_like(x)
    flip_kernel[(1, )](x, out0, out1, M=M, N=N)
    bits = raw_bits(x)
    assert np.array_equal(raw_bits(out0), bits[::-1])
    assert np.array_equal(raw_bits(out1), bits[:, ::-1])


@triton.jit
def sort_kernel(x_ptr, up_ptr, down_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x))
    tl.store(down_ptr + offs, tl.sort(x, descending=True))


SORT_DTYPES = MOVE_DTYPES[:10]  # int32, uint32 and float32 sort in test_scan_and_sort.py; each sort compiles slowly


@pytest.mark.parametrize("dtype", SORT_DTYPES, ids=names(SORT_DTYPES))
def test_sort_extremes(dtype):
    """Rows holding the type's extremes, infinities, signed zeros, subnormals and duplicates (no NaN: tl.sort
    compares with `>`, which orders no NaN)."""
    M, N = 2, 32
    x = block_values((M, N), dtype, seed=59)
    if dtype.is_floating_point:
        x[torch.isnan(x)] = 1.0
        x[0, :4] = to_dtype([0.0, -0.0, 0.0, -0.0], dtype)
    x[1, 10:16] = x[1, 0]  # duplicates
    up, down = torch.empty_like(x), torch.empty_like(x)
    sort_kernel[(1, )](x, up, down, M=M, N=N)
    if dtype.is_floating_point:
        expected = np.sort(x.double().numpy(), axis=1)
        assert np.array_equal(up.double().numpy(), expected)  # == : +0.0 and -0.0 may come in either order
        assert np.array_equal(down.double().numpy(), expected[:, ::-1])
    else:
        expected = np.sort(x.numpy(), axis=1)
        assert np.array_equal(up.numpy(), expected)
        assert np.array_equal(down.numpy(), expected[:, ::-1])
