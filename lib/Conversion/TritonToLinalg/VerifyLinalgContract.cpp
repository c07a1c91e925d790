//===- VerifyLinalgContract.cpp - the linalg stage holds what devices consume ===//
//
// The linalg stage is the hand-over to a device target (docs/new-device.md): a target lowers
// exactly these dialects, ops and types, implements the device runtime functions, and calls
// the kernel with the ABI below. This pass checks a module against that contract, so that a
// new lowering in the conversion cannot quietly hand devices something only the CPU target
// understands. tritium runs it on every kernel's linalg stage; `tritium-opt
// --verify-linalg-contract` runs it on any file.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/DeviceRuntimeFunctions.h"
#include "tritium/Conversion/TritonToLinalg/Passes.h"


#include "llvm/ADT/StringSet.h"

namespace tritium {
#define GEN_PASS_DEF_VERIFYLINALGCONTRACT
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// Number of trailing i32 arguments of a kernel: program id x, y, z and grid size x, y, z.
constexpr unsigned kGridArguments = 6;

/// Dialects whose every op is in the contract.
bool isWholeDialectAllowed(StringRef dialect) {
  static const llvm::StringSet<> dialects = {"builtin", "func",   "arith", "math",
                                             "scf",     "linalg", "tensor", "memref",
                                             "bufferization", "ub"};
  return dialects.contains(dialect);
}

/// The LLVM dialect's ops for memory through pointers: the only ones in the contract.
bool isAllowedLLVMOp(Operation *op) {
  return isa<LLVM::GEPOp, LLVM::LoadOp, LLVM::StoreOp, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp,
             LLVM::ExtractValueOp, LLVM::IntToPtrOp, LLVM::PtrToIntOp, LLVM::GlobalOp,
             LLVM::AddressOfOp, LLVM::ConstantOp, LLVM::ZeroOp, LLVM::UndefOp, LLVM::PoisonOp,
             LLVM::AssumeOp>(op);
}

bool isAllowedScalar(Type type) {
  // i128: the double-width product of 64-bit `tl.umulhi`.
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u, 128u}, integer.getWidth());
  return isa<IndexType, LLVM::LLVMPointerType, Float16Type, BFloat16Type, Float32Type,
             Float64Type, Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType, Float8E4M3B11FNUZType>(type);
}

bool isAllowedType(Type type) {
  if (auto shaped = dyn_cast<RankedTensorType>(type))
    return isAllowedScalar(shaped.getElementType());
  if (auto memref = dyn_cast<MemRefType>(type))
    return isAllowedScalar(memref.getElementType());
  // cmpxchg's (value, success) pair and the arrays of globals (printed strings).
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return llvm::all_of(structType.getBody(), isAllowedType);
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return isAllowedType(array.getElementType());
  return isAllowedScalar(type);
}

bool isScalarSignature(FunctionType type) {
  auto scalar = [](Type t) { return isAllowedScalar(t) && !isa<IndexType>(t); };
  return llvm::all_of(type.getInputs(), scalar) && llvm::all_of(type.getResults(), scalar);
}

bool isDeviceRuntimeFunction(StringRef name) {
  return llvm::is_contained({StringRef(device_runtime::kPrintInt),
                             StringRef(device_runtime::kPrintFloat),
                             StringRef(device_runtime::kAssertFail),
                             StringRef(device_runtime::kNanoseconds),
                             StringRef(device_runtime::kLaunchRunsAlone)},
                            name);
}

struct ContractChecker {
  bool ok = true;

  InFlightDiagnostic fail(Operation *op) {
    ok = false;
    return op->emitError("outside the linalg contract (docs/new-device.md): ");
  }

  void checkKernel(func::FuncOp kernel) {
    FunctionType type = kernel.getFunctionType();
    if (type.getNumResults() != 0)
      fail(kernel) << "the kernel '" << kernel.getName() << "' returns values";
    ArrayRef<Type> inputs = type.getInputs();
    if (inputs.size() < kGridArguments) {
      fail(kernel) << "the kernel '" << kernel.getName() << "' lacks the six trailing i32 "
                   << "grid arguments (program id x, y, z; grid size x, y, z)";
      return;
    }
    for (auto [index, input] : llvm::enumerate(inputs)) {
      bool gridArgument = index + kGridArguments >= inputs.size();
      if (gridArgument && !input.isInteger(32))
        fail(kernel) << "argument " << index << " of '" << kernel.getName() << "' is " << input
                     << "; the last six are i32 (program id x, y, z; grid size x, y, z)";
      else if (!gridArgument && (!isAllowedScalar(input) || isa<IndexType>(input)))
        fail(kernel) << "argument " << index << " of '" << kernel.getName() << "' is " << input
                     << "; kernel arguments are !llvm.ptr, integers and floats";
    }
  }

  void checkFunction(func::FuncOp function, unsigned &kernels) {
    if (function.isPublic()) {
      if (function.isDeclaration())
        fail(function) << "the public function '" << function.getName() << "' has no body";
      else if (++kernels > 1)
        fail(function) << "a second public function '" << function.getName()
                       << "': a module holds one kernel (helpers are private)";
      else
        checkKernel(function);
      return;
    }
    if (function.isDeclaration() && !isDeviceRuntimeFunction(function.getName()) &&
        !isScalarSignature(function.getFunctionType()))
      fail(function) << "the external function '" << function.getName()
                     << "' is neither a device runtime function nor a scalar function "
                     << "(integers and floats in and out)";
  }

  void checkOp(Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (!op->isRegistered()) {
      fail(op) << "'" << op->getName() << "' is not a registered op";
      return;
    }
    if (dialect == "llvm" ? !isAllowedLLVMOp(op) : !isWholeDialectAllowed(dialect)) {
      fail(op) << "'" << op->getName() << "' is not an op of the contract";
      return;
    }
    for (Type type : op->getResultTypes())
      if (!isAllowedType(type))
        fail(op) << "'" << op->getName() << "' produces a value of type " << type;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (!isAllowedType(argument.getType()))
            fail(op) << "'" << op->getName() << "' has a block argument of type "
                     << argument.getType();
  }

  void run(ModuleOp module) {
    unsigned kernels = 0;
    module.walk([&](Operation *op) {
      if (op != module.getOperation())
        checkOp(op);
      if (auto function = dyn_cast<func::FuncOp>(op))
        checkFunction(function, kernels);
    });
    if (kernels == 0)
      fail(module) << "no kernel: one public func.func with a body is expected";
  }
};

struct VerifyLinalgContractPass : impl::VerifyLinalgContractBase<VerifyLinalgContractPass> {
  void runOnOperation() override {
    ContractChecker checker;
    checker.run(getOperation());
    if (!checker.ok)
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium
