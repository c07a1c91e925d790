"""Memory access patterns: tiles of every rank, strides, broadcasts, wrap-around indices, masks, pointers through
control flow, int64 offsets, scalar accesses, gather/scatter, early return and a grouped GEMM over pointer arrays."""

import pytest
import torch
import triton
import triton.language as tl

DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8, torch.uint32, torch.bool]


def _ids(dtypes):
    return [str(d).replace("torch.", "") for d in dtypes]


def make(shape, dtype):
    shape = (shape, ) if isinstance(shape, int) else tuple(shape)
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        return torch.randn(shape).to(dtype)
    if dtype in (torch.uint8, torch.uint32):
        return torch.randint(0, 250, shape).to(dtype)
    return torch.randint(-120, 120, shape).to(dtype)


def same(a, b):
    """Exact equality of values and dtype (uint32 compared through its bits)."""
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype == torch.uint32:
        a, b = a.view(torch.int32), b.view(torch.int32)
    assert torch.equal(a, b), (a, b)


# ---------------------------------------------------------------------------------------------
# tiles: contiguous, strided, broadcast, 1-D / 2-D / 3-D
# ---------------------------------------------------------------------------------------------


@triton.jit
def copy_1d_kernel(x_ptr, out_ptr, n, x_stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * x_stride, mask=mask), mask=mask)


@pytest.mark.parametrize("stride", [1, 3])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_1d_contiguous_and_strided(dtype, stride):
    x = make(1000 * stride, dtype)
    out = torch.empty(1000, dtype=dtype)
    copy_1d_kernel[(triton.cdiv(1000, 128), )](x, out, 1000, stride, BLOCK=128)
    same(out, x[::stride].contiguous())


@triton.jit
def copy_2d_kernel(x_ptr, out_ptr, M, N, sxm, sxn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * sxm + cols[None, :] * sxn, mask=mask)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], x, mask=mask)


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_2d_tiles_with_strides(dtype, layout):
    base = make((70, 90), dtype)
    x = {"contiguous": base[:37, :45], "transposed": base.t()[:37, :45], "sliced": base[::2, 1::3][:33, :29]}[layout]
    M, N = x.shape
    out = torch.empty(M, N, dtype=dtype)
    copy_2d_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 32))](x, out, M, N, x.stride(0), x.stride(1), BLOCK_M=16,
                                                             BLOCK_N=32)
    same(out, x.contiguous())


@triton.jit
def copy_3d_kernel(x_ptr, out_ptr, s0, s1, s2, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    i = tl.arange(0, A)[:, None, None]
    j = tl.arange(0, B)[None, :, None]
    k = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + i * s0 + j * s1 + k * s2)
    tl.store(out_ptr + i * B * C + j * C + k, x)


@pytest.mark.parametrize("permute", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_3d_tiles(dtype, permute):
    x = make((4, 8, 16), dtype).permute(*permute)
    A, B, C = x.shape
    out = torch.empty(A, B, C, dtype=dtype)
    copy_3d_kernel[(1, )](x, out, *x.stride(), A=A, B=B, C=C)
    same(out, x.contiguous())


@triton.jit
def broadcast_kernel(row_ptr, col_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    row = tl.load(row_ptr + c[None, :])  # 1 x N tile
    col = tl.load(col_ptr + r[:, None] * 0 + r[:, None])  # M x 1 tile
    first = tl.load(row_ptr + r[:, None] * 0 + c[None, :] * 0)  # the same address in every lane
    tl.store(out_ptr + r[:, None] * N + c[None, :], tl.where(col > row, col, row))
    tl.store(out_ptr + M * N + r[:, None] * N + c[None, :], first)


@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_broadcast_tiles(dtype):
    M, N = 8, 16
    row, col = make(N, dtype), make(M, dtype)
    out = torch.empty(2, M, N, dtype=dtype)
    broadcast_kernel[(1, )](row, col, out, M=M, N=N)
    if dtype == torch.uint32:
        r, c = row.long(), col.long()
        expected = torch.where(c[:, None] > r[None, :], c[:, None], r[None, :]).to(dtype)
    else:
        expected = torch.where(col[:, None] > row[None, :], col[:, None], row[None, :])
    same(out[0], expected)
    same(out[1], row[0].expand(M, N).contiguous())


# ---------------------------------------------------------------------------------------------
# wrap-around offsets
# ---------------------------------------------------------------------------------------------


@triton.jit
def roll_kernel(x_ptr, out_ptr, n, shift, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    src = (offs + n - shift) % n  # torch.roll
    tl.store(out_ptr + offs, tl.load(x_ptr + src, mask=mask), mask=mask)


@pytest.mark.parametrize("shift", [0, 1, 37, 999])
def test_wraparound_roll(shift):
    x = torch.randn(1000)
    out = torch.empty_like(x)
    roll_kernel[(8, )](x, out, 1000, shift, BLOCK=128)
    same(out, torch.roll(x, shift))


@triton.jit
def flat_to_2d_kernel(x_ptr, out_ptr, M, N, sxm, sxn, BLOCK: tl.constexpr):
    flat = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = flat < M * N
    row = flat // N
    col = flat % N
    tl.store(out_ptr + flat, tl.load(x_ptr + row * sxm + col * sxn, mask=mask), mask=mask)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.int8],
                         ids=_ids([torch.float32, torch.float16, torch.int64, torch.int8]))
def test_flat_index_split_with_div_and_mod(dtype):
    x = make((50, 70), dtype).t()  # non-contiguous 70 x 50
    out = torch.empty(70 * 50, dtype=dtype)
    flat_to_2d_kernel[(triton.cdiv(3500, 256), )](x, out, 70, 50, x.stride(0), x.stride(1), BLOCK=256)
    same(out, x.reshape(-1))


@triton.jit
def circular_window_kernel(x_ptr, out_ptr, n, W: tl.constexpr, BLOCK: tl.constexpr):
    # out[i] = sum_{k < W} x[(i + k) % n], a 2-D index tile with wrap-around
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    k = tl.arange(0, W)
    idx = (i[:, None] + k[None, :]) % n
    vals = tl.load(x_ptr + idx, mask=i[:, None] < n, other=0)
    tl.store(out_ptr + i, tl.sum(vals, axis=1), mask=i < n)


def test_circular_window_sum():
    x = torch.randint(-100, 100, (300, ), dtype=torch.int32)
    out = torch.empty_like(x)
    circular_window_kernel[(triton.cdiv(300, 64), )](x, out, 300, W=8, BLOCK=64)
    expected = sum(torch.roll(x, -k) for k in range(8))
    same(out, expected)


# ---------------------------------------------------------------------------------------------
# masks
# ---------------------------------------------------------------------------------------------


@triton.jit
def mask_kinds_kernel(x_ptr, keep_ptr, out_ptr, M, N, limit_row, enabled, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    in_range = (rows[:, None] < M) & (cols[None, :] < N)  # a 2-D product of two range masks
    scalar_ok = (tl.program_id(0) == 0) & (enabled != 0)  # scalar conjunction
    mask = in_range & (rows[:, None] < limit_row) & scalar_ok
    keep = tl.load(keep_ptr + rows[:, None] * N + cols[None, :], mask=in_range, other=0)  # mask from data
    mask = mask & (keep != 0)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=-1)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], x, mask=in_range)


@pytest.mark.parametrize("enabled", [0, 1])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_mask_kinds_and_other(dtype, enabled):
    M, N, limit = 13, 27, 9
    x = make((M, N), dtype)
    keep = (torch.rand(M, N) < 0.6).to(torch.int8)
    out = torch.empty(M, N, dtype=dtype)
    mask_kinds_kernel[(1, )](x, keep, out, M, N, limit, enabled, BLOCK_M=16, BLOCK_N=32)
    rows = torch.arange(M)[:, None].expand(M, N)
    m = (rows < limit) & (keep != 0) & bool(enabled)
    other = torch.tensor(-1).to(dtype) if dtype != torch.uint32 else torch.tensor(2**32 - 1).to(dtype)
    if dtype == torch.uint32:
        expected = torch.where(m, x.view(torch.int32), torch.tensor(-1, dtype=torch.int32)).view(dtype)
    else:
        expected = torch.where(m, x, other.expand(M, N))
    same(out, expected)


@triton.jit
def masked_store_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x * 2, mask=(offs < n) & (x > 0))  # store mask from loaded data


def test_store_mask_from_loaded_data_leaves_other_elements_untouched():
    x = torch.randn(300)
    out = torch.full((300, ), 7.0)
    masked_store_kernel[(3, )](x, out, 300, BLOCK=128)
    same(out, torch.where(x > 0, x * 2, torch.tensor(7.0)))


# ---------------------------------------------------------------------------------------------
# pointers through control flow
# ---------------------------------------------------------------------------------------------


@triton.jit
def nested_loop_pointer_kernel(x_ptr, out_ptr, R, C, stride_r, BLOCK: tl.constexpr):
    # sum over an R x C grid of BLOCK-wide vectors, the pointer advanced in both loops
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    row_ptr = x_ptr
    for r in range(R):
        p = row_ptr + offs
        for c in range(C):
            acc += tl.load(p)
            p += BLOCK
        row_ptr += stride_r
    tl.store(out_ptr + offs, acc)


def test_pointer_carried_through_nested_for_loops():
    R, C, BLOCK = 5, 3, 32
    x = torch.randn(R, C * BLOCK + 7)  # padded rows
    out = torch.empty(BLOCK)
    nested_loop_pointer_kernel[(1, )](x, out, R, C, x.stride(0), BLOCK=BLOCK)
    expected = x[:, :C * BLOCK].reshape(R, C, BLOCK).sum((0, 1))
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)


@triton.jit
def while_pointer_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # walk BLOCK-sized chunks with a while loop until the running sum exceeds a threshold or the data ends
    p = x_ptr + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    done = 0
    count = 0
    while (done * BLOCK < n) and (tl.sum(acc) < 1000):
        acc += tl.load(p)
        p += BLOCK
        done += 1
        count += 1
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)
    tl.store(out_ptr + BLOCK, count)


def test_pointer_carried_through_while_loop():
    BLOCK = 16
    x = torch.randint(0, 10, (20 * BLOCK, ), dtype=torch.int32)
    out = torch.empty(BLOCK + 1, dtype=torch.int32)
    while_pointer_kernel[(1, )](x, out, x.numel(), BLOCK=BLOCK)
    acc, chunks = torch.zeros(BLOCK, dtype=torch.int32), 0
    while chunks * BLOCK < x.numel() and int(acc.sum()) < 1000:
        acc += x[chunks * BLOCK:(chunks + 1) * BLOCK]
        chunks += 1
    same(out[:BLOCK], acc)
    assert int(out[BLOCK]) == chunks


@triton.jit
def pointer_under_if_kernel(a_ptr, b_ptr, out_ptr, use_a, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if use_a != 0:
        p = a_ptr + offs
    else:
        p = b_ptr + 2 * offs  # a different stride in the other branch
    tl.store(out_ptr + offs, tl.load(p))


@pytest.mark.parametrize("use_a", [0, 1])
def test_pointer_chosen_under_if(use_a):
    a, b = torch.randn(64), torch.randn(128)
    out = torch.empty(64)
    pointer_under_if_kernel[(1, )](a, b, out, use_a, BLOCK=64)
    same(out, a if use_a else b[::2].contiguous())


@triton.jit
def pointer_where_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    pa = a_ptr + offs
    pb = b_ptr + (BLOCK - 1 - offs)
    p = tl.where(offs % 3 == 0, pa, pb)  # select between two pointer tensors
    tl.store(out_ptr + offs, tl.load(p))
    q = tl.where(tl.load(a_ptr + offs) > 0, pa, pb)  # selected by data
    tl.store(out_ptr + BLOCK + offs, tl.load(q))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int8, torch.int64],
                         ids=_ids([torch.float32, torch.float64, torch.float16, torch.int8, torch.int64]))
def test_where_between_pointer_tensors(dtype):
    a, b = make(64, dtype), make(64, dtype)
    out = torch.empty(128, dtype=dtype)
    pointer_where_kernel[(1, )](a, b, out, BLOCK=64)
    offs = torch.arange(64)
    same(out[:64], torch.where(offs % 3 == 0, a, b.flip(0)))
    same(out[64:], torch.where(a > 0, a, b.flip(0)))


# ---------------------------------------------------------------------------------------------
# int64 offsets, scalar accesses
# ---------------------------------------------------------------------------------------------


@triton.jit
def int64_offsets_kernel(x_ptr, idx_ptr, out_ptr, big, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs)  # int64 indices
    # pointer arithmetic through offsets far outside int32: (x + big) + idx - big
    p = (x_ptr + big) + idx
    p = p - big
    tl.store(out_ptr + offs, tl.load(p))
    # an int64 product that overflows int32, divided back down
    wide = offs.to(tl.int64) * 3_000_000_000
    tl.store(out_ptr + BLOCK + offs, tl.load(x_ptr + wide // 3_000_000_000))


def test_int64_offsets():
    x = torch.randn(256)
    idx = torch.randint(0, 256, (64, ), dtype=torch.int64)
    out = torch.empty(128)
    int64_offsets_kernel[(1, )](x, idx, out, 2**40, BLOCK=64)
    same(out[:64], x[idx])
    same(out[64:], x[:64])


@triton.jit
def scalar_access_kernel(x_ptr, out_ptr, n, i):
    first = tl.load(x_ptr)
    at_i = tl.load(x_ptr + i)
    last = tl.load(x_ptr + n - 1)
    tl.store(out_ptr, first + at_i)
    tl.store(out_ptr + 1, last)
    tl.store(out_ptr + 2, at_i, mask=i > 1000)  # masked-off scalar store
    maybe = tl.load(x_ptr + n + 5, mask=i < 0, other=42)  # masked-off scalar load reads nothing
    tl.store(out_ptr + 3, maybe)
    tl.store(out_ptr + 4 + tl.program_id(0), tl.program_id(0) + at_i)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32, torch.int64, torch.int16, torch.uint8],
                         ids=_ids([torch.float32, torch.float64, torch.int32, torch.int64, torch.int16, torch.uint8]))
def test_scalar_loads_and_stores(dtype):
    x = torch.arange(10, 30).to(dtype)
    out = torch.full((8, ), 99).to(dtype)
    scalar_access_kernel[(3, )](x, out, 20, 5)
    assert out.tolist() == [10 + 15, 29, 99, 42, 15, 16, 17, 99]


# ---------------------------------------------------------------------------------------------
# gather / scatter through loaded indices, early return
# ---------------------------------------------------------------------------------------------


@triton.jit
def gather_scatter_kernel(x_ptr, idx_ptr, gathered_ptr, scattered_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.store(gathered_ptr + offs, tl.load(x_ptr + idx, mask=mask), mask=mask)  # out[i] = x[idx[i]]
    tl.store(scattered_ptr + idx, tl.load(x_ptr + offs, mask=mask), mask=mask)  # out[idx[i]] = x[i]


@pytest.mark.parametrize("index_dtype", [torch.int32, torch.int64, torch.int16],
                         ids=_ids([torch.int32, torch.int64, torch.int16]))
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_gather_and_scatter_with_loaded_indices(dtype, index_dtype):
    n = 1000
    x = make(n, dtype)
    perm = torch.randperm(n).to(index_dtype)
    gathered, scattered = torch.empty(n, dtype=dtype), torch.empty(n, dtype=dtype)
    gather_scatter_kernel[(triton.cdiv(n, 128), )](x, perm, gathered, scattered, n, BLOCK=128)
    xv = x.view(torch.int32) if dtype == torch.uint32 else x
    expected_scatter = torch.empty_like(xv)
    expected_scatter[perm.long()] = xv
    same(gathered, xv[perm.long()].view(dtype) if dtype == torch.uint32 else x[perm.long()])
    same(scattered, expected_scatter.view(dtype) if dtype == torch.uint32 else expected_scatter)


@triton.jit
def early_return_kernel(x_ptr, out_ptr, n_active, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n_active:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if tl.sum(x) < 0:  # a data-dependent early return too
        tl.store(out_ptr + offs, -x)
        return
    tl.store(out_ptr + offs, x)


def test_early_return():
    BLOCK = 32
    x = torch.randn(8 * BLOCK)
    out = torch.full((8 * BLOCK, ), 5.0)
    early_return_kernel[(8, )](x, out, 5, BLOCK=BLOCK)
    blocks = x.view(8, BLOCK)
    expected = torch.where(blocks.sum(1, keepdim=True) < 0, -blocks, blocks)
    expected[5:] = 5.0
    same(out, expected.reshape(-1))


# ---------------------------------------------------------------------------------------------
# grouped GEMM over arrays of pointers
# ---------------------------------------------------------------------------------------------


@triton.jit
def grouped_gemm_kernel(a_addrs, b_addrs, c_addrs, sizes_ptr, lds_ptr, group_count, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # one program per (group, tile) in a persistent loop, like Triton's grouped GEMM tutorial
    tile = tl.program_id(0)
    last = 0
    for g in range(group_count):
        M = tl.load(sizes_ptr + g * 3)
        N = tl.load(sizes_ptr + g * 3 + 1)
        K = tl.load(sizes_ptr + g * 3 + 2)
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        if tile >= last and tile < last + tiles_m * tiles_n:
            a_ptr = tl.load(a_addrs + g).to(tl.pointer_type(tl.float32))  # int64 address -> pointer
            b_ptr = tl.load(b_addrs + g).to(tl.pointer_type(tl.float32))
            c_ptr = tl.load(c_addrs + g).to(tl.pointer_type(tl.float32))
            lda = tl.load(lds_ptr + g * 3)
            ldb = tl.load(lds_ptr + g * 3 + 1)
            ldc = tl.load(lds_ptr + g * 3 + 2)
            local = tile - last
            rm = (local // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = (local % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for k0 in range(0, K, BLOCK_K):
                rk = k0 + tl.arange(0, BLOCK_K)
                a = tl.load(a_ptr + rm[:, None] * lda + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K),
                            other=0.0)
                b = tl.load(b_ptr + rk[:, None] * ldb + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N),
                            other=0.0)
                acc += tl.dot(a, b, input_precision="ieee")
            tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
        last += tiles_m * tiles_n


def test_grouped_gemm_over_pointer_arrays():
    shapes = [(37, 20, 50), (64, 64, 16), (5, 70, 33), (16, 16, 16)]
    BM, BN, BK = 16, 32, 16
    As = [torch.randn(m, k) for m, n, k in shapes]
    Bs = [torch.randn(k, n) for m, n, k in shapes]
    Cs = [torch.full((m, n), float("nan")) for m, n, k in shapes]
    a_addrs = torch.tensor([t.data_ptr() for t in As], dtype=torch.int64)
    b_addrs = torch.tensor([t.data_ptr() for t in Bs], dtype=torch.int64)
    c_addrs = torch.tensor([t.data_ptr() for t in Cs], dtype=torch.int64)
    sizes = torch.tensor([v for s in shapes for v in s], dtype=torch.int32)
    lds = torch.tensor([v for a, b, c in zip(As, Bs, Cs) for v in (a.stride(0), b.stride(0), c.stride(0))],
                       dtype=torch.int32)
    tiles = sum(triton.cdiv(m, BM) * triton.cdiv(n, BN) for m, n, k in shapes)
    grouped_gemm_kernel[(tiles, )](a_addrs, b_addrs, c_addrs, sizes, lds, len(shapes), BLOCK_M=BM, BLOCK_N=BN,
                                   BLOCK_K=BK)
    for a, b, c in zip(As, Bs, Cs):
        torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def pointer_values_kernel(addrs_ptr, out_ptr, n_ptrs, BLOCK: tl.constexpr):
    # Triton 3.9 has no pointer-to-pointer type (tl.pointer_type(tl.pointer_type(...)) aborts in its frontend:
    # "pointer types must point to integer or floating-point types"): addresses travel as int64.
    offs = tl.arange(0, BLOCK)
    for i in range(n_ptrs):
        p = tl.load(addrs_ptr + i).to(tl.pointer_type(tl.float32))  # a scalar pointer
        tl.store(out_ptr + i * BLOCK + offs, tl.load(p + offs) * (i + 1))
    # a tensor of pointers, one per lane, then dereferenced per lane
    lane_ptrs = tl.load(addrs_ptr + offs % n_ptrs).to(tl.pointer_type(tl.float32))
    tl.store(out_ptr + n_ptrs * BLOCK + offs, tl.load(lane_ptrs + offs))
    # and back: pointer -> int64 -> pointer
    round_trip = (lane_ptrs.to(tl.int64) + 4).to(tl.pointer_type(tl.float32))  # + 4 bytes = next element
    tl.store(out_ptr + (n_ptrs + 1) * BLOCK + offs, tl.load(round_trip + offs, mask=offs < BLOCK - 1, other=0.0))


def test_load_of_pointer_values():
    BLOCK, n = 32, 3
    rows = [torch.randn(BLOCK) for _ in range(n)]
    addrs = torch.tensor([r.data_ptr() for r in rows], dtype=torch.int64)
    out = torch.empty((n + 2) * BLOCK)
    pointer_values_kernel[(1, )](addrs, out, n, BLOCK=BLOCK)
    for i, r in enumerate(rows):
        same(out[i * BLOCK:(i + 1) * BLOCK], r * (i + 1))
    offs = torch.arange(BLOCK).tolist()
    same(out[n * BLOCK:(n + 1) * BLOCK], torch.stack([rows[o % n][o] for o in offs]))
    same(out[(n + 1) * BLOCK:], torch.stack([rows[o % n][o + 1] if o < BLOCK - 1 else torch.tensor(0.0)
                                             for o in offs]))


# ---------------------------------------------------------------------------------------------
# more pointer forms: addresses in a while condition, `other` as a tensor, tensor descriptors, load hints
# ---------------------------------------------------------------------------------------------


@triton.jit
def pointer_compare_loop_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # the loop condition compares two scalar pointers as int64 addresses (Triton rejects `p < end` on pointers)
    p = x_ptr
    end = x_ptr + n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    offs = tl.arange(0, BLOCK)
    left = n
    while p.to(tl.int64) < end.to(tl.int64):
        acc += tl.load(p + offs, mask=offs < left, other=0.0)
        p += BLOCK
        left -= BLOCK
    tl.store(out_ptr + offs, acc)


def test_pointer_addresses_compared_in_while_condition():
    BLOCK = 16
    x = torch.randn(100)
    out = torch.empty(BLOCK)
    pointer_compare_loop_kernel[(1, )](x, out, 100, BLOCK=BLOCK)
    padded = torch.cat([x, torch.zeros(112 - 100)]).view(7, BLOCK)
    torch.testing.assert_close(out, padded.sum(0), rtol=1e-5, atol=1e-5)


@triton.jit
def other_tensor_kernel(x_ptr, fallback_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    fallback = tl.load(fallback_ptr + offs)
    x = tl.load(x_ptr + offs, mask=(offs < n) & (offs % 2 == 0), other=fallback)  # `other` is a tensor
    tl.store(out_ptr + offs, x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int32, torch.int8],
                         ids=_ids([torch.float32, torch.float16, torch.int32, torch.int8]))
def test_masked_load_with_tensor_other(dtype):
    x, fb = make(64, dtype), make(64, dtype)
    out = torch.empty(64, dtype=dtype)
    other_tensor_kernel[(1, )](x, fb, out, 40, BLOCK=64)
    offs = torch.arange(64)
    same(out, torch.where((offs < 40) & (offs % 2 == 0), x, fb))


@triton.jit
def tensor_descriptor_matmul_kernel(a_desc, b_desc, c_desc, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                    BLOCK_K: tl.constexpr):
    # host-side tensor descriptors (tl.make_block_ptr was removed in favour of them); out-of-bounds reads are zero
    off_m, off_n = tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(a_desc.load([off_m, k]), b_desc.load([k, off_n]), input_precision="ieee")
    c_desc.store([off_m, off_n], acc)  # clipped at the tensor's bounds


def test_tensor_descriptors_with_partial_tiles():
    from triton.tools.tensor_descriptor import TensorDescriptor
    M, N, K = 45, 36, 52
    a, b = torch.randn(M, K), torch.randn(K, N)
    c = torch.full((M, N), float("nan"))
    a_desc = TensorDescriptor.from_tensor(a, [16, 16])
    b_desc = TensorDescriptor.from_tensor(b, [16, 16])
    c_desc = TensorDescriptor.from_tensor(c, [16, 16])
    tensor_descriptor_matmul_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](a_desc, b_desc, c_desc, K, BLOCK_M=16,
                                                                             BLOCK_N=16, BLOCK_K=16)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def load_hints_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x_ptr + offs, mask=mask, cache_modifier=".cg", eviction_policy="evict_last")
    b = tl.load(x_ptr + offs, mask=mask, volatile=True)
    tl.store(out_ptr + offs, a + b, mask=mask, cache_modifier=".wb", eviction_policy="evict_first")


def test_cache_and_eviction_hints_are_accepted():
    x = torch.randn(300)
    out = torch.empty_like(x)
    load_hints_kernel[(3, )](x, out, 300, BLOCK=128)
    same(out, x + x)
