//===- Ops.cpp - operations of tritium's `tt` dialect ---------------------===//
//
// Custom assembly (load, store, func) and the verifiers that enforce Triton's
// rules on shapes and element types. The verifiers of dots, reduce/scan,
// gather and descriptor ops, and the checks every op makes on its tensors,
// are in the *Verifiers.cpp files next to this one; folders and
// canonicalization patterns are in Canonicalization.cpp.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace tritium::tt;

#define GET_OP_CLASSES
#include "tritium/Dialect/Triton/IR/Ops.cpp.inc"

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

//===----------------------------------------------------------------------===//
// load / store: `tt.load %ptr[, %mask[, %other]] attrs : ptr-type`
//===----------------------------------------------------------------------===//

ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> operands;
  Type ptrType;
  if (parser.parseOperandList(operands) || parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(ptrType))
    return failure();
  if (operands.empty() || operands.size() > 3)
    return parser.emitError(parser.getNameLoc(), "expects a pointer, an optional mask and an "
                                                 "optional other value");
  if (!isa<PointerType>(getElementTypeOrSelf(ptrType)))
    return parser.emitError(parser.getNameLoc(), "expects a pointer or tensor of pointers type");
  Type valueType = getPointeeType(ptrType);
  SmallVector<Type, 3> types = {ptrType, getI1SameShape(valueType), valueType};
  types.resize(operands.size());
  if (parser.resolveOperands(operands, types, parser.getNameLoc(), result.operands))
    return failure();
  int32_t hasMask = operands.size() > 1, hasOther = operands.size() > 2;
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr({1, hasMask, hasOther}));
  result.addTypes(valueType);
  return success();
}

void LoadOp::print(OpAsmPrinter &printer) {
  printer << " " << getOperation()->getOperands();
  SmallVector<StringRef, 2> elided = {getOperandSegmentSizesAttrName()};
  if (!getIsVolatile())
    elided.push_back(getIsVolatileAttrName());
  printer.printOptionalAttrDict((*this)->getAttrs(), elided);
  printer << " : " << getPtr().getType();
}

LogicalResult LoadOp::verify() {
  if (getResult().getType() != getPointeeType(getPtr().getType()))
    return emitOpError("result type must be the pointee type of the pointer operand");
  if (getMask() && getMask().getType() != getI1SameShape(getResult().getType()))
    return emitOpError("mask must be i1 with the shape of the pointer operand");
  if (getOther() && getOther().getType() != getResult().getType())
    return emitOpError("other must have the type of the result");
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable());
  // A volatile load must stay where it is, so it is treated as a write as well.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get());
}

ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> operands;
  Type ptrType;
  if (parser.parseOperandList(operands) || parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(ptrType))
    return failure();
  if (operands.size() < 2 || operands.size() > 3)
    return parser.emitError(parser.getNameLoc(), "expects a pointer, a value and an optional "
                                                 "mask");
  if (!isa<PointerType>(getElementTypeOrSelf(ptrType)))
    return parser.emitError(parser.getNameLoc(), "expects a pointer or tensor of pointers type");
  Type valueType = getPointeeType(ptrType);
  SmallVector<Type, 3> types = {ptrType, valueType, getI1SameShape(valueType)};
  types.resize(operands.size());
  return parser.resolveOperands(operands, types, parser.getNameLoc(), result.operands);
}

void StoreOp::print(OpAsmPrinter &printer) {
  printer << " " << getOperation()->getOperands();
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : " << getPtr().getType();
}

LogicalResult StoreOp::verify() {
  if (getValue().getType() != getPointeeType(getPtr().getType()))
    return emitOpError("value type must be the pointee type of the pointer operand");
  if (getMask() && getMask().getType() != getI1SameShape(getValue().getType()))
    return emitOpError("mask must be i1 with the shape of the pointer operand");
  return success();
}

// `tt.atomic_store sem, scope, %ptr, %value[, %mask] attrs : ptr-type`
ParseResult AtomicStoreOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> operands;
  StringRef semKeyword, scopeKeyword;
  Type ptrType;
  if (parser.parseKeyword(&semKeyword) || parser.parseComma() ||
      parser.parseKeyword(&scopeKeyword) || parser.parseComma() ||
      parser.parseOperandList(operands) || parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(ptrType))
    return failure();
  std::optional<MemSemantic> sem = symbolizeMemSemantic(semKeyword);
  std::optional<MemSyncScope> scope = symbolizeMemSyncScope(scopeKeyword);
  if (!sem || !scope)
    return parser.emitError(parser.getNameLoc(), "unknown memory semantic or scope");
  result.addAttribute(getSemAttrName(result.name),
                      MemSemanticAttr::get(parser.getContext(), *sem));
  result.addAttribute(getScopeAttrName(result.name),
                      MemSyncScopeAttr::get(parser.getContext(), *scope));
  if (operands.size() < 2 || operands.size() > 3 ||
      !isa<PointerType>(getElementTypeOrSelf(ptrType)))
    return parser.emitError(parser.getNameLoc(), "expects a pointer, a value and an optional mask");
  Type valueType = getPointeeType(ptrType);
  SmallVector<Type, 3> types = {ptrType, valueType, getI1SameShape(valueType)};
  types.resize(operands.size());
  return parser.resolveOperands(operands, types, parser.getNameLoc(), result.operands);
}

void AtomicStoreOp::print(OpAsmPrinter &printer) {
  printer << " " << stringifyMemSemantic(getSem()) << ", " << stringifyMemSyncScope(getScope())
          << ", " << getOperation()->getOperands();
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getSemAttrName(), getScopeAttrName()});
  printer << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  auto bits = [](Type t) -> unsigned {
    t = getElementTypeOrSelf(t);
    if (isa<PointerType>(t))
      return 64;
    return t.getIntOrFloatBitWidth();
  };
  if (bits(getSrc().getType()) != bits(getResult().getType()))
    return emitOpError("source and result element types must have the same bit width");
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = shapeOf(getSrc().getType());
  auto res = shapeOf(getResult().getType());
  int axis = getAxis();
  if (axis < 0 || axis > static_cast<int>(src.size()))
    return emitOpError("axis ") << axis << " is out of range for a rank-" << src.size()
                                << " tensor";
  SmallVector<int64_t> expected(src);
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != res)
    return emitOpError("result shape must be the source shape with a 1 inserted at axis ")
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto count = [](ArrayRef<int64_t> s) {
    int64_t n = 1;
    for (int64_t d : s)
      n *= d;
    return n;
  };
  if (count(shapeOf(getSrc().getType())) != count(shapeOf(getResult().getType())))
    return emitOpError("source and result must have the same number of elements");
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = shapeOf(getSrc().getType());
  auto res = shapeOf(getResult().getType());
  if (src.size() != res.size())
    return emitOpError("source and result must have the same rank");
  for (auto [s, r] : llvm::zip(src, res))
    if (s != r && s != 1)
      return emitOpError("only dimensions of size 1 can be broadcast");
  return success();
}

LogicalResult TransOp::verify() {
  auto src = shapeOf(getSrc().getType());
  auto res = shapeOf(getResult().getType());
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != src.size() || res.size() != src.size())
    return emitOpError("order must have one entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  for (auto [i, o] : llvm::enumerate(order)) {
    if (o < 0 || o >= static_cast<int32_t>(src.size()) || seen[o])
      return emitOpError("order must be a permutation of the dimensions");
    seen[o] = true;
    if (res[i] != src[o])
      return emitOpError("result dimension ") << i << " must equal source dimension " << o;
  }
  return success();
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  auto shape = shapeOf(getResult().getType());
  if (shape.size() != 1)
    return emitOpError("result must be a 1-D tensor");
  if (end <= start)
    return emitOpError("end must be greater than start");
  if (shape[0] != end - start)
    return emitOpError("result size must be end - start");
  return success();
}

//===----------------------------------------------------------------------===//
// func / call
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name),
      buildFuncType, getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(printer, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError("'") << getCallee() << "' does not reference a tt.func";
  if (TypeRange(fn.getFunctionType().getInputs()) != TypeRange(getOperandTypes()) ||
      TypeRange(fn.getFunctionType().getResults()) != TypeRange(getResultTypes()))
    return emitOpError("operand or result types do not match the callee's signature");
  return success();
}
