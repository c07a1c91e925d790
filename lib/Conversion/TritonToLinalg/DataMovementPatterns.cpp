//===- DataMovementPatterns.cpp - cat/join/split/gather/histogram/map ------===//

#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
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

/// Clones the scalar body of `op` at the rewriter's insertion point with `args` for its block
/// arguments; returns the values it returns. A body with branches (if/else or early returns
/// in the scalar function) keeps its blocks inside an scf.execute_region, entered by a branch
/// that passes the arguments, its returns becoming scf.yield.
SmallVector<Value> inlineScalarBody(ConversionPatternRewriter &rewriter, tt::MapElementwiseOp op,
                                    ValueRange args) {
  Region &body = op.getScalarOp();
  if (body.hasOneBlock()) {
    IRMapping mapping;
    for (auto [arg, value] : llvm::zip(body.front().getArguments(), args))
      mapping.map(arg, value);
    for (Operation &inner : body.front().without_terminator())
      rewriter.clone(inner, mapping);
    SmallVector<Value> results;
    for (Value v : body.front().getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(v));
    return results;
  }
  Location loc = op.getLoc();
  SmallVector<Type> scalarTypes;
  body.walk([&](tt::MapElementwiseReturnOp ret) {
    scalarTypes.assign(ret.getOperandTypes().begin(), ret.getOperandTypes().end());
    return WalkResult::interrupt();
  });
  auto region = scf::ExecuteRegionOp::create(rewriter, loc, scalarTypes);
  Block *entry = rewriter.createBlock(&region.getRegion());
  IRMapping mapping;
  rewriter.cloneRegionBefore(body, region.getRegion(), region.getRegion().end(), mapping);
  rewriter.setInsertionPointToEnd(entry);
  cf::BranchOp::create(rewriter, loc, mapping.lookup(&body.front()), args);
  for (Block &block : body)
    if (auto ret = dyn_cast<tt::MapElementwiseReturnOp>(mapping.lookup(&block)->getTerminator())) {
      rewriter.setInsertionPoint(ret);
      rewriter.replaceOpWithNewOp<scf::YieldOp>(ret, ret.getOperands());
    }
  rewriter.setInsertionPointAfter(region);
  return SmallVector<Value>(region.getResults());
}

/// tl.map_elementwise with pack = 1: the region applied to each element by a linalg.generic.
void mapOneElementPerCall(ConversionPatternRewriter &rewriter, tt::MapElementwiseOp op,
                          ValueRange srcs, ArrayRef<Type> resultTypes, SmallVector<Value> &results) {
  Location loc = op.getLoc();
  unsigned rank = cast<RankedTensorType>(resultTypes[0]).getRank();
  SmallVector<Value> outs;
  for (Type t : resultTypes) {
    auto tensorType = cast<RankedTensorType>(t);
    outs.push_back(tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                           tensorType.getElementType()));
  }
  SmallVector<AffineMap> maps(srcs.size() + outs.size(), rewriter.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      rewriter, loc, resultTypes, srcs, outs, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        rewriter.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        SmallVector<Value> values = inlineScalarBody(rewriter, op, args.take_front(srcs.size()));
        linalg::YieldOp::create(rewriter, loc, values);
      });
  rewriter.setInsertionPointAfter(generic);
  results.assign(generic.getResults().begin(), generic.getResults().end());
}

/// tl.map_elementwise with pack = p > 1: each call takes p consecutive elements (row-major)
/// of every input, as arguments input-major (input i, lane j is argument i*p + j), and
/// returns p values of every result, result-major. A loop over the groups of the flattened
/// tiles inserts them.
LogicalResult mapPackedElements(ConversionPatternRewriter &rewriter, tt::MapElementwiseOp op,
                                ValueRange srcs, ArrayRef<Type> resultTypes,
                                SmallVector<Value> &results) {
  Location loc = op.getLoc();
  int64_t pack = op.getPack();
  auto shapeType = cast<RankedTensorType>(resultTypes[0]);
  int64_t count = shapeType.getNumElements();
  if (count % pack != 0)
    return op.emitError("tl.map_elementwise: pack = ")
           << pack << " does not divide the " << count << " elements of the tile";
  SmallVector<ReassociationIndices> allDims(1);
  for (unsigned d = 0; d < shapeType.getRank(); ++d)
    allDims[0].push_back(d);
  auto flatten = [&](Value v) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getRank() == 1)
      return v;
    return tensor::CollapseShapeOp::create(rewriter, loc, v, allDims);
  };
  SmallVector<Value> flatSrcs, inits;
  for (Value src : srcs)
    flatSrcs.push_back(flatten(src));
  for (Type t : resultTypes)
    inits.push_back(tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{count},
                                            cast<RankedTensorType>(t).getElementType()));
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto loop = scf::ForOp::create(
      rewriter, loc, index(rewriter, 0), index(rewriter, count), index(rewriter, pack), inits,
      [&](OpBuilder &b, Location loc, Value first, ValueRange partial) {
        SmallVector<Value> lanes(pack);
        for (int64_t j = 0; j < pack; ++j)
          lanes[j] = arith::AddIOp::create(b, loc, first, index(b, j));
        SmallVector<Value> args;
        for (Value src : flatSrcs)
          for (int64_t j = 0; j < pack; ++j)
            args.push_back(tensor::ExtractOp::create(b, loc, src, lanes[j]));
        rewriter.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        SmallVector<Value> values = inlineScalarBody(rewriter, op, args);
        SmallVector<Value> updated(partial.begin(), partial.end());
        for (size_t r = 0; r < updated.size(); ++r)
          for (int64_t j = 0; j < pack; ++j)
            updated[r] = tensor::InsertOp::create(rewriter, loc, values[r * pack + j], updated[r],
                                                  lanes[j]);
        scf::YieldOp::create(rewriter, loc, updated);
      });
  rewriter.setInsertionPointAfter(loop);
  for (auto [flat, type] : llvm::zip(loop.getResults(), resultTypes)) {
    auto tensorType = cast<RankedTensorType>(type);
    results.push_back(tensorType.getRank() == 1
                          ? Value(flat)
                          : Value(tensor::ExpandShapeOp::create(rewriter, loc, tensorType, flat,
                                                                allDims)));
  }
  return success();
}

struct MapElementwiseConversion : OpConversionPattern<tt::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), resultTypes)))
      return failure();
    SmallVector<Value> results;
    if (op.getPack() == 1)
      mapOneElementPerCall(rewriter, op, adaptor.getSrcs(), resultTypes, results);
    else if (failed(mapPackedElements(rewriter, op, adaptor.getSrcs(), resultTypes, results)))
      return failure();
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CatConversion, JoinConversion, SplitConversion, GatherConversion,
               HistogramConversion, MapElementwiseConversion>(converter, patterns.getContext());
}

} // namespace tritium
