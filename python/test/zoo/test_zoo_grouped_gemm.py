"""Zoo: grouped GEMM. A fixed number of programs walks the tiles of several independent (M, N, K) problems whose
operands are reached through device arrays of raw pointers (int64 data_ptr()s), sizes and leading dimensions."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def zoo_grouped_gemm_kernel(a_ptrs, b_ptrs, c_ptrs, sizes, lds, n_problems, DTYPE: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    tiles_before = 0  # tiles of the problems already walked; tile t of the whole list belongs to program t % programs
    for g in range(n_problems):
        M = tl.load(sizes + 3 * g)
        N = tl.load(sizes + 3 * g + 1)
        K = tl.load(sizes + 3 * g + 2)
        lda = tl.load(lds + 3 * g)
        ldb = tl.load(lds + 3 * g + 1)
        ldc = tl.load(lds + 3 * g + 2)
        a = tl.load(a_ptrs + g).to(tl.pointer_type(DTYPE))
        b = tl.load(b_ptrs + g).to(tl.pointer_type(DTYPE))
        c = tl.load(c_ptrs + g).to(tl.pointer_type(DTYPE))
        tiles_n = tl.cdiv(N, BLOCK_N)
        tiles = tl.cdiv(M, BLOCK_M) * tiles_n
        first = (pid - tiles_before % programs + programs) % programs
        for t in range(first, tiles, programs):
            rm = (t // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = (t % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            rk = tl.arange(0, BLOCK_K)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k0 in range(0, K, BLOCK_K):
                kk = k0 + rk
                x = tl.load(a + rm[:, None] * lda + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
                y = tl.load(b + kk[:, None] * ldb + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
                acc = tl.dot(x, y, acc, input_precision="ieee")
            tl.store(c + rm[:, None] * ldc + rn[None, :], acc.to(DTYPE), mask=(rm[:, None] < M) & (rn[None, :] < N))
        tiles_before += tiles


@triton.jit
def zoo_grouped_gemm_desc_kernel(a_ptrs, b_ptrs, c_ptrs, sizes, lds, n_problems, DTYPE: tl.constexpr,
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # the same walk, with device-side tensor descriptors made per problem from the loaded pointers: edge tiles are
    # clipped by the descriptors, so no masks
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    tiles_before = 0
    for g in range(n_problems):
        M = tl.load(sizes + 3 * g)
        N = tl.load(sizes + 3 * g + 1)
        K = tl.load(sizes + 3 * g + 2)
        a_desc = tl.make_tensor_descriptor(tl.load(a_ptrs + g).to(tl.pointer_type(DTYPE)), shape=[M, K],
                                           strides=[tl.load(lds + 3 * g), 1], block_shape=[BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(tl.load(b_ptrs + g).to(tl.pointer_type(DTYPE)), shape=[K, N],
                                           strides=[tl.load(lds + 3 * g + 1), 1], block_shape=[BLOCK_K, BLOCK_N])
        c_desc = tl.make_tensor_descriptor(tl.load(c_ptrs + g).to(tl.pointer_type(DTYPE)), shape=[M, N],
                                           strides=[tl.load(lds + 3 * g + 2), 1], block_shape=[BLOCK_M, BLOCK_N])
        tiles_n = tl.cdiv(N, BLOCK_N)
        tiles = tl.cdiv(M, BLOCK_M) * tiles_n
        first = (pid - tiles_before % programs + programs) % programs
        for t in range(first, tiles, programs):
            off_m = (t // tiles_n) * BLOCK_M
            off_n = (t % tiles_n) * BLOCK_N
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k0 in range(0, K, BLOCK_K):
                acc = tl.dot(a_desc.load([off_m, k0]), b_desc.load([k0, off_n]), acc, input_precision="ieee")
            c_desc.store([off_m, off_n], acc.to(DTYPE))
        tiles_before += tiles


TL_DTYPE = {torch.float16: tl.float16, torch.float32: tl.float32, torch.bfloat16: tl.bfloat16}


def grouped_gemm(As, Bs, Cs, programs=3, blocks=(16, 16, 16), kernel=zoo_grouped_gemm_kernel):
    dtype = As[0].dtype
    for a, b, c in zip(As, Bs, Cs):
        assert a.dtype == b.dtype == c.dtype == dtype
        assert a.stride(1) == b.stride(1) == c.stride(1) == 1, "rows must be contiguous"
    a_ptrs = torch.tensor([a.data_ptr() for a in As], dtype=torch.int64)
    b_ptrs = torch.tensor([b.data_ptr() for b in Bs], dtype=torch.int64)
    c_ptrs = torch.tensor([c.data_ptr() for c in Cs], dtype=torch.int64)
    sizes = torch.tensor([[a.shape[0], b.shape[1], a.shape[1]] for a, b in zip(As, Bs)], dtype=torch.int32)
    lds = torch.tensor([[a.stride(0), b.stride(0), c.stride(0)] for a, b, c in zip(As, Bs, Cs)], dtype=torch.int32)
    bm, bn, bk = blocks
    kernel[(programs, )](a_ptrs, b_ptrs, c_ptrs, sizes, lds, len(As), DTYPE=TL_DTYPE[dtype], BLOCK_M=bm, BLOCK_N=bn,
                         BLOCK_K=bk)


def make_problems(shapes, dtype):
    As = [torch.randn(m, k).to(dtype) for m, n, k in shapes]
    Bs = [torch.randn(k, n).to(dtype) for m, n, k in shapes]
    Cs = [torch.full((m, n), float("nan")).to(dtype) for m, n, k in shapes]
    return As, Bs, Cs


def check(As, Bs, Cs, dtype):
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-2, atol=2e-2)
    for i, (a, b, c) in enumerate(zip(As, Bs, Cs)):
        expected = (a.float() @ b.float()).to(dtype)
        torch.testing.assert_close(c, expected, **tol,
                                   msg=lambda m: f"problem {i} ({a.shape[0]}x{b.shape[1]}x{a.shape[1]}): {m}")


SHAPE_SETS = {
    "mixed": [(64, 64, 64), (33, 17, 50), (5, 80, 16), (100, 20, 7)],
    "one": [(48, 40, 30)],
    "tiny": [(1, 1, 1), (2, 3, 4), (16, 16, 16)],
}


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.bfloat16], ids=["fp16", "fp32", "bf16"])
@pytest.mark.parametrize("shapes", list(SHAPE_SETS), ids=list(SHAPE_SETS))
def test_grouped_gemm(shapes, dtype):
    As, Bs, Cs = make_problems(SHAPE_SETS[shapes], dtype)
    grouped_gemm(As, Bs, Cs)
    check(As, Bs, Cs, dtype)


@pytest.mark.parametrize("programs", [1, 2, 4, 7, 64])
def test_grouped_gemm_program_counts(programs):
    # more programs than tiles leaves some idle; fewer makes each loop over many tiles across problem boundaries
    As, Bs, Cs = make_problems(SHAPE_SETS["mixed"], torch.float16)
    grouped_gemm(As, Bs, Cs, programs=programs)
    check(As, Bs, Cs, torch.float16)


def test_grouped_gemm_leading_dimensions():
    # operands that are row slices of wider buffers: leading dimension != number of columns
    dtype = torch.float16
    a_buf, b_buf, c_buf = torch.randn(40, 64).half(), torch.randn(30, 50).half(), torch.zeros(40, 48).half()
    As = [a_buf[:, :30], torch.randn(20, 10).half()]
    Bs = [b_buf[:, :25], torch.randn(10, 35).half()]
    Cs = [c_buf[:, :25], torch.zeros(20, 35).half()]
    grouped_gemm(As, Bs, Cs, blocks=(16, 16, 16))
    check(As, Bs, Cs, dtype)
    assert torch.all(c_buf[:, 25:] == 0), "wrote outside the 25 columns of C's rows"


def test_grouped_gemm_many_small_problems():
    shapes = [(1 + 7 * i % 29, 1 + 11 * i % 23, 1 + 5 * i % 31) for i in range(12)]
    As, Bs, Cs = make_problems(shapes, torch.float32)
    grouped_gemm(As, Bs, Cs, programs=4, blocks=(16, 16, 32))
    check(As, Bs, Cs, torch.float32)


def padded(rows, cols, dtype, fill=None):
    """rows x cols with a row stride that is a multiple of 16 bytes, as tensor descriptors require."""
    per16 = 16 // dtype.itemsize
    ld = triton.cdiv(cols, per16) * per16
    buf = torch.randn(rows, ld).to(dtype) if fill is None else torch.full((rows, ld), fill, dtype=dtype)
    return buf, buf[:, :cols]


@pytest.fixture
def scratch_allocator():
    from triton.runtime._allocation import _allocator as current
    token = current.set(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    yield
    current.reset(token)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32], ids=["fp16", "fp32"])
@pytest.mark.parametrize("programs", [1, 3, 8])
def test_grouped_gemm_device_descriptors(programs, dtype, scratch_allocator):
    shapes = SHAPE_SETS["mixed"] + [(3, 9, 40)]
    As = [padded(m, k, dtype)[1] for m, n, k in shapes]
    Bs = [padded(k, n, dtype)[1] for m, n, k in shapes]
    bufs, Cs = zip(*[padded(m, n, dtype, fill=float("nan")) for m, n, k in shapes])
    grouped_gemm(As, Bs, list(Cs), programs=programs, kernel=zoo_grouped_gemm_desc_kernel)
    check(As, Bs, Cs, dtype)
    for i, (buf, (m, n, k)) in enumerate(zip(bufs, shapes)):
        assert torch.isnan(buf[:, n:]).all(), f"problem {i}: descriptor store wrote past column {n}"
