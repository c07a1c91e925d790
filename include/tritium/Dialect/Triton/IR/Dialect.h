//===- Dialect.h - tritium's `tt` dialect -----------------------*- C++ -*-===//

#ifndef TRITIUM_DIALECT_TRITON_IR_DIALECT_H
#define TRITIUM_DIALECT_TRITON_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tritium/Dialect/Triton/IR/Dialect.h.inc"
#include "tritium/Dialect/Triton/IR/Enums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/Dialect/Triton/IR/Attrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/Triton/IR/Types.h.inc"

namespace tritium::tt {
namespace impl {
mlir::LogicalResult verifyTensorSizes(mlir::Operation *op);
mlir::LogicalResult verifyTensorLayouts(mlir::Operation *op);
} // namespace impl

/// On every tt op: each tensor operand and result has at most 2^20 elements,
/// and a power-of-two number of them.
template <typename ConcreteType>
class TensorSizeTrait : public mlir::OpTrait::TraitBase<ConcreteType, TensorSizeTrait> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return impl::verifyTensorSizes(op);
  }
};

/// On every tt and ttg op: the encoding of each tensor operand and result is
/// checked by the dialect that defines it (see LayoutVerifierInterface).
template <typename ConcreteType>
class VerifyTensorLayoutsTrait
    : public mlir::OpTrait::TraitBase<ConcreteType, VerifyTensorLayoutsTrait> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return impl::verifyTensorLayouts(op);
  }
};
} // namespace tritium::tt

#define GET_OP_CLASSES
#include "tritium/Dialect/Triton/IR/Ops.h.inc"

namespace tritium::tt {
/// The element type of a pointer, or of each pointer in a tensor of pointers.
mlir::Type getPointeeType(mlir::Type ptrLike);
/// `i1` with the shape of `like` (scalar if `like` is a scalar).
mlir::Type getI1SameShape(mlir::Type like);

/// Implemented by the dialect whose attributes encode tensor layouts (ttg),
/// so that tt ops, which know nothing of layouts, get them checked.
class LayoutVerifierInterface : public mlir::DialectInterface::Base<LayoutVerifierInterface> {
public:
  explicit LayoutVerifierInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// Checks `layout`, the encoding of `type`, against `op` (which uses a value
  /// of that type) and the module around it. Diagnostics start with
  /// `emitError()`, which already names the value.
  virtual mlir::LogicalResult
  verifyTensorLayout(mlir::Attribute layout, mlir::RankedTensorType type, mlir::Operation *op,
                     llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const = 0;

  /// Checks the encodings of a dot whose operands have encodings.
  virtual mlir::LogicalResult verifyDotLayouts(DotOp op) const = 0;
};
} // namespace tritium::tt

#endif // TRITIUM_DIALECT_TRITON_IR_DIALECT_H
