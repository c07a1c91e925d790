//===- ExpandBFloat16Conversions.cpp - bf16 conversions on the bits -------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_EXPANDBFLOAT16CONVERSIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Negation flips the sign bit only (NaN payloads included), which the round trip through f32
/// that bf16 arithmetic takes would not keep.
struct NegateBFloat16OnBits : OpRewritePattern<arith::NegFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::NegFOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isBF16())
      return failure();
    Type bitsType = rewriter.getI16Type();
    TypedAttr sign = rewriter.getIntegerAttr(bitsType, 0x8000);
    if (auto shaped = dyn_cast<ShapedType>(type)) {
      bitsType = shaped.clone(bitsType);
      sign = DenseElementsAttr::get(cast<ShapedType>(bitsType), sign);
    }
    Location loc = op.getLoc();
    Value bits = arith::BitcastOp::create(rewriter, loc, bitsType, op.getOperand());
    Value flipped = arith::XOrIOp::create(rewriter, loc, bits,
                                          arith::ConstantOp::create(rewriter, loc, bitsType, sign));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, flipped);
    return success();
  }
};

struct ExpandBFloat16ConversionsPass
    : impl::ExpandBFloat16ConversionsBase<ExpandBFloat16ConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    patterns.add<NegateBFloat16OnBits>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
