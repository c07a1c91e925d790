//===- MemoryEffectsOfLLVMOps.cpp - memory effects of LLVM dialect ops ----===//
//
// llvm.atomicrmw, llvm.cmpxchg, llvm.intr.assume and llvm.call_intrinsic do not describe
// their memory effects, and ownership-based buffer deallocation refuses functions containing
// ops with unknown effects. Atomics read and write memory that tritium never allocates, which
// is all deallocation needs to know; an assumption touches no memory (but must not be dead); of
// the intrinsics called before bufferization, the dot-product instructions only compute on
// registers (any other intrinsic is taken to read and write memory).
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tritium::cpu {
namespace {

template <typename OpTy>
struct ReadsAndWritesMemory
    : MemoryEffectOpInterface::ExternalModel<ReadsAndWritesMemory<OpTy>, OpTy> {
  void getEffects(Operation *,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects)
      const {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

/// What an assumption "writes": no memory, but an effect keeps it from being erased as dead.
struct AssumptionResource : SideEffects::Resource::Base<AssumptionResource> {
  StringRef getName() final { return "tritium.assumption"; }
};

/// llvm.intr.assume (from tl.assume) touches no memory; it records a fact for LLVM, so it is
/// modelled as a write to a resource of its own (with no effects at all it would be dead code).
struct AssumptionEffects
    : MemoryEffectOpInterface::ExternalModel<AssumptionEffects, LLVM::AssumeOp> {
  void getEffects(Operation *,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects)
      const {
    effects.emplace_back(MemoryEffects::Write::get(), AssumptionResource::get());
  }
};

/// Intrinsics that compute on their operands only (tritium-cpu-matmuls-to-dot-product-
/// instructions calls them inside tensor loops).
bool isRegisterOnlyIntrinsic(StringRef name) {
  return name.starts_with("llvm.x86.avx512bf16.dpbf16ps.") ||
         name.starts_with("llvm.x86.avx512.vpdpbusd.");
}

struct IntrinsicMemoryEffects
    : MemoryEffectOpInterface::ExternalModel<IntrinsicMemoryEffects, LLVM::CallIntrinsicOp> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects)
      const {
    if (isRegisterOnlyIntrinsic(cast<LLVM::CallIntrinsicOp>(op).getIntrin()))
      return;
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

} // namespace

void registerMemoryEffectsOfLLVMOps(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    LLVM::AssumeOp::attachInterface<AssumptionEffects>(*context);
    LLVM::AtomicRMWOp::attachInterface<ReadsAndWritesMemory<LLVM::AtomicRMWOp>>(*context);
    LLVM::AtomicCmpXchgOp::attachInterface<ReadsAndWritesMemory<LLVM::AtomicCmpXchgOp>>(
        *context);
    LLVM::CallIntrinsicOp::attachInterface<IntrinsicMemoryEffects>(*context);
  });
}

} // namespace tritium::cpu
