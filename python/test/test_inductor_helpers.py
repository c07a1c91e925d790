"""Inductor's own Triton helpers on tritium: Welford, online softmax, Philox random numbers,
bucketize, sort with index, frexp and NaN-propagating min/max, each through torch.compile."""

import pytest
import torch
import torch.nn.functional as F


def _compile(fn, **options):
    torch._dynamo.reset()
    return torch.compile(fn, options={"cpu_backend": "triton", **options})


def test_welford_var_mean():
    x = torch.randn(64, 1000) * 3 + 5
    var, mean = _compile(lambda t: torch.var_mean(t, dim=1, correction=0))(x)
    ref_var, ref_mean = torch.var_mean(x, dim=1, correction=0)
    torch.testing.assert_close(mean, ref_mean, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(var, ref_var, rtol=1e-4, atol=1e-4)


def test_online_softmax_over_a_long_row():
    x = torch.randn(8, 5000) * 5
    out = _compile(lambda t: torch.softmax(t, dim=-1), online_softmax=True)(x)
    torch.testing.assert_close(out, torch.softmax(x, dim=-1))


def test_philox_rand_randn_randint64():
    def draw(seed_tensor):
        torch.manual_seed(0)
        return torch.rand(20000), torch.randn(20000), torch.randint(0, 1 << 40, (20000, ))

    rand, randn, randint = _compile(draw)(torch.zeros(1))
    assert 0.0 <= rand.min() and rand.max() < 1.0 and abs(rand.mean().item() - 0.5) < 0.02
    assert abs(randn.mean().item()) < 0.05 and abs(randn.std().item() - 1.0) < 0.05
    assert randint.dtype == torch.int64 and randint.min() >= 0 and randint.max() < (1 << 40)
    assert randint.max() > (1 << 32), "64-bit random integers use the high bits"


def test_bucketize():
    boundaries = torch.tensor([-1.0, 0.0, 0.5, 2.0])
    x = torch.randn(1000)
    out = _compile(lambda t, b: torch.bucketize(t, b))(x, boundaries)
    torch.testing.assert_close(out, torch.bucketize(x, boundaries))


def test_sort_with_index():
    x = torch.randn(4, 64)
    values, indices = _compile(lambda t: torch.sort(t, dim=-1, stable=True))(x)
    ref_values, ref_indices = torch.sort(x, dim=-1, stable=True)
    torch.testing.assert_close(values, ref_values)
    torch.testing.assert_close(indices, ref_indices)


def test_frexp():
    x = torch.tensor([0.0, 1.0, -3.5, 1e-30, 6.5e4, 0.1] * 10)
    mantissa, exponent = _compile(torch.frexp)(x)
    ref_mantissa, ref_exponent = torch.frexp(x)
    torch.testing.assert_close(mantissa, ref_mantissa)
    torch.testing.assert_close(exponent, ref_exponent)


@pytest.mark.parametrize("reduce", [torch.amax, torch.amin])
def test_nan_propagating_min_max(reduce):
    x = torch.randn(16, 33)
    x[3, 7] = float("nan")
    out = _compile(lambda t: reduce(t, dim=1) + torch.maximum(t, t.flip(1)).sum(1))(x)
    torch.testing.assert_close(out, reduce(x, dim=1) + torch.maximum(x, x.flip(1)).sum(1), equal_nan=True)
