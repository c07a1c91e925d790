"""The model suite under eager, Inductor's C++ backend and Inductor with tritium, in one run.

    python bench/bench_inductor.py            # forward passes, inference mode
    python bench/bench_inductor.py --quick    # two small models (what CI runs)

Prints milliseconds per forward pass and the ratio to eager (lower is better).
"""

import argparse
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import median_seconds  # noqa: E402


def models(quick):
    import transformers
    torch.manual_seed(0)
    suite = {
        "MLP": (nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.LayerNorm(512), nn.Linear(512, 256)),
                [torch.randn(64, 256)]),
        "softmax+layernorm": (nn.Sequential(nn.Softmax(dim=-1), nn.LayerNorm(1024)), [torch.randn(256, 1024)]),
    }
    if quick:
        return suite
    suite["transformer block"] = (nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True),
                                  [torch.randn(8, 64, 256)])
    gpt2 = transformers.GPT2LMHeadModel(
        transformers.GPT2Config(n_layer=2, n_head=4, n_embd=128, vocab_size=1000, n_positions=128, bos_token_id=0,
                                 eos_token_id=0))
    suite["GPT-2 (2 layers)"] = (gpt2, [torch.randint(0, 1000, (4, 64))])
    bert = transformers.BertModel(
        transformers.BertConfig(num_hidden_layers=2, num_attention_heads=4, hidden_size=128, intermediate_size=256,
                                vocab_size=1000))
    suite["BERT (2 layers)"] = (bert, [torch.randint(0, 1000, (4, 64))])
    return suite


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    print("\n| model | eager (ms) | Inductor C++ (ms) | Inductor + tritium (ms) | tritium / eager | tritium / C++ |")
    print("|---|---|---|---|---|---|")
    for name, (model, inputs) in models(args.quick).items():
        model.eval()
        times = {}
        with torch.inference_mode():
            times["eager"] = median_seconds(lambda: model(*inputs), min_time=0.5)
            for backend in ("cpp", "triton"):
                torch._dynamo.reset()
                compiled = torch.compile(model, options={"cpu_backend": backend})
                compiled(*inputs)
                times[backend] = median_seconds(lambda: compiled(*inputs), min_time=0.5)
        ms = {k: v * 1000 for k, v in times.items()}
        print(f"| {name} | {ms['eager']:.3f} | {ms['cpp']:.3f} | {ms['triton']:.3f} | "
              f"{times['triton'] / times['eager']:.2f}x | {times['triton'] / times['cpp']:.2f}x |")


if __name__ == "__main__":
    main()
