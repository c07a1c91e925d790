//===- Ops.cpp - operations of tritium's `ttg` dialect --------------------===//
//
// Custom assembly (memdesc_subslice offsets, warp_specialize, barrier) and
// the verifiers. The verifiers check shapes, element types, mutability and
// the structure of warp_specialize; they do not decide whether a layout can
// be lowered, which is the backend's business.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tritium::ttg;

// `%src[0, 16]`: the offsets of memdesc_subslice, written inline. The
// declarative format refers to these, so they come before the generated code.
static ParseResult parseOffsets(OpAsmParser &parser, DenseI32ArrayAttr &offsets) {
  SmallVector<int32_t> values;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  offsets = parser.getBuilder().getDenseI32ArrayAttr(values);
  return success();
}

static void printOffsets(OpAsmPrinter &printer, Operation *, DenseI32ArrayAttr offsets) {
  llvm::interleaveComma(offsets.asArrayRef(), printer.getStream());
}

#define GET_OP_CLASSES
#include "tritium/Dialect/TritonGPU/IR/Ops.cpp.inc"

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

static unsigned bitWidth(Type type) {
  if (isa<tritium::tt::PointerType>(type))
    return 64;
  return type.getIntOrFloatBitWidth();
}

/// A memory tile and a tensor holding its contents agree on shape and element type.
static LogicalResult verifySameContents(Operation *op, MemDescType memTy,
                                        RankedTensorType tensorTy, StringRef tensorName) {
  if (memTy.getElementType() != tensorTy.getElementType())
    return op->emitOpError() << tensorName << " element type " << tensorTy.getElementType()
                             << " must match the memdesc element type "
                             << memTy.getElementType();
  if (memTy.getShape() != tensorTy.getShape())
    return op->emitOpError() << tensorName << " shape must match the memdesc shape";
  return success();
}

//===----------------------------------------------------------------------===//
// convert_layout, inline_asm
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  // Shape and element type are checked by the traits; a conversion only
  // makes sense between two explicit layouts.
  if (!getSrc().getType().getEncoding() || !getResult().getType().getEncoding())
    return emitOpError("source and result must both have an encoding");
  return success();
}

LogicalResult InlineAsmOp::verify() {
  bool hasMemDesc = llvm::any_of(getArgs().getTypes(), llvm::IsaPred<MemDescType>);
  if (hasMemDesc && getPure())
    return emitOpError("with memory descriptor operands must not be pure");
  return success();
}

//===----------------------------------------------------------------------===//
// Asynchronous copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  MemDescType dstTy = getResult().getType();
  if (!dstTy.getMutableMemory())
    return emitOpError("cannot store into immutable memory");
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto valueTy = cast<RankedTensorType>(tritium::tt::getPointeeType(srcTy));
  return verifySameContents(*this, dstTy, valueTy, "pointee");
}

//===----------------------------------------------------------------------===//
// Shared-memory allocation, loads and stores
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  MemDescType dstTy = getResult().getType();
  if (!isa<SharedMemorySpaceAttr>(dstTy.getMemorySpace()))
    return emitOpError("should create a buffer of shared memory");
  if (dstTy.getShape() != dstTy.getAllocShape())
    return emitOpError("result shape and its alloc shape must match");
  if (!getSrc()) {
    if (!dstTy.getMutableMemory())
      return emitOpError("uninitialized alloc must have a mutable memdesc type");
    return success();
  }
  return verifySameContents(*this, dstTy, getSrc().getType(), "source");
}

LogicalResult LocalLoadOp::verify() {
  return verifySameContents(*this, getSrc().getType(), getResult().getType(), "result");
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("cannot store into immutable memory");
  return verifySameContents(*this, getDst().getType(), getSrc().getType(), "source");
}

/// The checks gather, scatter and the atomic scatter share: `mem` is a
/// shared-memory tile of the rank of `indices`, `axis` is one of its
/// dimensions and `values` (gathered or scattered) has the element type of
/// the tile and the shape and layout of the indices.
static LogicalResult verifyIndexedAccess(Operation *op, MemDescType memTy,
                                         RankedTensorType indicesTy,
                                         RankedTensorType valuesTy, unsigned axis) {
  if (!isa_and_nonnull<SharedEncodingTrait>(memTy.getEncoding()))
    return op->emitOpError("memdesc must have a shared memory encoding");
  if (memTy.getRank() != indicesTy.getRank())
    return op->emitOpError("memdesc and indices must have the same rank");
  if (axis >= memTy.getRank())
    return op->emitOpError("axis ") << axis << " is out of bounds for rank " << memTy.getRank();
  if (valuesTy.getShape() != indicesTy.getShape())
    return op->emitOpError("values must have the shape of the indices");
  if (valuesTy.getEncoding() != indicesTy.getEncoding())
    return op->emitOpError("values must have the layout of the indices");
  if (valuesTy.getElementType() != memTy.getElementType())
    return op->emitOpError("values must have the element type of the memdesc");
  return success();
}

LogicalResult LocalGatherOp::verify() {
  return verifyIndexedAccess(*this, getSrc().getType(),
                             cast<RankedTensorType>(getIndices().getType()),
                             getResult().getType(), getAxis());
}

LogicalResult LocalScatterOp::verify() {
  return verifyIndexedAccess(*this, getDst().getType(),
                             cast<RankedTensorType>(getIndices().getType()),
                             cast<RankedTensorType>(getValues().getType()), getAxis());
}

LogicalResult LocalAtomicScatterRMWOp::verify() {
  auto valuesTy = cast<RankedTensorType>(getValues().getType());
  if (getResult().getType() != valuesTy)
    return emitOpError("result must have the type of the values");
  if (getMask() && getMask().getType() != tritium::tt::getI1SameShape(valuesTy))
    return emitOpError("mask must be i1 with the shape and layout of the values");
  return verifyIndexedAccess(*this, getDst().getType(),
                             cast<RankedTensorType>(getIndices().getType()), valuesTy,
                             getAxis());
}

//===----------------------------------------------------------------------===//
// Views of shared-memory descriptors
//===----------------------------------------------------------------------===//

/// A view lives in the memory of its source, with the same mutability.
static LogicalResult verifyViewOf(Operation *op, MemDescType srcTy, MemDescType dstTy) {
  if (srcTy.getMemorySpace() != dstTy.getMemorySpace())
    return op->emitOpError("result must be in the memory space of the source");
  if (srcTy.getMutableMemory() != dstTy.getMutableMemory())
    return op->emitOpError("result must be as mutable as the source");
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType srcTy = getSrc().getType(), dstTy = getResult().getType();
  if (srcTy.getRank() == 0)
    return emitOpError("cannot index a rank-0 memdesc");
  if (dstTy.getShape() != srcTy.getShape().drop_front())
    return emitOpError("result shape must be the source shape without its first dimension");
  if (dstTy.getElementType() != srcTy.getElementType())
    return emitOpError("result element type must match the source element type");
  return verifyViewOf(*this, srcTy, dstTy);
}

LogicalResult MemDescSubsliceOp::verify() {
  MemDescType srcTy = getSrc().getType(), dstTy = getResult().getType();
  ArrayRef<int32_t> offsets = getOffsets();
  if (dstTy.getElementType() != srcTy.getElementType())
    return emitOpError("result element type must match the source element type");
  if (dstTy.getRank() != srcTy.getRank())
    return emitOpError("result rank must equal the source rank");
  if (offsets.size() != static_cast<size_t>(srcTy.getRank()))
    return emitOpError("offsets must have the same rank as the source");
  for (auto [dim, offset] : llvm::enumerate(offsets))
    if (offset < 0 || offset + dstTy.getDimSize(dim) > srcTy.getDimSize(dim))
      return emitOpError("subslice must stay within the source shape in dimension ") << dim;
  if (dstTy.getAllocShape() != srcTy.getAllocShape())
    return emitOpError("result must keep the alloc shape of the source");
  // Shared-memory layouts carry over unchanged; other memories (e.g. tensor
  // memory) may describe the slice with another encoding.
  if (isa_and_nonnull<SharedEncodingTrait>(srcTy.getEncoding()) &&
      srcTy.getEncoding() != dstTy.getEncoding())
    return emitOpError("result must have the encoding of the source");
  return verifyViewOf(*this, srcTy, dstTy);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType srcTy = getSrc().getType(), dstTy = getResult().getType();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != static_cast<size_t>(srcTy.getRank()) || dstTy.getRank() != srcTy.getRank())
    return emitOpError("order must have one entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  for (auto [i, o] : llvm::enumerate(order)) {
    if (o < 0 || o >= static_cast<int32_t>(order.size()) || seen[o])
      return emitOpError("order must be a permutation of the dimensions");
    seen[o] = true;
    if (dstTy.getDimSize(i) != srcTy.getDimSize(o))
      return emitOpError("result dimension ") << i << " must equal source dimension " << o;
  }
  return verifyViewOf(*this, srcTy, dstTy);
}

LogicalResult MemDescReshapeOp::verify() {
  MemDescType srcTy = getSrc().getType(), dstTy = getResult().getType();
  if (numElements(srcTy.getShape()) != numElements(dstTy.getShape()))
    return emitOpError("source and result must have the same number of elements");
  return verifyViewOf(*this, srcTy, dstTy);
}

LogicalResult MemDescReinterpretOp::verify() {
  MemDescType srcTy = getSrc().getType(), dstTy = getResult().getType();
  if (srcTy.getMemorySpace() != dstTy.getMemorySpace())
    return emitOpError("result must be in the memory space of the source");
  // In shared memory a reinterpretation covers exactly the bytes of the
  // source view; tensor memory has its own packing rules.
  if (isa<SharedMemorySpaceAttr>(srcTy.getMemorySpace()) &&
      numElements(srcTy.getShape()) * bitWidth(srcTy.getElementType()) !=
          numElements(dstTy.getShape()) * bitWidth(dstTy.getElementType()))
    return emitOpError("must preserve the total number of bits");
  return success();
}

//===----------------------------------------------------------------------===//
// fp4_to_fp
//===----------------------------------------------------------------------===//

LogicalResult Fp4ToFpOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getResult().getType());
  int64_t rank = srcTy.getRank();
  int32_t axis = getAxis();
  if (dstTy.getRank() != rank)
    return emitOpError("source rank ") << rank << " != result rank " << dstTy.getRank();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " out of range for rank " << rank;
  Type elementType = dstTy.getElementType();
  if (!elementType.isBF16() && !elementType.isF16())
    return emitOpError("only bf16 or f16 results are supported, got ") << elementType;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t expected = srcTy.getDimSize(i) * (i == axis ? 2 : 1);
    if (dstTy.getDimSize(i) != expected)
      return emitOpError("result dimension ")
             << i << " must be " << expected << " (the source's, doubled along axis " << axis
             << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// warp_specialize
//===----------------------------------------------------------------------===//

WarpSpecializePartitionsOp WarpSpecializeOp::getPartitionOp() {
  return cast<WarpSpecializePartitionsOp>(getPartitionOpHolder().front().front());
}

// (%captures) attributes {...}? default {...} partition0(%args) num_warps(N) {...} ...
//   : (capture types) -> result types
ParseResult WarpSpecializeOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, AsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default") || parser.parseRegion(*result.addRegion()))
    return failure();

  // The partitions are regions of the nested, isolated partitions op.
  OperationState partitions(parser.getEncodedSourceLoc(parser.getCurrentLocation()),
                            WarpSpecializePartitionsOp::getOperationName());
  SmallVector<int32_t> numWarps;
  SmallVector<OpAsmParser::Argument> args;
  while (succeeded(parser.parseOptionalKeyword("partition" + std::to_string(numWarps.size())))) {
    args.clear();
    if (parser.parseArgumentList(args, AsmParser::Delimiter::Paren, /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(numWarps.emplace_back()) || parser.parseRParen() ||
        parser.parseRegion(*partitions.addRegion(), args))
      return failure();
  }

  FunctionType types;
  if (parser.parseColonType(types) ||
      parser.resolveOperands(captures, types.getInputs(), capturesLoc, partitions.operands))
    return failure();
  result.addTypes(types.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  Block &holder = result.addRegion()->emplaceBlock();
  holder.push_back(Operation::create(partitions));
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  WarpSpecializePartitionsOp partitions = getPartitionOp();
  printer << "(";
  printer.printOperands(partitions.getExplicitCaptures());
  printer << ")";
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getPartitionNumWarpsAttrName()});
  printer.printNewline();
  printer << "default ";
  printer.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  for (auto [i, region, numWarps] :
       llvm::enumerate(partitions.getPartitionRegions(), getPartitionNumWarps())) {
    printer.printNewline();
    printer << "partition" << i << "(";
    llvm::interleaveComma(region.getArguments(), printer,
                          [&](BlockArgument arg) { printer.printRegionArgument(arg); });
    printer << ") num_warps(" << numWarps << ") ";
    printer.printRegion(region, /*printEntryBlockArgs=*/false);
  }
  printer << " : ";
  printer.printFunctionalType(partitions.getExplicitCaptures().getTypes(), getResultTypes());
}

LogicalResult WarpSpecializeOp::verify() {
  // MLIR regions are either all isolated from above or none, so the isolated
  // partitions sit in an op inside the second region.
  Block &holder = getPartitionOpHolder().front();
  if (holder.empty() || !isa<WarpSpecializePartitionsOp>(holder.front()))
    return emitOpError("expected its second region to hold only a "
                       "`ttg.warp_specialize.partitions` op");
  size_t numPartitions = getPartitionOp().getPartitionRegions().size();
  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  if (numPartitions != numWarps.size())
    return emitOpError("has ") << numPartitions << " partitions but `partitionNumWarps` has "
                               << numWarps.size() << " elements";
  for (auto [i, n] : llvm::enumerate(numWarps))
    if (n <= 0 || !llvm::isPowerOf2_32(n))
      return emitOpError("partition #") << i << " number of warps (" << n
                                        << ") must be a power of 2";
  if (std::optional<ArrayRef<int32_t>> startIds = getWarpGroupStartIds())
    if (startIds->size() != numWarps.size())
      return emitOpError("has ") << startIds->size() << " warp group start IDs but expected "
                                 << numWarps.size();
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError("cannot be nested inside another `ttg.warp_specialize` op");
  return success();
}

LogicalResult WarpSpecializePartitionsOp::verify() {
  // Each partition receives the explicit captures as its arguments.
  for (auto [i, region] : llvm::enumerate(getPartitionRegions())) {
    if (region.getNumArguments() != getNumOperands())
      return emitOpError("partition region #")
             << i << " has " << region.getNumArguments() << " arguments but expected "
             << getNumOperands();
    for (auto [argIdx, argType, captureType] :
         llvm::enumerate(region.getArgumentTypes(), getExplicitCaptures().getTypes()))
      if (argType != captureType)
        return emitOpError("partition region #")
               << i << " argument #" << argIdx << " has type " << argType
               << " but the corresponding capture has type " << captureType;
  }
  return success();
}

LogicalResult WarpYieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (getNumOperands() != parent->getNumResults())
    return emitOpError("has ") << getNumOperands() << " operands but the parent op has "
                               << parent->getNumResults() << " results";
  for (auto [i, type, expected] : llvm::enumerate(getOperandTypes(), parent->getResultTypes()))
    if (type != expected)
      return emitOpError("operand #") << i << " has type " << type << " but the parent op expects "
                                      << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// barrier: `ttg.barrier local|global_read`, `ttg.barrier all`
//===----------------------------------------------------------------------===//

ParseResult BarrierOp::parse(OpAsmParser &parser, OperationState &result) {
  AddrSpace spaces = AddrSpace::None;
  do {
    SMLoc loc = parser.getCurrentLocation();
    std::string keyword;
    if (parser.parseKeywordOrString(&keyword))
      return failure();
    std::optional<AddrSpace> space = symbolizeAddrSpace(keyword);
    if (!space)
      return parser.emitError(loc) << "unknown address space '" << keyword << "'";
    spaces = spaces | *space;
  } while (succeeded(parser.parseOptionalVerticalBar()));
  // Triton prints nothing else, but discardable attributes survive a round trip.
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addAttribute(getAddrSpaceAttrName(result.name),
                      AddrSpaceAttr::get(parser.getContext(), spaces));
  return success();
}

void BarrierOp::print(OpAsmPrinter &printer) {
  static const std::pair<AddrSpace, StringRef> kSpaces[] = {
      {AddrSpace::Local, "local"},
      {AddrSpace::GlobalRead, "global_read"},
      {AddrSpace::GlobalWrite, "global_write"},
      {AddrSpace::TensorRead, "tensor_read"},
      {AddrSpace::TensorWrite, "tensor_write"}};
  AddrSpace spaces = getAddrSpace();
  printer << " ";
  if (spaces == AddrSpace::All) {
    printer << "all";
  } else if (spaces == AddrSpace::None) {
    printer << "none";
  } else {
    SmallVector<StringRef> names;
    for (auto [space, name] : kSpaces)
      if (bitEnumContainsAll(spaces, space))
        names.push_back(name);
    llvm::interleave(names, printer.getStream(), "|");
  }
  printer.printOptionalAttrDict((*this)->getAttrs(), {getAddrSpaceAttrName()});
}

//===----------------------------------------------------------------------===//
// mask.return
//===----------------------------------------------------------------------===//

ParseResult tritium::ttg::MaskReturnOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parser.parseOperandList(operands) || parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColon())
    return failure();
  // `ttg.mask.return :` (no values) ends at the colon.
  if (!operands.empty() && parser.parseTypeList(types))
    return failure();
  return parser.resolveOperands(operands, types, parser.getNameLoc(), result.operands);
}

void tritium::ttg::MaskReturnOp::print(OpAsmPrinter &printer) {
  if (!getResult().empty())
    printer << " " << getResult();
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " :";
  if (!getResult().empty())
    printer << " " << getResult().getTypes();
}
