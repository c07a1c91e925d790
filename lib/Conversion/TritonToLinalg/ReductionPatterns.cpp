//===- ReductionPatterns.cpp - tt.reduce and tt.scan ----------------------===//
//
// A reduction whose combiner is one op with a known identity (sum, max, ...) is a linalg.reduce
// over the whole axis starting from that identity. Other combiners (argmin/argmax over two
// operands, user functions) have no identity: they combine neighbouring pairs level by level
// (axes are powers of two), each level a parallel linalg.generic, as a GPU's tree does.
// Either way the loops vectorize. A scan of a 1-D tile walks it in chunks of 16, each chunk
// scanned by doubling in a tile of its own (which stays in registers) and combined with the
// running value of the chunks before it; a 2-D tile scanned along its rows does so row by row;
// along the innermost axis of a short row or a larger tile it doubles its reach pass by pass
// (each pass a parallel linalg.generic); along an outer axis it walks the axis with a loop,
// combining each slice (a contiguous row) with the running one.
//
//===----------------------------------------------------------------------===//

#include "TileElementMaterializer.h"
#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {

/// The identity element of a combiner that is a single op of its two arguments (`a + b`,
/// `max(a, b)`, ...), or null. Reducing from the identity over the whole axis leaves no first
/// slice to peel and no odd-sized remainder, so the loop vectorizes without a scalar tail.
TypedAttr combinerIdentity(Region &combiner) {
  Block &body = combiner.front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return {};
  Operation &op = body.front();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      body.getTerminator()->getNumOperands() != 1 ||
      body.getTerminator()->getOperand(0) != op.getResult(0))
    return {};
  Value a = body.getArgument(0), b = body.getArgument(1);
  if (!((op.getOperand(0) == a && op.getOperand(1) == b) ||
        (op.getOperand(0) == b && op.getOperand(1) == a)))
    return {};
  Type type = op.getResult(0).getType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    std::optional<APFloat> identity;
    if (isa<arith::AddFOp>(op))
      identity = APFloat::getZero(semantics, /*Negative=*/true);
    else if (isa<arith::MulFOp>(op))
      identity = APFloat::getOne(semantics);
    else if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op)) // NaN gives way to any number
      identity = APFloat::getNaN(semantics);
    else if (isa<arith::MaximumFOp>(op))
      identity = APFloat::getInf(semantics, /*Negative=*/true);
    else if (isa<arith::MinimumFOp>(op))
      identity = APFloat::getInf(semantics);
    if (!identity)
      return {};
    return FloatAttr::get(type, *identity);
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return {};
  unsigned width = intType.getWidth();
  std::optional<APInt> identity;
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    identity = APInt::getZero(width);
  else if (isa<arith::MulIOp>(op))
    identity = APInt(width, 1);
  else if (isa<arith::AndIOp, arith::MinUIOp>(op))
    identity = APInt::getAllOnes(width);
  else if (isa<arith::MaxSIOp>(op))
    identity = APInt::getSignedMinValue(width);
  else if (isa<arith::MinSIOp>(op))
    identity = APInt::getSignedMaxValue(width);
  if (!identity)
    return {};
  return IntegerAttr::get(type, *identity);
}

namespace {

/// Offsets, sizes and strides of a slice along one axis of a tensor of `type`: the whole
/// tensor but `[offset, offset + size * stride)` with `stride` along `axis`.
struct AxisSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  AxisSlice(OpBuilder &b, RankedTensorType type, int64_t axis, OpFoldResult offset, int64_t size,
            int64_t stride = 1)
      : offsets(type.getRank(), b.getIndexAttr(0)), strides(type.getRank(), b.getIndexAttr(1)) {
    for (int64_t d : type.getShape())
      sizes.push_back(b.getIndexAttr(d));
    offsets[axis] = offset;
    sizes[axis] = b.getIndexAttr(size);
    strides[axis] = b.getIndexAttr(stride);
  }
};

/// `src[..., offset : offset + size, ...]` along `axis`; when `dropAxis`, the (unit) axis
/// is removed from the result type.
Value sliceAlong(OpBuilder &b, Location loc, Value src, int64_t axis, OpFoldResult offset,
                 int64_t size, bool dropAxis) {
  auto type = cast<RankedTensorType>(src.getType());
  AxisSlice slice(b, type, axis, offset, size);
  SmallVector<int64_t> shape(type.getShape());
  if (dropAxis)
    shape.erase(shape.begin() + axis);
  else
    shape[axis] = size;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resultType, src, slice.offsets, slice.sizes,
                                        slice.strides);
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

/// Every other element of `src` along `axis`, from `offset` (0: even ones, 1: odd ones).
Value everyOtherAlong(OpBuilder &b, Location loc, Value src, int64_t axis, int64_t offset) {
  auto type = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] /= 2;
  AxisSlice slice(b, type, axis, b.getIndexAttr(offset), shape[axis], /*stride=*/2);
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resultType, src, slice.offsets, slice.sizes,
                                        slice.strides);
}

/// Reduces a power-of-two axis as a balanced tree of neighbouring pairs: each level combines
/// elements 2i and 2i+1 of all operands at once, a parallel (vectorizable) elementwise
/// application of the combiner; the axis halves until one element is left. The order of
/// combination is that of a GPU's reduction (contiguous ranges, left before right), so
/// associative combiners that are not commutative keep their meaning.
SmallVector<Value> reduceAsPairTree(OpBuilder &b, Location loc, Region &combiner, ValueRange srcs,
                                    int64_t axis) {
  SmallVector<Value> current(srcs);
  while (cast<RankedTensorType>(current[0].getType()).getDimSize(axis) > 1) {
    SmallVector<Value> lhs, rhs;
    for (Value v : current) {
      lhs.push_back(everyOtherAlong(b, loc, v, axis, 0));
      rhs.push_back(everyOtherAlong(b, loc, v, axis, 1));
    }
    current = combineTensors(b, loc, combiner, lhs, rhs);
  }
  for (Value &v : current)
    v = sliceAlong(b, loc, v, axis, b.getIndexAttr(0), 1, /*dropAxis=*/true);
  return current;
}

/// linalg.reduce of `srcs` along `axis` into `inits`, whose body is the combiner.
SmallVector<Value> reduceWithLinalg(OpBuilder &b, Location loc, Region &combiner, ValueRange srcs,
                                    ValueRange inits, int64_t axis) {
  auto reduce = linalg::ReduceOp::create(
      b, loc, srcs, inits, SmallVector<int64_t>{axis},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        unsigned n = args.size() / 2;
        linalg::YieldOp::create(
            b, loc, cloneCombiner(b, combiner, args.drop_front(n), args.take_front(n), true));
      });
  return reduce.getResults();
}

struct ReduceConversion : OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  /// A reduction whose input is streamed from loads (stream-loads-into-stores marked it): a loop
  /// nest over the input tile folds each element, recomputed where it is loaded, into a buffer
  /// of the result's shape that starts at the identity. No input tile is materialized.
  Value reduceElementByElement(ConversionPatternRewriter &rewriter, Location loc,
                               tt::ReduceOp op, TypedAttr identity) const {
    Value src = op.getSrcs()[0];
    auto srcType = cast<RankedTensorType>(src.getType());
    int64_t axis = op.getAxis();
    Type element = getTypeConverter()->convertType(srcType.getElementType());
    SmallVector<int64_t> shape(srcType.getShape());
    shape.erase(shape.begin() + axis);
    auto resultType = RankedTensorType::get(shape, element);
    Value buffer = allocateTile(rewriter, loc, resultType);
    Value neutral = arith::ConstantOp::create(rewriter, loc, identity);
    linalg::FillOp::create(rewriter, loc, neutral, buffer);
    TileElementMaterializer elements(rewriter, *getTypeConverter());
    forEachIndex(rewriter, loc, srcType.getShape(),
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   Value value = elements.elementAt(b, loc, src, indices);
                   SmallVector<Value> at(indices);
                   at.erase(at.begin() + axis);
                   Value running = memref::LoadOp::create(b, loc, buffer, at);
                   Value next = cloneCombiner(b, op.getCombineOp(), {running}, {value}, true)[0];
                   memref::StoreOp::create(b, loc, next, buffer, at);
                 });
    return tileBufferAsTensor(rewriter, loc, buffer, resultType);
  }

  LogicalResult matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    ValueRange srcs = adaptor.getSrcs();
    int64_t size = cast<RankedTensorType>(srcs[0].getType()).getDimSize(axis);

    Region &combiner = op.getCombineOp();
    SmallVector<Value> results;
    TypedAttr identity = srcs.size() == 1 ? combinerIdentity(combiner) : nullptr;
    // A streamed input has no tensor to slice, whatever the axis' extent.
    if (identity && op->hasAttr(kReadAtUseAttr)) {
      results.push_back(reduceElementByElement(rewriter, loc, op, identity));
    } else if (size == 1) {
      for (Value src : srcs)
        results.push_back(sliceAlong(rewriter, loc, src, axis, rewriter.getIndexAttr(0), 1, true));
    } else if (identity) {
      // One op with an identity: linalg.reduce over the whole axis, from the identity.
      auto srcType = cast<RankedTensorType>(srcs[0].getType());
      SmallVector<int64_t> shape(srcType.getShape());
      shape.erase(shape.begin() + axis);
      Value empty = tensor::EmptyOp::create(rewriter, loc, shape, srcType.getElementType());
      Value neutral = arith::ConstantOp::create(rewriter, loc, identity);
      Value init = linalg::FillOp::create(rewriter, loc, neutral, empty).getResult(0);
      results = reduceWithLinalg(rewriter, loc, combiner, srcs, init, axis);
    } else {
      // Several operands (argmin, argmax) or another combiner: a tree of parallel steps (tensor
      // dimensions are powers of two, which the tt verifiers check).
      if (!llvm::isPowerOf2_64(size))
        return rewriter.notifyMatchFailure(op, "the reduced axis is not a power of two");
      results = reduceAsPairTree(rewriter, loc, combiner, srcs, axis);
    }
    // Reducing a 1-D tensor gives a scalar.
    for (Value &result : results)
      if (cast<RankedTensorType>(result.getType()).getRank() == 0)
        result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// `dest` with `src` written over it from `offset` along `axis`.
Value insertAlong(OpBuilder &b, Location loc, Value src, Value dest, int64_t axis,
                  OpFoldResult offset) {
  auto type = cast<RankedTensorType>(src.getType());
  AxisSlice slice(b, type, axis, offset, type.getDimSize(axis));
  return tensor::InsertSliceOp::create(b, loc, src, dest, slice.offsets, slice.sizes,
                                       slice.strides);
}

/// Elements per chunk of a chunked scan: one 512-bit vector of f32 (two of AVX2's).
constexpr int64_t kScanChunk = 16;

/// An inclusive scan along the innermost axis by doubling distances (Hillis and Steele): after
/// the pass at distance d, each element holds the combination of the 2d elements ending at it.
/// A pass combines two shifted copies of the whole tile at once, which vectorizes, where a walk
/// along the axis is one long dependency chain. Operands stay in
/// order (earlier elements on the left; reverse scans mirror it), as a sequential scan has them.
SmallVector<Value> scanByDoubling(OpBuilder &b, Location loc, Region &combiner, ValueRange srcs,
                                  int64_t axis, bool reverse) {
  int64_t size = cast<RankedTensorType>(srcs[0].getType()).getDimSize(axis);
  SmallVector<Value> current(srcs);
  for (int64_t distance = 1; distance < size; distance *= 2) {
    SmallVector<Value> earlier, later;
    for (Value v : current) {
      Value head = sliceAlong(b, loc, v, axis, b.getIndexAttr(0), size - distance, false);
      Value tail = sliceAlong(b, loc, v, axis, b.getIndexAttr(distance), size - distance, false);
      // A reverse scan accumulates from the end: the element further along comes first.
      earlier.push_back(reverse ? tail : head);
      later.push_back(reverse ? head : tail);
    }
    int64_t offset = reverse ? 0 : distance;
    SmallVector<Value> combined = combineTensors(b, loc, combiner, earlier, later);
    for (size_t i = 0; i < current.size(); ++i)
      current[i] = insertAlong(b, loc, combined[i], current[i], axis, b.getIndexAttr(offset));
  }
  return current;
}

/// An inclusive scan of a 1-D tile (a power of two, at least two chunks) in one walk over its
/// chunks of kScanChunk elements: each step scans one chunk on its own by doubling (log2
/// kScanChunk passes over a vector's worth of elements, which stay in registers), combines it
/// with the running value of the chunks before it, writes it back in place and takes its last
/// element on as the running value. The tile is read and written once, where doubling passes
/// over the whole tile would stream it through memory once per pass. Reverse scans walk from
/// the end and mirror each chunk's scan. Operands keep their order as in scanByDoubling: the
/// running value from earlier elements is always the combiner's first argument.
SmallVector<Value> scanInChunks(OpBuilder &b, Location loc, Region &combiner, ValueRange srcs,
                                bool reverse) {
  auto type = cast<RankedTensorType>(srcs[0].getType());
  int64_t axis = type.getRank() - 1;
  int64_t chunks = type.getDimSize(axis) / kScanChunk;
  unsigned n = srcs.size();
  auto chunkStart = [&](OpBuilder &b, Location loc, Value k) -> Value {
    Value position = k;
    if (reverse)
      position = arith::SubIOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, chunks - 1), k);
    return arith::MulIOp::create(b, loc, position,
                                 arith::ConstantIndexOp::create(b, loc, kScanChunk));
  };
  // The chunk of `tiles` at `start`, scanned, and combined with `carried` (the running value of
  // the chunks before it) when there are chunks before it.
  auto scanChunk = [&](OpBuilder &b, Location loc, ValueRange tiles, Value start,
                       ValueRange carried) {
    // Each chunk is copied into a tile of its own: a buffer of constant size, indexed at
    // constant positions once the loops over its elements unroll, which LLVM keeps in
    // registers. Scanned in place in the whole tile, its passes store and load overlapping
    // vectors through memory, and every load waits for a store it cannot forward.
    SmallVector<Value> chunk;
    for (Value tile : tiles) {
      Value slice = sliceAlong(b, loc, tile, axis, start, kScanChunk, false);
      auto sliceType = cast<RankedTensorType>(slice.getType());
      Value own = tensor::EmptyOp::create(b, loc, sliceType.getShape(), sliceType.getElementType());
      chunk.push_back(linalg::CopyOp::create(b, loc, slice, own).getResult(0));
    }
    chunk = scanByDoubling(b, loc, combiner, chunk, axis, reverse);
    if (carried.empty())
      return chunk;
    // In place: the chunk enters as the generic's output and the running value is used from
    // above.
    SmallVector<Type> chunkTypes;
    for (Value v : chunk)
      chunkTypes.push_back(v.getType());
    SmallVector<AffineMap> maps(n, b.getMultiDimIdentityMap(1));
    auto generic = linalg::GenericOp::create(
        b, loc, chunkTypes, ValueRange{}, chunk, maps,
        SmallVector<utils::IteratorType>(1, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, cloneCombiner(b, combiner, carried, args, false));
        });
    return SmallVector<Value>(generic.getResults());
  };
  // The running value after a chunk: its last element (its first, reverse), as scalars (a value
  // that aliased the tile would make bufferization copy each chunk out and back).
  auto step = [&](OpBuilder &b, Location loc, ValueRange tiles, Value k, ValueRange carried) {
    Value start = chunkStart(b, loc, k);
    SmallVector<Value> scanned = scanChunk(b, loc, tiles, start, carried);
    Value edge = arith::ConstantIndexOp::create(b, loc, reverse ? 0 : kScanChunk - 1);
    SmallVector<Value> next;
    for (Value v : scanned)
      next.push_back(tensor::ExtractOp::create(b, loc, v, ValueRange{edge}));
    for (unsigned i = 0; i < n; ++i)
      next.push_back(insertAlong(b, loc, scanned[i], tiles[i], axis, start));
    return next;
  };
  // The first chunk has nothing before it; each later one is a step of the walk.
  SmallVector<Value> first =
      step(b, loc, srcs, arith::ConstantIndexOp::create(b, loc, 0), ValueRange{});
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, one, arith::ConstantIndexOp::create(b, loc, chunks), one, first,
      [&](OpBuilder &b, Location loc, Value k, ValueRange iterArgs) {
        scf::YieldOp::create(
            b, loc, step(b, loc, iterArgs.drop_front(n), k, iterArgs.take_front(n)));
      });
  return SmallVector<Value>(loop.getResults().drop_front(n));
}

/// A scan along the rows of a 2-D tile (Inductor's [XBLOCK, R0_BLOCK] scans), each row in turn
/// as a 1-D tile (scanInChunks) written back in place: one walk over each row instead of
/// log2(row length) doubling passes over the whole tile.
SmallVector<Value> scanRowsInChunks(OpBuilder &b, Location loc, Region &combiner, ValueRange srcs,
                                    bool reverse) {
  auto type = cast<RankedTensorType>(srcs[0].getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, zero, arith::ConstantIndexOp::create(b, loc, type.getDimSize(0)), one, srcs,
      [&](OpBuilder &b, Location loc, Value row, ValueRange tiles) {
        SmallVector<Value> rowTiles;
        for (Value tile : tiles)
          rowTiles.push_back(sliceAlong(b, loc, tile, 0, row, 1, /*dropAxis=*/true));
        SmallVector<Value> scanned = scanInChunks(b, loc, combiner, rowTiles, reverse);
        AxisSlice slice(b, type, 0, row, 1);
        SmallVector<Value> next;
        for (auto [rowScan, tile] : llvm::zip(scanned, tiles))
          next.push_back(tensor::InsertSliceOp::create(b, loc, rowScan, tile, slice.offsets,
                                                       slice.sizes, slice.strides));
        scf::YieldOp::create(b, loc, next);
      });
  return SmallVector<Value>(loop.getResults());
}

struct ScanConversion : OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    bool reverse = op.getReverse();
    ValueRange srcs = adaptor.getSrcs();
    auto srcType = cast<RankedTensorType>(srcs[0].getType());
    int64_t size = srcType.getDimSize(axis);
    // Along an outer axis, each step of the walk below combines whole contiguous rows, which
    // vectorizes as it is; along the innermost axis, doubling passes do.
    if (srcType.getRank() == 1 && size >= 2 * kScanChunk) {
      rewriter.replaceOp(op, scanInChunks(rewriter, loc, op.getCombineOp(), srcs, reverse));
      return success();
    }
    if (srcType.getRank() == 2 && axis == 1 && size >= 2 * kScanChunk) {
      rewriter.replaceOp(op, scanRowsInChunks(rewriter, loc, op.getCombineOp(), srcs, reverse));
      return success();
    }
    if (axis == srcType.getRank() - 1 && size > 1) {
      rewriter.replaceOp(op,
                         scanByDoubling(rewriter, loc, op.getCombineOp(), srcs, axis, reverse));
      return success();
    }
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
          for (unsigned i = 0; i < n; ++i)
            next.push_back(insertAlong(b, loc, running[i], iterArgs[n + i], axis, index));
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
