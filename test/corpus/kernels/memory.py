"""Memory access: tt.load / tt.store in their variants, pointer arithmetic, pointer casts and hints.

Each entry of KERNELS maps an entry name to (signature, constexprs) or (signature, constexprs, extra).
The signature lists the runtime parameters; constexpr parameters are given by value in constexprs.
See ../generate.py for the meaning of `extra`.
"""
import triton
import triton.language as tl


@triton.jit
def masked_copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    v = tl.load(src + offs, mask=keep)
    tl.store(dst + offs, v, mask=keep)


@triton.jit
def masked_load_other(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    a = tl.load(src + offs, mask=inside, other=-1.5)
    b = tl.load(src + offs + 1, mask=(offs + 1) < n, other=float("-inf"))
    tl.store(dst + offs, tl.maximum(a, b))


@triton.jit
def scalar_access(src, dst, idx):
    first = tl.load(src)
    picked = tl.load(src + idx, mask=idx >= 0, other=0.0)
    tl.store(dst, first + picked)
    tl.store(dst + 1, picked, mask=idx > 3)


@triton.jit
def load_cache_modifiers(src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(src + offs, cache_modifier=".ca")
    b = tl.load(src + BLOCK + offs, cache_modifier=".cg")
    c = tl.load(src + 2 * BLOCK + offs, cache_modifier=".cv")
    tl.store(dst + offs, a)
    tl.store(dst + BLOCK + offs, b, cache_modifier=".wb")
    tl.store(dst + 2 * BLOCK + offs, c, cache_modifier=".cg")
    tl.store(dst + 3 * BLOCK + offs, a + b, cache_modifier=".cs")
    tl.store(dst + 4 * BLOCK + offs, b + c, cache_modifier=".wt")


@triton.jit
def eviction_policies(src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(src + offs, eviction_policy="evict_first")
    b = tl.load(src + BLOCK + offs, eviction_policy="evict_last")
    c = tl.load(src + 2 * BLOCK + offs, cache_modifier=".cg", eviction_policy="evict_last")
    tl.store(dst + offs, a + b, eviction_policy="evict_first")
    tl.store(dst + BLOCK + offs, c, eviction_policy="evict_last")


@triton.jit
def volatile_load(flag, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(flag + offs, volatile=True)
    s = tl.load(flag, volatile=True)
    tl.store(dst + offs, v + s)


@triton.jit
def tile_2d(src, dst, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    ptrs = src + rows[:, None] * stride_m + cols[None, :]
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(ptrs, mask=inside, other=0.0)
    tl.store(dst + rows[:, None] * N + cols[None, :], tile * 2.0, mask=inside)


@triton.jit
def dtype_copies(p_i8, p_i16, p_i64, p_u8, p_f16, p_bf16, p_f64, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.load(p_i8 + offs).to(tl.float32)
    acc += tl.load(p_i16 + offs).to(tl.float32)
    acc += tl.load(p_i64 + offs).to(tl.float32)
    acc += tl.load(p_u8 + offs).to(tl.float32)
    acc += tl.load(p_f16 + offs).to(tl.float32)
    acc += tl.load(p_bf16 + offs).to(tl.float32)
    acc += tl.load(p_f64 + offs).to(tl.float32)
    tl.store(out + offs, acc)
    tl.store(p_f16 + offs, acc.to(tl.float16))
    tl.store(p_bf16 + offs, acc.to(tl.bfloat16))
    tl.store(p_i64 + offs, acc.to(tl.int64))


@triton.jit
def bool_memory(flags, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    f = tl.load(flags + offs)
    tl.store(out + offs, f ^ (offs % 3 == 0))


@triton.jit
def int64_offsets(src, dst, n, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * stride + tl.arange(0, BLOCK).to(tl.int64)
    v = tl.load(src + offs, mask=offs < n)
    tl.store(dst + offs, v, mask=offs < n)


@triton.jit
def pointer_walk(src, dst, steps, BLOCK: tl.constexpr):
    # Pointers carried through a loop as iteration arguments.
    p = src + tl.arange(0, BLOCK)
    q = dst + tl.arange(0, BLOCK)
    for _ in range(steps):
        tl.store(q, tl.load(p) + 1.0)
        p += BLOCK
        q += BLOCK


@triton.jit
def ptr_int_roundtrip(src, dst, BLOCK: tl.constexpr):
    addr = src.to(tl.int64, bitcast=False)
    addr = addr + 4 * BLOCK
    moved = addr.to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(moved + offs))
    tile_addrs = (src + offs).to(tl.int64)
    tl.store(dst + BLOCK + offs, tile_addrs.to(tl.float32))


@triton.jit
def pointer_bitcast(src, dst, BLOCK: tl.constexpr):
    as_int = src.to(tl.pointer_type(tl.int32))
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(as_int + offs) >> 1)


@triton.jit
def pointer_table(table, dst, BLOCK: tl.constexpr):
    # table holds pointers; load a pointer, then load through it.
    row = tl.load(table + tl.program_id(0))
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(row + offs))


@triton.jit
def address_table(table, dst, BLOCK: tl.constexpr):
    # addresses stored as int64: tt.int_to_ptr (scalar and tensor)
    base = tl.load(table + tl.program_id(0)).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    scattered = tl.load(table + 1 + offs).to(tl.pointer_type(tl.float32))
    tl.store(dst + offs, tl.load(base + offs) + tl.load(scattered))


@triton.jit
def compiler_hints(src, dst, n, BLOCK: tl.constexpr):
    tl.assume(n > 0)
    tl.assume(n % 16 == 0)
    start = tl.multiple_of(tl.program_id(0) * BLOCK, BLOCK)
    offs = start + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    same = tl.max_constancy(offs // BLOCK, BLOCK)
    v = tl.load(src + offs, mask=offs < n)
    tl.debug_barrier()
    tl.store(dst + offs, v + same.to(tl.float32), mask=offs < n)


@triton.jit
def block_pointer_removed(src, dst, n, BLOCK: tl.constexpr):
    # Block pointers were removed from Triton; kept to record the frontend's answer.
    bp = tl.make_block_ptr(src, shape=(n, ), strides=(1, ), offsets=(0, ), block_shape=(BLOCK, ), order=(0, ))
    tl.store(dst + tl.arange(0, BLOCK), tl.load(bp))


KERNELS = {
    "masked_copy": ({"src": "*fp32", "dst": "*fp32", "n": "i32"}, {"BLOCK": 128}),
    "masked_load_other": ({"src": "*fp32", "dst": "*fp32", "n": "i32"}, {"BLOCK": 128}),
    "scalar_access": ({"src": "*fp32", "dst": "*fp32", "idx": "i32"}, {}),
    "load_cache_modifiers": ({"src": "*fp32", "dst": "*fp32"}, {"BLOCK": 64}),
    "eviction_policies": ({"src": "*fp16", "dst": "*fp16"}, {"BLOCK": 64}),
    "volatile_load": ({"flag": "*i32", "dst": "*i32"}, {"BLOCK": 32}),
    "tile_2d": ({"src": "*fp32", "dst": "*fp32", "M": "i32", "N": "i32", "stride_m": "i32"},
                {"BLOCK_M": 16, "BLOCK_N": 32}),
    "dtype_copies": ({"p_i8": "*i8", "p_i16": "*i16", "p_i64": "*i64", "p_u8": "*u8", "p_f16": "*fp16",
                      "p_bf16": "*bf16", "p_f64": "*fp64", "out": "*fp32"}, {"BLOCK": 64}),
    "bool_memory": ({"flags": "*i1", "out": "*i1"}, {"BLOCK": 64}),
    "int64_offsets": ({"src": "*fp32", "dst": "*fp32", "n": "i64", "stride": "i64"}, {"BLOCK": 128}),
    "pointer_walk": ({"src": "*fp32", "dst": "*fp32", "steps": "i32"}, {"BLOCK": 64}),
    "ptr_int_roundtrip": ({"src": "*fp32", "dst": "*fp32"}, {"BLOCK": 32}),
    "pointer_bitcast": ({"src": "*fp32", "dst": "*i32"}, {"BLOCK": 64}),
    "pointer_table": ({"table": "**fp32", "dst": "*fp32"}, {"BLOCK": 64}),
    "address_table": ({"table": "*i64", "dst": "*fp32"}, {"BLOCK": 64}),
    "compiler_hints": ({"src": "*fp32", "dst": "*fp32", "n": "i32"}, {"BLOCK": 128}),
    "block_pointer_removed": ({"src": "*fp32", "dst": "*fp32", "n": "i32"}, {"BLOCK": 64}),
}
