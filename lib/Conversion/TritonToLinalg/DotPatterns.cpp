//===- DotPatterns.cpp - tt.dot -------------------------------------------===//
//
// tt.dot accumulates into its third operand: linalg.matmul (2-D) or linalg.batch_matmul
// (3-D) with that operand as `outs`. Every input precision (tf32, tf32x3, bf16x3, ...) is a
// GPU tensor-core choice; on other devices the product is computed in IEEE arithmetic.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace tritium {
namespace {

/// fp8 operands are converted (exactly) to the accumulator's float type once, so the
/// product itself is an ordinary float matmul.
Value widenFloat8(OpBuilder &b, Location loc, Value operand, RankedTensorType resultType) {
  auto type = cast<RankedTensorType>(operand.getType());
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || element.getWidth() != 8)
    return operand;
  Type wide = resultType.getElementType();
  if (!isa<FloatType>(wide))
    wide = b.getF32Type();
  return arith::ExtFOp::create(b, loc, type.clone(wide), operand);
}

struct DotConversion : OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value, 2> ins = {widenFloat8(rewriter, op.getLoc(), adaptor.getA(), type),
                                 widenFloat8(rewriter, op.getLoc(), adaptor.getB(), type)};
    Operation *product;
    if (type.getRank() == 2)
      product = linalg::MatmulOp::create(rewriter, op.getLoc(), ins, ValueRange{adaptor.getC()});
    else
      product =
          linalg::BatchMatmulOp::create(rewriter, op.getLoc(), ins, ValueRange{adaptor.getC()});
    rewriter.replaceOp(op, product->getResult(0));
    return success();
  }
};

} // namespace

void populateDotPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotConversion>(converter, patterns.getContext());
}

} // namespace tritium
