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

/// The upstream polynomials flush subnormals: log of a subnormal input is wrong. Scaling by a
/// power of two into the normal range and back keeps it within an ULP:
///   log(x) = log(x * 2^24) - 24 ln 2       for 0 < x < FLT_MIN (log2: - 24)
void widenToSubnormals(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::LogOp, math::Log2Op>(op) &&
        getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value x = op->getOperand(0);
    Type type = x.getType();
    Value small = arith::AndIOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                              f32Constant(b, loc, type, 1.17549435e-38f)),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, f32Constant(b, loc, type, 0.0f)));
    Value scaled = arith::MulFOp::create(b, loc, x, f32Constant(b, loc, type, 16777216.0f));
    Value input = arith::SelectOp::create(b, loc, small, scaled, x);
    Operation *inner = b.clone(*op);
    inner->setOperand(0, input);
    Value value = inner->getResult(0);
    Value fixed;
    if (isa<math::LogOp>(op))
      fixed = arith::SubFOp::create(b, loc, value, f32Constant(b, loc, type, 16.635532333438687f));
    else
      fixed = arith::SubFOp::create(b, loc, value, f32Constant(b, loc, type, 24.0f));
    Value result = arith::SelectOp::create(b, loc, small, fixed, value);
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

/// f32 exp2 has no upstream approximation (LLVM calls exp2f once per element), and numpy's
/// exp (ExpandMathLikeNumPy, which the numpy-exp option keeps) divides once per element. Both
/// become 2^n * P(f) with n an integer and |f| <= 1/2 ln 2, without a division:
///   exp2: n = roundeven(x), f = (x - n) ln 2 (exact difference, folded into P's coefficients);
///   exp:  n = roundeven(x log2 e), f = x - n ln 2, with ln 2 in two parts by fused
///         multiply-adds (the difference rounds once, below 0.25 ulp of the result).
/// P is the degree-7 Taylor polynomial of e^f (truncation below 0.05 ulp), 2^n is applied as
/// two exact powers of two, 2^(n/2) and 2^(n - n/2), so that results near the top of the range
/// and subnormal ones are rounded once. Inputs are clamped to where the result is 0 or infinity
/// anyway; NaN stays NaN. Both stay within 1 ulp (python/test/test_exp_polynomial.py).
void expandExponentials(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::ExpOp, math::Exp2Op>(op) && getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    bool natural = isa<math::ExpOp>(op);
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value x = op->getOperand(0);
    Type type = x.getType();
    Type intType = b.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      intType = shaped.clone(b.getI32Type());
    auto constant = [&](float v) { return f32Constant(b, loc, type, v); };
    // exp: e^-110 and e^90 are beyond the subnormals and the largest float.
    float lowest = natural ? -110.0f : -160.0f, highest = natural ? 90.0f : 130.0f;
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value low = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, constant(lowest));
    Value high = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, constant(highest));
    Value clamped = arith::SelectOp::create(b, loc, low, constant(lowest), x);
    clamped = arith::SelectOp::create(b, loc, high, constant(highest), clamped);
    clamped = arith::SelectOp::create(b, loc, isNaN, constant(0.0f), clamped);
    Value n, f;
    if (natural) {
      Value log2e = arith::MulFOp::create(b, loc, clamped, constant(0x1.715476p+0f));
      n = math::RoundEvenOp::create(b, loc, log2e);
      f = math::FmaOp::create(b, loc, n, constant(-0x1.62e43p-1f), clamped); // ln 2, high part
      f = math::FmaOp::create(b, loc, n, constant(0x1.05c61p-29f), f);       // ln 2, low part
    } else {
      n = math::RoundEvenOp::create(b, loc, clamped);
      f = arith::SubFOp::create(b, loc, clamped, n);
    }
    // c^k / k!, k = 7 .. 1 (c = ln 2 for exp2, 1 for exp), by Horner's rule with fused
    // multiply-adds.
    double factor = natural ? 1.0 : 0.69314718055994531;
    double coefficients[7];
    double term = 1.0;
    for (int k = 1; k <= 7; ++k) {
      term *= factor / k;
      coefficients[7 - k] = term;
    }
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
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

struct ExpandMathToPolynomialsPass
    : impl::ExpandMathToPolynomialsBase<ExpandMathToPolynomialsPass> {
  void runOnOperation() override {
    widenToSubnormals(getOperation());
    expandExponentials(getOperation());
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, hasAccurateApproximation);
    populateMathPolynomialApproximationPatterns(patterns, hasAccurateApproximation);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
