"""Code is generated for the host's CPU features, and TRITIUM_CPU_FEATURES takes features away
(`-avx512,-amx` generates code as for an AVX2-only host). On an AVX-512 host this runs the paths
AVX2-only hosts take: the widened f32 matmul instead of vdpbf16ps/vpdpbusd, 256-bit vectors,
LLVM's bf16 conversions. On an AVX2-only host both runs take the same paths. AVX-512 hosts get
512-bit vectors, Intel's too (LLVM's tuning for them prefers 256 bits)."""

import os
import re
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = textwrap.dedent('''
    import json, re, sys, torch, triton, triton.language as tl
    from tritium import _C

    @triton.jit
    def softmax_rows(x, out, N: tl.constexpr):
        row = tl.program_id(0)
        v = tl.load(x + row * N + tl.arange(0, N)).to(tl.float32)
        e = tl.exp(v - tl.max(v, axis=0))
        tl.store(out + row * N + tl.arange(0, N), (e / tl.sum(e, axis=0)).to(out.dtype.element_ty))

    @triton.jit
    def matmul(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, OUT: tl.constexpr):
        rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
        acc = tl.dot(tl.load(a + rm[:, None] * K + rk[None, :]), tl.load(b + rk[:, None] * N + rn[None, :]),
                     out_dtype=OUT)
        tl.store(c + rm[:, None] * N + rn[None, :], acc)

    torch.manual_seed(0)
    report = {"key": _C.host_target_key()}
    x = torch.randn(64, 256, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    softmax_rows[(64, )](x, y, N=256)
    torch.testing.assert_close(y.float(), torch.softmax(x.float(), dim=1), atol=1e-2, rtol=1e-2)
    softmax = next(iter(softmax_rows.device_caches[0][0].values()))
    report["widest_f32_vector"] = max(int(n) for n in re.findall(r"<(\\d+) x float>", softmax.asm["llir"]))

    a, b = torch.randn(32, 64, dtype=torch.bfloat16), torch.randn(64, 32, dtype=torch.bfloat16)
    c = torch.empty(32, 32)
    matmul[(1, )](a, b, c, M=32, N=32, K=64, OUT=tl.float32)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-3, rtol=1e-3)
    kernel = next(iter(matmul.device_caches[0][0].values()))
    report["bf16_dot_instruction"] = "avx512bf16.dpbf16ps" in kernel.asm["llir"]
    report["bf16_amx_tiles"] = "tdpbf16ps" in kernel.asm["llir"]

    ia = torch.randint(-128, 128, (32, 64), dtype=torch.int8)
    ib = torch.randint(-128, 128, (64, 32), dtype=torch.int8)
    ic = torch.empty(32, 32, dtype=torch.int32)
    matmul[(1, )](ia, ib, ic, M=32, N=32, K=64, OUT=tl.int32)
    assert torch.equal(ic, ia.int() @ ib.int())
    llir = "\\n".join(k.asm["llir"] for k in matmul.device_caches[0][0].values())
    report["int8_dot_instruction"] = "vpdpbusd" in llir
    report["int8_amx_tiles"] = "tdpbssd" in llir
    print(json.dumps(report))
''')


def run(tmp_path, **env):
    import json
    path = tmp_path / "features.py"
    path.write_text(SCRIPT)
    environment = {k: v for k, v in os.environ.items() if k != "TRITIUM_CPU_FEATURES"}
    result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600,
                            env=dict(environment, **env), cwd=HERE)
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def host_has(flag):
    """Whether the CPU has `flag` as Linux names it (the code generator's key keeps avx512bf16
    off for LLVM's own conversions, so it cannot tell)."""
    with open("/proc/cpuinfo") as cpuinfo:
        return any(flag in line.split() for line in cpuinfo if line.startswith("flags"))


def test_without_avx512_the_avx2_paths_run_and_agree(tmp_path):
    report = run(tmp_path, TRITIUM_CPU_FEATURES="-avx512,-amx")
    assert not re.search(r"(^|[,-])\+(avx512|amx)", report["key"]), report["key"]
    assert not report["bf16_dot_instruction"] and not report["int8_dot_instruction"]
    assert not report["bf16_amx_tiles"] and not report["int8_amx_tiles"]
    assert report["widest_f32_vector"] == 8


def test_the_hosts_own_features_are_used(tmp_path):
    report = run(tmp_path)
    # AMX tiles take these matmuls where the host has them; AVX-512's dot products otherwise.
    amx = host_has("amx_bf16") and host_has("amx_int8")
    assert report["bf16_amx_tiles"] == amx and report["int8_amx_tiles"] == amx
    assert report["bf16_dot_instruction"] == (host_has("avx512_bf16") and not amx)
    assert report["int8_dot_instruction"] == (host_has("avx512_vnni") and not amx)
    assert report["widest_f32_vector"] == (16 if host_has("avx512f") else 8)
