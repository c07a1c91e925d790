//===- RunningProgram.h - which program a thread runs, for fault reports --===//

#ifndef TRITIUM_TARGET_CPU_LIB_RUNTIME_RUNNINGPROGRAM_H
#define TRITIUM_TARGET_CPU_LIB_RUNTIME_RUNNINGPROGRAM_H

#include "tritium/Target/CPU/Runtime.h"

#include <string>

namespace tritium::cpu {

/// What the calling thread is running: set by the grid launcher around each run of programs
/// (entry is null between them), read by the fault reporter, the operand tile cache and
/// relaxed atomics.
struct RunningProgram {
  KernelEntry entry = nullptr;
  int64_t program = 0; // linear id, x fastest
  int32_t gridX = 1, gridY = 1, gridZ = 1;
  uint64_t launch = 0; // distinct for every launch of the process; 0: none yet
  // The launch runs its programs one after another on this thread and no other launch runs
  // meanwhile (DeviceRuntimeFunctions.h, kLaunchRunsAlone).
  bool runsAlone = false;
};

/// The calling thread's record.
RunningProgram &runningProgram();

/// Installs the handlers of SIGSEGV, SIGBUS, SIGILL and SIGFPE that report a fault inside a
/// kernel before passing the signal on; the first call installs, later calls do nothing.
void installFaultReporter();
/// Gives the calling thread an alternate signal stack if it has none, so a kernel that
/// overflows its stack is still reported.
void prepareThreadForFaults();
/// Remembers `name` for the kernel whose entry is `entry`, for fault reports.
void registerKernelName(KernelEntry entry, const std::string &name);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_RUNTIME_RUNNINGPROGRAM_H
