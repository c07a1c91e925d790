//===- WidenBoolMemRefs.cpp - i1 buffers stored as i8 ---------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_WIDENBOOLMEMREFS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

bool isBoolMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getElementType().isInteger(1);
}

struct LoadBool : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value byte = memref::LoadOp::create(rewriter, op.getLoc(), adaptor.getMemref(),
                                        adaptor.getIndices());
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, rewriter.getI1Type(), byte);
    return success();
  }
};

struct StoreBool : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value byte =
        arith::ExtUIOp::create(rewriter, op.getLoc(), rewriter.getI8Type(), adaptor.getValue());
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, byte, adaptor.getMemref(),
                                                 adaptor.getIndices());
    return success();
  }
};

/// Constant bool tiles become globals of bytes holding 0 or 1.
struct WidenBoolGlobal : OpConversionPattern<memref::GlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::GlobalOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Attribute initial = op.getInitialValueAttr();
    if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(initial))
      initial = dense.mapValues(rewriter.getI8Type(),
                                [](const APInt &bit) { return bit.zext(8); });
    rewriter.replaceOpWithNewOp<memref::GlobalOp>(op, op.getSymName(), op.getSymVisibilityAttr(),
                                                  type, initial, op.getConstant(),
                                                  op.getAlignmentAttr());
    return success();
  }
};

/// Any other op on bool buffers (alloc, dealloc, views, casts, metadata) keeps its meaning
/// with the widened types.
struct RetypeBoolBufferOp : ConversionPattern {
  RetypeBoolBufferOp(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || isa<memref::LoadOp, memref::StoreOp>(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes, op->getAttrs(),
                         op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct WidenBoolMemRefsPass : impl::WidenBoolMemRefsBase<WidenBoolMemRefsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](MemRefType type) -> Type {
      if (!type.getElementType().isInteger(1))
        return type;
      return MemRefType::get(type.getShape(), IntegerType::get(type.getContext(), 8),
                             type.getLayout(), type.getMemorySpace());
    });
    RewritePatternSet patterns(context);
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        return !isBoolMemRef(global.getType());
      if (auto func = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(func.getFunctionType()) &&
               converter.isLegal(&func.getBody());
      return converter.isLegal(op);
    });
    patterns.add<LoadBool, StoreBool, WidenBoolGlobal>(converter, context);
    patterns.add<RetypeBoolBufferOp>(converter, context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
