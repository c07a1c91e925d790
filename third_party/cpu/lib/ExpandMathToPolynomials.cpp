//===- ExpandMathToPolynomials.cpp - vectorizable transcendental math -----===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_EXPANDMATHTOPOLYNOMIALS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Functions whose upstream approximations are accurate to a few ULP over the whole f32
/// range. The others (sin, cos, atan, ...) stay as libm calls, which are exact but scalar.
bool hasAccurateApproximation(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"exp", "expm1", "log", "log1p", "log2", "tanh", "erf"}, name);
}

Value f32Constant(OpBuilder &b, Location loc, Type like, float value) {
  Attribute attr = b.getF32FloatAttr(value);
  if (auto shaped = dyn_cast<ShapedType>(like))
    attr = DenseElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(b, loc, like, cast<TypedAttr>(attr));
}

/// The upstream polynomials flush subnormals: exp(x) below -87.3 (a subnormal result) gives
/// 0 and log of a subnormal input is wrong. Scaling by a power of two into the normal range
/// and back keeps them within an ULP of the subnormal result:
///   exp(x) = exp(x + 32 ln 2) * 2^-32      for x < -87
///   log(x) = log(x * 2^24) - 24 ln 2       for 0 < x < FLT_MIN (log2: - 24)
void widenToSubnormals(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::ExpOp, math::LogOp, math::Log2Op>(op) &&
        getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value x = op->getOperand(0);
    Type type = x.getType();
    Value small, scaled, result;
    if (isa<math::ExpOp>(op)) {
      small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                    f32Constant(b, loc, type, -87.0f));
      scaled = arith::AddFOp::create(b, loc, x, f32Constant(b, loc, type, 22.18070977791825f));
    } else {
      small = arith::AndIOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                f32Constant(b, loc, type, 1.17549435e-38f)),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                f32Constant(b, loc, type, 0.0f)));
      scaled = arith::MulFOp::create(b, loc, x, f32Constant(b, loc, type, 16777216.0f));
    }
    Value input = arith::SelectOp::create(b, loc, small, scaled, x);
    Operation *inner = b.clone(*op);
    inner->setOperand(0, input);
    Value value = inner->getResult(0);
    Value fixed;
    if (isa<math::ExpOp>(op))
      fixed = arith::MulFOp::create(b, loc, value, f32Constant(b, loc, type, 2.3283064365386963e-10f));
    else if (isa<math::LogOp>(op))
      fixed = arith::SubFOp::create(b, loc, value, f32Constant(b, loc, type, 16.635532333438687f));
    else
      fixed = arith::SubFOp::create(b, loc, value, f32Constant(b, loc, type, 24.0f));
    result = arith::SelectOp::create(b, loc, small, fixed, value);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

struct ExpandMathToPolynomialsPass
    : impl::ExpandMathToPolynomialsBase<ExpandMathToPolynomialsPass> {
  void runOnOperation() override {
    widenToSubnormals(getOperation());
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, hasAccurateApproximation);
    populateMathPolynomialApproximationPatterns(patterns, hasAccurateApproximation);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
