"""Data-parallel training through tritium: torch.distributed (gloo, CPU tensors) around models compiled
with `torch.compile(..., backend="tritium")`.

Each test spawns two ranks on this machine, one thread each. Every rank trains a small transformer
language model for a few SGD steps on its half of each global batch; the test checks that the mean
of the ranks' losses follows the loss curve of a single eager process that trains on whole batches,
and that every training step of every rank ran Triton kernels through tritium's launcher.
"""

import json
import os
import socket
import time

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

WORLD = 2
VOCAB, DIM, SEQ, BATCH, STEPS = 64, 32, 16, 8, 4
TIMEOUT = 300  # seconds for all ranks to finish, cold compile included (30-50 s on 2 cores)


class TinyLM(nn.Module):

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList(
            nn.TransformerEncoderLayer(DIM, nhead=2, dim_feedforward=64, dropout=0.0, batch_first=True)
            for _ in range(2))
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def global_batches():
    """The same STEPS batches in every process. The target is a fixed permutation of the input token,
    something the model can learn, so the loss curve moves from step to step."""
    generator = torch.Generator().manual_seed(1)
    for _ in range(STEPS):
        ids = torch.randint(0, VOCAB, (BATCH, SEQ), generator=generator)
        yield ids, (ids * 5 + 3) % VOCAB


def train(model, rank, world, on_step=lambda step: None):
    """The loss of every step on this rank's share of the global batch. Plain SGD with a large step
    (the loss falls from 4.2 to 2.7 in four steps): unlike Adam's, its updates scale with the gradient,
    so gradients the ranks did not average (each rank's own) move the later losses by >= 1e-2 and
    gradients summed instead of averaged by >= 1e-1, far outside the comparison's tolerance."""
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    share = BATCH // world
    losses = []
    for step, (ids, targets) in enumerate(global_batches()):
        ids, targets = ids[rank * share:(rank + 1) * share], targets[rank * share:(rank + 1) * share]
        loss = F.cross_entropy(model(ids).reshape(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        on_step(step)
    return losses


def _ddp_model(model):
    from torch.nn.parallel import DistributedDataParallel as DDP
    return DDP(torch.compile(model, backend="tritium"))


def _fsdp_model(model):
    # FSDP2 as torchtitan applies it with torch.compile: each block compiled and then sharded, the
    # root (embedding and head, run eagerly) sharded last. Compiling the sharded root instead would
    # graph-break at FSDP's hooks, which torch keeps out of Dynamo, and leave the blocks eager.
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard
    mesh = init_device_mesh("cpu", (WORLD, ))
    for i, block in enumerate(model.blocks):
        model.blocks[i] = fully_shard(torch.compile(block, backend="tritium"), mesh=mesh)
    return fully_shard(model, mesh=mesh)


WRAPPERS = {"ddp": _ddp_model, "fsdp": _fsdp_model}


def _rank(rank, wrapper, port, out_dir):
    """One rank (a spawned process): trains and writes its report to out_dir/rank<rank>.json."""
    from datetime import timedelta

    import torch.distributed as dist
    import triton
    from triton import knobs

    torch.set_num_threads(1)  # two ranks share a 2-core machine; tritium's threads come from TRITIUM_NUM_THREADS
    # A short collective timeout: if the other rank dies, this one fails instead of waiting 30 minutes.
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD,
                            timeout=timedelta(seconds=120))
    launches = []  # kernel names launched, appended by tritium's launcher through Triton's hook
    knobs.runtime.launch_enter_hook.add(lambda metadata: launches.append(metadata.get()["name"]))
    per_step = []

    def count_launches(step):
        per_step.append(len(launches) - sum(per_step))

    try:
        torch.manual_seed(0)  # the same initial weights on every rank and in the reference
        model = WRAPPERS[wrapper](TinyLM())
        losses = train(model, rank, WORLD, on_step=count_launches)
        import tritium
        report = {
            "losses": losses, "launches_per_step": per_step, "kernels": sorted(set(launches)),
            "driver": type(triton.runtime.driver.active).__module__, "tritium_threads": tritium.get_num_threads()
        }
        with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
            json.dump(report, f)
    finally:
        dist.destroy_process_group()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(wrapper, tmp_path):
    """Runs WORLD ranks and returns their reports. A rank that raises fails the test with its
    traceback (the others are stopped); ranks still running after TIMEOUT are killed."""
    import torch.multiprocessing as mp
    context = mp.start_processes(_rank, args=(wrapper, _free_port(), str(tmp_path)), nprocs=WORLD, join=False,
                                 start_method="spawn")
    deadline = time.monotonic() + TIMEOUT
    while not context.join(timeout=max(0.0, deadline - time.monotonic()), grace_period=5):
        if time.monotonic() >= deadline:
            for process in context.processes:
                process.kill()
                process.join()
            pytest.fail(f"{wrapper}: the ranks did not finish within {TIMEOUT} s")
    reports = []
    for rank in range(WORLD):
        with open(tmp_path / f"rank{rank}.json") as f:
            reports.append(json.load(f))
    return reports


@pytest.fixture(scope="module")
def caches(tmp_path_factory):
    """Triton's and Inductor's caches, empty when this module starts: the ranks compile every kernel
    in this run (concurrently, both ranks missing the same entries, as ranks on one host do); the second
    test reuses the kernels of the first that are the same."""
    return tmp_path_factory.mktemp("caches")


@pytest.fixture
def rank_environment(caches, tmp_path, monkeypatch):
    """What the spawned ranks inherit: the module's caches and one tritium thread per rank."""
    monkeypatch.setenv("TRITON_CACHE_DIR", str(caches / "triton"))
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(caches / "inductor"))
    monkeypatch.setenv("TRITIUM_NUM_THREADS", "1")
    # Inductor compiles in a pool of worker processes per rank, as many as the host's cores by default:
    # with two ranks on two cores, one compile thread per rank is faster (~45 s instead of ~60 s here).
    monkeypatch.setenv("TORCHINDUCTOR_COMPILE_THREADS", "1")
    return tmp_path


@pytest.mark.parametrize("wrapper", ["ddp", "fsdp"])
def test_two_ranks_match_one_process(wrapper, rank_environment):
    start = time.monotonic()
    reports = run_ranks(wrapper, rank_environment)
    elapsed = time.monotonic() - start

    for rank, report in enumerate(reports):
        assert report["driver"].startswith("tritium."), f"rank {rank}: Triton's active driver is {report['driver']}"
        assert report["tritium_threads"] == 1, f"rank {rank}: TRITIUM_NUM_THREADS=1 did not reach the rank"
        # Step 0 also compiles (and benchmarks); later steps launch only the training's kernels.
        assert all(count > 0 for count in report["launches_per_step"][1:]), \
            f"rank {rank}: a training step ran no tritium kernel: {report['launches_per_step']}"

    # The reference: one process, eager, whole batches, the same initial weights. Each rank's loss is
    # the mean over its half of the batch, so the ranks' mean is the whole batch's loss. What may
    # differ is float32 rounding (sums split across ranks and reassociated in fused kernels): a few
    # ulps, which the steps carry on. rtol=1e-5 leaves room for that and still fails on gradients that
    # were not averaged, or not correctly (>= 1e-2, see train).
    torch.manual_seed(0)
    expected = torch.tensor(train(TinyLM(), rank=0, world=1), dtype=torch.float64)
    got = torch.tensor([report["losses"] for report in reports], dtype=torch.float64).mean(0)
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=0)

    kernels = sorted(set().union(*(report["kernels"] for report in reports)))
    print(f"\n{wrapper}: {WORLD} ranks in {elapsed:.1f} s, {len(kernels)} tritium kernels, "
          f"launches per step {[report['launches_per_step'] for report in reports]}, losses {got.tolist()}")
