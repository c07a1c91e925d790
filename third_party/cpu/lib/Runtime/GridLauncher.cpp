//===- GridLauncher.cpp - running a grid of programs on a thread pool -----===//
//
// A persistent pool: workers sleep on a condition variable between launches and take
// chunks of programs from a shared counter, so uneven programs balance out. The calling
// thread works too; a one-program grid never wakes the pool.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Runtime.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace tritium::cpu {
namespace {

struct Launch {
  KernelEntry entry = nullptr;
  const uint64_t *args = nullptr;
  int32_t gridX = 1, gridY = 1, gridZ = 1;
  int64_t total = 0;
  int64_t chunk = 1;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
};

void runPrograms(Launch &launch) {
  const int64_t plane = int64_t(launch.gridX) * launch.gridY;
  for (;;) {
    int64_t begin = launch.next.fetch_add(launch.chunk);
    if (begin >= launch.total)
      return;
    int64_t end = std::min(begin + launch.chunk, launch.total);
    for (int64_t i = begin; i < end; ++i) {
      int32_t x = int32_t(i % launch.gridX);
      int32_t y = int32_t((i / launch.gridX) % launch.gridY);
      int32_t z = int32_t(i / plane);
      launch.entry(launch.args, x, y, z, launch.gridX, launch.gridY, launch.gridZ);
    }
    launch.done.fetch_add(end - begin);
  }
}

int defaultThreads() {
  if (const char *env = std::getenv("TRITIUM_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n > 0)
      return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

class ThreadPool {
public:
  explicit ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i)
      workers.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    for (std::thread &worker : workers)
      worker.join();
  }
  int size() const { return int(workers.size()) + 1; }

  void run(Launch &launch) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      current = &launch;
      ++generation;
    }
    wake.notify_all();
    runPrograms(launch);
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] { return launch.done.load() == launch.total && busy == 0; });
    current = nullptr;
  }

private:
  void work() {
    uint64_t seen = 0;
    for (;;) {
      Launch *launch;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stopping || (current && generation != seen); });
        if (stopping)
          return;
        seen = generation;
        launch = current;
        ++busy;
      }
      runPrograms(*launch);
      {
        std::lock_guard<std::mutex> lock(mutex);
        --busy;
      }
      finished.notify_all();
    }
  }

  std::vector<std::thread> workers;
  std::mutex mutex;
  std::condition_variable wake, finished;
  Launch *current = nullptr;
  uint64_t generation = 0;
  int busy = 0;
  bool stopping = false;
};

std::mutex poolMutex;
std::unique_ptr<ThreadPool> pool;
int requestedThreads = 0;

ThreadPool &getPool() {
  if (!pool)
    pool = std::make_unique<ThreadPool>(requestedThreads > 0 ? requestedThreads
                                                             : defaultThreads());
  return *pool;
}

} // namespace

void launchGrid(KernelEntry entry, const uint64_t *args, int32_t gridX, int32_t gridY,
                int32_t gridZ) {
  int64_t total = int64_t(gridX) * gridY * gridZ;
  if (total <= 0)
    return;
  if (total == 1) {
    entry(args, 0, 0, 0, gridX, gridY, gridZ);
    return;
  }
  // One launch at a time owns the pool; concurrent launches from other threads wait.
  std::lock_guard<std::mutex> lock(poolMutex);
  ThreadPool &threads = getPool();
  Launch launch;
  launch.entry = entry;
  launch.args = args;
  launch.gridX = gridX;
  launch.gridY = gridY;
  launch.gridZ = gridZ;
  launch.total = total;
  launch.chunk = std::max<int64_t>(1, total / (int64_t(threads.size()) * 8));
  if (threads.size() == 1) {
    runPrograms(launch);
    return;
  }
  threads.run(launch);
}

void setNumThreads(int threads) {
  std::lock_guard<std::mutex> lock(poolMutex);
  requestedThreads = std::max(1, threads);
  pool.reset();
}

int getNumThreads() {
  std::lock_guard<std::mutex> lock(poolMutex);
  return getPool().size();
}

} // namespace tritium::cpu
