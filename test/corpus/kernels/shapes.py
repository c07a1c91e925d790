"""Shape manipulation and indexing: make_range, program ids, splat/broadcast/expand_dims, reshape, cat, join,
split, trans/permute, unsplat."""
import triton
import triton.language as tl


@triton.jit
def program_ids(out):
    px = tl.program_id(0)
    py = tl.program_id(1)
    pz = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    linear = (pz * ny + py) * nx + px
    tl.store(out + linear * 3 + 0, nx)
    tl.store(out + linear * 3 + 1, ny)
    tl.store(out + linear * 3 + 2, nz)


@triton.jit
def make_range_offset(out, BLOCK: tl.constexpr):
    lo = tl.arange(0, BLOCK)
    hi = tl.arange(BLOCK, 2 * BLOCK)
    tl.store(out + lo, hi - lo)


@triton.jit
def splat_broadcast(x, out, scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    col = tl.load(x + tl.arange(0, BLOCK_N))  # [N]
    row = tl.load(x + tl.arange(0, BLOCK_M))  # [M]
    grid = row[:, None] + col[None, :]  # implicit broadcast of [M,1] and [1,N]
    s = tl.full([BLOCK_M, BLOCK_N], scale, tl.float32)  # splat of a runtime scalar
    b = tl.broadcast_to(col[None, :], [BLOCK_M, BLOCK_N])
    rr, cc = tl.broadcast(row[:, None], col[None, :])
    res = grid * s + b + rr * cc
    tl.store(out + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :], res)


@triton.jit
def expand_dims_3d(x, out, A: tl.constexpr, B: tl.constexpr):
    v = tl.load(x + tl.arange(0, B))
    v3 = tl.expand_dims(tl.expand_dims(v, 0), 2)  # [1, B, 1]
    a = tl.arange(0, A)[:, None, None]
    c = tl.arange(0, 2)[None, None, :]
    res = v3 * (a + c + 1).to(tl.float32)
    idx = a * (B * 2) + tl.arange(0, B)[None, :, None] * 2 + c
    tl.store(out + idx, res)


@triton.jit
def reshape_ops(x, out, M: tl.constexpr, N: tl.constexpr):
    flat = tl.load(x + tl.arange(0, M * N))
    tile = tl.reshape(flat, (M, N))
    reordered = tl.reshape(flat, [N, M], can_reorder=True)
    back = tl.ravel(tile)
    row_sums = tl.sum(reordered, axis=1)
    tl.store(out + tl.arange(0, M * N), back + 1.0)
    tl.store(out + M * N + tl.arange(0, N), row_sums)
    t3 = tile.reshape(M, N // 2, 2)
    tl.store(out + M * N + N + tl.arange(0, M * N), t3.reshape(M * N))


@triton.jit
def cat_join_split(x, y, out, BLOCK: tl.constexpr):
    a = tl.load(x + tl.arange(0, BLOCK))
    b = tl.load(y + tl.arange(0, BLOCK))
    c = tl.cat(a, b, can_reorder=True)  # [2*BLOCK]
    tl.store(out + tl.arange(0, 2 * BLOCK), c)
    j = tl.join(a, b)  # [BLOCK, 2]
    lo, hi = tl.split(j * 2.0)
    tl.store(out + 2 * BLOCK + tl.arange(0, BLOCK), lo - hi)
    inter = tl.interleave(a, b)  # [2*BLOCK]
    tl.store(out + 3 * BLOCK + tl.arange(0, 2 * BLOCK), inter)


@triton.jit
def join_split_2d(x, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    t = tl.load(x + offs)
    pair = tl.join(t, -t)  # [M, N, 2]
    pair = tl.permute(pair, (2, 0, 1))  # [2, M, N]
    pair = tl.permute(pair, (1, 2, 0))  # back to [M, N, 2]
    a, b = tl.split(pair)
    tl.store(out + offs, a * b)


@triton.jit
def transpose_2d(x, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    t = tl.load(x + offs)
    tt_ = tl.trans(t)  # [N, M]
    out_offs = tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :]
    tl.store(out + out_offs, tt_)
    tl.store(out + M * N + out_offs, t.T + 1.0)


@triton.jit
def permute_3d(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ia = tl.arange(0, A)[:, None, None]
    ib = tl.arange(0, B)[None, :, None]
    ic = tl.arange(0, C)[None, None, :]
    t = tl.load(x + ia * B * C + ib * C + ic)
    p = tl.permute(t, 2, 0, 1)  # [C, A, B]
    jc = tl.arange(0, C)[:, None, None]
    ja = tl.arange(0, A)[None, :, None]
    jb = tl.arange(0, B)[None, None, :]
    tl.store(out + jc * A * B + ja * B + jb, p)
    q = tl.trans(t, (1, 0, 2))  # [B, A, C]
    kb = tl.arange(0, B)[:, None, None]
    ka = tl.arange(0, A)[None, :, None]
    kc = tl.arange(0, C)[None, None, :]
    tl.store(out + A * B * C + kb * A * C + ka * C + kc, q)


@triton.jit
def unsplat_item(x, out):
    one = tl.load(x + tl.arange(0, 1))  # tensor<1xf32>
    s = one.item()  # tt.unsplat
    pair = tl.load(x + tl.arange(0, 2))
    first, second = tl.split(pair)  # rank-1 split yields scalars
    tl.store(out, s + first * second)


@triton.jit
def full_zeros(out, fill, BLOCK: tl.constexpr):
    z = tl.zeros([BLOCK, BLOCK], dtype=tl.float16)
    f = tl.full([BLOCK, BLOCK], fill, tl.int32)
    o = tl.zeros_like(z) + 1
    i = tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]
    tl.store(out + i, (z + o).to(tl.float32) + f.to(tl.float32))


@triton.jit
def squeeze_unsqueeze(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    u = tl.unsqueeze(v, 0)  # [1, BLOCK]
    w = tl.squeeze(u * 3.0, 0)
    tl.store(out + tl.arange(0, BLOCK), w)


@triton.jit
def grouped_ordering(out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    pm, pn = tl.swizzle2d(pid // grid_n, pid % grid_n, grid_m, grid_n, GROUP)
    tl.store(out + pid * 2, pm)
    tl.store(out + pid * 2 + 1, pn)


KERNELS = {
    "program_ids": ({"out": "*i32"}, {}),
    "make_range_offset": ({"out": "*i32"}, {"BLOCK": 64}),
    "splat_broadcast": ({"x": "*fp32", "out": "*fp32", "scale": "fp32"}, {"BLOCK_M": 16, "BLOCK_N": 32}),
    "expand_dims_3d": ({"x": "*fp32", "out": "*fp32"}, {"A": 4, "B": 8}),
    "reshape_ops": ({"x": "*fp32", "out": "*fp32"}, {"M": 8, "N": 16}),
    "cat_join_split": ({"x": "*fp32", "y": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "join_split_2d": ({"x": "*fp32", "out": "*fp32"}, {"M": 16, "N": 16}),
    "transpose_2d": ({"x": "*fp32", "out": "*fp32"}, {"M": 16, "N": 32}),
    "permute_3d": ({"x": "*fp16", "out": "*fp16"}, {"A": 4, "B": 8, "C": 16}),
    "unsplat_item": ({"x": "*fp32", "out": "*fp32"}, {}),
    "full_zeros": ({"out": "*fp32", "fill": "i32"}, {"BLOCK": 16}),
    "squeeze_unsqueeze": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "grouped_ordering": ({"out": "*i32", "M": "i32", "N": "i32"}, {"BLOCK_M": 64, "BLOCK_N": 64, "GROUP": 8}),
}
