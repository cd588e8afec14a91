// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi's public header spells out the hardware facts its API exposes
 * (packet opcodes and bits, the CFG base, the SOB range) so that it stands
 * alone once installed.  This unit ties each of them to the hardware
 * description hw/gaudi1 (Documentation/hw.rst) at build time: a
 * disagreement does not compile.  It emits no code.
 */
#include "gaudi/gaudi.h"

/*
 * GAUDI_CFG_BASE has the same name on both sides: a differing value would
 * be a redefinition error; the assertion below says it outright.
 */
#include "gaudi1/memmap.h"
#include "gaudi1/packets.h"
#include "gaudi1/regs.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " != " #b)

SAME(GAUDI_PKT_WREG_32, PKT_WREG_32);
SAME(GAUDI_PKT_WREG_BULK, PKT_WREG_BULK);
SAME(GAUDI_PKT_MSG_LONG, PKT_MSG_LONG);
SAME(GAUDI_PKT_MSG_SHORT, PKT_MSG_SHORT);
SAME(GAUDI_PKT_CP_DMA, PKT_CP_DMA);
SAME(GAUDI_PKT_REPEAT, PKT_REPEAT);
SAME(GAUDI_PKT_MSG_PROT, PKT_MSG_PROT);
SAME(GAUDI_PKT_FENCE, PKT_FENCE);
SAME(GAUDI_PKT_LIN_DMA, PKT_LIN_DMA);
SAME(GAUDI_PKT_NOP, PKT_NOP);
SAME(GAUDI_PKT_STOP, PKT_STOP);
SAME(GAUDI_PKT_ARB_POINT, PKT_ARB_POINT);
SAME(GAUDI_PKT_WAIT, PKT_WAIT);
SAME(GAUDI_PKT_LOAD_AND_EXE, PKT_LOAD_AND_EXE);
SAME(GAUDI_PKT_EB, PKT_CTL_EB);
SAME(GAUDI_PKT_RB, PKT_CTL_RB);
SAME(GAUDI_PKT_MB, PKT_CTL_MB);
SAME(GAUDI_MSG_OP_WRITE, PKT_MSG_OP_WRITE);
SAME(GAUDI_MSG_OP_TIMESTAMP, PKT_MSG_OP_TIMESTAMP);
SAME(GAUDI_LIN_DMA_WRCOMP, PKT_LIN_DMA_WRCOMP);
SAME(GAUDI_LIN_DMA_TRANSPOSE, PKT_LIN_DMA_TRANSPOSE);
SAME(GAUDI_LIN_DMA_DTYPE, PKT_LIN_DMA_DTYPE);
SAME(GAUDI_LIN_DMA_DST_MAX, PKT_LIN_DMA_DST_ADDR);
SAME(GAUDI_LOAD_EXE_DST_SCALAR, PKT_LOAD_AND_EXE_DST);
SAME(GAUDI_LOAD_EXE_LOAD, PKT_LOAD_AND_EXE_LOAD);
SAME(GAUDI_LOAD_EXE_EXE, PKT_LOAD_AND_EXE_EXE);
SAME(GAUDI_LOAD_EXE_ETYPE, PKT_LOAD_AND_EXE_ETYPE);
SAME(GAUDI_CFG_BASE, 0x7FFC000000ULL);
SAME(GAUDI_SIGNALS_MAX, SM_SOB_VAL);
