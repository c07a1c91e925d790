"""tl.map_elementwise: a scalar function with control flow mapped over tiles.

With pack = p each call receives p elements of every input and returns p values of every
result; on the CPU a call's elements are p consecutive elements of the tile in row-major
order (a GPU groups the elements one thread holds, which the layout decides).
"""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def _selu_kernel(x_ptr, y_ptr, alpha, R: tl.constexpr, C: tl.constexpr):
    offsets = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offsets)
    tl.store(y_ptr + offsets, tl.map_elementwise(_selu_scalar, x, alpha))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_branchy_scalar_function(dtype):
    x = torch.randn(8, 16, dtype=dtype)
    y = torch.empty_like(x)
    _selu_kernel[(1, )](x, y, 1.5, R=8, C=16)
    torch.testing.assert_close(y, torch.where(x > 0, x, 1.5 * (torch.exp(x) - 1)))


@triton.jit
def _divmod_scalar(a, b):
    if b == 0:
        return 0, a
    return a // b, a % b


@triton.jit
def _divmod_kernel(a_ptr, b_ptr, q_ptr, r_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    q, r = tl.map_elementwise(_divmod_scalar, tl.load(a_ptr + offsets), tl.load(b_ptr + offsets))
    tl.store(q_ptr + offsets, q)
    tl.store(r_ptr + offsets, r)


def test_two_results_and_an_early_return():
    a = torch.randint(-100, 100, (64, ), dtype=torch.int32)
    b = torch.randint(-5, 5, (64, ), dtype=torch.int32)
    q, r = torch.empty_like(a), torch.empty_like(a)
    _divmod_kernel[(1, )](a, b, q, r, N=64)
    safe_b = torch.where(b == 0, 1, b)
    expected_q = torch.where(b == 0, 0, torch.div(a, safe_b, rounding_mode="trunc"))
    expected_r = torch.where(b == 0, a, torch.fmod(a, safe_b))
    assert torch.equal(q, expected_q) and torch.equal(r, expected_r)


@triton.jit
def _scale2(x0, x1, s0, s1):
    return x0 * s0, x1 * s1


@triton.jit
def _scale4(x0, x1, x2, x3, s0, s1, s2, s3):
    return x0 * s0, x1 * s1, x2 * s2, x3 * s3


@triton.jit
def _packed_kernel(x_ptr, s_ptr, y_ptr, PACK: tl.constexpr, R: tl.constexpr, C: tl.constexpr):
    offsets = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offsets)
    s = tl.load(s_ptr + offsets)
    if PACK == 2:
        y = tl.map_elementwise(_scale2, x, s, pack=2)[0]  # a tuple: one result of 2 lanes
    else:
        y = tl.map_elementwise(_scale4, x, s, pack=4)[0]
    tl.store(y_ptr + offsets, y)


@pytest.mark.parametrize("pack", [2, 4])
def test_packed_calls_cover_every_element(pack):
    x = torch.randn(4, 8)
    s = torch.randn(4, 8)
    y = torch.empty_like(x)
    _packed_kernel[(1, )](x, s, y, PACK=pack, R=4, C=8)
    torch.testing.assert_close(y, x * s)


@triton.jit
def _pair_sum_diff(a0, a1):
    return a0 + a1, a0 - a1


@triton.jit
def _pairs_kernel(x_ptr, y_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    tl.store(y_ptr + offsets, tl.map_elementwise(_pair_sum_diff, tl.load(x_ptr + offsets), pack=2)[0])


def test_a_pack_is_consecutive_elements():
    x = torch.arange(8, dtype=torch.float32) ** 2
    y = torch.empty_like(x)
    _pairs_kernel[(1, )](x, y, N=8)
    pairs = x.view(4, 2)
    expected = torch.stack([pairs[:, 0] + pairs[:, 1], pairs[:, 0] - pairs[:, 1]], dim=1).flatten()
    assert torch.equal(y, expected)
