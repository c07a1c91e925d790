//===- DotPatterns.cpp - tt.dot -------------------------------------------===//
//
// tt.dot accumulates into its third operand: linalg.matmul (2-D) or linalg.batch_matmul
// (3-D) with that operand as `outs`. Every input precision (tf32, tf32x3, bf16x3, ...) is a
// GPU tensor-core choice; on other devices the product is computed in IEEE arithmetic.
//
// tt.dot_scaled first materializes each operand as an f32 tensor in matmul layout: e2m1
// (fp4, two to a byte, low nibble first) unpacked along the packed dimension, fp8/bf16/fp16
// widened exactly, every value multiplied by its e8m0 scale 2^(s - 127) (255 is NaN, each
// scale decoded once); the product is then the same matmul in f32. Where e2m1 is packed
// along K, it is two matmuls, over the even and the odd K indices.
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

/// The f32 factors 2^(s - 127) of an operand's e8m0 scales ([..., M or N, K / group]), each
/// decoded once, laid out so that the operand's inner dimension walks them contiguously or
/// not at all: [..., M, K / group] for the lhs (one factor per `group` values along K),
/// [..., K / group, N] for the rhs (consecutive N, consecutive factors). Read in the rhs's
/// own scale layout, a vector of N values would gather scale bytes `K / group` apart and
/// decode one per value.
Value decodedScaleFactors(OpBuilder &b, Location loc, Value scale, bool isRhs) {
  auto scaleType = cast<RankedTensorType>(scale.getType());
  unsigned rank = scaleType.getRank();
  SmallVector<int64_t> shape(scaleType.getShape());
  SmallVector<unsigned> fromFactor = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  if (isRhs) {
    std::swap(shape[rank - 1], shape[rank - 2]);
    std::swap(fromFactor[rank - 1], fromFactor[rank - 2]);
  }
  SmallVector<AffineMap> maps = {
      AffineMap::getPermutationMap(fromFactor, b.getContext()),
      b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{scale}, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(b, loc, decodeE8M0(b, loc, args[0]));
             })
      .getResult(0);
}

/// One operand of tt.dot_scaled as an f32 tensor of `logicalShape` ([..., M, K] for the lhs,
/// [..., K, N] for the rhs), or with `kParity` the half of it at even (0) or odd (1) K:
/// logical K index 2j + kParity at position j. `packedDim` is the dimension e2m1 packs two
/// values along; `factors` (if any) are decodedScaleFactors, one per `group` values of K.
Value scaledOperandAsF32(OpBuilder &b, Location loc, Value value, Value factors, int64_t group,
                         tt::ScaleDotElemType format, unsigned packedDim, bool isRhs,
                         ArrayRef<int64_t> logicalShape, std::optional<int64_t> kParity) {
  unsigned rank = logicalShape.size();
  unsigned kDim = isRhs ? rank - 2 : rank - 1;
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
        if (format == tt::ScaleDotElemType::E2M1 && kParity && packedDim == kDim) {
          // Byte j holds K indices 2j and 2j + 1: one nibble of every byte, read in order.
          element = e2m1NibbleAt(b, loc, value, indices, /*high=*/*kParity == 1);
        } else {
          SmallVector<Value> at(indices);
          if (kParity)
            at[kDim] = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, indices[kDim], index(2)), index(*kParity));
          if (format == tt::ScaleDotElemType::E2M1) {
            element = e2m1ElementAt(b, loc, value, at, packedDim);
          } else {
            element = tensor::ExtractOp::create(b, loc, value, at);
            element = arith::ExtFOp::create(b, loc, b.getF32Type(), element);
          }
        }
        if (factors) {
          // Factors are [..., M, K / group] for the lhs and [..., K / group, N] for the rhs:
          // the operand's indices with K divided by the group (for one parity,
          // (2j + p) / group = j / (group / 2), as groups are even).
          SmallVector<Value> factorIndices(indices);
          factorIndices[kDim] =
              arith::DivUIOp::create(b, loc, indices[kDim], index(kParity ? group / 2 : group));
          element = arith::MulFOp::create(
              b, loc, element, tensor::ExtractOp::create(b, loc, factors, factorIndices));
        }
        linalg::YieldOp::create(b, loc, element);
      });
  return generic.getResult(0);
}

/// acc + lhs @ rhs: linalg.matmul, or linalg.batch_matmul for 3-D operands.
Value matmulInto(OpBuilder &b, Location loc, Value lhs, Value rhs, Value acc) {
  if (cast<RankedTensorType>(acc.getType()).getRank() == 2)
    return linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs}, ValueRange{acc}).getResult(0);
  return linalg::BatchMatmulOp::create(b, loc, ValueRange{lhs, rhs}, ValueRange{acc})
      .getResult(0);
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
    bool bPacked = op.getBElemType() == tt::ScaleDotElemType::E2M1;
    int64_t k = aShape.back() * (aPacked && op.getLhsKPack() ? 2 : 1);
    Location loc = op.getLoc();
    Value aScale = adaptor.getAScale(), bScale = adaptor.getBScale();
    auto groupOf = [&](Value scale) {
      return scale ? k / cast<RankedTensorType>(scale.getType()).getShape().back() : 0;
    };
    int64_t aGroup = groupOf(aScale), bGroup = groupOf(bScale);
    Value aFactors = aScale ? decodedScaleFactors(rewriter, loc, aScale, /*isRhs=*/false) : Value();
    Value bFactors = bScale ? decodedScaleFactors(rewriter, loc, bScale, /*isRhs=*/true) : Value();
    unsigned aPackedDim = op.getLhsKPack() ? rank - 1 : rank - 2;
    unsigned bPackedDim = op.getRhsKPack() ? rank - 2 : rank - 1;
    auto operands = [&](int64_t kLength, std::optional<int64_t> parity) {
      SmallVector<int64_t> lhsShape(type.getShape()), rhsShape(type.getShape());
      lhsShape.back() = kLength;
      rhsShape[rank - 2] = kLength;
      Value lhs = scaledOperandAsF32(rewriter, loc, adaptor.getA(), aFactors, aGroup,
                                     op.getAElemType(), aPackedDim, /*isRhs=*/false, lhsShape,
                                     parity);
      Value rhs = scaledOperandAsF32(rewriter, loc, adaptor.getB(), bFactors, bGroup,
                                     op.getBElemType(), bPackedDim, /*isRhs=*/true, rhsShape,
                                     parity);
      return std::make_pair(lhs, rhs);
    };
    // e2m1 packed along K: logical element k is a nibble of byte k / 2, and a loop over K
    // would assemble each vector of bytes lane by lane. The product is instead the sum of
    // the products at even and at odd K, each of whose operands reads one nibble of every
    // byte in order (the other operand's rows or columns 2j + parity).
    bool splitK = ((aPacked && op.getLhsKPack()) || (bPacked && op.getRhsKPack())) &&
                  k % 2 == 0 && aGroup % 2 == 0 && bGroup % 2 == 0;
    Value result;
    if (splitK) {
      auto [evenA, evenB] = operands(k / 2, 0);
      auto [oddA, oddB] = operands(k / 2, 1);
      result = matmulInto(rewriter, loc, oddA, oddB,
                          matmulInto(rewriter, loc, evenA, evenB, adaptor.getC()));
    } else {
      auto [a, b] = operands(k, std::nullopt);
      result = matmulInto(rewriter, loc, a, b, adaptor.getC());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateDotPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotConversion, DotScaledConversion>(converter, patterns.getContext());
}

} // namespace tritium
