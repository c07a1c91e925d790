"""TTGIR operations and encodings, each kernel checked against the same computation in torch.

The kernels are in python/test/ttgir/ops/ (a subdirectory, so that test_ttgir.py's matmul-signature
test does not pick them up). Each runs with `triton.compile(path)`, which parses and verifies the
file with triton's own dialects before tritium lowers it, as one program: grid (1, 1, 1).

1. Encodings: #ttg.nvidia_mma (v2), #ttg.amd_mfma (gfx942, 64-lane wavefronts), #ttg.amd_wmma
   (gfx1100), with dot operands in #ttg.dot_op of those parents; the shared encodings
   #ttg.padded_shared, #ttg.amd_rotating_shared and #ttg.shared_linear.
2. Operations: ttg.fp4_to_fp, ttg.predicate_stage, ttg.mask, ttg.local_atomic_scatter_rmw,
   ttg.memdesc_reshape, ttg.local_gather, ttg.local_scatter.
3. ttg.memdesc_reinterpret: the same bytes read as another element type.
"""

import itertools
import pathlib

import pytest
import torch
import triton

OPS = pathlib.Path(__file__).resolve().parent / "ttgir" / "ops"


def _launch(name, *args):
    compiled = triton.compile(str(OPS / f"{name}.ttgir"))
    compiled[(1, 1, 1)](*args)


def _generator(seed=0):
    return torch.Generator().manual_seed(seed)


# --- distributed encodings of matrix units -------------------------------------------------------


def test_nvidia_mma_v2_dots():
    g = _generator()
    a = torch.randn(32, 16, generator=g).to(torch.bfloat16)
    b = torch.randn(16, 32, generator=g).to(torch.bfloat16)
    acc = torch.randn(32, 32, generator=g)
    e = torch.randn(32, 16, generator=g).to(torch.bfloat16)
    c, d = torch.full((32, 32), float("nan")), torch.full((32, 16), float("nan"))
    _launch("nvidia_mma_dot", a, b, acc, e, c, d)
    torch.testing.assert_close(c, a.float() @ b.float() + acc, rtol=1e-5, atol=1e-5)
    # The second dot's operand is c rounded to bf16: round the kernel's own c, so that a last-bit
    # difference in c cannot flip a rounding.
    torch.testing.assert_close(d, c.to(torch.bfloat16).float() @ e.float(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name,axis", [("amd_mfma_dot", 1), ("amd_wmma_dot", 0)])
def test_amd_matrix_core_dot_and_reduction(name, axis):
    g = _generator()
    a = torch.randn(32, 16, generator=g).to(torch.float16)
    b = torch.randn(16, 32, generator=g).to(torch.float16)
    c, s = torch.full((32, 32), float("nan")), torch.full((32, ), float("nan"))
    _launch(name, a, b, c, s)
    expected = a.float() @ b.float()
    torch.testing.assert_close(c, expected, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(s, expected.sum(axis), rtol=1e-5, atol=1e-4)


# --- shared encodings -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["padded_shared", "padded_shared_permuted", "amd_rotating_shared", "shared_linear"])
def test_shared_encoding_store_load_and_subslice(name):
    x = torch.randn(32, 32, generator=_generator())
    y, z = torch.full((32, 32), float("nan")), torch.full((16, 32), float("nan"))
    _launch(name, x, y, z)
    torch.testing.assert_close(y, 2 * x, rtol=0, atol=0)
    torch.testing.assert_close(z, x[16:], rtol=0, atol=0)


# --- ttg.fp4_to_fp --------------------------------------------------------------------------------

E2M1_MAGNITUDES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def _e2m1(nibble):
    magnitude = E2M1_MAGNITUDES[nibble & 7]
    return -magnitude if nibble & 8 else magnitude  # -0.0 for 0b1000


def _unpack_e2m1(packed, axis, dtype):
    table = torch.tensor([_e2m1(n) for n in range(16)])
    byte = packed.to(torch.int32) & 0xFF
    pairs = torch.stack([table[byte & 0xF], table[byte >> 4]], dim=axis + 1)  # low nibble first
    return pairs.flatten(axis, axis + 1).to(dtype)


def test_fp4_to_fp_every_byte():
    # p and q hold the 256 byte values between them, in shuffled positions.
    everything = torch.arange(-128, 128, dtype=torch.int32)[torch.randperm(256, generator=_generator())]
    p = everything[:128].reshape(16, 8).to(torch.int8)
    q = everything[128:].reshape(8, 16).to(torch.int8)
    y = torch.full((16, 16), float("nan"), dtype=torch.bfloat16)
    z = torch.full((16, 16), float("nan"), dtype=torch.float16)
    _launch("fp4_to_fp", p, q, y, z)
    # Bit patterns, so that -0.0 is told from 0.0.
    assert torch.equal(y.view(torch.int16), _unpack_e2m1(p, 1, torch.bfloat16).view(torch.int16))
    assert torch.equal(z.view(torch.int16), _unpack_e2m1(q, 0, torch.float16).view(torch.int16))


# --- ttg.predicate_stage --------------------------------------------------------------------------

PREDICATE_STAGES = [(2, 0), (2, 1), (2, 2), (4, 1), (3, 0)]  # (maxStage, stage) of out[0..4]


@pytest.mark.parametrize("iv,ub,step", [
    (0, 10, 1), (7, 10, 1), (8, 10, 1), (9, 10, 1), (10, 10, 1),  # the last iterations of a loop
    (0, 4, 3), (-5, -1, 2), (-1, 5, 2),  # negative induction variables: the comparison is signed
    (1, -3, -1), (5, -100, -7),  # negative steps
])
def test_predicate_stage(iv, ub, step):
    out = torch.full((len(PREDICATE_STAGES), ), -1, dtype=torch.int32)
    _launch("predicate_stage", out, iv, ub, step)
    expected = [int(iv < ub - (max_stage - stage) * step) for max_stage, stage in PREDICATE_STAGES]
    assert out.tolist() == expected


# --- ttg.mask --------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", [1, 0, -7])
def test_mask_region_runs_only_when_predicate_holds(flag):
    x = torch.randn(64, generator=_generator())
    y, s = torch.full((64, ), 9.0), torch.full((1, ), 9.0)
    _launch("mask", x, y, s, flag)
    if flag:
        torch.testing.assert_close(y, 3 * x + 1)
        torch.testing.assert_close(s, x.sum().reshape(1), rtol=1e-5, atol=1e-5)
    else:  # undefined on a GPU; tritium yields zeros
        assert torch.equal(y, torch.zeros(64)) and torch.equal(s, torch.zeros(1))


@pytest.mark.parametrize("flag", [1, 0])
def test_mask_without_results_predicates_its_store(flag):
    # triton prints this region's terminator as `ttg.mask.return :`, which its own parser rejects;
    # tritium reads the module triton prints, so its parser accepts that form.
    x = torch.randn(64, generator=_generator())
    w = torch.full((64, ), 5.0)
    _launch("mask_without_results", x, w, flag)
    assert torch.equal(w, x if flag else torch.full((64, ), 5.0))


# --- ttg.local_atomic_scatter_rmw -----------------------------------------------------------------


def _serializable(start, updates, final, combine):
    """Whether the updates [(value, old seen)] to one element, applied one at a time in some order
    to `start`, each see their old value and leave `final`: the result of any atomic execution."""

    def search(current, remaining):
        if not remaining:
            return current == final
        tried = set()
        for i, (value, old) in enumerate(remaining):
            if old == current and value not in tried:
                tried.add(value)
                if search(combine(current, value), remaining[:i] + remaining[i + 1:]):
                    return True
        return False

    return search(start, list(updates))


def _check_atomic_scatter(init, final, index, values, olds, axis, combine, mask=None):
    """Checks every element of a tile, `init` before and `final` after the updates: `values` at
    `index` along `axis`, where each update saw `olds` (masked-off updates, whose old value is
    undefined, are left out)."""
    updates = {}
    for position in itertools.product(*[range(n) for n in index.shape]):
        if mask is not None and not mask[position]:
            continue
        target = list(position)
        target[axis] = int(index[position])
        updates.setdefault(tuple(target), []).append((values[position].item(), olds[position].item()))
    for target in itertools.product(*[range(n) for n in init.shape]):
        start, end = init[target].item(), final[target].item()
        assert _serializable(start, updates.get(target, []), end, combine), \
            f"element {target}: from {start} to {end} with updates (value, old) {updates.get(target, [])}"


def test_local_atomic_scatter_rmw_fadd_exch_masked_fadd():
    g = _generator(1)
    init = torch.randint(-4, 5, (3, 8), generator=g).float()
    idx = torch.randint(0, 8, (3, 32), generator=g, dtype=torch.int32)  # 32 updates into 8 elements
    vals = torch.randint(1, 6, (3, 32), generator=g).float()  # small integers: sums are exact
    vals[1] = torch.randperm(32, generator=g).float() + 10  # exch: distinct values
    mask = torch.rand(32, generator=g) > 0.4
    old, tile = torch.full((3, 32), float("nan")), torch.full((3, 8), float("nan"))
    _launch("local_atomic_scatter_rmw", init, idx, vals, mask.to(torch.int32), old, tile)
    # the tiles as torch computes them
    torch.testing.assert_close(tile[0], init[0].scatter_add(0, idx[0].long(), vals[0]), rtol=0, atol=0)
    masked = torch.where(mask, vals[2], torch.zeros(()))
    torch.testing.assert_close(tile[2], init[2].scatter_add(0, idx[2].long(), masked), rtol=0, atol=0)
    # the old values (and the exchanged tile), as some order of the updates explains them
    _check_atomic_scatter(init[0], tile[0], idx[0], vals[0], old[0], 0, lambda a, b: a + b)
    _check_atomic_scatter(init[1], tile[1], idx[1], vals[1], old[1], 0, lambda a, b: b)
    _check_atomic_scatter(init[2], tile[2], idx[2], vals[2], old[2], 0, lambda a, b: a + b, mask=mask)


def test_local_atomic_scatter_rmw_2d_max_and_add():
    g = _generator(2)
    a = torch.randint(-50, 50, (4, 8), generator=g, dtype=torch.int32)
    ai = torch.randint(0, 8, (4, 16), generator=g, dtype=torch.int32)
    av = torch.randint(-100, 100, (4, 16), generator=g, dtype=torch.int32)
    b = torch.randint(-50, 50, (8, 4), generator=g, dtype=torch.int32)
    bi = torch.randint(0, 8, (16, 4), generator=g, dtype=torch.int32)
    bv = torch.randint(-9, 10, (16, 4), generator=g, dtype=torch.int32)
    a_init, b_init = a.clone(), b.clone()
    aold, bold = torch.full((4, 16), 12345, dtype=torch.int32), torch.full((16, 4), 12345, dtype=torch.int32)
    _launch("local_atomic_scatter_rmw_2d", a, ai, av, aold, b, bi, bv, bold)
    assert torch.equal(a, a_init.scatter_reduce(1, ai.long(), av, "amax"))  # signed max along axis 1
    assert torch.equal(b, b_init.scatter_add(0, bi.long(), bv))  # add along axis 0
    _check_atomic_scatter(a_init, a, ai, av, aold, 1, max)
    _check_atomic_scatter(b_init, b, bi, bv, bold, 0, lambda x, y: x + y)


# --- ttg.local_gather, ttg.local_scatter, ttg.memdesc_reshape ----------------------------------------


def test_local_gather_scatter_and_memdesc_reshape():
    g = _generator(3)
    x = torch.randn(8, 8, generator=g)
    gi = torch.randint(0, 8, (8, 8), generator=g, dtype=torch.int32)
    hi = torch.randint(0, 32, (2, 16), generator=g, dtype=torch.int32)
    si = torch.randperm(64, generator=g)[:32].to(torch.int32)  # distinct: no write races
    sv = torch.randn(32, generator=g)
    gathered, reshaped = torch.full((8, 8), float("nan")), torch.full((2, 32), float("nan"))
    gathered_view, scattered = torch.full((2, 16), float("nan")), torch.full((64, ), float("nan"))
    _launch("gather_scatter_reshape", x, gi, hi, si, sv, gathered, reshaped, gathered_view, scattered)
    assert torch.equal(gathered, x.gather(0, gi.long()))
    assert torch.equal(reshaped, x.reshape(2, 32))
    assert torch.equal(gathered_view, x.reshape(2, 32).gather(1, hi.long()))
    assert torch.equal(scattered, torch.full((64, ), -1.0).index_put((si.long(), ), sv))


def test_memdesc_reinterpret_views_the_same_bytes():
    # The tile is the second buffer of its allocation: the view starts at its byte offset.
    x, y = torch.randn(8, 8), torch.zeros(8, 8, dtype=torch.int32)
    _launch("memdesc_reinterpret", x, y)
    assert torch.equal(y, x.view(torch.int32))
