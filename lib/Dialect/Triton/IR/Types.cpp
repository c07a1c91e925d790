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

// `!tt.ptr<f32>` for global memory; triton 3.9 names its other address spaces
// (`!tt.ptr<f32, "constant">` for `tl.const` pointers, read-only global memory;
// `"descriptor"`); any other one prints as its number (`!tt.ptr<f32, 3>`).
static constexpr std::pair<llvm::StringLiteral, int> kNamedAddressSpaces[] = {
    {"global", 1}, {"descriptor", 0}, {"constant", 4}};

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  if (succeeded(parser.parseOptionalComma())) {
    std::string name;
    if (succeeded(parser.parseOptionalString(&name))) {
      const auto *named = llvm::find_if(kNamedAddressSpaces,
                                        [&](const auto &entry) { return entry.first == name; });
      if (named == std::end(kNamedAddressSpaces)) {
        parser.emitError(parser.getCurrentLocation(), "unknown address space \"")
            << name << "\" (expected \"global\", \"descriptor\" or \"constant\")";
        return Type();
      }
      addressSpace = named->second;
    } else if (parser.parseInteger(addressSpace)) {
      return Type();
    }
  }
  if (parser.parseGreater())
    return Type();
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1) {
    const auto *named = llvm::find_if(kNamedAddressSpaces, [&](const auto &entry) {
      return entry.second == getAddressSpace();
    });
    if (named != std::end(kNamedAddressSpaces))
      printer << ", \"" << named->first << "\"";
    else
      printer << ", " << getAddressSpace();
  }
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
