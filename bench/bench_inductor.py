"""The model suite under eager, Inductor's C++ backend and Inductor with tritium, in one run.

    python bench/bench_inductor.py            # forward passes, inference mode
    python bench/bench_inductor.py --quick    # two small models (what CI runs)
    python bench/bench_inductor.py --save-path DIR    # also the table as DIR/NAME.csv, plotted in DIR/NAME.png

Prints milliseconds per forward pass and the ratio to eager (lower is better).
"""

import functools
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

BACKENDS = {"Inductor C++": "cpp", "Inductor + tritium": "triton"}  # the lines compiled, and their cpu_backend


@functools.cache  # built once, measured line by line
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


def measure(provider, model, quick):
    module, inputs = models(quick)[model]
    module.eval()
    with torch.inference_mode():
        if provider == "eager":
            return median_seconds(lambda: module(*inputs), min_time=0.5) * 1e3
        torch._dynamo.reset()
        compiled = torch.compile(module, options={"cpu_backend": BACKENDS[provider]})
        compiled(*inputs)
        return median_seconds(lambda: compiled(*inputs), min_time=0.5) * 1e3


def main():
    args = report.parser(__doc__, "two small models").parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    title, lines = "Inductor, forward pass in inference mode", ["eager", *BACKENDS]
    # The models' times differ by 100x: a log scale shows each.
    bench = report.benchmark(title, "ms", ["model"], list(models(args.quick)), lines, y_log=True, quick=args.quick)
    table = report.run(measure, [bench], args.save_path)
    table["tritium / eager"] = table["Inductor + tritium"] / table["eager"]
    table["tritium / C++"] = table["Inductor + tritium"] / table["Inductor C++"]
    report.print_table(title, "ms", table.rename(columns={line: f"{line} (ms)" for line in lines}),
                       ["model", *(f"{line} (ms)" for line in lines), "tritium / eager", "tritium / C++"],
                       better="lower", formats={**{f"{line} (ms)": "{:.3f}" for line in lines},
                                                "tritium / eager": "{:.2f}x", "tritium / C++": "{:.2f}x"})


if __name__ == "__main__":
    main()
