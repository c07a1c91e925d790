"""tl.dot and tl.dot_scaled over the operand and accumulator types Triton 3.9 allows, against numpy.

What the frontend allows (triton/language/semantic.py, 3.9):
- tl.dot: any pair of fp8 types (fp8e4nv, fp8e5, fp8e4b8, fp8e5b16, fp8e4b15); otherwise both operands of
  one type among int8, uint8, fp16, bf16, fp32, fp64 -- but an integer dot must be int8 ("only int8
  supported!", so uint8 is left out) and accumulates in int32. fp32/bf16 accumulate in fp32 and fp64 in
  fp64; fp16 and fp8 operands accumulate in out_dtype, fp32 by default or fp16 when out_dtype=tl.float16
  (out_dtype=tl.bfloat16 is rejected). 2-D and 3-D (batched, [B, M, K] x [B, K, N]) blocks are allowed.
- tl.dot_scaled: formats e2m1, e4m3, e5m2, bf16, fp16 on either side; only e2m1 may be packed along the
  non-K dimension (lhs_k_pack/rhs_k_pack=False: two values per byte along M resp. N); out_dtype is fp32
  only; 3-D operands are allowed, with scales [B, M, K // 32] and [B, N, K // 32].

The fp8 products are exact in fp32, so where the inputs keep every partial sum exact (magnitudes in a
narrow band) the results are compared bit for bit; otherwise within the worst-case bound of any summation
order, K * u * sum_k |a_ik * b_kj| (u = the accumulator's unit roundoff).
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

TL = {torch.float32: tl.float32, torch.float16: tl.float16, torch.float64: tl.float64, torch.int32: tl.int32}
UNIT_ROUNDOFF = {torch.float32: 2.0**-24, torch.float16: 2.0**-11, torch.float64: 2.0**-53}


def name(dtype):
    return str(dtype).replace("torch.", "")


def exact_values(dtype, shape, low, high, seed):
    """Random values of `dtype` (any float type, fp8 included) with magnitudes in [low, high], random signs,
    and some zeros: every value of the type in that band is equally likely."""
    bits = {1: torch.uint8, 2: torch.int16}[torch.tensor([], dtype=dtype).element_size()]
    if bits == torch.uint8:
        every = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(dtype)
    else:
        every = torch.arange(-2**15, 2**15, dtype=torch.int32).to(torch.int16).view(dtype)
    magnitudes = every.float()
    pool = every[(magnitudes >= low) & (magnitudes <= high)]
    g = torch.Generator().manual_seed(seed)
    picks = pool[torch.randint(0, pool.numel(), shape, generator=g)].float()
    picks = torch.where(torch.rand(shape, generator=g) < 0.5, -picks, picks)
    picks[torch.rand(shape, generator=g) < 0.1] = 0.0
    return picks.to(dtype)


def assert_within_summation_bound(c, a, b, acc_dtype, what, acc=None):
    """|c - a @ b| <= K * u * (|a| @ |b|) elementwise (+ the final rounding of c), in float64."""
    a64, b64 = a.double(), b.double()
    exact = a64 @ b64 + (acc.double() if acc is not None else 0)
    K = a.shape[-1]
    bound = (K + 1) * UNIT_ROUNDOFF[acc_dtype] * (a64.abs() @ b64.abs() + (acc.double().abs() if acc is not None
                                                                            else 0))
    err = (c.double() - exact).abs()
    worst = int((err - bound).flatten().argmax())
    assert (err <= bound).all(), (f"{what}: {int((err > bound).sum())} results out of bound; worst got "
                                  f"{c.flatten()[worst].item()!r}, exact {exact.flatten()[worst].item()!r}, "
                                  f"bound {bound.flatten()[worst].item()!r}")


@triton.jit
def dot_kernel(a_ptr, b_ptr, acc_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               OUT_DTYPE: tl.constexpr, HAS_ACC: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if HAS_ACC:
        acc = tl.load(acc_ptr + rm[:, None] * N + rn[None, :])
        c = tl.dot(a, b, acc, out_dtype=OUT_DTYPE)
    else:
        c = tl.dot(a, b, out_dtype=OUT_DTYPE)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def run_dot(a, b, out_dtype, acc=None):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty(M, N, dtype=out_dtype)
    dot_kernel[(1, )](a, b, acc if acc is not None else c, c, M=M, N=N, K=K, OUT_DTYPE=TL[out_dtype],
                      HAS_ACC=acc is not None)
    return c


# ---------------------------------------------------------------------------------------------
# fp8 FNUZ operands (AMD's fp8e4b8 / fp8e5b16)
# ---------------------------------------------------------------------------------------------

FNUZ = [torch.float8_e4m3fnuz, torch.float8_e5m2fnuz]


@pytest.mark.parametrize("dtype", FNUZ, ids=["fp8e4b8", "fp8e5b16"])
def test_fnuz_dot_with_identity_decodes_every_byte(dtype):
    """a @ I with a holding all 256 bytes: each product is exact and the sum has one non-zero term, so c is
    a's value, and the row holding 0x80 (the only NaN, no -0.0 in FNUZ) is NaN throughout."""
    a = torch.arange(256, dtype=torch.int32).to(torch.uint8).reshape(16, 16).view(dtype)
    eye = torch.eye(16).to(dtype)
    c = run_dot(a, eye, torch.float32)
    expected = torch.from_numpy(a.double().numpy() @ eye.double().numpy()).float()
    assert torch.isnan(c[8]).all() and not torch.isnan(c[torch.arange(16) != 8]).any()
    assert torch.equal(c[torch.arange(16) != 8], expected[torch.arange(16) != 8])


FP8_PAIRS = [(torch.float8_e4m3fnuz, torch.float8_e4m3fnuz), (torch.float8_e5m2fnuz, torch.float8_e5m2fnuz),
             (torch.float8_e4m3fnuz, torch.float8_e5m2fnuz), (torch.float8_e5m2fnuz, torch.float8_e4m3fn),
             (torch.float8_e4m3fn, torch.float8_e4m3fnuz)]
FP8_NAMES = {torch.float8_e4m3fnuz: "e4b8", torch.float8_e5m2fnuz: "e5b16", torch.float8_e4m3fn: "e4nv"}


@pytest.mark.parametrize("out_dtype", [torch.float32, torch.float16], ids=["acc_fp32", "acc_fp16"])
@pytest.mark.parametrize("a_dtype,b_dtype", FP8_PAIRS, ids=[f"{FP8_NAMES[a]}x{FP8_NAMES[b]}" for a, b in FP8_PAIRS])
def test_fp8_fnuz_dot_exact(a_dtype, b_dtype, out_dtype):
    """Magnitudes in [0.25, 15] (products are multiples of 2^-10 below 2^8), K = 32: every partial sum is a
    multiple of 2^-10 below 2^13, exact in fp32's 24 bits whatever the order. For the fp16 accumulator (values
    in [1, 4]) the sums do not fit fp16's 11 bits: compared within the summation bound."""
    M, N, K = 16, 16, 32
    if out_dtype == torch.float32:
        a = exact_values(a_dtype, (M, K), 0.25, 15, seed=1)
        b = exact_values(b_dtype, (K, N), 0.25, 15, seed=2)
    else:
        a = exact_values(a_dtype, (M, K), 1, 4, seed=1)
        b = exact_values(b_dtype, (K, N), 1, 4, seed=2)
    c = run_dot(a, b, out_dtype)
    assert c.dtype == out_dtype
    if out_dtype == torch.float32:
        assert torch.equal(c, (a.double() @ b.double()).float())
    else:
        assert_within_summation_bound(c, a, b, torch.float16, "fp8 -> fp16")


def test_fp8_fnuz_dot_fp16_accumulator_exact():
    """fp16 accumulation, exact: entries in {0, ±0.5, ±1, ±1.5, ±2} keep every partial sum a multiple of 0.25
    below 2^7: exact in fp16, whatever the order."""
    M, N, K = 16, 16, 32
    g = torch.Generator().manual_seed(3)
    choices = torch.tensor([0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0])
    a = choices[torch.randint(0, 9, (M, K), generator=g)].to(torch.float8_e4m3fnuz)
    b = choices[torch.randint(0, 9, (K, N), generator=g)].to(torch.float8_e5m2fnuz)
    acc = choices[torch.randint(0, 9, (M, N), generator=g)].to(torch.float16) * 8
    c = run_dot(a, b, torch.float16, acc=acc)
    assert torch.equal(c, (a.double() @ b.double() + acc.double()).half())


# ---------------------------------------------------------------------------------------------
# int8 -> int32, fp64, fp16 accumulator
# ---------------------------------------------------------------------------------------------


def test_int8_dot_accumulates_in_int32():
    M, N, K = 16, 32, 64
    g = torch.Generator().manual_seed(4)
    a = torch.randint(-128, 128, (M, K), generator=g).to(torch.int8)
    b = torch.randint(-128, 128, (K, N), generator=g).to(torch.int8)
    a[0, :] = -128  # row 0 x column 0: 64 * 16384 = 2^20, no overflow yet
    b[:, 0] = -128
    c = run_dot(a, b, torch.int32)
    assert c.dtype == torch.int32
    assert torch.equal(c, a.long() @ b.long())  # |sum| <= 64 * 2^14 = 2^20: exact, nothing wraps


def test_int8_dot_with_int32_accumulator_wraps_around():
    M, N, K = 16, 16, 32
    g = torch.Generator().manual_seed(5)
    a = torch.randint(-128, 128, (M, K), generator=g).to(torch.int8)
    b = torch.randint(-128, 128, (K, N), generator=g).to(torch.int8)
    acc = torch.randint(-1000, 1000, (M, N), generator=g, dtype=torch.int32)
    acc[0, :] = 2**31 - 10  # near INT32_MAX: a positive product wraps to negative (two's complement)
    a[0], b[:, 0] = 100, 100  # 32 * 10000 more
    c = run_dot(a, b, torch.int32, acc=acc)
    exact = a.long() @ b.long() + acc.long()
    wrapped = ((exact + 2**31) % 2**32 - 2**31).to(torch.int32)
    assert c[0, 0].item() < 0
    assert torch.equal(c, wrapped)


def test_fp64_dot():
    M, N, K = 16, 16, 64
    g = torch.Generator().manual_seed(6)
    a = torch.randn(M, K, generator=g, dtype=torch.float64) * 2.0**torch.randint(-40, 40, (M, K), generator=g)
    b = torch.randn(K, N, generator=g, dtype=torch.float64)
    c = run_dot(a, b, torch.float64)
    assert c.dtype == torch.float64
    assert_within_summation_bound(c, a, b, torch.float64, "fp64")
    # values far beyond fp32's range and precision would be lost if the dot went through fp32
    a2 = torch.full((M, K), 1e200, dtype=torch.float64)
    a2[:, 1] = 1 + 2.0**-40
    b2 = torch.zeros(K, N, dtype=torch.float64)
    b2[1] = 1.0
    assert torch.equal(run_dot(a2, b2, torch.float64), a2[:, 1:2].expand(M, N).contiguous())


def test_fp64_dot_exact_integers():
    M, N, K = 16, 16, 32
    g = torch.Generator().manual_seed(7)
    a = torch.randint(-2**20, 2**20, (M, K), generator=g).double()
    b = torch.randint(-2**20, 2**20, (K, N), generator=g).double()
    acc = torch.randint(-2**40, 2**40, (M, N), generator=g).double()
    assert torch.equal(run_dot(a, b, torch.float64, acc=acc), a @ b + acc)  # below 2^46: exact


def test_fp16_dot_fp16_accumulator():
    M, N, K = 16, 32, 64
    g = torch.Generator().manual_seed(8)
    a = torch.randn(M, K, generator=g).half()
    b = torch.randn(K, N, generator=g).half()
    c = run_dot(a, b, torch.float16)
    assert c.dtype == torch.float16
    assert_within_summation_bound(c, a, b, torch.float16, "fp16 -> fp16")
    # exact: small integers keep every partial sum an integer below 2^11
    ai = torch.randint(-4, 5, (M, K), generator=g).half()
    bi = torch.randint(-4, 5, (K, N), generator=g).half()
    acc = torch.randint(-500, 500, (M, N), generator=g).half()
    assert torch.equal(run_dot(ai, bi, torch.float16, acc=acc), (ai.double() @ bi.double() + acc.double()).half())


@pytest.mark.parametrize("n", [16, 8], ids=["dot_product_instructions", "widened"])
@pytest.mark.parametrize("k", [1024, 2048], ids=["k1024_exact_in_f32", "k2048_beyond_f32"])
def test_int8_dot_long_k_is_exact(k, n):
    """At K = 1024 the extreme row sums 1024 * 2^14 = 2^24, the largest integer f32 still holds next to its
    neighbours (computed in f32 it must stay exact); at K = 2048 the sum no longer fits and must not go
    through f32 at all. N = 16 takes vpdpbusd where the host has AVX512-VNNI; N = 8 (narrower than a
    register) the path every host without it takes."""
    M, N = 16, n
    g = torch.Generator().manual_seed(12)
    a = torch.randint(-128, 128, (M, k), generator=g).to(torch.int8)
    b = torch.randint(-128, 128, (k, N), generator=g).to(torch.int8)
    a[0, :], b[:, 0] = -128, -128
    a[1, :], b[:, 1] = -128, 127
    a[2, ::2], a[2, 1::2], b[:, 2] = 127, 126, 127  # odd sums near the top: one unit apart matters
    c = run_dot(a, b, torch.int32)
    assert c[0, 0].item() == k * 2**14
    assert torch.equal(c, a.long() @ b.long())


@pytest.mark.parametrize("n", [32, 8], ids=["dot_product_instructions", "widened"])
@pytest.mark.parametrize("in_dtype", [torch.bfloat16, torch.float16])
def test_half_operands_accumulate_in_fp32(in_dtype, n):
    """bf16 (vdpbf16ps where the host has AVX512-BF16, N = 32) and fp16 operands, and the widened f32 path
    every host takes for N = 8: within the fp32 summation bound of the exact product."""
    M, K = 16, 64
    g = torch.Generator().manual_seed(15)
    a = torch.randn(M, K, generator=g).to(in_dtype)
    b = torch.randn(K, n, generator=g).to(in_dtype)
    c = run_dot(a, b, torch.float32)
    assert_within_summation_bound(c, a, b, torch.float32, f"{in_dtype} -> fp32")


def half_rounding_error_bound(c, exact, magnitudes, k):
    """Half an fp16 ulp of the result (its one rounding) plus an fp32 summation bound."""
    exponent = torch.floor(torch.log2(exact.abs().clamp(min=2.0**-14)))
    return 2.0**(exponent - 11) + (k + 1) * 2.0**-24 * magnitudes


@pytest.mark.parametrize("has_acc", [False, True], ids=["no_acc", "acc"])
def test_fp16_accumulator_rounds_once(has_acc):
    """A fp16 accumulator is rounded once per result (a GPU sums a K step in wide registers), not after every
    addition: the error stays within half an fp16 ulp of the exact sum plus an fp32 summation error, where
    rounding after each of K = 64 additions is off by many ulps."""
    M, N, K = 16, 32, 64
    g = torch.Generator().manual_seed(13)
    a = torch.randn(M, K, generator=g).half()
    b = torch.randn(K, N, generator=g).half()
    acc = torch.randn(M, N, generator=g).half() if has_acc else None
    c = run_dot(a, b, torch.float16, acc=acc)
    extra = acc.double() if has_acc else 0
    exact = a.double() @ b.double() + extra
    magnitudes = a.double().abs() @ b.double().abs() + (acc.double().abs() if has_acc else 0)
    err = (c.double() - exact).abs()
    assert (err <= half_rounding_error_bound(c, exact, magnitudes, K)).all(), float(err.max())


def test_batched_fp16_accumulator_rounds_once():
    B, M, N, K = 2, 16, 16, 64
    g = torch.Generator().manual_seed(14)
    a = torch.randn(B, M, K, generator=g).half()
    b = torch.randn(B, K, N, generator=g).half()
    c = torch.empty(B, M, N, dtype=torch.float16)
    batched_dot_kernel[(1, )](a, b, c, c, B=B, M=M, N=N, K=K, OUT_DTYPE=tl.float16, HAS_ACC=False)
    exact = torch.bmm(a.double(), b.double())
    err = (c.double() - exact).abs()
    bound = half_rounding_error_bound(c, exact, torch.bmm(a.double().abs(), b.double().abs()), K)
    assert (err <= bound).all(), float(err.max())


# ---------------------------------------------------------------------------------------------
# 3-D (batched) dots
# ---------------------------------------------------------------------------------------------


@triton.jit
def batched_dot_kernel(a_ptr, b_ptr, acc_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                       K: tl.constexpr, OUT_DTYPE: tl.constexpr, HAS_ACC: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk_col = tl.arange(0, K)[None, None, :]
    rk_row = tl.arange(0, K)[None, :, None]
    a = tl.load(a_ptr + rb * M * K + rm * K + rk_col)  # B x M x K
    b = tl.load(b_ptr + rb * K * N + rk_row * N + rn)  # B x K x N
    if HAS_ACC:
        acc = tl.load(acc_ptr + rb * M * N + rm * N + rn)
        c = tl.dot(a, b, acc, out_dtype=OUT_DTYPE)
    else:
        c = tl.dot(a, b, out_dtype=OUT_DTYPE)
    tl.store(c_ptr + rb * M * N + rm * N + rn, c)


BATCHED = [(torch.float32, torch.float32), (torch.float16, torch.float32), (torch.bfloat16, torch.float32),
           (torch.float16, torch.float16), (torch.int8, torch.int32), (torch.float64, torch.float64),
           (torch.float8_e4m3fnuz, torch.float32)]


@pytest.mark.parametrize("has_acc", [False, True], ids=["no_acc", "acc"])
@pytest.mark.parametrize("in_dtype,out_dtype", BATCHED, ids=[f"{name(i)}-{name(o)}" for i, o in BATCHED])
def test_batched_dot(in_dtype, out_dtype, has_acc):
    """Exact inputs (small integers: every partial sum is an integer below 2^11), so every batch must match
    a @ b bit for bit; a swapped batch or a batch folded into M or N would not."""
    B, M, N, K = 4, 16, 16, 32
    g = torch.Generator().manual_seed(9)
    a = torch.randint(-4, 5, (B, M, K), generator=g).to(in_dtype)
    b = torch.randint(-4, 5, (B, K, N), generator=g).to(in_dtype)
    acc = torch.randint(-100, 100, (B, M, N), generator=g).to(out_dtype) if has_acc else None
    c = torch.empty(B, M, N, dtype=out_dtype)
    batched_dot_kernel[(1, )](a, b, acc if has_acc else c, c, B=B, M=M, N=N, K=K, OUT_DTYPE=TL[out_dtype],
                              HAS_ACC=has_acc)
    expected = torch.bmm(a.double(), b.double()) + (acc.double() if has_acc else 0)
    assert torch.equal(c, expected.to(out_dtype))


# ---------------------------------------------------------------------------------------------
# tl.dot_scaled: e2m1 packed along N, an fp16 operand, 3-D operands
# ---------------------------------------------------------------------------------------------

E2M1_VALUES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def decode_e2m1(packed, axis):
    """Two e2m1 values per byte along `axis`, the low nibble first (the element with the lower index)."""
    p = np.moveaxis(packed.numpy().astype(np.int64), axis, -1)
    nibbles = np.stack([p & 0xF, p >> 4], axis=-1).reshape(*p.shape[:-1], 2 * p.shape[-1])
    values = E2M1_VALUES[nibbles & 7] * np.where(nibbles & 8, -1.0, 1.0)
    return np.moveaxis(values, -1, axis)


def decode_scale(scale):
    """e8m0 bytes: 2^(s - 127), 255 is NaN."""
    s = scale.numpy().astype(np.float64)
    return np.where(s == 255, np.nan, np.exp2(s - 127))


def check_dot_scaled(c, a_values, b_values):
    """a_values [.., M, K] and b_values [.., K, N], already decoded and scaled (float64, exact): c must be within
    the fp32 summation bound of their product."""
    exact = a_values @ b_values
    K = a_values.shape[-1]
    bound = (K + 1) * 2.0**-24 * (np.abs(a_values) @ np.abs(b_values))
    err = np.abs(c.double().numpy() - exact)
    assert (err <= bound).all(), f"{int((err > bound).sum())} results out of bound; max error {err.max()}"
    assert np.abs(exact).max() > 0


@triton.jit
def dot_scaled_n_packed_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                               K: tl.constexpr, A_FORMAT: tl.constexpr, A_K_PACK: tl.constexpr):
    """rhs: e2m1 packed along N ([K, N // 2] bytes, rhs_k_pack=False); lhs: A_FORMAT, e2m1 packed along K
    ([M, K // 2]) or along M ([M // 2, K]) when A_K_PACK is False, or e4m3 ([M, K])."""
    A_ROWS: tl.constexpr = M if A_K_PACK else M // 2
    A_COLS: tl.constexpr = K // 2 if (A_FORMAT == "e2m1" and A_K_PACK) else K
    a = tl.load(a_ptr + tl.arange(0, A_ROWS)[:, None] * A_COLS + tl.arange(0, A_COLS)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :])
    rs = tl.arange(0, K // 32)
    a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32) + rs[None, :])
    b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * (K // 32) + rs[None, :])
    c = tl.dot_scaled(a, a_scale, A_FORMAT, b, b_scale, "e2m1", lhs_k_pack=A_K_PACK, rhs_k_pack=False)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


N_PACKED_CASES = [("e2m1", True), ("e2m1", False), ("e4m3", True)]


@pytest.mark.parametrize("a_format,a_k_pack", N_PACKED_CASES,
                         ids=["lhs_e2m1_k_packed", "lhs_e2m1_m_packed", "lhs_e4m3"])
def test_dot_scaled_rhs_e2m1_packed_along_n(a_format, a_k_pack):
    M, N, K = 16, 32, 64
    g = torch.Generator().manual_seed(10)
    if a_format == "e2m1":
        a = torch.randint(0, 256, (M, K // 2) if a_k_pack else (M // 2, K), generator=g, dtype=torch.uint8)
        av = decode_e2m1(a, axis=1 if a_k_pack else 0)
    else:
        a = torch.randn(M, K, generator=g).to(torch.float8_e4m3fn)
        av = a.double().numpy()
    b = torch.randint(0, 256, (K, N // 2), generator=g, dtype=torch.uint8)
    a_scale = torch.randint(118, 136, (M, K // 32), generator=g, dtype=torch.uint8)
    b_scale = torch.randint(118, 136, (N, K // 32), generator=g, dtype=torch.uint8)
    c = torch.empty(M, N)
    dot_scaled_n_packed_kernel[(1, )](a, a_scale, b, b_scale, c, M=M, N=N, K=K, A_FORMAT=a_format,
                                      A_K_PACK=a_k_pack)
    av = av * np.repeat(decode_scale(a_scale), 32, axis=1)
    bv = decode_e2m1(b, axis=1) * np.repeat(decode_scale(b_scale), 32, axis=1).T  # b_scale is [N, K // 32]
    check_dot_scaled(c, av, bv)


@triton.jit
def dot_scaled_fp16_rhs_kernel(a_ptr, a_scale_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                               A_FORMAT: tl.constexpr):
    A_K: tl.constexpr = K // 2 if A_FORMAT == "e2m1" else K
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * A_K + tl.arange(0, A_K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    if A_FORMAT == "fp16":
        c = tl.dot_scaled(a, None, "fp16", b, None, "fp16")
    else:
        a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
        c = tl.dot_scaled(a, a_scale, A_FORMAT, b, None, "fp16")
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


@pytest.mark.parametrize("a_format", ["e2m1", "e4m3", "e5m2", "fp16"])
def test_dot_scaled_fp16_rhs(a_format):
    M, N, K = 16, 16, 64
    g = torch.Generator().manual_seed(11)
    a_scale = torch.randint(118, 136, (M, K // 32), generator=g, dtype=torch.uint8)
    if a_format == "e2m1":
        a = torch.randint(0, 256, (M, K // 2), generator=g, dtype=torch.uint8)
        av = decode_e2m1(a, axis=1)
    else:
        a = torch.randn(M, K, generator=g).to({"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2,
                                               "fp16": torch.float16}[a_format])
        av = a.double().numpy()
    if a_format != "fp16":
        av = av * np.repeat(decode_scale(a_scale), 32, axis=1)
    b = (torch.randn(K, N, generator=g) * 4).half()
    b[0, 0], b[1, 1] = 2.0**-20, 60000.0  # an fp16 subnormal and a value near fp16's largest
    c = torch.empty(M, N)
    dot_scaled_fp16_rhs_kernel[(1, )](a, a_scale, b, c, M=M, N=N, K=K, A_FORMAT=a_format)
    check_dot_scaled(c, av, b.double().numpy())


@triton.jit
def batched_dot_scaled_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr,
                              N: tl.constexpr, K: tl.constexpr):
    """lhs e2m1 [B, M, K // 2] (packed along K) with scales [B, M, K // 32]; rhs e4m3 [B, K, N] with scales
    [B, N, K // 32]."""
    rb = tl.arange(0, B)[:, None, None]
    a = tl.load(a_ptr + rb * (M * K // 2) + tl.arange(0, M)[None, :, None] * (K // 2) +
                tl.arange(0, K // 2)[None, None, :])
    b = tl.load(b_ptr + rb * (K * N) + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    rs = tl.arange(0, K // 32)[None, None, :]
    a_scale = tl.load(a_scale_ptr + rb * (M * K // 32) + tl.arange(0, M)[None, :, None] * (K // 32) + rs)
    b_scale = tl.load(b_scale_ptr + rb * (N * K // 32) + tl.arange(0, N)[None, :, None] * (K // 32) + rs)
    c = tl.dot_scaled(a, a_scale, "e2m1", b, b_scale, "e4m3")
    tl.store(c_ptr + rb * (M * N) + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)


def test_batched_dot_scaled():
    B, M, N, K = 2, 16, 16, 64
    g = torch.Generator().manual_seed(12)
    a = torch.randint(0, 256, (B, M, K // 2), generator=g, dtype=torch.uint8)
    b = torch.randn(B, K, N, generator=g).to(torch.float8_e4m3fn)
    a_scale = torch.randint(118, 136, (B, M, K // 32), generator=g, dtype=torch.uint8)
    b_scale = torch.randint(118, 136, (B, N, K // 32), generator=g, dtype=torch.uint8)
    c = torch.empty(B, M, N)
    batched_dot_scaled_kernel[(1, )](a, a_scale, b, b_scale, c, B=B, M=M, N=N, K=K)
    av = decode_e2m1(a, axis=2) * np.repeat(decode_scale(a_scale), 32, axis=2)
    bv = b.double().numpy() * np.repeat(decode_scale(b_scale), 32, axis=2).transpose(0, 2, 1)
    check_dot_scaled(c, av, bv)
