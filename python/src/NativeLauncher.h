//===- NativeLauncher.h - Triton's launcher call in C -----------*- C++ -*-===//

#ifndef TRITIUM_PYTHON_NATIVELAUNCHER_H
#define TRITIUM_PYTHON_NATIVELAUNCHER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace tritium::python {

/// Adds the type `NativeLauncher(kinds, name)` to `module`; false with a Python error set if
/// it cannot.
bool addNativeLauncherType(PyObject *module);

} // namespace tritium::python

#endif // TRITIUM_PYTHON_NATIVELAUNCHER_H
