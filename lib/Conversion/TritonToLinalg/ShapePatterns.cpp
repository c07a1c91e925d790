//===- ShapePatterns.cpp - ranges, splats and shape changes ---------------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {
namespace {

/// A scalar of the converted type as it is stored in a tensor: pointers become i64.
Value scalarAsTensorElement(OpBuilder &b, Location loc, Value scalar) {
  if (isa<LLVM::LLVMPointerType>(scalar.getType()))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), scalar);
  return scalar;
}

struct MakeRangeConversion : OpConversionPattern<tt::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::MakeRangeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    AffineMap identity = rewriter.getMultiDimIdentityMap(1);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, ValueRange{empty}, ArrayRef<AffineMap>{identity},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value index = linalg::IndexOp::create(b, loc, 0);
          Value i32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
          Value start = arith::ConstantIntOp::create(b, loc, op.getStart(), 32);
          linalg::YieldOp::create(b, loc, ValueRange{arith::AddIOp::create(b, loc, i32, start)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct SplatConversion : OpConversionPattern<tt::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value scalar = scalarAsTensorElement(rewriter, loc, adaptor.getSrc());
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    rewriter.replaceOp(op, linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0));
    return success();
  }
};

struct UnsplatConversion : OpConversionPattern<tt::UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::UnsplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(adaptor.getSrc().getType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value element = tensor::ExtractOp::create(rewriter, loc, adaptor.getSrc(),
                                              SmallVector<Value>(type.getRank(), zero));
    if (isa<tt::PointerType>(op.getType()))
      element = LLVM::IntToPtrOp::create(rewriter, loc, LLVM::LLVMPointerType::get(getContext()),
                                         element);
    rewriter.replaceOp(op, element);
    return success();
  }
};

/// Dimensions of size 1 that grow are read at index 0.
struct BroadcastConversion : OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    SmallVector<AffineExpr> srcExprs;
    for (auto [i, size] : llvm::enumerate(srcType.getShape()))
      srcExprs.push_back(size == 1 && type.getDimSize(i) != 1 ? rewriter.getAffineConstantExpr(0)
                                                               : rewriter.getAffineDimExpr(i));
    unsigned rank = type.getRank();
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, srcExprs, getContext()),
                                   rewriter.getMultiDimIdentityMap(rank)};
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{adaptor.getSrc()}, ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, ValueRange{args[0]});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ExpandDimsConversion : OpConversionPattern<tt::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ExpandDimsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t srcRank = type.getRank() - 1;
    int64_t axis = op.getAxis();
    // Source dim j maps to result dim j (j < axis) or j + 1 (j >= axis); the new unit dim
    // joins its neighbour's group.
    SmallVector<ReassociationIndices> groups;
    for (int64_t j = 0; j < srcRank; ++j) {
      int64_t dim = j < axis ? j : j + 1;
      groups.push_back({dim});
    }
    if (axis < srcRank)
      groups[axis].insert(groups[axis].begin(), axis);
    else
      groups.back().push_back(axis);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, type, adaptor.getSrc(), groups);
    return success();
  }
};

/// Any reshape is a collapse to 1-D followed by an expansion (row-major order).
struct ReshapeConversion : OpConversionPattern<tt::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReshapeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Location loc = op.getLoc();
    auto allDims = [](int64_t rank) {
      ReassociationIndices dims;
      for (int64_t i = 0; i < rank; ++i)
        dims.push_back(i);
      return SmallVector<ReassociationIndices>{dims};
    };
    Value flat = adaptor.getSrc();
    if (srcType.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flat, allDims(srcType.getRank()));
    if (type.getRank() > 1)
      flat = tensor::ExpandShapeOp::create(rewriter, loc, type, flat, allDims(type.getRank()));
    rewriter.replaceOp(op, flat);
    return success();
  }
};

struct TransConversion : OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    SmallVector<int64_t> permutation(op.getOrder().begin(), op.getOrder().end());
    auto transpose =
        linalg::TransposeOp::create(rewriter, loc, adaptor.getSrc(), empty, permutation);
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

} // namespace

void populateShapePatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MakeRangeConversion, SplatConversion, UnsplatConversion, BroadcastConversion,
               ExpandDimsConversion, ReshapeConversion, TransConversion>(converter,
                                                                         patterns.getContext());
}

} // namespace tritium
