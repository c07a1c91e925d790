"""Zoo: persistent matmul on tensor descriptors. A grid of NUM_SMS programs loops over all output tiles with tl.range;
operands are read and the result written through descriptors made on the host (TensorDescriptor) or on the device
(tl.make_tensor_descriptor). Out-of-bounds reads are zero and out-of-bounds writes are dropped, so odd shapes need no
masks."""

import pytest
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def zoo_tile_coords(tile, tiles_m, tiles_n, GROUP_SIZE_M: tl.constexpr):
    per_group = GROUP_SIZE_M * tiles_n
    first_m = (tile // per_group) * GROUP_SIZE_M
    rows = tl.minimum(tiles_m - first_m, GROUP_SIZE_M)
    return first_m + (tile % per_group) % rows, (tile % per_group) // rows


@triton.jit
def zoo_persistent_tiles(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr,
                         NUM_STAGES: tl.constexpr, FLATTEN: tl.constexpr, SUBTILE: tl.constexpr):
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=FLATTEN):
        tm, tn = zoo_tile_coords(tile, tiles_m, tiles_n, GROUP_SIZE_M)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(0, K, BLOCK_K, num_stages=NUM_STAGES):
            a = a_desc.load([tm * BLOCK_M, k])
            b = b_desc.load([k, tn * BLOCK_N])
            acc = tl.dot(a, b, acc, input_precision="ieee")
        if SUBTILE:
            # store the tile as two BLOCK_M x BLOCK_N/2 halves (c_desc's block shape is the half)
            halves = tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
            left, right = tl.split(halves)
            c_desc.store([tm * BLOCK_M, tn * BLOCK_N], left.to(c_desc.dtype))
            c_desc.store([tm * BLOCK_M, tn * BLOCK_N + BLOCK_N // 2], right.to(c_desc.dtype))
        else:
            c_desc.store([tm * BLOCK_M, tn * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def zoo_persistent_host_desc_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                    BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr,
                                    NUM_STAGES: tl.constexpr, FLATTEN: tl.constexpr, SUBTILE: tl.constexpr):
    zoo_persistent_tiles(a_desc, b_desc, c_desc, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_SIZE_M, NUM_SMS,
                         NUM_STAGES, FLATTEN, SUBTILE)


@triton.jit
def zoo_persistent_device_desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K, lda, ldb, ldc, BLOCK_M: tl.constexpr,
                                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                      NUM_SMS: tl.constexpr, NUM_STAGES: tl.constexpr, FLATTEN: tl.constexpr,
                                      SUBTILE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[lda, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[ldb, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[ldc, 1],
                                       block_shape=[BLOCK_M, BLOCK_N // 2 if SUBTILE else BLOCK_N])
    zoo_persistent_tiles(a_desc, b_desc, c_desc, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_SIZE_M, NUM_SMS,
                         NUM_STAGES, FLATTEN, SUBTILE)


@pytest.fixture(autouse=True)
def _allocator():
    # on a GPU, device-side descriptors need global scratch memory from Triton's allocator; set one as a GPU
    # program would (a host tensor), and restore Triton's default afterwards
    from triton.runtime._allocation import _allocator as current
    token = current.set(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    yield
    current.reset(token)


def padded(rows, cols, dtype, fill=None):
    """A rows x cols matrix whose row stride is a multiple of 16 bytes (descriptors require it)."""
    per16 = 16 // dtype.itemsize
    ld = triton.cdiv(cols, per16) * per16
    buf = torch.randn(rows, ld).to(dtype) if fill is None else torch.full((rows, ld), fill, dtype=dtype)
    return buf, buf[:, :cols]


def run(form, a, b, c, num_sms, blocks, group=2, num_stages=2, flatten=False, subtile=False):
    M, K = a.shape
    N = b.shape[1]
    bm, bn, bk = blocks
    meta = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_SIZE_M=group, NUM_SMS=num_sms, NUM_STAGES=num_stages,
                FLATTEN=flatten, SUBTILE=subtile)
    if form == "host":
        a_desc = TensorDescriptor(a, list(a.shape), list(a.stride()), [bm, bk])
        b_desc = TensorDescriptor(b, list(b.shape), list(b.stride()), [bk, bn])
        c_desc = TensorDescriptor(c, list(c.shape), list(c.stride()), [bm, bn // 2 if subtile else bn])
        zoo_persistent_host_desc_kernel[(num_sms, )](a_desc, b_desc, c_desc, M, N, K, **meta)
    else:
        zoo_persistent_device_desc_kernel[(num_sms, )](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), **meta)


FORMS = ["host", "device"]
SHAPES = [(64, 64, 64), (65, 33, 47), (17, 100, 30), (1, 8, 130)]


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32], ids=["fp16", "fp32"])
@pytest.mark.parametrize("M,N,K", SHAPES)
@pytest.mark.parametrize("form", FORMS)
def test_persistent_matmul(form, M, N, K, dtype):
    _, a = padded(M, K, dtype)
    _, b = padded(K, N, dtype)
    c_buf, c = padded(M, N, dtype, fill=float("nan"))
    run(form, a, b, c, num_sms=3, blocks=(16, 16, 16))
    expected = (a.float() @ b.float()).to(dtype)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-3, atol=1e-2)
    torch.testing.assert_close(c, expected, **tol, msg=lambda m: f"{form} descriptors {M}x{N}x{K} {dtype}: {m}")
    # out-of-bounds parts of edge tiles are dropped, not written into the row padding
    assert torch.isnan(c_buf[:, N:]).all(), f"{form} descriptor store wrote into the padding past column {N}"


@pytest.mark.parametrize("num_sms", [1, 2, 4, 50])
@pytest.mark.parametrize("form", FORMS)
def test_persistent_program_counts(form, num_sms):
    a, b = torch.randn(70, 40), torch.randn(40, 52)
    c = torch.full((70, 52), float("nan"))
    run(form, a, b, c, num_sms=num_sms, blocks=(16, 16, 16), group=3)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4, msg=lambda m: f"{form}, {num_sms} programs: {m}")


@pytest.mark.parametrize("blocks,group,num_stages", [((32, 16, 16), 1, 1), ((16, 32, 32), 4, 3), ((32, 32, 16), 2, 2)])
@pytest.mark.parametrize("form", FORMS)
def test_persistent_block_shapes(form, blocks, group, num_stages):
    a, b = torch.randn(90, 36), torch.randn(36, 60)
    c = torch.full((90, 60), float("nan"))
    run(form, a, b, c, num_sms=2, blocks=blocks, group=group, num_stages=num_stages)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4, msg=lambda m: f"{form} {blocks}: {m}")



@pytest.mark.parametrize("flatten,subtile", [(True, False), (False, True), (True, True)],
                         ids=["flatten", "subtile", "flatten+subtile"])
@pytest.mark.parametrize("form", FORMS)
def test_persistent_flatten_and_epilogue_subtile(form, flatten, subtile):
    # flatten: tl.range(..., flatten=True) over the tile loop; subtile: the tile is stored as two halves obtained with
    # reshape/permute/split
    dtype = torch.float16
    _, a = padded(65, 47, dtype)
    _, b = padded(47, 70, dtype)
    c_buf, c = padded(65, 70, dtype, fill=float("nan"))
    run(form, a, b, c, num_sms=3, blocks=(16, 32, 16), flatten=flatten, subtile=subtile)
    torch.testing.assert_close(c, (a.float() @ b.float()).half(), rtol=1e-3, atol=1e-2,
                               msg=lambda m: f"{form} flatten={flatten} subtile={subtile}: {m}")
    assert torch.isnan(c_buf[:, 70:]).all(), "store wrote into the padding"


def test_device_descriptors_need_no_scratch_allocation():
    # tritium rewrites descriptors to pointers before lowering, so no launch asks for scratch memory: the kernel runs
    # under Triton's default allocator, which raises on any request
    from triton.runtime._allocation import NullAllocator, _allocator as current
    token = current.set(NullAllocator())
    try:
        a, b = torch.randn(40, 24), torch.randn(24, 36)
        c = torch.full((40, 36), float("nan"))
        run("device", a, b, c, num_sms=2, blocks=(16, 16, 16))
    finally:
        current.reset(token)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)
