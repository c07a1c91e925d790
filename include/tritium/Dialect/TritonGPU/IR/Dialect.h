//===- Dialect.h - tritium's `ttg` dialect ----------------------*- C++ -*-===//

#ifndef TRITIUM_DIALECT_TRITONGPU_IR_DIALECT_H
#define TRITIUM_DIALECT_TRITONGPU_IR_DIALECT_H

#include "tritium/Dialect/Triton/IR/Dialect.h"
#include "tritium/Dialect/TritonGPU/IR/LinearBases.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium::ttg {
/// Shared memory as a side-effect resource, so that effects on it are never
/// mistaken for effects on global memory.
struct SharedMemory : public mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<SharedMemory>"; }
};
} // namespace tritium::ttg

#include "tritium/Dialect/TritonGPU/IR/AttrInterfaces.h.inc"
#include "tritium/Dialect/TritonGPU/IR/Dialect.h.inc"
#include "tritium/Dialect/TritonGPU/IR/Enums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/Dialect/TritonGPU/IR/Attrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/TritonGPU/IR/Types.h.inc"

namespace tritium::ttg {
namespace impl {
mlir::LogicalResult verifyMemDescLayouts(mlir::Operation *op);
} // namespace impl

/// On every ttg op: the encoding of each memory-descriptor operand and result
/// fits the descriptor (rank) and the module (number of CTAs).
template <typename ConcreteType>
class VerifyMemDescLayoutsTrait
    : public mlir::OpTrait::TraitBase<ConcreteType, VerifyMemDescLayoutsTrait> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return impl::verifyMemDescLayouts(op);
  }
};
} // namespace tritium::ttg

#define GET_OP_CLASSES
#include "tritium/Dialect/TritonGPU/IR/Ops.h.inc"

namespace tritium::ttg {
/// The rank an encoding describes, or 0 when `encoding` is not a ttg layout.
unsigned getEncodingRank(mlir::Attribute encoding);

/// Registers the checks of ttg encodings against the ops (tt or ttg) and
/// modules that use them (tt::LayoutVerifierInterface).
void registerLayoutVerifier(TTGDialect &dialect);
} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TRITONGPU_IR_DIALECT_H
