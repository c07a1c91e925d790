//===- Types.cpp - types of tritium's `tt` dialect ------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium::tt;

#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/Triton/IR/Types.cpp.inc"

void TTDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/Dialect/Triton/IR/Types.cpp.inc"
      >();
}

// `!tt.ptr<f32>` for global memory, `!tt.ptr<f32, 4>` for another address space.
Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  if (succeeded(parser.parseOptionalComma()) && parser.parseInteger(addressSpace))
    return Type();
  if (parser.parseGreater())
    return Type();
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

// `!tt.tensordesc<16x32xf16>` or `!tt.tensordesc<16x32xf16, #layout>`.
Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return Type();
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(layout))
    return Type();
  if (parser.parseGreater())
    return Type();
  return TensorDescType::get(parser.getContext(), shape, elementType, layout);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getShape())
    printer << size << "x";
  printer << getElementType();
  if (getSharedLayout())
    printer << ", " << getSharedLayout();
  printer << ">";
}

namespace tritium::tt {

Type getPointeeType(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    return tensor.clone(cast<PointerType>(tensor.getElementType()).getPointeeType());
  return cast<PointerType>(ptrLike).getPointeeType();
}

Type getI1SameShape(Type like) {
  auto i1 = IntegerType::get(like.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(i1);
  return i1;
}

} // namespace tritium::tt
