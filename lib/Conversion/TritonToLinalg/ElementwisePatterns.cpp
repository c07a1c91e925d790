//===- ElementwisePatterns.cpp - tt elementwise ops with arith/math forms -===//
//
// These become arith/math ops on the same (tensor or scalar) types; tensors are turned into
// linalg later by convert-elementwise-to-linalg, like every other elementwise op.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace tritium {
namespace {

Type withElementType(Type like, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(element);
  return element;
}

Value splatOf(OpBuilder &b, Location loc, Type like, TypedAttr value) {
  if (auto shaped = dyn_cast<ShapedType>(like))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(shaped, value));
  return arith::ConstantOp::create(b, loc, value);
}

/// Rounds `x` to `type` toward zero: round to nearest, then where that rounded away from zero
/// (the result's magnitude exceeds x's) step one ULP back toward zero. Stepping the bit pattern
/// down by one does that for both signs, and turns an overflow to inf into the largest finite
/// value; NaN compares false and is kept.
Value truncateTowardZero(OpBuilder &b, Location loc, Value x, Type type) {
  Value nearest = arith::TruncFOp::create(b, loc, type, x);
  Value back = arith::ExtFOp::create(b, loc, x.getType(), nearest);
  Value awayFromZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                             math::AbsFOp::create(b, loc, back),
                                             math::AbsFOp::create(b, loc, x));
  unsigned width = cast<FloatType>(getElementTypeOrSelf(type)).getWidth();
  Type bitsType = withElementType(type, b.getIntegerType(width));
  Value bits = arith::BitcastOp::create(b, loc, bitsType, nearest);
  Value one = splatOf(b, loc, bitsType, b.getIntegerAttr(b.getIntegerType(width), 1));
  Value stepped = arith::BitcastOp::create(b, loc, type, arith::SubIOp::create(b, loc, bits, one));
  return arith::SelectOp::create(b, loc, awayFromZero, stepped, nearest);
}

struct FpToFpConversion : OpConversionPattern<tt::FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<FloatType>(getElementTypeOrSelf(op.getSrc().getType()));
    auto dstType = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    Type resultType = getTypeConverter()->convertType(op.getType());
    Value src = adaptor.getSrc();
    if (dstType.getWidth() > srcType.getWidth()) {
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, resultType, src);
      return success();
    }
    // fp16 <-> bf16: exact through f32, then one rounding.
    if (dstType.getWidth() == srcType.getWidth())
      src = arith::ExtFOp::create(rewriter, loc, withElementType(src.getType(), rewriter.getF32Type()),
                                  src);
    bool towardZero = op.getRounding() && *op.getRounding() == tt::RoundingMode::RTZ;
    // fp8 has no LLVM type: the target expands this conversion, rounding mode included.
    if (dstType.getWidth() == 8) {
      auto trunc = rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, resultType, src);
      if (towardZero)
        trunc.setRoundingmodeAttr(
            arith::RoundingModeAttr::get(getContext(), arith::RoundingMode::toward_zero));
      return success();
    }
    if (towardZero) {
      rewriter.replaceOp(op, truncateTowardZero(rewriter, loc, src, resultType));
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, resultType, src);
    return success();
  }
};

struct ClampFConversion : OpConversionPattern<tt::ClampFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ClampFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value result;
    if (op.getPropagateNan() == tt::PropagateNan::ALL) {
      result = arith::MaximumFOp::create(rewriter, loc, adaptor.getX(), adaptor.getMin());
      result = arith::MinimumFOp::create(rewriter, loc, result, adaptor.getMax());
    } else {
      result = arith::MaxNumFOp::create(rewriter, loc, adaptor.getX(), adaptor.getMin());
      result = arith::MinNumFOp::create(rewriter, loc, result, adaptor.getMax());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PreciseSqrtConversion : OpConversionPattern<tt::PreciseSqrtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::PreciseSqrtOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<math::SqrtOp>(op, adaptor.getX());
    return success();
  }
};

struct PreciseDivFConversion : OpConversionPattern<tt::PreciseDivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::PreciseDivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, adaptor.getX(), adaptor.getY());
    return success();
  }
};

/// Division is exact on the CPU: the approximation a GPU may use is not needed.
struct ApproxDivFConversion : OpConversionPattern<tt::ApproxDivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ApproxDivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, adaptor.getX(), adaptor.getY());
    return success();
  }
};

/// Programmatic dependent launch orders grids on a GPU stream; CPU launches are already
/// complete when they return.
template <typename OpTy>
struct EraseGridDependency : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// High half of the unsigned product, computed at twice the width.
struct MulhiUIConversion : OpConversionPattern<tt::MulhiUIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::MulhiUIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto intType = cast<IntegerType>(getElementTypeOrSelf(op.getType()));
    unsigned width = intType.getWidth();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type wide = withElementType(resultType, rewriter.getIntegerType(2 * width));
    Value x = arith::ExtUIOp::create(rewriter, loc, wide, adaptor.getX());
    Value y = arith::ExtUIOp::create(rewriter, loc, wide, adaptor.getY());
    Value product = arith::MulIOp::create(rewriter, loc, x, y);
    Value shift = arith::ConstantOp::create(
        rewriter, loc, wide,
        isa<RankedTensorType>(wide)
            ? cast<TypedAttr>(DenseElementsAttr::get(
                  cast<ShapedType>(wide), rewriter.getIntegerAttr(getElementTypeOrSelf(wide),
                                                                  width)))
            : cast<TypedAttr>(rewriter.getIntegerAttr(wide, width)));
    Value high = arith::ShRUIOp::create(rewriter, loc, product, shift);
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, resultType, high);
    return success();
  }
};

} // namespace

void populateElementwisePatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FpToFpConversion, ClampFConversion, PreciseSqrtConversion, PreciseDivFConversion,
               ApproxDivFConversion, MulhiUIConversion,
               EraseGridDependency<tt::GridDependencyWaitOp>,
               EraseGridDependency<tt::GridDependencyLaunchDependentsOp>>(converter,
                                                                          patterns.getContext());
}

} // namespace tritium
