//===- FunctionPatterns.cpp - tt.func and program identity ----------------===//
//
// Functions get the kernel ABI: converted arguments followed by program id x, y, z and
// grid size x, y, z as i32. Calls forward the caller's six trailing arguments.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace tritium {
namespace {

/// The i32 argument of the enclosing function that holds program id (or grid size) `axis`.
Value programInfoArgument(Operation *op, unsigned axis, bool gridSize) {
  auto func = op->getParentOfType<func::FuncOp>();
  unsigned first = func.getNumArguments() - kNumProgramInfoArgs;
  return func.getArgument(first + (gridSize ? 3 : 0) + axis);
}

struct FuncOpConversion : OpConversionPattern<tt::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::FuncOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      signature.addInputs(i, getTypeConverter()->convertType(input));
    signature.addInputs(SmallVector<Type>(kNumProgramInfoArgs, rewriter.getI32Type()));
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return rewriter.notifyMatchFailure(op, "result types cannot be converted");

    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    if (auto visibility = op.getSymVisibilityAttr())
      func.setSymVisibilityAttr(visibility);
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      if (DictionaryAttr attrs = op.getArgAttrDict(i))
        func.setArgAttrs(i, attrs);
    if (!op.isExternal()) {
      rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
      if (failed(rewriter.convertRegionTypes(&func.getBody(), *getTypeConverter(), &signature)))
        return rewriter.notifyMatchFailure(op, "argument types cannot be converted");
    } else {
      func.setPrivate();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnOpConversion : OpConversionPattern<tt::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getSrcs());
    return success();
  }
};

struct CallOpConversion : OpConversionPattern<tt::CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::CallOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result types cannot be converted");
    SmallVector<Value> operands(adaptor.getOperands());
    for (unsigned i = 0; i < kNumProgramInfoArgs; ++i)
      operands.push_back(programInfoArgument(op, i % 3, i >= 3));
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getCallee(), results, operands);
    return success();
  }
};

template <typename OpTy, bool GridSize>
struct ProgramInfoConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, programInfoArgument(op, static_cast<unsigned>(op.getAxis()), GridSize));
    return success();
  }
};

} // namespace

void populateFunctionPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FuncOpConversion, ReturnOpConversion, CallOpConversion,
               ProgramInfoConversion<tt::GetProgramIdOp, false>,
               ProgramInfoConversion<tt::GetNumProgramsOp, true>>(converter,
                                                                  patterns.getContext());
}

} // namespace tritium
