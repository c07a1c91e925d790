"""Atomics: tt.atomic_rmw of every kind, tt.atomic_cas, memory semantics and scopes, atomic load/store/poll."""
import triton
import triton.language as tl


@triton.jit
def atomic_add_kinds(p_i32, p_f32, p_f16, p_bf16, p_i64, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(p_i32 + offs, offs)  # add
    tl.atomic_add(p_f32 + offs, offs.to(tl.float32))  # fadd
    tl.atomic_add(p_f16 + offs, offs.to(tl.float16))
    tl.atomic_add(p_bf16 + offs, offs.to(tl.bfloat16))
    tl.atomic_add(p_i64 + offs, offs.to(tl.int64))


@triton.jit
def atomic_minmax_signed(p, vals, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(vals + offs)
    tl.atomic_max(p + offs, v)  # max
    tl.atomic_min(p + BLOCK + offs, v)  # min


@triton.jit
def atomic_minmax_unsigned(p, vals, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(vals + offs)
    tl.atomic_max(p + offs, v)  # umax
    tl.atomic_min(p + BLOCK + offs, v)  # umin


@triton.jit
def atomic_minmax_float(p, vals, BLOCK: tl.constexpr):
    # float max/min are emitted as signed/unsigned integer atomics picked by the sign
    offs = tl.arange(0, BLOCK)
    v = tl.load(vals + offs)
    tl.atomic_max(p + offs, v)
    tl.atomic_min(p + BLOCK + offs, v)


@triton.jit
def atomic_bitwise_xchg(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_and(p + offs, 0xF0F0)
    tl.atomic_or(p + BLOCK + offs, 0x0101)
    tl.atomic_xor(p + 2 * BLOCK + offs, offs)
    old = tl.atomic_xchg(p + 3 * BLOCK + offs, offs * 2)
    tl.store(p + 4 * BLOCK + offs, old)


@triton.jit
def atomic_sem_scope(p, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.atomic_add(p + offs, 1, sem="relaxed", scope="gpu")
    b = tl.atomic_add(p + offs, 1, sem="acquire", scope="cta")
    c = tl.atomic_add(p + offs, 1, sem="release", scope="sys")
    d = tl.atomic_add(p + offs, 1, sem="acq_rel")
    tl.store(out + offs, a + b + c + d)


@triton.jit
def atomic_masked_scalar(p, counter, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(p + offs, 1.0, mask=offs < n)
    ticket = tl.atomic_add(counter, 1)  # scalar atomic
    tl.store(p + BLOCK + ticket, 2.0)


@triton.jit
def atomic_cas_lock(lock, data, out, BLOCK: tl.constexpr):
    # spin lock with compare-and-swap, then a scalar and a tensor CAS
    while tl.atomic_cas(lock, 0, 1, sem="acquire") == 1:
        pass
    offs = tl.arange(0, BLOCK)
    tl.store(data + offs, tl.load(data + offs) + 1.0)
    tl.atomic_xchg(lock, 0, sem="release")
    old = tl.atomic_cas(out + offs, tl.zeros([BLOCK], tl.int32), offs, sem="relaxed", scope="cta")
    tl.store(out + BLOCK + offs, old)


@triton.jit
def atomic_load_store_poll(flag, data, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.atomic_load(data + offs, sem="acquire", scope="gpu")
    w = tl.atomic_load(data + BLOCK + offs, mask=offs < 8, sem="relaxed")
    tl.atomic_store(out + offs, v + w, sem="release")
    tl.atomic_store(out + BLOCK + offs, w, mask=offs > 2, sem="relaxed", scope="cta")
    ready = tl.atomic_poll(flag, 1, sem="acquire", scope="gpu", timeout_ns=1000)
    tl.store(out + 2 * BLOCK, ready.to(tl.int32))
    ok = tl.atomic_poll(flag + 1 + offs, offs)
    tl.store(out + 2 * BLOCK + 1 + offs, ok.to(tl.int32))


KERNELS = {
    "atomic_add_kinds": ({"p_i32": "*i32", "p_f32": "*fp32", "p_f16": "*fp16", "p_bf16": "*bf16", "p_i64": "*i64"},
                         {"BLOCK": 64}),
    "atomic_minmax_signed": ({"p": "*i32", "vals": "*i32"}, {"BLOCK": 64}),
    "atomic_minmax_unsigned": ({"p": "*u32", "vals": "*u32"}, {"BLOCK": 64}),
    "atomic_minmax_float": ({"p": "*fp32", "vals": "*fp32"}, {"BLOCK": 64}),
    "atomic_bitwise_xchg": ({"p": "*i32"}, {"BLOCK": 64}),
    "atomic_sem_scope": ({"p": "*i32", "out": "*i32"}, {"BLOCK": 64}),
    "atomic_masked_scalar": ({"p": "*fp32", "counter": "*i32", "n": "i32"}, {"BLOCK": 64}),
    "atomic_cas_lock": ({"lock": "*i32", "data": "*fp32", "out": "*i32"}, {"BLOCK": 64}),
    "atomic_load_store_poll": ({"flag": "*i32", "data": "*i32", "out": "*i32"}, {"BLOCK": 32}),
}
