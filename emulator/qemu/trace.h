/*
 * The model's trace events inside QEMU (trace-events).  The engines of
 * emulator/core include this file by name too, as the first header of the
 * file (QEMU's osdep.h comes first); host builds find the empty stubs of
 * trace-stubs.py under the same name instead.
 */
#include "qemu/osdep.h"
#include "trace/trace-hw_misc_gaudi.h"
