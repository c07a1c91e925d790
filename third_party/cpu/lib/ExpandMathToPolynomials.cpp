//===- ExpandMathToPolynomials.cpp - vectorizable transcendental math -----===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

Value i32Constant(OpBuilder &b, Location loc, Type like, int32_t value) {
  Attribute attr = b.getI32IntegerAttr(value);
  if (auto shaped = dyn_cast<ShapedType>(like))
    attr = DenseElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(b, loc, like, cast<TypedAttr>(attr));
}

/// f32 exp2 has no upstream approximation (LLVM calls exp2f once per element). With n the
/// nearest integer to x and f = x - n (exact, |f| <= 1/2), 2^x = 2^f * 2^n: 2^f is the
/// degree-7 Taylor polynomial of e^(f ln 2) (truncation below 0.1 ulp, under 1 ulp with
/// rounding), and 2^n is applied as two exact powers of two, 2^(n/2) and 2^(n - n/2), so that
/// results near the top of the range and subnormal ones are rounded once. Inputs are clamped
/// to [-160, 130], beyond which the result is 0 or infinity anyway; NaN stays NaN.
void expandExp2(Operation *root) {
  SmallVector<math::Exp2Op> ops;
  root->walk([&](math::Exp2Op op) {
    if (getElementTypeOrSelf(op.getType()).isF32())
      ops.push_back(op);
  });
  for (math::Exp2Op op : ops) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type type = x.getType();
    Type intType = b.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      intType = shaped.clone(b.getI32Type());
    auto constant = [&](float v) { return f32Constant(b, loc, type, v); };
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value low = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, constant(-160.0f));
    Value high = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, constant(130.0f));
    Value clamped = arith::SelectOp::create(b, loc, low, constant(-160.0f), x);
    clamped = arith::SelectOp::create(b, loc, high, constant(130.0f), clamped);
    clamped = arith::SelectOp::create(b, loc, isNaN, constant(0.0f), clamped);
    Value n = math::RoundEvenOp::create(b, loc, clamped);
    Value f = arith::SubFOp::create(b, loc, clamped, n);
    // ln2^k / k!, k = 7 .. 1, evaluated by Horner's rule with fused multiply-adds.
    const double coefficients[] = {1.5252733804059840e-05, 1.5403530393381610e-04,
                                   1.3333558146428443e-03, 9.6181291076284772e-03,
                                   5.5504108664821580e-02, 2.4022650695910071e-01,
                                   6.9314718055994531e-01};
    Value p = constant(float(coefficients[0]));
    for (double c : ArrayRef<double>(coefficients).drop_front())
      p = math::FmaOp::create(b, loc, p, f, constant(float(c)));
    p = math::FmaOp::create(b, loc, p, f, constant(1.0f));
    Value exponent = arith::FPToSIOp::create(b, loc, intType, n);
    Value half = arith::ShRSIOp::create(b, loc, exponent, i32Constant(b, loc, intType, 1));
    Value rest = arith::SubIOp::create(b, loc, exponent, half);
    auto powerOfTwo = [&](Value k) {
      Value biased = arith::AddIOp::create(b, loc, k, i32Constant(b, loc, intType, 127));
      Value bits = arith::ShLIOp::create(b, loc, biased, i32Constant(b, loc, intType, 23));
      return arith::BitcastOp::create(b, loc, type, bits).getResult();
    };
    Value result = arith::MulFOp::create(b, loc, p, powerOfTwo(half));
    result = arith::MulFOp::create(b, loc, result, powerOfTwo(rest));
    result = arith::SelectOp::create(b, loc, isNaN, x, result);
    op.getResult().replaceAllUsesWith(result);
    op.erase();
  }
}

struct ExpandMathToPolynomialsPass
    : impl::ExpandMathToPolynomialsBase<ExpandMathToPolynomialsPass> {
  void runOnOperation() override {
    widenToSubnormals(getOperation());
    expandExp2(getOperation());
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, hasAccurateApproximation);
    populateMathPolynomialApproximationPatterns(patterns, hasAccurateApproximation);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
