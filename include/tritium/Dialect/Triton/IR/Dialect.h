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
#define GET_OP_CLASSES
#include "tritium/Dialect/Triton/IR/Ops.h.inc"

namespace tritium::tt {
/// The element type of a pointer, or of each pointer in a tensor of pointers.
mlir::Type getPointeeType(mlir::Type ptrLike);
/// `i1` with the shape of `like` (scalar if `like` is a scalar).
mlir::Type getI1SameShape(mlir::Type like);
} // namespace tritium::tt

#endif // TRITIUM_DIALECT_TRITON_IR_DIALECT_H
