/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How gaudi.ko lays out what the hardware leaves to the driver: the parts
 * of the host virtual range and the sync-manager objects it keeps.  The
 * hardware itself is described in hw/gaudi1/ (Documentation/hw.rst).
 */
#ifndef GAUDI_LAYOUT_H
#define GAUDI_LAYOUT_H

#include <linux/sizes.h>

#include "gaudi1/memmap.h"

/* The first 4 GiB of the host range hold mapped CBs (HL_CB_FLAGS_MAP). */
#define GAUDI_VA_CB_START	GAUDI_VA_HOST_START
#define GAUDI_VA_CB_END		(GAUDI_VA_HOST_START + SZ_4G)
#define GAUDI_VA_USER_START	GAUDI_VA_CB_END

/* First SOB and monitor of the W_S block that belong to users. */
#define GAUDI_FIRST_USER_SOB	144
#define GAUDI_FIRST_USER_MON	72
/*
 * The driver's signal/wait CSs: 2 SOBs and 1 monitor per external queue,
 * at upstream's numbers (SOBs 0..127 and monitors 0..63 are upstream's for
 * collective waits, which need NIC ports).
 */
#define GAUDI_SIG_FIRST_SOB	128
#define GAUDI_SIG_FIRST_MON	64
/*
 * Collective waits, in upstream's part of the range: one SOB per master
 * (external) queue, the slaves add 1 to it; a monitor per slave queue
 * (NIC queues 0..39, the reduction engines DMA 5 and TPC 7 40..47) and
 * per master (48..55).
 */
#define GAUDI_COLL_FIRST_SOB	0
#define GAUDI_COLL_MON_NIC	0
#define GAUDI_COLL_MON_DMA5	40
#define GAUDI_COLL_MON_TPC7	44
#define GAUDI_COLL_MON_MASTER	48
#define GAUDI_COLL_MONS		56

/*
 * HBM for the NIC's tables (QP contexts), 1 MiB per port, inside the
 * driver's reserved HBM that users can neither read nor write
 * (gaudi_security.c: the read range 0x18000000/64 MiB, the write range
 * 0/512 MiB).
 */
#define GAUDI_NIC_HBM_BASE	0x18000000ULL
#define GAUDI_NIC_HBM_PORT_SIZE	SZ_1M

/*
 * A port's QP numbers the driver gives users as connections (QP 0 is
 * gaudi_en's raw queue, QP 1 InfiniBand's general services): the uapi's
 * GAUDI_NIC_FIRST_CONN..GAUDI_NIC_MAX_CONN - 1.
 */
#define GAUDI_NIC_USER_FIRST_QP	2
#define GAUDI_NIC_USER_QPS	1024

#endif /* GAUDI_LAYOUT_H */
