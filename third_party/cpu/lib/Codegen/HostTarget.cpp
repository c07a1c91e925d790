//===- HostTarget.cpp - the host CPU as an LLVM target --------------------===//

#include "HostTarget.h"
#include "tritium/Target/CPU/Codegen.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

namespace tritium::cpu {

/// LLVM keeps bf16 values in f32 registers and, given these features, converts them back with
/// vcvtneps2bf16, which flushes subnormals to zero: a bf16 moved through a select or computed by
/// a promoted fma would lose them. Without them LLVM rounds on the integer bits, exactly.
static bool flushesBFloat16Subnormals(llvm::StringRef feature) {
  return feature == "avx512bf16" || feature == "avxneconvert";
}

llvm::StringMap<bool> hostCPUFeatures() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  // TRITIUM_CPU_FEATURES=-avx512,-amx: code for a host without every feature whose name
  // starts with one of the prefixes (an AVX2-only host, here: -avx512). For testing the
  // paths other hosts take; a feature the host lacks cannot be added.
  if (const char *env = std::getenv("TRITIUM_CPU_FEATURES")) {
    llvm::SmallVector<llvm::StringRef> terms;
    llvm::StringRef(env).split(terms, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef term : terms) {
      term = term.trim();
      if (!term.consume_front("-"))
        continue;
      for (auto &feature : features)
        if (feature.first().starts_with(term))
          feature.second = false;
    }
  }
  return features;
}

int64_t hostVectorBits() {
  return hostCPUFeatures().lookup("avx512f") ? 512 : 256;
}

const HostTarget &hostTarget() {
  static const HostTarget host = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    HostTarget target;
    target.triple = llvm::sys::getProcessTriple();
    target.cpu = llvm::sys::getHostCPUName().str();
    std::string features;
    for (const auto &feature : hostCPUFeatures()) {
      bool enabled = feature.second && !flushesBFloat16Subnormals(feature.first());
      if (!features.empty())
        features += ",";
      features += (enabled ? "+" : "-") + feature.first().str();
    }
    target.features = features;
    return target;
  }();
  return host;
}

std::unique_ptr<llvm::TargetMachine> createHostTargetMachine(std::string &error) {
  const HostTarget &host = hostTarget();
  llvm::Triple triple(host.triple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions options;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, host.cpu, host.features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
}

std::string hostTargetKey() {
  const HostTarget &host = hostTarget();
  return host.triple + "-" + host.cpu + "-" + host.features;
}

} // namespace tritium::cpu
