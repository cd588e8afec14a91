# SPDX-License-Identifier: GPL-2.0-only
# The command-buffer parser of gaudi.ko as a host build unit: include this
# file and compile $(GAUDI_PARSER_SRCS) with $(GAUDI_PARSER_CFLAGS) (the
# shim <linux/...> headers, kernel/ and the hardware description hw/).  Used by tests/kernel/Makefile and
# by anything else that links the parser on the host (the model fuzzer).
GAUDI_PARSER_TESTS := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
GAUDI_PARSER_KERNEL := $(abspath $(GAUDI_PARSER_TESTS)/../../kernel)
GAUDI_PARSER_SRCS := $(GAUDI_PARSER_KERNEL)/gaudi_parser.c
GAUDI_PARSER_HDRS := $(GAUDI_PARSER_KERNEL)/gaudi_parser.h \
	$(GAUDI_PARSER_KERNEL)/gaudi_layout.h \
	$(wildcard $(GAUDI_PARSER_TESTS)/shim/linux/*.h) \
	$(wildcard $(GAUDI_PARSER_KERNEL)/../hw/gaudi1/*.h)
GAUDI_PARSER_CFLAGS := -I$(GAUDI_PARSER_TESTS)/shim -I$(GAUDI_PARSER_KERNEL) \
	-I$(abspath $(GAUDI_PARSER_KERNEL)/../hw)
