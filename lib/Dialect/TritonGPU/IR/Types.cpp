//===- Types.cpp - types of tritium's `ttg` dialect -----------------------===//

#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tritium::ttg;

#define GET_TYPEDEF_CLASSES
#include "tritium/Dialect/TritonGPU/IR/Types.cpp.inc"

void TTGDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/Dialect/TritonGPU/IR/Types.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !ttg.memdesc<shape x elt, encoding, memory-space (, mutable)? (, alloc-shape)?>
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, allocShape;
  Type elementType;
  Attribute encoding, memorySpace;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() || parser.parseAttribute(encoding) ||
      parser.parseComma() || parser.parseAttribute(memorySpace))
    return {};

  // Then `, mutable`, `, <alloc shape>`, or both in that order.
  bool mutableMemory = false;
  if (succeeded(parser.parseOptionalComma())) {
    bool parseAllocShape = true;
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      mutableMemory = true;
      parseAllocShape = succeeded(parser.parseOptionalComma());
    }
    if (parseAllocShape &&
        parser.parseDimensionList(allocShape, /*allowDynamic=*/false, /*withTrailingX=*/false))
      return {};
  }
  if (parser.parseGreater())
    return {};

  // A view of the whole allocation does not print its allocation shape.
  if (allocShape.empty())
    allocShape = shape;
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType, encoding,
                                        memorySpace, mutableMemory, allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer.getStream() << dim << "x";
  printer.printType(getElementType());
  if (getEncoding()) {
    printer << ", ";
    printer.printAttribute(getEncoding());
  }
  if (getMemorySpace()) {
    printer << ", ";
    printer.printAttribute(getMemorySpace());
  }
  if (getMutableMemory())
    printer << ", mutable";
  ArrayRef<int64_t> allocShape = getAllocShape();
  if (!allocShape.empty() && allocShape != getShape()) {
    printer << ", ";
    llvm::interleave(allocShape, printer.getStream(), "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType, Attribute encoding,
                                  Attribute memorySpace, bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  if (!encoding || !memorySpace)
    return emitError() << "memdesc requires an encoding and a memory space";
  // The leading dimension may count pipeline stages; the others must be
  // powers of two, except in padded layouts.
  if (!isa<PaddedSharedEncodingAttr>(encoding) &&
      llvm::any_of(shape.drop_front(), [](int64_t dim) { return !llvm::isPowerOf2_64(dim); }))
    return emitError() << "shape must have power-of-2 dimensions (the first excepted)";
  if (allocShape.size() < shape.size())
    return emitError() << "alloc shape must have at least as many dimensions as shape";
  for (auto [dim, allocDim] : llvm::zip(shape, allocShape.take_back(shape.size())))
    if (dim > allocDim)
      return emitError() << "shape must be less than or equal to the alloc shape";
  return success();
}
