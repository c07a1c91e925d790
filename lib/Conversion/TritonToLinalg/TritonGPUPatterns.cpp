//===- TritonGPUPatterns.cpp - TTGIR: layouts erased, semantics kept ------===//
//
// A layout says where values live, not what they are: convert_layout is the identity.
// Shared-memory tiles are buffers (memref), their views are subviews, asynchronous copies
// are synchronous (so waits and commit groups have nothing left to order), and barriers
// between the threads of one program are no-ops because a CPU program is one thread.
// Ops with no meaning on a CPU are rejected with the reason.
//
//===----------------------------------------------------------------------===//

#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"
#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
    Value buffer = memref::AllocOp::create(rewriter, loc, allocType);
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
               LocalGatherConversion, LocalScatterConversion, BarrierConversion>(
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
