//===- Dialect.cpp - registration of tritium's `tt` dialect ---------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium::tt;

#include "tritium/Dialect/Triton/IR/Dialect.cpp.inc"
#include "tritium/Dialect/Triton/IR/Enums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/Dialect/Triton/IR/Attrs.cpp.inc"

void TTDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tritium/Dialect/Triton/IR/Ops.cpp.inc"
      >();
}

/// Folded tt ops produce splat constants: arith.constant materializes them.
Operation *TTDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                         Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void TTDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tritium/Dialect/Triton/IR/Attrs.cpp.inc"
      >();
}
