"""tl.dot_scaled: microscaled matrix products, against a reference written here.

Each operand is decoded to exact f32 values (e2m1: two values per byte, low nibble first,
packed along K unless *_k_pack=False; e4m3/e5m2: fp8; bf16/fp16 as is), each value is
multiplied by 2^(s - 127) for its e8m0 scale byte s (one per 32 values along K; 255 is NaN),
and the product is accumulated in f32.
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

E2M1_VALUES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=np.float64)


def decode_e2m1(packed, axis):
    """Unpacks two e2m1 values per byte along `axis` (low nibble first)."""
    packed = np.moveaxis(packed.numpy().astype(np.uint8), axis, -1)
    nibbles = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(*packed.shape[:-1], -1)
    values = E2M1_VALUES[nibbles & 7] * np.where(nibbles & 8, -1.0, 1.0)
    return np.moveaxis(values, -1, axis)


def decode_operand(x, fmt, packed_axis):
    if fmt == "e2m1":
        return decode_e2m1(x, packed_axis)
    return x.double().numpy()


def decode_scale(scale):
    s = scale.numpy().astype(np.uint8).astype(np.float64)
    return np.where(s == 255, np.nan, np.exp2(s - 127))


def make_operand(fmt, shape):
    if fmt == "e2m1":
        return torch.randint(0, 256, shape, dtype=torch.uint8)
    dtype = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "bf16": torch.bfloat16, "fp16": torch.float16}[fmt]
    return torch.randn(shape).to(dtype)


@triton.jit
def _dot_scaled_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                       K: tl.constexpr, A_FORMAT: tl.constexpr, B_FORMAT: tl.constexpr, A_SCALED: tl.constexpr,
                       B_SCALED: tl.constexpr):
    A_K: tl.constexpr = K // 2 if A_FORMAT == "e2m1" else K
    B_K: tl.constexpr = K // 2 if B_FORMAT == "e2m1" else K
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    a = tl.load(a_ptr + rm[:, None] * A_K + tl.arange(0, A_K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, B_K)[:, None] * N + rn[None, :])
    rs = tl.arange(0, K // 32)
    a_scale = tl.load(a_scale_ptr + rm[:, None] * (K // 32) + rs[None, :]) if A_SCALED else None
    b_scale = tl.load(b_scale_ptr + rn[:, None] * (K // 32) + rs[None, :]) if B_SCALED else None
    c = tl.dot_scaled(a, a_scale, A_FORMAT, b, b_scale, B_FORMAT)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


CASES = [("e2m1", "e2m1", True, True), ("e4m3", "e4m3", True, True), ("e5m2", "e5m2", True, True),
         ("e2m1", "e4m3", True, True), ("e4m3", "e2m1", True, True), ("bf16", "e2m1", False, True),
         ("e5m2", "bf16", True, False), ("fp16", "e4m3", False, True)]


@pytest.mark.parametrize("a_format,b_format,a_scaled,b_scaled", CASES,
                         ids=[f"{a}x{b}" + ("" if sa and sb else "-unscaled") for a, b, sa, sb in CASES])
def test_dot_scaled_matches_reference(a_format, b_format, a_scaled, b_scaled):
    M, N, K = 16, 32, 64
    a = make_operand(a_format, (M, K // 2 if a_format == "e2m1" else K))
    b = make_operand(b_format, (K // 2 if b_format == "e2m1" else K, N))
    # Scales near 127 keep products in range; 0 and 254 exercise the extremes.
    a_scale = torch.randint(120, 134, (M, K // 32), dtype=torch.uint8)
    b_scale = torch.randint(120, 134, (N, K // 32), dtype=torch.uint8)
    c = torch.empty(M, N)
    _dot_scaled_kernel[(1, )](a, a_scale, b, b_scale, c, M=M, N=N, K=K, A_FORMAT=a_format, B_FORMAT=b_format,
                              A_SCALED=a_scaled, B_SCALED=b_scaled)
    av = decode_operand(a, a_format, packed_axis=1)
    bv = decode_operand(b, b_format, packed_axis=0)
    if a_scaled:
        av = av * np.repeat(decode_scale(a_scale), 32, axis=1)
    if b_scaled:
        bv = bv * np.repeat(decode_scale(b_scale), 32, axis=1).T
    expected = av @ bv
    np.testing.assert_allclose(c.double().numpy(), expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


def test_nan_scale_poisons_its_rows_only():
    M, N, K = 16, 16, 64
    a = make_operand("e4m3", (M, K))
    b = make_operand("e4m3", (K, N))
    a_scale = torch.full((M, K // 32), 127, dtype=torch.uint8)
    a_scale[3, 1] = 255
    b_scale = torch.full((N, K // 32), 127, dtype=torch.uint8)
    c = torch.empty(M, N)
    _dot_scaled_kernel[(1, )](a, a_scale, b, b_scale, c, M=M, N=N, K=K, A_FORMAT="e4m3", B_FORMAT="e4m3",
                              A_SCALED=True, B_SCALED=True)
    assert torch.isnan(c[3]).all()
    assert not torch.isnan(c[torch.arange(M) != 3]).any()
    torch.testing.assert_close(c[0].double(), a[0].double() @ b.double(), rtol=1e-6, atol=1e-6)


@triton.jit
def _dot_scaled_m_packed_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # lhs e2m1 packed along M: [M // 2, K] bytes.
    a = tl.load(a_ptr + tl.arange(0, M // 2)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    c = tl.dot_scaled(a, None, "e2m1", b, None, "bf16", lhs_k_pack=False)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


def test_e2m1_packed_along_m():
    M, N, K = 16, 16, 32
    a = make_operand("e2m1", (M // 2, K))
    b = make_operand("bf16", (K, N))
    c = torch.empty(M, N)
    _dot_scaled_m_packed_kernel[(1, )](a, b, c, M=M, N=N, K=K)
    expected = decode_e2m1(a, axis=0) @ b.double().numpy()
    np.testing.assert_allclose(c.double().numpy(), expected, rtol=1e-5, atol=1e-5)
