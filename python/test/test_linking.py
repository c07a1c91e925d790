"""tritium's statically linked LLVM/MLIR share a process with triton's and llvmlite's."""

import subprocess
import sys
import textwrap


def test_triton_torch_llvmlite_and_tritium_in_one_process(tmp_path):
    code = textwrap.dedent("""
        import ctypes, os, sys
        # RTLD_GLOBAL makes any exported LLVM symbol visible to every later library: the
        # harshest setting for symbol clashes.
        sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
        import llvmlite.binding as llvm
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        module = llvm.parse_assembly("define i32 @f(i32 %x) { %y = add i32 %x, 1 ret i32 %y }")
        module.verify()
        import torch, triton, triton.language as tl
        import tritium

        @triton.jit
        def add_one(x_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

        x = torch.zeros(1000)
        add_one[(8,)](x, 1000, BLOCK=128)
        assert torch.all(x == 1)
        target = llvm.Target.from_default_triple().create_target_machine()
        target.emit_object(module)
        print("ok")
    """)
    # A file, not `-c`: @triton.jit reads the kernel's source. tmp_path, not the working
    # directory, so that two runs of the suite side by side do not share it.
    probe = tmp_path / "tritium_linking_probe.py"
    probe.write_text(code)
    out = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == "ok"


def test_extension_exports_no_llvm_symbols():
    import tritium._C as native
    out = subprocess.run(["nm", "-D", "--defined-only", native.__file__], capture_output=True, text=True, check=True)
    exported = [line.split()[-1] for line in out.stdout.splitlines()]
    leaked = [name for name in exported if "llvm" in name.lower() or "mlir" in name.lower()]
    assert not leaked, leaked[:10]
    assert "PyInit__C" in exported
