//===- LayoutVerifiers.cpp - ttg encodings against their ops and module ---===//
//
// The checks triton 3.9 makes on encodings where they are used, since what
// is valid depends on the module: the number of lanes per warp
// (`ttg.threads-per-warp`, 32 by default), of warps (`ttg.num-warps` of the
// module or tt.func, or `num_warps` of a warp_specialize partition) and of
// CTAs (`ttg.num-ctas`, 1 by default). Tensors must have distributed
// encodings of their rank and power-of-two shapes; memory descriptors
// encodings of their rank (one less when multi-buffered). Dots check that
// their operands' encodings fit the result's. Triton computes lanes and warps
// from the linear layout of the encoding; here they are read off the
// parameters, which gives the same sizes.
//
// Also: where the module settings may be set (verifyOperationAttribute).
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium::ttg;
namespace tt = tritium::tt;

namespace {

// The module settings, spelled as triton spells them.
constexpr StringLiteral kNumWarps = "ttg.num-warps";
constexpr StringLiteral kNumCTAs = "ttg.num-ctas";
constexpr StringLiteral kThreadsPerWarp = "ttg.threads-per-warp";
constexpr StringLiteral kTarget = "ttg.target";

int64_t multiplyAll(ArrayRef<unsigned> values) {
  int64_t result = 1;
  for (unsigned value : values)
    result *= value;
  return result;
}

/// The size of hardware dimension `name` (lane, warp, block) of a linear
/// layout: 2^(number of its bases), broadcast (all-zero) bases included.
int64_t inDimSize(const LinearBases &bases, StringRef name) {
  return int64_t(1) << bases.getBases(name).size();
}

/// An integer setting of `module`, or `fallback` when it is not set.
int64_t getModuleSetting(ModuleOp module, StringRef name, int64_t fallback) {
  if (module)
    if (auto value = module->getAttrOfType<IntegerAttr>(name))
      return value.getInt();
  return fallback;
}

/// The number of warps running `op`: the `num_warps` of the warp_specialize
/// partition it is in, else `ttg.num-warps` of the closest tt.func or module
/// that sets it.
std::optional<int64_t> lookupNumWarps(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp()) {
    if (isa<ModuleOp, tt::FuncOp>(current)) {
      if (auto value = current->getAttrOfType<IntegerAttr>(kNumWarps))
        return value.getInt();
    } else if (isa_and_nonnull<WarpSpecializePartitionsOp>(current->getParentOp())) {
      auto warpSpecialize =
          dyn_cast_or_null<WarpSpecializeOp>(current->getParentOp()->getParentOp());
      unsigned partition = current->getParentRegion()->getRegionNumber();
      if (!warpSpecialize || partition >= warpSpecialize.getPartitionNumWarps().size())
        return std::nullopt;
      return warpSpecialize.getPartitionNumWarps()[partition];
    }
  }
  return std::nullopt;
}

/// The number of CTAs a ttg encoding spreads its tensor or tile over, from
/// its CGA layout (or the `block` bases of a linear layout).
std::optional<int64_t> getNumCTAs(Attribute layout) {
  return llvm::TypeSwitch<Attribute, std::optional<int64_t>>(layout)
      .Case<BlockedEncodingAttr, NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr,
            SwizzledSharedEncodingAttr, AMDRotatingSharedEncodingAttr, NVMMASharedEncodingAttr>(
          [](auto encoding) { return inDimSize(encoding.getCGALayout(), "block"); })
      .Case<LinearEncodingAttr, GenericLinearEncodingAttr, SharedLinearEncodingAttr>(
          [](auto encoding) { return inDimSize(encoding.getLinearLayout(), "block"); })
      .Case([](PaddedSharedEncodingAttr encoding) {
        return inDimSize(encoding.getLinearComponent(), "block");
      })
      .Case<SliceEncodingAttr, DotOperandEncodingAttr>(
          [](auto encoding) { return getNumCTAs(encoding.getParent()); })
      .Case([](PartitionedSharedEncodingAttr encoding) {
        return getNumCTAs(encoding.getPartitionLayout());
      })
      .Default([](Attribute) { return std::nullopt; });
}

/// How a distributed encoding spreads a tensor over the threads of a CTA.
struct WarpShape {
  int64_t lanes; // per warp
  int64_t warps;
};

std::optional<WarpShape> getWarpShape(Attribute layout) {
  return llvm::TypeSwitch<Attribute, std::optional<WarpShape>>(layout)
      .Case([](BlockedEncodingAttr encoding) {
        return WarpShape{multiplyAll(encoding.getThreadsPerWarp()),
                         multiplyAll(encoding.getWarpsPerCTA())};
      })
      .Case<LinearEncodingAttr, GenericLinearEncodingAttr>([](auto encoding) {
        const LinearBases &bases = encoding.getLinearLayout();
        return WarpShape{inDimSize(bases, "lane"), inDimSize(bases, "warp")};
      })
      .Case<SliceEncodingAttr, DotOperandEncodingAttr>(
          [](auto encoding) { return getWarpShape(encoding.getParent()); })
      // Tensor-core layouts use whole warps: 32 lanes on NVIDIA and for AMD
      // WMMA (wave32), 64 for AMD MFMA (wave64).
      .Case([](NvidiaMmaEncodingAttr encoding) {
        return WarpShape{32, multiplyAll(encoding.getWarpsPerCTA())};
      })
      .Case([](AMDMfmaEncodingAttr encoding) {
        return WarpShape{64, multiplyAll(encoding.getWarpsPerCTA())};
      })
      .Case([](AMDWmmaEncodingAttr encoding) {
        return WarpShape{32, inDimSize(encoding.getCtaLayout(), "warp")};
      })
      .Default([](Attribute) { return std::nullopt; });
}

/// Whether `layout` is (or is a slice or dot operand of) a generic_linear
/// encoding, which only the ops below are known to handle.
bool isGenericLinear(Attribute layout) {
  if (isa<GenericLinearEncodingAttr>(layout))
    return true;
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return isGenericLinear(slice.getParent());
  if (auto dotOperand = dyn_cast<DotOperandEncodingAttr>(layout))
    return isGenericLinear(dotOperand.getParent());
  return false;
}

bool acceptsGenericLinear(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp, tt::JoinOp, tt::SplitOp,
             tt::MakeRangeOp, tt::SplatOp, tt::BroadcastOp, tt::LoadOp, tt::StoreOp, tt::DotOp,
             tt::DotScaledOp, tt::CallOp, tt::ReturnOp, tt::FuncOp, tt::AssertOp, ConvertLayoutOp,
             Fp4ToFpOp, LocalLoadOp, LocalStoreOp>(op);
}

LogicalResult verifyNumCTAs(Attribute layout, Operation *op,
                            function_ref<InFlightDiagnostic()> emitError) {
  std::optional<int64_t> ctas = getNumCTAs(layout);
  if (!ctas)
    return success();
  int64_t moduleCTAs = getModuleSetting(op->getParentOfType<ModuleOp>(), kNumCTAs, 1);
  if (*ctas != moduleCTAs)
    return emitError() << layout << " spreads over " << *ctas << " CTA(s), but the module has "
                       << moduleCTAs << " ('" << kNumCTAs << "')";
  return success();
}

/// An AMD WMMA layout equal to `b` but for its CGA layout: the operands of a
/// multi-CTA dot have their own CGA layouts.
bool isSameWmmaIgnoringCGA(Attribute a, Attribute b) {
  auto x = dyn_cast<AMDWmmaEncodingAttr>(a), y = dyn_cast<AMDWmmaEncodingAttr>(b);
  return x && y && x.getVersion() == y.getVersion() && x.getCtaLayout() == y.getCtaLayout() &&
         x.getIsTransposed() == y.getIsTransposed() && x.getInstrShape() == y.getInstrShape();
}

/// Operand `opIdx` (0 for a, 1 for b) of a dot with result encoding
/// `resultEncoding` is laid out for that dot.
LogicalResult verifyDotOperand(tt::DotOp op, Attribute encoding, unsigned opIdx,
                               Attribute resultEncoding) {
  StringRef name = opIdx == 0 ? "a" : "b";
  auto dotOperand = dyn_cast<DotOperandEncodingAttr>(encoding);
  auto mma = dyn_cast<NvidiaMmaEncodingAttr>(resultEncoding);
  if (mma && mma.getVersionMajor() == 3) {
    // Hopper MMA reads b, and usually a, from shared memory.
    if (opIdx == 0 && dotOperand && dotOperand.getOpIdx() == 0 &&
        isa<NvidiaMmaEncodingAttr>(dotOperand.getParent()))
      return success();
    return op.emitOpError("operand ")
           << name << " cannot be a register tensor (" << encoding
           << ") for a version 3 NVIDIA MMA result; only operand a can, and only as a "
              "#ttg.dot_op of an NVIDIA MMA layout";
  }
  if (!dotOperand)
    return op.emitOpError("operand ") << name << " must have a #ttg.dot_op encoding, got "
                                      << encoding;
  if (dotOperand.getOpIdx() != opIdx)
    return op.emitOpError("operand ") << name << " must have a #ttg.dot_op encoding with opIdx = "
                                      << opIdx << ", got opIdx = " << dotOperand.getOpIdx();
  if (dotOperand.getParent() != resultEncoding &&
      !isSameWmmaIgnoringCGA(dotOperand.getParent(), resultEncoding))
    return op.emitOpError("the #ttg.dot_op encoding of operand ")
           << name << " must have the result's encoding as parent, got " << dotOperand.getParent();
  return success();
}

struct TTGLayoutVerifier : public tt::LayoutVerifierInterface {
  using LayoutVerifierInterface::LayoutVerifierInterface;

  LogicalResult verifyTensorLayout(Attribute layout, RankedTensorType type, Operation *op,
                                   function_ref<InFlightDiagnostic()> emitError) const override {
    if (auto encoding = dyn_cast<LayoutEncodingTrait>(layout))
      if (encoding.getRank() != type.getRank())
        return emitError() << "the encoding has rank " << encoding.getRank()
                           << " but the tensor has rank " << type.getRank();
    if (failed(verifyNumCTAs(layout, op, emitError)))
      return failure();
    if (!isa<DistributedEncodingTrait>(layout))
      return emitError() << "a tensor needs a distributed (register) encoding, not " << layout;
    if (isGenericLinear(layout) && !acceptsGenericLinear(op))
      return emitError() << "'" << op->getName() << "' does not accept generic_linear encodings";
    if (llvm::any_of(type.getShape(),
                     [](int64_t dim) { return dim <= 0 || !llvm::isPowerOf2_64(dim); }))
      return emitError() << "every dimension of a tensor with an encoding must be a power of "
                            "two, got ["
                         << type.getShape() << "]";

    std::optional<WarpShape> shape = getWarpShape(layout);
    if (!shape)
      return success();
    int64_t lanes =
        getModuleSetting(op->getParentOfType<ModuleOp>(), kThreadsPerWarp, /*fallback=*/32);
    if (shape->lanes != lanes)
      return emitError() << layout << " has " << shape->lanes
                         << " lanes per warp, but the module has " << lanes << " ('"
                         << kThreadsPerWarp << "')";
    std::optional<int64_t> warps = lookupNumWarps(op);
    if (!warps)
      return emitError() << "cannot tell how many warps run the op: set '" << kNumWarps
                         << "' on the module or the tt.func";
    if (shape->warps != *warps)
      return emitError() << layout << " spreads over " << shape->warps
                         << " warp(s), but the op runs on " << *warps << " ('" << kNumWarps
                         << "', or num_warps of its warp_specialize partition)";
    return success();
  }

  LogicalResult verifyDotLayouts(tt::DotOp op) const override {
    Attribute aEncoding = op.getA().getType().getEncoding();
    Attribute bEncoding = op.getB().getType().getEncoding();
    Attribute resultEncoding = op.getD().getType().getEncoding();
    if (failed(verifyDotOperand(op, aEncoding, 0, resultEncoding)) ||
        failed(verifyDotOperand(op, bEncoding, 1, resultEncoding)))
      return failure();

    auto aDotOperand = dyn_cast<DotOperandEncodingAttr>(aEncoding);
    auto bDotOperand = dyn_cast<DotOperandEncodingAttr>(bEncoding);
    if (!aDotOperand || !bDotOperand)
      return success();
    if (aDotOperand.getKWidth() != bDotOperand.getKWidth())
      return op.emitOpError("a and b must have the same kWidth, got ")
             << aDotOperand.getKWidth() << " and " << bDotOperand.getKWidth();

    // The operands are dot operands of the result's layout, so on NVIDIA
    // tensor cores all three are MMA layouts, which multiply f32 as tf32 only.
    if (isa<NvidiaMmaEncodingAttr>(resultEncoding) &&
        op.getA().getType().getElementType().isF32() &&
        op.getB().getType().getElementType().isF32() &&
        op.getInputPrecision() != tt::InputPrecision::TF32)
      return op.emitOpError("an NVIDIA MMA dot of f32 operands must have inputPrecision = tf32, "
                            "got ")
             << tt::stringifyInputPrecision(op.getInputPrecision());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Memory descriptors
//===----------------------------------------------------------------------===//

namespace tritium::ttg::impl {

LogicalResult verifyMemDescLayouts(Operation *op) {
  auto check = [op](Type type, function_ref<InFlightDiagnostic()> emitError) -> LogicalResult {
    auto memdesc = dyn_cast<MemDescType>(type);
    if (!memdesc || !memdesc.getEncoding())
      return success();
    Attribute layout = memdesc.getEncoding();
    int64_t rank = memdesc.getRank();
    if (auto encoding = dyn_cast<LayoutEncodingTrait>(layout)) {
      int64_t layoutRank = encoding.getRank();
      if (layoutRank != rank && layoutRank + 1 != rank)
        return emitError() << "the encoding has rank " << layoutRank << " but the memdesc has rank "
                           << rank << "; it must have the memdesc's rank, or one less when "
                           << "the leading dimension counts buffers";
    }
    if (failed(verifyNumCTAs(layout, op, emitError)))
      return failure();
    // A shared_linear layout covers exactly one buffer of the allocation.
    if (auto linear = dyn_cast<SharedLinearEncodingAttr>(layout)) {
      SmallVector<int64_t> covered = linear.getLinearLayout().getOutDimSizes();
      ArrayRef<int64_t> allocShape = memdesc.getAllocShape();
      ArrayRef<int64_t> buffer =
          allocShape.size() > covered.size() ? allocShape.take_back(covered.size()) : allocShape;
      if (ArrayRef<int64_t>(covered) != buffer)
        return emitError() << layout << " covers [" << ArrayRef<int64_t>(covered)
                           << "], but one buffer of the memdesc is [" << buffer << "]";
    }
    return success();
  };

  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    if (failed(check(op->getOperand(i).getType(), [&] {
          return op->emitOpError("operand #") << i << " has an invalid layout: ";
        })))
      return failure();
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if (failed(check(op->getResult(i).getType(), [&] {
          return op->emitOpError("result #") << i << " has an invalid layout: ";
        })))
      return failure();
  return success();
}

} // namespace tritium::ttg::impl

//===----------------------------------------------------------------------===//
// Module settings and registration
//===----------------------------------------------------------------------===//

LogicalResult TTGDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if ((name == kNumCTAs || name == kTarget || name == kThreadsPerWarp) && !isa<ModuleOp>(op))
    return op->emitOpError("has '") << name << "', which may only be set on a module";
  if (name == kNumWarps && !isa<ModuleOp, tt::FuncOp>(op))
    return op->emitOpError("has '") << name << "', which may only be set on a module or a tt.func";
  return success();
}

void tritium::ttg::registerLayoutVerifier(TTGDialect &dialect) {
  dialect.addInterfaces<TTGLayoutVerifier>();
}
