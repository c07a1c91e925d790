"""`torch.compile(fn, backend="tritium")`: Inductor with its Triton CPU code path.

Registered as the `torch_dynamo_backends` entry point `tritium`, so no import is needed.
`torch.compile(fn, options={"cpu_backend": "triton"})` works as well: Triton finds tritium as
its `cpu` backend by itself.
"""


def _inductor_options(options=None):
    patches = {"cpu_backend": "triton"}
    patches.update(options or {})
    if patches.get("max_autotune"):
        # torch 2.13 generates a benchmark module with an IndentationError when it benchmarks
        # epilogue fusion for Triton CPU kernels; fusion decisions then use the cost model.
        patches.setdefault("benchmark_epilogue_fusion", False)
    return patches


def tritium_backend(graph_module, example_inputs, options=None, **kwargs):
    """A torch.compile backend: Inductor, with every generated kernel compiled by tritium."""
    from torch._inductor.compile_fx import compile_fx
    return compile_fx(graph_module, example_inputs, config_patches=_inductor_options(options))
