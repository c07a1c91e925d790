//===- AtomicMemoryEffects.cpp - memory effects of LLVM atomic ops --------===//
//
// llvm.atomicrmw, llvm.cmpxchg and llvm.intr.assume do not describe their memory effects,
// and ownership-based buffer deallocation refuses functions containing ops with unknown
// effects. Atomics read and write memory that tritium never allocates, which is all
// deallocation needs to know; an assumption touches no memory.
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

/// llvm.intr.assume (from tl.assume) is a hint without memory effects.
struct NoMemoryEffects : MemoryEffectOpInterface::ExternalModel<NoMemoryEffects, LLVM::AssumeOp> {
  void getEffects(Operation *,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &) const {}
};

} // namespace

void registerAtomicMemoryEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    LLVM::AssumeOp::attachInterface<NoMemoryEffects>(*context);
    LLVM::AtomicRMWOp::attachInterface<ReadsAndWritesMemory<LLVM::AtomicRMWOp>>(*context);
    LLVM::AtomicCmpXchgOp::attachInterface<ReadsAndWritesMemory<LLVM::AtomicCmpXchgOp>>(
        *context);
  });
}

} // namespace tritium::cpu
