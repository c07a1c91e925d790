"""The models bench/bench_inductor.py compiles: for each, how to build it, its inputs and the loss of a
training step.

Two suites. `realistic` holds models at the sizes people train and serve on a CPU (GPT-2 and BERT with
4 layers of width 512 over batches of 4 sequences of 256 tokens, a LLaMA-style decoder, an MLP, a small
CNN) and the fused graphs Inductor makes of the layers between the matrix products (layer norm + GELU +
residual, scaled softmax, cross-entropy). `tiny` holds small models where the time between kernels
(Python, launches) is what is measured.
"""

import math
from dataclasses import dataclass
from typing import Callable

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Case:
    module: nn.Module
    inputs: list  # positional arguments of module
    loss: Callable  # module output -> the scalar a training step minimises


def _mean_square(output):
    return output.float().pow(2).mean()


def _hf_loss(output):
    return output.loss  # transformers models compute their own loss when given labels


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class LlamaBlock(nn.Module):
    """Pre-norm decoder block as in LLaMA: RMSNorm, rotary position embedding on queries and keys,
    causal attention, SwiGLU feed-forward."""

    def __init__(self, dim, heads, hidden, max_seq):
        super().__init__()
        self.heads = heads
        self.attention_norm = RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        self.ffn_norm = RMSNorm(dim)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)
        head_dim = dim // heads
        frequencies = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        angles = torch.outer(torch.arange(max_seq).float(), frequencies)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def rotate(self, x):  # x: (batch, heads, seq, head_dim), halves rotated by position
        half = x.shape[-1] // 2
        cos, sin = self.cos[:x.shape[2]], self.sin[:x.shape[2]]
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)

    def forward(self, x):
        batch, seq, dim = x.shape
        q, k, v = self.qkv(self.attention_norm(x)).view(batch, seq, 3, self.heads, dim // self.heads).unbind(2)
        q, k, v = self.rotate(q.transpose(1, 2)), self.rotate(k.transpose(1, 2)), v.transpose(1, 2)
        attention = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(attention.transpose(1, 2).reshape(batch, seq, dim))
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class LlamaDecoder(nn.Module):
    def __init__(self, layers, dim, heads, hidden, max_seq):
        super().__init__()
        self.blocks = nn.ModuleList(LlamaBlock(dim, heads, hidden, max_seq) for _ in range(layers))
        self.norm = RMSNorm(dim)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.norm(x)


class SmallCNN(nn.Module):
    """Convolutions (aten's on both backends) with the batch norms, activations and pooling between
    them (Inductor's)."""

    def __init__(self, classes=10):
        super().__init__()

        def stage(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(*stage(3, 32), *stage(32, 64), nn.MaxPool2d(2), *stage(64, 128),
                                      nn.MaxPool2d(2), *stage(128, 128))
        self.head = nn.Linear(128, classes)

    def forward(self, x):
        return self.head(self.features(x).mean((2, 3)))


class Classifier(nn.Module):
    """Wraps a module whose loss needs its labels: the training step's forward returns that loss."""

    def __init__(self, module, labels):
        super().__init__()
        self.module = module
        self.register_buffer("labels", labels, persistent=False)

    def forward(self, *inputs):
        return F.cross_entropy(self.module(*inputs), self.labels)


class Function(nn.Module):
    """A function of its inputs (and of the parameters given) as a module."""

    def __init__(self, fn, **parameters):
        super().__init__()
        self.fn = fn
        self.params = nn.ParameterDict({name: nn.Parameter(value) for name, value in parameters.items()})

    def forward(self, *inputs):
        return self.fn(*inputs, **self.params)


def _ln_gelu_residual(x, residual, weight, bias):
    return F.gelu(F.layer_norm(x, (x.shape[-1],), weight, bias)) + residual


def _scaled_softmax(x):
    return torch.softmax(x * (1.0 / math.sqrt(x.shape[-1])), dim=-1)


class _HFWithLabels(nn.Module):
    """A transformers model called with labels (the inputs themselves), so that it returns its loss."""

    def __init__(self, model, labels):
        super().__init__()
        self.model = model
        self.register_buffer("labels", labels, persistent=False)

    def forward(self, tokens):
        return self.model(tokens, labels=self.labels)


def _language_model(model, vocab, batch, seq, training):
    """A transformers language model over random tokens; while training, called with the tokens as its
    labels so that it returns its own loss."""
    tokens = torch.randint(0, vocab, (batch, seq))
    if training:
        return Case(_HFWithLabels(model, tokens), [tokens], _hf_loss)
    return Case(model, [tokens], None)


def _gpt2(layers, width, heads, vocab, batch, seq, training):
    import transformers
    config = transformers.GPT2Config(n_layer=layers, n_head=heads, n_embd=width, vocab_size=vocab, n_positions=seq,
                                     bos_token_id=0, eos_token_id=0)
    return _language_model(transformers.GPT2LMHeadModel(config), vocab, batch, seq, training)


def _bert(layers, width, heads, vocab, batch, seq, training):
    import transformers
    config = transformers.BertConfig(num_hidden_layers=layers, num_attention_heads=heads, hidden_size=width,
                                     intermediate_size=4 * width, vocab_size=vocab, max_position_embeddings=seq)
    return _language_model(transformers.BertForMaskedLM(config), vocab, batch, seq, training)


def _realistic(training):
    """name -> Case builder, at realistic sizes."""
    def gpt2():
        return _gpt2(4, 512, 8, 8192, 4, 256, training)

    def bert():
        return _bert(4, 512, 8, 8192, 4, 256, training)

    def llama():
        return Case(LlamaDecoder(4, 512, 8, 1408, 256), [torch.randn(4, 256, 512)], _mean_square)

    def mlp():
        return Case(nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.LayerNorm(1024)),
                    [torch.randn(512, 1024)], _mean_square)

    def cnn():
        images, labels = torch.randn(32, 3, 64, 64), torch.randint(0, 10, (32,))
        if training:
            return Case(Classifier(SmallCNN(), labels), [images], lambda loss: loss)
        return Case(SmallCNN(), [images], None)

    def ln_gelu_residual():
        # A layer inside a network: its inputs get gradients too.
        return Case(Function(_ln_gelu_residual, weight=torch.randn(1024), bias=torch.randn(1024)),
                    [torch.randn(8192, 1024, requires_grad=training), torch.randn(8192, 1024, requires_grad=training)],
                    _mean_square)

    def scaled_softmax():
        return Case(Function(_scaled_softmax), [torch.randn(4096, 4096, requires_grad=training)], _mean_square)

    def cross_entropy():
        labels = torch.randint(0, 8192, (4096,))
        return Case(Classifier(nn.Identity(), labels), [torch.randn(4096, 8192, requires_grad=training)],
                    lambda loss: loss)

    return {"GPT-2 (4x512)": gpt2, "BERT (4x512)": bert, "LLaMA decoder (4x512)": llama, "MLP 1024-4096": mlp,
            "CNN 32x3x64x64": cnn, "layer norm+GELU+residual": ln_gelu_residual, "scaled softmax": scaled_softmax,
            "cross-entropy": cross_entropy}


def _tiny(training):
    def mlp():
        return Case(nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.LayerNorm(512), nn.Linear(512, 256)),
                    [torch.randn(64, 256)], _mean_square)

    def softmax_layernorm():
        return Case(nn.Sequential(nn.Softmax(dim=-1), nn.LayerNorm(1024)), [torch.randn(256, 1024)], _mean_square)

    def transformer_block():
        return Case(nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True), [torch.randn(8, 64, 256)],
                    _mean_square)

    def gpt2():
        return _gpt2(2, 128, 4, 1000, 4, 64, training)

    def bert():
        return _bert(2, 128, 4, 1000, 4, 64, training)

    return {"tiny MLP": mlp, "tiny softmax+layernorm": softmax_layernorm, "tiny transformer block": transformer_block,
            "tiny GPT-2": gpt2, "tiny BERT": bert}


SUITES = {"realistic": _realistic, "tiny": _tiny}
QUICK = ("tiny", ["tiny MLP", "tiny softmax+layernorm"])  # what CI runs


def build(suite, name, training):
    torch.manual_seed(0)
    case = SUITES[suite](training)[name]()
    case.module.train(training)
    return case


def names(suite):
    return list(SUITES[suite](False))
