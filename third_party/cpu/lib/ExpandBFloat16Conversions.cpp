//===- ExpandBFloat16Conversions.cpp - bf16 conversions on the bits -------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace tritium::cpu {
#define GEN_PASS_DEF_EXPANDBFLOAT16CONVERSIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// `like` (a scalar, vector or tensor type) with `element` as its element type.
Type withElementType(Type like, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(like))
    return shaped.clone(element);
  return element;
}

/// The constant `scalar` (an attribute of the element type) of type `type`, splat if shaped.
Value splatConstant(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  TypedAttr attr = scalar;
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = DenseElementsAttr::get(shaped, scalar);
  return arith::ConstantOp::create(b, loc, type, attr);
}

/// The integer constant `value` of the integer (or shaped integer) type `type`.
Value integerConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return splatConstant(b, loc, type, b.getIntegerAttr(getElementTypeOrSelf(type), value));
}

/// Negation flips the sign bit only (NaN payloads included), which the round trip through f32
/// that bf16 arithmetic takes would not keep.
struct NegateBFloat16OnBits : OpRewritePattern<arith::NegFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::NegFOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isBF16())
      return failure();
    Type bitsType = withElementType(type, rewriter.getI16Type());
    Location loc = op.getLoc();
    Value bits = arith::BitcastOp::create(rewriter, loc, bitsType, op.getOperand());
    Value flipped = arith::XOrIOp::create(rewriter, loc, bits,
                                          integerConstant(rewriter, loc, bitsType, 0x8000));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, flipped);
    return success();
  }
};

/// An integer wider than f32's significand would reach bf16 rounded twice, through f32 (2^24 +
/// 2^16 + 1 becomes 2^24 instead of 2^24 + 2^17). Rounding it to odd at 24 bits first (the
/// dropped bits ORed into the lowest kept one) makes the f32 conversion exact and leaves one
/// correct rounding, f32 to bf16, since 24 bits are more than bf16's 8 plus two.
template <typename IntToFloatOp>
struct RoundIntegerToBFloat16Once : OpRewritePattern<IntToFloatOp> {
  using OpRewritePattern<IntToFloatOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IntToFloatOp op, PatternRewriter &rewriter) const override {
    Type resultType = op.getType();
    Type intType = op.getIn().getType();
    unsigned width = getElementTypeOrSelf(intType).getIntOrFloatBitWidth();
    if (!getElementTypeOrSelf(resultType).isBF16() || width <= 24)
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](int64_t value) { return integerConstant(rewriter, loc, intType, value); };
    constexpr bool isSigned = std::is_same_v<IntToFloatOp, arith::SIToFPOp>;
    Value value = op.getIn();
    Value negative;
    if (isSigned) { // the magnitude, as unsigned (the most negative value is its own)
      negative =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, value, constant(0));
      value = arith::SelectOp::create(
          rewriter, loc, negative, arith::SubIOp::create(rewriter, loc, constant(0), value), value);
    }
    Value significantBits = arith::SubIOp::create(
        rewriter, loc, constant(width), math::CountLeadingZerosOp::create(rewriter, loc, value));
    Value dropped = arith::MaxSIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, significantBits, constant(24)),
        constant(0));
    Value lowest = arith::ShLIOp::create(rewriter, loc, constant(1), dropped);
    Value droppedMask = arith::SubIOp::create(rewriter, loc, lowest, constant(1));
    Value inexact = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                          arith::AndIOp::create(rewriter, loc, value, droppedMask),
                                          constant(0));
    Value kept = arith::AndIOp::create(
        rewriter, loc, value, arith::XOrIOp::create(rewriter, loc, droppedMask, constant(-1)));
    Value roundedToOdd = arith::OrIOp::create(
        rewriter, loc, kept, arith::SelectOp::create(rewriter, loc, inexact, lowest, constant(0)));

    Type f32Type = withElementType(resultType, rewriter.getF32Type());
    Value exact = arith::UIToFPOp::create(rewriter, loc, f32Type, roundedToOdd);
    if (isSigned)
      exact = arith::SelectOp::create(rewriter, loc, negative,
                                      arith::NegFOp::create(rewriter, loc, exact), exact);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, resultType, exact);
    return success();
  }
};

/// x moved one step of its last bit away from zero (`up`) or toward it, where `when` holds and
/// that bit is even: with `when` = "x is inexact", x rounded to odd.
Value stepToOdd(OpBuilder &b, Location loc, Value x, Value when, Value up) {
  Type bitsType = withElementType(
      x.getType(), b.getIntegerType(getElementTypeOrSelf(x).getIntOrFloatBitWidth()));
  Value bits = arith::BitcastOp::create(b, loc, bitsType, x);
  Value one = integerConstant(b, loc, bitsType, 1);
  Value lowestBit = arith::AndIOp::create(b, loc, bits, one);
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lowestBit,
                                     integerConstant(b, loc, bitsType, 0));
  Value step = arith::SelectOp::create(b, loc, up, one, integerConstant(b, loc, bitsType, -1));
  Value stepped =
      arith::BitcastOp::create(b, loc, x.getType(), arith::AddIOp::create(b, loc, bits, step));
  Value apply = arith::AndIOp::create(b, loc, when, even);
  return arith::SelectOp::create(b, loc, apply, stepped, x);
}

/// A 16-bit fma computed in f32 and rounded again (what LLVM does for bf16, and for f16 on CPUs
/// without FP16 arithmetic) can land on a tie that the exact result is not on: in bf16,
/// (1 + 2^-4)^2 + 2^-40 rounds down to 1.125. The product of two 16-bit floats is exact in f64
/// and the sum's rounding error is exact by TwoSum, so the sum can be rounded to odd at 53
/// bits, then to odd at 24 bits (f32), leaving one correct rounding to the 16-bit type.
struct FuseHalfMultiplyAddOnce : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isBF16() && !element.isF16())
      return failure();
    Location loc = op.getLoc();
    Type f32Type = withElementType(type, rewriter.getF32Type());
    Type f64Type = withElementType(type, rewriter.getF64Type());
    auto widen = [&](Value v) -> Value {
      Value f32Value = arith::ExtFOp::create(rewriter, loc, f32Type, v);
      return arith::ExtFOp::create(rewriter, loc, f64Type, f32Value);
    };
    auto absf = [&](Value v) -> Value { return math::AbsFOp::create(rewriter, loc, v); };

    Value a = widen(op.getA()), b = widen(op.getB()), c = widen(op.getC());
    Value product = arith::MulFOp::create(rewriter, loc, a, b); // exact: at most 22 bits
    Value sum = arith::AddFOp::create(rewriter, loc, product, c);
    Value cPart = arith::SubFOp::create(rewriter, loc, sum, product);
    Value productPart = arith::SubFOp::create(rewriter, loc, sum, cPart);
    Value productError = arith::SubFOp::create(rewriter, loc, product, productPart);
    Value cError = arith::SubFOp::create(rewriter, loc, c, cPart);
    Value error = arith::AddFOp::create(rewriter, loc, productError, cError);
    Value zero64 = splatConstant(rewriter, loc, f64Type, rewriter.getF64FloatAttr(0.0));
    Value inexact = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ONE, error, zero64);
    Value errorNegative =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, error, zero64);
    Value sumNegative =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, sum, zero64);
    Value errorAwayFromZero =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, errorNegative, sumNegative);
    Value odd64 = stepToOdd(rewriter, loc, sum, inexact, errorAwayFromZero);

    Value narrow = arith::TruncFOp::create(rewriter, loc, f32Type, odd64);
    Value back = arith::ExtFOp::create(rewriter, loc, f64Type, narrow);
    Value finite = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::ONE, absf(narrow),
        splatConstant(rewriter, loc, f32Type, rewriter.getF32FloatAttr(INFINITY)));
    Value changed = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ONE, back, odd64);
    Value narrowInexact = arith::AndIOp::create(rewriter, loc, finite, changed);
    Value wideMagnitude = absf(odd64);
    Value narrowedDown =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, wideMagnitude, absf(back));
    Value odd32 = stepToOdd(rewriter, loc, narrow, narrowInexact, narrowedDown);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, odd32);
    return success();
  }
};

struct ExpandBFloat16ConversionsPass
    : impl::ExpandBFloat16ConversionsBase<ExpandBFloat16ConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    patterns.add<NegateBFloat16OnBits, FuseHalfMultiplyAddOnce,
                 RoundIntegerToBFloat16Once<arith::SIToFPOp>,
                 RoundIntegerToBFloat16Once<arith::UIToFPOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
