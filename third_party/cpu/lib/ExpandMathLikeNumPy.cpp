//===- ExpandMathLikeNumPy.cpp - f32 exp/log/sin/cos as numpy computes them ===//
//
// Triton's interpreter evaluates tl.exp, tl.log, tl.sin and tl.cos with numpy, whose
// float32 loops on x86 hosts with FMA3 (AVX2 or AVX-512) run numpy's own SIMD algorithms:
// rational approximations for exp and log, Cody-Waite reduction plus polynomials for sin and
// cos (libm beyond the reduction's range). Replaying the same operations in the same order,
// with the same fused multiply-adds, gives the same bits: kernels such as tl.randn (log, cos,
// sin) produce exactly what the interpreter produces. Each algorithm is within 4 ulp of the
// exact result (log 3.8, exp 2.5, sin/cos 1.5) and, being arith ops, vectorizes.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cstring>

namespace tritium::cpu {
#define GEN_PASS_DEF_EXPANDMATHLIKENUMPY
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Arith on f32 values of one shape (scalar, vector or tensor), with i32 values of the same
/// shape for the bit manipulation.
class F32Builder {
public:
  F32Builder(ImplicitLocOpBuilder &b, Type floatType) : b(b), floatType(floatType) {
    intType = floatType.isF32() ? Type(b.getI32Type())
                                : Type(cast<ShapedType>(floatType).clone(b.getI32Type()));
  }

  Value f(float value) { return splat(floatType, b.getF32FloatAttr(value)); }
  Value bitsAsFloat(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return f(value);
  }
  Value i(int32_t value) { return splat(intType, b.getI32IntegerAttr(value)); }

  Value fma(Value x, Value y, Value z) { return math::FmaOp::create(b, x, y, z); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, x, y); }
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, predicate, x, y);
  }
  Value cmpi(arith::CmpIPredicate predicate, Value x, Value y) {
    return arith::CmpIOp::create(b, predicate, x, y);
  }
  Value select(Value condition, Value whenTrue, Value whenFalse) {
    return arith::SelectOp::create(b, condition, whenTrue, whenFalse);
  }
  Value orMask(Value x, Value y) { return arith::OrIOp::create(b, x, y); }
  Value isNaN(Value x) { return cmp(arith::CmpFPredicate::UNO, x, x); }

  Value toBits(Value x) { return arith::BitcastOp::create(b, intType, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, floatType, x); }
  Value toInt(Value x) { return arith::FPToSIOp::create(b, intType, x); }
  Value toFloat(Value x) { return arith::SIToFPOp::create(b, floatType, x); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, x, y); }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value shli(Value x, Value y) { return arith::ShLIOp::create(b, x, y); }
  Value shrsi(Value x, Value y) { return arith::ShRSIOp::create(b, x, y); }
  Value shrui(Value x, Value y) { return arith::ShRUIOp::create(b, x, y); }

  /// c[0] + x * (c[1] + x * (... + x * c[n])) by fused multiply-adds from the top.
  Value horner(Value x, ArrayRef<float> coefficients) {
    Value result = fma(f(coefficients.back()), x, f(coefficients[coefficients.size() - 2]));
    for (int k = coefficients.size() - 3; k >= 0; --k)
      result = fma(result, x, f(coefficients[k]));
    return result;
  }

  /// 2^n for integral n in [-126, 127], built on the exponent bits.
  Value powerOfTwo(Value n) { return fromBits(shli(addi(toInt(n), i(127)), i(23))); }

  ImplicitLocOpBuilder &b;

private:
  Value splat(Type type, TypedAttr scalar) {
    Attribute attr = scalar;
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, scalar);
    return arith::ConstantOp::create(b, type, cast<TypedAttr>(attr));
  }

  Type floatType, intType;
};

constexpr float kRoundingMagic = 0x1.8p23f; // x + 1.5*2^23 - 1.5*2^23 rounds x to an integer
constexpr float kSmallestNormal = 0x1p-126f;
constexpr uint32_t kQuietNaN = 0x7fc00000, kNegativeQuietNaN = 0xffc00000;

/// exp(x) = 2^k * P(r)/Q(r), k = rint(x / ln 2), r = x - k ln 2 (ln 2 in two parts). The
/// scaling rounds once, also into the subnormals (x down to -103.97; below that, 0).
Value expandExp(F32Builder &v, Value x) {
  Value nan = v.isNaN(x);
  Value overflows = v.cmp(arith::CmpFPredicate::OGE, x, v.f(0x1.62e43p+6f));    // 88.7228394
  Value underflows = v.cmp(arith::CmpFPredicate::OLE, x, v.f(-0x1.9fe36ap+6f)); // -103.972084
  Value inRange = v.select(v.orMask(v.orMask(nan, overflows), underflows), v.f(0.0f), x);

  Value k = v.mul(inRange, v.f(0x1.715476p+0f)); // log2(e)
  k = v.sub(v.add(k, v.f(kRoundingMagic)), v.f(kRoundingMagic));
  Value r = v.fma(k, v.f(-0x1.62e4p-1f), inRange); // ln 2, high part
  r = v.fma(k, v.f(-0x1.7f7d1cp-20f), r);          // ln 2, low part
  r = v.fma(k, v.f(0.0f), r); // numpy's third reduction step, kept for its -0 rule
  Value p = v.horner(
      r, {0x1p+0f, 0x1.7397aap-1f, 0x1.fa98bp-3f, 0x1.a2fb18p-5f, 0x1.bae2b2p-8f, 0x1.0a7bbp-11f});
  Value q = v.horner(r, {0x1p+0f, -0x1.18d0aep-2f, 0x1.61d064p-6f});
  Value ratio = v.div(p, q);

  // 2^k as two factors of at most 2^64 each: the first product is exact, the second rounds.
  Value kInt = v.toInt(k);
  Value half = v.shrsi(kInt, v.i(1));
  Value first = v.mul(ratio, v.powerOfTwo(v.toFloat(half)));
  Value result = v.mul(first, v.powerOfTwo(v.toFloat(v.subi(kInt, half))));

  result = v.select(nan, v.bitsAsFloat(kQuietNaN), result);
  result = v.select(overflows, v.f(INFINITY), result);
  return v.select(underflows, v.f(0.0f), result);
}

/// log(x) = e ln 2 + P(m - 1)/Q(m - 1), x = m 2^e with m in (sqrt(1/2), sqrt(2)]. Subnormal x
/// is scaled by 2^100 first.
Value expandLog(F32Builder &v, Value x) {
  Value negative = v.cmp(arith::CmpFPredicate::OLT, x, v.f(0.0f));
  Value zero = v.cmp(arith::CmpFPredicate::OEQ, x, v.f(0.0f));
  Value infinite = v.cmp(arith::CmpFPredicate::OEQ, x, v.f(INFINITY));
  Value nan = v.isNaN(x);

  Value subnormal = v.cmp(arith::CmpFPredicate::OLT, x, v.f(kSmallestNormal));
  Value scaled = v.select(subnormal, v.mul(x, v.f(0x1p100f)), x);
  Value bits = v.toBits(scaled);
  Value exponent = v.toFloat(v.subi(v.shrui(bits, v.i(23)), v.i(126)));
  exponent = v.select(subnormal, v.sub(exponent, v.f(100.0f)), exponent);
  Value m = v.fromBits(v.ori(v.andi(bits, v.i(0x7fffff)), v.i(126 << 23))); // in [1/2, 1)

  Value low = v.cmp(arith::CmpFPredicate::OLE, m, v.f(0x1.6a09e6p-1f)); // sqrt(1/2)
  m = v.select(low, v.add(m, m), m);
  exponent = v.select(low, v.sub(exponent, v.f(1.0f)), exponent);
  m = v.sub(m, v.f(1.0f));

  Value p =
      v.horner(m, {0.0f, 0x1p+0f, 0x1.0e6c38p+1f, 0x1.7ae152p+0f, 0x1.860666p-2f, 0x1.a8579ap-6f});
  Value q = v.horner(
      m, {0x1p+0f, 0x1.4e6c38p+1f, 0x1.39fc1ap+1f, 0x1.f915c8p-1f, 0x1.3cb7e6p-3f, 0x1.8107bep-8f});
  Value result = v.fma(exponent, v.f(0x1.62e43p-1f), v.div(p, q)); // ln 2

  result = v.select(nan, v.bitsAsFloat(kQuietNaN), result);
  result = v.select(negative, v.bitsAsFloat(kNegativeQuietNaN), result);
  result = v.select(zero, v.f(-INFINITY), result);
  return v.select(infinite, v.f(INFINITY), result);
}

/// Where numpy's Cody-Waite reduction stops being accurate and it calls libm instead.
Value beyondReduction(F32Builder &v, Value x, bool isCos) {
  float limit = isCos ? 0x1.17341p+16f : 0x1.cabbfep+16f; // 71476.0625, 117435.992
  return v.cmp(arith::CmpFPredicate::OGT, math::AbsFOp::create(v.b, x), v.f(limit));
}

/// sin and cos for |x| within the Cody-Waite range: r = x - k pi/2 (pi/2 in three parts),
/// k = rint(x 2/pi), then the sine or cosine polynomial of r by the quadrant k (+1 for cos),
/// negated in quadrants 2 and 3. NaN lanes give NaN; `large` lanes are the caller's.
Value expandSinCosInRange(F32Builder &v, Value x, Value large, bool isCos) {
  Value nan = v.isNaN(x);
  Value reducible = v.select(v.orMask(nan, large), v.f(0.0f), x);

  Value k = v.sub(v.fma(reducible, v.f(0x1.45f306p-1f), v.f(kRoundingMagic)), v.f(kRoundingMagic));
  Value r = v.fma(k, v.f(-0x1.921fb0p+0f), reducible);
  r = v.fma(k, v.f(-0x1.5110b4p-22f), r);
  r = v.fma(k, v.f(-0x1.846988p-48f), r);
  Value r2 = v.mul(r, r);

  Value cosine =
      v.horner(r2, {0x1p+0f, -0x1p-1f, 0x1.55553cp-5f, -0x1.6c06dcp-10f, 0x1.98e616p-16f});
  Value sineTail =
      v.horner(r2, {-0x1.555556p-3f, 0x1.11119ap-7f, -0x1.a06bbap-13f, 0x1.7d3bbcp-19f});
  Value sine = v.fma(v.fma(sineTail, r2, v.f(0.0f)), r, r);

  Value quadrant = v.toInt(k);
  if (isCos)
    quadrant = v.addi(quadrant, v.i(1));
  Value odd = v.cmpi(arith::CmpIPredicate::ne, v.andi(quadrant, v.i(1)), v.i(0));
  Value negate = v.cmpi(arith::CmpIPredicate::ne, v.andi(quadrant, v.i(2)), v.i(0));
  Value result = v.select(odd, cosine, sine);
  result = v.select(negate, v.sub(v.f(0.0f), result), result);
  return v.select(nan, v.bitsAsFloat(kQuietNaN), result);
}

/// Outside the reduction's range numpy calls libm; so does this, through the math op itself.
/// A scalar takes the call only when it is needed; a shaped value selects per element.
Value expandSinCos(F32Builder &v, Operation *op, bool isCos) {
  Value x = op->getOperand(0);
  ImplicitLocOpBuilder &b = v.b;
  Value large = beyondReduction(v, x, isCos);
  if (isa<ShapedType>(x.getType())) {
    Value inRange = expandSinCosInRange(v, x, large, isCos);
    return v.select(large, b.clone(*op)->getResult(0), inRange);
  }
  auto ifOp = scf::IfOp::create(b, x.getType(), large, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, b.clone(*op)->getResult(0));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, expandSinCosInRange(v, x, large, isCos));
  }
  return ifOp.getResult(0);
}

struct ExpandMathLikeNumPyPass : impl::ExpandMathLikeNumPyBase<ExpandMathLikeNumPyPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      bool numpyComputesIt =
          isa<math::LogOp, math::SinOp, math::CosOp>(op) || (includeExp && isa<math::ExpOp>(op));
      if (numpyComputesIt && getElementTypeOrSelf(op->getResult(0).getType()).isF32())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      ImplicitLocOpBuilder b(op->getLoc(), op);
      F32Builder v(b, op->getResult(0).getType());
      Value x = op->getOperand(0);
      Value result;
      if (isa<math::ExpOp>(op))
        result = expandExp(v, x);
      else if (isa<math::LogOp>(op))
        result = expandLog(v, x);
      else
        result = expandSinCos(v, op, isa<math::CosOp>(op));
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
} // namespace tritium::cpu
