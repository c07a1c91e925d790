//===- DataMovementPatterns.cpp - cat, join, split, gather, histogram -----===//

#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {
namespace {

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> attrs;
  for (int64_t v : values)
    attrs.push_back(b.getIndexAttr(v));
  return attrs;
}

/// `src` written into `dest` at `offsets`, with `src`'s shape (padded with unit dims).
Value insertAt(OpBuilder &b, Location loc, Value src, Value dest, ArrayRef<int64_t> offsets,
               ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> strides(sizes.size(), 1);
  return tensor::InsertSliceOp::create(b, loc, src, dest, indexAttrs(b, offsets),
                                       indexAttrs(b, sizes), indexAttrs(b, strides));
}

/// tl.cat: the two operands one after the other along dimension 0.
struct CatConversion : OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto partType = cast<RankedTensorType>(adaptor.getLhs().getType());
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    SmallVector<int64_t> offsets(type.getRank(), 0);
    result = insertAt(rewriter, loc, adaptor.getLhs(), result, offsets, partType.getShape());
    offsets[0] = partType.getDimSize(0);
    result = insertAt(rewriter, loc, adaptor.getRhs(), result, offsets, partType.getShape());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tl.join: a new minor dimension of size 2 holding lhs at 0 and rhs at 1.
struct JoinConversion : OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    SmallVector<int64_t> sizes(type.getShape());
    sizes.back() = 1;
    SmallVector<int64_t> offsets(type.getRank(), 0);
    result = insertAt(rewriter, loc, adaptor.getLhs(), result, offsets, sizes);
    offsets.back() = 1;
    result = insertAt(rewriter, loc, adaptor.getRhs(), result, offsets, sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tl.split: the two halves of a minor dimension of size 2.
struct SplitConversion : OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    auto partType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getOutLHS().getType()));
    SmallVector<int64_t> sizes(srcType.getShape());
    sizes.back() = 1;
    SmallVector<int64_t> strides(sizes.size(), 1);
    SmallVector<Value> halves;
    for (int64_t half = 0; half < 2; ++half) {
      SmallVector<int64_t> offsets(srcType.getRank(), 0);
      offsets.back() = half;
      halves.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, partType, adaptor.getSrc(), indexAttrs(rewriter, offsets),
          indexAttrs(rewriter, sizes), indexAttrs(rewriter, strides)));
    }
    rewriter.replaceOp(op, halves);
    return success();
  }
};

/// tl.gather: result[i] = src[i with i[axis] replaced by indices[i]].
struct GatherConversion : OpConversionPattern<tt::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    unsigned rank = type.getRank();
    unsigned axis = op.getAxis();
    Value src = adaptor.getSrc();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(rank));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{adaptor.getIndices()}, ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> indices;
          for (unsigned d = 0; d < rank; ++d)
            indices.push_back(d == axis ? arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                                     args[0])
                                              .getResult()
                                        : linalg::IndexOp::create(b, loc, d).getResult());
          linalg::YieldOp::create(b, loc,
                                  ValueRange{tensor::ExtractOp::create(b, loc, src, indices)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tl.histogram: counts of each value in [0, bins); other values (and masked lanes) are
/// not counted.
struct HistogramConversion : OpConversionPattern<tt::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Type countType = type.getElementType();
    Value counts = allocateTile(rewriter, loc, type);
    Value zero = zeroOf(rewriter, loc, countType);
    linalg::FillOp::create(rewriter, loc, ValueRange{zero}, ValueRange{counts});
    Value bins = arith::ConstantIntOp::create(rewriter, loc, type.getDimSize(0), 64);
    forEachIndex(rewriter, loc, srcType.getShape(), [&](OpBuilder &b, Location loc,
                                                        ValueRange indices) {
      Value value = tensor::ExtractOp::create(b, loc, adaptor.getSrc(), indices);
      Value wide = value.getType() == b.getI64Type()
                       ? value
                       : arith::ExtSIOp::create(b, loc, b.getI64Type(), value).getResult();
      Value inRange = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, wide,
                                arith::ConstantIntOp::create(b, loc, 0, 64)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, wide, bins));
      if (adaptor.getMask()) {
        Value mask = adaptor.getMask();
        if (isa<RankedTensorType>(mask.getType()))
          mask = tensor::ExtractOp::create(b, loc, mask, indices);
        inRange = arith::AndIOp::create(b, loc, inRange, mask);
      }
      scf::IfOp::create(b, loc, inRange, [&](OpBuilder &b, Location loc) {
        Value bin = arith::IndexCastOp::create(b, loc, b.getIndexType(), wide);
        Value count = memref::LoadOp::create(b, loc, counts, ValueRange{bin});
        Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(countType, 1));
        memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, count, one), counts,
                                ValueRange{bin});
        scf::YieldOp::create(b, loc);
      });
    });
    rewriter.replaceOp(op, tileBufferAsTensor(rewriter, loc, counts, type));
    return success();
  }
};

/// tl.map_elementwise: the region applied to each element (one element per call).
struct MapElementwiseConversion : OpConversionPattern<tt::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getPack() != 1)
      return op.emitError("tritium lowers map_elementwise with pack = 1 only (got pack = ")
             << op.getPack() << ")";
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), resultTypes)))
      return failure();
    auto shapeType = cast<RankedTensorType>(resultTypes[0]);
    unsigned rank = shapeType.getRank();
    SmallVector<Value> outs;
    for (Type t : resultTypes) {
      auto tensorType = cast<RankedTensorType>(t);
      outs.push_back(tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                             tensorType.getElementType()));
    }
    SmallVector<AffineMap> maps(adaptor.getSrcs().size() + outs.size(),
                                rewriter.getMultiDimIdentityMap(rank));
    Block &body = op.getScalarOp().front();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultTypes, adaptor.getSrcs(), outs, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          IRMapping mapping;
          for (auto [arg, value] : llvm::zip(body.getArguments(), args))
            mapping.map(arg, value);
          for (Operation &inner : body.without_terminator())
            b.clone(inner, mapping);
          SmallVector<Value> results;
          for (Value v : body.getTerminator()->getOperands())
            results.push_back(mapping.lookupOrDefault(v));
          linalg::YieldOp::create(b, loc, results);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CatConversion, JoinConversion, SplitConversion, GatherConversion,
               HistogramConversion, MapElementwiseConversion>(converter, patterns.getContext());
}

} // namespace tritium
