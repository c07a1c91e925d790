"""Matmuls and transposes read their operand tiles in place where they are unmasked strided blocks.

`tritium-cpu-read-tiles-in-place` replaces the copy of an A tile with a view of A
when, at the tile's corners, the mask holds and no int32 index overflows; the copy still runs
for the K step past a multiple of BLOCK_K, for rows that wrap around (`% M`) and for a
transposed A. A B tile is read in place under the same conditions and only if its rows are at
most twice its width apart (attention's V); a tile that is only transposed (attention's K)
under the same conditions as A. Each case here runs one of those paths and checks the result;
the view tests check that the views are really there. (Offsets beyond int32 need tensors of
8 GiB; the lit test `read-tiles-in-place.mlir` checks that their corner checks are built.)
"""

import os
import subprocess
import sys

import pytest
import torch
import triton
import triton.language as tl

from tritium import ir

IN_PLACE = "builtin.module(tritium-cpu-read-tiles-in-place)"


@triton.jit
def blocked_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    ks = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32 if c_ptr.dtype.element_ty != tl.float64 else tl.float64)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=ks[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=ks[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    out_rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


def run(a, b, block=(32, 32, 16)):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty(M, N, dtype=a.dtype)
    bm, bn, bk = block
    grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
    compiled = blocked_matmul[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                    c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
    tolerance = dict(rtol=1e-4, atol=1e-4) if a.dtype == torch.float32 else dict(rtol=1e-10, atol=1e-10)
    torch.testing.assert_close(c, a @ b, **tolerance)
    return compiled


def test_the_a_and_b_tiles_are_views():
    compiled = run(torch.randn(64, 64), torch.randn(64, 64))
    viewed = str(ir.run_pipeline(compiled.asm["linalg"], IN_PLACE))
    assert viewed.count("builtin.unrealized_conversion_cast") == 2  # A's view and B's
    assert "memref<32x16xf32, strided<[?, 1]>>" in viewed
    assert "memref<16x32xf32, strided<[?, 1]>>" in viewed


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_half_float_tiles_are_views_in_row_major_blocks(dtype):
    """bf16/fp16 operand tiles (loaded as 16-bit integers and bitcast) are read in place like f32 ones;
    a column-major one is not (transposes by register blocks take 32- and 64-bit elements): it keeps its
    fill. Values on every path: tiles in place, a masked last K step, a wrapped row block."""
    for (M, N, K), transpose_a in [((64, 64, 64), False), ((64, 32, 40), False), ((50, 32, 32), False),
                                   ((64, 64, 64), True)]:
        a = torch.randn(K, M).t().to(dtype) if transpose_a else torch.randn(M, K).to(dtype)
        b = torch.randn(K, N).to(dtype)
        c = torch.empty(M, N)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        compiled = blocked_matmul[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                        c.stride(0), c.stride(1), BLOCK_M=32, BLOCK_N=32, BLOCK_K=16)
        torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-4, atol=1e-4)
        viewed = str(ir.run_pipeline(compiled.asm["linalg"], IN_PLACE))
        element = "bf16" if dtype == torch.bfloat16 else "f16"
        assert (f"memref<32x16x{element}, strided<[?, 1]>>" in viewed) == (not transpose_a)
        assert f"memref<16x32x{element}, strided<[?, 1]>>" in viewed  # B's rows are close together


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("n", [32, 64, 65, 200])
def test_b_rows_close_together_or_far_apart(dtype, n):
    """B's rows n elements apart, BLOCK_N = 32: in place up to 64, copied beyond (65, 200), and
    the last column block of 65 and 200 wraps (% N): copied too."""
    run(torch.randn(64, 48, dtype=dtype), torch.randn(48, n, dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("M,N,K", [
    (64, 64, 64),  # every tile in place
    (64, 32, 40),  # the last K step is masked: copied
    (50, 32, 32),  # the last row block wraps around (% M): copied
    (32, 32, 7),  # K below one block: the only K step is masked
])
def test_products(dtype, M, N, K):
    run(torch.randn(M, K, dtype=dtype), torch.randn(K, N, dtype=dtype))


def test_a_with_a_wider_row_stride_and_an_offset():
    """A view's row stride is A's, and its start includes the storage offset."""
    wide = torch.randn(80, 100)
    run(wide[7:71, 13:61], torch.randn(48, 32))


def test_a_transposed_is_transposed_from_a_view():
    """Columns of a transposed A are a row apart, its rows consecutive: the tile buffer is filled
    by a transpose of a view of A (by register blocks) instead of a gathering copy."""
    a = torch.randn(48, 64).t()
    compiled = run(a, torch.randn(48, 32))
    viewed = str(ir.run_pipeline(compiled.asm["linalg"], IN_PLACE))
    assert viewed.count("builtin.unrealized_conversion_cast") == 2  # A's transposed view and B's
    assert "linalg.transpose ins(%" in viewed and "memref<16x32xf32, strided<[?, 1]>>) outs(" in viewed


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("transpose_a,transpose_b", [(False, True), (True, False), (True, True)])
@pytest.mark.parametrize("M,N,K", [
    (64, 64, 64),  # every tile by a transpose of a view
    (64, 32, 40),  # the last K step is masked: filled element by element
    (50, 40, 32),  # the last row and column blocks wrap around (% M, % N)
])
def test_column_major_operands(dtype, transpose_a, transpose_b, M, N, K):
    """`x @ w.t()` (an nn.Linear weight) and transposed A: values on every path."""
    a = torch.randn(K, M, dtype=dtype).t() if transpose_a else torch.randn(M, K, dtype=dtype)
    b = torch.randn(N, K, dtype=dtype).t() if transpose_b else torch.randn(K, N, dtype=dtype)
    run(a, b)


def test_rows_far_apart():
    """Rows 2^16 elements (256 KiB) apart: the view's row stride is A's, not the tile's."""
    storage = torch.zeros(64 * (1 << 16) + 16)
    a = storage.as_strided((64, 16), (1 << 16, 1))
    a.copy_(torch.randn(64, 16))
    run(a, torch.randn(16, 32))


@triton.jit
def attention_step(q_ptr, k_ptr, v_ptr, out_ptr, stride, n_keys, M: tl.constexpr, N: tl.constexpr,
                   D: tl.constexpr, MASKED: tl.constexpr):
    rows = tl.arange(0, M)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * stride + dims[None, :])
    acc = tl.zeros((M, D), dtype=tl.float32)
    for start in range(0, n_keys, N):
        keys = start + tl.arange(0, N)
        if MASKED:
            k = tl.load(k_ptr + keys[:, None] * stride + dims[None, :], mask=keys[:, None] < n_keys, other=0.0)
            v = tl.load(v_ptr + keys[:, None] * stride + dims[None, :], mask=keys[:, None] < n_keys, other=0.0)
        else:
            k = tl.load(k_ptr + keys[:, None] * stride + dims[None, :])
            v = tl.load(v_ptr + keys[:, None] * stride + dims[None, :])
        scores = tl.dot(q, tl.trans(k))
        acc = tl.dot(scores, v, acc)
    tl.store(out_ptr + rows[:, None] * D + dims[None, :], acc)


@pytest.mark.parametrize("n_keys,masked", [(64, False), (48, True), (64, True)])
@pytest.mark.parametrize("stride_extra", [0, 24])
def test_attention_k_and_v_tiles(n_keys, masked, stride_extra):
    """K (only transposed) and V (B of the second product) read in place, or copied under a mask
    that cuts the last key block; rows D or D + 24 elements apart."""
    M, N, D = 16, 16, 32
    stride = D + stride_extra
    q, k, v = (torch.randn(max(M, n_keys), stride) * 0.1 for _ in range(3))
    out = torch.empty(M, D)
    compiled = attention_step[(1,)](q, k, v, out, stride, n_keys, M=M, N=N, D=D, MASKED=masked)
    qd, kd, vd = q[:M, :D], k[:n_keys, :D], v[:n_keys, :D]
    torch.testing.assert_close(out, (qd @ kd.t()) @ vd, rtol=1e-4, atol=1e-4)
    if not masked:
        viewed = str(ir.run_pipeline(compiled.asm["linalg"], IN_PLACE))
        assert viewed.count("builtin.unrealized_conversion_cast") == 2  # K's view and V's


_BEFORE_A_GUARD = """
import ctypes, math, mmap, sys, torch, triton
sys.path.insert(0, {tests!r})
from test_matmul import wrapped_matmul_kernel

M = N = K = 1000
dtype = getattr(torch, {dtype!r})
nbytes = M * K * torch.empty((), dtype=dtype).element_size()
page = mmap.PAGESIZE
data_pages, guard_pages = math.ceil(nbytes / page), 64
memory = mmap.mmap(-1, (data_pages + guard_pages) * page)
address = ctypes.addressof(ctypes.c_char.from_buffer(memory))
libc = ctypes.CDLL(None, use_errno=True)
# A's last byte is followed by pages no one may read.
assert libc.mprotect(ctypes.c_void_p(address + data_pages * page), ctypes.c_size_t(guard_pages * page), 0) == 0
a = torch.frombuffer(memory, dtype=torch.uint8, count=nbytes, offset=data_pages * page - nbytes).view(dtype).view(M, K)
a.copy_(torch.randn(M, K).to(dtype))
b = torch.randn(K, N).to(dtype)
c = torch.empty(M, N)
wrapped_matmul_kernel[(triton.cdiv(M, 128), triton.cdiv(N, 64))](a, b, c, M, N, K, BLOCK_M=128, BLOCK_N=64, BLOCK_K=64,
                                                                 UNSIGNED=False)
torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-2, atol=1e-2)
print("ok")
"""


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_blocks_whose_rows_wrap_are_not_read_in_place(dtype):
    """Triton's tutorial wraps the last row block (`% M`, test_matmul.py's kernel); the loads are versioned on "no
    block wraps". Read where it lies, the wrapping last row block of a 1000-row A ran 24 rows past A's end (unseen
    where the memory after A was mapped, a SIGSEGV where it was not). Here A ends at unreadable pages."""
    code = _BEFORE_A_GUARD.format(tests=os.path.dirname(os.path.abspath(__file__)), dtype=dtype)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"
