//===- DeviceRuntimeFunctions.h - functions a device runtime provides -----===//
//
// The linalg form calls these for tl.device_print, tl.device_assert, the timeout of
// tl.atomic_poll and relaxed atomic read-modify-writes; every device target
// defines them (the CPU target in third_party/cpu/lib/Runtime/DeviceLibrary.cpp). Signatures
// use only i32, i64, f64 and pointers, so any target can implement them.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_CONVERSION_TRITONTOLINALG_DEVICERUNTIMEFUNCTIONS_H
#define TRITIUM_CONVERSION_TRITONTOLINALG_DEVICERUNTIMEFUNCTIONS_H

namespace tritium::device_runtime {

/// void (ptr prefix, i32 pid_x, i32 pid_y, i32 pid_z, i32 rank, i64 idx0, i64 idx1, i64 idx2,
///       i64 value, i32 bit_width, i32 flags)   flags: 1 = signed, 2 = hexadecimal
inline constexpr const char *kPrintInt = "tritium_print_int";
/// void (ptr prefix, i32 pid_x, i32 pid_y, i32 pid_z, i32 rank, i64 idx0, i64 idx1, i64 idx2,
///       f64 value)
inline constexpr const char *kPrintFloat = "tritium_print_float";
/// void (ptr message, ptr file, i32 line, ptr function, i32 pid_x, i32 pid_y, i32 pid_z)
/// Records the first failure; the launch then raises it once every program has finished.
inline constexpr const char *kAssertFail = "tritium_assert_fail";
/// i64 () — nanoseconds of a monotonic clock.
inline constexpr const char *kNanoseconds = "tritium_nanoseconds";
/// i32 () — nonzero when nothing else on the device can touch memory while the calling
/// program runs: its launch runs one program at a time and no other launch runs beside it.
/// Relaxed atomics of device scope may then be plain read-modify-writes, which overlap
/// their cache misses where locked instructions wait for each. A target may always return 0.
inline constexpr const char *kLaunchRunsAlone = "tritium_launch_runs_alone";
/// Print indices beyond this rank are dropped.
inline constexpr unsigned kMaxPrintRank = 3;

} // namespace tritium::device_runtime

#endif // TRITIUM_CONVERSION_TRITONTOLINALG_DEVICERUNTIMEFUNCTIONS_H
