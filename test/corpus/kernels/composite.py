"""Small end-to-end kernels in the style of real workloads (exercise layouts, pipelining, MMA encodings)."""
import triton
import triton.language as tl


@triton.jit
def vector_add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def layer_norm_fwd(x, w, b, out, mean_out, rstd_out, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(v, axis=0) / N
    d = tl.where(m, v - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    y = d * rstd * tl.load(w + cols, mask=m) + tl.load(b + cols, mask=m)
    tl.store(out + row * stride + cols, y.to(out.dtype.element_ty), mask=m)
    tl.store(mean_out + row, mean)
    tl.store(rstd_out + row, rstd)


@triton.jit
def online_softmax(x, out, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m_i = -float("inf")
    l_i = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x + row * stride + cols, mask=cols < N, other=-float("inf"))
        m_new = tl.maximum(m_i, tl.max(v, axis=0))
        l_i = l_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(v - m_new), axis=0)
        m_i = m_new
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x + row * stride + cols, mask=cols < N, other=-float("inf"))
        tl.store(out + row * stride + cols, tl.exp(v - m_i) / l_i, mask=cols < N)


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, sm_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  HEAD: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    rm = start_m + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, HEAD)
    q = tl.load(q_ptr + rm[:, None] * HEAD + rd[None, :])
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD], dtype=tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        rn = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + rn[None, :] * HEAD + rd[:, None])  # [HEAD, BLOCK_N]
        s = tl.dot(q, k) * sm_scale
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + rn[:, None] * HEAD + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o_ptr + rm[:, None] * HEAD + rd[None, :], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def matmul_epilogue(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    acc += tl.load(bias_ptr + rn)[None, :]
    acc = tl.where(acc > 0, acc, 0.01 * acc)
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + cm[:, None] * N + cn[None, :], acc.to(tl.float16), mask=(cm[:, None] < M) & (cn[None, :] < N))


_DIV = {n: [["tt.divisibility", 16]] for n in ("N", "K", "stride", "seq_len")}

KERNELS = {
    "vector_add": ({"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 1024}),
    "layer_norm_fwd": ({"x": "*fp16", "w": "*fp32", "b": "*fp32", "out": "*fp16", "mean_out": "*fp32",
                        "rstd_out": "*fp32", "stride": "i32", "N": "i32", "eps": "fp32"}, {"BLOCK": 512},
                       {"attrs": _DIV}),
    "online_softmax": ({"x": "*fp32", "out": "*fp32", "N": "i32", "stride": "i32"}, {"BLOCK": 256}, {"attrs": _DIV}),
    "attention_fwd": ({"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "seq_len": "i32",
                       "sm_scale": "fp32"}, {"BLOCK_M": 64, "BLOCK_N": 32, "HEAD": 64},
                      {"options": {"num_warps": 4, "num_stages": 2}, "attrs": _DIV}),
    "matmul_epilogue": ({"a_ptr": "*fp16", "b_ptr": "*fp16", "bias_ptr": "*fp32", "c_ptr": "*fp16", "M": "i32",
                         "N": "i32", "K": "i32"}, {"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8},
                        {"options": {"num_warps": 8, "num_stages": 3}, "attrs": _DIV}),
}
