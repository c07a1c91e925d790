"""Tensor descriptors: tl.make_tensor_descriptor and descriptor kernel arguments, load/store, gather/scatter,
atomic reductions, a TMA-style matmul loop. make_ttir for sm80 (and gfx942) rewrites descriptors to pointers;
for sm90 they stay tt.descriptor_* ops (see ttir_sm90/)."""
import triton
import triton.language as tl


@triton.jit
def desc_load_store(src, dst, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    d_in = tl.make_tensor_descriptor(src, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    d_out = tl.make_tensor_descriptor(dst, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    om = tl.program_id(0) * BLOCK_M
    on = tl.program_id(1) * BLOCK_N
    tile = d_in.load([om, on])
    d_out.store([om, on], tl.abs(tile))


@triton.jit
def desc_kernel_argument(d_in, d_out, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # descriptors created on the host (triton.tools.tensor_descriptor.TensorDescriptor)
    om = tl.program_id(0) * BLOCK_M
    tile = d_in.load([om, 0])
    d_out.store([om, 0], tile * 2)


@triton.jit
def desc_3d_padding(src, dst, A, B, C, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    d = tl.make_tensor_descriptor(src, shape=[A, B, C], strides=[B * C, C, 1], block_shape=[BA, BB, BC],
                                  padding_option="nan")
    o = tl.make_tensor_descriptor(dst, shape=[A, B, C], strides=[B * C, C, 1], block_shape=[BA, BB, BC])
    t = d.load([tl.program_id(0) * BA, 0, 0])
    o.store([tl.program_id(0) * BA, 0, 0], t + 1.0)


@triton.jit
def desc_gather_scatter(src, dst, rows, M, N, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    d_in = tl.make_tensor_descriptor(src, shape=[M, N], strides=[N, 1], block_shape=[1, BLOCK_N])
    d_out = tl.make_tensor_descriptor(dst, shape=[M, N], strides=[N, 1], block_shape=[1, BLOCK_N])
    r = tl.load(rows + tl.arange(0, ROWS))
    g = d_in.gather(r, 0)  # [ROWS, BLOCK_N]
    d_out.scatter(g * 2.0, r, 0)


@triton.jit
def desc_atomics(acc_f32, acc_i32, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    df = tl.make_tensor_descriptor(acc_f32, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    di = tl.make_tensor_descriptor(acc_i32, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    om = tl.program_id(0) * BLOCK_M
    ones = tl.full([BLOCK_M, BLOCK_N], 1.0, tl.float32)
    idx = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    df.atomic_add([om, 0], ones)
    di.atomic_min([om, 0], idx)
    di.atomic_max([om, 0], idx)
    di.atomic_and([om, 0], idx)
    di.atomic_or([om, 0], idx)
    di.atomic_xor([om, 0], idx)


@triton.jit
def desc_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    om = tl.program_id(0) * BLOCK_M
    on = tl.program_id(1) * BLOCK_N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([om, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, on])
        acc = tl.dot(a, b, acc)
    c_desc.store([om, on], acc.to(tl.float16))


_DIV = {"N": [["tt.divisibility", 16]], "K": [["tt.divisibility", 16]], "C": [["tt.divisibility", 16]]}

KERNELS = {
    "desc_load_store": ({"src": "*fp16", "dst": "*fp16", "M": "i32", "N": "i32"}, {"BLOCK_M": 32, "BLOCK_N": 64},
                        {"attrs": _DIV}),
    "desc_kernel_argument": ({"d_in": "tensordesc<fp16[32, 64]>", "d_out": "tensordesc<fp16[32, 64]>"},
                             {"BLOCK_M": 32, "BLOCK_N": 64}),
    "desc_3d_padding": ({"src": "*fp32", "dst": "*fp32", "A": "i32", "B": "i32", "C": "i32"},
                        {"BA": 2, "BB": 8, "BC": 32}, {"attrs": _DIV}),
    "desc_gather_scatter": ({"src": "*fp32", "dst": "*fp32", "rows": "*i32", "M": "i32", "N": "i32"},
                            {"ROWS": 8, "BLOCK_N": 64}, {"attrs": _DIV}),
    "desc_atomics": ({"acc_f32": "*fp32", "acc_i32": "*i32", "M": "i32", "N": "i32"}, {"BLOCK_M": 16, "BLOCK_N": 32},
                     {"attrs": _DIV}),
    "desc_matmul": ({"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
                    {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, {"options": {"num_stages": 3}, "attrs": _DIV}),
}
