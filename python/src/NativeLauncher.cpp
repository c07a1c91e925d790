//===- NativeLauncher.cpp - Triton's launcher call in C ---------------------===//
//
// Triton calls a kernel's launcher as
//   launcher(gridX, gridY, gridZ, stream, function, packed_metadata, launch_metadata,
//            enter_hook, exit_hook, *kernel_parameters)
// on every launch, from the JIT and straight from Inductor's generated code. This type does
// that call with the C API only (vectorcall, no argument tuple, no Python frame): it knows the
// kernel's parameter kinds from its signature, packs each kept parameter into the 8-byte slot
// the kernel entry reads, releases the GIL and runs the grid.
//
//===----------------------------------------------------------------------===//

#include "NativeLauncher.h"

#include "tritium/Target/CPU/Runtime.h"

#include <cstddef>
#include <cstring>
#include <string>

namespace tritium::python {
namespace {

constexpr Py_ssize_t kLeadingArguments = 9; // grid x/y/z, stream, function, ..., exit hook
constexpr char kSkipped = '-';              // a constexpr parameter: not passed to the kernel
constexpr int kMaxSlots = 256;

struct NativeLauncher {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  // One letter per kernel parameter, Triton's order: p pointer, b bool, i/l signed, u/U
  // unsigned, f f32, d f64, e fp16, B bf16, '-' constexpr.
  std::string *kinds;
  PyObject *name;   // the kernel's name, for errors
  PyObject *params; // a tuple of the parameters' names (or empty), for errors
};

PyObject *dataPtrName;
PyObject *callsName;
PyObject *isCpuName;

uint16_t halfBits(double value) {
  _Float16 half = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}

/// bf16: the fp32 value's top half, rounded to nearest even (as Triton packs bf16 scalars).
uint16_t bfloat16Bits(double value) {
  float single = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &single, sizeof(bits));
  return uint16_t((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

/// "parameter 3 ('x')", or "parameter 3" when the names are unknown.
PyObject *describeParameter(NativeLauncher *self, Py_ssize_t parameter) {
  if (parameter < PyTuple_GET_SIZE(self->params))
    return PyUnicode_FromFormat("parameter %zd ('%S')", parameter,
                                PyTuple_GET_ITEM(self->params, parameter));
  return PyUnicode_FromFormat("parameter %zd", parameter);
}

/// An argument error naming the kernel and the parameter; returns false for the caller.
bool argumentError(NativeLauncher *self, Py_ssize_t parameter, const char *what,
                   PyObject *errorType = PyExc_TypeError) {
  PyObject *type = nullptr, *cause = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &cause, &traceback);
  PyErr_NormalizeException(&type, &cause, &traceback);
  PyObject *which = describeParameter(self, parameter);
  if (!which) {
    PyErr_Clear();
    which = PyUnicode_FromString("parameter ?");
  }
  if (cause)
    PyErr_Format(errorType, "tritium: kernel '%U', %U: %s (%S)", self->name, which, what, cause);
  else
    PyErr_Format(errorType, "tritium: kernel '%U', %U: %s", self->name, which, what);
  Py_XDECREF(which);
  Py_XDECREF(type);
  Py_XDECREF(cause);
  Py_XDECREF(traceback);
  return false;
}

/// A tensor whose memory is not the host's (torch's `is_cpu` is false: a GPU or meta tensor)
/// cannot be read by a CPU kernel: the error names the parameter and the tensor's device.
/// The `is_cpu` descriptor of `type` (null if it has none), looked up once per type: launches see
/// the same tensor type again and again, and a lookup per argument would walk the type's MRO.
PyObject *isCpuDescriptor(PyTypeObject *type) {
  static PyTypeObject *cachedType = nullptr;
  static PyObject *cachedDescriptor = nullptr;
  if (type != cachedType) {
    PyObject *descriptor = _PyType_Lookup(type, isCpuName); // borrowed
    if (descriptor && !Py_TYPE(descriptor)->tp_descr_get)
      descriptor = nullptr;
    Py_XINCREF(descriptor);
    Py_XDECREF(cachedDescriptor);
    Py_INCREF(type);
    Py_XDECREF(reinterpret_cast<PyObject *>(cachedType));
    cachedType = type;
    cachedDescriptor = descriptor;
  }
  return cachedDescriptor;
}

bool checkOnCpu(NativeLauncher *self, Py_ssize_t parameter, PyObject *arg) {
  PyObject *descriptor = isCpuDescriptor(Py_TYPE(arg));
  if (!descriptor)
    return true; // not a torch tensor: nothing to check
  PyObject *onCpu = Py_TYPE(descriptor)->tp_descr_get(descriptor, arg,
                                                       reinterpret_cast<PyObject *>(Py_TYPE(arg)));
  if (!onCpu) {
    PyErr_Clear();
    return true;
  }
  bool cpu = onCpu != Py_False;
  Py_DECREF(onCpu);
  if (cpu)
    return true;
  PyObject *device = PyObject_GetAttrString(arg, "device");
  if (!device)
    PyErr_Clear();
  PyObject *text = PyUnicode_FromFormat(
      "the tensor is on device '%S'; tritium runs kernels on the CPU: pass CPU tensors "
      "(tensor.cpu(), or create them with device='cpu')",
      device ? device : Py_None);
  Py_XDECREF(device);
  if (!text)
    return false;
  argumentError(self, parameter, PyUnicode_AsUTF8(text), PyExc_ValueError);
  Py_DECREF(text);
  return false;
}

bool packPointer(NativeLauncher *self, Py_ssize_t parameter, PyObject *arg, uint64_t &slot) {
  if (arg == Py_None) {
    slot = 0;
    return true;
  }
  if (PyLong_CheckExact(arg)) {
    slot = PyLong_AsUnsignedLongLong(arg);
    return !PyErr_Occurred() || argumentError(self, parameter, "not a valid address");
  }
  PyObject *address = PyObject_CallMethodNoArgs(arg, dataPtrName);
  if (!address) {
    if (std::strcmp(Py_TYPE(arg)->tp_name, "numpy.ndarray") == 0)
      return argumentError(self, parameter,
                           "a numpy array cannot be passed as it is: wrap it with "
                           "tritium.as_tensor_arg(array) (no copy), or pass a torch tensor");
    return argumentError(self, parameter,
                         "expected a tensor (an object with data_ptr()), None or an address; "
                         "wrap numpy arrays with tritium.as_tensor_arg");
  }
  if (!checkOnCpu(self, parameter, arg)) {
    Py_DECREF(address);
    return false;
  }
  slot = PyLong_AsUnsignedLongLong(address);
  Py_DECREF(address);
  return !PyErr_Occurred() || argumentError(self, parameter, "data_ptr() is not an address");
}

bool packInteger(NativeLauncher *self, Py_ssize_t parameter, PyObject *arg, bool isSigned,
                 uint64_t &slot) {
  PyObject *integer = PyLong_Check(arg) ? (Py_INCREF(arg), arg) : PyNumber_Long(arg);
  if (!integer)
    return argumentError(self, parameter, "expected an integer");
  if (isSigned)
    slot = uint64_t(PyLong_AsLongLong(integer));
  else
    slot = PyLong_AsUnsignedLongLong(integer);
  Py_DECREF(integer);
  return !PyErr_Occurred() || argumentError(self, parameter, "integer out of range");
}

bool packFloat(NativeLauncher *self, Py_ssize_t parameter, PyObject *arg, char kind,
               uint64_t &slot) {
  double value = PyFloat_AsDouble(arg);
  if (value == -1.0 && PyErr_Occurred())
    return argumentError(self, parameter, "expected a number");
  slot = 0;
  switch (kind) {
  case 'f': {
    float single = static_cast<float>(value);
    std::memcpy(&slot, &single, sizeof(single));
    break;
  }
  case 'd': std::memcpy(&slot, &value, sizeof(value)); break;
  case 'e': slot = halfBits(value); break;
  default: slot = bfloat16Bits(value); break;
  }
  return true;
}

bool packArgument(NativeLauncher *self, Py_ssize_t parameter, char kind, PyObject *arg,
                  uint64_t &slot) {
  switch (kind) {
  case 'p': return packPointer(self, parameter, arg, slot);
  case 'b': {
    int truth = PyObject_IsTrue(arg);
    if (truth < 0)
      return argumentError(self, parameter, "expected a bool");
    slot = uint64_t(truth);
    return true;
  }
  case 'i': case 'l': return packInteger(self, parameter, arg, true, slot);
  case 'u': case 'U': return packInteger(self, parameter, arg, false, slot);
  default: return packFloat(self, parameter, arg, kind, slot);
  }
}

bool gridSize(PyObject *arg, const char *axis, int32_t &size) {
  long long value = PyLong_AsLongLong(arg);
  if (value == -1 && PyErr_Occurred())
    return false;
  if (value > INT32_MAX) {
    PyErr_Format(PyExc_ValueError,
                 "tritium: grid size %lld along %s is beyond 2^31-1 programs; use fewer, larger "
                 "blocks or another grid axis",
                 value, axis);
    return false;
  }
  size = int32_t(value);
  return true;
}

/// Calls Triton's launch hook, unless it is None or an empty HookChain (the usual case, which
/// would otherwise cost a Python call per launch).
bool callHook(PyObject *hook, PyObject *metadata) {
  if (hook == Py_None)
    return true;
  if (PyObject *calls = PyObject_GetAttr(hook, callsName)) {
    bool empty = PyList_CheckExact(calls) && PyList_GET_SIZE(calls) == 0;
    Py_DECREF(calls);
    if (empty)
      return true;
  } else {
    PyErr_Clear();
  }
  PyObject *result = PyObject_CallOneArg(hook, metadata);
  Py_XDECREF(result);
  return result != nullptr;
}

/// torch's profiler, seen from a launch: the flag `torch.autograd.profiler._is_profiler_enabled`
/// is read on every launch (a dictionary lookup once torch is imported), and only while it is
/// true does a launch call into Python (tritium.profiling) to open and close its event.
PyObject *profilerGlobals; // torch.autograd.profiler's __dict__, once that module is imported
PyObject *profilerModuleName;
PyObject *profilerEnabledName;

bool profilerEnabled() {
  if (!profilerGlobals) {
    PyObject *module = PyImport_GetModule(profilerModuleName); // null, no error, if not imported
    if (!module) {
      PyErr_Clear();
      return false;
    }
    profilerGlobals = PyModule_GetDict(module);
    Py_XINCREF(profilerGlobals);
    Py_DECREF(module);
    if (!profilerGlobals)
      return false;
  }
  return PyDict_GetItemWithError(profilerGlobals, profilerEnabledName) == Py_True;
}

/// tritium.profiling's function `name`, imported on the first profiled launch.
PyObject *profilingFunction(const char *name) {
  PyObject *module = PyImport_ImportModule("tritium.profiling");
  if (!module)
    return nullptr;
  PyObject *function = PyObject_GetAttrString(module, name);
  Py_DECREF(module);
  return function;
}

/// The open event of this launch (None where Inductor records the launch itself), or null with
/// a Python error.
PyObject *openLaunchEvent(NativeLauncher *self, int32_t gridX, int32_t gridY, int32_t gridZ) {
  static PyObject *open = nullptr;
  if (!open)
    open = profilingFunction("open_launch_event");
  if (!open)
    return nullptr;
  PyObject *grid = Py_BuildValue("(iii)", gridX, gridY, gridZ);
  if (!grid)
    return nullptr;
  PyObject *args[] = {self->name, grid};
  PyObject *event = PyObject_Vectorcall(open, args, 2, nullptr);
  Py_DECREF(grid);
  return event;
}

/// Closes (and releases) an event from openLaunchEvent; false with a Python error if that fails.
bool closeLaunchEvent(PyObject *event) {
  if (!event)
    return true;
  static PyObject *close = nullptr;
  if (!close)
    close = profilingFunction("close_launch_event");
  PyObject *result = close ? PyObject_CallOneArg(close, event) : nullptr;
  Py_DECREF(event);
  Py_XDECREF(result);
  return result != nullptr;
}

/// A wrong number of arguments: which parameters are missing (a library's kernel cache that
/// calls compiled kernels directly must pass the constexpr ones too) or how many are extra.
void countError(NativeLauncher *self, Py_ssize_t given) {
  Py_ssize_t expected = Py_ssize_t(self->kinds->size());
  if (given < expected && PyTuple_GET_SIZE(self->params) == expected) {
    PyObject *missing = PyTuple_GetSlice(self->params, given, expected);
    PyObject *separator = PyUnicode_FromString(", ");
    PyObject *names = missing && separator ? PyUnicode_Join(separator, missing) : nullptr;
    Py_XDECREF(missing);
    Py_XDECREF(separator);
    if (names) {
      PyErr_Format(PyExc_TypeError,
                   "tritium: kernel '%U' takes %zd parameters, %zd given: missing %U (a compiled "
                   "kernel is called with every parameter in order, constexpr ones included)",
                   self->name, expected, given, names);
      Py_DECREF(names);
      return;
    }
    PyErr_Clear();
  }
  PyErr_Format(PyExc_TypeError, "tritium: kernel '%U' takes %zd parameters, %zd given",
               self->name, expected, given);
}

PyObject *launch(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  auto *self = reinterpret_cast<NativeLauncher *>(callable);
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const std::string &kinds = *self->kinds;
  if (kwnames && PyTuple_GET_SIZE(kwnames) != 0) {
    PyErr_SetString(PyExc_TypeError, "tritium: the launcher takes no keyword arguments");
    return nullptr;
  }
  if (nargs != kLeadingArguments + Py_ssize_t(kinds.size())) {
    countError(self, nargs - kLeadingArguments);
    return nullptr;
  }
  int32_t gridX, gridY, gridZ;
  if (!gridSize(args[0], "x", gridX) || !gridSize(args[1], "y", gridY) ||
      !gridSize(args[2], "z", gridZ))
    return nullptr;
  auto entry = reinterpret_cast<tritium::cpu::KernelEntry>(PyLong_AsVoidPtr(args[4]));
  if (!entry && PyErr_Occurred())
    return nullptr;

  uint64_t slots[kMaxSlots + 1];
  int slot = 0;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == kSkipped)
      continue;
    if (!packArgument(self, Py_ssize_t(i), kinds[i], args[kLeadingArguments + i], slots[slot++]))
      return nullptr;
  }
  slots[slot] = 0;

  PyObject *launchMetadata = args[6];
  if (!callHook(args[7], launchMetadata))
    return nullptr;
  PyObject *event = nullptr;
  if (profilerEnabled()) {
    event = openLaunchEvent(self, gridX, gridY, gridZ);
    if (!event)
      return nullptr;
  } else if (PyErr_Occurred()) {
    return nullptr;
  }
  Py_BEGIN_ALLOW_THREADS
  tritium::cpu::launchGrid(entry, slots, gridX, gridY, gridZ);
  Py_END_ALLOW_THREADS
  std::string failure;
  bool failed = tritium::cpu::takeAssertFailure(failure);
  if (!closeLaunchEvent(event))
    return nullptr;
  if (failed) {
    PyErr_SetString(PyExc_AssertionError, failure.c_str());
    return nullptr;
  }
  if (!callHook(args[8], launchMetadata))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *create(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  const char *kinds;
  PyObject *name;
  PyObject *params = nullptr;
  static const char *keywords[] = {"kinds", "name", "params", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sU|O!", const_cast<char **>(keywords), &kinds,
                                   &name, &PyTuple_Type, &params))
    return nullptr;
  int numSlots = 0;
  for (const char *k = kinds; *k; ++k) {
    if (!std::strchr("-pbiluUfdeB", *k)) {
      PyErr_Format(PyExc_ValueError, "tritium: unknown parameter kind '%c'", *k);
      return nullptr;
    }
    numSlots += *k != kSkipped;
  }
  if (numSlots > kMaxSlots) {
    PyErr_Format(PyExc_ValueError, "tritium: kernel '%U' has %d parameters; at most %d are supported",
                 name, numSlots, kMaxSlots);
    return nullptr;
  }
  auto *self = reinterpret_cast<NativeLauncher *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  self->vectorcall = launch;
  self->kinds = new std::string(kinds);
  Py_INCREF(name);
  self->name = name;
  self->params = params ? params : PyTuple_New(0);
  if (params)
    Py_INCREF(params);
  return reinterpret_cast<PyObject *>(self);
}

/// Pickles as the call that makes it: Inductor pickles compiled kernels with their launchers.
PyObject *reduce(PyObject *object, PyObject *) {
  auto *self = reinterpret_cast<NativeLauncher *>(object);
  return Py_BuildValue("(O(s#OO))", Py_TYPE(object), self->kinds->data(),
                       Py_ssize_t(self->kinds->size()), self->name, self->params);
}

PyMethodDef launcherMethods[] = {
    {"__reduce__", reduce, METH_NOARGS, "Pickle support."},
    {nullptr, nullptr, 0, nullptr},
};

void destroy(PyObject *object) {
  auto *self = reinterpret_cast<NativeLauncher *>(object);
  delete self->kinds;
  Py_XDECREF(self->name);
  Py_XDECREF(self->params);
  Py_TYPE(object)->tp_free(object);
}

PyTypeObject launcherType = [] {
  PyTypeObject type{PyVarObject_HEAD_INIT(nullptr, 0)};
  type.tp_name = "tritium._C.NativeLauncher";
  type.tp_basicsize = sizeof(NativeLauncher);
  type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL;
  type.tp_doc = "NativeLauncher(kinds, name, params=()): Triton's launcher call for one kernel "
                "signature.";
  type.tp_new = create;
  type.tp_dealloc = destroy;
  type.tp_methods = launcherMethods;
  type.tp_call = PyVectorcall_Call;
  type.tp_vectorcall_offset = offsetof(NativeLauncher, vectorcall);
  return type;
}();

} // namespace

bool addNativeLauncherType(PyObject *module) {
  dataPtrName = PyUnicode_InternFromString("data_ptr");
  callsName = PyUnicode_InternFromString("calls");
  isCpuName = PyUnicode_InternFromString("is_cpu");
  profilerModuleName = PyUnicode_InternFromString("torch.autograd.profiler");
  profilerEnabledName = PyUnicode_InternFromString("_is_profiler_enabled");
  if (!dataPtrName || !callsName || !isCpuName || !profilerModuleName || !profilerEnabledName ||
      PyType_Ready(&launcherType) < 0)
    return false;
  Py_INCREF(&launcherType);
  return PyModule_AddObject(module, "NativeLauncher",
                            reinterpret_cast<PyObject *>(&launcherType)) == 0;
}

} // namespace tritium::python
