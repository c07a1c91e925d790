//===- ReductionPatterns.cpp - tt.reduce and tt.scan ----------------------===//
//
// Triton's combiners have no identity element, so a reduction starts from the first slice
// along the axis and folds the rest into it with linalg.reduce, whose body is the combiner.
// A scan walks the axis with a loop, combining each slice with the running one.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {
namespace {

/// `src[..., offset : offset + size, ...]` along `axis`; when `dropAxis`, the (unit) axis
/// is removed from the result type.
Value sliceAlong(OpBuilder &b, Location loc, Value src, int64_t axis, OpFoldResult offset,
                 int64_t size, bool dropAxis) {
  auto type = cast<RankedTensorType>(src.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d : type.getShape())
    sizes.push_back(b.getIndexAttr(d));
  offsets[axis] = offset;
  sizes[axis] = b.getIndexAttr(size);
  SmallVector<int64_t> shape(type.getShape());
  if (dropAxis)
    shape.erase(shape.begin() + axis);
  else
    shape[axis] = size;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resultType, src, offsets, sizes, strides);
}

/// Clones the combiner `region` into the builder's block. `lhs` are the running values
/// (the combiner's first arguments), `rhs` the new ones. Float additions and products may
/// be reassociated: Triton fixes no reduction order, and it lets them vectorize.
SmallVector<Value> cloneCombiner(OpBuilder &b, Region &region, ValueRange lhs, ValueRange rhs,
                                 bool allowReassociation) {
  Block &body = region.front();
  IRMapping mapping;
  unsigned n = lhs.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(body.getArgument(i), lhs[i]);
    mapping.map(body.getArgument(n + i), rhs[i]);
  }
  for (Operation &op : body.without_terminator()) {
    Operation *clone = b.clone(op, mapping);
    if (allowReassociation && isa<arith::AddFOp, arith::MulFOp>(clone))
      clone->setAttr("fastmath",
                     arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::reassoc));
  }
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

struct ReduceConversion : OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    ValueRange srcs = adaptor.getSrcs();
    int64_t size = cast<RankedTensorType>(srcs[0].getType()).getDimSize(axis);

    SmallVector<Value> inits, rests;
    for (Value src : srcs) {
      inits.push_back(sliceAlong(rewriter, loc, src, axis, rewriter.getIndexAttr(0), 1, true));
      if (size > 1)
        rests.push_back(
            sliceAlong(rewriter, loc, src, axis, rewriter.getIndexAttr(1), size - 1, false));
    }
    SmallVector<Value> results = inits;
    if (size > 1) {
      auto reduce = linalg::ReduceOp::create(
          rewriter, loc, rests, inits, SmallVector<int64_t>{axis},
          [&](OpBuilder &b, Location loc, ValueRange args) {
            unsigned n = args.size() / 2;
            SmallVector<Value> combined = cloneCombiner(b, op.getCombineOp(), args.drop_front(n),
                                                        args.take_front(n), true);
            linalg::YieldOp::create(b, loc, combined);
          });
      results = reduce.getResults();
    }
    // Reducing a 1-D tensor gives a scalar.
    for (Value &result : results)
      if (cast<RankedTensorType>(result.getType()).getRank() == 0)
        result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Elementwise application of the combiner to two tensors of equal shape.
SmallVector<Value> combineTensors(OpBuilder &b, Location loc, Region &combiner, ValueRange lhs,
                                  ValueRange rhs) {
  auto type = cast<RankedTensorType>(lhs[0].getType());
  unsigned rank = type.getRank();
  SmallVector<Value> inputs(lhs);
  inputs.append(rhs.begin(), rhs.end());
  SmallVector<Value> outs;
  SmallVector<Type> resultTypes;
  for (Value v : lhs) {
    auto t = cast<RankedTensorType>(v.getType());
    outs.push_back(tensor::EmptyOp::create(b, loc, t.getShape(), t.getElementType()));
    resultTypes.push_back(t);
  }
  SmallVector<AffineMap> maps(inputs.size() + outs.size(), b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, inputs, outs, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        unsigned n = lhs.size();
        linalg::YieldOp::create(
            b, loc, cloneCombiner(b, combiner, args.take_front(n), args.slice(n, n), false));
      });
  return generic.getResults();
}

struct ScanConversion : OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    bool reverse = op.getReverse();
    ValueRange srcs = adaptor.getSrcs();
    int64_t size = cast<RankedTensorType>(srcs[0].getType()).getDimSize(axis);
    // Position k of the walk is index k (forward) or size - 1 - k (reverse).
    auto position = [&](OpBuilder &b, Value k) -> Value {
      if (!reverse)
        return k;
      Value last = arith::ConstantIndexOp::create(b, loc, size - 1);
      return arith::SubIOp::create(b, loc, last, k);
    };
    SmallVector<Value> firsts;
    OpFoldResult firstIndex = rewriter.getIndexAttr(reverse ? size - 1 : 0);
    for (Value src : srcs)
      firsts.push_back(sliceAlong(rewriter, loc, src, axis, firstIndex, 1, false));
    // The running values start as the first slice, and the results start as the sources
    // (their first slice is already final).
    SmallVector<Value> carried(firsts);
    carried.append(srcs.begin(), srcs.end());
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value ub = arith::ConstantIndexOp::create(rewriter, loc, size);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    unsigned n = srcs.size();
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, carried,
        [&](OpBuilder &b, Location loc, Value k, ValueRange iterArgs) {
          Value index = position(b, k);
          SmallVector<Value> current;
          for (Value src : srcs)
            current.push_back(sliceAlong(b, loc, src, axis, index, 1, false));
          SmallVector<Value> running =
              combineTensors(b, loc, op.getCombineOp(), iterArgs.take_front(n), current);
          SmallVector<Value> next(running);
          for (unsigned i = 0; i < n; ++i) {
            Value result = iterArgs[n + i];
            auto type = cast<RankedTensorType>(result.getType());
            SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
            SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
            for (int64_t d : type.getShape())
              sizes.push_back(b.getIndexAttr(d));
            offsets[axis] = index;
            sizes[axis] = b.getIndexAttr(1);
            next.push_back(tensor::InsertSliceOp::create(b, loc, running[i], result, offsets,
                                                         sizes, strides));
          }
          scf::YieldOp::create(b, loc, next);
        });
    rewriter.replaceOp(op, loop.getResults().drop_front(n));
    return success();
  }
};

} // namespace

void populateReductionPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceConversion, ScanConversion>(converter, patterns.getContext());
}

} // namespace tritium
