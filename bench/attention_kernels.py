"""The benchmarked fused attention: the flash-attention forward pass of Triton's tutorials, written with
pointer arithmetic (one program per BLOCK_M queries of one head; keys and values walked in BLOCK_N
blocks with a running maximum and sum; exp2 with the scale folded in)."""

import math

import triton
import triton.language as tl


@triton.jit
def attention_forward_kernel(Q, K, V, O, stride_head, stride_seq, seq_len, sm_scale, HEAD_DIM: tl.constexpr,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    dims = tl.arange(0, HEAD_DIM)
    base = head * stride_head
    q = tl.load(Q + base + rows[:, None] * stride_seq + dims[None, :])
    running_max = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    running_sum = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    scale = sm_scale * 1.4426950408889634  # log2(e): exp(x) = exp2(x * log2(e))
    end = (start_m + 1) * BLOCK_M if CAUSAL else seq_len
    for start_n in range(0, end, BLOCK_N):
        keys = start_n + cols
        k = tl.load(K + base + keys[:, None] * stride_seq + dims[None, :])
        scores = tl.dot(q, tl.trans(k))
        if CAUSAL:
            scores = tl.where(rows[:, None] >= keys[None, :], scores, -1.0e6)
        block_max = tl.maximum(running_max, tl.max(scores, 1) * scale)
        p = tl.math.exp2(scores * scale - block_max[:, None])
        correction = tl.math.exp2(running_max - block_max)
        running_sum = running_sum * correction + tl.sum(p, 1)
        v = tl.load(V + base + keys[:, None] * stride_seq + dims[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc * correction[:, None])
        running_max = block_max
    out = acc / running_sum[:, None]
    tl.store(O + base + rows[:, None] * stride_seq + dims[None, :], out.to(O.dtype.element_ty))


# Blocks for a CPU core, autotuned as the tutorial autotunes its own: 64 or 128 queries a program, 64 or 128
# keys a step (larger blocks give the products longer runs; causal rows waste more of a larger block).
ATTENTION_CONFIGS = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}) for bm, bn in ((64, 64), (128, 64), (128, 128))]
autotuned_attention_forward_kernel = triton.autotune(configs=ATTENTION_CONFIGS, key=["seq_len", "HEAD_DIM", "CAUSAL"])(
    attention_forward_kernel)


def attention(q, k, v, out, causal, block_m=None, block_n=None):
    """out = softmax(q k^T / sqrt(d)) v for contiguous [batch, heads, seq, head_dim] tensors, seq a multiple
    of the blocks (of 128 when they are autotuned, as they are unless given); returns the blocks that ran."""
    batch, heads, seq, dim = q.shape
    args = (q, k, v, out, seq * dim, dim, seq, 1.0 / math.sqrt(dim))
    if block_m is None:
        grid = lambda meta: (seq // meta["BLOCK_M"], batch * heads)  # noqa: E731
        autotuned_attention_forward_kernel[grid](*args, HEAD_DIM=dim, CAUSAL=causal)
        config = autotuned_attention_forward_kernel.best_config.kwargs
        return config["BLOCK_M"], config["BLOCK_N"]
    grid = (seq // block_m, batch * heads)
    attention_forward_kernel[grid](*args, HEAD_DIM=dim, BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal)
    return block_m, block_n
