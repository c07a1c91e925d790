//===- RetypeStructuralOps.cpp - arith/math/ub ops on converted types -----===//
//
// arith, math and ub ops stay as they are, but their types may need converting: tensors of
// pointers become tensors of i64, and TTGIR tensors lose their layout encoding.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

namespace tritium {
namespace {

struct RetypeOp : ConversionPattern {
  RetypeOp(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect, ub::UBDialect>(op->getDialect()) ||
        op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), resultTypes)))
      return failure();
    SmallVector<NamedAttribute> attrs(op->getAttrs());
    // A constant's value carries its type.
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense)
        return failure();
      auto newType = cast<ShapedType>(resultTypes[0]);
      if (dense.getElementType() != newType.getElementType())
        return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, newType, dense.reshape(newType));
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes, attrs,
                         op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

} // namespace

void populateRetypeStructuralOpsPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RetypeOp>(converter, patterns.getContext());
}

} // namespace tritium
