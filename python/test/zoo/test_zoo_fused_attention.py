"""Zoo: flash-attention-style forward: one program per (query block, batch*head), online softmax over KV blocks."""

import math

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def zoo_attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, sm_scale, seq, s_b, s_h, s_s, s_d, H,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    base = (bh // H) * s_b + (bh % H) * s_h
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_D)
    row_ok = offs_m < seq
    q = tl.load(q_ptr + base + offs_m[:, None] * s_s + offs_d[None, :] * s_d, mask=row_ok[:, None], other=0.0)

    m_i = tl.full((BLOCK_M, ), -float("inf"), dtype=tl.float32)  # running row max of the scaled scores
    l_i = tl.zeros((BLOCK_M, ), dtype=tl.float32)  # running sum of exp(score - m_i)
    acc = tl.zeros((BLOCK_M, HEAD_D), dtype=tl.float32)
    if CAUSAL:
        kv_end = tl.minimum(start_m + BLOCK_M, seq)  # keys past the block's last query are all masked
    else:
        kv_end = seq
    for start_n in range(0, kv_end, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        col_ok = offs_n < seq
        kt = tl.load(k_ptr + base + offs_n[None, :] * s_s + offs_d[:, None] * s_d, mask=col_ok[None, :], other=0.0)
        v = tl.load(v_ptr + base + offs_n[:, None] * s_s + offs_d[None, :] * s_d, mask=col_ok[:, None], other=0.0)
        s = tl.dot(q, kt, input_precision="ieee") * sm_scale
        allowed = col_ok[None, :]
        if CAUSAL:
            allowed = allowed & (offs_m[:, None] >= offs_n[None, :])
        s = tl.where(allowed, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc, input_precision="ieee")
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * s_s + offs_d[None, :] * s_d, out.to(o_ptr.dtype.element_ty),
             mask=row_ok[:, None])
    tl.store(lse_ptr + bh * seq + offs_m, m_i + tl.log(l_i), mask=row_ok)


@triton.jit
def zoo_attn_inner(acc, l_i, m_i, q, k_base, v_base, offs_m, lo, hi, seq, s_s, s_d, qk_scale, BLOCK_N: tl.constexpr,
                   HEAD_D: tl.constexpr, DIAGONAL: tl.constexpr):
    # scores in base 2: qk_scale already includes log2(e), so exp2 replaces exp
    offs_d = tl.arange(0, HEAD_D)
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        col_ok = offs_n < seq
        k = tl.load(k_base + offs_n[:, None] * s_s + offs_d[None, :] * s_d, mask=col_ok[:, None], other=0.0)
        v = tl.load(v_base + offs_n[:, None] * s_s + offs_d[None, :] * s_d, mask=col_ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k), input_precision="ieee") * qk_scale
        if DIAGONAL:
            s = tl.where((offs_m[:, None] >= offs_n[None, :]) & col_ok[None, :], s, -float("inf"))
        else:
            s = tl.where(col_ok[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None], input_precision="ieee")
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def zoo_attn_fwd_staged_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, seq, s_b, s_h, s_s, s_d, H,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_D: tl.constexpr,
                               CAUSAL: tl.constexpr):
    # causal attention in two stages: KV blocks wholly below the diagonal without a mask, then the diagonal blocks
    # with the causal mask (needs BLOCK_M % BLOCK_N == 0)
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    base = (bh // H) * s_b + (bh % H) * s_h
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_D)
    q = tl.load(q_ptr + base + offs_m[:, None] * s_s + offs_d[None, :] * s_d, mask=offs_m[:, None] < seq, other=0.0)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full((BLOCK_M, ), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M, ), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_D), dtype=tl.float32)
    if CAUSAL:
        acc, l_i, m_i = zoo_attn_inner(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, offs_m, 0, start_m, seq, s_s,
                                       s_d, qk_scale, BLOCK_N, HEAD_D, False)
        acc, l_i, m_i = zoo_attn_inner(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, offs_m, start_m,
                                       tl.minimum(start_m + BLOCK_M, seq), seq, s_s, s_d, qk_scale, BLOCK_N, HEAD_D,
                                       True)
    else:
        acc, l_i, m_i = zoo_attn_inner(acc, l_i, m_i, q, k_ptr + base, v_ptr + base, offs_m, 0, seq, seq, s_s, s_d,
                                       qk_scale, BLOCK_N, HEAD_D, False)
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * s_s + offs_d[None, :] * s_d, out.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < seq)


def attention_staged(q, k, v, causal, sm_scale, block_m=32, block_n=16):
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    zoo_attn_fwd_staged_kernel[(triton.cdiv(S, block_m), B * H)](q, k, v, o, sm_scale, S, q.stride(0), q.stride(1),
                                                                 q.stride(2), q.stride(3), H, BLOCK_M=block_m,
                                                                 BLOCK_N=block_n, HEAD_D=D, CAUSAL=causal)
    return o


def attention(q, k, v, causal, sm_scale, block_m=32, block_n=32):
    B, H, S, D = q.shape
    assert k.shape == v.shape == q.shape and q.stride() == k.stride() == v.stride()
    o = torch.empty_like(q)
    lse = torch.empty((B, H, S), dtype=torch.float32)
    grid = (triton.cdiv(S, block_m), B * H)
    zoo_attn_fwd_kernel[grid](q, k, v, o, lse, sm_scale, S, q.stride(0), q.stride(1), q.stride(2), q.stride(3), H,
                              BLOCK_M=block_m, BLOCK_N=block_n, HEAD_D=D, CAUSAL=causal)
    return o, lse


def reference(q, k, v, causal, sm_scale):
    qf, kf, vf = q.float(), k.float(), v.float()
    scores = (qf @ kf.transpose(-1, -2)) * sm_scale
    if causal:
        S = q.shape[2]
        scores = scores.masked_fill(torch.ones(S, S, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(scores, dim=-1) @ vf, torch.logsumexp(scores, dim=-1)


def make_qkv(shape, dtype):
    return [(torch.randn(shape) * 0.7).to(dtype) for _ in range(3)]


def tol(dtype):
    return dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-2, atol=1e-2)


SHAPES = [(2, 2, 128, 64), (1, 2, 100, 64), (2, 1, 45, 32), (1, 1, 1, 16)]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_attention_forward(shape, causal, dtype):
    q, k, v = make_qkv(shape, dtype)
    sm_scale = 1.0 / math.sqrt(shape[-1])
    out, lse = attention(q, k, v, causal, sm_scale)
    ref_out, ref_lse = reference(q, k, v, causal, sm_scale)
    torch.testing.assert_close(out, ref_out.to(dtype), **tol(dtype),
                               msg=lambda m: f"attention {shape} causal={causal} {dtype}: {m}")
    torch.testing.assert_close(lse, ref_lse, rtol=1e-4, atol=1e-4 if dtype == torch.float32 else 1e-3,
                               msg=lambda m: f"logsumexp {shape} causal={causal} {dtype}: {m}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_attention_forward_two_stage_exp2(shape, causal, dtype):
    q, k, v = make_qkv(shape, dtype)
    sm_scale = 1.0 / math.sqrt(shape[-1])
    out = attention_staged(q, k, v, causal, sm_scale)
    torch.testing.assert_close(out, reference(q, k, v, causal, sm_scale)[0].to(dtype), **tol(dtype),
                               msg=lambda m: f"two-stage attention {shape} causal={causal} {dtype}: {m}")


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_matches_torch_sdpa(causal):
    q, k, v = make_qkv((2, 2, 128, 64), torch.float32)
    out, _ = attention(q, k, v, causal, 1.0 / 8)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=1.0 / 8)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("sm_scale", [0.05, 0.5, 2.0])
def test_attention_sm_scale(sm_scale):
    q, k, v = make_qkv((1, 2, 64, 32), torch.float32)
    out, _ = attention(q, k, v, False, sm_scale)
    torch.testing.assert_close(out, reference(q, k, v, False, sm_scale)[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("block_m,block_n", [(16, 16), (16, 64), (64, 16)])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_block_shapes(block_m, block_n, causal):
    q, k, v = make_qkv((1, 2, 90, 32), torch.float32)
    out, _ = attention(q, k, v, causal, 0.2, block_m=block_m, block_n=block_n)
    torch.testing.assert_close(out, reference(q, k, v, causal, 0.2)[0], rtol=1e-4, atol=1e-4)


def test_attention_strided_layout():
    # (batch, seq, heads, d) memory viewed as (batch, heads, seq, d)
    B, S, H, D = 2, 70, 2, 32
    q, k, v = [t.transpose(1, 2) for t in make_qkv((B, S, H, D), torch.float32)]
    out, _ = attention(q, k, v, True, 0.25)
    torch.testing.assert_close(out, reference(q, k, v, True, 0.25)[0], rtol=1e-4, atol=1e-4)


def test_attention_large_scores_are_stable():
    q, k, v = make_qkv((1, 1, 64, 16), torch.float32)
    out, _ = attention(q * 30, k * 30, v, False, 1.0)
    ref = reference(q * 30, k * 30, v, False, 1.0)[0]
    assert torch.isfinite(out).all(), "online softmax overflowed"
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)
