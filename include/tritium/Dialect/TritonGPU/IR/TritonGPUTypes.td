//===- TritonGPUTypes.td - types of the `ttg` dialect ---------------------===//

#ifndef TRITIUM_TTG_TYPES
#define TRITIUM_TTG_TYPES

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "tritium/Dialect/TritonGPU/IR/TritonGPUDialect.td"

def TTG_AsyncToken : TypeDef<TTG_Dialect, "AsyncToken"> {
  let mnemonic = "async.token";
  let summary = "completion token of asynchronous copies";
  let description = [{
    `!ttg.async.token` links an asynchronous copy to the commit group that
    closes it and to the `ttg.async_wait` (and `ttg.local_load`) that depend
    on its completion. It carries no data.
  }];
}

def TTG_MemDescType : TypeDef<TTG_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "descriptor of a tile in shared (or tensor) memory";
  let description = [{
    `!ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>`: the shape and
    element type of the view, its encoding and memory space, whether it may
    be written (`mutable`), and, when the view is a slice of a larger
    allocation, the shape of that allocation after a comma
    (`!ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>`). The
    allocation shape defaults to the view's shape and is then not printed.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding,
                        "::mlir::Attribute":$memorySpace,
                        "bool":$mutableMemory,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType,
                                        "::mlir::Attribute":$encoding,
                                        "::mlir::Attribute":$memorySpace,
                                        CArg<"bool", "false">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding, memorySpace,
                   mutableMemory, shape);
    }]>,
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType,
                                        "::mlir::Attribute":$encoding,
                                        "::mlir::Attribute":$memorySpace,
                                        "bool":$mutableMemory,
                                        "::llvm::ArrayRef<int64_t>":$allocShape), [{
      return $_get(elementType.getContext(), shape, elementType, encoding, memorySpace,
                   mutableMemory, allocShape);
    }]>
  ];
  let extraClassDeclaration = [{
    // ShapedTypeInterface: a memdesc is always ranked.
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const {
      return MemDescType::get(shape.value_or(getShape()), elementType, getEncoding(),
                              getMemorySpace(), getMutableMemory(), getAllocShape());
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TRITIUM_TTG_TYPES
