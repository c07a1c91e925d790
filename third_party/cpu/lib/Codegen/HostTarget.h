//===- HostTarget.h - the host CPU as an LLVM target ------------*- C++ -*-===//

#ifndef TRITIUM_TARGET_CPU_LIB_CODEGEN_HOSTTARGET_H
#define TRITIUM_TARGET_CPU_LIB_CODEGEN_HOSTTARGET_H

#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace tritium::cpu {

struct HostTarget {
  std::string triple;
  std::string cpu;
  std::string features;
};

const HostTarget &hostTarget();
/// A target machine for the host at O3; null with `error` set if the host is unsupported.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine(std::string &error);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_CODEGEN_HOSTTARGET_H
