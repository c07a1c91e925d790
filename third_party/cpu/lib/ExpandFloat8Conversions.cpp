//===- ExpandFloat8Conversions.cpp - fp8 conversions on the bits ----------===//
//
// An fp8 value is an i8 to LLVM. Decoding builds the f32 bit pattern (or, for subnormals,
// mantissa * 2^(emin - m)); encoding rounds the f32/f64 bits at the target precision for
// normal results and rounds a scaled copy to an integer for subnormal ones, then
// saturates. Works on scalars and on shaped values alike.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>

namespace tritium::cpu {
#define GEN_PASS_DEF_EXPANDFLOAT8CONVERSIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// What the bits of one 8-bit float format mean.
struct Float8Format {
  unsigned mantissaBits;
  int exponentBias;
  /// The largest finite magnitude's 7 low bits; overflow saturates to it.
  unsigned maxFiniteField;
  /// The byte NaN encodes as (sign added unless `unsignedZero`); none: NaN saturates.
  std::optional<unsigned> nanField;
  /// Infinity's 7 low bits (only e5m2 has it).
  std::optional<unsigned> infinityField;
  /// FNUZ formats: 0x80 is NaN, so there is no negative zero.
  bool unsignedZero;
};

std::optional<Float8Format> float8FormatOf(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Float8Format{3, 7, 0x7E, 0x7F, std::nullopt, false};
  if (isa<Float8E5M2Type>(type))
    return Float8Format{2, 15, 0x7B, 0x7F, 0x7C, false};
  if (isa<Float8E4M3FNUZType>(type))
    return Float8Format{3, 8, 0x7F, 0x80, std::nullopt, true};
  if (isa<Float8E5M2FNUZType>(type))
    return Float8Format{2, 16, 0x7F, 0x80, std::nullopt, true};
  if (isa<Float8E4M3B11FNUZType>(type))
    return Float8Format{3, 11, 0x7F, 0x80, std::nullopt, true};
  return std::nullopt;
}

std::optional<Float8Format> float8FormatOfElement(Type type) {
  return float8FormatOf(getElementTypeOrSelf(type));
}

Type withElement(Type like, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(like))
    return shaped.clone(element);
  return element;
}

/// Builds the bit arithmetic for values shaped like `like` (a scalar or a tensor/vector).
class BitBuilder {
public:
  BitBuilder(OpBuilder &b, Location loc, Type like) : b(b), loc(loc), like(like) {}

  Value intConstant(unsigned width, uint64_t value) {
    Type type = withElement(like, b.getIntegerType(width));
    TypedAttr attr = b.getIntegerAttr(b.getIntegerType(width), APInt(width, value));
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, attr);
    return arith::ConstantOp::create(b, loc, type, attr);
  }
  Value floatConstant(FloatType element, double value) {
    Type type = withElement(like, element);
    TypedAttr attr = b.getFloatAttr(element, value);
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, attr);
    return arith::ConstantOp::create(b, loc, type, attr);
  }
  Value bitcast(Value v, Type element) {
    return arith::BitcastOp::create(b, loc, withElement(like, element), v);
  }
  Value select(Value c, Value t, Value f) { return arith::SelectOp::create(b, loc, c, t, f); }
  Value cmpI(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }

  OpBuilder &b;
  Location loc;
  Type like;
};

/// The bits of the fp8 `value`, zero-extended to i16.
Value bitsAsI16(BitBuilder &bb, Value value) {
  Value byte = bb.bitcast(value, bb.b.getI8Type());
  return arith::ExtUIOp::create(bb.b, bb.loc, withElement(bb.like, bb.b.getI16Type()), byte);
}

/// e5m2 is the high byte of an f16 (infinities and NaNs included): the f16 `value` is.
Value e5m2AsF16(BitBuilder &bb, Value value) {
  Value high = arith::ShLIOp::create(bb.b, bb.loc, bitsAsI16(bb, value), bb.intConstant(16, 8));
  return bb.bitcast(high, bb.b.getF16Type());
}

/// The exact f32 value of the fp8 `value` (of `format`), through the host's f16 conversion
/// (vcvtph2ps) where the format's bits are an f16's: e5m2 is an f16's high byte, and a
/// 4-bit-exponent format's 7 low bits shifted into an f16 (whose subnormals cover the
/// format's) are its magnitude times 2^(bias - 15). About half the vector instructions of
/// the rebias-and-select decode below; e5m2fnuz (whose top exponent holds finite values)
/// takes that decode.
std::optional<Value> decodeToF32ThroughF16(BitBuilder &bb, Value value,
                                           const Float8Format &format, bool e5m2) {
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  FloatType f32 = b.getF32Type();
  Type f32Like = withElement(bb.like, f32);
  if (e5m2)
    return Value(arith::ExtFOp::create(b, loc, f32Like, e5m2AsF16(bb, value)));
  if (format.mantissaBits != 3)
    return std::nullopt;
  Value bits = bitsAsI16(bb, value);
  // The sign moves from bit 7 to f16's bit 15, the 7 low bits to f16's exponent and mantissa
  // (an FNUZ format's 0x80, NaN below, is the sign of nothing).
  Value sign = arith::AndIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, bits, bb.intConstant(16, 8)),
      bb.intConstant(16, 0x8000));
  Value low = arith::AndIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, bits, bb.intConstant(16, 7)),
      bb.intConstant(16, 0x7F << 7));
  Value half = bb.bitcast(arith::OrIOp::create(b, loc, sign, low), b.getF16Type());
  Value decoded = arith::MulFOp::create(
      b, loc, arith::ExtFOp::create(b, loc, f32Like, half),
      bb.floatConstant(f32, std::ldexp(1.0, 15 - format.exponentBias)));
  Value isNaN = format.unsignedZero
                    ? bb.cmpI(arith::CmpIPredicate::eq, bits, bb.intConstant(16, 0x80))
                    : bb.cmpI(arith::CmpIPredicate::eq, low,
                              bb.intConstant(16, *format.nanField << 7));
  return bb.select(isNaN, bb.floatConstant(f32, NAN), decoded);
}

/// The exact f32 value of the fp8 `value` (of `format`).
Value decodeToF32(BitBuilder &bb, Value value, const Float8Format &format) {
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  Type i32 = b.getI32Type();
  FloatType f32 = b.getF32Type();
  unsigned m = format.mantissaBits;
  if (auto throughF16 = decodeToF32ThroughF16(
          bb, value, format, isa<Float8E5M2Type>(getElementTypeOrSelf(value.getType()))))
    return *throughF16;
  Value byte = bb.bitcast(value, b.getI8Type());
  Value bits = arith::ExtUIOp::create(b, loc, withElement(bb.like, i32), byte);
  Value sign = arith::AndIOp::create(b, loc, bits, bb.intConstant(32, 0x80));
  Value field = arith::AndIOp::create(b, loc, bits, bb.intConstant(32, 0x7F));
  Value exponent = arith::ShRUIOp::create(b, loc, field, bb.intConstant(32, m));
  Value mantissa = arith::AndIOp::create(b, loc, field, bb.intConstant(32, (1u << m) - 1));

  // Normal: rebias the exponent and left-align the mantissa in f32's bits.
  Value rebiased = arith::AddIOp::create(
      b, loc, field, bb.intConstant(32, uint64_t(int64_t(127 - format.exponentBias) << m)));
  Value normalBits = arith::ShLIOp::create(b, loc, rebiased, bb.intConstant(32, 23 - m));
  Value normal = bb.bitcast(normalBits, f32);
  // Subnormal: mantissa * 2^(1 - bias - m), exact in f32.
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, withElement(bb.like, f32), mantissa),
      bb.floatConstant(f32, std::ldexp(1.0, 1 - format.exponentBias - int(m))));
  Value isSubnormal = bb.cmpI(arith::CmpIPredicate::eq, exponent, bb.intConstant(32, 0));
  Value magnitude = bb.select(isSubnormal, subnormal, normal);

  if (format.infinityField) {
    Value isInf = bb.cmpI(arith::CmpIPredicate::eq, field,
                          bb.intConstant(32, *format.infinityField));
    magnitude = bb.select(isInf, bb.floatConstant(f32, INFINITY), magnitude);
  }
  Value nan = bb.floatConstant(f32, NAN);
  if (format.unsignedZero) {
    // 0x80 is NaN; every other byte with the sign bit is a negative number.
    Value isNaN = bb.cmpI(arith::CmpIPredicate::eq, bits, bb.intConstant(32, 0x80));
    magnitude = bb.select(isNaN, nan, magnitude);
  } else if (format.nanField) {
    // NaN is every field above infinity (e5m2) or the all-ones field (e4m3fn).
    unsigned firstNaN = format.infinityField ? *format.infinityField + 1 : *format.nanField;
    Value isNaN = bb.cmpI(arith::CmpIPredicate::uge, field, bb.intConstant(32, firstNaN));
    magnitude = bb.select(isNaN, nan, magnitude);
  }
  Value negative = bb.cmpI(arith::CmpIPredicate::ne, sign, bb.intConstant(32, 0));
  return bb.select(negative, arith::NegFOp::create(b, loc, magnitude), magnitude);
}

/// `value` (f32 or f64) rounded to the fp8 `format` and saturated, as the fp8 type.
Value encodeFromFloat(BitBuilder &bb, Value value, const Float8Format &format,
                      Type float8Element, bool towardZero) {
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  auto srcType = cast<FloatType>(getElementTypeOrSelf(value.getType()));
  unsigned width = srcType.getWidth();
  unsigned srcMantissa = srcType.getFPMantissaWidth() - 1;
  int64_t srcBias = width == 64 ? 1023 : 127;
  unsigned m = format.mantissaBits;
  int minNormalExponent = 1 - format.exponentBias;
  Type intType = b.getIntegerType(width);

  Value bits = bb.bitcast(value, intType);
  uint64_t signMask = uint64_t(1) << (width - 1);
  Value sign = arith::ShRUIOp::create(b, loc, bits, bb.intConstant(width, width - 1));
  Value absBits = arith::AndIOp::create(b, loc, bits, bb.intConstant(width, signMask - 1));
  Value magnitude = bb.bitcast(absBits, srcType);

  // Normal results: round the bits at the target precision; a carry bumps the exponent.
  unsigned shift = srcMantissa - m;
  Value rounded = absBits;
  if (!towardZero) {
    Value odd = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, absBits, bb.intConstant(width, shift)),
        bb.intConstant(width, 1));
    Value bias = arith::AddIOp::create(
        b, loc, bb.intConstant(width, (uint64_t(1) << (shift - 1)) - 1), odd);
    rounded = arith::AddIOp::create(b, loc, absBits, bias);
  }
  Value normalField = arith::SubIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, rounded, bb.intConstant(width, shift)),
      bb.intConstant(width, uint64_t(srcBias - format.exponentBias) << m));
  // Subnormal results: magnitude / 2^(emin - m) is exact; round it to an integer.
  Value scaled = arith::MulFOp::create(
      b, loc, magnitude, bb.floatConstant(srcType, std::ldexp(1.0, int(m) - minNormalExponent)));
  Value integral = towardZero ? Value(math::TruncOp::create(b, loc, scaled))
                              : Value(math::RoundEvenOp::create(b, loc, scaled));
  Value subnormalField = arith::FPToUIOp::create(b, loc, withElement(bb.like, intType), integral);
  Value isNormal = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGE, magnitude,
      bb.floatConstant(srcType, std::ldexp(1.0, minNormalExponent)));
  Value field = bb.select(isNormal, normalField, subnormalField);
  // Beyond the largest finite value (infinity included): saturate, as GPUs' satfinite does.
  field = arith::MinUIOp::create(b, loc, field, bb.intConstant(width, format.maxFiniteField));

  Value signBit = arith::ShLIOp::create(b, loc, sign, bb.intConstant(width, 7));
  if (format.unsignedZero) {
    Value isZero = bb.cmpI(arith::CmpIPredicate::eq, field, bb.intConstant(width, 0));
    signBit = bb.select(isZero, bb.intConstant(width, 0), signBit);
  }
  Value encoded = arith::OrIOp::create(b, loc, field, signBit);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value nanBits = format.nanField
                      ? (format.unsignedZero
                             ? bb.intConstant(width, *format.nanField)
                             : Value(arith::OrIOp::create(
                                   b, loc, bb.intConstant(width, *format.nanField), signBit)))
                      : arith::OrIOp::create(b, loc, bb.intConstant(width, format.maxFiniteField),
                                             signBit)
                            .getResult();
  encoded = bb.select(isNaN, nanBits, encoded);
  Value byte = arith::TruncIOp::create(b, loc, withElement(bb.like, b.getI8Type()), encoded);
  return bb.bitcast(byte, float8Element);
}

/// Widens `value` to f32 (decoding fp8), or returns it when it is f32 or f64 already.
Value toF32OrF64(BitBuilder &bb, Value value) {
  Type element = getElementTypeOrSelf(value.getType());
  if (auto format = float8FormatOf(element))
    return decodeToF32(bb, value, *format);
  if (element.isF32() || element.isF64())
    return value;
  return arith::ExtFOp::create(bb.b, bb.loc, withElement(bb.like, bb.b.getF32Type()), value);
}

/// Converts the f32 `value` to the float type `target` exactly (every fp8 value fits).
Value fromF32(BitBuilder &bb, Value value, Type target) {
  auto element = cast<FloatType>(getElementTypeOrSelf(target));
  if (element.isF32())
    return value;
  if (element.getWidth() > 32)
    return arith::ExtFOp::create(bb.b, bb.loc, target, value);
  return arith::TruncFOp::create(bb.b, bb.loc, target, value);
}

struct ExpandExtFFromFloat8 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op, PatternRewriter &rewriter) const override {
    auto format = float8FormatOfElement(op.getIn().getType());
    if (!format)
      return failure();
    BitBuilder bb(rewriter, op.getLoc(), op.getType());
    Type target = getElementTypeOrSelf(op.getType());
    if (target.isF16() && isa<Float8E5M2Type>(getElementTypeOrSelf(op.getIn().getType()))) {
      rewriter.replaceOp(op, e5m2AsF16(bb, op.getIn()));
      return success();
    }
    Value f32 = decodeToF32(bb, op.getIn(), *format);
    if (target.isBF16()) {
      // Every fp8 value (NaN's quiet pattern too) is a bf16 value: the high half of its f32
      // bits, with none of the generic rounding (the fp8 products on AMX decode their tiles
      // this way).
      Type i32 = rewriter.getI32Type();
      Value high = arith::ShRUIOp::create(rewriter, op.getLoc(), bb.bitcast(f32, i32),
                                          bb.intConstant(32, 16));
      Value half = arith::TruncIOp::create(rewriter, op.getLoc(),
                                           withElement(op.getType(), rewriter.getI16Type()), high);
      rewriter.replaceOp(op, bb.bitcast(half, target));
      return success();
    }
    rewriter.replaceOp(op, fromF32(bb, f32, op.getType()));
    return success();
  }
};

struct ExpandTruncFToFloat8 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op, PatternRewriter &rewriter) const override {
    Type target = getElementTypeOrSelf(op.getType());
    auto format = float8FormatOf(target);
    if (!format)
      return failure();
    bool towardZero = op.getRoundingmode() == arith::RoundingMode::toward_zero;
    BitBuilder bb(rewriter, op.getLoc(), op.getType());
    Value wide = toF32OrF64(bb, op.getIn());
    rewriter.replaceOp(op, encodeFromFloat(bb, wide, *format, target, towardZero));
    return success();
  }
};

/// An integer becomes f64 exactly (below 2^53), then rounds once to fp8.
template <typename IntToFloatOp>
struct ExpandIntToFloat8 : OpRewritePattern<IntToFloatOp> {
  using OpRewritePattern<IntToFloatOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IntToFloatOp op, PatternRewriter &rewriter) const override {
    Type target = getElementTypeOrSelf(op.getType());
    auto format = float8FormatOf(target);
    if (!format)
      return failure();
    BitBuilder bb(rewriter, op.getLoc(), op.getType());
    Value wide = IntToFloatOp::create(rewriter, op.getLoc(),
                                      withElement(op.getType(), rewriter.getF64Type()),
                                      op.getIn());
    rewriter.replaceOp(op, encodeFromFloat(bb, wide, *format, target, /*towardZero=*/false));
    return success();
  }
};

template <typename FloatToIntOp>
struct ExpandFloat8ToInt : OpRewritePattern<FloatToIntOp> {
  using OpRewritePattern<FloatToIntOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(FloatToIntOp op, PatternRewriter &rewriter) const override {
    auto format = float8FormatOfElement(op.getIn().getType());
    if (!format)
      return failure();
    BitBuilder bb(rewriter, op.getLoc(), op.getType());
    Value f32 = decodeToF32(bb, op.getIn(), *format);
    rewriter.replaceOpWithNewOp<FloatToIntOp>(op, op.getType(), f32);
    return success();
  }
};

/// Comparisons of fp8 values compare their exact f32 values.
struct ExpandCmpFOnFloat8 : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpFOp op, PatternRewriter &rewriter) const override {
    auto format = float8FormatOfElement(op.getLhs().getType());
    if (!format)
      return failure();
    BitBuilder bb(rewriter, op.getLoc(), op.getLhs().getType());
    Value lhs = decodeToF32(bb, op.getLhs(), *format);
    Value rhs = decodeToF32(bb, op.getRhs(), *format);
    rewriter.replaceOpWithNewOp<arith::CmpFOp>(op, op.getPredicate(), lhs, rhs);
    return success();
  }
};

/// `tl.abs` and negation of fp8 values work on the sign bit, so infinities and NaNs stay what
/// they are (encoding would saturate them). FNUZ formats have one NaN, 0x80, and no negative
/// zero: both keep their bits.
struct SignOpsOnFloat8Bits : RewritePattern {
  SignOpsOnFloat8Bits(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<math::AbsFOp, arith::NegFOp>(op))
      return failure();
    Type type = op->getResult(0).getType();
    auto format = float8FormatOfElement(type);
    if (!format)
      return failure();
    BitBuilder bb(rewriter, op->getLoc(), type);
    Type i8 = rewriter.getI8Type();
    Value bits = bb.bitcast(op->getOperand(0), i8);
    Value result;
    if (isa<math::AbsFOp>(op))
      result = arith::AndIOp::create(rewriter, op->getLoc(), bits, bb.intConstant(8, 0x7F));
    else
      result = arith::XOrIOp::create(rewriter, op->getLoc(), bits, bb.intConstant(8, 0x80));
    if (format->unsignedZero) {
      Value magnitude = arith::AndIOp::create(rewriter, op->getLoc(), bits, bb.intConstant(8, 0x7F));
      Value keep = bb.cmpI(arith::CmpIPredicate::eq, magnitude, bb.intConstant(8, 0));
      result = bb.select(keep, bits, result);
    }
    rewriter.replaceOp(op, bb.bitcast(result, getElementTypeOrSelf(type)));
    return success();
  }
};

/// Ops that return one of their operands (minimum, maximum and their NaN-ignoring forms)
/// compare the decoded values and select the operand's bits.
struct SelectingOpsOnFloat8 : RewritePattern {
  SelectingOpsOnFloat8(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(op))
      return failure();
    Type type = op->getResult(0).getType();
    auto format = float8FormatOfElement(type);
    if (!format)
      return failure();
    Location loc = op->getLoc();
    BitBuilder bb(rewriter, loc, type);
    Value a = op->getOperand(0), b = op->getOperand(1);
    Value wideA = decodeToF32(bb, a, *format), wideB = decodeToF32(bb, b, *format);
    Type f32Type = withElement(type, rewriter.getF32Type());
    OperationState state(loc, op->getName(), ValueRange{wideA, wideB}, TypeRange{f32Type},
                         op->getAttrs());
    Value wide = rewriter.create(state)->getResult(0);
    // a where the result is a's value (or both are NaN), else b.
    Value isA = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ, wide, wideA);
    Value aIsNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, wideA, wideA);
    Value resultIsNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, wide, wide);
    Value takeA = bb.select(resultIsNaN, aIsNaN, isA);
    rewriter.replaceOp(op, bb.select(takeA, a, b));
    return success();
  }
};

/// Other float arithmetic on fp8 values has no fp8 instruction: it is computed on the decoded
/// f32 values and the result encoded again (rounded once to f32 and once to fp8, saturating
/// like every conversion to fp8).
struct ComputeFloat8InF32 : RewritePattern {
  ComputeFloat8InF32(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 || op->getNumOperands() == 0 ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp, arith::SelectOp, arith::CmpFOp>(op))
      return failure();
    Type resultType = op->getResult(0).getType();
    auto format = float8FormatOfElement(resultType);
    if (!format || llvm::any_of(op->getOperandTypes(),
                                [&](Type t) { return t != resultType; }))
      return failure();
    BitBuilder bb(rewriter, op->getLoc(), resultType);
    SmallVector<Value> wide;
    for (Value operand : op->getOperands())
      wide.push_back(decodeToF32(bb, operand, *format));
    Type f32Type = withElement(resultType, rewriter.getF32Type());
    OperationState state(op->getLoc(), op->getName(), wide, TypeRange{f32Type}, op->getAttrs());
    Value result = rewriter.create(state)->getResult(0);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, resultType, result);
    return success();
  }
};

struct ExpandFloat8ConversionsPass
    : impl::ExpandFloat8ConversionsBase<ExpandFloat8ConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandExtFFromFloat8, ExpandTruncFToFloat8, ExpandCmpFOnFloat8, ComputeFloat8InF32,
                 SignOpsOnFloat8Bits, SelectingOpsOnFloat8,
                 ExpandIntToFloat8<arith::SIToFPOp>, ExpandIntToFloat8<arith::UIToFPOp>,
                 ExpandFloat8ToInt<arith::FPToSIOp>, ExpandFloat8ToInt<arith::FPToUIOp>>(
        &getContext());
    GreedyRewriteConfig config;
    // Folding would evaluate fp8 conversions of constants with APFloat's rounding (and
    // its bias 11 for f8E4M3B11FNUZ), not the semantics above.
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
