"""PyTorch Inductor on tritium: no import of tritium, no extra call.

Each model runs under torch.compile with `options={"cpu_backend": "triton"}` (and the
`backend="tritium"` entry point), forward and backward, against eager. The test reports the
graph breaks and the number of Triton kernels tritium compiled for it.
"""

import os
import subprocess
import sys
import textwrap

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(2)


class KernelCounter:
    """Records the Triton kernels tritium's launcher runs (compiled now or taken from a cache),
    through Triton's launch-enter hook, which tritium's launchers call on every launch."""

    def __enter__(self):
        from triton import knobs
        self.hooks = knobs.runtime.launch_enter_hook
        self.names = set()
        self.hooks.add(self.record)
        return self

    def record(self, metadata):
        self.names.add(metadata.get()["name"])

    def __exit__(self, *exc):
        self.hooks.remove(self.record)


def _compile_and_check(name, model, inputs, rtol=1e-4, atol=1e-4, backward=True, backend=None):
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    eager_model = model
    compiled_model = torch.compile(model, backend=backend) if backend else torch.compile(
        model, options={"cpu_backend": "triton"})
    inputs_eager = [x.detach().clone().requires_grad_(x.is_floating_point() and backward) for x in inputs]
    inputs_compiled = [x.detach().clone().requires_grad_(x.is_floating_point() and backward) for x in inputs]
    with KernelCounter() as counter:
        out = compiled_model(*inputs_compiled)
        if backward:
            out.float().square().mean().backward()
    expected = eager_model(*inputs_eager)
    torch.testing.assert_close(out, expected, rtol=rtol, atol=atol, equal_nan=True)
    if backward:
        expected.float().square().mean().backward()
        for a, b in zip(inputs_compiled, inputs_eager):
            if b.grad is not None:
                torch.testing.assert_close(a.grad, b.grad, rtol=rtol * 10, atol=atol * 10)
    breaks = sum(torch._dynamo.utils.counters["graph_break"].values())
    print(f"\n{name}: {len(counter.names)} Triton kernels run by tritium, {breaks} graph breaks")
    assert counter.names, f"{name}: Inductor handed no kernel to tritium"
    return counter.names, breaks


class MLP(nn.Module):

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(64, 128), nn.Linear(128, 10)
        self.norm = nn.LayerNorm(128)

    def forward(self, x):
        return self.fc2(F.dropout(self.norm(F.gelu(self.fc1(x))), p=0.0))


class SmallCNN(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2)
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        x = F.relu(self.bn(self.conv1(x)))
        x = F.max_pool2d(F.silu(self.conv2(x)), 2)
        return self.head(x.mean(dim=(2, 3)))


def test_mlp_forward_and_backward():
    model = MLP()
    _compile_and_check("MLP", model, [torch.randn(32, 64)])


def test_mlp_through_dynamo_backend_entry_point():
    _compile_and_check("MLP (backend='tritium')", MLP(), [torch.randn(16, 64)], backend="tritium")


def _with_templates_only(model, **compile_kwargs):
    """`model` under backend="tritium" with aten left out of the product choices: the templates must run."""
    torch._dynamo.reset()
    return torch.compile(model, backend="tritium", options={"max_autotune_gemm_backends": "TRITON"}, **compile_kwargs)


def _templates_run(counter):
    return [name for name in counter.names if name.startswith("triton_tem_")]


def test_tritium_backend_computes_products_with_triton_templates():
    """backend="tritium" offers Inductor's Triton matmul templates in tritium's configs; with aten left out of
    the choices the template runs (forward and backward, bias and activation in its epilogue) and matches eager."""
    model = nn.Sequential(nn.Linear(64, 96), nn.GELU(), nn.Linear(96, 40))
    compiled = _with_templates_only(model)
    x = torch.randn(48, 64)
    x_eager, x_compiled = x.clone().requires_grad_(), x.clone().requires_grad_()
    with KernelCounter() as counter:
        out = compiled(x_compiled)
        out.square().mean().backward()
    expected = model(x_eager)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)
    compiled_grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    expected.square().mean().backward()
    torch.testing.assert_close(x_compiled.grad, x_eager.grad, rtol=1e-3, atol=1e-4)
    for got, want in zip(compiled_grads, [p.grad for p in model.parameters()]):
        torch.testing.assert_close(got, want, rtol=1e-3, atol=1e-4)
    assert _templates_run(counter), f"no matmul template among the kernels run: {sorted(counter.names)}"


@pytest.mark.skipif("AVX512" not in torch.backends.cpu.get_cpu_capability(),
                    reason="f32 products are timed against aten on hosts without AVX-512")
def test_f32_products_take_the_template_alone_on_avx512_hosts():
    """By default, with AVX-512, an f32 product (mm: a linear layer without bias) is offered only the template: no
    autotuning, and it runs."""
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    model = nn.Sequential(nn.Linear(64, 96, bias=False), nn.GELU())
    compiled = torch.compile(model, backend="tritium")
    x = torch.randn(48, 64)
    with KernelCounter() as counter:
        out = compiled(x)
    torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
    assert _templates_run(counter), sorted(counter.names)
    assert torch._dynamo.utils.counters["inductor"]["select_algorithm_autotune"] == 0


class _Products(nn.Module):
    """A batched product (attention's q k^T) and a bf16 linear layer."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 48).to(torch.bfloat16)

    def forward(self, q, k):
        scores = torch.bmm(q, k.transpose(1, 2))
        return scores.float(), self.proj(q.to(torch.bfloat16)).float()


def test_tritium_backend_templates_for_bmm_and_bf16():
    """bmm and a bf16 addmm through the templates alone: the values of eager (bf16 within its tolerance)."""
    model = _Products()
    compiled = _with_templates_only(model)
    q, k = torch.randn(4, 40, 32), torch.randn(4, 24, 32)
    with KernelCounter() as counter:
        got = compiled(q, k)
    want = model(q, k)
    torch.testing.assert_close(got[0], want[0], rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(got[1], want[1], rtol=2e-2, atol=2e-2)
    assert len(_templates_run(counter)) >= 2, sorted(counter.names)


def test_templates_with_symbolic_shapes():
    """dynamic=True: the templates' M is a symbol (its block sized from the hint); rows that fill a block, rows
    that do not, and a later call with other rows give eager's values."""
    model = nn.Sequential(nn.Linear(64, 96), nn.GELU(), nn.Linear(96, 32, bias=False))
    compiled = _with_templates_only(model, dynamic=True)
    for rows in (48, 100, 7):
        x = torch.randn(rows, 64)
        with KernelCounter() as counter:
            out = compiled(x)
        torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
        assert _templates_run(counter), sorted(counter.names)


def test_int_mm_through_tritium_backend():
    """torch._int_mm (int8 x int8 -> int32) with the template offered: exact."""
    a = torch.randint(-128, 128, (64, 48), dtype=torch.int8)
    b = torch.randint(-128, 128, (48, 32), dtype=torch.int8)
    compiled = _with_templates_only(lambda a, b: torch._int_mm(a, b) * 2)
    torch.testing.assert_close(compiled(a, b), torch._int_mm(a, b) * 2, rtol=0, atol=0)


def test_matmul_template_block_sizes():
    from tritium.inductor_matmuls import block_sizes
    assert block_sizes(512, 4096, 1024) == (256, 128, 64)
    assert block_sizes(48, 10, 200) == (64, 16, 64)
    assert block_sizes(1, 1, 1) == (16, 16, 16)
    assert block_sizes(None, 100, None) == (256, 128, 64)
    assert block_sizes(64, 32, 16, int8=True) == (64, 32, 32)


def test_small_cnn():
    model = SmallCNN().eval()
    _compile_and_check("CNN", model, [torch.randn(4, 3, 16, 16)], backward=False, rtol=1e-3, atol=1e-3)


def test_transformer_block():
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0, batch_first=True)
    _compile_and_check("transformer block", layer, [torch.randn(2, 16, 64)], rtol=1e-3, atol=1e-3)


FUSED_OPS = {
    "softmax": (lambda x: torch.softmax(x, -1), [torch.randn(8, 100)]),
    "log_softmax": (lambda x: torch.log_softmax(x * 3, -1), [torch.randn(8, 100)]),
    "layer_norm": (lambda x: F.layer_norm(x, (100, )), [torch.randn(8, 100)]),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh") + F.gelu(x), [torch.randn(8, 100)]),
    "var_mean": (lambda x: torch.stack(torch.var_mean(x, dim=1)), [torch.randn(8, 100)]),
    "cumsum": (lambda x: torch.cumsum(x, dim=1), [torch.randn(8, 100)]),
    "argmax": (lambda x: torch.argmax(x, dim=1).float() + torch.argmin(x, dim=0).float().sum(), [torch.randn(8, 100)]),
    "index_mod_div": (lambda x: x.reshape(-1)[(torch.arange(60) * 7) % 800].reshape(6, 10) + x[:6, :10] // 0.3,
                      [torch.randn(8, 100)]),
    "cross_entropy": (lambda x, t: F.cross_entropy(x, t), [torch.randn(16, 10), torch.randint(0, 10, (16, ))]),
    "embedding": (lambda w, i: F.embedding(i, w).sum(1), [torch.randn(50, 16), torch.randint(0, 50, (4, 7))]),
    "where_clamp_minmax": (lambda x: torch.where(x > 0, x.clamp(max=0.5), torch.maximum(x, -x * 2)),
                           [torch.randn(64, 33)]),
    "nan_propagating_max": (lambda x: torch.amax(x, dim=1), [torch.tensor([[1.0, float("nan"), 3.0], [4.0, 5.0, 6.0]])]),
    "sigmoid_tanh_erf": (lambda x: torch.sigmoid(x) * torch.tanh(x) + torch.erf(x) + torch.rsqrt(x.abs() + 1),
                         [torch.randn(50, 50)]),
}


class Wrap(nn.Module):

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


@pytest.mark.parametrize("op", sorted(FUSED_OPS))
def test_fused_op(op):
    fn, inputs = FUSED_OPS[op]
    backward = op not in ("argmax", "cross_entropy", "embedding", "index_mod_div", "nan_propagating_max")
    _compile_and_check(op, Wrap(fn), inputs, backward=backward, rtol=1e-4, atol=1e-4)


def test_dropout_and_random_numbers():
    torch._dynamo.reset()
    fn = torch.compile(lambda x: F.dropout(x, p=0.5, training=True), options={"cpu_backend": "triton"})
    x = torch.ones(10000)
    y = fn(x)
    kept = (y != 0).float().mean().item()
    assert 0.45 < kept < 0.55
    assert torch.all((y == 0) | (y == 2.0))


import transformers  # noqa: E402  (in requirements.txt)


def _hf_model(kind):
    torch.manual_seed(0)
    if kind == "gpt2":
        config = transformers.GPT2Config(n_layer=2, n_head=2, n_embd=64, vocab_size=100, n_positions=64,
                                         attn_pdrop=0.0, embd_pdrop=0.0, resid_pdrop=0.0)
        return transformers.GPT2LMHeadModel(config)
    if kind == "bert":
        config = transformers.BertConfig(num_hidden_layers=2, num_attention_heads=2, hidden_size=64,
                                         intermediate_size=128, vocab_size=100, max_position_embeddings=64,
                                         hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
        return transformers.BertForMaskedLM(config)
    config = transformers.T5Config(num_layers=2, num_decoder_layers=2, num_heads=2, d_model=64, d_kv=32, d_ff=128,
                                   vocab_size=100, dropout_rate=0.0)
    return transformers.T5ForConditionalGeneration(config)


class LogitsOf(nn.Module):

    def __init__(self, model, kind):
        super().__init__()
        self.model, self.kind = model, kind

    def forward(self, ids):
        if self.kind == "t5":
            return self.model(input_ids=ids, decoder_input_ids=ids).logits
        return self.model(input_ids=ids).logits


@pytest.mark.parametrize("kind", ["gpt2", "bert", "t5"])
def test_transformers_model_forward_and_backward(kind):
    model = LogitsOf(_hf_model(kind), kind)
    ids = torch.randint(0, 100, (2, 16))
    _compile_and_check(kind, model, [ids], rtol=1e-3, atol=1e-3)


def test_compile_in_worker_processes(tmp_path):
    code = textwrap.dedent("""
        import torch, torch.nn.functional as F
        import torch._inductor.config as config
        config.compile_threads = 2
        fn = torch.compile(lambda x: F.gelu(x) * torch.softmax(x, -1), options={"cpu_backend": "triton"})
        x = torch.randn(16, 64)
        torch.testing.assert_close(fn(x), F.gelu(x) * torch.softmax(x, -1))
        print("ok")
    """)
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"), TRITON_CACHE_DIR=str(tmp_path / "triton"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    # A second process reuses the compiled kernels from the caches.
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-3000:]


def test_max_autotune_works():
    torch._dynamo.reset()
    model = MLP()
    fn = torch.compile(model, options={"cpu_backend": "triton", "max_autotune": True})
    x = torch.randn(32, 64)
    torch.testing.assert_close(fn(x), model(x), rtol=1e-4, atol=1e-4)
