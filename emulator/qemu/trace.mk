# The model's trace events in host builds (unit tests, fuzzers): include
# this file, add $(GAUDI_TRACE_H) to the prerequisites of every object of
# emulator/core and $(GAUDI_TRACE_CFLAGS) to its flags.  Each event of
# trace-events becomes an empty inline function (trace-stubs.py); QEMU
# builds get its tracing backends instead (trace.h next to this file).
GAUDI_TRACE_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
GAUDI_TRACE_OUT ?= $(GAUDI_TRACE_DIR)/../../build/trace
GAUDI_TRACE_H := $(GAUDI_TRACE_OUT)/trace.h
GAUDI_TRACE_CFLAGS := -I$(GAUDI_TRACE_OUT)

# The includer's first rule stays its default goal.
GAUDI_TRACE_GOAL := $(.DEFAULT_GOAL)
$(GAUDI_TRACE_H): $(GAUDI_TRACE_DIR)/trace-events $(GAUDI_TRACE_DIR)/trace-stubs.py
	@mkdir -p $(@D)
	@/usr/bin/python3 $(GAUDI_TRACE_DIR)/trace-stubs.py $< > $@.tmp
	@mv $@.tmp $@
.DEFAULT_GOAL := $(GAUDI_TRACE_GOAL)
