//===- AtomicPatterns.cpp - tt.atomic_rmw/cas/load/store/poll -------------===//
//
// Each element is one LLVM atomic instruction at its address, in a loop over the tile;
// masked-off lanes do not touch memory and return zero. A read-modify-write of a tile computes
// the tile's addresses into a buffer first, in a loop that vectorizes: the loop of atomics
// then takes a few instructions an element, and where its lanes miss the cache (a scatter) the
// core overlaps more of those misses (Inductor's max-pool backward, 2^21 relaxed adds 16 KB
// apart: ~0.69x -> ~0.87x of torch's index_add_ at one thread). Memory semantics map to LLVM
// orderings; every scope is the whole process on a CPU. Compare-and-swap of floats compares
// their bits, as on GPUs. Atomic loads and stores move the bits as an integer of the
// element's width. A relaxed read-modify-write of device scope asks the device runtime once
// whether its launch runs alone (kLaunchRunsAlone) and is then a plain load, operation and
// store: a locked instruction waits for its cache line where plain accesses overlap their
// misses (Inductor's max-pool backward scatter-add runs 1.6x faster). atomic_poll spins on an
// atomic load of each element until it equals the expected value or the timeout (measured
// from the op's start by the device runtime's monotonic clock) expires; it yields whether the
// value was seen.
//
//===----------------------------------------------------------------------===//

#include "ExternalFunctions.h"
#include "PointerUtils.h"
#include "TileElementMaterializer.h"
#include "TileLoops.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Conversion/TritonToLinalg/DeviceRuntimeFunctions.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tritium {
namespace {

LLVM::AtomicOrdering orderingOf(tt::MemSemantic semantic) {
  switch (semantic) {
  case tt::MemSemantic::RELAXED: return LLVM::AtomicOrdering::monotonic;
  case tt::MemSemantic::ACQUIRE: return LLVM::AtomicOrdering::acquire;
  case tt::MemSemantic::RELEASE: return LLVM::AtomicOrdering::release;
  case tt::MemSemantic::ACQUIRE_RELEASE: return LLVM::AtomicOrdering::acq_rel;
  }
  return LLVM::AtomicOrdering::seq_cst;
}

/// The LLVM operation for a Triton RMW kind on elements of `type`, if one exists.
std::optional<LLVM::AtomicBinOp> binOpOf(tt::RMWOp kind, Type type) {
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case tt::RMWOp::AND: return LLVM::AtomicBinOp::_and;
  case tt::RMWOp::OR: return LLVM::AtomicBinOp::_or;
  case tt::RMWOp::XOR: return LLVM::AtomicBinOp::_xor;
  case tt::RMWOp::ADD: return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case tt::RMWOp::FADD: return LLVM::AtomicBinOp::fadd;
  case tt::RMWOp::MAX: return isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
  case tt::RMWOp::MIN: return isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
  case tt::RMWOp::UMAX: return LLVM::AtomicBinOp::umax;
  case tt::RMWOp::UMIN: return LLVM::AtomicBinOp::umin;
  case tt::RMWOp::XCHG: return LLVM::AtomicBinOp::xchg;
  }
  return std::nullopt;
}

/// The addresses of a tile of pointers, computed in a loop of their own into a buffer of
/// 64-bit integers (a tile buffer like any other: on the stack where it is small). That loop
/// is plain arithmetic, which vectorizes; the loop of atomics then reads one integer a lane.
Value materializeAddresses(OpBuilder &b, Location loc, Value pointers, ArrayRef<int64_t> shape,
                           TileElementMaterializer &elements) {
  Value addresses = allocateTile(b, loc, RankedTensorType::get(shape, b.getI64Type()));
  forEachIndex(b, loc, shape, [&](OpBuilder &b, Location loc, ValueRange indices) {
    Value ptr = elements.elementAt(b, loc, pointers, indices);
    memref::StoreOp::create(b, loc, LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr),
                            addresses, indices);
  });
  return addresses;
}

/// Runs `atomic` at each element whose mask is set; returns the old values (a tensor, or a
/// scalar for scalar operands). With `addressesFirst`, a tile's addresses are computed before
/// its atomics (materializeAddresses): a scatter whose lanes land on lines far apart waits on
/// memory at every element, and the fewer instructions each element's atomic takes, the more
/// of those waits the core overlaps (Inductor's max-pool backward, a relaxed add 16 KB from
/// one lane to the next).
template <typename OpTy>
LogicalResult emitAtomic(OpTy op, Value mask, ConversionPatternRewriter &rewriter,
                         const TypeConverter &converter,
                         function_ref<Value(OpBuilder &, Location, Value ptr, ValueRange indices,
                                            TileElementMaterializer &)>
                             atomic,
                         bool addressesFirst = false) {
  Location loc = op.getLoc();
  Type elementType = converter.convertType(getElementTypeOrSelf(op.getType()));
  TileElementMaterializer elements(rewriter, converter);
  auto tileType = dyn_cast<RankedTensorType>(op.getType());
  Value addresses;
  if (tileType && addressesFirst && tileType.getNumElements() > 1)
    addresses = materializeAddresses(rewriter, loc, op.getPtr(), tileType.getShape(), elements);
  Type pointerType = converter.convertType(getElementTypeOrSelf(op.getPtr().getType()));
  auto pointerAt = [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
    if (!addresses)
      return elements.elementAt(b, loc, op.getPtr(), indices);
    Value bits = memref::LoadOp::create(b, loc, addresses, indices);
    return LLVM::IntToPtrOp::create(b, loc, pointerType, bits);
  };
  auto guarded = [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
    Value ptr = pointerAt(b, loc, indices);
    Value maskElement = mask ? elements.elementAt(b, loc, mask, indices) : Value();
    return valueUnderMask(
        b, loc, maskElement,
        [&](OpBuilder &b, Location loc) { return atomic(b, loc, ptr, indices, elements); },
        [&](OpBuilder &b, Location loc) { return zeroOf(b, loc, elementType); });
  };
  if (!tileType) {
    rewriter.replaceOp(op, guarded(rewriter, loc, {}));
    return success();
  }
  auto resultType = cast<RankedTensorType>(converter.convertType(tileType));
  Value buffer = allocateTile(rewriter, loc, resultType);
  forEachIndex(rewriter, loc, tileType.getShape(),
               [&](OpBuilder &b, Location loc, ValueRange indices) {
                 Value old = guarded(b, loc, indices);
                 memref::StoreOp::create(b, loc, asTensorElement(b, loc, old), buffer, indices);
               });
  rewriter.replaceOp(op, tileBufferAsTensor(rewriter, loc, buffer, resultType));
  return success();
}

/// What `binOp` stores given the `old` element and the operand `val` (LLVM's definitions:
/// fmax/fmin are maxnum/minnum).
Value rmwResult(OpBuilder &b, Location loc, LLVM::AtomicBinOp binOp, Value old, Value val) {
  switch (binOp) {
  case LLVM::AtomicBinOp::add: return arith::AddIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::fadd: return arith::AddFOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::_and: return arith::AndIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::_or: return arith::OrIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::_xor: return arith::XOrIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::max: return arith::MaxSIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::min: return arith::MinSIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::umax: return arith::MaxUIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::umin: return arith::MinUIOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::fmax: return arith::MaxNumFOp::create(b, loc, old, val);
  case LLVM::AtomicBinOp::fmin: return arith::MinNumFOp::create(b, loc, old, val);
  default: return val; // xchg
  }
}

struct AtomicRMWConversion : OpConversionPattern<tt::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getVal().getType());
    std::optional<LLVM::AtomicBinOp> binOp = binOpOf(op.getAtomicRmwOp(), elementType);
    if (!binOp)
      return op.emitError("tritium cannot lower this atomic_rmw kind");
    LLVM::AtomicOrdering ordering = orderingOf(op.getSem());
    unsigned alignment = pointeeByteSize(elementType);
    // Only relaxed operations may become plain ones: an acquire or release orders other
    // accesses, and system scope reaches memory other processes share.
    Value runsAlone;
    if (op.getSem() == tt::MemSemantic::RELAXED && op.getScope() != tt::MemSyncScope::SYSTEM) {
      func::FuncOp query =
          declareExternalFunction(rewriter, op, device_runtime::kLaunchRunsAlone,
                                  rewriter.getFunctionType({}, {rewriter.getI32Type()}));
      Value answer = func::CallOp::create(rewriter, op.getLoc(), query, ValueRange{}).getResult(0);
      runsAlone = arith::CmpIOp::create(rewriter, op.getLoc(), arith::CmpIPredicate::ne, answer,
                                        arith::ConstantIntOp::create(rewriter, op.getLoc(), 0, 32));
    }
    return emitAtomic(
        op, op.getMask(), rewriter, *getTypeConverter(),
        [&](OpBuilder &b, Location loc, Value ptr, ValueRange indices,
            TileElementMaterializer &elements) -> Value {
          Value val = elements.elementAt(b, loc, op.getVal(), indices);
          auto atomic = [&](OpBuilder &b, Location loc) -> Value {
            return LLVM::AtomicRMWOp::create(b, loc, *binOp, ptr, val, ordering, StringRef(),
                                             alignment);
          };
          if (!runsAlone)
            return atomic(b, loc);
          auto choice = scf::IfOp::create(
              b, loc, runsAlone,
              [&](OpBuilder &b, Location loc) {
                Value old = LLVM::LoadOp::create(b, loc, val.getType(), ptr, alignment);
                LLVM::StoreOp::create(b, loc, rmwResult(b, loc, *binOp, old, val), ptr,
                                      alignment);
                scf::YieldOp::create(b, loc, old);
              },
              [&](OpBuilder &b, Location loc) { scf::YieldOp::create(b, loc, atomic(b, loc)); });
          return choice.getResult(0);
        },
        /*addressesFirst=*/true);
  }
};

struct AtomicCASConversion : OpConversionPattern<tt::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicCASOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getVal().getType());
    LLVM::AtomicOrdering ordering = orderingOf(op.getSem());
    // cmpxchg needs a failure ordering without release semantics.
    LLVM::AtomicOrdering failureOrdering =
        ordering == LLVM::AtomicOrdering::release || ordering == LLVM::AtomicOrdering::monotonic
            ? LLVM::AtomicOrdering::monotonic
            : LLVM::AtomicOrdering::acquire;
    unsigned alignment = pointeeByteSize(elementType);
    return emitAtomic(
        op, Value(), rewriter, *getTypeConverter(),
        [&](OpBuilder &b, Location loc, Value ptr, ValueRange indices,
            TileElementMaterializer &elements) -> Value {
          Value cmp = elements.elementAt(b, loc, op.getCmp(), indices);
          Value val = elements.elementAt(b, loc, op.getVal(), indices);
          Type bits = elementType;
          if (auto floatType = dyn_cast<FloatType>(elementType)) {
            bits = b.getIntegerType(floatType.getWidth());
            cmp = arith::BitcastOp::create(b, loc, bits, cmp);
            val = arith::BitcastOp::create(b, loc, bits, val);
          }
          auto cas = LLVM::AtomicCmpXchgOp::create(b, loc, ptr, cmp, val, ordering,
                                                   failureOrdering, StringRef(), alignment);
          Value old = LLVM::ExtractValueOp::create(b, loc, cas, ArrayRef<int64_t>{0});
          if (bits != elementType)
            old = arith::BitcastOp::create(b, loc, elementType, old);
          return old;
        });
  }
};

/// An atomic load of the element at `ptr`, through an integer of its width.
Value atomicLoadElement(OpBuilder &b, Location loc, Value ptr, Type elementType,
                        LLVM::AtomicOrdering ordering) {
  unsigned width = elementType.getIntOrFloatBitWidth();
  Type bits = b.getIntegerType(width);
  Value loaded = LLVM::LoadOp::create(b, loc, bits, ptr, /*alignment=*/std::max(width / 8, 1u),
                                      /*isVolatile=*/false, /*isNonTemporal=*/false,
                                      /*isInvariant=*/false, /*isInvariantGroup=*/false, ordering);
  if (bits != elementType)
    loaded = arith::BitcastOp::create(b, loc, elementType, loaded);
  return loaded;
}

struct AtomicLoadConversion : OpConversionPattern<tt::AtomicLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicLoadOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getType());
    LLVM::AtomicOrdering ordering = orderingOf(op.getSem());
    return emitAtomic(op, op.getMask(), rewriter, *getTypeConverter(),
                      [&](OpBuilder &b, Location loc, Value ptr, ValueRange,
                          TileElementMaterializer &) -> Value {
                        return atomicLoadElement(b, loc, ptr, elementType, ordering);
                      });
  }
};

struct AtomicStoreConversion : OpConversionPattern<tt::AtomicStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicStoreOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getValue().getType());
    unsigned width = elementType.getIntOrFloatBitWidth();
    LLVM::AtomicOrdering ordering = orderingOf(op.getSem());
    TileElementMaterializer elements(rewriter, *getTypeConverter());
    auto storeAt = [&](OpBuilder &b, Location loc, ValueRange indices) {
      Value ptr = elements.elementAt(b, loc, op.getPtr(), indices);
      Value mask = op.getMask() ? elements.elementAt(b, loc, op.getMask(), indices) : Value();
      auto store = [&](OpBuilder &b, Location loc) {
        Value value = elements.elementAt(b, loc, op.getValue(), indices);
        Type bits = b.getIntegerType(width);
        if (bits != elementType)
          value = arith::BitcastOp::create(b, loc, bits, value);
        LLVM::StoreOp::create(b, loc, value, ptr, std::max(width / 8, 1u), /*isVolatile=*/false,
                              /*isNonTemporal=*/false, /*isInvariantGroup=*/false, ordering);
      };
      if (!mask) {
        store(b, loc);
        return;
      }
      scf::IfOp::create(b, loc, mask, [&](OpBuilder &b, Location loc) {
        store(b, loc);
        scf::YieldOp::create(b, loc);
      });
    };
    if (auto tileType = dyn_cast<RankedTensorType>(op.getValue().getType()))
      forEachIndex(rewriter, op.getLoc(), tileType.getShape(), storeAt);
    else
      storeAt(rewriter, op.getLoc(), {});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AtomicPollConversion : OpConversionPattern<tt::AtomicPollOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AtomicPollOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getExpected().getType());
    LLVM::AtomicOrdering ordering = orderingOf(op.getSem());
    Location loc = op.getLoc();
    func::FuncOp clock;
    Value start, timeout = adaptor.getTimeout();
    if (timeout) {
      clock = declareExternalFunction(rewriter, op, device_runtime::kNanoseconds,
                                      rewriter.getFunctionType({}, {rewriter.getI64Type()}));
      start = func::CallOp::create(rewriter, loc, clock, ValueRange{}).getResult(0);
    }
    return emitAtomic(
        op, Value(), rewriter, *getTypeConverter(),
        [&](OpBuilder &b, Location loc, Value ptr, ValueRange indices,
            TileElementMaterializer &elements) -> Value {
          Value expected = elements.elementAt(b, loc, op.getExpected(), indices);
          auto loop = scf::WhileOp::create(
              b, loc, TypeRange{b.getI1Type()}, ValueRange{},
              [&](OpBuilder &b, Location loc, ValueRange) {
                Value value = atomicLoadElement(b, loc, ptr, elementType, ordering);
                Value seen =
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value, expected);
                Value keepGoing = arith::XOrIOp::create(
                    b, loc, seen, arith::ConstantIntOp::create(b, loc, 1, 1));
                if (timeout) {
                  Value now = func::CallOp::create(b, loc, clock, ValueRange{}).getResult(0);
                  Value elapsed = arith::SubIOp::create(b, loc, now, start);
                  Value inTime =
                      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, elapsed, timeout);
                  keepGoing = arith::AndIOp::create(b, loc, keepGoing, inTime);
                }
                scf::ConditionOp::create(b, loc, keepGoing, ValueRange{seen});
              },
              [&](OpBuilder &b, Location loc, ValueRange) {
                scf::YieldOp::create(b, loc, ValueRange{});
              });
          return loop.getResult(0);
        });
  }
};

} // namespace

void populateAtomicPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AtomicRMWConversion, AtomicCASConversion, AtomicLoadConversion,
               AtomicStoreConversion, AtomicPollConversion>(converter, patterns.getContext());
}

} // namespace tritium
