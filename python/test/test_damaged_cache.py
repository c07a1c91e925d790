"""A damaged entry of Triton's kernel cache is a cache miss with a warning naming the file: the
kernel is compiled again and the entry rewritten. Never an abort, never a failure that lasts
until the cache is deleted by hand. Each kind of damage runs in a subprocess, so that an abort
inside the object reader would fail the test rather than end the test run."""

import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = textwrap.dedent('''
    import glob, os, random, sys, warnings
    import torch, triton, triton.language as tl
    from triton import knobs
    from tritium import _C

    def scale(x, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=mask) * 3.0, mask=mask)

    def run_fresh():
        """Launches a new JITFunction (no in-memory cache); returns the warnings it raised."""
        kernel = triton.jit(scale)
        x, out = torch.arange(100, dtype=torch.float32), torch.zeros(100)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            kernel[(1, )](x, out, 100, BLOCK=128)
        assert torch.equal(out, x * 3), "wrong result"
        return [str(w.message) for w in caught if "damaged" in str(w.message)]

    def damage(path, how):
        data = open(path, "rb").read()
        if how == "flip-middle":
            middle = len(data) // 2
            data = data[:middle] + bytes(b ^ 0x5A for b in data[middle:middle + 64]) + data[middle + 64:]
        elif how == "truncate":
            data = data[:len(data) // 2]
        elif how == "garbage":
            data = b"\\xff\\xfe not what was written \\x00\\x01"
        elif how == "empty-object":
            data = b"{}"
        elif how == "delete":
            os.remove(path)
            return
        open(path, "wb").write(data)

    cache, pattern, how = sys.argv[1:4]
    knobs.cache.dir = cache
    assert run_fresh() == []
    targets = [p for p in glob.glob(os.path.join(cache, "*", pattern))]
    assert len(targets) == 1, targets
    damage(targets[0], how)
    warned = run_fresh()
    assert len(warned) == 1 and targets[0] in warned[0], warned
    print("warned:", warned[0])
    assert run_fresh() == [], "the entry must have been rewritten"
    print("ok")
''')

DAMAGES = [
    ("scale.obj", "flip-middle"),
    ("scale.obj", "truncate"),
    ("scale.obj", "garbage"),
    ("scale.obj", "delete"),
    ("scale.json", "garbage"),
    ("scale.json", "empty-object"),
    ("scale.json", "truncate"),
    ("__grp__scale.json", "garbage"),
    ("scale.llir", "garbage"),
    ("scale.linalg", "delete"),
]


@pytest.mark.parametrize("pattern,how", DAMAGES, ids=[f"{p}-{h}" for p, h in DAMAGES])
def test_a_damaged_cache_file_is_recompiled_with_a_warning(tmp_path, pattern, how):
    script = tmp_path / "damaged_cache.py"
    script.write_text(SCRIPT)
    result = subprocess.run([sys.executable, str(script), str(tmp_path / "cache"), pattern, how],
                            capture_output=True, text=True, timeout=300, cwd=HERE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith("ok"), result.stdout
    assert "is damaged" in result.stdout and "compiling the kernel again" in result.stdout


LOADER = textwrap.dedent('''
    import random, sys
    from tritium import _C
    obj = open(sys.argv[1], "rb").read()
    rng = random.Random(1234)
    rejected = 0
    for trial in range(400):
        data = bytearray(obj)
        kind = trial % 4
        if kind == 0:      # a few random bytes anywhere (headers included)
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif kind == 1:    # cut short
            data = data[:rng.randrange(len(data))]
        elif kind == 2:    # a run of garbage
            start = rng.randrange(len(data))
            data[start:start + 256] = bytes(rng.randrange(256) for _ in range(256))
        else:              # the section header table and the symbols: the reader's favourite
            start = rng.randrange(max(1, len(data) - 512), len(data))
            data[start] ^= 1 << rng.randrange(8)
        try:
            handle, _ = _C.load_kernel(bytes(data), "scale__entry")
            _C.unload_kernel(handle)
        except RuntimeError as error:
            rejected += 1
    print("rejected", rejected)
''')


def test_the_loader_rejects_damaged_objects_instead_of_aborting(tmp_path):
    """Damaged objects given straight to the loader (no digest to check) raise RuntimeError."""
    make = textwrap.dedent('''
        import sys, torch, triton, triton.language as tl
        @triton.jit
        def scale(x, out, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(out + offs, tl.load(x + offs, mask=offs < n) * 3.0, mask=offs < n)
        x = torch.ones(8)
        scale[(1, )](x, x, 8, BLOCK=8)
        kernel = next(iter(scale.device_caches[0][0].values()))
        open(sys.argv[1], "wb").write(kernel.asm["obj"])
    ''')
    maker = tmp_path / "make_object.py"
    maker.write_text(make)
    obj = tmp_path / "scale.obj"
    made = subprocess.run([sys.executable, str(maker), str(obj)], capture_output=True, text=True,
                          timeout=300)
    assert made.returncode == 0, made.stderr
    loader = tmp_path / "load_damaged.py"
    loader.write_text(LOADER)
    result = subprocess.run([sys.executable, str(loader), str(obj)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, (result.returncode, result.stderr[-3000:])
    assert int(result.stdout.split()[-1]) > 0
