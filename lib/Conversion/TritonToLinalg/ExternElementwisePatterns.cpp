//===- ExternElementwisePatterns.cpp - tt.extern_elementwise --------------===//
//
// tritium's libdevice (python/tritium/language/libdevice.py) names C math library functions
// (`expf`, `atan2`, ...). Functions MLIR's math dialect has become math ops, which later
// stages vectorize or lower to intrinsics; CUDA libdevice's integer functions (bit reversal,
// high product halves, byte permutes, ...) become arith ops; any other symbol becomes a call
// to that function, resolved when the kernel is loaded (e.g. from the C library).
//
//===----------------------------------------------------------------------===//

#include "ExternMathFunctions.h"
#include "ExternalFunctions.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tritium {

/// Math-dialect op names for C math functions (float `f` and double spellings).
static const llvm::StringMap<StringRef> &mathOps() {
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

StringRef mathOpNameOf(StringRef symbol) {
  auto it = mathOps().find(symbol);
  return it == mathOps().end() ? StringRef() : it->second;
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
  if (it != renamed.end())
    return it->second.str();
  // Directed rounding (`fadd_rd`, `fmaf_ru`, `ll2float_rz`, ...): the device runtime's
  // functions (DirectedRounding.cpp), except float-to-integer conversions, which tritium's
  // libdevice builds from floor/ceil/trunc and which CUDA spells the same way.
  static const llvm::StringSet<> directed = {
      "fadd",      "dadd",      "fsub",         "dsub",      "fmul",       "dmul",
      "fdiv",      "ddiv",      "frcp",         "drcp",      "fsqrt",      "dsqrt",
      "fmaf",      "fma",       "double2float", "int2float", "uint2float", "ll2float",
      "ull2float", "ll2double", "ull2double"};
  for (StringRef mode : {"_rz", "_rd", "_ru"})
    if (symbol.ends_with(mode) && directed.contains(symbol.drop_back(3)))
      return ("tritium_" + symbol).str();
  return symbol.str();
}

namespace {

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

/// Integer functions of CUDA's libdevice (`__nv_brev`, `__nv_mulhi`, `__nv_byte_perm`, ...), in
/// arith ops on the operands' (signless) integer type; null for any other name.
Value integerIntrinsic(OpBuilder &b, Location loc, StringRef name, ValueRange srcs) {
  static const llvm::StringSet<> names = {
      "brev", "brevll", "mulhi", "umulhi", "mul64hi", "mul24", "umul24", "umul64hi", "byte_perm",
      "ffs",  "ffsll",  "sad",   "usad",   "hadd",    "uhadd", "rhadd",  "urhadd"};
  if (!names.contains(name) || srcs.empty() || !getElementTypeOrSelf(srcs[0].getType()).isInteger())
    return {};
  Value x = srcs[0];
  Type type = x.getType();
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  auto typeOfWidth = [&](unsigned bits) -> Type {
    Type element = b.getIntegerType(bits);
    if (auto shaped = dyn_cast<ShapedType>(type))
      return shaped.clone(element);
    return element;
  };
  auto constant = [&](Type t, int64_t value) {
    return splatLike(b, loc, t, b.getIntegerAttr(getElementTypeOrSelf(t), value));
  };
  auto c = [&](int64_t value) { return constant(type, value); };

  if (name == "brev" || name == "brevll") {
    // Swap ever larger groups of bits: neighbours, pairs, nibbles, then the bytes.
    static const uint64_t masks[] = {0x5555555555555555ull, 0x3333333333333333ull,
                                     0x0f0f0f0f0f0f0f0full};
    Value v = x;
    for (unsigned step = 0; step < 3; ++step) {
      int64_t shift = int64_t(1) << step;
      Value mask = c(int64_t(width == 64 ? masks[step] : masks[step] & 0xffffffffull));
      Value low = arith::ShLIOp::create(b, loc, arith::AndIOp::create(b, loc, v, mask), c(shift));
      Value high = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, v, c(shift)), mask);
      v = arith::OrIOp::create(b, loc, low, high);
    }
    Value reversed = c(0);
    for (unsigned byte = 0; byte < width / 8; ++byte) {
      Value part =
          arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, v, c(8 * byte)), c(0xff));
      part = arith::ShLIOp::create(b, loc, part, c(width - 8 - 8 * byte));
      reversed = arith::OrIOp::create(b, loc, reversed, part);
    }
    return reversed;
  }
  if (name == "mulhi" || name == "mul64hi")
    return arith::MulSIExtendedOp::create(b, loc, x, srcs[1]).getHigh();
  if (name == "umulhi" || name == "umul64hi")
    return arith::MulUIExtendedOp::create(b, loc, x, srcs[1]).getHigh();
  if (name == "mul24" || name == "umul24") { // the low 32 bits of the product of the low 24 bits
    auto low24 = [&](Value v) -> Value {
      Value shifted = arith::ShLIOp::create(b, loc, v, c(8));
      if (name == "mul24")
        return arith::ShRSIOp::create(b, loc, shifted, c(8));
      return arith::ShRUIOp::create(b, loc, shifted, c(8));
    };
    Value lhs = low24(x);
    return arith::MulIOp::create(b, loc, lhs, low24(srcs[1]));
  }
  if (name == "ffs" || name == "ffsll") { // 1 + the index of the lowest set bit; 0 for 0
    Value index =
        arith::AddIOp::create(b, loc, math::CountTrailingZerosOp::create(b, loc, x), c(1));
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(0));
    return arith::SelectOp::create(b, loc, zero, c(0), index);
  }
  if (name == "sad" || name == "usad") { // |x - y| + z, the difference taken without overflow
    bool isSigned = name == "sad";
    Value y = srcs[1];
    Value xGreater = arith::CmpIOp::create(
        b, loc, isSigned ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt, x, y);
    Value difference = arith::SelectOp::create(
        b, loc, xGreater, arith::SubIOp::create(b, loc, x, y), arith::SubIOp::create(b, loc, y, x));
    return arith::AddIOp::create(b, loc, difference, srcs[2]);
  }
  if (name == "hadd" || name == "uhadd" || name == "rhadd" || name == "urhadd") {
    // (x + y [+ 1]) >> 1 in twice the width, so the sum cannot overflow.
    bool isSigned = name == "hadd" || name == "rhadd";
    Type wide = typeOfWidth(2 * width);
    auto widen = [&](Value v) -> Value {
      if (isSigned)
        return arith::ExtSIOp::create(b, loc, wide, v);
      return arith::ExtUIOp::create(b, loc, wide, v);
    };
    Value sum = arith::AddIOp::create(b, loc, widen(x), widen(srcs[1]));
    if (name.starts_with("r") || name.starts_with("ur"))
      sum = arith::AddIOp::create(b, loc, sum, constant(wide, 1));
    Value half = arith::ShRSIOp::create(b, loc, sum, constant(wide, 1));
    return arith::TruncIOp::create(b, loc, type, half);
  }
  // byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of the 8 bytes {y, x}.
  Type wide = typeOfWidth(64);
  Value bytes = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, wide, srcs[1]),
                            constant(wide, 32)),
      arith::ExtUIOp::create(b, loc, wide, x));
  Value selectors = arith::ExtUIOp::create(b, loc, wide, srcs[2]);
  Value result = constant(wide, 0);
  for (int64_t i = 0; i < 4; ++i) {
    Value selector = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, selectors, constant(wide, 4 * i)),
        constant(wide, 7));
    Value byte = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, bytes,
                               arith::MulIOp::create(b, loc, selector, constant(wide, 8))),
        constant(wide, 0xff));
    result = arith::OrIOp::create(b, loc, result,
                                  arith::ShLIOp::create(b, loc, byte, constant(wide, 8 * i)));
  }
  return arith::TruncIOp::create(b, loc, type, result);
}

/// CUDA's float-to-integer conversions in a rounding direction (`__nv_float2ll_rd`, ...): the
/// float rounded to an integral value in that direction, then converted. Null for other names.
Value floatToIntegerInDirection(OpBuilder &b, Location loc, StringRef name, ValueRange srcs,
                                Type resultType) {
  auto [conversion, mode] = name.rsplit('_');
  auto [source, target] = conversion.split('2');
  if (srcs.size() != 1 || !llvm::is_contained({"float", "double"}, source) ||
      !llvm::is_contained({"int", "uint", "ll", "ull"}, target) ||
      !llvm::is_contained({"rn", "rz", "rd", "ru"}, mode))
    return {};
  Value x = srcs[0];
  Value integral;
  if (mode == "rn")
    integral = math::RoundEvenOp::create(b, loc, x);
  else if (mode == "rz")
    integral = math::TruncOp::create(b, loc, x);
  else if (mode == "rd")
    integral = math::FloorOp::create(b, loc, x);
  else
    integral = math::CeilOp::create(b, loc, x);
  if (target.starts_with("u"))
    return arith::FPToUIOp::create(b, loc, resultType, integral);
  return arith::FPToSIOp::create(b, loc, resultType, integral);
}

/// `value` as the op's result type: CUDA's 64-bit bit counts (`__nv_popcll`, `__nv_ffsll`, ...)
/// return i32; the counts fit.
Value toIntegerResult(OpBuilder &b, Location loc, Value value, Type resultType) {
  if (value.getType() == resultType)
    return value;
  return arith::TruncIOp::create(b, loc, resultType, value);
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
    if (Value value = integerIntrinsic(rewriter, loc, symbol, adaptor.getSrcs())) {
      rewriter.replaceOp(op, toIntegerResult(rewriter, loc, value, resultType));
      return success();
    }
    if (Value value =
            floatToIntegerInDirection(rewriter, loc, symbol, adaptor.getSrcs(), resultType)) {
      rewriter.replaceOp(op, value);
      return success();
    }
    if (symbol == "powi") {
      // x^n as powf(x, float(n)): the C library's pow is exact for integer exponents to within
      // its own ulp, and LLVM's powi would call a compiler-rt helper the JIT cannot resolve.
      Value base = adaptor.getSrcs()[0];
      Value exponent = arith::SIToFPOp::create(rewriter, loc, base.getType(), adaptor.getSrcs()[1]);
      rewriter.replaceOpWithNewOp<math::PowFOp>(op, base, exponent);
      return success();
    }
    if (StringRef mathOp = mathOpNameOf(symbol); !mathOp.empty()) {
      // Bit counts keep their operand's type (CUDA's 64-bit ones return i32: truncated below).
      Type opResultType =
          symbol == "ctlz" || symbol == "ctpop" ? adaptor.getSrcs()[0].getType() : resultType;
      OperationState state(loc, mathOp, adaptor.getSrcs(), TypeRange{opResultType});
      Value value = rewriter.create(state)->getResult(0);
      rewriter.replaceOp(op, toIntegerResult(rewriter, loc, value, resultType));
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
