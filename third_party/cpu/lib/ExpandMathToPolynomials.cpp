//===- ExpandMathToPolynomials.cpp - vectorizable transcendental math -----===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
/// f32 exp, exp2 and erf are expanded here before the upstream patterns run (faster forms of
/// the same accuracy); the list still serves their narrower types, which go through f32.
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

/// c[0] + c[1] v + ... + c[n] v^n by Horner's rule with fused multiply-adds: the fewest
/// operations and roundings, a dependency chain of n.
Value polynomialByHorner(OpBuilder &b, Location loc, ArrayRef<float> c, Value v) {
  Value p = f32Constant(b, loc, v.getType(), c.back());
  for (float coefficient : llvm::reverse(c.drop_back()))
    p = math::FmaOp::create(b, loc, p, v, f32Constant(b, loc, v.getType(), coefficient));
  return p;
}

/// The same polynomial by Estrin's scheme: neighbouring terms paired with v, the pairs paired
/// with v^2, and so on; a dependency chain of about log2(n) fused multiply-adds, for loops whose
/// iterations are long chains the core cannot overlap (a vector of erf waited ~75 cycles).
Value polynomialByEstrin(OpBuilder &b, Location loc, ArrayRef<float> c, Value v) {
  SmallVector<Value> terms;
  for (float coefficient : c)
    terms.push_back(f32Constant(b, loc, v.getType(), coefficient));
  Value power = v;
  while (terms.size() > 1) {
    SmallVector<Value> paired;
    for (size_t i = 0; i < terms.size(); i += 2)
      paired.push_back(i + 1 < terms.size()
                           ? math::FmaOp::create(b, loc, terms[i + 1], power, terms[i]).getResult()
                           : terms[i]);
    terms = std::move(paired);
    if (terms.size() > 1)
      power = arith::MulFOp::create(b, loc, power, power);
  }
  return terms.front();
}

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
/// Inside a longer computation (erf), `inner` drops the clamp and applies 2^n as one power of two
/// (the caller keeps |x| < 80, so e^x is a normal number) and evaluates P by Estrin's scheme:
/// a dependency chain of 3 fused multiply-adds instead of 6, at the cost of two multiplications.
Value buildExponential(OpBuilder &b, Location loc, Value x, bool natural, bool ldexpScaling,
                       bool inner = false) {
  Type type = x.getType();
  Type intType = b.getI32Type();
  if (auto shaped = dyn_cast<ShapedType>(type))
    intType = shaped.clone(b.getI32Type());
  auto constant = [&](float v) { return f32Constant(b, loc, type, v); };
  auto integer = [&](int32_t v) { return i32Constant(b, loc, intType, v); };
  Value clamped = x;
  if (!inner) {
    // exp: e^-110 and e^90 are beyond the subnormals and the largest float. A comparison with
    // NaN is false, so NaN passes both selects.
    float lowest = natural ? -110.0f : -160.0f, highest = natural ? 90.0f : 130.0f;
    Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, constant(lowest));
    clamped = arith::SelectOp::create(b, loc, below, constant(lowest), x);
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, clamped, constant(highest));
    clamped = arith::SelectOp::create(b, loc, above, constant(highest), clamped);
  }
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
  SmallVector<float, 7> coefficients = {1.0f};
  llvm::append_range(coefficients, natural ? ArrayRef<float>(kExpCoefficients)
                                           : ArrayRef<float>(kExp2Coefficients));
  Value p = inner ? polynomialByEstrin(b, loc, coefficients, f)
                  : polynomialByHorner(b, loc, coefficients, f);
  Value exponent = arith::SubIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, intType, shifted),
      integer(llvm::bit_cast<int32_t>(shifter)));
  // The LLVM dialect's ldexp takes scalars; LLVM's loop vectorizer widens it.
  if (ldexpScaling && !isa<ShapedType>(type))
    return LLVM::LoadExpOp::create(b, loc, type, p, exponent);
  auto powerOfTwo = [&](Value k) {
    Value biased = arith::AddIOp::create(b, loc, k, integer(127));
    Value bits = arith::ShLIOp::create(b, loc, biased, integer(23));
    return arith::BitcastOp::create(b, loc, type, bits).getResult();
  };
  if (inner)
    return arith::MulFOp::create(b, loc, p, powerOfTwo(exponent));
  Value half = arith::ShRSIOp::create(b, loc, exponent, integer(1));
  Value rest = arith::SubIOp::create(b, loc, exponent, half);
  Value result = arith::MulFOp::create(b, loc, p, powerOfTwo(half));
  return arith::MulFOp::create(b, loc, result, powerOfTwo(rest));
}

/// Asks LLVM to interleave `count` vector iterations of the loop around `op` (merged into its
/// annotation): a vector of erf or exp is a chain of 20 to 30 dependent operations, and with the
/// loop vectorizer's own choice (one or two iterations) the core mostly waits on the chain.
/// Only for scalar ops inside an `scf.for` (the loops LLVM vectorizes); the innermost one.
void interleaveEnclosingLoop(Operation *op, unsigned count) {
  auto loop = op->getParentOfType<scf::ForOp>();
  if (!loop || isa<ShapedType>(op->getResultTypes()[0]))
    return;
  MLIRContext *ctx = loop.getContext();
  auto interleave =
      LLVM::LoopInterleaveAttr::get(ctx, IntegerAttr::get(IntegerType::get(ctx, 32), count));
  auto a = loop->getAttrOfType<LLVM::LoopAnnotationAttr>("llvm.loop_annotation");
  if (a)
    a = LLVM::LoopAnnotationAttr::get(
        ctx, a.getDisableNonforced(), a.getVectorize(), interleave, a.getUnroll(),
        a.getUnrollAndJam(), a.getLicm(), a.getDistribute(), a.getPipeline(), a.getPeeled(),
        a.getUnswitch(), a.getMustProgress(), a.getIsVectorized(), a.getStartLoc(),
        a.getEndLoc(), a.getParallelAccesses());
  else
    a = LLVM::LoopAnnotationAttr::get(ctx, {}, {}, interleave, {}, {}, {}, {}, {}, {}, {}, {},
                                      {}, {}, {}, {});
  loop->setAttr("llvm.loop_annotation", a);
}

void expandExponentials(Operation *root, bool ldexpScaling) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::ExpOp, math::Exp2Op>(op) && getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    op->getResult(0).replaceAllUsesWith(buildExponential(
        b, op->getLoc(), op->getOperand(0), isa<math::ExpOp>(op), ldexpScaling));
    // Its chain (~20 dependent operations) keeps a loop that does little else waiting, as erf's:
    // interleaved, a row softmax of 4096x1024 f32 ran 5.0 -> 4.3 ms and x * sigmoid(x) + y over
    // 2^20 floats 0.71 -> 0.55 ms (one thread, Zen 3); attention's step (products around it)
    // and log-softmax did not move.
    interleaveEnclosingLoop(op, 4);
    op->erase();
  }
}

/// erf(x) - x = x * P(x^2) for |x| <= 0.921875: coefficients of (x^2)^0 .. (x^2)^5, fitted
/// here for the least largest error (Lawson's iteration) against erf(x) / x - 1.
constexpr float kErfNearZero[6] = {0x1.06eba6p-3f,  -0x1.8126eep-2f, 0x1.ce1b94p-4f,
                                   -0x1.b69a7ap-6f, 0x1.478c7ap-8f,  -0x1.3b4626p-11f};
/// log2(erfc(t)) for 0.921875 <= t <= 4: coefficients of t^0 .. t^6, fitted the same way with
/// the error weighted by erfc(t) / erf(t), its share of the result 1 - 2^log2(erfc(t)).
constexpr float kLog2ErfcAway[7] = {-0x1.2c5824p-12f, -0x1.a07ae0p+0f, -0x1.d6acf8p-1f,
                                    -0x1.33075ep-3f,  0x1.069732p-5f,  -0x1.1f8824p-8f,
                                    0x1.281552p-12f};

/// f32 erf within 1.5 ulp (1.04 for |x| <= 0.921875, 0.76 beyond 1.5; python/test/
/// test_erf_polynomial.py), without the division and the three-interval coefficient selects of
/// the upstream rational approximation (80 instructions and a vdivps per 8 elements):
///   |x| <= 0.921875:  erf(x) = x + x * P(x^2)                       (keeps -0 and subnormals)
///   |x| >  0.921875:  erf(x) = copysign(1 - 2^Q(min(|x|, 4)), x)    (Q ~ log2 erfc)
/// erfc(4) = 1.5e-8 is below half an ulp of 1: larger |x|, infinities included, give +-1. Both
/// branches are computed and one selected, as vector lanes would anyway; NaN fails the
/// comparison and takes the first branch, which keeps it NaN. Q stays within [-26, 0] for the
/// clamped |x|, so its power of two needs no clamp and is a normal number. The second branch is
/// the longer chain: Q and 2^Q's polynomial by Estrin's scheme, and the enclosing loop asks for
/// 4 interleaved vector iterations (a standalone erf over 2^20 floats at one thread on Zen 3:
/// 870 us with the upstream form, 740 with this one; torch.erf 1680).
void expandErf(Operation *root, bool ldexpScaling) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::ErfOp>(op) && getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value x = op->getOperand(0);
    Type type = x.getType();
    auto constant = [&](float v) { return f32Constant(b, loc, type, v); };
    Value square = arith::MulFOp::create(b, loc, x, x);
    Value nearZero =
        math::FmaOp::create(b, loc, polynomialByHorner(b, loc, kErfNearZero, square), x, x);
    Value magnitude = math::AbsFOp::create(b, loc, x);
    Value beyond = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, magnitude, constant(4.0f));
    Value t = arith::SelectOp::create(b, loc, beyond, constant(4.0f), magnitude);
    Value complement = buildExponential(b, loc, polynomialByEstrin(b, loc, kLog2ErfcAway, t),
                                        /*natural=*/false, ldexpScaling, /*inner=*/true);
    Value away = math::CopySignOp::create(
        b, loc, arith::SubFOp::create(b, loc, constant(1.0f), complement), x);
    Value far = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, magnitude,
                                      constant(0.921875f));
    op->getResult(0).replaceAllUsesWith(arith::SelectOp::create(b, loc, far, away, nearZero));
    interleaveEnclosingLoop(op, 4);
    op->erase();
  }
}

struct ExpandMathToPolynomialsPass
    : impl::ExpandMathToPolynomialsBase<ExpandMathToPolynomialsPass> {
  using Base::Base;
  void runOnOperation() override {
    widenToSubnormals(getOperation());
    expandErf(getOperation(), ldexpScaling);
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
