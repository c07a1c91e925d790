//===- ExpandMathToPolynomials.cpp - vectorizable transcendental math -----===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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

/// The polynomial P(f) ~ e^f (exp) or 2^f (exp2) for |f| <= 1/2 ln 2 (exp) or 1/2 (exp2):
/// coefficients of f^1 .. f^6 (the constant term is 1), minimax for the relative error with
/// f's own coefficient fixed at 1 for exp (truncation below 3e-9, 0.05 ulp). One degree less
/// than a Taylor polynomial of the same accuracy: one fused multiply-add fewer per element.
constexpr float kExpCoefficients[6] = {0x1p+0f,          0x1.fffffcp-2f,   0x1.555492p-3f,
                                       0x1.5558f2p-5f,   0x1.123a2p-7f,    0x1.6a23dp-10f};
constexpr float kExp2Coefficients[6] = {0x1.62e43p-1f,   0x1.ebfbdcp-3f,   0x1.c6aee8p-5f,
                                        0x1.3b2d4cp-7f,  0x1.5f3e54p-10f,  0x1.41fbbcp-13f};

/// f32 exp2 has no upstream approximation (LLVM calls exp2f once per element), and numpy's
/// exp (ExpandMathLikeNumPy, which the numpy-exp option keeps) divides once per element. Both
/// become 2^n * P(f) with n an integer and |f| <= 1/2 ln 2, without a division:
///   exp2: n = x rounded to an integer, f = x - n (exact);
///   exp:  n = x log2 e rounded to an integer, f = x - n ln 2, with ln 2 in two parts by fused
///         multiply-adds (the difference rounds once, below 0.25 ulp of the result).
/// n is rounded by adding 1.5 * 2^23, which leaves n in the low bits of the sum: its integer
/// value is the sum's bits minus the constant's, with no float-to-int conversion. 2^n is applied
/// in one rounding, so that results near the top of the range and subnormal ones stay within
/// 1 ulp: by ldexp (one vscalefps on AVX-512 hosts) or as two exact powers of two, 2^(n/2) and
/// 2^(n - n/2), built from integer bits (vector operands, which the LLVM dialect's ldexp does not take). Inputs are clamped to where the result is 0 or
/// infinity anyway, by selects that let NaN through: every step keeps it NaN, so it needs no
/// test of its own. Both stay within 1 ulp (python/test/test_exp_polynomial.py).
void expandExponentials(Operation *root, bool ldexpScaling) {
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
    auto integer = [&](int32_t v) { return i32Constant(b, loc, intType, v); };
    // exp: e^-110 and e^90 are beyond the subnormals and the largest float. A comparison with
    // NaN is false, so NaN passes both selects.
    float lowest = natural ? -110.0f : -160.0f, highest = natural ? 90.0f : 130.0f;
    Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, constant(lowest));
    Value clamped = arith::SelectOp::create(b, loc, below, constant(lowest), x);
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, clamped, constant(highest));
    clamped = arith::SelectOp::create(b, loc, above, constant(highest), clamped);
    const float shifter = 0x1.8p23f; // adding it rounds |v| < 2^22 to an integer, to nearest even
    Value shifted, f;
    if (natural) {
      shifted = math::FmaOp::create(b, loc, clamped, constant(0x1.715476p+0f), constant(shifter));
      Value n = arith::SubFOp::create(b, loc, shifted, constant(shifter));
      f = math::FmaOp::create(b, loc, n, constant(-0x1.62e43p-1f), clamped); // ln 2, high part
      f = math::FmaOp::create(b, loc, n, constant(0x1.05c61p-29f), f);       // ln 2, low part
    } else {
      shifted = arith::AddFOp::create(b, loc, clamped, constant(shifter));
      Value n = arith::SubFOp::create(b, loc, shifted, constant(shifter));
      f = arith::SubFOp::create(b, loc, clamped, n);
    }
    // P by Horner's rule with fused multiply-adds.
    ArrayRef<float> coefficients = natural ? ArrayRef<float>(kExpCoefficients)
                                           : ArrayRef<float>(kExp2Coefficients);
    Value p = constant(coefficients.back());
    for (float c : llvm::reverse(coefficients.drop_back()))
      p = math::FmaOp::create(b, loc, p, f, constant(c));
    p = math::FmaOp::create(b, loc, p, f, constant(1.0f));
    Value exponent = arith::SubIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, intType, shifted),
        integer(llvm::bit_cast<int32_t>(shifter)));
    Value result;
    // The LLVM dialect's ldexp takes scalars; LLVM's loop vectorizer widens it.
    if (ldexpScaling && !isa<ShapedType>(type)) {
      result = LLVM::LoadExpOp::create(b, loc, type, p, exponent);
    } else {
      Value half = arith::ShRSIOp::create(b, loc, exponent, integer(1));
      Value rest = arith::SubIOp::create(b, loc, exponent, half);
      auto powerOfTwo = [&](Value k) {
        Value biased = arith::AddIOp::create(b, loc, k, integer(127));
        Value bits = arith::ShLIOp::create(b, loc, biased, integer(23));
        return arith::BitcastOp::create(b, loc, type, bits).getResult();
      };
      result = arith::MulFOp::create(b, loc, p, powerOfTwo(half));
      result = arith::MulFOp::create(b, loc, result, powerOfTwo(rest));
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

struct ExpandMathToPolynomialsPass
    : impl::ExpandMathToPolynomialsBase<ExpandMathToPolynomialsPass> {
  using Base::Base;
  void runOnOperation() override {
    widenToSubnormals(getOperation());
    expandExponentials(getOperation(), ldexpScaling);
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, hasAccurateApproximation);
    populateMathPolynomialApproximationPatterns(patterns, hasAccurateApproximation);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
