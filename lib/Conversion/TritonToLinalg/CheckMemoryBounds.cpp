//===- CheckMemoryBounds.cpp - every access checked against its tensor ----===//
//
// The bounds-checking mode (TRITIUM_CHECK_BOUNDS=1, or the kernel option check_bounds=True).
// A kernel gets one more pointer argument, a table the launcher fills per launch:
//
//   [0] flag      0 until the first out-of-bounds access, which sets it to 1
//   [1] argument  the kernel argument the offending pointer derives from
//   [2] address   the smallest offending address of that access
//   [3] site      the index of the access in the module's `tritium.memory_access_sites`
//   [4..6]        the program id along x, y, z
//   [7]           scratch: where suppressed atomic_cas lanes point
//   [8 + 2k], [9 + 2k]   the first and one-past-the-last valid byte of argument k
//
// Every load, store and atomic whose pointer derives (through addptr, splat, broadcast,
// reshapes, selects and loop-carried values) from a pointer argument compares each lane's
// address with that argument's range. Lanes outside it are masked off, so the access never
// touches memory the kernel was not given, and the first offender is recorded for the
// launcher, which raises IndexError once the grid has finished. Pointers that come from
// anywhere else (loaded from memory, int_to_ptr) are not checked. Tensor descriptors are
// checked: the ttir stage has rewritten them to pointers of their base argument.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tritium {
#define GEN_PASS_DEF_CHECKMEMORYBOUNDS
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

constexpr int64_t kFlagSlot = 0, kArgumentSlot = 1, kAddressSlot = 2, kSiteSlot = 3,
                  kProgramIdSlot = 4, kScratchSlot = 7, kFirstRangeSlot = 8;

/// The kernel argument `pointer` is derived from, if the chain of ops that made it is one
/// this pass can follow back to a single argument.
std::optional<unsigned> pointerArgument(Value pointer, tt::FuncOp kernel) {
  Value value = pointer;
  for (int depth = 0; depth < 256; ++depth) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      Operation *owner = argument.getOwner()->getParentOp();
      if (owner == kernel.getOperation())
        return argument.getArgNumber();
      if (auto loop = dyn_cast<scf::ForOp>(owner)) {
        if (OpOperand *init = loop.getTiedLoopInit(argument)) {
          value = init->get();
          continue;
        }
        return std::nullopt;
      }
      if (auto loop = dyn_cast<scf::WhileOp>(owner)) {
        if (argument.getOwner() == loop.getBeforeBody())
          value = loop.getInits()[argument.getArgNumber()];
        else
          value = loop.getConditionOp().getArgs()[argument.getArgNumber()];
        continue;
      }
      return std::nullopt;
    }
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto addptr = dyn_cast<tt::AddPtrOp>(def)) {
      value = addptr.getPtr();
    } else if (isa<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp,
                   tt::BitcastOp>(def)) {
      value = def->getOperand(0);
    } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
      std::optional<unsigned> other = pointerArgument(select.getFalseValue(), kernel);
      if (!other || other != pointerArgument(select.getTrueValue(), kernel))
        return std::nullopt;
      return other;
    } else if (auto loop = dyn_cast<scf::ForOp>(def)) {
      value = loop.getInitArgs()[cast<OpResult>(value).getResultNumber()];
    } else if (auto branch = dyn_cast<scf::IfOp>(def)) {
      unsigned index = cast<OpResult>(value).getResultNumber();
      if (branch.getElseRegion().empty())
        return std::nullopt;
      std::optional<unsigned> other =
          pointerArgument(branch.elseYield().getOperand(index), kernel);
      if (!other || other != pointerArgument(branch.thenYield().getOperand(index), kernel))
        return std::nullopt;
      return other;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

int64_t elementBytes(Type pointee) {
  if (isa<tt::PointerType>(pointee))
    return 8;
  if (!pointee.isIntOrFloat())
    return 0;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// The innermost file location inside `loc`, printed as `file:line:col`.
std::string describeLocation(Location loc) {
  std::string text = "<unknown location>";
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
              Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

/// The integer `value` (1 is true for i1) as a constant of `type`, a scalar or a tensor.
Value constantLike(OpBuilder &b, Location loc, Type type, int64_t value) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto element = cast<IntegerType>(tensor ? tensor.getElementType() : type);
  APInt bits(element.getWidth(), uint64_t(value), /*isSigned=*/value < 0);
  if (tensor)
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(tensor, bits));
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, bits));
}

/// `tensor` reduced over every dimension with `combine`.
Value reduceAll(OpBuilder &b, Location loc, Value tensor,
                function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type element = type.getElementType();
  if (type.getRank() != 1)
    tensor = tt::ReshapeOp::create(b, loc, RankedTensorType::get({type.getNumElements()}, element),
                                   tensor);
  auto reduce = tt::ReduceOp::create(b, loc, TypeRange{element}, ValueRange{tensor}, 0u);
  auto *body = new Block();
  reduce.getCombineOp().push_back(body);
  body->addArguments({element, element}, {loc, loc});
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  Value combined = combine(inner, loc, body->getArgument(0), body->getArgument(1));
  tt::ReduceReturnOp::create(inner, loc, ValueRange{combined});
  return reduce.getResult()[0];
}

class KernelInstrumenter {
public:
  KernelInstrumenter(tt::FuncOp kernel, SmallVectorImpl<Attribute> &sites)
      : kernel(kernel), sites(sites), i64(IntegerType::get(kernel.getContext(), 64)) {}

  LogicalResult run() {
    SmallVector<Operation *> accesses;
    kernel.walk([&](Operation *op) {
      if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp, tt::AtomicLoadOp,
              tt::AtomicStoreOp>(op))
        accesses.push_back(op);
    });
    unsigned index = kernel.getNumArguments();
    if (failed(kernel.insertArgument(index, tt::PointerType::get(i64, 1), DictionaryAttr(),
                                     kernel.getLoc())))
      return kernel.emitError("tritium: cannot add the bounds table argument");
    table = kernel.getArgument(index);
    for (Operation *op : accesses)
      instrument(op);
    return success();
  }

private:
  Value slotPointer(OpBuilder &b, Location loc, int64_t slot) {
    Value offset = constantLike(b, loc, b.getI32Type(), slot);
    return tt::AddPtrOp::create(b, loc, table.getType(), table, offset);
  }

  /// The valid byte range [first, end) of argument `k`, loaded once at the kernel's entry.
  std::pair<Value, Value> rangeOf(unsigned k) {
    auto found = ranges.find(k);
    if (found != ranges.end())
      return found->second;
    OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
    Location loc = kernel.getLoc();
    auto load = [&](int64_t slot) -> Value {
      return tt::LoadOp::create(b, loc, i64, slotPointer(b, loc, slot), Value(), Value(),
                                Attribute(), false);
    };
    std::pair<Value, Value> range{load(kFirstRangeSlot + 2 * k), load(kFirstRangeSlot + 2 * k + 1)};
    ranges[k] = range;
    return range;
  }

  static Value pointerOperand(Operation *op) { return op->getOperand(0); }

  static Value maskOperand(Operation *op) {
    if (auto load = dyn_cast<tt::LoadOp>(op))
      return load.getMask();
    if (auto store = dyn_cast<tt::StoreOp>(op))
      return store.getMask();
    if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op))
      return rmw.getMask();
    if (auto load = dyn_cast<tt::AtomicLoadOp>(op))
      return load.getMask();
    if (auto store = dyn_cast<tt::AtomicStoreOp>(op))
      return store.getMask();
    return Value();
  }

  static void setMask(Operation *op, Value mask) {
    if (auto load = dyn_cast<tt::LoadOp>(op))
      load.getMaskMutable().assign(mask);
    else if (auto store = dyn_cast<tt::StoreOp>(op))
      store.getMaskMutable().assign(mask);
    else if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op))
      rmw.getMaskMutable().assign(mask);
    else if (auto load = dyn_cast<tt::AtomicLoadOp>(op))
      load.getMaskMutable().assign(mask);
    else if (auto store = dyn_cast<tt::AtomicStoreOp>(op))
      store.getMaskMutable().assign(mask);
  }

  void instrument(Operation *op) {
    Value pointer = pointerOperand(op);
    auto tensorType = dyn_cast<RankedTensorType>(pointer.getType());
    auto pointerType = dyn_cast<tt::PointerType>(
        tensorType ? tensorType.getElementType() : pointer.getType());
    if (!pointerType || isa<RankedTensorType>(pointerType.getPointeeType()))
      return; // a pointer to a tensor (older Triton's block pointers): nothing to check
    int64_t bytes = elementBytes(pointerType.getPointeeType());
    std::optional<unsigned> argument = pointerArgument(pointer, kernel);
    if (!bytes || !argument)
      return;
    auto [first, end] = rangeOf(*argument);

    OpBuilder b(op);
    Location loc = op->getLoc();
    Type addressType = tensorType ? Type(tensorType.clone(i64)) : Type(i64);
    Type boolType = tensorType ? Type(tensorType.clone(b.getI1Type())) : Type(b.getI1Type());
    auto splat = [&](Value scalar, Type type) -> Value {
      return tensorType ? Value(tt::SplatOp::create(b, loc, type, scalar)) : scalar;
    };
    Value address = tt::PtrToIntOp::create(b, loc, addressType, pointer);
    Value last = arith::AddIOp::create(b, loc, address, constantLike(b, loc, addressType, bytes));
    Value notBefore =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, address, splat(first, addressType));
    Value notAfter =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, last, splat(end, addressType));
    Value inside = arith::AndIOp::create(b, loc, notBefore, notAfter);
    Value outside = arith::XOrIOp::create(b, loc, inside, constantLike(b, loc, boolType, 1));
    Value mask = maskOperand(op);
    if (mask)
      outside = arith::AndIOp::create(b, loc, outside, mask);

    Value anyOutside = outside, offending = address;
    if (tensorType) {
      anyOutside = reduceAll(b, loc, outside, [](OpBuilder &r, Location l, Value x, Value y) {
        return arith::OrIOp::create(r, l, x, y).getResult();
      });
      Value candidates = arith::SelectOp::create(b, loc, outside, address,
                                                 constantLike(b, loc, addressType, -1));
      offending = reduceAll(b, loc, candidates, [](OpBuilder &r, Location l, Value x, Value y) {
        return arith::MinUIOp::create(r, l, x, y).getResult();
      });
    }
    record(b, loc, anyOutside, *argument, offending, int64_t(sites.size()));
    sites.push_back(StringAttr::get(op->getContext(), describeLocation(loc) + ": " +
                                                          op->getName().getStringRef()));

    if (auto cas = dyn_cast<tt::AtomicCASOp>(op)) {
      // No mask: lanes outside point at the table's scratch slot instead.
      Value scratch = tt::BitcastOp::create(b, loc, pointerType,
                                            slotPointer(b, loc, kScratchSlot));
      cas.getPtrMutable().assign(arith::SelectOp::create(
          b, loc, inside, pointer, splat(scratch, pointer.getType())));
      return;
    }
    setMask(op, mask ? Value(arith::AndIOp::create(b, loc, mask, inside)) : inside);
  }

  /// If `outside`, the first program to get here writes its record into the table.
  void record(OpBuilder &b, Location loc, Value outside, unsigned argument, Value address,
              int64_t site) {
    auto ifOutside = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
    OpBuilder then = ifOutside.getThenBodyBuilder();
    Value previous = tt::AtomicRMWOp::create(
        then, loc, i64, tt::RMWOp::XCHG, slotPointer(then, loc, kFlagSlot),
        constantLike(then, loc, i64, 1), Value(), tt::MemSemantic::ACQUIRE_RELEASE,
        tt::MemSyncScope::GPU);
    Value firstOne = arith::CmpIOp::create(then, loc, arith::CmpIPredicate::eq, previous,
                                           constantLike(then, loc, i64, 0));
    auto ifFirst = scf::IfOp::create(then, loc, firstOne, /*withElseRegion=*/false);
    OpBuilder w = ifFirst.getThenBodyBuilder();
    auto store = [&](int64_t slot, Value value) {
      tt::StoreOp::create(w, loc, slotPointer(w, loc, slot), value, Value(), Attribute(), false);
    };
    store(kArgumentSlot, constantLike(w, loc, i64, argument));
    store(kAddressSlot, address);
    store(kSiteSlot, constantLike(w, loc, i64, site));
    for (int axis = 0; axis < 3; ++axis) {
      Value id = tt::GetProgramIdOp::create(w, loc, tt::ProgramIDDim(axis));
      store(kProgramIdSlot + axis, arith::ExtSIOp::create(w, loc, i64, id));
    }
  }

  tt::FuncOp kernel;
  SmallVectorImpl<Attribute> &sites;
  IntegerType i64;
  Value table;
  llvm::DenseMap<unsigned, std::pair<Value, Value>> ranges;
};

struct CheckMemoryBoundsPass : impl::CheckMemoryBoundsBase<CheckMemoryBoundsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Attribute> sites;
    for (auto kernel : module.getOps<tt::FuncOp>()) {
      if (!kernel.isPublic() || kernel.isExternal())
        continue;
      if (failed(KernelInstrumenter(kernel, sites).run()))
        return signalPassFailure();
    }
    module->setAttr("tritium.memory_access_sites", ArrayAttr::get(module.getContext(), sites));
  }
};

} // namespace
} // namespace tritium
