//===- FaultReporter.cpp - a crash inside a kernel says which and where ---===//
//
// A kernel that reads or writes memory it was not given ends the process with SIGSEGV, as an
// illegal memory access ends a GPU context. Before it does, the handler installed here writes
// to stderr which kernel, which program of which grid and which address, and how to find the
// line (TRITIUM_CHECK_BOUNDS=1). Faults outside kernel code are not ours: the signal goes on
// to whatever handler was installed before (Python's faulthandler, say) or to the default
// action, as if this handler were not there.
//
// Everything the handler does is async-signal-safe: no allocation, no locks, write(2) only.
//
//===----------------------------------------------------------------------===//

#include "RunningProgram.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <unistd.h>

namespace tritium::cpu {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
struct sigaction previousActions[NSIG];

// Kernel names by entry address, appended under a lock, read by the handler without one.
constexpr int kMaxNames = 4096;
constexpr int kNameBytes = 120;
struct KernelName {
  std::atomic<KernelEntry> entry{nullptr};
  char name[kNameBytes];
};
KernelName kernelNames[kMaxNames];
std::atomic<int> kernelNameCount{0};
std::mutex kernelNameMutex;

const char *nameOf(KernelEntry entry) {
  int count = std::min(kernelNameCount.load(std::memory_order_acquire), kMaxNames);
  for (int i = count - 1; i >= 0; --i) // the newest first: entry addresses are reused
    if (kernelNames[i].entry.load(std::memory_order_relaxed) == entry)
      return kernelNames[i].name;
  return "?";
}

/// A fixed buffer the handler formats into.
class Message {
public:
  Message &operator<<(const char *text) {
    while (*text && length < sizeof(buffer) - 1)
      buffer[length++] = *text++;
    return *this;
  }
  Message &operator<<(int64_t value) {
    char digits[24];
    int n = 0;
    uint64_t magnitude = value < 0 ? uint64_t(0) - uint64_t(value) : uint64_t(value);
    do {
      digits[n++] = char('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude);
    if (value < 0)
      *this << "-";
    while (n)
      append(digits[--n]);
    return *this;
  }
  Message &hex(uint64_t value) {
    *this << "0x";
    for (int shift = 60; shift >= 0; shift -= 4)
      append("0123456789abcdef"[(value >> shift) & 15]);
    return *this;
  }
  void write() const {
    size_t done = 0;
    while (done < length) {
      ssize_t n = ::write(STDERR_FILENO, buffer + done, length - done);
      if (n <= 0)
        return;
      done += size_t(n);
    }
  }

private:
  void append(char c) {
    if (length < sizeof(buffer) - 1)
      buffer[length++] = c;
  }
  char buffer[1536];
  size_t length = 0;
};

const char *describe(int signal) {
  switch (signal) {
  case SIGSEGV: return "SIGSEGV, an invalid memory access";
  case SIGBUS: return "SIGBUS, a bus error";
  case SIGILL: return "SIGILL, an illegal instruction";
  default: return "SIGFPE, an arithmetic fault";
  }
}

const char *advice(int signal) {
  switch (signal) {
  case SIGILL:
    return "tritium: the kernel uses an instruction this CPU does not have: was its object "
           "compiled on another machine? Clear the Triton cache (TRITON_CACHE_DIR) and run "
           "again.\n";
  case SIGFPE:
    return "tritium: an integer division or remainder by zero, or of the most negative "
           "integer by -1.\n";
  default:
    return "tritium: the kernel read or wrote memory it was not given: usually a tl.load or "
           "tl.store without a mask past the end of a tensor, or offsets that overflowed "
           "int32. Run again with TRITIUM_CHECK_BOUNDS=1 (or the kernel option "
           "check_bounds=True): out-of-bounds accesses then raise an IndexError naming the "
           "line, the program, the tensor argument and the index.\n";
  }
}

void report(int signal, const siginfo_t *info, const RunningProgram &running) {
  int64_t x = running.program % running.gridX;
  int64_t y = (running.program / running.gridX) % running.gridY;
  int64_t z = running.program / (int64_t(running.gridX) * running.gridY);
  Message message;
  message << "\ntritium: kernel '" << nameOf(running.entry) << "' crashed with "
          << describe(signal);
  message << (signal == SIGSEGV || signal == SIGBUS ? " at address " : " at code address ");
  message.hex(reinterpret_cast<uint64_t>(info->si_addr));
  message << ", in program (" << x << ", " << y << ", " << z << ") of grid ("
          << int64_t(running.gridX) << ", " << int64_t(running.gridY) << ", "
          << int64_t(running.gridZ) << ").\n"
          << advice(signal);
  message.write();
}

void onFault(int signal, siginfo_t *info, void *context) {
  RunningProgram &running = runningProgram();
  if (running.entry) {
    report(signal, info, running);
    running.entry = nullptr; // a second fault while handing on is not reported twice
  }
  const struct sigaction &previous = previousActions[signal];
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL &&
      previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
    return;
  }
  // The default action: restored here, it ends the process when the faulting instruction
  // runs again (or, for a signal another process sent, when it is raised again).
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  if (info->si_code <= 0)
    raise(signal);
}

} // namespace

void installFaultReporter() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int signal : kSignals) {
      struct sigaction action {};
      action.sa_sigaction = onFault;
      action.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      sigaction(signal, &action, &previousActions[signal]);
    }
  });
}

void prepareThreadForFaults() {
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    return;
  constexpr size_t kBytes = 64 * 1024;
  stack_t stack{};
  stack.ss_sp = std::malloc(kBytes); // kept for the thread's life
  if (!stack.ss_sp)
    return;
  stack.ss_size = kBytes;
  sigaltstack(&stack, nullptr);
}

void registerKernelName(KernelEntry entry, const std::string &name) {
  std::lock_guard<std::mutex> lock(kernelNameMutex);
  int index = kernelNameCount.load(std::memory_order_relaxed);
  if (index >= kMaxNames)
    return; // later kernels are reported as '?'
  KernelName &slot = kernelNames[index];
  std::strncpy(slot.name, name.c_str(), kNameBytes - 1);
  slot.name[kNameBytes - 1] = '\0';
  slot.entry.store(entry, std::memory_order_relaxed);
  kernelNameCount.store(index + 1, std::memory_order_release);
}

} // namespace tritium::cpu
