"""`torch.compile(fn, backend="tritium")`: Inductor with its Triton CPU code path.

Registered as the `torch_dynamo_backends` entry point `tritium`, so no import is needed.
`torch.compile(fn, options={"cpu_backend": "triton"})` works as well: Triton finds tritium as
its `cpu` backend by itself.
"""


# Matrix products: Inductor's Triton templates (in tritium's configs, inductor_matmuls.py) timed against aten,
# the faster kept. Convolutions stay on aten: Inductor's CPU conv templates are small blocks by the dozen.
# Inductor reports every such timing on stderr, which nobody asked for here.
MATMUL_TEMPLATES = {"max_autotune_gemm": True, "max_autotune_gemm_backends": "ATEN,TRITON",
                    "max_autotune_conv_backends": "ATEN", "autotune_num_choices_displayed": 0,
                    "max_autotune_report_choices_stats": False}


def _inductor_options(options=None):
    patches = {"cpu_backend": "triton", **MATMUL_TEMPLATES}
    patches.update(options or {})
    if patches.get("max_autotune") or patches.get("max_autotune_gemm"):
        # torch 2.13 generates a benchmark module with an IndentationError when it benchmarks
        # epilogue fusion for Triton CPU kernels; fusion decisions then use the cost model.
        patches.setdefault("benchmark_epilogue_fusion", False)
    return patches


def tritium_backend(graph_module, example_inputs, options=None, **kwargs):
    """A torch.compile backend: Inductor, with every generated kernel compiled by tritium."""
    from torch._inductor.compile_fx import compile_fx

    from .inductor_matmuls import offer_templates_alone_where_enough, register_matmul_template_heuristics
    register_matmul_template_heuristics()
    offer_templates_alone_where_enough()
    return compile_fx(graph_module, example_inputs, config_patches=_inductor_options(options))
