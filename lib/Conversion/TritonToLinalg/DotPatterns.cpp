//===- DotPatterns.cpp - tt.dot -------------------------------------------===//
//
// tt.dot accumulates into its third operand: linalg.matmul (2-D) or linalg.batch_matmul
// (3-D) with that operand as `outs`. Every input precision (tf32, tf32x3, bf16x3, ...) is a
// GPU tensor-core choice; on other devices the product is computed in IEEE arithmetic.
//
// tt.dot_scaled first materializes each operand as an f32 tensor in matmul layout: e2m1
// (fp4, two to a byte, low nibble first) unpacked along the packed dimension, fp8/bf16/fp16
// widened exactly, every value multiplied by its e8m0 scale 2^(s - 127) (255 is NaN); the
// product is then the same matmul in f32.
//
//===----------------------------------------------------------------------===//

#include "MicroscaleFormats.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {
namespace {

/// fp8 operands are converted (exactly) to the accumulator's float type once, so the
/// product itself is an ordinary float matmul.
Value widenFloat8(OpBuilder &b, Location loc, Value operand, RankedTensorType resultType) {
  auto type = cast<RankedTensorType>(operand.getType());
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || element.getWidth() != 8)
    return operand;
  Type wide = resultType.getElementType();
  if (!isa<FloatType>(wide))
    wide = b.getF32Type();
  return arith::ExtFOp::create(b, loc, type.clone(wide), operand);
}

struct DotConversion : OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value, 2> ins = {widenFloat8(rewriter, op.getLoc(), adaptor.getA(), type),
                                 widenFloat8(rewriter, op.getLoc(), adaptor.getB(), type)};
    Operation *product;
    if (type.getRank() == 2)
      product = linalg::MatmulOp::create(rewriter, op.getLoc(), ins, ValueRange{adaptor.getC()});
    else
      product =
          linalg::BatchMatmulOp::create(rewriter, op.getLoc(), ins, ValueRange{adaptor.getC()});
    rewriter.replaceOp(op, product->getResult(0));
    return success();
  }
};

/// One operand of tt.dot_scaled as an f32 tensor of `logicalShape` ([..., M, K] for the lhs,
/// [..., K, N] for the rhs). `packedDim` is the dimension e2m1 packs two values along.
Value scaledOperandAsF32(OpBuilder &b, Location loc, Value value, Value scale,
                         tt::ScaleDotElemType format, unsigned packedDim, bool isRhs,
                         ArrayRef<int64_t> logicalShape) {
  unsigned rank = logicalShape.size();
  unsigned kDim = isRhs ? rank - 2 : rank - 1;
  unsigned rowDim = isRhs ? rank - 1 : rank - 2; // the scale's other dimension (N or M)
  int64_t k = logicalShape[kDim];
  int64_t group = scale ? k / cast<RankedTensorType>(scale.getType()).getShape().back() : 0;
  auto resultType = RankedTensorType::get(logicalShape, b.getF32Type());
  Value init = tensor::EmptyOp::create(b, loc, logicalShape, b.getF32Type());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange) {
        auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
        SmallVector<Value> indices;
        for (unsigned d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(b, loc, d));
        Value element;
        if (format == tt::ScaleDotElemType::E2M1) {
          element = e2m1ElementAt(b, loc, value, indices, packedDim);
        } else {
          element = tensor::ExtractOp::create(b, loc, value, indices);
          element = arith::ExtFOp::create(b, loc, b.getF32Type(), element);
        }
        if (scale) {
          // Scales are laid out [..., M or N, K / group] for both operands.
          SmallVector<Value> scaleIndices(indices.begin(), indices.end() - 2);
          scaleIndices.push_back(indices[rowDim]);
          scaleIndices.push_back(arith::DivUIOp::create(b, loc, indices[kDim], index(group)));
          Value factor =
              decodeE8M0(b, loc, tensor::ExtractOp::create(b, loc, scale, scaleIndices));
          element = arith::MulFOp::create(b, loc, element, factor);
        }
        linalg::YieldOp::create(b, loc, element);
      });
  return generic.getResult(0);
}

struct DotScaledConversion : OpConversionPattern<tt::DotScaledOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::DotScaledOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    for (tt::ScaleDotElemType format : {op.getAElemType(), op.getBElemType()})
      if (format == tt::ScaleDotElemType::E2M3 || format == tt::ScaleDotElemType::E3M2)
        return op.emitError("tritium lowers tt.dot_scaled for e2m1, e4m3, e5m2, bf16 and fp16 "
                            "operands; ")
               << tt::stringifyScaleDotElemType(format)
               << " (fp6) is not supported: convert the operand to bf16 first";
    auto type = cast<RankedTensorType>(op.getType());
    unsigned rank = type.getRank();
    auto aShape = cast<RankedTensorType>(op.getA().getType()).getShape();
    bool aPacked = op.getAElemType() == tt::ScaleDotElemType::E2M1;
    int64_t k = aShape.back() * (aPacked && op.getLhsKPack() ? 2 : 1);
    SmallVector<int64_t> lhsShape(type.getShape()), rhsShape(type.getShape());
    lhsShape.back() = k;
    rhsShape[rank - 2] = k;
    Location loc = op.getLoc();
    Value a = scaledOperandAsF32(rewriter, loc, adaptor.getA(), adaptor.getAScale(),
                                 op.getAElemType(), op.getLhsKPack() ? rank - 1 : rank - 2,
                                 /*isRhs=*/false, lhsShape);
    Value b = scaledOperandAsF32(rewriter, loc, adaptor.getB(), adaptor.getBScale(),
                                 op.getBElemType(), op.getRhsKPack() ? rank - 2 : rank - 1,
                                 /*isRhs=*/true, rhsShape);
    Operation *product;
    if (rank == 2)
      product = linalg::MatmulOp::create(rewriter, loc, ValueRange{a, b}, ValueRange{adaptor.getC()});
    else
      product = linalg::BatchMatmulOp::create(rewriter, loc, ValueRange{a, b},
                                              ValueRange{adaptor.getC()});
    rewriter.replaceOp(op, product->getResult(0));
    return success();
  }
};

} // namespace

void populateDotPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotConversion, DotScaledConversion>(converter, patterns.getContext());
}

} // namespace tritium
