"""torch.sort and torch.argsort through torch.compile, which Inductor writes with its own bitonic
network (triton_helpers.sort_with_index: each pair's left and right element picked as
`tl.sum(a * one_hot, axis)`, which tritium reads directly, tritium-cpu-fold-one-hot-pair-sums-
into-slices). Rows whose length is not a power of two (masked lanes), NaN (sorted last, as torch
does), ties (stable sorts keep their order), both directions and integer and 16-bit float types,
compared with eager torch: values exactly, indices exactly for stable sorts and as a permutation
that reproduces the values otherwise."""

import pytest
import torch


def _compile(fn):
    torch._dynamo.reset()
    return torch.compile(fn, options={"cpu_backend": "triton"})


def rows(dtype, n, seed):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        x = torch.randn(5, n, generator=g).round(decimals=1).to(dtype)  # rounding makes ties
        x[0, 1], x[1, 0], x[1, n - 1] = float("nan"), float("nan"), float("inf")
        x[2, :3] = torch.tensor([0.0, -0.0, 0.0]).to(dtype)
        return x
    return torch.randint(-20, 20, (5, n), generator=g).to(dtype)  # few values: many ties


CASES = [
    (torch.float32, 64, True, False),
    (torch.float32, 100, False, True),
    (torch.bfloat16, 32, True, True),
    (torch.int64, 16, True, False),
    (torch.int32, 48, False, False),
]


@pytest.mark.parametrize("dtype, n, stable, descending", CASES,
                         ids=[f"{str(c[0]).split('.')[-1]}-{c[1]}-{'stable' if c[2] else 'unstable'}-"
                              f"{'desc' if c[3] else 'asc'}" for c in CASES])
def test_sort_through_inductor(dtype, n, stable, descending):
    x = rows(dtype, n, seed=n)
    values, indices = _compile(lambda t: torch.sort(t, dim=-1, stable=stable, descending=descending))(x)
    ref_values, ref_indices = torch.sort(x, dim=-1, stable=stable, descending=descending)
    torch.testing.assert_close(values, ref_values, rtol=0, atol=0, equal_nan=True)
    if stable:
        assert torch.equal(indices, ref_indices)
    else:
        assert torch.equal(indices.sort(dim=-1).values, torch.arange(n).expand(5, n))
        torch.testing.assert_close(x.gather(-1, indices), ref_values, rtol=0, atol=0, equal_nan=True)


def test_argsort_through_inductor():
    x = rows(torch.float32, 40, seed=3)
    indices = _compile(lambda t: torch.argsort(t, dim=-1, stable=True))(x)
    assert torch.equal(indices, torch.argsort(x, dim=-1, stable=True))
