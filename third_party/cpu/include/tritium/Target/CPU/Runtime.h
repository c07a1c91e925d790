//===- Runtime.h - loading and launching CPU kernels ------------*- C++ -*-===//

#ifndef TRITIUM_TARGET_CPU_RUNTIME_H
#define TRITIUM_TARGET_CPU_RUNTIME_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tritium::cpu {

/// The entry point AddKernelEntry generates: arguments as 8-byte slots, then program id and
/// grid size along x, y, z.
using KernelEntry = void (*)(const uint64_t *args, int32_t pidX, int32_t pidY, int32_t pidZ,
                             int32_t gridX, int32_t gridY, int32_t gridZ);

/// JIT-links `object` in this process and returns its `entryName`, or null with `error` set.
/// `handle` identifies the loaded object for unloadKernel.
KernelEntry loadKernel(const std::string &object, const std::string &entryName,
                       uint64_t &handle, std::string &error);
void unloadKernel(uint64_t handle);

/// Runs every program of the grid on the thread pool and returns when all are done.
void launchGrid(KernelEntry entry, const uint64_t *args, int32_t gridX, int32_t gridY,
                int32_t gridZ);

/// The device runtime functions (print, assert) kernels may call, by symbol name.
std::vector<std::pair<std::string, void *>> deviceLibrarySymbols();
/// libdevice's directed-rounding arithmetic and conversions, `tritium_<op>_<rz|rd|ru>`
/// (`tritium_fadd_rd`, `tritium_fma_ru`, `tritium_ll2float_rz`, ...).
std::vector<std::pair<std::string, void *>> directedRoundingSymbols();
/// The first device assertion that failed since the last call, if any.
bool takeAssertFailure(std::string &message);

/// Threads used by launchGrid (including the caller's); defaults to TRITIUM_NUM_THREADS or
/// the number of cores.
void setNumThreads(int threads);
int getNumThreads();

/// Which threads run the programs of a grid that is worth sharing: those of the process's
/// OpenMP runtime where one is loaded (torch's; the default), or tritium's own pool (false, or
/// TRITIUM_THREAD_POOL=tritium).
void setThreadPool(bool openMPWhereLoaded);
/// Whether the next shared grid runs on OpenMP's threads.
bool threadPoolIsOpenMP();

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_RUNTIME_H
