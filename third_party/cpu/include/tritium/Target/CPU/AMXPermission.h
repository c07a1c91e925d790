//===- AMXPermission.h - asking Linux for the AMX tile registers -*- C++ -*-===//
//
// Linux keeps AMX's 8 KB of tile state off until a process asks for it (arch_prctl
// ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA); an AMX instruction before that raises SIGILL.
// The permission is the whole process's, for every thread. Code with AMX instructions is
// generated only when the request succeeded, and a loaded kernel asks again, since a kernel
// compiled by an earlier process may be loaded from the cache.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_AMXPERMISSION_H
#define TRITIUM_TARGET_CPU_AMXPERMISSION_H

#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tritium::cpu {

/// True once this process may execute AMX instructions; asks the kernel the first time.
inline bool requestAMXTileData() {
#if defined(__linux__) && defined(__x86_64__)
  static const bool granted = [] {
    constexpr long kArchReqXcompPerm = 0x1023;
    constexpr long kXFeatureXTileData = 18;
    return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXFeatureXTileData) == 0;
  }();
  return granted;
#else
  return false;
#endif
}

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_AMXPERMISSION_H
