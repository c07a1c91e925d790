//===- GridLauncher.cpp - running a grid of programs on a thread pool -----===//
//
// A persistent pool whose hand-off costs no system call while the pool is warm. A launch is
// announced in one 64-bit word (launch sequence number | open or closed). Each thread owns a
// contiguous part of the grid, the same part at every launch of a grid (the caller the first,
// worker i the (i+1)-th), so that a program's data stays in the caches of the core that ran it
// the launch before: with chunks handed out first come, first served, the two cores of a 2^16
// add swapped half its 768 KB between their L2 caches at every launch (16 programs, two
// threads: 12 us a launch, slower than one thread's 7). A part is a word of its own (sequence
// number | next unclaimed program of the part); its owner claims contiguous chunks of it with
// compare-and-swap, and a thread whose part is done claims chunks of the others' parts, so
// a worker that arrives late finds its part taken and nothing lost, and a worker that is still
// looking at an old launch can never claim a program of a new one (its sequence number no
// longer matches). The launch description is read like a seqlock: it is only written while
// every part word carries the new sequence number and says "closed", and a claim succeeds
// only if its part word did not change since the description was read.
//
// In a process with an OpenMP runtime (torch's), grids run on its threads instead by default
// (OpenMPThreads.cpp); this pool is for processes without one, or TRITIUM_THREAD_POOL=tritium.
//
// A launch on one thread runs alone (RunningProgram::runsAlone): it holds the pool
// and, exclusively, `launchesBeside`, which every one-program launch (run without the pool)
// holds shared; its relaxed atomics may then be plain read-modify-writes.
//
// Idle workers spin on the word for a short while after each launch (back-to-back launches,
// as Inductor's generated code makes, then need no wake-up), yielding their core now and then,
// and then sleep on a condition variable. The caller runs programs too and returns when every program has finished, so a
// one-program grid, or a grid the caller finishes before a worker notices, costs nothing
// beyond the programs themselves.
//
//===----------------------------------------------------------------------===//

#include "GridPrograms.h"
#include "OpenMPThreads.h"
#include "RunningProgram.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <pthread.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TRITIUM_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define TRITIUM_CPU_RELAX() asm volatile("yield")
#else
#define TRITIUM_CPU_RELAX() ((void)0)
#endif

namespace tritium::cpu {
namespace {

// The launch word: the launch's sequence number in the high bits, the next program to claim
// in the low bits. A grid with more programs than the low bits hold runs as several launches.
constexpr int kIndexBits = 40;
constexpr uint64_t kIndexMask = (uint64_t(1) << kIndexBits) - 1;
constexpr uint64_t kClosed = kIndexMask; // no program may be claimed
constexpr int64_t kMaxProgramsPerLaunch = int64_t(kIndexMask) - 1;

uint64_t sequenceOf(uint64_t word) { return word >> kIndexBits; }
uint64_t indexOf(uint64_t word) { return word & kIndexMask; }
uint64_t makeWord(uint64_t sequence, uint64_t index) { return (sequence << kIndexBits) | index; }

// How long an idle worker keeps polling before it sleeps: long enough for the next of
// back-to-back launches, short enough to give its core back to torch's OpenMP threads when an
// aten call comes next (at 200 µs a spinning worker halved the GEMMs of Inductor's graphs that
// mix both: tiny GPT-2 inference at two threads 2.39 -> 1.63 ms, LLaMA 0.91x -> 1.12x of the
// C++ backend).
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(20);
thread_local RunningProgram running;

/// The positive count an environment variable gives, or 0.
int threadsFromEnvironment(const char *name) {
  const char *env = std::getenv(name);
  return env ? std::max(0, std::atoi(env)) : 0;
}

class ThreadPool {
public:
  explicit ThreadPool(int threads) : partWords(threads) {
    for (int i = 1; i < threads; ++i)
      workers.emplace_back([this, i] { work(i); });
  }

  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(sleepMutex);
      stopping.store(true);
    }
    wake.notify_all();
    for (std::thread &worker : workers)
      worker.join();
  }

  int size() const { return int(partWords.size()); }

  /// Runs programs [first + alreadyRun, first + count) of the grid, those before were run by
  /// the caller; one caller at a time.
  void run(const GridLaunch &grid, int64_t first, int64_t count, int64_t alreadyRun) {
    sequence = (sequence + 1) & ((uint64_t(1) << (64 - kIndexBits)) - 1);
    if (sequence == 0)
      sequence = 1; // 0 is "no launch yet"
    // Close the words, then describe the launch, then open them (the seqlock's writer side).
    word.store(makeWord(sequence, kClosed), std::memory_order_relaxed);
    for (PartWord &part : partWords)
      part.word.store(makeWord(sequence, kClosed), std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    desc.entry.store(grid.entry, std::memory_order_relaxed);
    desc.args.store(grid.args, std::memory_order_relaxed);
    desc.gridX.store(grid.gridX, std::memory_order_relaxed);
    desc.gridY.store(grid.gridY, std::memory_order_relaxed);
    desc.gridZ.store(grid.gridZ, std::memory_order_relaxed);
    desc.first.store(first, std::memory_order_relaxed);
    desc.count.store(count, std::memory_order_relaxed);
    desc.launch.store(grid.launch, std::memory_order_relaxed);
    done.store(alreadyRun, std::memory_order_relaxed);
    // The programs the caller ran alone come off the front of the first parts.
    for (int part = 0; part < size(); ++part)
      partWords[part].word.store(
          makeWord(sequence, uint64_t(std::max(partBegin(count, part), alreadyRun))),
          std::memory_order_relaxed);
    word.store(makeWord(sequence, 0), std::memory_order_seq_cst);
    if (sleepers.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard<std::mutex> lock(sleepMutex); }
      wake.notify_all();
    }
    claimAndRun(sequence, 0);
    for (int spins = 0; done.load(std::memory_order_acquire) != count; ++spins) {
      if (spins < 4096)
        TRITIUM_CPU_RELAX();
      else
        std::this_thread::yield();
    }
  }

private:
  struct Description {
    std::atomic<KernelEntry> entry{nullptr};
    std::atomic<const uint64_t *> args{nullptr};
    std::atomic<int32_t> gridX{1}, gridY{1}, gridZ{1};
    std::atomic<int64_t> first{0}, count{0};
    std::atomic<uint64_t> launch{0};
  };

  struct alignas(64) PartWord {
    std::atomic<uint64_t> word{0};
  };

  /// The first program of `part` in a launch of `count` programs.
  int64_t partBegin(int64_t count, int part) const { return count * part / size(); }

  /// Runs chunks of launch `launchSequence`: of the thread's own part first, then of the
  /// others', until none is left or a newer launch replaced it.
  void claimAndRun(uint64_t launchSequence, int self) {
    for (int i = 0; i < size(); ++i)
      if (!claimAll((self + i) % size(), launchSequence))
        return;
  }

  /// Runs the chunks of `part` it can claim; false if the launch is no longer current.
  bool claimAll(int part, uint64_t launchSequence) {
    std::atomic<uint64_t> &partWord = partWords[part].word;
    uint64_t seen = partWord.load(std::memory_order_acquire);
    for (;;) {
      if (sequenceOf(seen) != launchSequence || indexOf(seen) == kClosed)
        return false;
      GridLaunch grid{desc.entry.load(std::memory_order_relaxed),
                      desc.args.load(std::memory_order_relaxed),
                      desc.gridX.load(std::memory_order_relaxed),
                      desc.gridY.load(std::memory_order_relaxed),
                      desc.gridZ.load(std::memory_order_relaxed),
                      desc.launch.load(std::memory_order_relaxed)};
      int64_t first = desc.first.load(std::memory_order_relaxed);
      int64_t count = desc.count.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      int64_t begin = int64_t(indexOf(seen));
      int64_t partEnd = part + 1 == size() ? count : partBegin(count, part + 1);
      if (begin >= partEnd)
        return true;
      int64_t end = std::min(begin + chunkOfParts(count, size()), partEnd);
      // Succeeds only if the part word is unchanged: the description read above is this
      // launch's.
      if (!partWord.compare_exchange_weak(seen, makeWord(launchSequence, uint64_t(end)),
                                          std::memory_order_acq_rel, std::memory_order_acquire))
        continue; // `seen` now holds the current word; a new sequence number ends the loop
      runPrograms(grid, first + begin, first + end);
      done.fetch_add(end - begin, std::memory_order_acq_rel);
      seen = partWord.load(std::memory_order_acquire);
    }
  }

  void work(int self) {
    prepareThreadForFaults();
    uint64_t finished = 0; // the sequence number of the last launch this worker saw through
    for (;;) {
      uint64_t seen = waitForLaunch(finished);
      if (seen == 0)
        return;
      claimAndRun(sequenceOf(seen), self);
      finished = sequenceOf(seen);
    }
  }

  /// The word of a launch newer than `finished` that is open, or 0 when the pool stops.
  uint64_t waitForLaunch(uint64_t finished) {
    auto fresh = [&](uint64_t w) { return sequenceOf(w) != finished && indexOf(w) != kClosed; };
    auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    for (unsigned spins = 0;; ++spins) {
      uint64_t w = word.load(std::memory_order_acquire);
      if (fresh(w))
        return w;
      if (stopping.load(std::memory_order_relaxed))
        return 0;
      TRITIUM_CPU_RELAX();
      // Now and then the core goes to any other thread that wants it (torch's OpenMP
      // threads, when an aten call follows the launch): tiny BERT inference at two threads
      // ~1.77 -> ~1.68 ms a call.
      if ((spins & 63) == 63) {
        if (std::chrono::steady_clock::now() > deadline)
          break;
        std::this_thread::yield();
      }
    }
    std::unique_lock<std::mutex> lock(sleepMutex);
    sleepers.fetch_add(1, std::memory_order_seq_cst);
    uint64_t w;
    while (!fresh(w = word.load(std::memory_order_seq_cst)) && !stopping.load())
      wake.wait(lock);
    sleepers.fetch_sub(1, std::memory_order_seq_cst);
    return stopping.load() ? 0 : w;
  }

  std::vector<std::thread> workers;
  uint64_t sequence = 0; // the caller's; guarded by the launch mutex
  Description desc;
  alignas(64) std::atomic<uint64_t> word{0};
  std::vector<PartWord> partWords; // one a thread, the caller's first
  alignas(64) std::atomic<int64_t> done{0};
  alignas(64) std::atomic<int> sleepers{0};
  std::atomic<bool> stopping{false};
  std::mutex sleepMutex;
  std::condition_variable wake;
};

std::mutex poolMutex;
std::unique_ptr<ThreadPool> pool;
// Held shared by launches that run beside others, exclusively by a launch that runs alone.
std::shared_mutex launchesBeside;
// Every launch gets its own number: what a program cached is valid for its launch only.
std::atomic<uint64_t> launchCount{0};
// set_num_threads's count, else TRITIUM_NUM_THREADS's; 0 if neither, -1 before the first use.
int requestedThreads = -1;

enum class PoolChoice { Undecided, OpenMPWhereLoaded, Own };
PoolChoice poolChoice = PoolChoice::Undecided;
// A forked child runs its grids on a pool of its own: GNU's OpenMP runtime waits forever in
// the child for the team threads its parent had.
bool forked = false;

/// A forked child has none of its parent's worker threads (only the forking thread survives a
/// fork): it must neither wait for them nor join them at exit, which would hang it. It forgets
/// the parent's pool (leaking it) and starts a new one at its first launch.
void forgetPoolAfterFork() {
  forked = true;
  (void)pool.release();
  new (&poolMutex) std::mutex(); // another parent thread may have held it at the fork
  new (&launchesBeside) std::shared_mutex();
}

/// Whether shared grids run on the process's OpenMP threads; the caller holds poolMutex.
bool onOpenMPThreads() {
  if (poolChoice == PoolChoice::Undecided) {
    const char *env = std::getenv("TRITIUM_THREAD_POOL");
    poolChoice = env && std::string_view(env) == "tritium" ? PoolChoice::Own
                                                           : PoolChoice::OpenMPWhereLoaded;
  }
  return poolChoice == PoolChoice::OpenMPWhereLoaded && !forked && openMPRuntimeLoaded();
}

/// The thread count; the caller holds poolMutex and says whether grids run on OpenMP's threads
/// (onOpenMPThreads). Unless tritium was told one, it follows the OpenMP runtime there
/// (torch.set_num_threads, OMP_NUM_THREADS), else OMP_NUM_THREADS (which torch follows too, and
/// which torchrun sets to 1 per rank when several ranks share a host), else every core.
int threadCount(bool openMP) {
  if (requestedThreads < 0)
    requestedThreads = threadsFromEnvironment("TRITIUM_NUM_THREADS");
  if (requestedThreads > 0)
    return requestedThreads;
  if (openMP)
    return std::max(1, openMPMaxThreads());
  if (int fromOpenMPVariable = threadsFromEnvironment("OMP_NUM_THREADS"))
    return fromOpenMPVariable;
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

ThreadPool &getPool() {
  if (!pool)
    pool = std::make_unique<ThreadPool>(threadCount(/*openMP=*/false));
  return *pool;
}

} // namespace

RunningProgram &runningProgram() { return running; }

void launchGrid(KernelEntry entry, const uint64_t *args, int32_t gridX, int32_t gridY,
                int32_t gridZ) {
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0)
    return;
  static const bool faultsReported = (installFaultReporter(), true);
  (void)faultsReported;
  static const int forkWatched = pthread_atfork(nullptr, nullptr, forgetPoolAfterFork);
  (void)forkWatched;
  thread_local bool threadPrepared = (prepareThreadForFaults(), true);
  (void)threadPrepared;
  int64_t total = int64_t(gridX) * gridY * gridZ;
  GridLaunch grid{entry, args, gridX, gridY, gridZ,
                  launchCount.fetch_add(1, std::memory_order_relaxed) + 1};
  if (total == 1) {
    std::shared_lock<std::shared_mutex> beside(launchesBeside);
    runPrograms(grid, 0, 1);
    return;
  }
  // One launch at a time owns the threads; concurrent launches from other threads wait.
  std::lock_guard<std::mutex> lock(poolMutex);
  bool openMP = onOpenMPThreads(); // once a launch: it may look up the OpenMP runtime
  int threads = threadCount(openMP);
  if (threads == 1) {
    std::unique_lock<std::shared_mutex> alone(launchesBeside);
    RunningProgram &current = running;
    current.runsAlone = true;
    runPrograms(grid, 0, total);
    current.runsAlone = false;
    return;
  }
  for (int64_t first = 0; first < total; first += kMaxProgramsPerLaunch) {
    int64_t count = std::min(kMaxProgramsPerLaunch, total - first);
    int64_t alreadyRun = runUntilWorthSharing(grid, first, count);
    if (alreadyRun == count)
      continue;
    // Timed only when shared from the first program (the probe timed the others).
    auto start = alreadyRun == 0 ? std::chrono::steady_clock::now()
                                 : std::chrono::steady_clock::time_point{};
    if (openMP)
      runOnOpenMPThreads(grid, first, count, alreadyRun, threads);
    else
      getPool().run(grid, first, count, alreadyRun);
    if (alreadyRun == 0)
      noteSharedRun(grid, count, threads, std::chrono::steady_clock::now() - start);
  }
}

void setNumThreads(int threads) {
  std::lock_guard<std::mutex> lock(poolMutex);
  requestedThreads = std::max(1, threads);
  pool.reset();
}

int getNumThreads() {
  std::lock_guard<std::mutex> lock(poolMutex);
  return threadCount(onOpenMPThreads());
}

void setThreadPool(bool openMPWhereLoaded) {
  std::lock_guard<std::mutex> lock(poolMutex);
  poolChoice = openMPWhereLoaded ? PoolChoice::OpenMPWhereLoaded : PoolChoice::Own;
}

bool threadPoolIsOpenMP() {
  std::lock_guard<std::mutex> lock(poolMutex);
  return onOpenMPThreads();
}

} // namespace tritium::cpu
