"""Small PyTorch programs whose Inductor-generated Triton kernels go into inductor/<model>.ttir.

MODELS maps a model name to a zero-argument builder returning (fn, example inputs). Inputs are built
from a seeded generator so that every run compiles the same graphs with the same sizes.
"""
import torch
import torch.nn.functional as F


def _gen():
    return torch.Generator().manual_seed(1234)


def mlp_gelu():
    g = _gen()
    x = torch.randn(8, 32, generator=g)
    w1, b1 = torch.randn(32, 64, generator=g), torch.randn(64, generator=g)
    w2, b2 = torch.randn(64, 16, generator=g), torch.randn(16, generator=g)

    def fn(x, w1, b1, w2, b2):
        return F.gelu(x @ w1 + b1) @ w2 + b2

    return fn, (x, w1, b1, w2, b2)


def mlp_gelu_tanh():
    g = _gen()
    x = torch.randn(8, 32, generator=g)
    w, b = torch.randn(32, 64, generator=g), torch.randn(64, generator=g)

    def fn(x, w, b):
        return F.gelu(x @ w + b, approximate="tanh")

    return fn, (x, w, b)


def softmax_layernorm():
    g = _gen()
    x = torch.randn(16, 128, generator=g)
    w, b = torch.randn(128, generator=g), torch.randn(128, generator=g)

    def fn(x, w, b):
        return F.layer_norm(torch.softmax(x, dim=-1), (128, ), w, b, eps=1e-5)

    return fn, (x, w, b)


def embedding_cross_entropy():
    g = _gen()
    table = torch.randn(100, 32, generator=g)
    idx = torch.randint(0, 100, (16, ), generator=g)
    target = torch.randint(0, 32, (16, ), generator=g)

    def fn(idx, table, target):
        return F.cross_entropy(F.embedding(idx, table), target)

    return fn, (idx, table, target)


def var_mean():
    g = _gen()
    x = torch.randn(32, 96, generator=g)

    def fn(x):
        return torch.var_mean(x, dim=1, correction=1)

    return fn, (x, )


def cumsum():
    g = _gen()
    x = torch.randn(16, 64, generator=g)

    def fn(x):
        return torch.cumsum(x, dim=1), torch.cumsum(x.to(torch.int32), dim=0)

    return fn, (x, )


def argmax():
    g = _gen()
    x = torch.randn(16, 64, generator=g)

    def fn(x):
        return torch.argmax(x, dim=1), torch.argmin(x, dim=0)

    return fn, (x, )


def index_math():
    g = _gen()
    x = torch.randn(12, 20, generator=g)

    def fn(x):
        i = torch.arange(x.numel())
        gathered = x.flatten()[(i * 7) % x.numel()]
        return gathered + (i // 3).to(x.dtype) + torch.remainder(i - 50, 9).to(x.dtype)

    return fn, (x, )


def relu_sigmoid_where():
    g = _gen()
    x = torch.randn(64, 33, generator=g)
    y = torch.randn(64, 33, generator=g)

    def fn(x, y):
        return torch.where(x > y, torch.relu(x) * torch.sigmoid(y), (x - y).abs().clamp(max=0.5))

    return fn, (x, y)


MODELS = {
    "mlp_gelu": mlp_gelu,
    "mlp_gelu_tanh": mlp_gelu_tanh,
    "softmax_layernorm": softmax_layernorm,
    "embedding_cross_entropy": embedding_cross_entropy,
    "var_mean": var_mean,
    "cumsum": cumsum,
    "argmax": argmax,
    "index_math": index_math,
    "relu_sigmoid_where": relu_sigmoid_where,
}

DOCS = {
    "mlp_gelu": "two linear layers with exact (erf) GELU",
    "mlp_gelu_tanh": "linear + tanh-approximated GELU",
    "softmax_layernorm": "row softmax followed by layer_norm",
    "embedding_cross_entropy": "embedding lookup + cross_entropy",
    "var_mean": "torch.var_mean over rows",
    "cumsum": "float cumsum along rows, int32 cumsum along columns",
    "argmax": "argmax along rows, argmin along columns",
    "index_math": "flat gather with %, // and remainder index arithmetic",
    "relu_sigmoid_where": "pointwise where/relu/sigmoid/abs/clamp on a non-power-of-two shape",
}
