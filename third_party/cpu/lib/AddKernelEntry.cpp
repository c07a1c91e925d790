//===- AddKernelEntry.cpp - uniform entry points for the CPU launcher -----===//

#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Target/CPU/Passes.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_ADDKERNELENTRY
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Kernels take pointers and scalars; a public function taking tensors is a helper (only
/// reachable from tests of the conversion), not something a launcher can call.
bool takesOnlyScalars(func::FuncOp func) {
  return llvm::all_of(func.getArgumentTypes(), [](Type type) {
    return isa<LLVM::LLVMPointerType, IntegerType, FloatType, IndexType>(type);
  });
}

struct AddKernelEntryPass : impl::AddKernelEntryBase<AddKernelEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() &&
          func.getNumArguments() >= kNumProgramInfoArgs && takesOnlyScalars(func))
        kernels.push_back(func);
    for (func::FuncOp kernel : kernels)
      addEntry(kernel);
  }

  void addEntry(func::FuncOp kernel) {
    MLIRContext *context = &getContext();
    OpBuilder b(kernel);
    b.setInsertionPointAfter(kernel);
    Location loc = kernel.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(context);
    SmallVector<Type> entryInputs = {ptrType};
    entryInputs.append(kNumProgramInfoArgs, b.getI32Type());
    auto entry = func::FuncOp::create(b, loc, (kernel.getName() + "__entry").str(),
                                      b.getFunctionType(entryInputs, {}));
    Block *body = entry.addEntryBlock();
    b.setInsertionPointToStart(body);

    unsigned numParams = kernel.getNumArguments() - kNumProgramInfoArgs;
    SmallVector<Value> operands;
    for (unsigned i = 0; i < numParams; ++i) {
      Value slot = LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), body->getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      operands.push_back(LLVM::LoadOp::create(b, loc, kernel.getArgumentTypes()[i], slot, 8));
    }
    for (unsigned i = 0; i < kNumProgramInfoArgs; ++i)
      operands.push_back(body->getArgument(1 + i));
    func::CallOp::create(b, loc, kernel, operands);
    func::ReturnOp::create(b, loc);
    kernel.setPrivate();
  }
};

} // namespace
} // namespace tritium::cpu
