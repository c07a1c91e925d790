"""Matmul with tl.dot and a K loop, with edge masks."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                  stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def matmul(a, b, out_dtype=torch.float32, blocks=(32, 32, 32)):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), dtype=out_dtype)
    bm, bn, bk = blocks
    grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                        c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
    return c


@pytest.mark.parametrize("M,N,K", [(32, 32, 32), (64, 96, 128), (33, 65, 17), (100, 3, 250), (5, 7, 300)])
def test_matmul_fp32(M, N, K):
    a, b = torch.randn(M, K), torch.randn(K, N)
    torch.testing.assert_close(matmul(a, b), a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("in_dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("M,N,K", [(64, 64, 64), (50, 70, 90)])
def test_matmul_half_inputs_fp32_accumulation(in_dtype, M, N, K):
    a, b = torch.randn(M, K).to(in_dtype), torch.randn(K, N).to(in_dtype)
    expected = a.float() @ b.float()
    torch.testing.assert_close(matmul(a, b), expected, rtol=1e-4, atol=1e-4)


def test_matmul_fp16_output():
    a, b = torch.randn(48, 80).half(), torch.randn(80, 40).half()
    out = matmul(a, b, out_dtype=torch.float16)
    torch.testing.assert_close(out, (a.float() @ b.float()).half(), rtol=1e-2, atol=1e-2)


def test_matmul_transposed_operand_strides():
    a = torch.randn(70, 40).t()  # 40 x 70, column-major
    b = torch.randn(70, 50)
    torch.testing.assert_close(matmul(a, b), a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("blocks", [(16, 16, 16), (64, 32, 16), (16, 64, 64)])
def test_matmul_block_shapes(blocks):
    a, b = torch.randn(70, 90), torch.randn(90, 110)
    torch.testing.assert_close(matmul(a, b, blocks=blocks), a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def wrapped_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr, UNSIGNED: tl.constexpr):
    """Triton's tutorial keeps loads in bounds by wrapping row and column offsets with `%`."""
    if UNSIGNED:
        rows = (tl.program_id(0).to(tl.uint32) * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.uint32)) % M.to(tl.uint32)
        cols = (tl.program_id(1).to(tl.uint32) * BLOCK_N + tl.arange(0, BLOCK_N).to(tl.uint32)) % N.to(tl.uint32)
    else:
        rows = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        cols = (tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptr + rows[:, None] * K + (k * BLOCK_K + ks)[None, :], mask=ks[None, :] < K - k * BLOCK_K,
                    other=0.0)
        b = tl.load(b_ptr + (k * BLOCK_K + ks)[:, None] * N + cols[None, :], mask=ks[:, None] < K - k * BLOCK_K,
                    other=0.0)
        acc = tl.dot(a, b, acc)
    out_rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + out_rows[:, None] * N + out_cols[None, :], acc,
             mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


@pytest.mark.parametrize("unsigned", [False, True], ids=["remsi", "remui"])
@pytest.mark.parametrize("M,N,K", [(64, 64, 32), (100, 72, 40), (20, 16, 16)])
def test_matmul_with_wrapped_offsets(M, N, K, unsigned):
    """Blocks that wrap (the last along M or N, or all when a dimension is below its block) and blocks that
    do not (their loads run on consecutive offsets) give the same product; where the offsets wrap, the
    wrapped rows and columns are loaded and the stores drop them."""
    a, b = torch.randn(M, K), torch.randn(K, N)
    c = torch.empty(M, N)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    wrapped_matmul_kernel[grid](a, b, c, M, N, K, BLOCK_M=32, BLOCK_N=32, BLOCK_K=16, UNSIGNED=unsigned)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def static_wrapped_matmul_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Inductor's matmul template with static shapes: the sizes are constants, `% M` a remainder by a constant."""
    rows = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = (tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptr + rows[:, None] * K + (k * BLOCK_K + ks)[None, :])
        b = tl.load(b_ptr + (k * BLOCK_K + ks)[:, None] + cols[None, :] * K)  # B column-major (x @ w.t())
        acc += tl.dot(a, b)
    out_rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + out_rows[:, None] * N + out_cols[None, :], acc,
             mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


@pytest.mark.parametrize("M,N", [(64, 96), (80, 72), (16, 24)])
def test_matmul_with_offsets_wrapped_by_constants(M, N):
    """Blocks inside the constant bounds read their tiles as blocks, the last block (which wraps) element by
    element; both give the product."""
    K = 64
    a, w = torch.randn(M, K), torch.randn(N, K)
    c = torch.empty(M, N)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    static_wrapped_matmul_kernel[grid](a, w.t(), c, M, N, K, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    torch.testing.assert_close(c, a @ w.t(), rtol=1e-4, atol=1e-4)
