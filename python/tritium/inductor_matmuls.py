"""Inductor's Triton matmul templates sized for tritium's CPU kernels.

With max-autotune on, Inductor offers its Triton templates for `mm`, `addmm`, `bmm`, `baddbmm` and `_int_mm`
beside aten. For the CPU it takes GPU configs halved and drops every block over 8192 elements of C (to keep
compile times of other Triton CPU backends down): blocks of 16-64 rows, on which tritium's register-blocked
products stay far from the core's peak, and some twenty configurations to compile and time for each product.
tritium's kernels run best on large blocks (256x128 of C, 64 of K: the operand tiles are packed once and the C
block stays in registers across K; see docs/performance.md), so each product gets one configuration: the largest
such block its shape fills. Inductor then times that template against aten and keeps the faster (with the bias
and activation that follow fused into the template's epilogue).

Except for f32 products on hosts with AVX-512: there the template ran at about twice aten's speed at every product
shape of the model suite (GPT-2, BERT, LLaMA, an MLP; forward and backward), and timing each product against aten
made compiling a training step slower than Inductor's C++ backend (21 products of GPT-2, ~0.7 s each, one after the
other). There Inductor is offered the template alone (TritiumChoices, an InductorChoices handler, the way
Inductor lets its heuristics be overridden): it is compiled with the graph's other kernels, in parallel, and not timed.
That covers `mm`, `bmm` and `baddbmm`; `addmm` is still timed, because Inductor asks for its aten choices in a call
of their own, before it knows whether any template will be offered.
"""

_TEMPLATE_OPS = (("mm", None), ("mm", "addmm"), ("mm", "int_mm"), ("bmm", None), ("bmm", "baddbmm"))
_registered = False


def _block(size, smallest, largest):
    """The power of two at least `size`, within [smallest, largest]; `largest` for a symbolic size."""
    if size is None:
        return largest
    block = smallest
    while block < size and block < largest:
        block *= 2
    return block


def block_sizes(m, n, k, int8=False):
    """(BLOCK_M, BLOCK_N, BLOCK_K) of tritium's template config for an m x n x k product (ints, or None where a
    size has no hint); int8 products take K blocks of at least 32, as Inductor's own int8 configs do."""
    return _block(m, 16, 256), _block(n, 16, 128), _block(k, 32 if int8 else 16, 64)


def _hint(size):
    from torch._inductor.virtualized import V
    try:
        return V.graph.sizevars.optimization_hint(size, fallback=None)
    except Exception:  # a size Inductor cannot hint: the largest block
        return None


def _tritium_heuristic(base):
    """`base` (Inductor's CPU heuristic for one template and op) with tritium's one configuration."""
    from torch._inductor.template_heuristics.triton import GemmConfig

    class TritiumCPUMatmulHeuristic(base):

        def preprocess_mm_configs(self, m, n, k, configs, has_int8_tensor=False, *args, **kwargs):
            int8 = has_int8_tensor or getattr(self, "has_int8_tensor", False)
            block_m, block_n, block_k = block_sizes(_hint(m), _hint(n), _hint(k), int8)
            return self._finalize_mm_configs([GemmConfig(block_m, block_n, block_k, 1, 1)])

    TritiumCPUMatmulHeuristic.__name__ = f"Tritium{base.__name__}"
    return TritiumCPUMatmulHeuristic


_TEMPLATED_PRODUCTS = ("mm", "addmm", "bmm", "baddbmm")


def _template_is_enough(kernel_inputs, op_name):
    """Whether the template alone is offered for this product: f32 operands on the CPU, a host with AVX-512."""
    import torch
    from torch._inductor import config
    return (kernel_inputs.device_type == "cpu" and config.cpu_backend == "triton" and op_name in _TEMPLATED_PRODUCTS
            and all(dtype == torch.float32 for dtype in kernel_inputs.dtypes())
            and "AVX512" in torch.backends.cpu.get_cpu_capability())


def _tritium_choices(base):
    """`base` (the class of Inductor's choices handler) offering only the template where _template_is_enough."""
    from torch._inductor.select_algorithm import ExternKernelCaller

    class TritiumChoices(base):

        def get_template_configs(self, kernel_inputs, templates, op_name, kwarg_overrides=None):
            choices = super().get_template_configs(kernel_inputs, templates, op_name, kwarg_overrides)
            if not _template_is_enough(kernel_inputs, op_name):
                return choices
            templated = [choice for choice in choices if not isinstance(choice, ExternKernelCaller)]
            return templated or choices

    return TritiumChoices


def offer_templates_alone_where_enough():
    """Makes this thread's Inductor choices handler offer the template alone where _template_is_enough, unless a
    handler other than Inductor's own is set."""
    from torch._inductor.choices import InductorChoices
    from torch._inductor.virtualized import V
    handler = V.choices
    if type(handler) is InductorChoices:
        V.set_choices_handler(_tritium_choices(InductorChoices)())


def register_matmul_template_heuristics():
    """Registers tritium's configs for Inductor's CPU matmul templates (once a process). Only Inductor's Triton
    path offers these templates, and on the CPU that path is tritium."""
    global _registered
    if _registered:
        return
    from torch._inductor.kernel.bmm import bmm_template
    from torch._inductor.kernel.mm import mm_template
    from torch._inductor.template_heuristics import registry

    templates = {"mm": mm_template.uid, "bmm": bmm_template.uid}
    for template, op_name in _TEMPLATE_OPS:
        base = registry.get_registered_heuristic_class(templates[template], "cpu", op_name)
        if base is None:
            continue
        registry.register_template_heuristic(templates[template], "cpu", op_name=op_name)(_tritium_heuristic(base))
    # Instances Inductor made of the classes replaced (an earlier compile in this process).
    for key in [key for key in registry._HEURISTIC_CACHE if key[0] in templates.values() and key[1] == "cpu"]:
        del registry._HEURISTIC_CACHE[key]
    _registered = True
