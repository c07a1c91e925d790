//===- PointerPatterns.cpp - pointer arithmetic and casts -----------------===//
//
// Scalar pointers are !llvm.ptr and advance with getelementptr; tensors of pointers are
// tensors of i64 byte addresses and advance by offset * element size.
//
//===----------------------------------------------------------------------===//

#include "PointerUtils.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {

int64_t pointeeByteSize(Type pointee) {
  if (isa<tt::PointerType>(pointee))
    return 8;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

Type llvmPointeeType(Type pointee) {
  if (isa<tt::PointerType>(pointee))
    return LLVM::LLVMPointerType::get(pointee.getContext());
  // Floats LLVM has no type for (the fp8 formats) travel through memory as integers.
  if (auto floatType = dyn_cast<FloatType>(pointee); floatType && !LLVM::isCompatibleType(floatType))
    return IntegerType::get(pointee.getContext(), floatType.getWidth());
  return pointee;
}

Value advancePointer(OpBuilder &b, Location loc, Value ptr, Value offset, Type pointee) {
  return LLVM::GEPOp::create(b, loc, ptr.getType(), llvmPointeeType(pointee), ptr,
                             ValueRange{offset});
}

namespace {

struct AddPtrConversion : OpConversionPattern<tt::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = cast<tt::PointerType>(getElementTypeOrSelf(op.getType())).getPointeeType();
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, advancePointer(rewriter, loc, adaptor.getPtr(), adaptor.getOffset(),
                                            pointee));
      return success();
    }
    auto type = cast<RankedTensorType>(adaptor.getPtr().getType());
    unsigned rank = type.getRank();
    int64_t size = pointeeByteSize(pointee);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    SmallVector<AffineMap> maps(3, rewriter.getMultiDimIdentityMap(rank));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{adaptor.getPtr(), adaptor.getOffset()}, ValueRange{empty},
        maps, SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value offset = args[1];
          if (offset.getType() != b.getI64Type())
            offset = arith::ExtSIOp::create(b, loc, b.getI64Type(), offset);
          Value bytes =
              arith::MulIOp::create(b, loc, offset, arith::ConstantIntOp::create(b, loc, size, 64));
          linalg::YieldOp::create(b, loc, ValueRange{arith::AddIOp::create(b, loc, args[0], bytes)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct IntToPtrConversion : OpConversionPattern<tt::IntToPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::IntToPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, adaptor.getSrc());
    else
      rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(
          op, LLVM::LLVMPointerType::get(getContext()), adaptor.getSrc());
    return success();
  }
};

struct PtrToIntConversion : OpConversionPattern<tt::PtrToIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::PtrToIntOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, adaptor.getSrc());
    else
      rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, rewriter.getI64Type(), adaptor.getSrc());
    return success();
  }
};

struct BitcastConversion : OpConversionPattern<tt::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::BitcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    // Pointer to pointer is a no-op once pointers are addresses.
    if (adaptor.getSrc().getType() == type)
      rewriter.replaceOp(op, adaptor.getSrc());
    else
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, adaptor.getSrc());
    return success();
  }
};

/// arith.select between pointers selects between their converted forms.
struct SelectOnPointersConversion : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 adaptor.getTrueValue(), adaptor.getFalseValue());
    return success();
  }
};

} // namespace

void populatePointerPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AddPtrConversion, IntToPtrConversion, PtrToIntConversion, BitcastConversion,
               SelectOnPointersConversion>(converter, patterns.getContext());
}

} // namespace tritium
