//===- DebugPatterns.cpp - tt.print and tt.assert -------------------------===//
//
// Both become calls into the device runtime (DeviceRuntimeFunctions.h), element by element
// like on a GPU: a print line per element with the program id and element index, an assert
// failure report naming the program.
//
//===----------------------------------------------------------------------===//

#include "ExternalFunctions.h"
#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/DeviceRuntimeFunctions.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {
namespace {

/// A pointer to a NUL-terminated copy of `text` in the module.
Value globalString(OpBuilder &b, Location loc, Operation *anchor, StringRef text) {
  static unsigned counter = 0;
  auto module = anchor->getParentOfType<ModuleOp>();
  std::string name;
  do {
    name = "__tritium_str_" + std::to_string(counter++);
  } while (module.lookupSymbol(name));
  std::string value = text.str();
  value.push_back('\0');
  return LLVM::createGlobalString(loc, b, name, value, LLVM::Linkage::Internal);
}

/// Program id x, y, z of the enclosing kernel.
SmallVector<Value> programIds(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  unsigned first = func.getNumArguments() - kNumProgramInfoArgs;
  return {func.getArgument(first), func.getArgument(first + 1), func.getArgument(first + 2)};
}

struct PrintConversion : OpConversionPattern<tt::PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pids = programIds(op);
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    unsigned count = adaptor.getArgs().size();
    if (count == 0) {
      Value prefix = globalString(rewriter, loc, op, op.getPrefix());
      auto fn = declareExternalFunction(rewriter, op, device_runtime::kPrintInt,
                                       rewriter.getFunctionType({ptr, i32, i32, i32, i32, i64, i64, i64, i64, i32, i32}, {}));
      Value zero32 = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      Value zero64 = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
      Value none = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
      func::CallOp::create(rewriter, loc, fn,
                           ValueRange{prefix, pids[0], pids[1], pids[2], none, zero64, zero64,
                                      zero64, zero64, zero32, zero32});
      rewriter.eraseOp(op);
      return success();
    }
    for (auto [i, arg] : llvm::enumerate(adaptor.getArgs())) {
      // The prefix arrives formatted as " name: "; several operands are told apart as on
      // GPUs: " name: (operand 1) value".
      std::string text = op.getPrefix().str();
      if (count > 1)
        text += "(operand " + std::to_string(i) + ") ";
      Value prefix = globalString(rewriter, loc, op, text);
      bool signedValue = i < isSigned.size() ? isSigned[i] != 0 : true;
      auto printOne = [&](OpBuilder &b, Location loc, Value value, ValueRange indices) {
        SmallVector<Value> index;
        for (unsigned d = 0; d < device_runtime::kMaxPrintRank; ++d)
          index.push_back(d < indices.size()
                              ? arith::IndexCastOp::create(b, loc, i64, indices[d]).getResult()
                              : arith::ConstantIntOp::create(b, loc, 0, 64).getResult());
        Value rank = arith::ConstantIntOp::create(b, loc, indices.size(), 32);
        Type type = value.getType();
        if (isa<FloatType>(type)) {
          if (type != b.getF64Type())
            value = arith::ExtFOp::create(b, loc, b.getF64Type(), value);
          auto fn = declareExternalFunction(b, op, device_runtime::kPrintFloat,
                                       b.getFunctionType({ptr, i32, i32, i32, i32, i64, i64, i64, b.getF64Type()}, {}));
          func::CallOp::create(b, loc, fn,
                               ValueRange{prefix, pids[0], pids[1], pids[2], rank, index[0],
                                          index[1], index[2], value});
          return;
        }
        unsigned width = 64;
        int32_t flags = op.getHex() ? 2 : 0;
        if (isa<LLVM::LLVMPointerType>(type)) {
          value = LLVM::PtrToIntOp::create(b, loc, i64, value);
          flags = 2;
        } else {
          width = type.getIntOrFloatBitWidth();
          if (signedValue && width > 1)
            flags |= 1;
          if (width < 64)
            value = (flags & 1) ? arith::ExtSIOp::create(b, loc, i64, value).getResult()
                                : arith::ExtUIOp::create(b, loc, i64, value).getResult();
        }
        auto fn = declareExternalFunction(b, op, device_runtime::kPrintInt,
                                       b.getFunctionType({ptr, i32, i32, i32, i32, i64, i64, i64, i64, i32, i32}, {}));
        func::CallOp::create(
            b, loc, fn,
            ValueRange{prefix, pids[0], pids[1], pids[2], rank, index[0], index[1], index[2],
                       value, arith::ConstantIntOp::create(b, loc, width, 32),
                       arith::ConstantIntOp::create(b, loc, flags, 32)});
      };
      auto tensorType = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensorType) {
        printOne(rewriter, loc, arg, {});
        continue;
      }
      forEachIndex(rewriter, loc, tensorType.getShape(),
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     Value element = tensor::ExtractOp::create(b, loc, arg, indices);
                     if (isa<tt::PointerType>(
                             cast<RankedTensorType>(op.getArgs()[i].getType()).getElementType()))
                       element = LLVM::IntToPtrOp::create(b, loc, ptr, element);
                     printOne(b, loc, element, indices);
                   });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertConversion : OpConversionPattern<tt::AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pids = programIds(op);
    Type i32 = rewriter.getI32Type();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    std::string file = "<unknown>";
    int line = 0;
    loc->walk([&](Location inner) {
      if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
        file = fileLoc.getFilename().str();
        line = fileLoc.getLine();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    StringRef function = op->getParentOfType<func::FuncOp>().getName();
    Value message = globalString(rewriter, loc, op, op.getMessage());
    Value fileName = globalString(rewriter, loc, op, file);
    Value functionName = globalString(rewriter, loc, op, function);
    auto fn = declareExternalFunction(rewriter, op, device_runtime::kAssertFail,
                                       rewriter.getFunctionType({ptr, ptr, i32, ptr, i32, i32, i32}, {}));
    Value lineValue = arith::ConstantIntOp::create(rewriter, loc, line, 32);
    auto failIfFalse = [&](OpBuilder &b, Location loc, Value condition) {
      Value failed = arith::XOrIOp::create(b, loc, condition,
                                           arith::ConstantIntOp::create(b, loc, 1, 1));
      scf::IfOp::create(b, loc, failed, [&](OpBuilder &b, Location loc) {
        func::CallOp::create(b, loc, fn,
                             ValueRange{message, fileName, lineValue, functionName, pids[0],
                                        pids[1], pids[2]});
        scf::YieldOp::create(b, loc);
      });
    };
    Value condition = adaptor.getCondition();
    if (auto tensorType = dyn_cast<RankedTensorType>(condition.getType())) {
      forEachIndex(rewriter, loc, tensorType.getShape(),
                   [&](OpBuilder &b, Location loc, ValueRange indices) {
                     failIfFalse(b, loc, tensor::ExtractOp::create(b, loc, condition, indices));
                   });
    } else {
      failIfFalse(rewriter, loc, condition);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateDebugPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PrintConversion, AssertConversion>(converter, patterns.getContext());
}

} // namespace tritium
