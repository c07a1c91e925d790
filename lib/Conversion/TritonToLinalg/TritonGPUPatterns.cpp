//===- TritonGPUPatterns.cpp - TTGIR: layouts erased, semantics kept ------===//
//
// A layout says where values live, not what they are: convert_layout is the identity.
// Shared-memory tiles are buffers (memref), their views are subviews, asynchronous copies
// are synchronous (so waits and commit groups have nothing left to order), and barriers
// between the threads of one program are no-ops because a CPU program is one thread, and
// so are the shared-memory atomics plain read-modify-writes. The software pipeliner's
// stage predicates and masked regions keep their meaning (a comparison, an scf.if).
// Ops with no meaning on a CPU are rejected with the reason.
//
//===----------------------------------------------------------------------===//

#include "MicroscaleFormats.h"
#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"
#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

namespace tritium {
namespace {

struct ConvertLayoutConversion : OpConversionPattern<ttg::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// A tensor `value` written into the buffer `dest`.
void storeTensor(OpBuilder &b, Location loc, Value value, Value dest) {
  auto op = bufferization::MaterializeInDestinationOp::create(b, loc, TypeRange{}, value, dest);
  op.setWritable(true);
}

struct LocalAllocConversion : OpConversionPattern<ttg::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalAllocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    auto memdesc = cast<ttg::MemDescType>(op.getType());
    ArrayRef<int64_t> allocShape =
        memdesc.getAllocShape().empty() ? memdesc.getShape() : memdesc.getAllocShape();
    auto allocType = MemRefType::get(allocShape, type.getElementType());
    Value buffer;
    if (type.getElementType().isInteger(1)) {
      buffer = memref::AllocOp::create(rewriter, loc, allocType);
    } else {
      // Bytes first, typed view second: memdesc_reinterpret views the same bytes as another
      // element type, which memref.view allows only on an i8 buffer.
      int64_t bytes = allocType.getNumElements() * (type.getElementTypeBitWidth() / 8);
      Value raw = memref::AllocOp::create(rewriter, loc,
                                          MemRefType::get({bytes}, rewriter.getI8Type()),
                                          rewriter.getI64IntegerAttr(64));
      buffer = memref::ViewOp::create(rewriter, loc, allocType, raw,
                                      arith::ConstantIndexOp::create(rewriter, loc, 0),
                                      ValueRange{});
    }
    Value view = buffer;
    if (allocType.getShape() != type.getShape()) {
      // The memdesc views the first tile of a larger allocation.
      SmallVector<OpFoldResult> offsets(allocShape.size(), rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(allocShape.size(), rewriter.getIndexAttr(1));
      unsigned dropped = allocShape.size() - type.getRank();
      for (unsigned d = 0; d < allocShape.size(); ++d)
        sizes.push_back(rewriter.getIndexAttr(d < dropped ? 1 : allocShape[d]));
      view = memref::SubViewOp::create(rewriter, loc, buffer, offsets, sizes, strides);
    }
    view = memref::CastOp::create(rewriter, loc, type, view);
    if (adaptor.getSrc())
      storeTensor(rewriter, loc, adaptor.getSrc(), view);
    rewriter.replaceOp(op, view);
    return success();
  }
};

/// Buffers are freed by buffer deallocation once unused.
struct LocalDeallocConversion : OpConversionPattern<ttg::LocalDeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalDeallocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// The i8 buffer a shared tile's view was made from, found through the view ops tritium
/// creates (null when the tile arrives through a block argument).
Value rawBufferOf(Value tile) {
  while (Operation *def = tile.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def))
      return view.getSource();
    if (!isa<memref::CastOp, memref::SubViewOp, memref::TransposeOp, memref::ReinterpretCastOp>(
            def))
      return Value();
    tile = def->getOperand(0);
  }
  return Value();
}

/// The same bytes as another shape and element type: a memref.view of the tile's i8
/// allocation at the tile's byte offset.
struct MemDescReinterpretConversion : OpConversionPattern<ttg::MemDescReinterpretOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescReinterpretOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value raw = rawBufferOf(adaptor.getSrc());
    if (!raw)
      return op.emitError("tritium lowers ttg.memdesc_reinterpret of a shared tile whose "
                          "ttg.local_alloc is in the same function and reached through view "
                          "ops, not through a loop-carried or function argument");
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    auto srcType = cast<MemRefType>(adaptor.getSrc().getType());
    // The source's element offset within its typed allocation, in bytes.
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, adaptor.getSrc());
    Value byteOffset = arith::MulIOp::create(
        rewriter, loc, metadata.getOffset(),
        arith::ConstantIndexOp::create(rewriter, loc, srcType.getElementTypeBitWidth() / 8));
    Value view = memref::ViewOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()), raw, byteOffset,
        ValueRange{});
    rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    return success();
  }
};

/// A snapshot of the tile: later stores to it must not change the loaded tensor.
struct LocalLoadConversion : OpConversionPattern<ttg::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value copy = memref::AllocOp::create(rewriter, loc,
                                         MemRefType::get(type.getShape(), type.getElementType()));
    memref::CopyOp::create(rewriter, loc, adaptor.getSrc(), copy);
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(op, type, copy, /*restrict=*/true,
                                                           /*writable=*/true);
    return success();
  }
};

struct LocalStoreConversion : OpConversionPattern<ttg::LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    storeTensor(rewriter, op.getLoc(), adaptor.getSrc(), adaptor.getDst());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexConversion : OpConversionPattern<ttg::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescIndexOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<MemRefType>(adaptor.getSrc().getType());
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Value index = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), adaptor.getIndex());
    SmallVector<OpFoldResult> offsets(srcType.getRank(), rewriter.getIndexAttr(0));
    offsets[0] = index;
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1)};
    for (int64_t d : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(d));
    SmallVector<OpFoldResult> strides(srcType.getRank(), rewriter.getIndexAttr(1));
    auto viewType = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
        type.getShape(), srcType, offsets, sizes, strides));
    Value view = memref::SubViewOp::create(rewriter, loc, viewType, adaptor.getSrc(), offsets,
                                           sizes, strides);
    rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    return success();
  }
};

struct MemDescSubsliceConversion : OpConversionPattern<ttg::MemDescSubsliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescSubsliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (int32_t offset : op.getOffsets())
      offsets.push_back(rewriter.getIndexAttr(offset));
    for (int64_t d : type.getShape()) {
      sizes.push_back(rewriter.getIndexAttr(d));
      strides.push_back(rewriter.getIndexAttr(1));
    }
    Value view = memref::SubViewOp::create(rewriter, op.getLoc(), adaptor.getSrc(), offsets,
                                           sizes, strides);
    rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    return success();
  }
};

struct MemDescTransConversion : OpConversionPattern<ttg::MemDescTransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescTransOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<unsigned> order(op.getOrder().begin(), op.getOrder().end());
    AffineMap permutation = AffineMap::getPermutationMap(order, getContext());
    Value view = memref::TransposeOp::create(rewriter, op.getLoc(), adaptor.getSrc(),
                                             AffineMapAttr::get(permutation));
    rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    return success();
  }
};

/// A reshaped view of a contiguous row-major tile: same memory, new sizes and strides.
struct MemDescReshapeConversion : OpConversionPattern<ttg::MemDescReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescReshapeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, adaptor.getSrc());
    SmallVector<OpFoldResult> sizes, strides(type.getRank());
    int64_t stride = 1;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      strides[d] = rewriter.getIndexAttr(stride);
      stride *= type.getDimSize(d);
    }
    for (int64_t size : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    Value view = memref::ReinterpretCastOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType(),
                                       StridedLayoutAttr::get(getContext(), ShapedType::kDynamic,
                                                              SmallVector<int64_t>(type.getRank(),
                                                                                   ShapedType::kDynamic))),
        metadata.getBaseBuffer(), OpFoldResult(metadata.getOffset()), sizes, strides);
    rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    return success();
  }
};

/// Indices of `indices` with the axis coordinate replaced by the index value there.
SmallVector<Value> gatherCoordinates(OpBuilder &b, Location loc, Value indexTensor,
                                     ValueRange position, unsigned axis) {
  SmallVector<Value> coordinates(position);
  Value index = tensor::ExtractOp::create(b, loc, indexTensor, position);
  coordinates[axis] = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  return coordinates;
}

/// result[i] = tile[i with i[axis] = indices[i]], read when the op runs.
struct LocalGatherConversion : OpConversionPattern<ttg::LocalGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalGatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = allocateTile(rewriter, loc, type);
    forEachIndex(rewriter, loc, type.getShape(), [&](OpBuilder &b, Location loc, ValueRange i) {
      SmallVector<Value> at = gatherCoordinates(b, loc, adaptor.getIndices(), i, op.getAxis());
      Value value = memref::LoadOp::create(b, loc, adaptor.getSrc(), at);
      memref::StoreOp::create(b, loc, value, result, i);
    });
    rewriter.replaceOp(op, tileBufferAsTensor(rewriter, loc, result, type));
    return success();
  }
};

/// tile[i with i[axis] = indices[i]] = values[i].
struct LocalScatterConversion : OpConversionPattern<ttg::LocalScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalScatterOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(adaptor.getValues().getType());
    forEachIndex(rewriter, loc, type.getShape(), [&](OpBuilder &b, Location loc, ValueRange i) {
      SmallVector<Value> at = gatherCoordinates(b, loc, adaptor.getIndices(), i, op.getAxis());
      Value value = tensor::ExtractOp::create(b, loc, adaptor.getValues(), i);
      memref::StoreOp::create(b, loc, value, adaptor.getDst(), at);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The combination an atomic RMW of `kind` stores, given the current and the new value.
Value combineForRMW(OpBuilder &b, Location loc, tt::RMWOp kind, Value current, Value update) {
  bool isFloat = isa<FloatType>(current.getType());
  switch (kind) {
  case tt::RMWOp::AND: return arith::AndIOp::create(b, loc, current, update);
  case tt::RMWOp::OR: return arith::OrIOp::create(b, loc, current, update);
  case tt::RMWOp::XOR: return arith::XOrIOp::create(b, loc, current, update);
  case tt::RMWOp::ADD:
  case tt::RMWOp::FADD:
    return isFloat ? Value(arith::AddFOp::create(b, loc, current, update))
                   : Value(arith::AddIOp::create(b, loc, current, update));
  case tt::RMWOp::MAX:
    return isFloat ? Value(arith::MaxNumFOp::create(b, loc, current, update))
                   : Value(arith::MaxSIOp::create(b, loc, current, update));
  case tt::RMWOp::MIN:
    return isFloat ? Value(arith::MinNumFOp::create(b, loc, current, update))
                   : Value(arith::MinSIOp::create(b, loc, current, update));
  case tt::RMWOp::UMAX: return arith::MaxUIOp::create(b, loc, current, update);
  case tt::RMWOp::UMIN: return arith::MinUIOp::create(b, loc, current, update);
  case tt::RMWOp::XCHG: return update;
  }
  return update;
}

/// Like local_scatter, each update combined with the current value; the result holds the
/// values seen before (zero in masked-off lanes). Shared memory belongs to one program, which
/// is one thread on a CPU, so a plain read-modify-write is atomic.
struct LocalAtomicScatterRMWConversion : OpConversionPattern<ttg::LocalAtomicScatterRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalAtomicScatterRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = allocateTile(rewriter, loc, type);
    forEachIndex(rewriter, loc, type.getShape(), [&](OpBuilder &b, Location loc, ValueRange i) {
      auto update = [&](OpBuilder &b, Location loc) -> Value {
        SmallVector<Value> at = gatherCoordinates(b, loc, adaptor.getIndices(), i, op.getAxis());
        Value current = memref::LoadOp::create(b, loc, adaptor.getDst(), at);
        Value value = tensor::ExtractOp::create(b, loc, adaptor.getValues(), i);
        memref::StoreOp::create(b, loc,
                                combineForRMW(b, loc, op.getAtomicRmwOp(), current, value),
                                adaptor.getDst(), at);
        return current;
      };
      Value mask = adaptor.getMask();
      Value maskElement = mask ? Value(tensor::ExtractOp::create(b, loc, mask, i)) : Value();
      Value old = valueUnderMask(b, loc, maskElement, update, [&](OpBuilder &b, Location loc) {
        return zeroOf(b, loc, type.getElementType());
      });
      memref::StoreOp::create(b, loc, old, result, i);
    });
    rewriter.replaceOp(op, tileBufferAsTensor(rewriter, loc, result, type));
    return success();
  }
};

/// Two e2m1 values per byte, the first in the low nibble, unpacked along `axis` and
/// converted exactly to bf16 or f16.
struct Fp4ToFpConversion : OpConversionPattern<ttg::Fp4ToFpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::Fp4ToFpOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    unsigned rank = type.getRank(), axis = op.getAxis();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange) {
          SmallVector<Value> indices;
          for (unsigned d = 0; d < rank; ++d)
            indices.push_back(linalg::IndexOp::create(b, loc, d));
          Value value = e2m1ElementAt(b, loc, adaptor.getSrc(), indices, axis);
          linalg::YieldOp::create(
              b, loc, Value(arith::TruncFOp::create(b, loc, type.getElementType(), value)));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// Whether stage `stage` of a loop pipelined into `maxStage + 1` stages runs at iteration
/// `iv`: iv < ub - (maxStage - stage) * step.
struct PredicateStageConversion : OpConversionPattern<ttg::PredicateStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::PredicateStageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = adaptor.getIv().getType();
    Value stagesLeft = arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(type, op.getMaxStage() - op.getStage()));
    Value last = arith::SubIOp::create(
        rewriter, loc, adaptor.getUb(),
        arith::MulIOp::create(rewriter, loc, stagesLeft, adaptor.getStep()));
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, arith::CmpIPredicate::slt, adaptor.getIv(),
                                               last);
    return success();
  }
};

/// The region runs when the predicate holds; otherwise its results are zero (undefined on a
/// GPU, where only predicated uses read them).
struct MaskConversion : OpConversionPattern<ttg::MaskOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MaskOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    auto ifOp = scf::IfOp::create(rewriter, loc, types, adaptor.getPred(),
                                  /*withElseRegion=*/!types.empty());
    Block *thenBlock = &ifOp.getThenRegion().front();
    rewriter.eraseBlock(thenBlock);
    rewriter.inlineRegionBefore(op.getRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    Operation *terminator = ifOp.getThenRegion().front().getTerminator();
    rewriter.setInsertionPoint(terminator);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(terminator, terminator->getOperands());
    if (!types.empty()) {
      rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
      SmallVector<Value> zeros;
      for (Type t : types) {
        if (auto tensorType = dyn_cast<RankedTensorType>(t))
          zeros.push_back(arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(t)));
        else if (t.isIntOrFloat())
          zeros.push_back(zeroOf(rewriter, loc, t));
        else
          zeros.push_back(ub::PoisonOp::create(rewriter, loc, t));
      }
      scf::YieldOp::create(rewriter, loc, zeros);
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// Completed synchronously: the data is in the tile when the op returns.
struct AsyncTokenOpConversion : ConversionPattern {
  AsyncTokenOpConversion(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value>,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<ttg::AsyncCommitGroupOp, ttg::AsyncWaitOp>(op))
      return failure();
    rewriter.replaceOp(op, arith::ConstantIntOp::create(rewriter, op->getLoc(), 0, 32).getResult());
    return success();
  }
};

/// One CPU program is one thread: there is nobody to wait for.
struct BarrierConversion : OpConversionPattern<ttg::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateTritonGPUPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutConversion, LocalAllocConversion, LocalDeallocConversion,
               LocalLoadConversion, LocalStoreConversion, MemDescIndexConversion,
               MemDescSubsliceConversion, MemDescTransConversion, MemDescReshapeConversion,
               MemDescReinterpretConversion,
               LocalGatherConversion, LocalScatterConversion, LocalAtomicScatterRMWConversion,
               Fp4ToFpConversion, PredicateStageConversion, MaskConversion, BarrierConversion>(
      converter, patterns.getContext());
  patterns.add<AsyncTokenOpConversion>(converter, patterns.getContext());
}

/// Why a ttg op has no CPU lowering, for the diagnostic; empty if it has one.
std::string reasonWithoutCPUMeaning(Operation *op) {
  if (isa<ttg::WarpSpecializeOp, ttg::WarpIdOp>(op))
    return "warp specialization divides a program among GPU warps; a CPU program is one thread";
  if (isa<ttg::GlobalScratchAllocOp>(op))
    return "global scratch memory is allocated by the GPU launcher";
  if (isa<ttg::InlineAsmOp>(op))
    return "inline assembly is written for a GPU instruction set";
  return "";
}

} // namespace tritium
