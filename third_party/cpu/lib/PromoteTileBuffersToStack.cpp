//===- PromoteTileBuffersToStack.cpp - tile buffers without malloc ---------===//
//
// A program allocates its tile buffers each time it runs; a grid runs thousands of programs.
// Buffers the function allocates once per call (its entry block) with a static size live on
// its stack frame instead: no allocator call, no free, memory that stays in cache from one
// program to the next. Buffers allocated inside a loop or a branch (the tiles of one row of a
// loop over rows) that never outlive the region holding them get one stack slot in the entry
// block, reused by every iteration: a fresh allocation's contents are undefined, so reusing
// the slot changes nothing. Buffers that leave the function or their region (loop-carried
// tiles), and large or dynamically sized ones, stay on the heap.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_PROMOTETILEBUFFERSTOSTACK
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Bytes of a static buffer of ints or floats; nullopt for anything else. Bool tiles count a
/// byte an element: that is how they are stored (store-bool-and-bfloat16-as-integers retypes
/// the alloca with the rest of the buffer's ops).
std::optional<int64_t> staticBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !(isa<FloatType>(element) || isa<IntegerType>(element)))
    return std::nullopt;
  return type.getNumElements() * ((element.getIntOrFloatBitWidth() + 7) / 8);
}

/// Whether `stop` holds for a user of the buffer or of a view of it. Views are the memref
/// results of its users and, with `throughRegions`, the results of the op whose terminator
/// yields it.
bool anyUserOfViews(Value buffer, bool throughRegions,
                    llvm::function_ref<bool(Operation *)> stop) {
  SmallVector<Value> worklist = {buffer};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (stop(user))
        return true;
      ValueRange views = throughRegions && user->hasTrait<OpTrait::IsTerminator>()
                             ? user->getParentOp()->getResults()
                             : user->getResults();
      for (Value view : views)
        if (isa<BaseMemRefType>(view.getType()))
          worklist.push_back(view);
    }
  }
  return false;
}

/// Whether the buffer, or a view of it, is returned from the function.
bool leavesFunction(Value buffer) {
  return anyUserOfViews(buffer, /*throughRegions=*/true,
                        [](Operation *user) { return isa<func::ReturnOp>(user); });
}

/// Whether the buffer, or a view of it, may be used after the region that allocates it ends:
/// yielded by a terminator, passed to a call, turned into a tensor or a raw pointer.
bool outlivesItsRegion(Value buffer) {
  return anyUserOfViews(buffer, /*throughRegions=*/false, [](Operation *user) {
    return user->hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(user) ||
           isa<bufferization::ToTensorOp, memref::ExtractAlignedPointerAsIndexOp>(user) ||
           llvm::any_of(user->getResultTypes(), llvm::IsaPred<LLVM::LLVMPointerType>);
  });
}

struct PromoteTileBuffersToStackPass
    : impl::PromoteTileBuffersToStackBase<PromoteTileBuffersToStackPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    // Buffers of the entry block first (their order is the budget's order), then the ones
    // nested in loops and branches.
    SmallVector<memref::AllocOp> allocs;
    for (Operation &op : entry)
      if (auto alloc = dyn_cast<memref::AllocOp>(&op))
        allocs.push_back(alloc);
    func.walk([&](memref::AllocOp alloc) {
      if (alloc->getBlock() != &entry)
        allocs.push_back(alloc);
    });

    int64_t budget = maxFunctionBytes;
    for (memref::AllocOp alloc : allocs) {
      if (!alloc.getDynamicSizes().empty() || !alloc.getSymbolOperands().empty())
        continue;
      std::optional<int64_t> bytes = staticBytes(alloc.getType());
      if (!bytes || *bytes > maxBufferBytes || *bytes > budget)
        continue;
      bool nested = alloc->getBlock() != &entry;
      if (nested ? outlivesItsRegion(alloc) : leavesFunction(alloc))
        continue;
      budget -= *bytes;
      // Nested buffers take a slot at the top of the entry block: allocated once per call.
      OpBuilder b(alloc);
      if (nested)
        b.setInsertionPointToStart(&entry);
      auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), alloc.getType(), ValueRange{},
                                             ValueRange{}, alloc.getAlignmentAttr());
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }
  }
};

} // namespace
} // namespace tritium::cpu
