//===- TritonGPUOps.td - operations of the `ttg` dialect ------------------===//
//
// Every op of triton 3.9's TritonGPU dialect, with assembly formats that
// accept exactly the text triton prints. Verifiers check the obvious rules on
// shapes, element types and mutability; layout-level legality (which encodings
// a backend can lower) is left to the passes that consume the IR.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TTG_OPS
#define TRITIUM_TTG_OPS

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tritium/Dialect/Triton/IR/TritonTypes.td"
include "tritium/Dialect/Triton/IR/TritonAttrs.td"
include "tritium/Dialect/TritonGPU/IR/TritonGPUDialect.td"
include "tritium/Dialect/TritonGPU/IR/TritonGPUEnums.td"
include "tritium/Dialect/TritonGPU/IR/TritonGPUTypes.td"

// Shared memory is a resource of its own, so that effects on it never alias
// loads and stores of global memory. Global memory keeps MLIR's default
// resource, the one `tt.load`/`tt.store` use.
def TTG_SharedMemory : Resource<"::tritium::ttg::SharedMemory">;

// Like triton, every ttg op checks the encodings of its tensors and memory
// descriptors against the module it runs in.
def TTG_VerifyMemDescLayoutsTrait : NativeOpTrait<"VerifyMemDescLayoutsTrait"> {
  let cppNamespace = "::tritium::ttg";
}

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TTG_Dialect, mnemonic,
         !listconcat(traits, [TT_VerifyTensorLayoutsTrait, TTG_VerifyMemDescLayoutsTrait])>;

def TTG_I1Tensor : RankedTensorOf<[I1]>;
def TTG_TensorOrMemDesc : AnyTypeOf<[TT_Type, TTG_MemDescType]>;

//===----------------------------------------------------------------------===//
// Layout conversion and inline assembly
//===----------------------------------------------------------------------===//

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [Pure, SameOperandsAndResultShape,
                                                    SameOperandsAndResultElementType]> {
  let summary = "move a tensor's elements to another layout";
  let description = [{
    The same values, redistributed over registers, lanes and warps as the
    result's encoding says (through shared memory when needed).
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$force_warp_shuffle);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_InlineAsmOp : TTG_Op<"inline_asm"> {
  let summary = "inline assembly run once per thread on explicitly laid out values";
  let description = [{
    Tensor operands are passed as all of a thread's elements in register
    order, memory descriptors as one i32 address; results are packed back
    per their types. Assembly that takes descriptors has effects the compiler
    cannot see, so it must not be pure.
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       Variadic<TTG_TensorOrMemDesc>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^)? `:` functional-type($args, $result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous copies
//===----------------------------------------------------------------------===//

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments,
    OptionalTypesMatchWith<"mask is i1 with the shape of src", "src", "mask",
                           "::tritium::tt::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"other is the pointee type of src", "src", "other",
                           "::tritium::tt::getPointeeType($_self)">]> {
  let summary = "start copying a tile from global to shared memory";
  let description = [{
    Like `tt.load`, but the data lands in the shared-memory tile `result`
    instead of registers, and only after a `ttg.async_wait` covering the
    commit group this copy was committed in. `contiguity` is the number of
    elements that may be copied as one vector. The result type prints without
    its `!ttg.` prefix, as in triton.
  }];
  let arguments = (ins Arg<TT_PtrTensor, "", [MemRead]>:$src,
                       Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$result,
                       Optional<TTG_I1Tensor>:$mask,
                       Optional<TT_Type>:$other,
                       OptionalAttr<AnyAttr>:$cachePolicy,
                       DefaultValuedAttr<BoolAttr, "false">:$isVolatile,
                       DefaultValuedAttr<I32Attr, "1">:$contiguity);
  let results = (outs TTG_AsyncToken:$token);
  let assemblyFormat = [{
    $src `,` $result (`mask` $mask^)? (`other` $other^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "close the pending asynchronous copies into a group";
  let arguments = (ins Variadic<TTG_AsyncToken>:$inputTokens);
  let results = (outs TTG_AsyncToken:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` commit groups are still in flight";
  let description = [{
    Only waits for this thread's copies; a barrier is needed as well before
    other threads read the data.
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncToken:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Shared-memory allocation, loads and stores
//===----------------------------------------------------------------------===//

def TTG_LocalAllocOp : TTG_Op<"local_alloc"> {
  let summary = "allocate a shared-memory tile, optionally initialised from a tensor";
  let description = [{
    Without `src` the tile must be mutable. Deallocation is implicit at the
    point that post-dominates all uses unless a `ttg.local_dealloc` says
    otherwise.
  }];
  let arguments = (ins Optional<TT_Tensor>:$src, OptionalAttr<I32Attr>:$alignment);
  let results = (outs Res<TTG_MemDescType, "", [MemAlloc<TTG_SharedMemory>,
                                                 MemWrite<TTG_SharedMemory>]>:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc"> {
  let summary = "free a shared-memory tile";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemFree<TTG_SharedMemory>]>:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load"> {
  let summary = "read a shared-memory tile into a distributed tensor";
  let description = [{
    The optional token orders the read after the asynchronous copies it
    stands for.
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemRead<TTG_SharedMemory>]>:$src,
                       Optional<TTG_AsyncToken>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store"> {
  let summary = "write a distributed tensor into a mutable shared-memory tile";
  let arguments = (ins TT_Tensor:$src,
                       Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TTG_LocalGatherOp : TTG_Op<"local_gather"> {
  let summary = "gather from a shared-memory tile along one axis";
  let description = [{
    result[I] = src[I with coordinate `axis` replaced by indices[I]]; the
    result has the shape and layout of `indices`.
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemRead<TTG_SharedMemory>]>:$src,
                       TT_IntTensor:$indices, I32Attr:$axis,
                       Optional<TTG_AsyncToken>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` (`token` $token^)? attr-dict `:` qualified(type($src)) `,`
    type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_LocalScatterOp : TTG_Op<"local_scatter"> {
  let summary = "scatter into a shared-memory tile along one axis";
  let description = [{
    dst[I with coordinate `axis` replaced by indices[I]] = values[I].
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$dst,
                       TT_Tensor:$values, TT_IntTensor:$indices, I32Attr:$axis,
                       Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $dst `[` $indices `]` `,` $values (`token` $token^)? attr-dict `:`
    qualified(type($dst)) `,` type($indices) `,` type($values)
  }];
  let hasVerifier = 1;
}

def TTG_LocalAtomicScatterRMWOp : TTG_Op<"local_atomic_scatter_rmw"> {
  let summary = "atomic read-modify-write scattered into a shared-memory tile";
  let description = [{
    Like `ttg.local_scatter`, but each update atomically combines with the
    current value and the result returns the values seen before the update.
    Masked-off lanes neither update memory nor return a defined value.
  }];
  let arguments = (ins TT_RMWOpAttr:$atomic_rmw_op,
                       Arg<TTG_MemDescType, "", [MemRead<TTG_SharedMemory>,
                                                 MemWrite<TTG_SharedMemory>]>:$dst,
                       TT_Tensor:$values, TT_IntTensor:$indices,
                       Optional<TTG_I1Tensor>:$mask, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $dst `[` $indices `]` `,` $values (`,` $mask^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Views of shared-memory descriptors
//===----------------------------------------------------------------------===//

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "the `index`-th tile along the leading dimension";
  let arguments = (ins TTG_MemDescType:$src, I32:$index);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "a sub-tile at constant offsets";
  let description = [{
    `%src[2, 0]` views the region starting at those offsets with the result's
    shape; the result keeps the source's allocation shape.
  }];
  let arguments = (ins TTG_MemDescType:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` custom<Offsets>($offsets) `]` attr-dict `:` qualified(type($src))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "a transposed view: result dimension i is source dimension order[i]";
  let arguments = (ins TTG_MemDescType:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescReshapeOp : TTG_Op<"memdesc_reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "a view of the same elements with another shape";
  let arguments = (ins TTG_MemDescType:$src);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescReinterpretOp : TTG_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "the same bytes viewed with another shape, element type and encoding";
  let arguments = (ins TTG_MemDescType:$src);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Software pipelining helpers
//===----------------------------------------------------------------------===//

def TTG_PredicateStageOp : TTG_Op<"predicate_stage", [Pure, AllTypesMatch<["iv", "ub", "step"]>]> {
  let summary = "whether pipeline stage `stage` of iteration `iv` runs";
  let arguments = (ins AnySignlessIntegerOrIndex:$iv, AnySignlessIntegerOrIndex:$ub,
                       AnySignlessIntegerOrIndex:$step, I32Attr:$maxStage, I32Attr:$stage);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv)
    `->` type($result)
  }];
}

def TTG_MaskOp : TTG_Op<"mask", [SingleBlock]> {
  let summary = "region executed only when `pred` holds (pipeliner internal)";
  // Triton gives it no assembly format, so it is printed in generic form.
  let arguments = (ins I1:$pred);
  let results = (outs Variadic<AnyType>:$result);
  let regions = (region SizedRegion<1>:$region);
}

def TTG_MaskReturnOp : TTG_Op<"mask.return", [HasParent<"MaskOp">, Pure, Terminator,
                                              ReturnLike]> {
  let summary = "terminator of `ttg.mask`";
  let description = [{
    Printed as `ttg.mask.return %v : type`. Without values triton prints a colon and nothing
    after it, which its own parser rejects; this one accepts it.
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Conversions and scratch memory
//===----------------------------------------------------------------------===//

def TTG_Fp4ToFpOp : TTG_Op<"fp4_to_fp", [Pure]> {
  let summary = "unpack e2m1 pairs stored in i8 to bf16 or f16";
  let description = [{
    Each i8 holds two fp4 (e2m1) values, the first in the low nibble; the
    result is twice as long as the source along `axis`.
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$src, I32Attr:$axis);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc"> {
  let summary = "a global-memory buffer private to this program";
  let arguments = (ins I32Attr:$nbytes, I32Attr:$alignment,
                       OptionalAttr<UnitAttr>:$third_party_allocation,
                       OptionalAttr<UnitAttr>:$shared_cluster_state);
  let results = (outs Res<TT_Ptr, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [RecursiveMemoryEffects,
                                                      RecursivelySpeculatable]> {
  let summary = "run a default region and worker partitions concurrently";
  let description = [{
    The default region runs on the current warps and may capture values
    implicitly; its `ttg.warp_yield` operands become the results. Each
    partition runs on its own group of `num_warps` warps and only sees the
    explicit captures, so the partitions live in a nested
    `ttg.warp_specialize.partitions` op that is isolated from above:

    ```mlir
    %r = ttg.warp_specialize(%a, %b) attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield %x : i32
    }
    partition0(%arg0: i32, %arg1: i32) num_warps(1) {
      ttg.warp_return
    } : (i32, i32) -> i32
    ```
  }];
  let arguments = (ins DenseI32ArrayAttr:$partitionNumWarps,
                       OptionalAttr<DenseI32ArrayAttr>:$warpGroupStartIds,
                       OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
                       OptionalAttr<DenseI32ArrayAttr>:$actualRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion, SizedRegion<1>:$partitionOpHolder);
  let extraClassDeclaration = [{
    /// The op holding the partition regions and the explicit captures.
    WarpSpecializePartitionsOp getPartitionOp();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTG_WarpSpecializePartitionsOp : TTG_Op<"warp_specialize.partitions", [
    IsolatedFromAbove, RecursiveMemoryEffects, RecursivelySpeculatable, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "holder of the isolated partition regions of `ttg.warp_specialize`";
  let description = [{
    Never printed on its own: `ttg.warp_specialize` prints its operands (the
    explicit captures) and regions (the partitions).
  }];
  let arguments = (ins Variadic<AnyType>:$explicitCaptures);
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let hasVerifier = 1;
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [Pure, Terminator, ReturnLike,
                                            HasParent<"WarpSpecializeOp">]> {
  let summary = "terminator of the default region of `ttg.warp_specialize`";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^)? attr-dict (`:` type($values)^)?";
  let hasVerifier = 1;
}

def TTG_WarpReturnOp : TTG_Op<"warp_return", [Pure, Terminator, ReturnLike,
                                              HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "terminator of a partition region of `ttg.warp_specialize`";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Synchronization and thread identity
//===----------------------------------------------------------------------===//

def TTG_BarrierOp : TTG_Op<"barrier"> {
  let summary = "CTA-wide barrier that also orders the named address spaces";
  let description = [{
    `ttg.barrier local`, `ttg.barrier local|global_read`, `ttg.barrier all`
    (every address space) or `ttg.barrier none` (execution only). Like
    triton, the printer writes nothing but the address spaces.
  }];
  let arguments = (ins TTG_AddrSpaceAttr:$addrSpace);
  let hasCustomAssemblyFormat = 1;
}

def TTG_WarpIdOp : TTG_Op<"warp_id", [Pure]> {
  let summary = "the id of the executing warp";
  let arguments = (ins UnitAttr:$omitUniformHint);
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

#endif // TRITIUM_TTG_OPS
