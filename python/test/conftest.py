import pytest
import torch


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


def tolerances(dtype):
    """(rtol, atol) for comparing a kernel's result with torch's in `dtype`."""
    return {
        torch.float16: (1e-2, 1e-2),
        torch.bfloat16: (2e-2, 2e-2),
        torch.float32: (1e-5, 1e-5),
        torch.float64: (1e-12, 1e-12),
    }.get(dtype, (0, 0))


def random_tensor(shape, dtype):
    shape = (shape, ) if isinstance(shape, int) else tuple(shape)
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float32).to(dtype)
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    return torch.randint(-1000, 1000, shape, dtype=torch.int64).to(dtype)
