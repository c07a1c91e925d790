//===- OpenMPThreads.cpp - running a grid on the process's OpenMP threads -===//
//
// In a process that runs torch, aten's operations run on the threads of torch's OpenMP
// runtime, and Inductor's graphs alternate aten calls with kernel launches. A pool of
// tritium's own beside it puts two sets of threads on the same cores: after a launch, torch's
// threads wanted the cores tritium's workers were polling on, and the other way round after an
// aten call. Run on the OpenMP team itself, a grid finds its threads polling where aten left
// them and leaves them polling for the next aten call, as the C++ backend's kernels do (tiny
// GPT-2 and BERT training steps at two threads: 0.92-0.93x -> 1.08-1.09x of the C++ backend).
//
// The runtime is not linked but looked up in the process, so tritium keeps its own pool where
// none is loaded. Its GNU entry point GOMP_parallel runs a function on a team; the programs
// are shared as in the own pool: each thread owns the same contiguous part of the grid at
// every launch (the data it touched the launch before is in its core's caches) and takes
// chunks of the others' parts when its own is done (a team may have fewer threads than asked
// for, e.g. inside another parallel region).
//
//===----------------------------------------------------------------------===//

#include "OpenMPThreads.h"

#include "RunningProgram.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include <dlfcn.h>
#include <link.h>

namespace tritium::cpu {
namespace {

using ParallelFunction = void (*)(void (*)(void *), void *, unsigned, unsigned);
using ThreadNumberFunction = int (*)();

struct OpenMPEntryPoints {
  ParallelFunction parallel = nullptr;   // GOMP_parallel(fn, data, threads, flags)
  ThreadNumberFunction threadNumber = nullptr; // omp_get_thread_num()
  ThreadNumberFunction maxThreads = nullptr;   // omp_get_max_threads()
};

/// How many objects the dynamic loader has loaded so far (it only counts up).
unsigned long long loadsSoFar() {
  unsigned long long adds = 0;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        *static_cast<unsigned long long *>(data) = info->dlpi_adds;
        return 1; // the first object says it
      },
      &adds);
  return adds;
}

/// The entry points, looked up again only when the loader has loaded something since the last
/// miss (torch may be imported after tritium's first launch).
const OpenMPEntryPoints &entryPoints() {
  static std::mutex lookupMutex;
  static OpenMPEntryPoints found;
  static std::atomic<bool> complete{false};
  static unsigned long long loadsAtMiss = ~0ull;
  if (complete.load(std::memory_order_acquire))
    return found;
  std::lock_guard<std::mutex> lock(lookupMutex);
  unsigned long long loads = loadsSoFar();
  if (!complete.load(std::memory_order_relaxed) && loads != loadsAtMiss) {
    auto parallel = reinterpret_cast<ParallelFunction>(dlsym(RTLD_DEFAULT, "GOMP_parallel"));
    auto threadNumber =
        reinterpret_cast<ThreadNumberFunction>(dlsym(RTLD_DEFAULT, "omp_get_thread_num"));
    auto maxThreads =
        reinterpret_cast<ThreadNumberFunction>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
    if (parallel && threadNumber && maxThreads) {
      found = {parallel, threadNumber, maxThreads};
      complete.store(true, std::memory_order_release);
    } else {
      loadsAtMiss = loads;
    }
  }
  return found;
}

struct alignas(64) Part {
  std::atomic<int64_t> next{0};
  int64_t end = 0;
};

/// What the team shares: it lives on the caller's stack for the length of GOMP_parallel, whose
/// start and end order every access to it.
struct Team {
  GridLaunch grid;
  Part *parts;
  int partCount;
  int64_t chunk;
  ThreadNumberFunction threadNumber;
};

void runAsTeamMember(void *data) {
  const Team &team = *static_cast<const Team *>(data);
  thread_local bool preparedForFaults = (prepareThreadForFaults(), true);
  (void)preparedForFaults;
  int self = team.threadNumber() % team.partCount;
  for (int i = 0; i < team.partCount; ++i) {
    Part &part = team.parts[(self + i) % team.partCount];
    for (;;) {
      int64_t begin = part.next.fetch_add(team.chunk, std::memory_order_relaxed);
      if (begin >= part.end)
        break;
      runPrograms(team.grid, begin, std::min(begin + team.chunk, part.end));
    }
  }
}

} // namespace

bool openMPRuntimeLoaded() { return entryPoints().parallel != nullptr; }

int openMPMaxThreads() { return entryPoints().maxThreads(); }

void runOnOpenMPThreads(const GridLaunch &grid, int64_t first, int64_t count, int64_t alreadyRun,
                        int threads) {
  // The caller's part words, kept from launch to launch: no allocation per launch.
  thread_local std::unique_ptr<Part[]> parts;
  thread_local int capacity = 0;
  if (capacity < threads) {
    parts = std::make_unique<Part[]>(threads);
    capacity = threads;
  }
  for (int t = 0; t < threads; ++t) {
    // The programs the caller ran alone come off the front of the first parts.
    int64_t begin = std::max(count * t / threads, alreadyRun);
    parts[t].next.store(first + begin, std::memory_order_relaxed);
    parts[t].end = first + std::max(begin, count * (t + 1) / threads);
  }
  Team team{grid, parts.get(), threads, chunkOfParts(count, threads), entryPoints().threadNumber};
  entryPoints().parallel(runAsTeamMember, &team, unsigned(threads), 0);
}

} // namespace tritium::cpu
