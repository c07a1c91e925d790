"""Zoo: low-memory dropout; the keep mask is regenerated from (seed, offset) with tl.rand instead of stored."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def zoo_seeded_dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    x = tl.load(x_ptr + offs, mask=valid)
    r = tl.rand(seed, offs)
    keep = r > p
    y = tl.where(keep, x / (1 - p), 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=valid)


@triton.jit
def zoo_rand_kernel(out_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.rand(seed, offs), mask=offs < n)


M32 = 0xFFFFFFFF


def philox4x32_10(seed, c0, c1=0, c2=0, c3=0):
    """Reference Philox4x32 with 10 rounds (Salmon et al., SC'11); key = (low, high) 32 bits of the seed."""
    k0, k1 = seed & M32, (seed >> 32) & M32
    for _ in range(10):
        pa, pb = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((pb >> 32) ^ c1 ^ k0) & M32, pb & M32, ((pa >> 32) ^ c3 ^ k1) & M32, pa & M32
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3


def reference_uniform(seed, n):
    """The first Philox word per offset as a float in [0, 1): |int32| / 2**31 (negative values folded as -x-1)."""
    words = torch.tensor([philox4x32_10(seed, i)[0] for i in range(n)], dtype=torch.int64)
    signed = torch.where(words >= 2**31, words - 2**32, words)
    folded = torch.where(signed < 0, -signed - 1, signed)
    return folded.double() / 2**31


def dropout(x, p, seed, block=256):
    out = torch.empty_like(x)
    n = x.numel()
    zoo_seeded_dropout_kernel[(triton.cdiv(n, block), )](x, out, n, p, seed, BLOCK=block)
    return out


def nonzero_input(n, dtype=torch.float32):
    # |x| >= 0.5 so a zero in the output always means "dropped"
    x = torch.randn(n)
    return (x.sign() * (x.abs() + 0.5)).to(dtype)


@pytest.mark.parametrize("n", [1, 100, 1000, 4097])
def test_same_seed_same_mask(n):
    x = nonzero_input(n)
    a, b = dropout(x, 0.5, seed=123), dropout(x, 0.5, seed=123)
    assert torch.equal(a, b), f"two runs with seed 123 differ at {(a != b).nonzero().flatten()[:10].tolist()}"


def test_different_seed_different_mask():
    x = nonzero_input(4096)
    masks = [dropout(x, 0.5, seed=s) != 0 for s in (1, 2, 3, 12345)]
    for i in range(len(masks)):
        for j in range(i + 1, len(masks)):
            same = (masks[i] == masks[j]).float().mean().item()
            # independent masks with p=0.5 agree on ~50% of elements
            assert 0.4 < same < 0.6, f"masks for seeds #{i} and #{j} agree on {same:.3f} of the elements"


def test_mask_depends_on_offset_not_on_block_size():
    x = nonzero_input(3000)
    ref = dropout(x, 0.3, seed=7, block=1024)
    for block in (16, 128, 512):
        out = dropout(x, 0.3, seed=7, block=block)
        assert torch.equal(out, ref), f"BLOCK={block} gives a different dropout than BLOCK=1024"


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_kept_values_scaled_and_fraction_dropped(p, dtype):
    n = 20000
    x = nonzero_input(n, dtype)
    out = dropout(x, p, seed=2024)
    kept = out != 0
    frac_dropped = 1 - kept.float().mean().item()
    # binomial std for n=20000 is <= 0.0036; allow ~5 sigma
    assert abs(frac_dropped - p) < 0.02, f"p={p}: dropped {frac_dropped:.4f} of the elements"
    expected = (x.float()[kept] / (1 - p)).to(dtype)
    tol = dict(rtol=1e-6, atol=0) if dtype == torch.float32 else dict(rtol=1e-3, atol=0)
    torch.testing.assert_close(out[kept], expected, **tol, msg=lambda m: f"kept values with p={p}: {m}")


def test_mask_is_rand_greater_than_p():
    n, p, seed = 5000, 0.25, 99
    x = nonzero_input(n)
    r = torch.empty(n)
    zoo_rand_kernel[(triton.cdiv(n, 512), )](r, n, seed, BLOCK=512)
    assert r.min() >= 0 and r.max() < 1, f"tl.rand outside [0, 1): min {r.min()}, max {r.max()}"
    assert abs(r.mean().item() - 0.5) < 0.02, f"tl.rand mean {r.mean().item()}"
    out = dropout(x, p, seed)
    assert torch.equal(out != 0, r > p), "the dropout mask is not tl.rand(seed, offsets) > p"


@pytest.mark.parametrize("seed", [0, 42, 2**31 + 3, 2**40 + 17])
def test_mask_matches_reference_philox(seed):
    n, p = 2000, 0.4
    x = nonzero_input(n)
    keep = dropout(x, p, seed) != 0
    u = reference_uniform(seed, n)
    decided = (u - p).abs() > 1e-6  # leave out values within float rounding of the threshold
    expected = u > p
    wrong = (keep != expected) & decided
    assert not wrong.any(), f"seed {seed}: mask differs from Philox4x32-10 at offsets {wrong.nonzero().flatten()[:10]}"


def test_seed_high_bits_matter():
    x = nonzero_input(4096)
    a = dropout(x, 0.5, seed=5) != 0
    b = dropout(x, 0.5, seed=2**32 + 5) != 0
    same = (a == b).float().mean().item()
    assert 0.4 < same < 0.6, f"seeds 5 and 2**32 + 5 give masks agreeing on {same:.3f} of the elements"


def test_p_zero_keeps_everything_and_p_one_drops_everything():
    x = nonzero_input(777)
    torch.testing.assert_close(dropout(x, 0.0, seed=5), x, rtol=0, atol=0)
    assert torch.all(dropout(x, 1.0, seed=5) == 0)


def test_tail_is_not_written():
    n, block = 300, 256
    x = nonzero_input(n)
    buf = torch.full((512, ), 3.0)
    zoo_seeded_dropout_kernel[(triton.cdiv(n, block), )](x, buf[:n], n, 0.5, 11, BLOCK=block)
    assert torch.all(buf[n:] == 3.0), "dropout wrote past n"
