//===- ExternElementwisePatterns.cpp - tt.extern_elementwise --------------===//
//
// tritium's libdevice (python/tritium/language/libdevice.py) names C math library functions
// (`expf`, `atan2`, ...). Functions MLIR's math dialect has become math ops, which later
// stages vectorize or lower to intrinsics; any other symbol becomes a call to that function,
// resolved when the kernel is loaded (e.g. from the C library).
//
//===----------------------------------------------------------------------===//

#include "ExternalFunctions.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tritium {
namespace {

/// Math-dialect op names for C math functions (float `f` and double spellings).
const llvm::StringMap<StringRef> &mathOps() {
  static const llvm::StringMap<StringRef> table = [] {
    llvm::StringMap<StringRef> t;
    auto both = [&](StringRef libm, StringRef op) {
      t[libm] = op;
      t[(libm + "f").str()] = op;
    };
    both("exp", "math.exp");
    both("exp2", "math.exp2");
    both("expm1", "math.expm1");
    both("log", "math.log");
    both("log2", "math.log2");
    both("log10", "math.log10");
    both("log1p", "math.log1p");
    both("sin", "math.sin");
    both("cos", "math.cos");
    both("tan", "math.tan");
    both("asin", "math.asin");
    both("acos", "math.acos");
    both("atan", "math.atan");
    both("atan2", "math.atan2");
    both("sinh", "math.sinh");
    both("cosh", "math.cosh");
    both("tanh", "math.tanh");
    both("asinh", "math.asinh");
    both("acosh", "math.acosh");
    both("atanh", "math.atanh");
    both("erf", "math.erf");
    both("erfc", "math.erfc");
    both("sqrt", "math.sqrt");
    both("cbrt", "math.cbrt");
    both("pow", "math.powf");
    both("fabs", "math.absf");
    both("floor", "math.floor");
    both("ceil", "math.ceil");
    both("trunc", "math.trunc");
    both("round", "math.round");
    both("rint", "math.roundeven");
    both("nearbyint", "math.roundeven");
    both("copysign", "math.copysign");
    both("fma", "math.fma");
    both("rsqrt", "math.rsqrt");
    t["ctlz"] = "math.ctlz";
    t["ctpop"] = "math.ctpop";
    return t;
  }();
  return table;
}

Value splatLike(OpBuilder &b, Location loc, Type like, TypedAttr scalar) {
  if (auto shaped = dyn_cast<ShapedType>(like))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(shaped, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// Classification functions of CUDA's libdevice (`__nv_isnanf`, ...), which return i32.
Value classify(OpBuilder &b, Location loc, StringRef name, Value x, Type resultType) {
  Type type = x.getType();
  auto floatType = cast<FloatType>(getElementTypeOrSelf(type));
  Type i1 = b.getI1Type();
  if (auto shaped = dyn_cast<ShapedType>(type))
    i1 = shaped.clone(b.getI1Type());
  Value flag;
  if (name == "isnan") {
    flag = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  } else if (name == "signbit") {
    Type bits = b.getIntegerType(floatType.getWidth());
    if (auto shaped = dyn_cast<ShapedType>(type))
      bits = shaped.clone(bits);
    Value asInt = arith::BitcastOp::create(b, loc, bits, x);
    Value zero = splatLike(b, loc, bits, b.getIntegerAttr(getElementTypeOrSelf(bits), 0));
    flag = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, asInt, zero);
  } else {
    Value magnitude = math::AbsFOp::create(b, loc, x);
    Value inf = splatLike(b, loc, type,
                          b.getFloatAttr(floatType, APFloat::getInf(floatType.getFloatSemantics())));
    flag = arith::CmpFOp::create(b, loc,
                                 name == "isinf" ? arith::CmpFPredicate::OEQ
                                                 : arith::CmpFPredicate::OLT,
                                 magnitude, inf);
  }
  (void)i1;
  return arith::ExtUIOp::create(b, loc, resultType, flag);
}

/// CUDA libdevice spellings (`__nv_expf`, `__nv_popcll`, ...) as C library or tritium names, so
/// kernels written against CUDA's libdevice run too.
std::string canonicalSymbol(StringRef symbol) {
  if (!symbol.consume_front("__nv_"))
    return symbol.str();
  // GPU fast approximations are the accurate functions on a CPU.
  symbol.consume_front("fast_");
  static const llvm::StringMap<StringRef> renamed = {
      {"popc", "ctpop"},     {"popcll", "ctpop"},   {"clz", "ctlz"},
      {"clzll", "ctlz"},     {"isnanf", "isnan"},   {"isnand", "isnan"},
      {"isinff", "isinf"},   {"isinfd", "isinf"},   {"finitef", "isfinite"},
      {"isfinited", "isfinite"}, {"signbitf", "signbit"}, {"signbitd", "signbit"},
      {"powif", "powi"},     {"powi", "powi"}};
  auto it = renamed.find(symbol);
  return it != renamed.end() ? it->second.str() : symbol.str();
}

struct ExternElementwiseConversion : OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string canonical = canonicalSymbol(op.getSymbol());
    StringRef symbol = canonical;
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (llvm::is_contained({"isnan", "isinf", "isfinite", "signbit"}, symbol)) {
      rewriter.replaceOp(op, classify(rewriter, loc, symbol, adaptor.getSrcs()[0], resultType));
      return success();
    }
    if (symbol == "powi") {
      rewriter.replaceOpWithNewOp<math::FPowIOp>(op, adaptor.getSrcs()[0], adaptor.getSrcs()[1]);
      return success();
    }
    auto it = mathOps().find(symbol);
    if (it != mathOps().end()) {
      OperationState state(loc, it->second, adaptor.getSrcs(), TypeRange{resultType});
      rewriter.replaceOp(op, rewriter.create(state)->getResults());
      return success();
    }
    if (symbol.empty())
      return op.emitError("tritium cannot lower an extern_elementwise without a symbol");

    SmallVector<Type> scalarInputs;
    for (Value v : adaptor.getSrcs())
      scalarInputs.push_back(getElementTypeOrSelf(v.getType()));
    Type scalarResult = getElementTypeOrSelf(resultType);
    func::FuncOp callee = declareExternalFunction(
        rewriter, op, symbol, rewriter.getFunctionType(scalarInputs, {scalarResult}));
    auto tensorType = dyn_cast<RankedTensorType>(resultType);
    if (!tensorType) {
      rewriter.replaceOpWithNewOp<func::CallOp>(op, callee, adaptor.getSrcs());
      return success();
    }
    unsigned rank = tensorType.getRank();
    Value empty = tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(), scalarResult);
    SmallVector<AffineMap> maps(adaptor.getSrcs().size() + 1,
                                rewriter.getMultiDimIdentityMap(rank));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, tensorType, adaptor.getSrcs(), ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          auto call = func::CallOp::create(b, loc, callee, args.drop_back());
          linalg::YieldOp::create(b, loc, call.getResults());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void populateExternElementwisePatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseConversion>(converter, patterns.getContext());
}

} // namespace tritium
